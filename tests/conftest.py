"""Suite-wide test settings and shared fixtures.

Hypothesis runs derandomized by default: the same examples on every run and in CI, so a failure is
reproducible and a green run means the same thing twice. ``HYPOTHESIS_PROFILE=explore`` draws fresh
random examples (and more of them) when you want to hunt for new failures locally.

A throwaway PostgreSQL cluster serves the storage, host and community suites, ``store_target``
runs a test on each backend in turn, and ``store`` is an open store there.
"""

from __future__ import annotations

import itertools
import os
import threading
from collections.abc import AsyncIterator, Iterator

import pytest
from hypothesis import HealthCheck, settings

from storage import Store, open_store
from tests.pgcluster import Cluster, start

settings.register_profile(
    "ci", derandomize=True, database=None, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("explore", max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

_names = itertools.count(1)


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[Cluster]:
    """One cluster for the whole run, started on first use (tests that need no PostgreSQL never start it)."""
    cluster = start()
    yield cluster
    cluster.stop()


@pytest.fixture
def postgres_url(postgres_cluster: Cluster) -> Iterator[str]:
    """A fresh, empty database of the cluster for one test (dropped afterwards)."""
    name = f"t{next(_names)}"
    postgres_cluster.create_database(name)
    yield postgres_cluster.database_url(name)
    postgres_cluster.drop_database(name)


@pytest.fixture(params=["sqlite", "postgres"])
def store_target(request: pytest.FixtureRequest, tmp_path) -> str:
    """Where a test's database is, on each backend in turn: an SQLite file, or a fresh PostgreSQL
    database (a ``postgresql://`` URL). Open it with ``storage.open_store``; several opens of one
    target are several processes' connections to one database."""
    if request.param == "postgres":
        return str(request.getfixturevalue("postgres_url"))
    return str(tmp_path / "test.db")


@pytest.fixture
async def store(store_target: str) -> AsyncIterator[Store]:
    """An open store on each backend in turn (``store_target``), closed after the test."""
    s = await open_store(store_target)
    yield s
    await s.close()


def _sqlite_workers() -> set[threading.Thread]:
    """aiosqlite runs each open connection in a thread of its own (named after its target)."""
    return {t for t in threading.enumerate() if t.name.endswith("(_connection_worker_thread)")}


@pytest.fixture(autouse=True)
def no_store_left_open() -> Iterator[None]:
    """A test that leaves an SQLite store open fails at teardown, by name: its worker thread would
    outlive the test. A closed store's thread ends by itself right after close(), so each new one is
    given a moment (a join, not a sleep) before it counts as left open."""
    before = _sqlite_workers()
    yield
    left = []
    for worker in _sqlite_workers() - before:
        worker.join(2.0)  # returns at once for a closed store's thread, which is stopping already
        if worker.is_alive():
            left.append(worker)
    assert not left, f"{len(left)} SQLite store(s) left open by this test: close every store it opens"
