"""Count what the host asks of the store per command: store calls (split into reads and writes)
and SQL round trips (statements sent to SQLite). Wraps a real Store; nothing is mocked."""

from __future__ import annotations

import functools
import inspect
from collections import Counter
from typing import Any

# Store methods that change the database; every other public coroutine only reads.
WRITES = (
    "create_game",
    "update_game",
    "set_seats",
    "commit",
    "add_timer",
    "cancel_timers",
    "delete_timer",
    "set_channel_setting",
    "set_user_setting",
    "claim_due_timers",
    "claim_announcements",
)


class StoreCounter:
    """Counts calls to ``store``'s public coroutine methods and statements on its connection."""

    def __init__(self, store: Any) -> None:
        self.calls: Counter[str] = Counter()
        self.statements = 0
        for name, method in inspect.getmembers(store, inspect.iscoroutinefunction):
            if not name.startswith("_") and name not in ("close", "open"):
                setattr(store, name, self._count(name, method))
        # Statements are counted on SQLite's one connection; a PostgreSQL store's pool is not wrapped.
        connection = getattr(store, "connection", None)
        for name in ("execute", "executemany") if connection is not None else ():
            setattr(connection, name, self._count_sql(getattr(connection, name)))

    def _count(self, name: str, method: Any) -> Any:
        @functools.wraps(method)
        async def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] += 1
            return await method(*args, **kwargs)

        return counted

    def _count_sql(self, method: Any) -> Any:
        @functools.wraps(method)
        def counted(*args: Any, **kwargs: Any) -> Any:
            self.statements += 1
            return method(*args, **kwargs)

        return counted

    def reset(self) -> None:
        self.calls.clear()
        self.statements = 0

    @property
    def reads(self) -> int:
        return sum(n for name, n in self.calls.items() if name not in WRITES)

    @property
    def writes(self) -> int:
        return sum(n for name, n in self.calls.items() if name in WRITES)
