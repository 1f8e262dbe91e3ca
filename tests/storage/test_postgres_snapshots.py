"""PostgreSQL's reads that take two statements see one snapshot: a game's move log is read from the archive
and from the live rows, and a game that finishes (its log moved into the archive by another connection)
between the two statements is still read whole."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest

from storage import MoveRecord
from storage.postgres import PostgresStore


class Interposed:
    """A pooled connection that runs ``between`` (on another connection) right after its first fetchval."""

    def __init__(self, real: Any, between: Callable[[], Awaitable[None]]) -> None:
        self.real, self.between = real, between

    def transaction(self, **options: Any) -> Any:
        return self.real.transaction(**options)

    async def fetchval(self, *args: Any) -> Any:
        value = await self.real.fetchval(*args)
        await self.between()
        return value

    async def fetch(self, *args: Any) -> Any:
        return await self.real.fetch(*args)


async def test_the_move_log_is_read_whole_while_another_connection_archives_it(
    postgres_store: PostgresStore, monkeypatch: pytest.MonkeyPatch
):
    store = postgres_store
    game = await store.create_game("g", "c", "trains", "1", "ann", {}, "1")
    game, _ = await store.commit(game, status="active", state={"n": 0})
    game, _ = await store.commit(game, state={"n": 2}, moves=[MoveRecord(0, "1", "/t a"), MoveRecord(1, "2", "/t b")])
    expected = await store.moves(game.id)
    assert [m.text for m in expected] == ["/t a", "/t b"]

    async def finish() -> None:  # another command finishes the game: its log moves into the archive
        monkeypatch.undo()
        await store.commit(game, status="finished")

    pool = store._pool

    class Pool:
        @contextlib.asynccontextmanager
        async def acquire(self) -> AsyncIterator[Interposed]:
            async with pool.acquire() as connection:
                yield Interposed(connection, finish)

    monkeypatch.setattr(store, "_pool", Pool())
    assert await store.moves(game.id) == expected
    assert (await store.get_game(game.id)).status == "finished" and await store.moves(game.id) == expected
