"""The one place that talks to SQLite.

Every state change of a game is one transaction guarded by the game's version number,
so two concurrent clicks can never both apply and a crash can never half-apply a move.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import os
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

import aiosqlite

from games.base import GameStatus
from storage.community import CommunityStore, GameResults
from storage.migrate import migrate

DEFAULT_PATH = "./data/conductor.db"
OPEN_STATUSES = ("lobby", "active")
# True while this task runs statements inside a transaction it holds the lock for (the commit's
# hooks): the helpers then run their statements in that transaction instead of waiting for the lock.
_IN_TRANSACTION: contextvars.ContextVar[bool] = contextvars.ContextVar("store_in_transaction", default=False)


class StaleVersion(Exception):
    """The game changed since it was read; nothing was written."""


class ChannelBusy(Exception):
    """The channel already has a lobby or an active game."""


class StoreError(Exception):
    """The database cannot be opened or brought up to date; the message is one line for the operator."""


@dataclass(frozen=True)
class GameRow:
    id: int
    guild_id: str
    channel_id: str
    game: str
    status: GameStatus  # the schema's CHECK constraint keeps stored values to these
    host_id: str
    options: dict[str, Any]
    seed: int | None
    rules_version: str
    state: dict[str, Any] | None
    version: int
    created_at: float
    updated_at: float
    paused: bool = False
    # Why the row cannot be used, when part of it cannot be decoded (state and options read as
    # None and {}); None for a healthy row. Damaged games are listed as such and can be aborted.
    damaged: str | None = None
    salt: str | None = None  # with the seed, what the commitment posted at the start hashes
    commitment: str | None = None


@dataclass(frozen=True)
class SeatRow:
    seat: int
    user_id: str
    display_name: str
    kind: str
    bot_level: int


@dataclass(frozen=True)
class MoveRow:
    seq: int
    seat: int
    user_id: str
    text: str
    irreversible: bool
    reverted: bool
    created_at: float


@dataclass(frozen=True)
class MoveRecord:
    """A move to append in the same transaction as the new state."""

    seat: int
    user_id: str
    text: str
    irreversible: bool = False


@dataclass(frozen=True)
class NewTimer:
    """A timer to add in the same transaction as a change."""

    kind: str
    due_at: float
    payload: dict[str, Any]


@dataclass(frozen=True)
class Announcement:
    """What a change posts to its channel, kept in the outbox until a front end has posted it."""

    text: str
    pings: list[str]
    board: bool


@dataclass(frozen=True)
class OutboxRow:
    id: int
    game_id: int
    version: int
    announcement: Announcement


@dataclass(frozen=True)
class TableRow:
    """Everything the host needs about one game, read at once: the game, its seats, the channel's
    settings (guild-wide values where the channel has none) and which seated users muted pings."""

    game: GameRow
    seats: list[SeatRow]
    settings: dict[str, str]
    pings_off: frozenset[str]
    # The game's notes (table game_notes): small host facts kept beside the state.
    notes: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class TimerRow:
    id: int
    game_id: int | None
    kind: str
    due_at: float
    payload: dict[str, Any]


_GAME_COLUMNS = (
    "id, guild_id, channel_id, game, status, host_id, options, seed, rules_version, state, version, "
    "created_at, updated_at, paused, salt, commitment"
)


def _game(row: Iterable[Any]) -> GameRow:
    (
        gid,
        guild,
        channel,
        game,
        status,
        host,
        options,
        seed,
        rules,
        state,
        version,
        created,
        updated,
        paused,
        salt,
        commitment,
    ) = row
    options, options_damage = _decode_object(options, "options")
    state, state_damage = _decode_object(state, "saved state") if state is not None else (None, None)
    seed_damage = None if seed is None or type(seed) is int else "its seed is not a whole number"
    damage = "; ".join(d for d in (state_damage, options_damage, seed_damage) if d) or None
    return GameRow(
        id=gid,
        guild_id=guild,
        channel_id=channel,
        game=game,
        status=status,
        host_id=host,
        options=options or {},
        seed=seed if seed_damage is None else None,
        rules_version=rules,
        state=state,
        version=version,
        created_at=created,
        updated_at=updated,
        paused=bool(paused),
        damaged=damage,
        salt=salt,
        commitment=commitment,
    )


def _decode_object(stored: Any, what: str) -> tuple[dict[str, Any] | None, str | None]:
    """A JSON object column: (value, None), or (None, why it cannot be decoded)."""
    problem = f"its {what} cannot be decoded"
    if isinstance(stored, _Undecodable):
        return None, f"{problem} (not UTF-8 text)"
    if isinstance(stored, bytes):
        try:
            stored = stored.decode("utf-8")
        except UnicodeDecodeError:
            return None, f"{problem} (not UTF-8 text)"
    if not isinstance(stored, str):
        return None, f"{problem} (not text)"
    try:
        value = json.loads(stored)
    except (ValueError, RecursionError):
        return None, f"{problem} (not valid JSON)"
    if not isinstance(value, dict):
        return None, f"{problem} (not a JSON object)"
    return value, None


def dumps(value: Any) -> str:
    """Canonical JSON so equal states are equal strings."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


# ----- opening a database that may be bad --------------------------------------------------


class _Undecodable(str):
    """Text stored as bytes that are not UTF-8, decoded with replacement characters."""


def _text(raw: bytes) -> str:
    """The connection's text factory: a damaged value reads as text instead of failing the whole query."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return _Undecodable(raw.decode("utf-8", "replace"))


def _prepare_folder(where: str) -> None:
    target = Path(where)
    if target.is_dir():
        raise StoreError(f"cannot open the database {where}: it is a directory, not a file")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(
            f"cannot open the database {where}: cannot create its folder {target.parent} ({exc.strerror or exc})"
        ) from None


def _open_failure(where: str, exc: BaseException) -> str:
    """One line saying why ``where`` cannot be used, with the likely cause."""
    said = " ".join(str(exc).split()) or type(exc).__name__
    target = Path(where)
    folder = target.parent
    if "not a database" in said:
        reason = f"it is not an SQLite database, or it is damaged ({said})"
    elif "malformed" in said:
        reason = f"the file is damaged, for example truncated ({said})"
    elif target.is_dir():
        reason = "it is a directory, not a file"
    elif not os.access(folder, os.W_OK | os.X_OK):
        reason = f"the folder {folder} is not writable; SQLite needs to create files next to the database ({said})"
    elif target.exists() and not os.access(target, os.R_OK | os.W_OK):
        reason = f"the file is not readable and writable ({said})"
    else:
        reason = said
    return f"cannot open the database {where}: {reason}"


async def _connect(where: str) -> aiosqlite.Connection:
    db = aiosqlite.connect(where, isolation_level=None)
    try:
        return await db
    except BaseException:
        # aiosqlite queues the stop of its worker thread without waiting for it; wait here, or the
        # thread reports to an event loop that has closed meanwhile (a traceback on stderr).
        worker = getattr(db, "_thread", db)  # aiosqlite < 0.21: the connection is the thread
        if isinstance(worker, threading.Thread) and worker.is_alive():
            await asyncio.to_thread(worker.join, 5)
        raise


async def _check_schema(db: aiosqlite.Connection) -> None:
    """Read every table's first page: a database truncated or overwritten after its header fails
    here, at start-up, instead of in the middle of a command."""
    async with db.execute("SELECT name FROM sqlite_master WHERE type = 'table'") as cursor:
        tables = [row[0] for row in await cursor.fetchall()]
    for table in tables:
        async with db.execute(f'SELECT * FROM "{table}" LIMIT 1') as cursor:
            await cursor.fetchall()


class Store(CommunityStore):
    """Async access to the database. Open with ``await Store.open(path)``.

    One connection serves every concurrent command of the process, so every statement and
    every transaction runs under one lock: otherwise a second BEGIN would land inside the
    first transaction, and a lone write or read could slip into (and roll back with) another
    command's transaction.
    """

    def __init__(self, db: aiosqlite.Connection, clock: Any = time.time) -> None:
        self._db = db
        self._clock = clock
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | os.PathLike[str] = DEFAULT_PATH, clock: Any = time.time) -> Store:
        """Connect, set the pragmas and apply pending migrations.

        Raises StoreError (a one-line reason) when the file is not a usable SQLite database: not
        SQLite at all, truncated or otherwise damaged, a directory, or in a folder that cannot be
        written. The connection's worker thread is stopped first, so the process can still exit.
        """
        where = str(path)
        if where != ":memory:":
            _prepare_folder(where)
        try:
            db = await _connect(where)
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(_open_failure(where, exc)) from None
        try:
            db.text_factory = _text
            await db.execute("PRAGMA busy_timeout=5000")  # first: another process may hold the file
            await db.execute("PRAGMA journal_mode=WAL")
            await db.execute("PRAGMA synchronous=NORMAL")
            await db.execute("PRAGMA foreign_keys=ON")
            await migrate(db)
            await _check_schema(db)
        except BaseException as exc:
            # aiosqlite runs each connection in a non-daemon thread: left open, it keeps the
            # process alive for ever after the error.
            with contextlib.suppress(BaseException):
                await db.close()
            if isinstance(exc, sqlite3.Error | OSError):
                raise StoreError(_open_failure(where, exc)) from None
            raise
        return cls(db, clock)

    async def close(self) -> None:
        await self._db.close()

    @property
    def connection(self) -> aiosqlite.Connection:
        return self._db

    @contextlib.asynccontextmanager
    async def _locked(self) -> AsyncIterator[None]:
        if _IN_TRANSACTION.get():
            yield
            return
        async with self._lock:
            yield

    async def _one(self, sql: str, params: tuple[Any, ...] = ()) -> Any:
        async with self._locked(), self._db.execute(sql, params) as cursor:
            return await cursor.fetchone()

    async def _all(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        async with self._locked(), self._db.execute(sql, params) as cursor:
            return list(await cursor.fetchall())

    async def _write(self, sql: str, params: tuple[Any, ...] = ()) -> aiosqlite.Cursor:
        """One statement in its own (autocommit) transaction, or in the commit's when a hook runs it."""
        async with self._locked():
            return await self._db.execute(sql, params)

    # ----- games -------------------------------------------------------------------------

    async def create_game(
        self,
        guild_id: str,
        channel_id: str,
        game: str,
        host_id: str,
        host_name: str,
        options: dict[str, Any],
        rules_version: str,
        timers: Sequence[NewTimer] = (),
    ) -> GameRow:
        """A new lobby with its host in seat 0 (and its timers). Raises ChannelBusy if the channel
        has an open game."""
        now = self._clock()
        async with self._lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                cursor = await self._db.execute(
                    "INSERT INTO games (guild_id, channel_id, game, status, host_id, options, rules_version, "
                    "version, created_at, updated_at) VALUES (?, ?, ?, 'lobby', ?, ?, ?, 0, ?, ?)",
                    (guild_id, channel_id, game, host_id, dumps(options), rules_version, now, now),
                )
                game_id = int(cursor.lastrowid or 0)
                await self._db.execute(
                    "INSERT INTO seats (game_id, seat, user_id, display_name, kind) VALUES (?, 0, ?, ?, 'human')",
                    (game_id, host_id, host_name),
                )
                await self._db.executemany(
                    "INSERT INTO timers (game_id, kind, due_at, payload, created_at) VALUES (?, ?, ?, ?, ?)",
                    [(game_id, t.kind, t.due_at, dumps(t.payload), now) for t in timers],
                )
                await self._db.execute("COMMIT")
            except aiosqlite.IntegrityError:
                await self._db.execute("ROLLBACK")
                raise ChannelBusy(channel_id) from None
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
        # The new row as written: nothing is read back.
        return GameRow(
            id=game_id,
            guild_id=guild_id,
            channel_id=channel_id,
            game=game,
            status="lobby",
            host_id=host_id,
            options=json.loads(dumps(options)),
            seed=None,
            rules_version=rules_version,
            state=None,
            version=0,
            created_at=now,
            updated_at=now,
        )

    async def get_game(self, game_id: int) -> GameRow | None:
        row = await self._one(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return _game(row) if row else None

    async def open_game(self, guild_id: str, channel_id: str) -> GameRow | None:
        """The lobby or active game in this channel, if any."""
        row = await self._one(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE guild_id = ? AND channel_id = ? "
            "AND status IN ('lobby', 'active')",
            (guild_id, channel_id),
        )
        return _game(row) if row else None

    async def latest_game(self, guild_id: str, channel_id: str) -> GameRow | None:
        """The channel's open game, else its most recent finished or aborted one (for history views)."""
        row = await self._one(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE guild_id = ? AND channel_id = ? "
            "ORDER BY status IN ('lobby', 'active') DESC, id DESC LIMIT 1",
            (guild_id, channel_id),
        )
        return _game(row) if row else None

    async def list_games(self, guild_id: str | None = None, statuses: Iterable[str] = OPEN_STATUSES) -> list[GameRow]:
        wanted = tuple(statuses)
        marks = ",".join("?" * len(wanted))
        sql = f"SELECT {_GAME_COLUMNS} FROM games WHERE status IN ({marks})"
        params: tuple[Any, ...] = wanted
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params += (guild_id,)
        return [_game(row) for row in await self._all(sql + " ORDER BY id", params)]

    async def all_games(self) -> list[GameRow]:
        return [_game(row) for row in await self._all(f"SELECT {_GAME_COLUMNS} FROM games ORDER BY id")]

    async def games_of_user(self, user_id: str, statuses: Iterable[str] = OPEN_STATUSES) -> list[GameRow]:
        wanted = tuple(statuses)
        marks = ",".join("?" * len(wanted))
        rows = await self._all(
            f"SELECT {', '.join('g.' + c.strip() for c in _GAME_COLUMNS.split(','))} FROM games g "
            f"JOIN seats s ON s.game_id = g.id WHERE s.user_id = ? AND g.status IN ({marks}) ORDER BY g.id",
            (user_id, *wanted),
        )
        return [_game(row) for row in rows]

    async def update_game(
        self,
        game_id: int,
        expected_version: int,
        *,
        state: dict[str, Any] | None = None,
        status: str | None = None,
        seed: int | None = None,
        options: dict[str, Any] | None = None,
        host_id: str | None = None,
        paused: bool | None = None,
        move: MoveRecord | None = None,
        revert_from_seq: int | None = None,
    ) -> int:
        """Change a game in one transaction if its version is still ``expected_version``.

        Optionally appends one move row and/or marks moves with seq >= ``revert_from_seq``
        reverted (undo, rollback). Returns the new version; raises StaleVersion otherwise.
        """
        sets = ["version = version + 1", "updated_at = ?"]
        params: list[Any] = [self._clock()]
        for column, value in (
            ("state", None if state is None else dumps(state)),
            ("status", status),
            ("seed", seed),
            ("options", None if options is None else dumps(options)),
            ("host_id", host_id),
            ("paused", None if paused is None else int(paused)),
        ):
            if value is not None:
                sets.append(f"{column} = ?")
                params.append(value)
        async with self._lock:
            await self._transaction_update(game_id, expected_version, sets, params, move, revert_from_seq)
        return expected_version + 1

    async def _transaction_update(
        self,
        game_id: int,
        expected_version: int,
        sets: list[str],
        params: list[Any],
        move: MoveRecord | None,
        revert_from_seq: int | None,
    ) -> None:
        await self._db.execute("BEGIN IMMEDIATE")
        try:
            cursor = await self._db.execute(
                f"UPDATE games SET {', '.join(sets)} WHERE id = ? AND version = ?",
                (*params, game_id, expected_version),
            )
            if cursor.rowcount != 1:
                raise StaleVersion(game_id)
            if revert_from_seq is not None:
                await self._db.execute(
                    "UPDATE moves SET reverted = 1 WHERE game_id = ? AND seq >= ?", (game_id, revert_from_seq)
                )
            if move is not None:
                await self._db.execute(
                    "INSERT INTO moves (game_id, seq, seat, user_id, text, irreversible, created_at) "
                    "VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM moves WHERE game_id = ?), ?, ?, ?, ?, ?)",
                    (game_id, game_id, move.seat, move.user_id, move.text, int(move.irreversible), self._clock()),
                )
            await self._db.execute("COMMIT")
        except BaseException:
            await self._db.execute("ROLLBACK")
            raise

    # ----- one read and one write per command --------------------------------------------

    async def table(self, guild_id: str, channel_id: str) -> TableRow | None:
        """The channel's open game, else its most recent one, with seats and settings, in one read."""
        async with self._lock:
            return await self._read_table(
                f"SELECT {_GAME_COLUMNS} FROM games WHERE guild_id = ? AND channel_id = ? "
                "ORDER BY status IN ('lobby', 'active') DESC, id DESC LIMIT 1",
                (guild_id, channel_id),
            )

    async def table_by_id(self, game_id: int) -> TableRow | None:
        async with self._lock:
            return await self._read_table(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))

    async def _read_table(self, sql: str, params: tuple[Any, ...]) -> TableRow | None:
        # One snapshot: another process may write between the statements otherwise.
        await self._db.execute("BEGIN")
        try:
            async with self._db.execute(sql, params) as cursor:
                found = await cursor.fetchone()
            if found is None:
                return None
            game = _game(found)
            async with self._db.execute(
                "SELECT seat, user_id, display_name, kind, bot_level FROM seats WHERE game_id = ? ORDER BY seat",
                (game.id,),
            ) as cursor:
                seats = [SeatRow(*row) for row in await cursor.fetchall()]
            async with self._db.execute(
                "SELECT key, value FROM channel_settings WHERE guild_id = ? AND channel_id IN (?, '*') "
                "ORDER BY channel_id = '*' DESC",
                (game.guild_id, game.channel_id),
            ) as cursor:
                settings = {key: value for key, value in await cursor.fetchall()}  # the channel's own win
            async with self._db.execute(
                "SELECT u.user_id FROM user_settings u JOIN seats s ON s.user_id = u.user_id "
                "WHERE s.game_id = ? AND u.key = 'pings' AND u.value = 'off'",
                (game.id,),
            ) as cursor:
                muted = frozenset(row[0] for row in await cursor.fetchall())
            async with self._db.execute("SELECT key, value FROM game_notes WHERE game_id = ?", (game.id,)) as cursor:
                notes = {key: value for key, value in await cursor.fetchall()}
            return TableRow(game, seats, settings, muted, notes)
        finally:
            await self._db.execute("COMMIT")

    async def commit(
        self,
        game: GameRow,
        *,
        state: dict[str, Any] | None = None,
        status: GameStatus | None = None,
        seed: int | None = None,
        host_id: str | None = None,
        paused: bool | None = None,
        seats: Sequence[SeatRow] | None = None,
        moves: Sequence[MoveRecord] = (),
        revert_from_seq: int | None = None,
        revert_seqs: Sequence[int] = (),
        cancel_timers: Iterable[str] | Literal["all"] = (),
        add_timers: Sequence[NewTimer] = (),
        salt: str | None = None,
        commitment: str | None = None,
        announce: Announcement | None = None,
        notes: Mapping[str, str | None] | None = None,
        results: GameResults | None = None,
    ) -> tuple[GameRow, int | None]:
        """Apply one command's whole change in one transaction, if ``game`` is still current.

        State, status, seats, appended moves, reverted moves, the game's timers, the change's
        announcement (the outbox) and its notes (None deletes one) change together or not at all;
        so do the game's ``results`` and ratings when it finishes (or is rolled back after it ended).
        Returns the new row (built here, not read back) and the outbox id; raises StaleVersion when another writer
        got there first.
        """
        now = self._clock()
        sets = ["version = version + 1", "updated_at = ?"]
        params: list[Any] = [now]
        for column, value in (
            ("state", None if state is None else dumps(state)),
            ("status", status),
            ("seed", seed),
            ("host_id", host_id),
            ("paused", None if paused is None else int(paused)),
            ("salt", salt),
            ("commitment", commitment),
        ):
            if value is not None:
                sets.append(f"{column} = ?")
                params.append(value)
        outbox_id: int | None = None
        async with self._lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                cursor = await self._db.execute(
                    f"UPDATE games SET {', '.join(sets)} WHERE id = ? AND version = ?", (*params, game.id, game.version)
                )
                if cursor.rowcount != 1:
                    raise StaleVersion(game.id)
                if seats is not None:
                    await self._db.execute("DELETE FROM seats WHERE game_id = ?", (game.id,))
                    await self._db.executemany(
                        "INSERT INTO seats (game_id, seat, user_id, display_name, kind, bot_level) "
                        "VALUES (?, ?, ?, ?, ?, ?)",
                        [(game.id, s.seat, s.user_id, s.display_name, s.kind, s.bot_level) for s in seats],
                    )
                if revert_from_seq is not None:
                    await self._db.execute(
                        "UPDATE moves SET reverted = 1 WHERE game_id = ? AND seq >= ?", (game.id, revert_from_seq)
                    )
                if revert_seqs:
                    await self._db.executemany(
                        "UPDATE moves SET reverted = 1 WHERE game_id = ? AND seq = ?",
                        [(game.id, seq) for seq in revert_seqs],
                    )
                if moves:
                    await self._db.executemany(
                        "INSERT INTO moves (game_id, seq, seat, user_id, text, irreversible, created_at) "
                        "VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM moves WHERE game_id = ?), ?, ?, ?, ?, ?)",
                        [(game.id, game.id, m.seat, m.user_id, m.text, int(m.irreversible), now) for m in moves],
                    )
                if cancel_timers == "all":
                    await self._db.execute("DELETE FROM timers WHERE game_id = ?", (game.id,))
                elif kinds := tuple(cancel_timers):
                    await self._db.execute(
                        f"DELETE FROM timers WHERE game_id = ? AND kind IN ({','.join('?' * len(kinds))})",
                        (game.id, *kinds),
                    )
                if add_timers:
                    await self._db.executemany(
                        "INSERT INTO timers (game_id, kind, due_at, payload, created_at) VALUES (?, ?, ?, ?, ?)",
                        [(game.id, t.kind, t.due_at, dumps(t.payload), now) for t in add_timers],
                    )
                for key, value in (notes or {}).items():
                    if value is None:
                        await self._db.execute("DELETE FROM game_notes WHERE game_id = ? AND key = ?", (game.id, key))
                    else:
                        await self._db.execute(
                            "INSERT INTO game_notes (game_id, key, value) VALUES (?, ?, ?) "
                            "ON CONFLICT (game_id, key) DO UPDATE SET value = excluded.value",
                            (game.id, key, value),
                        )
                if announce is not None:
                    cursor = await self._db.execute(
                        "INSERT INTO outbox (game_id, version, text, pings, board, created_at) "
                        "VALUES (?, ?, ?, ?, ?, ?)",
                        (game.id, game.version + 1, announce.text, dumps(announce.pings), int(announce.board), now),
                    )
                    outbox_id = cursor.lastrowid
                if status is not None and status != game.status:
                    inside = _IN_TRANSACTION.set(True)
                    try:
                        await self._finish_hook(game.id, game.guild_id, game.game, game.status, status, results)
                    finally:
                        _IN_TRANSACTION.reset(inside)
                await self._db.execute("COMMIT")
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
        changed: dict[str, Any] = {"version": game.version + 1, "updated_at": now}
        given: dict[str, Any] = {
            "state": state,
            "status": status,
            "seed": seed,
            "host_id": host_id,
            "paused": paused,
            "salt": salt,
            "commitment": commitment,
        }
        changed.update({key: value for key, value in given.items() if value is not None})
        return replace(game, **changed), outbox_id

    # ----- the outbox ------------------------------------------------------------------------

    async def mark_announced(self, outbox_id: int) -> None:
        """That announcement, and every older one of its game, has been posted."""
        await self._write(
            "UPDATE outbox SET posted_at = ? WHERE posted_at IS NULL AND id <= ? "
            "AND game_id = (SELECT game_id FROM outbox WHERE id = ?)",
            (self._clock(), outbox_id, outbox_id),
        )

    async def pending_announcements(self) -> list[OutboxRow]:
        """Announcements not yet posted, oldest first."""
        rows = await self._all(
            "SELECT id, game_id, version, text, pings, board FROM outbox WHERE posted_at IS NULL ORDER BY id"
        )
        return [
            OutboxRow(i, g, v, Announcement(text, json.loads(pings), bool(board)))
            for i, g, v, text, pings, board in rows
        ]

    # ----- seats -------------------------------------------------------------------------

    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self._all(
            "SELECT seat, user_id, display_name, kind, bot_level FROM seats WHERE game_id = ? ORDER BY seat",
            (game_id,),
        )
        return [SeatRow(*row) for row in rows]

    async def set_seats(self, game_id: int, expected_version: int, seats: list[SeatRow]) -> int:
        """Replace the seat list (join, leave, substitute, replace with bot) under the version check."""
        async with self._lock:
            await self._transaction_seats(game_id, expected_version, seats)
        return expected_version + 1

    async def _transaction_seats(self, game_id: int, expected_version: int, seats: list[SeatRow]) -> None:
        await self._db.execute("BEGIN IMMEDIATE")
        try:
            cursor = await self._db.execute(
                "UPDATE games SET version = version + 1, updated_at = ? WHERE id = ? AND version = ?",
                (self._clock(), game_id, expected_version),
            )
            if cursor.rowcount != 1:
                raise StaleVersion(game_id)
            await self._db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            await self._db.executemany(
                "INSERT INTO seats (game_id, seat, user_id, display_name, kind, bot_level) VALUES (?, ?, ?, ?, ?, ?)",
                [(game_id, s.seat, s.user_id, s.display_name, s.kind, s.bot_level) for s in seats],
            )
            await self._db.execute("COMMIT")
        except BaseException:
            await self._db.execute("ROLLBACK")
            raise

    # ----- moves -------------------------------------------------------------------------

    async def moves(self, game_id: int, include_reverted: bool = False) -> list[MoveRow]:
        sql = "SELECT seq, seat, user_id, text, irreversible, reverted, created_at FROM moves WHERE game_id = ?"
        if not include_reverted:
            sql += " AND reverted = 0"
        rows = await self._all(sql + " ORDER BY seq", (game_id,))
        return [
            MoveRow(seq, seat, user, text, bool(irr), bool(rev), created)
            for seq, seat, user, text, irr, rev, created in rows
        ]

    # ----- timers ------------------------------------------------------------------------

    async def add_timer(
        self, kind: str, due_at: float, game_id: int | None = None, payload: dict[str, Any] | None = None
    ) -> int:
        cursor = await self._write(
            "INSERT INTO timers (game_id, kind, due_at, payload, created_at) VALUES (?, ?, ?, ?, ?)",
            (game_id, kind, due_at, dumps(payload or {}), self._clock()),
        )
        return int(cursor.lastrowid or 0)

    async def cancel_timers(self, game_id: int, kinds: Iterable[str] | None = None) -> None:
        if kinds is None:
            await self._write("DELETE FROM timers WHERE game_id = ?", (game_id,))
            return
        wanted = tuple(kinds)
        await self._write(
            f"DELETE FROM timers WHERE game_id = ? AND kind IN ({','.join('?' * len(wanted))})",
            (game_id, *wanted),
        )

    async def next_timer(self) -> TimerRow | None:
        row = await self._one("SELECT id, game_id, kind, due_at, payload FROM timers ORDER BY due_at, id LIMIT 1")
        return TimerRow(row[0], row[1], row[2], row[3], json.loads(row[4])) if row else None

    async def due_timers(self, now: float) -> list[TimerRow]:
        rows = await self._all(
            "SELECT id, game_id, kind, due_at, payload FROM timers WHERE due_at <= ? ORDER BY due_at, id", (now,)
        )
        return [TimerRow(r[0], r[1], r[2], r[3], json.loads(r[4])) for r in rows]

    async def timers(self, game_id: int) -> list[TimerRow]:
        rows = await self._all(
            "SELECT id, game_id, kind, due_at, payload FROM timers WHERE game_id = ? ORDER BY due_at, id",
            (game_id,),
        )
        return [TimerRow(r[0], r[1], r[2], r[3], json.loads(r[4])) for r in rows]

    async def delete_timer(self, timer_id: int) -> bool:
        cursor = await self._write("DELETE FROM timers WHERE id = ?", (timer_id,))
        return cursor.rowcount == 1

    # ----- settings ----------------------------------------------------------------------

    async def channel_setting(self, guild_id: str, channel_id: str, key: str) -> str | None:
        """A channel's setting, falling back to the guild-wide value (channel ``*``)."""
        row = await self._one(
            "SELECT value FROM channel_settings WHERE guild_id = ? AND key = ? AND channel_id IN (?, '*') "
            "ORDER BY channel_id = '*' LIMIT 1",
            (guild_id, key, channel_id),
        )
        return row[0] if row else None

    async def set_channel_setting(self, guild_id: str, channel_id: str, key: str, value: str | None) -> None:
        if value is None:
            await self._write(
                "DELETE FROM channel_settings WHERE guild_id = ? AND channel_id = ? AND key = ?",
                (guild_id, channel_id, key),
            )
        else:
            await self._write(
                "INSERT INTO channel_settings (guild_id, channel_id, key, value) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (guild_id, channel_id, key) DO UPDATE SET value = excluded.value",
                (guild_id, channel_id, key, value),
            )

    async def user_setting(self, user_id: str, key: str) -> str | None:
        row = await self._one("SELECT value FROM user_settings WHERE user_id = ? AND key = ?", (user_id, key))
        return row[0] if row else None

    async def set_user_setting(self, user_id: str, key: str, value: str) -> None:
        await self._write(
            "INSERT INTO user_settings (user_id, key, value) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id, key) DO UPDATE SET value = excluded.value",
            (user_id, key, value),
        )
