"""A real replay viewer on a free loopback port, and finished games to look at."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from aiohttp import web

import rendering
from bot.core import Conductor
from bot.replay import rebuild
from bot.web.server import make_app
from storage import Store
from tests.community.conftest import ANN, BOB, GUILD, say


@asynccontextmanager
async def serving(store: Store) -> AsyncIterator[str]:
    runner = web.AppRunner(make_app(store))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        await runner.cleanup()


async def trains_with_moves(host: Conductor, channel: str, guild: str = GUILD) -> str:
    """A two-player Trains game: both lay their starting rails, then bob resigns. Returns its replay URL."""
    assert (await say(host, ANN, "/game new trains", channel, guild)).ok
    assert (await say(host, BOB, "/game join", channel, guild)).ok
    assert (await say(host, ANN, "/game start", channel, guild)).ok
    for actor in (ANN, BOB):
        legal = await host.legal_commands(guild, channel, actor.user_id)
        assert (await say(host, actor, legal[0], channel, guild)).ok
    end = await say(host, BOB, "/game resign confirm", channel, guild)
    assert end.status == "finished"
    link = next(line for line in end.public.splitlines() if line.startswith("Replay: "))
    return link.removeprefix("Replay: http://127.0.0.1:8080")


async def expected_board(store: Store, game_id: int, step: int) -> bytes:
    """The renderer's own output for the public board after ``step`` moves (built here, not by the viewer)."""
    import games

    row = await store.get_game(game_id)
    assert row is not None and row.seed is not None and row.state is not None
    spec = games.get_game(row.game)
    moves = [(m.seat, m.text) for m in await store.moves(game_id)]
    state = rebuild(spec, row.state["names"], row.options, row.seed, moves[:step])
    return rendering.render(spec.view(state, None), None)
