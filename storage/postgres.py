"""PostgreSQL storage (asyncpg): the same interface as ``storage.db.Store``, for several bot processes
sharing one database.

Every state change is still one transaction guarded by the game's version: ``UPDATE games ... WHERE
id = $n AND version = $m`` takes the row lock, so of two processes committing on one version the
second waits, then sees the new version, updates nothing and raises StaleVersion. Timers and pending
announcements are claimed with ``FOR UPDATE SKIP LOCKED``, so each is taken by exactly one process.

SQL is written with SQLite's ``?`` placeholders where it is shared (``_one``/``_all``/``_write``, and
mixins that use them); ``placeholders`` turns them into ``$1, $2, ...``.
"""

from __future__ import annotations

import contextvars
import json
import time
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any, Literal

from games.base import GameStatus
from storage.community import CommunityStore, GameResults, finish_action
from storage.db import (
    _GAME_COLUMNS,
    _MOVE_COLUMNS,
    ARCHIVE_SQL,
    CLOSED_STATUSES,
    OPEN_STATUSES,
    OUTBOX_LEASE_SECONDS,
    UNARCHIVE_SQL,
    ChannelBusy,
    GameRow,
    Maintenance,
    MoveRecord,
    MoveRow,
    NewTimer,
    SeatRow,
    StaleVersion,
    StoreError,
    TableRow,
    TimerRow,
    _decode_object,
    _game,
    archived_moves,
    compress,
    dumps,
    move_rows,
    sound_timers,
    updated,
    waiting_text,
)
from storage.postgres_migrate import migrate_postgres
from storage.shards import Shards
from storage.shared import (
    Announcement,
    OutboxRow,
    SharedStatements,
    WriteResult,
    outbox_rows,
    returns_id,
)

try:  # an optional extra: pip install -e ".[postgres]"
    import asyncpg
except ImportError:  # pragma: no cover - reported when a postgresql:// URL is opened
    asyncpg = None

# The shard of a game's guild, in SQL (storage.shards.shard_of): ids that are not snowflakes are shard 0.
_SHARD = "(CASE WHEN g.guild_id ~ '^[0-9]+$' THEN (g.guild_id::bigint >> 22) % {count} ELSE 0 END)"
# The connection of the transaction this task is inside (a finishing commit running the community's
# finish hook): ``_one``/``_all``/``_write`` then run their statements in it instead of on a pool
# connection of their own, so results and ratings commit (or roll back) with the game.
_IN_TRANSACTION: contextvars.ContextVar[Any] = contextvars.ContextVar("postgres_in_transaction", default=None)
# What Store._read_table reads in four more statements, as JSON columns of the game's row.
_TABLE_EXTRAS = (
    "(SELECT COALESCE(json_agg(json_build_array(seat, user_id, display_name, kind, bot_level) ORDER BY seat), "
    "'[]') FROM seats WHERE game_id = g.id)::text AS seats, "
    "(SELECT COALESCE(json_agg(json_build_array(key, value) ORDER BY channel_id = '*' DESC), '[]') "
    "FROM channel_settings c WHERE c.guild_id = g.guild_id AND c.channel_id IN (g.channel_id, '*'))::text AS settings, "
    "(SELECT COALESCE(json_agg(u.user_id), '[]') FROM user_settings u JOIN seats s ON s.user_id = u.user_id "
    "WHERE s.game_id = g.id AND u.key = 'pings' AND u.value = 'off')::text AS muted, "
    "(SELECT COALESCE(json_agg(json_build_array(key, value)), '[]') FROM game_notes "
    "WHERE game_id = g.id)::text AS notes"
)


def placeholders(sql: str) -> str:
    """SQLite's ``?`` placeholders as PostgreSQL's ``$1, $2, ...``; a ``?`` inside a quoted literal stays."""
    out: list[str] = []
    number = 0
    quoted = False
    for char in sql:
        if char == "'":
            quoted = not quoted
        if char == "?" and not quoted:
            number += 1
            out.append(f"${number}")
        else:
            out.append(char)
    return "".join(out)


def _shard_filter(shards: Shards | None) -> str:
    """A WHERE condition on the joined ``games g`` keeping the guilds of ``shards`` (TRUE: all)."""
    if shards is None or shards.everything:
        return "TRUE"
    ids = ",".join(str(int(i)) for i in sorted(shards.ids)) or "NULL"
    return f"COALESCE({_SHARD.format(count=int(shards.count))}, 0) IN ({ids})"


def _affected(status: str) -> int:
    """Rows changed, from a command status such as ``UPDATE 1`` or ``INSERT 0 1``."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PostgresStore(CommunityStore, SharedStatements):
    """Async access to a PostgreSQL database. Open with ``await PostgresStore.open(url)``.

    A connection pool serves concurrent commands; each transaction has its own connection, so no
    process-wide lock is needed (PostgreSQL's row locks order writers, here and across processes).
    """

    def __init__(self, pool: Any, url: str, clock: Any = time.time) -> None:
        self._pool = pool
        self._clock = clock
        self.url = url

    @classmethod
    async def open(cls, url: str, clock: Any = time.time, pool_size: int = 10) -> PostgresStore:
        """Connect and apply pending migrations. Raises StoreError (one line) when the server cannot be
        reached, refuses the login, or the schema cannot be brought up to date."""
        if asyncpg is None:
            raise StoreError(
                f"cannot open the database {_safe(url)}: PostgreSQL support is not installed "
                '(pip install -e ".[postgres]")'
            )
        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size)
        except (OSError, asyncpg.PostgresError, ValueError) as exc:
            raise StoreError(f"cannot open the database {_safe(url)}: {' '.join(str(exc).split())}") from None
        try:
            async with pool.acquire() as connection:
                await migrate_postgres(connection)
        except BaseException as exc:
            await pool.close()
            if isinstance(exc, asyncpg.PostgresError | OSError):
                raise StoreError(f"cannot migrate the database {_safe(url)}: {exc}") from None
            raise
        return cls(pool, url, clock)

    async def close(self) -> None:
        await self._pool.close()

    @property
    def pool(self) -> Any:
        return self._pool

    # ----- shared-SQL helpers (``?`` placeholders) -----------------------------------------

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[Any]:
        """The transaction's connection inside a finishing commit (see ``_IN_TRANSACTION``), else one
        of the pool's."""
        inside = _IN_TRANSACTION.get()
        if inside is not None:
            yield inside
            return
        async with self._pool.acquire() as connection:
            yield connection

    async def _one(self, sql: str, params: tuple[Any, ...] = ()) -> Any:
        async with self._connection() as connection:
            return await connection.fetchrow(placeholders(sql), *params)

    async def _all(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        async with self._connection() as connection:
            return list(await connection.fetch(placeholders(sql), *params))

    async def _write(self, sql: str, params: tuple[Any, ...] = ()) -> WriteResult:
        """One statement in its own transaction (or in the finishing commit's). ``lastrowid`` is filled
        when the statement ends in ``RETURNING id``; otherwise None (PostgreSQL has no implicit last row id)."""
        statement = placeholders(sql)
        async with self._connection() as connection:
            if returns_id(statement):
                row = await connection.fetchrow(statement, *params)
                return WriteResult(1 if row else 0, int(row[0]) if row else None)
            return WriteResult(_affected(await connection.execute(statement, *params)))

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
        now = self._clock()
        try:
            async with self._pool.acquire() as connection, connection.transaction():
                game_id = int(
                    await connection.fetchval(
                        "INSERT INTO games (guild_id, channel_id, game, status, host_id, options, rules_version, "
                        "version, created_at, updated_at) VALUES ($1, $2, $3, 'lobby', $4, $5, $6, 0, $7, $8) "
                        "RETURNING id",
                        guild_id,
                        channel_id,
                        game,
                        host_id,
                        dumps(options),
                        rules_version,
                        now,
                        now,
                    )
                )
                await connection.execute(
                    "INSERT INTO seats (game_id, seat, user_id, display_name, kind) VALUES ($1, 0, $2, $3, 'human')",
                    game_id,
                    host_id,
                    host_name,
                )
                if timers:
                    await connection.executemany(
                        "INSERT INTO timers (game_id, kind, due_at, payload, created_at) VALUES ($1, $2, $3, $4, $5)",
                        [(game_id, t.kind, t.due_at, dumps(t.payload), now) for t in timers],
                    )
        except asyncpg.UniqueViolationError:
            raise ChannelBusy(channel_id) from None
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
        row = await self._one(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE guild_id = ? AND channel_id = ? "
            "AND status IN ('lobby', 'active')",
            (guild_id, channel_id),
        )
        return _game(row) if row else None

    async def latest_game(self, guild_id: str, channel_id: str) -> GameRow | None:
        row = await self._one(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE guild_id = ? AND channel_id = ? "
            "ORDER BY status IN ('lobby', 'active') DESC, id DESC LIMIT 1",
            (guild_id, channel_id),
        )
        return _game(row) if row else None

    async def list_games(self, guild_id: str | None = None, statuses: Iterable[str] = OPEN_STATUSES) -> list[GameRow]:
        wanted = tuple(statuses)
        sql = f"SELECT {_GAME_COLUMNS} FROM games WHERE status IN ({','.join('?' * len(wanted))})"
        params: tuple[Any, ...] = wanted
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params += (guild_id,)
        return [_game(row) for row in await self._all(sql + " ORDER BY id", params)]

    async def all_games(self) -> list[GameRow]:
        return [_game(row) for row in await self._all(f"SELECT {_GAME_COLUMNS} FROM games ORDER BY id")]

    async def games_of_user(self, user_id: str, statuses: Iterable[str] = OPEN_STATUSES) -> list[GameRow]:
        wanted = tuple(statuses)
        rows = await self._all(
            f"SELECT {', '.join('g.' + c.strip() for c in _GAME_COLUMNS.split(','))} FROM games g "
            f"JOIN seats s ON s.game_id = g.id WHERE s.user_id = ? AND g.status IN ({','.join('?' * len(wanted))}) "
            "ORDER BY g.id",
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
        now = self._clock()
        sets = ["version = version + 1", "updated_at = ?"]
        params: list[Any] = [now]
        if state is not None:  # stored compressed; ``state`` (JSON text) is only read, for older rows
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
        async with self._pool.acquire() as connection, connection.transaction():
            changed = await connection.execute(
                placeholders(f"UPDATE games SET {', '.join(sets)} WHERE id = ? AND version = ?"),
                *params,
                game_id,
                expected_version,
            )
            if _affected(changed) != 1:
                raise StaleVersion(game_id)
            if revert_from_seq is not None:
                await _unarchive(connection, game_id)  # a finished game rolled back: its log is live again
                await connection.execute(
                    "UPDATE moves SET reverted = 1 WHERE game_id = $1 AND seq >= $2", game_id, revert_from_seq
                )
            if move is not None:
                await _append_moves(connection, game_id, [move], now)
            if status in CLOSED_STATUSES:
                await _archive(connection, game_id)
        return expected_version + 1

    # ----- one read and one write per command --------------------------------------------

    async def table(self, guild_id: str, channel_id: str) -> TableRow | None:
        return await self._read_table(
            "WHERE guild_id = $1 AND channel_id = $2 ORDER BY status IN ('lobby', 'active') DESC, id DESC LIMIT 1",
            (guild_id, channel_id),
        )

    async def table_by_id(self, game_id: int) -> TableRow | None:
        return await self._read_table("WHERE id = $1", (game_id,))

    async def _read_table(self, where: str, params: tuple[Any, ...]) -> TableRow | None:
        """The game with its seats, settings, muted players and notes in one statement: one round trip
        (a command's one read) and one snapshot, since a statement sees a single state of the database."""
        async with self._pool.acquire() as connection:
            found = await connection.fetchrow(f"SELECT {_GAME_COLUMNS}, {_TABLE_EXTRAS} FROM games g {where}", *params)
        if found is None:
            return None
        game = _game(tuple(found)[:-4])
        seats, settings, muted, notes = (json.loads(found[name]) for name in ("seats", "settings", "muted", "notes"))
        return TableRow(
            game,
            [SeatRow(*seat) for seat in seats],
            {key: value for key, value in settings},  # guild-wide first, so the channel's own win
            frozenset(muted),
            {key: value for key, value in notes},
        )

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
        """One command's whole change in one transaction, if ``game`` is still current (see Store.commit):
        a game that closes has its move log archived, and one that finishes (or is rolled back after it
        ended) has its results and ratings written, in that same transaction."""
        now = self._clock()
        sets = ["version = version + 1", "updated_at = ?"]
        params: list[Any] = [now]
        if state is not None:
            sets += ["state = NULL", "state_z = ?"]
            params.append(compress(state))
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
        outbox_id: int | None = None
        finishing = finish_action(game.status, status, results)
        plain = seats is None and revert_from_seq is None and not revert_seqs and not notes
        # A move on a closed game must first bring its archived log back (below), or it would get seq 1 again.
        reopens = game.status in CLOSED_STATUSES and bool(moves)
        if plain and not reopens and status not in CLOSED_STATUSES and finishing is None:
            # A plain move: one statement, so one round trip (a statement is atomic on its own).
            sql, args = _move_statement(game, sets, params, moves, cancel_timers, add_timers, announce, now)
            async with self._pool.acquire() as connection:
                found = await connection.fetchrow(sql, *args)
            if found["changed"] != 1:
                raise StaleVersion(game.id)
            row = _committed(game, now, state, status, seed, host_id, paused, salt, commitment, listing)
            return row, found["outbox"]
        async with self._pool.acquire() as connection, connection.transaction():
            changed = await connection.execute(
                placeholders(f"UPDATE games SET {', '.join(sets)} WHERE id = ? AND version = ?"),
                *params,
                game.id,
                game.version,
            )
            if _affected(changed) != 1:
                raise StaleVersion(game.id)
            if seats is not None:
                await _replace_seats(connection, game.id, seats)
            if game.status in CLOSED_STATUSES and (revert_from_seq is not None or revert_seqs or moves):
                await _unarchive(connection, game.id)  # a closed game rolled back: its archived log is live again
            if revert_from_seq is not None:
                await connection.execute(
                    "UPDATE moves SET reverted = 1 WHERE game_id = $1 AND seq >= $2", game.id, revert_from_seq
                )
            if revert_seqs:
                await connection.execute(
                    "UPDATE moves SET reverted = 1 WHERE game_id = $1 AND seq = ANY($2::bigint[])",
                    game.id,
                    list(revert_seqs),
                )
            if moves:
                await _append_moves(connection, game.id, moves, now)
            if cancel_timers == "all":
                await connection.execute("DELETE FROM timers WHERE game_id = $1", game.id)
            elif kinds := list(cancel_timers):
                await connection.execute(
                    "DELETE FROM timers WHERE game_id = $1 AND kind = ANY($2::text[])", game.id, kinds
                )
            if add_timers:
                await connection.executemany(
                    "INSERT INTO timers (game_id, kind, due_at, payload, created_at) VALUES ($1, $2, $3, $4, $5)",
                    [(game.id, t.kind, t.due_at, dumps(t.payload), now) for t in add_timers],
                )
            for key, value in (notes or {}).items():
                if value is None:
                    await connection.execute("DELETE FROM game_notes WHERE game_id = $1 AND key = $2", game.id, key)
                else:
                    await connection.execute(
                        "INSERT INTO game_notes (game_id, key, value) VALUES ($1, $2, $3) "
                        "ON CONFLICT (game_id, key) DO UPDATE SET value = excluded.value",
                        game.id,
                        key,
                        value,
                    )
            if announce is not None:
                outbox_id = int(
                    await connection.fetchval(
                        "INSERT INTO outbox (game_id, version, text, pings, board, created_at) "
                        "VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
                        game.id,
                        game.version + 1,
                        announce.text,
                        dumps(announce.pings),
                        int(announce.board),
                        now,
                    )
                )
            if status in CLOSED_STATUSES:
                await _archive(connection, game.id)
            if finishing is not None:
                inside = _IN_TRANSACTION.set(connection)
                try:
                    await self._finish_hook(game.id, game.guild_id, game.game, game.status, status, results)
                finally:
                    _IN_TRANSACTION.reset(inside)
        return _committed(game, now, state, status, seed, host_id, paused, salt, commitment, listing), outbox_id

    # ----- the outbox ------------------------------------------------------------------------

    async def claim_announcements(
        self,
        shards: Shards | None = None,
        channel: tuple[str, str] | None = None,
        claimer: str = "",
        lease: float = OUTBOX_LEASE_SECONDS,
    ) -> list[OutboxRow]:
        """Lease the pending announcements of ``shards``' guilds (or of one (guild, channel)) to
        ``claimer`` for posting (see Store.claim_announcements): rows stay until posted, another
        claimer's claim older than ``lease`` seconds is taken again, and of several processes claiming
        at once each row goes to one (rows another process is claiming are skipped, not waited for)."""
        now = self._clock()
        where = "TRUE" if channel is None else "g.guild_id = $4 AND g.channel_id = $5"
        async with self._pool.acquire() as connection, connection.transaction():
            rows = await connection.fetch(
                "UPDATE outbox SET claimed_at = $1, claimed_by = $2 WHERE id IN ("
                "SELECT o.id FROM outbox o JOIN games g ON g.id = o.game_id WHERE o.posted_at IS NULL "
                "AND (o.claimed_at IS NULL OR (o.claimed_at <= $3 AND COALESCE(o.claimed_by, '') <> $2)) "
                f"AND {_shard_filter(shards)} AND {where} "
                "FOR UPDATE OF o SKIP LOCKED) RETURNING id, game_id, version, text, pings, board",
                now,
                claimer,
                now - lease,
                *(channel or ()),
            )
        return outbox_rows(rows)

    # ----- seats -------------------------------------------------------------------------

    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self._all(
            "SELECT seat, user_id, display_name, kind, bot_level FROM seats WHERE game_id = ? ORDER BY seat",
            (game_id,),
        )
        return [SeatRow(*row) for row in rows]

    async def set_seats(self, game_id: int, expected_version: int, seats: list[SeatRow]) -> int:
        async with self._pool.acquire() as connection, connection.transaction():
            changed = await connection.execute(
                "UPDATE games SET version = version + 1, updated_at = $1 WHERE id = $2 AND version = $3",
                self._clock(),
                game_id,
                expected_version,
            )
            if _affected(changed) != 1:
                raise StaleVersion(game_id)
            await _replace_seats(connection, game_id, seats)
        return expected_version + 1

    # ----- moves -------------------------------------------------------------------------

    async def moves(self, game_id: int, include_reverted: bool = False) -> list[MoveRow]:
        """The move log, whether still in rows or archived (a finished game's), read in one snapshot."""
        async with self._pool.acquire() as connection, connection.transaction(isolation="repeatable_read"):
            archived = await connection.fetchval("SELECT moves FROM moves_archive WHERE game_id = $1", game_id)
            rows = archived_moves(archived)
            rows += await connection.fetch(
                f"SELECT {_MOVE_COLUMNS} FROM moves WHERE game_id = $1 ORDER BY seq", game_id
            )
        return move_rows(rows, include_reverted)

    # ----- timers ------------------------------------------------------------------------

    async def next_timer(self, shards: Shards | None = None) -> TimerRow | None:
        """The next timer of ``shards``' guilds (default: of every guild)."""
        found = await self._timers(f"WHERE {_shard_filter(shards)}", (), "LIMIT 1")
        return found[0] if found else None

    async def claim_due_timers(self, now: float, shards: Shards | None = None) -> list[TimerRow]:
        """Take (delete) the due timers of ``shards``' guilds: each goes to exactly one process, rows
        another process is taking are skipped rather than waited for."""
        async with self._pool.acquire() as connection, connection.transaction():
            rows = await connection.fetch(
                "DELETE FROM timers WHERE id IN ("
                "SELECT t.id FROM timers t LEFT JOIN games g ON g.id = t.game_id "
                f"WHERE t.due_at <= $1 AND {_shard_filter(shards)} FOR UPDATE OF t SKIP LOCKED"
                ") RETURNING id, game_id, kind, due_at, payload",
                now,
            )
        # Already taken (deleted): one that cannot be decoded is logged and dropped, the others fire.
        return sound_timers(sorted(rows, key=lambda r: (r[3], r[0])))[0]

    # ----- maintenance (`conductor vacuum`) ------------------------------------------------------

    async def size(self) -> int:
        """Bytes the database uses on disk (every table, index and TOAST of it)."""
        return int((await self._one("SELECT pg_database_size(current_database())"))[0])

    async def maintain(self) -> Maintenance:
        """What Store.maintain does, on PostgreSQL: compress states stored as JSON text, archive the
        move logs of finished and aborted games, delete posted announcements and the timers of closed
        games (one transaction; a state is only rewritten at the version read), then VACUUM the
        tables it changed (outside a transaction, as PostgreSQL requires). VACUUM makes the freed
        space reusable; it does not shrink the files (VACUUM FULL would, under an exclusive lock,
        which a running bot must not wait on)."""
        before = await self.size()
        async with self._pool.acquire() as connection:
            async with connection.transaction():
                compressed = 0
                for gid, version, text in await connection.fetch(
                    "SELECT id, version, state FROM games WHERE state IS NOT NULL"
                ):
                    value, _ = _decode_object(text, "saved state")
                    if value is None:
                        continue  # a damaged state stays as it is, for `conductor check` to report
                    changed = await connection.execute(
                        "UPDATE games SET state_z = $1, state = NULL WHERE id = $2 AND version = $3",
                        compress(value),
                        gid,
                        version,
                    )
                    compressed += _affected(changed)
                closed = await connection.fetch(
                    "SELECT DISTINCT m.game_id FROM moves m JOIN games g ON g.id = m.game_id "
                    "WHERE g.status IN ('finished', 'aborted')"
                )
                for (gid,) in closed:
                    await _archive(connection, gid)
                outbox = _affected(await connection.execute("DELETE FROM outbox WHERE posted_at IS NOT NULL"))
                timers = _affected(
                    await connection.execute(
                        "DELETE FROM timers WHERE game_id IN "
                        "(SELECT id FROM games WHERE status IN ('finished', 'aborted'))"
                    )
                )
            for table in ("games", "moves", "moves_archive", "outbox", "timers"):
                await connection.execute(f"VACUUM (ANALYZE) {table}")
        return Maintenance(compressed, len(closed), outbox, timers, before, await self.size())


def _committed(
    game: GameRow,
    now: float,
    state: dict[str, Any] | None,
    status: GameStatus | None,
    seed: int | None,
    host_id: str | None,
    paused: bool | None,
    salt: str | None,
    commitment: str | None,
    listing: str | None,
) -> GameRow:
    """The row as a commit left it, built here rather than read back."""
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
    changed: dict[str, Any] = {"version": game.version + 1, "updated_at": now}
    changed.update({key: value for key, value in given.items() if value is not None})
    return updated(game, changed)


def _move_statement(
    game: GameRow,
    sets: list[str],
    set_params: list[Any],
    moves: Sequence[MoveRecord],
    cancel_timers: Iterable[str] | Literal["all"],
    add_timers: Sequence[NewTimer],
    announce: Announcement | None,
    now: float,
) -> tuple[str, list[Any]]:
    """A plain move's commit as one statement of data-modifying CTEs, every part keyed on ``g`` (the
    version-checked UPDATE): when the version is stale ``g`` is empty and nothing else is written.
    Returns one row: ``changed`` (1 or 0) and ``outbox`` (the announcement's id, or NULL)."""
    args: list[Any] = []

    def arg(value: Any, cast: str) -> str:
        args.append(value)
        return f"${len(args)}::{cast}"

    assignments = placeholders(", ".join(sets))  # ``?`` in order: the first len(set_params) arguments
    args.extend(set_params)
    parts = [
        f"g AS (UPDATE games SET {assignments} WHERE id = {arg(game.id, 'bigint')} "
        f"AND version = {arg(game.version, 'bigint')} RETURNING id)"
    ]
    if moves:
        parts.append(
            "m AS (INSERT INTO moves (game_id, seq, seat, user_id, text, irreversible, created_at) "
            "SELECT g.id, (SELECT COALESCE(MAX(seq), 0) FROM moves WHERE game_id = g.id) + x.n, x.seat, x.user_id, "
            f"x.text, x.irreversible, {arg(now, 'float8')} FROM g, unnest("
            f"{arg([m.seat for m in moves], 'bigint[]')}, {arg([m.user_id for m in moves], 'text[]')}, "
            f"{arg([m.text for m in moves], 'text[]')}, {arg([int(m.irreversible) for m in moves], 'bigint[]')}"
            ") WITH ORDINALITY AS x(seat, user_id, text, irreversible, n))"
        )
    # The DELETE and the INSERT of timers see the same snapshot: new timers are never cancelled here.
    if cancel_timers == "all":
        parts.append("d AS (DELETE FROM timers WHERE game_id IN (SELECT id FROM g))")
    elif kinds := list(cancel_timers):
        parts.append(
            f"d AS (DELETE FROM timers WHERE game_id IN (SELECT id FROM g) AND kind = ANY({arg(kinds, 'text[]')}))"
        )
    if add_timers:
        parts.append(
            "t AS (INSERT INTO timers (game_id, kind, due_at, payload, created_at) "
            f"SELECT g.id, x.kind, x.due_at, x.payload, {arg(now, 'float8')} FROM g, unnest("
            f"{arg([t.kind for t in add_timers], 'text[]')}, {arg([t.due_at for t in add_timers], 'float8[]')}, "
            f"{arg([dumps(t.payload) for t in add_timers], 'text[]')}) AS x(kind, due_at, payload))"
        )
    if announce is not None:
        parts.append(
            "o AS (INSERT INTO outbox (game_id, version, text, pings, board, created_at) "
            f"SELECT g.id, {arg(game.version + 1, 'bigint')}, {arg(announce.text, 'text')}, "
            f"{arg(dumps(announce.pings), 'text')}, {arg(int(announce.board), 'bigint')}, {arg(now, 'float8')} "
            "FROM g RETURNING id)"
        )
    outbox = "(SELECT id FROM o)" if announce is not None else "NULL::bigint"
    return f"WITH {', '.join(parts)} SELECT (SELECT COUNT(*) FROM g) AS changed, {outbox} AS outbox", args


async def _replace_seats(connection: Any, game_id: int, seats: Sequence[SeatRow]) -> None:
    await connection.execute("DELETE FROM seats WHERE game_id = $1", game_id)
    if seats:
        await connection.executemany(
            "INSERT INTO seats (game_id, seat, user_id, display_name, kind, bot_level) VALUES ($1, $2, $3, $4, $5, $6)",
            [(game_id, s.seat, s.user_id, s.display_name, s.kind, s.bot_level) for s in seats],
        )


async def _append_moves(connection: Any, game_id: int, moves: Sequence[MoveRecord], now: float) -> None:
    # The game row is locked by this transaction's version UPDATE, so MAX(seq) cannot race.
    await connection.executemany(
        "INSERT INTO moves (game_id, seq, seat, user_id, text, irreversible, created_at) "
        "VALUES ($1, (SELECT COALESCE(MAX(seq), 0) + 1 FROM moves WHERE game_id = $1), $2, $3, $4, $5, $6)",
        [(game_id, m.seat, m.user_id, m.text, int(m.irreversible), now) for m in moves],
    )


async def _archive(connection: Any, game_id: int) -> None:
    """Move a closed game's move rows into its one compressed archive row (see storage.db._archive).
    The game's row is locked by the calling transaction's version UPDATE, so no move is added meanwhile."""
    rows = await connection.fetch(f"SELECT {_MOVE_COLUMNS} FROM moves WHERE game_id = $1 ORDER BY seq", game_id)
    if not rows:
        return
    archived = await connection.fetchval("SELECT moves FROM moves_archive WHERE game_id = $1", game_id)
    everything = archived_moves(archived) + [list(r) for r in rows]
    await connection.execute(placeholders(ARCHIVE_SQL), game_id, compress(everything), len(everything))
    await connection.execute("DELETE FROM moves WHERE game_id = $1", game_id)


async def _unarchive(connection: Any, game_id: int) -> None:
    """Put an archived move log back into move rows (see storage.db._unarchive)."""
    archived = await connection.fetchval("SELECT moves FROM moves_archive WHERE game_id = $1", game_id)
    if archived is None:
        return
    rows = [
        (game_id, seq, seat, user, text, int(irr), int(rev), float(created))
        for seq, seat, user, text, irr, rev, created in archived_moves(archived)
    ]
    await connection.executemany(placeholders(UNARCHIVE_SQL), rows)
    await connection.execute("DELETE FROM moves_archive WHERE game_id = $1", game_id)


def _safe(url: str) -> str:
    """The URL without its password, for messages and logs."""
    if "@" not in url or "://" not in url:
        return url
    scheme, rest = url.split("://", 1)
    credentials, host = rest.rsplit("@", 1)
    user = credentials.split(":", 1)[0]
    return f"{scheme}://{user}@{host}" if user else f"{scheme}://{host}"
