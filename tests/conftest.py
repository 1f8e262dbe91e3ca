"""Fixtures shared by every test folder: a throwaway PostgreSQL cluster for the storage and host suites."""

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
