"""SQLite persistence (aiosqlite): games, seats, the move log, timers and settings."""

from storage.db import (
    DEFAULT_PATH,
    ChannelBusy,
    GameRow,
    MoveRecord,
    MoveRow,
    NewTimer,
    SeatRow,
    StaleVersion,
    Store,
    TableRow,
    TimerRow,
)

__all__ = [
    "DEFAULT_PATH",
    "ChannelBusy",
    "GameRow",
    "MoveRecord",
    "MoveRow",
    "NewTimer",
    "SeatRow",
    "StaleVersion",
    "Store",
    "TableRow",
    "TimerRow",
]
