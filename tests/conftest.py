"""Fixtures shared by every test folder: a throwaway PostgreSQL cluster for the storage, host and community
suites, and ``store_target``, which runs a test on each backend in turn."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

from tests.pgcluster import Cluster, start

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
