"""Store tests on each backend with a clock the test moves (``clocked``), so every time a store writes is
a known number that the test can assert exactly.

On PostgreSQL these tests share one database per test process, emptied before each test (TRUNCATE ...
RESTART IDENTITY, statistics reset), instead of a fresh database each: creating and migrating one costs
seconds, emptying it milliseconds, and the mutation run (bench/mutation.sh) runs these tests once per
mutant. Tests that need a database no store has ever opened ask for ``postgres_url`` instead."""

from __future__ import annotations

import itertools
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from storage import AnyStore, Store, open_store
from storage.postgres import PostgresStore
from tests.pgcluster import Cluster

_databases = itertools.count(1)


@pytest.fixture(scope="session")
def shared_postgres_url(postgres_cluster: Cluster) -> Iterator[str]:
    """One database of the cluster for this process's storage tests (dropped at the end)."""
    name = f"s{os.getpid()}_{next(_databases)}"
    postgres_cluster.create_database(name)
    yield postgres_cluster.database_url(name)
    postgres_cluster.drop_database(name)


async def _emptied(url: str) -> str:
    """``url``'s database migrated and with every table empty, its ids starting at 1 again."""
    store = await open_store(url)  # migrates it the first time
    await store.close()
    connection = await asyncpg.connect(url)
    try:
        tables = await connection.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'schema_migrations'"
        )
        await connection.execute(f"TRUNCATE {', '.join(t[0] for t in tables)} RESTART IDENTITY CASCADE")
        await connection.execute("SELECT pg_stat_reset()")  # last_vacuum and the like: per test
    finally:
        await connection.close()
    return url


@pytest.fixture(params=["sqlite", "postgres"])
async def store_target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a test's database is, on each backend in turn (tests/conftest.py's, with the PostgreSQL
    database shared and emptied rather than created per test)."""
    if request.param == "postgres":
        return await _emptied(str(request.getfixturevalue("shared_postgres_url")))
    return str(tmp_path / "test.db")


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


@pytest.fixture
async def postgres_store(shared_postgres_url: str) -> AsyncIterator[PostgresStore]:
    """For what only the PostgreSQL store has (its one-statement moves, its snapshot reads)."""
    store = await PostgresStore.open(await _emptied(shared_postgres_url))
    yield store
    await store.close()
