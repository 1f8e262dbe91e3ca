"""Store tests on each backend with a clock the test moves (``clocked``), so every time a store writes is
a known number that the test can assert exactly."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from storage import AnyStore, Store, open_store


class Clock:
    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def clocked(store_target: str, clock: Clock) -> AsyncIterator[AnyStore]:
    """An open store on each backend in turn whose clock is ``clock``."""
    store = await open_store(store_target, clock=clock)
    yield store
    await store.close()


async def rows(store: AnyStore, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Raw rows as tuples (``?`` placeholders on both backends)."""
    return [tuple(row) for row in await store._all(sql, params)]


@pytest.fixture
async def sqlite_store(tmp_path) -> AsyncIterator[Store]:
    """For what only the SQLite store has (its decode counter, pragmas)."""
    store = await Store.open(tmp_path / "test.db")
    yield store
    await store.close()
