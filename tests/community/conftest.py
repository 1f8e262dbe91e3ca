from __future__ import annotations

import pytest

from bot.core import Conductor
from bot.replies import Actor, Reply
from storage import Store

GUILD, OTHER_GUILD = "g1", "g2"
ANN, BOB, CAT = Actor("1", "ann"), Actor("2", "bob"), Actor("3", "cat")
MOD = Actor("9", "mod", is_moderator=True)


@pytest.fixture
def host(store: Store) -> Conductor:
    return Conductor(store, render_images=False, seed_source=lambda: 42, web_url="http://127.0.0.1:8080")


async def say(host: Conductor, actor: Actor, text: str, channel: str = "c1", guild: str = GUILD) -> Reply:
    reply = await host.handle(guild, channel, actor, text)
    return reply


async def trains_won_by(host: Conductor, winner: Actor, loser: Actor, channel: str, guild: str = GUILD) -> Reply:
    """A real two-player Trains game that ends when ``loser`` resigns."""
    assert (await say(host, winner, "/game new trains", channel, guild)).ok
    assert (await say(host, loser, "/game join", channel, guild)).ok
    assert (await say(host, winner, "/game start", channel, guild)).ok
    reply = await say(host, loser, "/game resign confirm", channel, guild)
    assert reply.ok and reply.status == "finished", reply
    return reply
