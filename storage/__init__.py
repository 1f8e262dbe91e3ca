"""Persistence: games, seats, the move log, timers and settings, in SQLite (aiosqlite, the default)
or PostgreSQL (asyncpg, for several bot processes). ``open_store`` picks one from a URL or a path."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Union

from storage.community import GameResults, SeatResult
from storage.db import (
    DEFAULT_PATH,
    Announcement,
    ChannelBusy,
    GameRow,
    Maintenance,
    MoveRecord,
    MoveRow,
    NewTimer,
    OutboxRow,
    SeatRow,
    StaleVersion,
    Store,
    StoreError,
    TableRow,
)
from storage.shards import Shards, shard_of
from storage.shared import ListedGame, TimerRow

if TYPE_CHECKING:  # asyncpg is an optional extra: imported only when a postgresql:// URL is opened
    from storage.postgres import PostgresStore

# Either backend: the host, the console and the checks take whichever ``open_store`` opened.
AnyStore = Union[Store, "PostgresStore"]

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(target: str) -> bool:
    return target.startswith(POSTGRES_SCHEMES)


def sqlite_path(target: str) -> str:
    """``sqlite:///relative.db`` and ``sqlite:////abs/path.db`` (SQLAlchemy's spelling) or a plain path."""
    return target[len("sqlite:///") :] if target.startswith("sqlite:///") else target


async def open_store(target: str, clock: Callable[[], float] = time.time) -> AnyStore:
    """A ``postgresql://`` URL opens PostgreSQL (storage.postgres.PostgresStore); anything else is an
    SQLite file (``sqlite:///path`` or a plain path), as before. Both have the same methods."""
    if is_postgres(target):
        from storage.postgres import PostgresStore  # asyncpg is an optional extra

        return await PostgresStore.open(target, clock=clock)
    return await Store.open(sqlite_path(target), clock=clock)


__all__ = [
    "AnyStore",
    "POSTGRES_SCHEMES",
    "Shards",
    "is_postgres",
    "open_store",
    "shard_of",
    "sqlite_path",
    "GameResults",
    "SeatResult",
    "Announcement",
    "OutboxRow",
    "DEFAULT_PATH",
    "ChannelBusy",
    "GameRow",
    "ListedGame",
    "Maintenance",
    "MoveRecord",
    "MoveRow",
    "NewTimer",
    "SeatRow",
    "StaleVersion",
    "Store",
    "StoreError",
    "TableRow",
    "TimerRow",
]
