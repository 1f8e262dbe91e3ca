"""Undo in a game that declares no undo scope (a plugin game may leave it out): only your own move,
and only while it is still the last move of the game. Every built-in game declares a scope, so this
path is reached here with Tiny Towns' declaration taken out (issue 17, host mutation testing)."""

from __future__ import annotations

from dataclasses import replace

import pytest

import games
from bot import replies as R
from bot.core import Conductor
from storage import Store
from tests.core.conftest import ANN, BOB, CHANNEL, GUILD, say, snapshot, started_two_player

UNSCOPED_REFUSAL = (
    "You can only undo your own move, and only while it is the last move of the game (nobody has acted since)."
)


@pytest.fixture
def unscoped(monkeypatch: pytest.MonkeyPatch) -> None:
    manifest = games.get_manifest("tiny-towns")
    monkeypatch.setitem(games._loaded, "tiny-towns", replace(manifest, spec=replace(manifest.spec, undo_scope=None)))


async def test_your_own_last_move_is_taken_back(host: Conductor, store: Store, unscoped: None) -> None:
    await started_two_player(host)
    assert (await say(host, ANN, "/tt announce wood")).ok
    assert (await say(host, ANN, "/tt place A1")).ok
    undone = await say(host, ANN, "/game undo")
    assert undone.ok and undone.public.startswith("ann took back `/tt place A1`.\n")
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None and row.state is not None and row.status == "active"
    assert row.state["towns"][0]["cells"][0] is None
    assert [m.text for m in await store.moves(row.id)] == ["/tt announce wood"]


async def test_once_someone_else_moved_it_is_refused_with_no_mention_of_a_phase(
    host: Conductor, store: Store, unscoped: None
) -> None:
    await started_two_player(host)
    for actor, text in [(ANN, "/tt announce wood"), (ANN, "/tt place A1"), (BOB, "/tt place B1")]:
        assert (await say(host, actor, text)).ok
    before = await snapshot(store)
    refused = await say(host, ANN, "/game undo")
    assert (refused.error, refused.private) == (R.ILLEGAL, UNSCOPED_REFUSAL)
    assert await snapshot(store) == before
    # bob's placement is the last move: his to take back.
    assert (await say(host, BOB, "/game undo")).ok
