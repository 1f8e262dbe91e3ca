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
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from storage import Store, open_store
from storage.postgres import PostgresStore
from tests.pgcluster import Cluster, running, start

settings.register_profile(
    "ci", derandomize=True, database=None, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("explore", max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

_names = itertools.count(1)


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[Cluster]:
    """One cluster for the whole run, started on first use (tests that need no PostgreSQL never start it),
    or one already running named by CONDUCTOR_TEST_PG (bench/mutation.sh: one cluster for many runs)."""
    given = os.environ.get("CONDUCTOR_TEST_PG")
    cluster = running(given) if given else start()
    yield cluster
    cluster.stop()


@pytest.fixture
def postgres_url(postgres_cluster: Cluster) -> Iterator[str]:
    """A fresh, empty database of the cluster for one test (dropped afterwards)."""
    name = f"t{os.getpid()}_{next(_names)}"  # unique across the processes sharing a CONDUCTOR_TEST_PG cluster
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


@pytest.fixture(autouse=True)
def no_store_left_open() -> Iterator[None]:
    """A test that leaves a store open fails at teardown, by name. (A leaked SQLite store's worker
    thread dies noisily with the test's event loop, or keeps the process alive if something still
    holds the store: either way the test that opened it is the one to fix.)"""
    still_open: dict[int, str] = {}
    # A patcher of its own: a test's monkeypatch.undo() must not switch the tracking off.
    with pytest.MonkeyPatch.context() as patch:
        for cls in (Store, PostgresStore):
            patch.setattr(cls, "__init__", _tracking_init(cls.__init__, still_open))
            patch.setattr(cls, "close", _tracking_close(cls.close, still_open))
        yield
    assert not still_open, f"stores left open by this test: {sorted(still_open.values())}"


def _tracking_init(init: Callable[..., None], still_open: dict[int, str]) -> Callable[..., None]:
    def tracked(self: Any, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        still_open[id(self)] = type(self).__name__

    return tracked


def _tracking_close(close: Callable[[Any], Awaitable[None]], still_open: dict[int, str]) -> Callable[[Any], Any]:
    async def tracked(self: Any) -> None:
        still_open.pop(id(self), None)
        await close(self)

    return tracked
