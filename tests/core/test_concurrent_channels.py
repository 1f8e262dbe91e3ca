"""Many games in many channels at once through one Store, as under Discord (one Store, one connection)."""

from __future__ import annotations

import asyncio

from bot.core import Conductor
from bot.replies import Actor
from storage import Store

ANN, BOB = Actor("1", "ann"), Actor("2", "bob")
SCRIPT = [
    (ANN, "/game new tiny-towns buildings=first-game"),
    (BOB, "/game join"),
    (ANN, "/game start"),
    (ANN, "/tt announce wood"),
    (ANN, "/tt place A1"),
    (BOB, "/tt place A1"),
]


async def test_concurrent_commands_in_many_channels_all_apply(tmp_path) -> None:
    store = await Store.open(tmp_path / "x.db")
    host = Conductor(store, render_images=False, seed_source=lambda: 5)

    async def play(channel: str) -> list[bool]:
        return [(await host.handle("g", channel, actor, text)).ok for actor, text in SCRIPT]

    try:
        results = await asyncio.gather(*(play(f"c{i}") for i in range(30)))
        assert results == [[True] * len(SCRIPT)] * 30
        games = await store.list_games("g")
        assert len(games) == 30 and {len(await store.moves(g.id)) for g in games} == {3}
    finally:
        await store.close()
