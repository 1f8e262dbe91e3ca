"""Random play through the host, to the end of the game: legal moves, illegal texts and undos mixed.

Each example plays a whole game (a few hundred commands at most), so these reach what short random
sequences never do: the final scoring, the finished status, undo near the end. Hypothesis draws every
choice; the profile in tests/conftest.py fixes the examples in CI.
"""

from __future__ import annotations

import asyncio
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import games
from bot.check import check_store
from bot.core import Conductor
from bot.replies import Actor
from tests.core.conftest import ANN, BOB, CAT, CHANNEL, GUILD, memory_store, say, snapshot

MAX_COMMANDS = 1500  # far beyond a whole 3-player game; reaching it means the game never ended
ILLEGAL = {
    "tiny-towns": ["/tt place Z9", "/tt build cottage A1 A2 A3", "/tt announce wood", "/tt done", "/tt monument x"],
    "trains": [
        "/trains buy skyscraper",
        "/trains play lay-rails A1",
        "/trains start Z99",
        "/trains end",
        "/trains pass",
    ],
}


async def _play_to_the_end(slug: str, options: str, players: int, data: Any) -> None:
    async with memory_store() as store:
        host = Conductor(store, render_images=False, seed_source=lambda: data.draw(st.integers(0, 2**32), label="seed"))
        actors = [ANN, BOB, CAT][:players]
        spec = games.get_game(slug)
        assert (await say(host, ANN, f"/game new {slug} {options}".strip())).ok
        for actor in actors[1:]:
            assert (await say(host, actor, "/game join")).ok
        assert (await say(host, ANN, "/game start" + (" solo" if players == 1 else ""))).ok
        for _ in range(MAX_COMMANDS):
            row = await store.open_game(GUILD, CHANNEL)
            if row is None or row.status == "finished":
                break
            to_act = spec.status(row.state).to_act
            actor: Actor = data.draw(st.sampled_from([actors[s] for s in to_act] or actors), label="actor")
            kind = data.draw(st.sampled_from(["legal"] * 12 + ["illegal", "undo"]), label="kind")
            legal = await host.legal_commands(GUILD, CHANNEL, actor.user_id)
            if kind == "legal" and legal:
                text = legal[data.draw(st.integers(0, len(legal) - 1), label="move")]
            elif kind == "undo":
                text = "/game undo"
            else:
                text = data.draw(st.sampled_from(ILLEGAL[slug]), label="illegal")
            before = await snapshot(store)
            reply = await say(host, actor, text)
            if kind == "legal" and legal:
                assert reply.ok, (text, reply.private)
            if not reply.ok:
                assert reply.private and await snapshot(store) == before, (text, reply.private)
        else:
            raise AssertionError(f"{slug} did not end within {MAX_COMMANDS} commands")
        games_left = await store.all_games()
        assert [g.status for g in games_left] == ["finished"]
        assert spec.status(games_left[0].state).finished
        findings = await check_store(store)
        assert findings and all(f.kind == "ok" for f in findings), findings


@settings(max_examples=30)
@given(players=st.integers(1, 3), data=st.data())
def test_tiny_towns_random_play_reaches_the_end(players: int, data: Any) -> None:
    asyncio.run(_play_to_the_end("tiny-towns", "buildings=first-game", players, data))


@settings(max_examples=8)
@given(players=st.integers(2, 3), data=st.data())
def test_trains_random_play_reaches_the_end(players: int, data: Any) -> None:
    asyncio.run(_play_to_the_end("trains", "", players, data))
