"""The one place that talks to SQLite.

Every state change of a game is one transaction guarded by the game's version number,
so two concurrent clicks can never both apply and a crash can never half-apply a move.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import logging
import os
import sqlite3
import threading
import time
import zlib
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeVar

import aiosqlite
import orjson

from games.base import GameStatus
from storage.community import CommunityStore, GameResults, finish_action
from storage.migrate import migrate
from storage.shards import Shards
from storage.shared import (
    _OUTBOX_COLUMNS,
    _TIMER_COLUMNS,
    Announcement,
    OutboxRow,
    SharedStatements,
    TimerRow,
    WriteResult,
    dumps,
    outbox_rows,
    returns_id,
    sound_timers,
    waiting_text,
)
from storage.shared import Undecodable as _Undecodable
from storage.shared import decode_object as _decode_object

DEFAULT_PATH = "./data/conductor.db"
OPEN_STATUSES = ("lobby", "active")
CLOSED_STATUSES = ("finished", "aborted")
# zlib level 6 (the default): a Tiny Towns state of about 2.7 KB compresses to about 0.6 KB in ~40 µs.
COMPRESSION_LEVEL = 6
# Decoded states kept per Store, keyed by (game id, version): a command that reads a game another
# query of this process just read (autocomplete, the move menu, the command itself) decodes it once.
STATE_CACHE_SIZE = 512
# How long a write waits for another process's write lock (SQLite's busy_timeout), on the database thread.
BUSY_TIMEOUT_MS = 5000
# Writes between WAL checkpoints. SQLite's own automatic checkpoint is off (it would run inside the
# COMMIT of whichever write crosses its threshold, on the event loop for a write made there, fsyncs
# included); the store runs a PASSIVE one on the database thread instead. A move writes about 6
# pages, so 200 writes keep the WAL near SQLite's default of 1,000 pages.
CHECKPOINT_EVERY = 200

log = logging.getLogger(__name__)
T = TypeVar("T")
# A test-only fault hook: called with the name of every commit boundary of every write transaction
# ("commit:after_begin", "commit:statement", "commit:before_commit", "commit:after_commit", ...),
# where the transaction runs (the event loop's thread or the database thread); a crash test makes it
# end the process there.
FaultHook = Callable[[str], None]
# True while this task runs statements inside a transaction it holds the lock for (the commit's
# hooks): the helpers then run their statements in that transaction instead of waiting for the lock.
_IN_TRANSACTION: contextvars.ContextVar[bool] = contextvars.ContextVar("store_in_transaction", default=False)


class _Busy(Exception):
    """Another connection holds SQLite's write lock; nothing was run."""


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
    listing: str | None = None  # the stored one line for /game list (None: written before migration 7)


def updated(row: GameRow, changes: Mapping[str, Any]) -> GameRow:
    """``dataclasses.replace(row, **changes)`` at a third of its cost: the row's attributes with
    ``changes`` over them, without replace's walk over the fields and the frozen __init__'s nineteen
    object.__setattr__ calls (together half the event loop's CPU of a ``Store.commit``). GameRow has
    no __post_init__, no field left out of __init__ and no slots, so this builds what replace builds."""
    unknown = changes.keys() - row.__dict__.keys()
    if unknown:
        raise TypeError(f"GameRow has no field {sorted(unknown)[0]!r}")
    new = object.__new__(GameRow)
    new.__dict__.update(row.__dict__)
    new.__dict__.update(changes)
    return new


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
class Maintenance:
    """What ``Store.maintain`` did."""

    compressed_states: int
    archived_games: int
    pruned_outbox: int
    pruned_timers: int
    bytes_before: int
    bytes_after: int


_GAME_COLUMNS = (
    "id, guild_id, channel_id, game, status, host_id, options, seed, rules_version, state, version, "
    "created_at, updated_at, paused, salt, commitment, state_z, listing"
)
_MOVE_COLUMNS = "seq, seat, user_id, text, irreversible, reverted, created_at"
# How long a claimed announcement stays with the process that claimed it before another may take it:
# far longer than posting one takes (a post still in flight when it runs out would go out twice).
OUTBOX_LEASE_SECONDS = 300.0


def compress(value: Any) -> bytes:
    """JSON with sorted keys, zlib-compressed: how states and archived move logs are stored.

    Encoded by orjson, about 8x faster than the json module on a 2.7 KB state (the encoding was the
    largest CPU cost of a stored move after SQLite itself). It writes UTF-8 where ``dumps`` writes
    \\u escapes; both decode to the same value. What orjson refuses (integers beyond 64 bits, keys that
    are not strings) is encoded by ``dumps`` instead. One difference is accepted: a float NaN or
    infinity would be stored as null (``dumps`` writes the non-JSON ``NaN``); no stored value holds
    one (engines count in whole numbers, and Python raises rather than dividing by zero)."""
    try:
        text = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # orjson.JSONEncodeError
        text = dumps(value).encode("utf-8")
    return deflate(text)


def deflate(text: bytes) -> bytes:
    """``zlib.compress(text, COMPRESSION_LEVEL)`` with the compressor's tables sized to ``text``.

    zlib.compress always sets up a 32 KB window and its largest hash tables (about 256 KB, whose
    64 KB hash head it zeroes on every call: a sixth of the instructions of storing a 3 KB state,
    and more than the L1 cache). A match reaches back at most the window less 262 bytes (zlib's
    MIN_LOOKAHEAD), so a window that much longer than the text finds every match the 32 KB one
    would, and on texts this small the smaller hash tables find the same ones: the output is as
    small (tests/core/test_store_encoding.py), and zlib.decompress reads it (the header names the
    window)."""
    window_bits = min(15, max(9, (len(text) + 262).bit_length()))
    memory_level = window_bits - 7  # zlib's default 8 with the 32 KB window
    compressor = zlib.compressobj(COMPRESSION_LEVEL, zlib.DEFLATED, window_bits, memory_level)
    return compressor.compress(text) + compressor.flush()


def _inflate(stored: Any) -> Any:
    """A compressed column back to JSON text (bytes that are not zlib read as damaged text)."""
    if isinstance(stored, bytes | memoryview):
        try:
            return zlib.decompress(stored).decode("utf-8")
        except (zlib.error, UnicodeDecodeError):
            return _Undecodable("")
    return stored


def _game(row: Sequence[Any], cache: dict[int, tuple[int, dict[str, Any]]] | None = None) -> GameRow:
    """A games row; with ``cache``, a state already decoded at this version is reused, not decoded."""
    *columns, state_z, listing = row
    gid, version = columns[0], columns[10]
    # The JSON text in ``state``, when there is one, is the state (rows written before migration 7,
    # or mended by hand); otherwise the compressed ``state_z``, which alone is cached.
    compressed = columns[9] is None and state_z is not None
    cached = cache.get(gid) if cache is not None and compressed else None
    if cached is not None and cached[0] == version:
        columns[9] = cached[1]
        return _decode_game(columns, decode_state=False, listing=listing)
    if compressed:
        columns[9] = _inflate(state_z)
    game = _decode_game(columns, listing=listing)
    if cache is not None and compressed and game.state is not None and game.damaged is None:
        _remember(cache, gid, version, game.state)
    return game


def _remember(cache: dict[int, tuple[int, dict[str, Any]]], game_id: int, version: int, state: dict[str, Any]) -> None:
    cache.pop(game_id, None)
    cache[game_id] = (version, state)
    if len(cache) > STATE_CACHE_SIZE:
        del cache[next(iter(cache))]  # the least recently stored


def _decode_game(row: Iterable[Any], decode_state: bool = True, listing: str | None = None) -> GameRow:
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
    if decode_state:
        state, state_damage = _decode_object(state, "saved state") if state is not None else (None, None)
    else:
        state_damage = None
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
        listing=listing,
    )


def _shard_filter(shards: Shards | None) -> str:
    """A WHERE condition on the joined ``games g`` keeping the guilds of ``shards`` (storage.shards.shard_of
    in SQL: a guild id that is not all digits is shard 0)."""
    if shards is None or shards.everything:
        return "1"
    ids = ",".join(str(int(i)) for i in sorted(shards.ids)) or "NULL"
    shard = (
        "(CASE WHEN g.guild_id GLOB '[0-9]*' AND g.guild_id NOT GLOB '*[^0-9]*' "
        f"THEN (CAST(g.guild_id AS INTEGER) >> 22) % {int(shards.count)} ELSE 0 END)"
    )
    return f"COALESCE({shard}, 0) IN ({ids})"


def _channel_filter(channel: tuple[str, str] | None) -> tuple[str, tuple[str, ...]]:
    """A WHERE condition on the joined ``games g`` keeping one (guild, channel), with its parameters."""
    return ("1 = 1", ()) if channel is None else ("g.guild_id = ? AND g.channel_id = ?", channel)


# ----- opening a database that may be bad --------------------------------------------------


def _text(raw: bytes) -> str:
    """The connection's text factory: a damaged value reads as text instead of failing the whole query."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return _Undecodable(raw.decode("utf-8", "replace"))


def _prepare_folder(where: str) -> None:
    target = Path(where)
    try:
        folder = target.is_dir()
    except OSError as exc:  # a name the file system refuses (too long): said in one line like the rest
        raise StoreError(f"cannot open the database {where}: {exc.strerror or exc}") from None
    if folder:
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
    # check_same_thread=False: small write transactions run on the event loop's thread (see
    # Store._transaction), always under the store's lock, so never at the same time as the worker's.
    db = aiosqlite.connect(where, isolation_level=None, check_same_thread=False)
    # aiosqlite's worker thread is not a daemon, so one store left open would keep the process alive at
    # exit (a test run that never ends). SQLite is crash-safe and close() still finishes every write.
    # (aiosqlite 0.22 on, as pyproject.toml pins: before it the connection was itself the thread.)
    worker: threading.Thread = db._thread
    if not worker.is_alive():
        worker.daemon = True
    try:
        return await db
    except BaseException:
        # aiosqlite queues the stop of its worker thread without waiting for it; wait here, or the
        # thread reports to an event loop that has closed meanwhile (a traceback on stderr).
        if worker.is_alive():
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


class Store(CommunityStore, SharedStatements):
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
        self._states: dict[int, tuple[int, dict[str, Any]]] = {}
        self.fault_hook: FaultHook | None = None  # tests only: see FaultHook
        self.state_decodes = 0  # full state decodes (decompress + parse), for bench/store_counter.py
        self._writes = 0  # writes since the last checkpoint, the one being made included

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
            await db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")  # first: another process may hold the file
            await db.execute("PRAGMA journal_mode=WAL")
            await db.execute("PRAGMA synchronous=NORMAL")
            await db.execute("PRAGMA foreign_keys=ON")
            await db.execute("PRAGMA wal_autocheckpoint=0")  # the store checkpoints: see CHECKPOINT_EVERY
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

    # ----- the helpers every statement goes through --------------------------------------------
    #
    # Each helper is one hop to the connection's thread: a whole transaction (BEGIN, its statements,
    # COMMIT) runs there in one call, so a move costs one hop to read and one to write instead of one
    # per statement, fetch and cursor close. A small write transaction skips even that hop when it can
    # (``_transaction``).

    async def _run(self, work: Callable[[sqlite3.Connection], T], writes: bool = False) -> T:
        """``work`` on the connection's own thread, under the store's lock (or inside the transaction
        this task already holds it for: see ``_IN_TRANSACTION``). ``writes``: it is a write of its
        own, counted for the checkpoints (a write inside a transaction is counted with it)."""
        if _IN_TRANSACTION.get():
            return await self._hop(work)
        async with self._lock:
            if writes:
                await self._checkpoint_when_due()
            return await self._hop(work)

    async def _hop(self, work: Callable[[sqlite3.Connection], T]) -> T:
        connection = self._db._conn  # aiosqlite's sqlite3 connection; used only on its thread
        result: T = await self._db._execute(work, connection)
        return result

    async def _one(self, sql: str, params: tuple[Any, ...] = ()) -> Any:
        return await self._run(lambda c: c.execute(sql, params).fetchone())

    async def _all(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        return await self._run(lambda c: c.execute(sql, params).fetchall())

    async def _write(self, sql: str, params: tuple[Any, ...] = ()) -> WriteResult:
        """One statement in its own (autocommit) transaction; ``lastrowid`` when it ends in ``RETURNING id``."""

        def work(c: sqlite3.Connection) -> WriteResult:
            cursor = c.execute(sql, params)
            if returns_id(sql):
                row = cursor.fetchone()
                cursor.close()  # the statement is finished only once its rows are read
                return WriteResult(1 if row else 0, int(row[0]) if row else None)
            return WriteResult(cursor.rowcount)

        return await self._run(work, writes=True)

    async def _read(self, work: Callable[[_Tx], T]) -> T:
        """Several reads in one snapshot (another process may write between statements otherwise)."""
        return await self._run(lambda c: _Tx(c, "read", None).read(work))

    async def _transaction(
        self,
        name: str,
        work: Callable[[_Tx], T],
        then: Callable[[], Awaitable[None]] | None = None,
        *,
        on_loop: bool = False,
    ) -> T:
        """One write transaction (BEGIN IMMEDIATE ... COMMIT) named ``name`` for the fault hook;
        any exception rolls the whole of it back. ``then``: async statements (the community's finish
        hook, through ``_one``/``_all``/``_write``) that join the transaction after ``work``; only a
        finishing commit has them, so it alone takes more than one hop to the database thread.

        ``on_loop``, for a small transaction (a move's commit is about 100 µs of SQLite, less than the
        hop to the database thread and back costs), runs it right here on the event loop's thread when
        SQLite's write lock is free: it then waits for nothing (no busy wait, no checkpoint: see
        CHECKPOINT_EVERY) and only writes a few pages to the WAL. When another process holds the lock,
        it waits on the database thread as every other transaction does."""
        if _IN_TRANSACTION.get():  # its lock is this task's own: waiting for it would never end
            raise RuntimeError(f"{name}: a write transaction cannot start inside another")
        async with self._lock:
            await self._checkpoint_when_due()
            if then is None:
                tx = _Tx(self._db._conn, name, self.fault_hook)
                try:
                    return tx.write(work, wait=False) if on_loop else await self._hop(lambda c: tx.write(work))
                except _Busy:  # another process is writing: wait for it on the database thread
                    return await self._hop(lambda c: tx.write(work))
            inside = _IN_TRANSACTION.set(True)
            try:
                tx = _Tx(self._db._conn, name, self.fault_hook)
                result = await self._hop(lambda c: tx.begin(work))
                try:
                    await then()
                except BaseException:
                    await self._hop(lambda c: tx.rollback())
                    raise
                await self._hop(lambda c: tx.commit())
                return result
            finally:
                _IN_TRANSACTION.reset(inside)

    async def _checkpoint_when_due(self) -> None:
        """Count a write about to be made (under the lock) and, every CHECKPOINT_EVERY writes,
        checkpoint the WAL first, on the database thread. First, not after the write: a caller that
        sees an exception (or is cancelled) here has written nothing. PASSIVE: it copies what no reader
        still needs and never waits for one. One that fails is logged and the write goes on."""
        self._writes += 1
        if self._writes <= CHECKPOINT_EVERY:
            return
        self._writes = 1
        try:
            await self._hop(lambda c: c.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall())
        except sqlite3.Error as exc:
            log.warning("WAL checkpoint failed (the next is tried %d writes later): %s", CHECKPOINT_EVERY, exc)

    def _to_game(self, row: Sequence[Any]) -> GameRow:
        """A games row, its state decoded only if this version was not decoded before."""
        gid, version, has_state = row[0], row[10], row[9] is not None or row[16] is not None
        cached = self._states.get(gid) if row[9] is None else None
        if has_state and not (cached is not None and cached[0] == version):
            self.state_decodes += 1
        return _game(row, self._states)

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

        def work(tx: _Tx) -> int:
            cursor = tx.run(
                "INSERT INTO games (guild_id, channel_id, game, status, host_id, options, rules_version, "
                "version, created_at, updated_at) VALUES (?, ?, ?, 'lobby', ?, ?, ?, 0, ?, ?)",
                (guild_id, channel_id, game, host_id, dumps(options), rules_version, now, now),
            )
            game_id = int(cursor.lastrowid or 0)
            tx.run(
                "INSERT INTO seats (game_id, seat, user_id, display_name, kind) VALUES (?, 0, ?, ?, 'human')",
                (game_id, host_id, host_name),
            )
            if timers:
                tx.many(
                    "INSERT INTO timers (game_id, kind, due_at, payload, created_at) VALUES (?, ?, ?, ?, ?)",
                    [(game_id, t.kind, t.due_at, dumps(t.payload), now) for t in timers],
                )
            return game_id

        try:
            game_id = await self._transaction("create_game", work, on_loop=True)
        except sqlite3.IntegrityError:
            raise ChannelBusy(channel_id) from None
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

    async def _game_where(self, where: str, params: tuple[Any, ...]) -> GameRow | None:
        def work(c: sqlite3.Connection) -> GameRow | None:
            row = c.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE {where}", params).fetchone()
            return self._to_game(row) if row else None

        return await self._run(work)

    async def _games_where(self, sql: str, params: tuple[Any, ...]) -> list[GameRow]:
        return await self._run(lambda c: [self._to_game(row) for row in c.execute(sql, params).fetchall()])

    async def get_game(self, game_id: int) -> GameRow | None:
        return await self._game_where("id = ?", (game_id,))

    async def open_game(self, guild_id: str, channel_id: str) -> GameRow | None:
        """The lobby or active game in this channel, if any."""
        return await self._game_where(
            "guild_id = ? AND channel_id = ? AND status IN ('lobby', 'active')", (guild_id, channel_id)
        )

    async def latest_game(self, guild_id: str, channel_id: str) -> GameRow | None:
        """The channel's open game, else its most recent finished or aborted one (for history views)."""
        return await self._game_where(
            "guild_id = ? AND channel_id = ? ORDER BY status IN ('lobby', 'active') DESC, id DESC LIMIT 1",
            (guild_id, channel_id),
        )

    async def list_games(self, guild_id: str | None = None, statuses: Iterable[str] = OPEN_STATUSES) -> list[GameRow]:
        wanted = tuple(statuses)
        marks = ",".join("?" * len(wanted))
        sql = f"SELECT {_GAME_COLUMNS} FROM games WHERE status IN ({marks})"
        params: tuple[Any, ...] = wanted
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params += (guild_id,)
        return await self._games_where(sql + " ORDER BY id", params)

    async def all_games(self) -> list[GameRow]:
        return await self._games_where(f"SELECT {_GAME_COLUMNS} FROM games ORDER BY id", ())

    async def games_of_user(self, user_id: str, statuses: Iterable[str] = OPEN_STATUSES) -> list[GameRow]:
        wanted = tuple(statuses)
        marks = ",".join("?" * len(wanted))
        return await self._games_where(
            f"SELECT {', '.join('g.' + c.strip() for c in _GAME_COLUMNS.split(','))} FROM games g "
            f"JOIN seats s ON s.game_id = g.id WHERE s.user_id = ? AND g.status IN ({marks}) ORDER BY g.id",
            (user_id, *wanted),
        )

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
        now = self._clock()
        sets = ["version = version + 1", "updated_at = ?"]
        params: list[Any] = [now]
        if state is not None:
            sets += ["state = NULL", "state_z = ?"]
            params.append(compress(state))
        for column, value in (
            ("status", status),
            ("seed", seed),
            ("options", None if options is None else dumps(options)),
            ("host_id", host_id),
            ("paused", None if paused is None else int(paused)),
        ):
            if value is not None:
                sets.append(f"{column} = ?")
                params.append(value)

        def work(tx: _Tx) -> None:
            tx.guarded(
                f"UPDATE games SET {', '.join(sets)} WHERE id = ? AND version = ?",
                (*params, game_id),
                game_id,
                expected_version,
            )
            if revert_from_seq is not None:
                _unarchive(tx, game_id)  # a finished game rolled back: its log is live again
                tx.run("UPDATE moves SET reverted = 1 WHERE game_id = ? AND seq >= ?", (game_id, revert_from_seq))
            if move is not None:
                tx.many(
                    _INSERT_MOVE, [(game_id, game_id, move.seat, move.user_id, move.text, int(move.irreversible), now)]
                )
            if status in CLOSED_STATUSES:
                _archive(tx, game_id)
            if state is not None:
                tx.after_commit(lambda: _remember(self._states, game_id, expected_version + 1, state))

        await self._transaction("update_game", work, on_loop=True)
        return expected_version + 1

    # ----- one read and one write per command --------------------------------------------

    async def table(self, guild_id: str, channel_id: str) -> TableRow | None:
        """The channel's open game, else its most recent one, with seats and settings, in one read."""
        return await self._read(
            lambda tx: self._read_table(
                tx,
                f"SELECT {_GAME_COLUMNS} FROM games WHERE guild_id = ? AND channel_id = ? "
                "ORDER BY status IN ('lobby', 'active') DESC, id DESC LIMIT 1",
                (guild_id, channel_id),
            )
        )

    async def table_by_id(self, game_id: int) -> TableRow | None:
        return await self._read(
            lambda tx: self._read_table(tx, f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        )

    def _read_table(self, tx: _Tx, sql: str, params: tuple[Any, ...]) -> TableRow | None:
        found = tx.run(sql, params).fetchone()
        if found is None:
            return None
        game = self._to_game(found)
        seats = [
            SeatRow(*row)
            for row in tx.run(
                "SELECT seat, user_id, display_name, kind, bot_level FROM seats WHERE game_id = ? ORDER BY seat",
                (game.id,),
            )
        ]
        # The channel's settings (guild-wide ones under channel '*'), the game's notes and which
        # seated users muted pings: one statement, each row tagged with where it comes from.
        users = tuple(seat.user_id for seat in seats if seat.kind == "human")
        sql = (
            "SELECT 'setting', channel_id, key, value FROM channel_settings WHERE guild_id = ? "
            "AND channel_id IN (?, '*') UNION ALL SELECT 'note', '', key, value FROM game_notes WHERE game_id = ?"
        )
        values: tuple[Any, ...] = (game.guild_id, game.channel_id, game.id)
        if users:
            sql += (
                " UNION ALL SELECT 'muted', '', user_id, '' FROM user_settings WHERE key = 'pings' AND value = 'off' "
                f"AND user_id IN ({','.join('?' * len(users))})"
            )
            values += users
        guild_wide: dict[str, str] = {}
        own: dict[str, str] = {}
        notes: dict[str, str] = {}
        muted_users: set[str] = set()
        for kind, channel, key, value in tx.run(sql, values):
            if kind == "setting":
                (guild_wide if channel == "*" else own)[key] = value
            elif kind == "note":
                notes[key] = value
            else:
                muted_users.add(key)
        settings = {**guild_wide, **own}  # the channel's own value wins over the guild-wide one
        muted = frozenset(muted_users)
        return TableRow(game, seats, settings, muted, notes)

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
        listing: str | None = None,
        waiting: Sequence[int] | None = None,
        results: GameResults | None = None,
    ) -> tuple[GameRow, int | None]:
        """Apply one command's whole change in one transaction, if ``game`` is still current.

        State, status, seats, appended moves, reverted moves, the game's timers, the change's
        announcement (the outbox), its notes (None deletes one) and its one-line ``listing`` and
        ``waiting`` seats (for /game list and /game mygames) change together or not at all; a game
        that finishes or is aborted has its move log archived in the same transaction; so do the game's
        ``results`` and ratings when it finishes (or is rolled back after it ended).
        Returns the new row (built here, not read back) and the outbox id; raises StaleVersion when
        another writer got there first.
        """
        now = self._clock()
        sets = ["version = version + 1", "updated_at = ?"]
        params: list[Any] = [now]
        if state is not None:
            sets += ["state = NULL", "state_z = ?"]
            params.append(None)  # compressed on the database thread (``work``): JSON and zlib off the loop
        for column, value in (
            ("status", status),
            ("seed", seed),
            ("host_id", host_id),
            ("paused", None if paused is None else int(paused)),
            ("salt", salt),
            ("commitment", commitment),
            ("listing", listing),
            ("waiting", None if waiting is None else waiting_text(waiting)),
        ):
            if value is not None:
                sets.append(f"{column} = ?")
                params.append(value)
        version = game.version + 1
        timer_rows = [(game.id, t.kind, t.due_at, dumps(t.payload), now) for t in add_timers]

        def work(tx: _Tx) -> int | None:
            if state is not None:
                params[1] = compress(state)
            tx.guarded(
                f"UPDATE games SET {', '.join(sets)} WHERE id = ? AND version = ?",
                (*params, game.id),
                game.id,
                game.version,
            )
            if seats is not None:
                tx.run("DELETE FROM seats WHERE game_id = ?", (game.id,))
                tx.many(
                    "INSERT INTO seats (game_id, seat, user_id, display_name, kind, bot_level) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    [(game.id, s.seat, s.user_id, s.display_name, s.kind, s.bot_level) for s in seats],
                )
            if game.status in CLOSED_STATUSES and (revert_from_seq is not None or revert_seqs or moves):
                _unarchive(tx, game.id)  # a closed game rolled back: its archived log is live again
            if revert_from_seq is not None:
                tx.run("UPDATE moves SET reverted = 1 WHERE game_id = ? AND seq >= ?", (game.id, revert_from_seq))
            if revert_seqs:
                tx.many(
                    "UPDATE moves SET reverted = 1 WHERE game_id = ? AND seq = ?",
                    [(game.id, seq) for seq in revert_seqs],
                )
            if moves:
                tx.many(
                    _INSERT_MOVE,
                    [(game.id, game.id, m.seat, m.user_id, m.text, int(m.irreversible), now) for m in moves],
                )
            if cancel_timers == "all":
                tx.run("DELETE FROM timers WHERE game_id = ?", (game.id,))
            elif kinds := tuple(cancel_timers):
                tx.run(
                    f"DELETE FROM timers WHERE game_id = ? AND kind IN ({','.join('?' * len(kinds))})",
                    (game.id, *kinds),
                )
            if timer_rows:
                tx.many(
                    "INSERT INTO timers (game_id, kind, due_at, payload, created_at) VALUES (?, ?, ?, ?, ?)", timer_rows
                )
            for key, value in (notes or {}).items():
                if value is None:
                    tx.run("DELETE FROM game_notes WHERE game_id = ? AND key = ?", (game.id, key))
                else:
                    tx.run(
                        "INSERT INTO game_notes (game_id, key, value) VALUES (?, ?, ?) "
                        "ON CONFLICT (game_id, key) DO UPDATE SET value = excluded.value",
                        (game.id, key, value),
                    )
            if status in CLOSED_STATUSES:
                _archive(tx, game.id)
            outbox_id: int | None = None
            if announce is not None:
                outbox_id = tx.run(
                    "INSERT INTO outbox (game_id, version, text, pings, board, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                    (game.id, version, announce.text, dumps(announce.pings), int(announce.board), now),
                ).lastrowid
            if state is not None:
                tx.after_commit(lambda: _remember(self._states, game.id, version, state))
            return outbox_id

        then = None
        if finish_action(game.status, status, results) is not None:

            async def then() -> None:
                await self._finish_hook(game.id, game.guild_id, game.game, game.status, status, results)

        # A closing or reopened game's move log is archived or restored: off the loop, as it may be long.
        archives = status in CLOSED_STATUSES or game.status in CLOSED_STATUSES
        outbox_id = await self._transaction("commit", work, then, on_loop=not archives)
        changed: dict[str, Any] = {"version": version, "updated_at": now}
        given: dict[str, Any] = {
            "state": state,
            "status": status,
            "seed": seed,
            "host_id": host_id,
            "paused": paused,
            "salt": salt,
            "commitment": commitment,
            "listing": listing,
        }
        changed.update({key: value for key, value in given.items() if value is not None})
        return updated(game, changed), outbox_id

    # ----- the outbox ------------------------------------------------------------------------

    async def claim_announcements(
        self,
        shards: Shards | None = None,
        channel: tuple[str, str] | None = None,
        claimer: str = "",
        lease: float = OUTBOX_LEASE_SECONDS,
    ) -> list[OutboxRow]:
        """Lease the pending announcements of ``shards``' guilds (or of one (guild, channel)) to
        ``claimer`` for posting, oldest first: each row is stamped claimed_at/claimed_by and kept until
        it is posted (``mark_announced`` deletes it), so a process killed between this claim and its
        post loses nothing; another claimer's claim older than ``lease`` seconds is taken again (never
        the caller's own: it may still be posting it). Under the write lock (BEGIN IMMEDIATE), so of
        several processes claiming at once each row goes to one."""
        where, params = _channel_filter(channel)
        now = self._clock()

        def work(tx: _Tx) -> list[Any]:
            rows = tx.run(
                f"SELECT {_OUTBOX_COLUMNS} FROM outbox o JOIN games g ON g.id = o.game_id "
                "WHERE o.posted_at IS NULL AND (o.claimed_at IS NULL OR (o.claimed_at <= ? "
                f"AND COALESCE(o.claimed_by, '') <> ?)) AND {_shard_filter(shards)} AND {where} ORDER BY o.id",
                (now - lease, claimer, *params),
            ).fetchall()
            tx.many(
                "UPDATE outbox SET claimed_at = ?, claimed_by = ? WHERE id = ?", [(now, claimer, r[0]) for r in rows]
            )
            return rows

        return outbox_rows(await self._transaction("claim_announcements", work))

    # ----- seats -------------------------------------------------------------------------

    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self._all(
            "SELECT seat, user_id, display_name, kind, bot_level FROM seats WHERE game_id = ? ORDER BY seat",
            (game_id,),
        )
        return [SeatRow(*row) for row in rows]

    async def set_seats(self, game_id: int, expected_version: int, seats: list[SeatRow]) -> int:
        """Replace the seat list (join, leave, substitute, replace with bot) under the version check."""

        def work(tx: _Tx) -> None:
            tx.guarded(
                "UPDATE games SET version = version + 1, updated_at = ? WHERE id = ? AND version = ?",
                (self._clock(), game_id),
                game_id,
                expected_version,
            )
            tx.run("DELETE FROM seats WHERE game_id = ?", (game_id,))
            tx.many(
                "INSERT INTO seats (game_id, seat, user_id, display_name, kind, bot_level) VALUES (?, ?, ?, ?, ?, ?)",
                [(game_id, s.seat, s.user_id, s.display_name, s.kind, s.bot_level) for s in seats],
            )

        await self._transaction("set_seats", work, on_loop=True)
        return expected_version + 1

    # ----- moves -------------------------------------------------------------------------

    async def moves(self, game_id: int, include_reverted: bool = False) -> list[MoveRow]:
        """The move log, whether still in rows or archived (a finished game's)."""

        def work(tx: _Tx) -> list[MoveRow]:
            archived = tx.run("SELECT moves FROM moves_archive WHERE game_id = ?", (game_id,)).fetchone()
            rows = archived_moves(archived[0] if archived else None)
            rows += tx.run(f"SELECT {_MOVE_COLUMNS} FROM moves WHERE game_id = ? ORDER BY seq", (game_id,)).fetchall()
            return move_rows(rows, include_reverted)

        return await self._read(work)

    # ----- timers ------------------------------------------------------------------------

    async def next_timer(self, shards: Shards | None = None) -> TimerRow | None:
        """The next timer of ``shards``' guilds (default: of every guild)."""
        found = await self._timers(f"WHERE {_shard_filter(shards)}", (), "LIMIT 1")
        return found[0] if found else None

    async def claim_due_timers(self, now: float, shards: Shards | None = None) -> list[TimerRow]:
        """Take (delete) the due timers of ``shards``' guilds in one transaction: each timer goes to
        exactly one caller, in this process or another (BEGIN IMMEDIATE holds SQLite's write lock).
        A timer that cannot be decoded is taken too, logged and dropped (see ``sound_timers``)."""

        def work(tx: _Tx) -> list[TimerRow]:
            rows = tx.run(
                f"SELECT {_TIMER_COLUMNS} FROM timers t LEFT JOIN games g ON g.id = t.game_id "
                f"WHERE t.due_at <= ? AND {_shard_filter(shards)} ORDER BY t.due_at, t.id",
                (now,),
            ).fetchall()
            tx.many("DELETE FROM timers WHERE id = ?", [(row[0],) for row in rows])
            return sound_timers(rows)[0]

        return await self._transaction("claim_due_timers", work, on_loop=True)

    # ----- maintenance (`conductor vacuum`) ------------------------------------------------------

    async def size(self) -> int:
        """Bytes the database file uses (pages in use, free pages included)."""
        row = await self._one("SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()")
        return int(row[0])

    async def maintain(self) -> Maintenance:
        """Compress states stored before migration 7, archive the move logs of finished and aborted
        games, delete posted announcements and the timers of closed games, then VACUUM. Safe while
        the bot runs: each step is one transaction, and a state is only rewritten at the version read."""
        before = await self.size()

        def work(tx: _Tx) -> tuple[int, int, int, int]:
            compressed = 0
            for gid, version, text in tx.run("SELECT id, version, state FROM games WHERE state IS NOT NULL").fetchall():
                value, damage = _decode_object(text, "saved state")
                if value is None:
                    continue  # a damaged state stays as it is, for `conductor check` to report
                tx.run(
                    "UPDATE games SET state_z = ?, state = NULL WHERE id = ? AND version = ?",
                    (compress(value), gid, version),
                )
                compressed += 1
            closed = tx.run(
                "SELECT DISTINCT m.game_id FROM moves m JOIN games g ON g.id = m.game_id "
                "WHERE g.status IN ('finished', 'aborted')"
            ).fetchall()
            for (gid,) in closed:
                _archive(tx, gid)
            outbox = tx.run("DELETE FROM outbox WHERE posted_at IS NOT NULL").rowcount
            timers = tx.run(
                "DELETE FROM timers WHERE game_id IN (SELECT id FROM games WHERE status IN ('finished', 'aborted'))"
            ).rowcount
            return compressed, len(closed), outbox, timers

        compressed, archived, outbox, timers = await self._transaction("maintain", work)

        def vacuum(c: sqlite3.Connection) -> None:
            c.execute("VACUUM")
            c.execute("PRAGMA wal_checkpoint(TRUNCATE)")

        await self._run(vacuum)
        return Maintenance(compressed, archived, outbox, timers, before, await self.size())


_INSERT_MOVE = (
    "INSERT INTO moves (game_id, seq, seat, user_id, text, irreversible, created_at) "
    "VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM moves WHERE game_id = ?), ?, ?, ?, ?, ?)"
)


ARCHIVE_SQL = (
    "INSERT INTO moves_archive (game_id, moves, count) VALUES (?, ?, ?) "
    "ON CONFLICT (game_id) DO UPDATE SET moves = excluded.moves, count = excluded.count"
)


UNARCHIVE_SQL = f"INSERT INTO moves (game_id, {_MOVE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"


def archived_moves(stored: Any) -> list[list[Any]]:
    """An archive row's moves (``_MOVE_COLUMNS`` each); [] for no archive row."""
    return [list(r) for r in json.loads(_inflate(stored))] if stored is not None else []


def move_rows(rows: Iterable[Sequence[Any]], include_reverted: bool) -> list[MoveRow]:
    return [
        MoveRow(seq, seat, user, text, bool(irr), bool(rev), created)
        for seq, seat, user, text, irr, rev, created in rows
        if include_reverted or not rev
    ]


def _archive(tx: _Tx, game_id: int) -> None:
    """Move a closed game's move rows into its one compressed archive row (merged with any archive
    already there). About 10 bytes a move instead of a row and an index entry of ~80."""
    rows = tx.run(f"SELECT {_MOVE_COLUMNS} FROM moves WHERE game_id = ? ORDER BY seq", (game_id,)).fetchall()
    if not rows:
        return
    archived = tx.run("SELECT moves FROM moves_archive WHERE game_id = ?", (game_id,)).fetchone()
    everything = archived_moves(archived[0] if archived else None) + [list(r) for r in rows]
    tx.run(ARCHIVE_SQL, (game_id, compress(everything), len(everything)))
    tx.run("DELETE FROM moves WHERE game_id = ?", (game_id,))


def _unarchive(tx: _Tx, game_id: int) -> None:
    """Put an archived move log back into move rows, so a rollback can mark its reverted moves and
    the moves that follow get the next numbers (archived again when the game closes again)."""
    archived = tx.run("SELECT moves FROM moves_archive WHERE game_id = ?", (game_id,)).fetchone()
    if archived is None:
        return
    tx.many(UNARCHIVE_SQL, [(game_id, *row) for row in archived_moves(archived[0])])
    tx.run("DELETE FROM moves_archive WHERE game_id = ?", (game_id,))


class _Tx:
    """Statements of one transaction on the connection's thread, with the fault hook called at
    every commit boundary: after BEGIN, after each statement, before and after COMMIT."""

    def __init__(self, connection: sqlite3.Connection, name: str, fault: FaultHook | None) -> None:
        self.connection = connection
        self.name = name
        self.fault = fault
        self._after: list[Callable[[], None]] = []

    def _boundary(self, point: str) -> None:
        if self.fault is not None:
            self.fault(f"{self.name}:{point}")

    def run(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Cursor:
        cursor = self.connection.execute(sql, params)
        self._boundary("statement")
        return cursor

    def many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self.connection.executemany(sql, rows)
        self._boundary("statement")

    def guarded(self, sql: str, params: Sequence[Any], game_id: int, version: int) -> None:
        """The version check every change of a game starts with: ``sql`` ends with
        "WHERE id = ? AND version = ?"; no row changed means another writer got there first."""
        if self.run(sql, (*params, version)).rowcount != 1:
            raise StaleVersion(game_id)

    def after_commit(self, action: Callable[[], None]) -> None:
        self._after.append(action)

    def write(self, work: Callable[[_Tx], T], wait: bool = True) -> T:
        result = self.begin(work, wait)
        self.commit()
        return result

    def begin(self, work: Callable[[_Tx], T], wait: bool = True) -> T:
        """BEGIN IMMEDIATE and ``work``; rolled back if ``work`` raises, else left open for ``commit``.
        ``wait=False``: raise _Busy at once, not after the busy timeout, when another connection holds
        the write lock."""
        if wait:
            self.connection.execute("BEGIN IMMEDIATE")
        else:
            self.connection.execute("PRAGMA busy_timeout=0")
            try:
                self.connection.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                if exc.sqlite_errorcode & 0xFF == sqlite3.SQLITE_BUSY:  # SQLITE_BUSY_RECOVERY too
                    raise _Busy from None
                raise
            finally:
                self.connection.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        try:
            self._boundary("after_begin")
            return work(self)
        except BaseException:
            self.rollback()
            raise

    def commit(self) -> None:
        try:
            self._boundary("before_commit")
            self.connection.execute("COMMIT")
        except BaseException:
            self.rollback()
            raise
        self._boundary("after_commit")
        for action in self._after:
            action()

    def rollback(self) -> None:
        if self.connection.in_transaction:
            self.connection.execute("ROLLBACK")

    def read(self, work: Callable[[_Tx], T]) -> T:
        self.connection.execute("BEGIN")
        try:
            return work(self)
        finally:
            self.connection.execute("COMMIT")
