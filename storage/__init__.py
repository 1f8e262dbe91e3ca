"""SQLite persistence (aiosqlite): games, seats, the move log, timers and settings."""

from storage.db import (
    DEFAULT_PATH,
    Announcement,
    ChannelBusy,
    GameRow,
    ListedGame,
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
    TimerRow,
)

__all__ = [
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
