from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import pytest

from bot.core import Conductor
from bot.replies import Actor, Reply
from storage import Store
from storage.db import dumps

GUILD, CHANNEL = "g1", "c1"
ANN, BOB, CAT = Actor("1", "ann"), Actor("2", "bob"), Actor("3", "cat")
MOD = Actor("9", "mod", is_moderator=True)


@pytest.fixture
async def sqlite_store(tmp_path) -> AsyncIterator[Store]:
    """For what only SQLite can hold or has: bytes that are not UTF-8 in a text column, pragmas."""
    s = await Store.open(tmp_path / "test.db")
    yield s
    await s.close()


@contextlib.asynccontextmanager
async def memory_store() -> AsyncIterator[Store]:
    """A throwaway in-memory store, closed however the block ends: hypothesis stops an example
    mid-way (a draw beyond its budget) by raising inside it, and a store opened there stays open."""
    store = await Store.open(":memory:")
    try:
        yield store
    finally:
        await store.close()


@pytest.fixture
def host(store: Store) -> Conductor:
    return Conductor(store, render_images=False, seed_source=lambda: 42)


async def say(host: Conductor, actor: Actor, text: str, channel: str = CHANNEL) -> Reply:
    return await host.handle(GUILD, channel, actor, text)


async def snapshot(store: Store, channel: str = CHANNEL) -> tuple[str, int, int, str]:
    """Everything a refused command must leave untouched."""
    row = await store.open_game(GUILD, channel)
    assert row is not None
    moves = await store.moves(row.id, include_reverted=True)
    seats = await store.seats(row.id)
    return dumps(row.state), row.version, len(moves), dumps([s.__dict__ for s in seats]) + row.status


async def started_game(host: Conductor, *joiners: Actor) -> None:
    """ann's first-game Tiny Towns with ``joiners`` seated after her; ann is Master Builder."""
    assert (await say(host, ANN, "/game new tiny-towns buildings=first-game")).ok
    for actor in joiners:
        assert (await say(host, actor, "/game join")).ok
    assert (await say(host, ANN, "/game start")).ok


async def started_two_player(host: Conductor) -> None:
    """ann and bob in a first-game Tiny Towns, ann is Master Builder."""
    await started_game(host, BOB)


async def started_three_player(host: Conductor) -> None:
    """ann, bob and cat in a first-game Tiny Towns, ann is Master Builder."""
    await started_game(host, BOB, CAT)
