"""SQLite persistence (aiosqlite): games, seats, the move log, timers and settings."""

from storage.community import GameResults, SeatResult
from storage.db import (
    DEFAULT_PATH,
    Announcement,
    ChannelBusy,
    GameRow,
    MoveRecord,
    MoveRow,
    NewTimer,
    OutboxRow,
    SeatRow,
    StaleVersion,
    Store,
    StoreError,
    TableRow,
    TimerRow,
)

__all__ = [
    "GameResults",
    "SeatResult",
    "Announcement",
    "OutboxRow",
    "DEFAULT_PATH",
    "ChannelBusy",
    "GameRow",
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
