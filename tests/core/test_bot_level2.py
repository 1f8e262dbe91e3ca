"""`/game addbot 2` seats the search bot, and bot decisions run in a worker thread, never on the
event loop's thread."""

from __future__ import annotations

import threading

import pytest

import games.trains.ai_search
from games.trains import GAME
from storage import Store

from .conftest import ANN, CHANNEL, GUILD, say


async def test_level_two_bot_plays_in_a_worker_thread(host, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    threads: list[int] = []
    real = games.trains.ai_search.choose

    def spy(state, seat):  # the real search, noting which thread ran it
        threads.append(threading.get_ident())
        return real(state, seat)

    monkeypatch.setattr(games.trains.ai_search, "choose", spy)
    assert (await say(host, ANN, "/game new trains map=tokyo")).ok
    reply = await say(host, ANN, "/game addbot 2")
    assert reply.ok and "level 2" in reply.public
    assert (await say(host, ANN, "/game start")).ok
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None
    start = GAME.legal_moves(row.state, 0)[0]
    assert (await say(host, ANN, GAME.format(start))).ok
    assert (await say(host, ANN, "/trains end")).ok  # ann's first turn; then the bot's whole turn
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None and row.state["current"] == 0 and row.state["turn_number"] >= 3
    assert threads, "the level-2 search never ran"
    assert threading.get_ident() not in threads
