"""Helpers for the Discord tests: reading the bot's database (SQLite or PostgreSQL), move text -> slash options."""

from __future__ import annotations

import asyncio
import concurrent.futures
import io
import json
import re
import sqlite3
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

import games
from games.schema import verb_of
from storage import is_postgres
from storage.postgres import placeholders
from tests.discord.fake_discord import Message


@dataclass(frozen=True)
class Seat:
    seat: int
    user_id: str
    name: str
    kind: str


@dataclass(frozen=True)
class GameRow:
    id: int
    version: int
    status: str
    state: dict[str, Any] | None
    seats: list[Seat]

    def seat_of(self, user_id: int | str) -> int:
        return next(s.seat for s in self.seats if s.user_id == str(user_id))


Database = Path | str  # an SQLite file, or a postgresql:// URL (BotProcess.database)


def query(db: Database, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Rows of one statement (``?`` placeholders), read straight from the database like an operator would."""
    if isinstance(db, str) and is_postgres(db):
        return [tuple(row) for row in _on_postgres(db, sql, params, fetch=True)]
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        return [tuple(row) for row in conn.execute(sql, params)]


def execute(db: Database, sql: str, params: tuple[Any, ...] = ()) -> None:
    """Change the database behind the bot's back (``?`` placeholders)."""
    if isinstance(db, str) and is_postgres(db):
        _on_postgres(db, sql, params, fetch=False)
        return
    with sqlite3.connect(db) as conn:
        conn.execute(sql, params)


def _on_postgres(url: str, sql: str, params: tuple[Any, ...], fetch: bool) -> list[Any]:
    async def run() -> list[Any]:
        import asyncpg

        connection = await asyncpg.connect(url)
        try:
            if fetch:
                return list(await connection.fetch(placeholders(sql), *params))
            await connection.execute(placeholders(sql), *params)
            return []
        finally:
            await connection.close()

    # A thread of its own: tests call this from inside their running event loop.
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, run()).result()


def read_game(db: Database, channel: int | None = None) -> GameRow:
    """The newest game (in ``channel``)."""
    # The state is stored zlib-compressed in state_z (migration 7); rows written before keep JSON in state.
    sql = "SELECT id, version, status, state, state_z FROM games"
    params: tuple[Any, ...] = ()
    if channel is not None:
        sql += " WHERE channel_id = ?"
        params = (str(channel),)
    gid, version, status, state, packed = query(db, sql + " ORDER BY id DESC LIMIT 1", params)[0]
    seats = [
        Seat(*row)
        for row in query(
            db, "SELECT seat, user_id, display_name, kind FROM seats WHERE game_id = ? ORDER BY seat", (gid,)
        )
    ]
    if state is None and packed is not None:
        state = zlib.decompress(packed)
    return GameRow(gid, version, status, json.loads(state) if state else None, seats)


async def poll(predicate: Callable[[], bool], timeout: float = 20.0) -> None:
    """Until ``predicate`` holds (for what only the database shows; the fake is not told about it)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.1)


def pending_announcements(db: Database, channel: int) -> int:
    """Outbox rows of the channel's games not yet marked posted."""
    [(count,)] = query(
        db,
        "SELECT COUNT(*) FROM outbox JOIN games ON games.id = outbox.game_id "
        "WHERE games.channel_id = ? AND outbox.posted_at IS NULL",
        (str(channel),),
    )
    return int(count)


def timer_kinds(db: Database, game_id: int) -> list[str]:
    return sorted(kind for (kind,) in query(db, "SELECT kind FROM timers WHERE game_id = ?", (game_id,)))


def legal_texts(row: GameRow, seat: int) -> list[str]:
    spec = games.get_game("tiny-towns")
    assert row.state is not None
    return [spec.format(m) for m in spec.legal_moves(row.state, seat)]


def slash_for(text: str) -> tuple[str, dict[str, str]]:
    """``/tt place B2 wood`` -> ("tt place", {"square": "B2", "resource": "wood"})."""
    group = text.split()[0][1:]
    spec = games.game_for_group(group)
    assert spec is not None
    verb = verb_of(spec.verbs, text)
    assert verb is not None, text
    values = verb.split(group, text)
    assert values is not None, text
    return f"{group} {verb.name}", values


def button(message: Message, action: str) -> str:
    """The custom_id of the button with ``action`` on ``message``."""
    for custom_id in message.custom_ids:
        if re.fullmatch(rf"tcb:\d+:\d+:{action}(:.*)?", custom_id):
            return custom_id
    raise AssertionError(f"no {action} button on message {message.id}: {message.custom_ids}")


def decode(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as image:
        image.load()
        return image.size
