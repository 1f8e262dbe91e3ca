"""What both stores (``storage.db.Store`` on SQLite, ``storage.postgres.PostgresStore``) share word for word.

``SharedStatements`` is a mixin of both that keeps settings, timers and the /game list pages through
the stores' ``_one``/``_all``/``_write`` helpers only, with SQLite's ``?`` placeholders (PostgreSQL turns
them into ``$n``), like ``storage.community``. What differs between the backends (claiming timers, whole
transactions) stays in each backend. The records and JSON column helpers those statements need live
here too, so this module does not import either backend.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from games.base import GameStatus

log = logging.getLogger("storage.db")  # the name timer warnings were always logged under


@dataclass(frozen=True)
class TimerRow:
    id: int
    game_id: int | None
    kind: str
    due_at: float
    payload: dict[str, Any]


@dataclass(frozen=True)
class ListedGame:
    """One line of /game list or /game mygames, read without decoding the game's state."""

    id: int
    channel_id: str
    game: str
    status: GameStatus
    # None: a row written before migration 7, or whose state is JSON text (old or mended by hand):
    # the caller computes its line from the state, the old way.
    listing: str | None
    seat_count: int  # how many have joined (/game list)
    seat: int | None = None  # the asking user's seat (/game mygames)


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


_OUTBOX_COLUMNS = "o.id, o.game_id, o.version, o.text, o.pings, o.board"


def outbox_rows(rows: Iterable[Sequence[Any]]) -> list[OutboxRow]:
    """Outbox rows (``_OUTBOX_COLUMNS``), oldest first."""
    return [
        OutboxRow(i, g, v, Announcement(text, json.loads(pings), bool(board)))
        for i, g, v, text, pings, board in sorted(rows, key=lambda r: int(r[0]))
    ]


# /game list and /game mygames, one statement a page (``?`` placeholders; PostgreSQL runs them too).
LIST_PAGE_SQL = (
    "SELECT g.id, g.channel_id, g.game, g.status, CASE WHEN g.state IS NULL THEN g.listing END, "
    "(SELECT COUNT(*) FROM seats s WHERE s.game_id = g.id), COUNT(*) OVER () FROM games g "
    "WHERE g.guild_id = ? AND (g.status IN ('lobby', 'active') OR (g.status = 'aborted' "
    "AND g.updated_at >= ? AND g.id = (SELECT MAX(a.id) FROM games a "
    "WHERE a.guild_id = g.guild_id AND a.channel_id = g.channel_id))) "
    "ORDER BY CASE WHEN g.status = 'aborted' THEN 1 ELSE 0 END, "
    "CASE WHEN g.status = 'aborted' THEN -g.id ELSE g.id END LIMIT ? OFFSET ?"
)
WAITING_PAGE_SQL = (
    "SELECT g.id, g.channel_id, g.game, g.status, CASE WHEN g.state IS NULL THEN g.listing END, 0, s.seat, "
    "COUNT(*) OVER () "
    "FROM seats s JOIN games g ON g.id = s.game_id WHERE s.user_id = ? AND g.status = 'active' "
    "AND (g.waiting LIKE '%,' || CAST(s.seat AS TEXT) || ',%' OR g.listing IS NULL OR g.state IS NOT NULL) "
    "ORDER BY g.id LIMIT ? OFFSET ?"
)


_TIMER_COLUMNS = "t.id, t.game_id, t.kind, t.due_at, t.payload"


def sound_timers(rows: Iterable[Sequence[Any]]) -> tuple[list[TimerRow], list[int]]:
    """Timer rows (``_TIMER_COLUMNS``) as TimerRows, and the ids of those that cannot be decoded, each
    logged: the caller deletes them, since one bad row must not stop the timer loop."""
    found, bad = [], []
    for timer_id, game_id, kind, due_at, payload in rows:
        value, damage = decode_object(payload, "payload")
        if value is None or not isinstance(kind, str) or not isinstance(due_at, int | float):
            log.warning("timer %s deleted: %s", timer_id, damage or "its kind or due time is not valid")
            bad.append(timer_id)
        else:
            found.append(TimerRow(timer_id, game_id, kind, due_at, value))
    return found, bad


def dumps(value: Any) -> str:
    """Canonical JSON so equal states are equal strings."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def decode_object(stored: Any, what: str) -> tuple[dict[str, Any] | None, str | None]:
    """A JSON object column: (value, None), or (None, why it cannot be decoded)."""
    problem = f"its {what} cannot be decoded"
    if isinstance(stored, Undecodable):
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


class Undecodable(str):
    """Text stored as bytes that are not UTF-8, decoded with replacement characters."""


def waiting_text(seats: Sequence[int]) -> str:
    """Seats as ",0,2," (empty for none): a seat is found with LIKE '%,<seat>,%'."""
    return f",{','.join(str(s) for s in seats)}," if seats else ""


@dataclass(frozen=True)
class WriteResult:
    """What ``_write`` returns on both backends: rows changed, and the new row's id when the statement
    ends in ``RETURNING id`` (else None)."""

    rowcount: int
    lastrowid: int | None = None


def returns_id(sql: str) -> bool:
    """Whether a statement ends in ``RETURNING id`` (its one row holds the new id)."""
    return sql.rstrip().upper().endswith("RETURNING ID")


class SharedStatements:
    """Mixed into both stores; the helpers below are the store's."""

    _clock: Any

    async def _one(self, sql: str, params: tuple[Any, ...] = ()) -> Any:
        raise NotImplementedError

    async def _all(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        raise NotImplementedError

    async def _write(self, sql: str, params: tuple[Any, ...] = ()) -> WriteResult:
        raise NotImplementedError

    # ----- the outbox ------------------------------------------------------------------------

    async def mark_announced(self, outbox_id: int) -> None:
        """That announcement, and every older one of its game, has been posted: their rows go
        (the outbox only ever holds what is still to post)."""
        await self._write(
            "DELETE FROM outbox WHERE id <= ? AND game_id = (SELECT game_id FROM outbox WHERE id = ?)",
            (outbox_id, outbox_id),
        )

    async def pending_announcements(self) -> list[OutboxRow]:
        """Announcements not yet posted, oldest first."""
        return outbox_rows(
            await self._all(f"SELECT {_OUTBOX_COLUMNS} FROM outbox o WHERE o.posted_at IS NULL ORDER BY o.id")
        )

    # ----- one query per page of /game list and /game mygames -----------------------------------

    async def list_page(
        self, guild_id: str, aborted_since: float, offset: int, limit: int
    ) -> tuple[list[ListedGame], int]:
        """One page of the server's open games (by id), then the channels whose latest game was
        aborted since ``aborted_since`` (newest first), and how many there are in all."""
        rows = await self._all(LIST_PAGE_SQL, (guild_id, aborted_since, limit, offset))
        return [ListedGame(*row[:6]) for row in rows], (int(rows[0][6]) if rows else 0)

    async def waiting_page(self, user_id: str, offset: int, limit: int) -> tuple[list[ListedGame], int]:
        """One page of the active games waiting for ``user_id`` (their seat is in the stored
        ``waiting`` list), with rows written before migration 7 (no listing yet) for the caller to
        check, and how many there are in all."""
        rows = await self._all(WAITING_PAGE_SQL, (user_id, limit, offset))
        return [ListedGame(*row[:7]) for row in rows], (int(rows[0][7]) if rows else 0)

    async def set_listing(self, game_id: int, version: int, listing: str, waiting: Sequence[int]) -> bool:
        """Fill in a row's listing (rows written before migration 7) if the game is still at
        ``version``; the game itself does not change, so neither does its version."""
        written = await self._write(
            "UPDATE games SET listing = ?, waiting = ? WHERE id = ? AND version = ?",
            (listing, waiting_text(waiting), game_id, version),
        )
        return written.rowcount == 1

    # ----- timers ------------------------------------------------------------------------

    async def add_timer(
        self, kind: str, due_at: float, game_id: int | None = None, payload: dict[str, Any] | None = None
    ) -> int:
        written = await self._write(
            "INSERT INTO timers (game_id, kind, due_at, payload, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id",
            (game_id, kind, due_at, dumps(payload or {}), self._clock()),
        )
        return written.lastrowid or 0

    async def cancel_timers(self, game_id: int, kinds: Iterable[str] | None = None) -> None:
        if kinds is None:
            await self._write("DELETE FROM timers WHERE game_id = ?", (game_id,))
            return
        wanted = tuple(kinds)
        if wanted:  # ``IN ()`` is not SQL everywhere; no kinds cancels nothing
            await self._write(
                f"DELETE FROM timers WHERE game_id = ? AND kind IN ({','.join('?' * len(wanted))})",
                (game_id, *wanted),
            )

    async def _timers(self, where: str, params: tuple[Any, ...], limit: str = "") -> list[TimerRow]:
        """Timers, oldest due first. A timer whose payload cannot be decoded is logged and deleted:
        one bad row must not stop the timer loop (nor every later timer with it)."""
        rows = await self._all(
            f"SELECT {_TIMER_COLUMNS} FROM timers t LEFT JOIN games g ON g.id = t.game_id {where} "
            f"ORDER BY t.due_at, t.id {limit}",
            params,
        )
        found, bad = sound_timers(rows)
        for timer_id in bad:
            await self._write("DELETE FROM timers WHERE id = ?", (timer_id,))
        if bad and limit:
            return await self._timers(where, params, limit)  # the one found was bad: the next one
        return found

    async def due_timers(self, now: float) -> list[TimerRow]:
        return await self._timers("WHERE t.due_at <= ?", (now,))

    async def timers(self, game_id: int) -> list[TimerRow]:
        return await self._timers("WHERE t.game_id = ?", (game_id,))

    async def delete_timer(self, timer_id: int) -> bool:
        return (await self._write("DELETE FROM timers WHERE id = ?", (timer_id,))).rowcount == 1

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
