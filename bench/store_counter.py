"""Count what the host asks of the store per command: store calls (split into reads and writes),
SQL statements SQLite ran (BEGIN and COMMIT included), write transactions, hops to the database
thread, and full state decodes. Wraps a real Store; nothing is mocked. Works on older Stores too
(it only needs the aiosqlite connection), so before/after figures come from the same counter."""

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
    "mark_announced",
    "set_listing",
)


class StoreCounter:
    """Counts calls to ``store``'s public coroutine methods, and what reaches SQLite. Call
    ``await counter.attach()`` once before counting."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self.calls: Counter[str] = Counter()
        self.statements = 0
        self.transactions = 0
        self.hops = 0
        self._decodes_at = 0
        for name, method in inspect.getmembers(store, inspect.iscoroutinefunction):
            if not name.startswith("_") and name not in ("close", "open"):
                setattr(store, name, self._count(name, method))

    async def attach(self) -> None:
        # Statements, transactions and hops are counted on SQLite's one connection; a PostgreSQL
        # store (a pool, no ``connection``) has only its calls counted.
        connection = getattr(self.store, "connection", None)
        if connection is None:
            self.reset()
            return

        def traced(sql: str) -> None:
            self.statements += 1
            if sql.lstrip().upper().startswith("BEGIN IMMEDIATE"):
                self.transactions += 1

        await connection._execute(lambda: connection._conn.set_trace_callback(traced))
        execute = connection._execute

        async def hop(fn: Any, *args: Any, **kwargs: Any) -> Any:
            self.hops += 1
            return await execute(fn, *args, **kwargs)

        connection._execute = hop
        self.reset()

    def _count(self, name: str, method: Any) -> Any:
        @functools.wraps(method)
        async def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] += 1
            return await method(*args, **kwargs)

        return counted

    def reset(self) -> None:
        self.calls.clear()
        self.statements = self.transactions = self.hops = 0
        self._decodes_at = getattr(self.store, "state_decodes", 0)

    @property
    def decodes(self) -> int | None:
        """Full state decodes since the last reset (None: this Store does not count them)."""
        if not hasattr(self.store, "state_decodes"):
            return None
        return int(self.store.state_decodes) - self._decodes_at

    @property
    def reads(self) -> int:
        return sum(n for name, n in self.calls.items() if name not in WRITES)

    @property
    def writes(self) -> int:
        return sum(n for name, n in self.calls.items() if name in WRITES)
