"""Undo's refusals that the broader host tests check only loosely: each says exactly why
(issue 17, host mutation testing)."""

from __future__ import annotations

from dataclasses import replace

import games
from bot import replies as R
from bot.core import Conductor
from storage import Store
from tests.core.conftest import (
    ANN,
    BOB,
    CAT,
    CHANNEL,
    GUILD,
    MOD,
    say,
    snapshot,
    started_three_player,
    started_two_player,
)


async def _three_player_round(host: Conductor) -> None:
    await started_three_player(host)
    assert (await say(host, ANN, "/tt announce wood")).ok


async def test_a_resignation_is_final(host: Conductor, store: Store) -> None:
    await _three_player_round(host)
    assert (await say(host, CAT, "/game resign confirm")).ok
    before = await snapshot(store)
    refused = await say(host, CAT, "/game undo")
    assert (refused.error, refused.private) == (R.ILLEGAL, "A resignation or a kick can't be undone.")
    assert await snapshot(store) == before


async def test_a_two_word_move_of_a_verb_declared_not_undoable_is_refused(
    host: Conductor, store: Store, monkeypatch
) -> None:
    """``/tt done`` is the command group and the verb alone: the verb is still looked up."""
    manifest = games.get_manifest("tiny-towns")
    verbs = tuple(replace(v, undoable=False) if v.name == "done" else v for v in manifest.spec.verbs)
    monkeypatch.setitem(games._loaded, "tiny-towns", replace(manifest, spec=replace(manifest.spec, verbs=verbs)))
    await _three_player_round(host)
    for actor, text in [
        (ANN, "/tt place A1"),
        (BOB, "/tt place A1"),
        (CAT, "/tt place A1"),  # one cube each builds nothing: everyone is done, round 2
        (BOB, "/tt announce stone"),
        (ANN, "/tt place A2"),  # a Well ann may build: she is not done by herself
        (ANN, "/tt done"),  # bob and cat have not placed: the round stays open
    ]:
        assert (await say(host, actor, text)).ok
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None
    assert (await store.moves(row.id))[-1].text == "/tt done"
    before = await snapshot(store)
    refused = await say(host, ANN, "/game undo")
    assert (refused.error, refused.private) == (R.ILLEGAL, "`/tt done` can't be taken back.")
    assert await snapshot(store) == before


async def test_taking_back_a_secret_choice_does_not_name_it(host: Conductor, store: Store) -> None:
    """Which monument you keep is secret: the public line names the command only."""
    deal = "starloom,archive-of-the-second-age,cathedral-of-caterina,grand-mausoleum-of-the-rodina"
    for actor, text in [
        (ANN, f"/game new tiny-towns buildings=first-game monuments={deal}"),
        (BOB, "/game join"),
        (ANN, "/game start"),
        (ANN, "/tt keep starloom"),
    ]:
        assert (await say(host, actor, text)).ok
    undone = await say(host, ANN, "/game undo")
    assert undone.ok and undone.public.split("\n")[0] == "ann took back `/tt monument (secret)`."
    assert "starloom" not in (undone.public + undone.private).lower()
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None and row.state is not None and row.state["towns"][0]["monument"] is None


async def test_taking_back_what_others_moves_rest_on_is_refused(host: Conductor, store: Store) -> None:
    """The named resource is what bob placed: without it his placement does not replay."""
    await _three_player_round(host)  # ann named wood
    assert (await say(host, BOB, "/tt place B1")).ok
    before = await snapshot(store)
    refused = await say(host, ANN, "/game undo")
    assert (refused.error, refused.private) == (
        R.ILLEGAL,
        "Too late to take that back: the moves made since depend on it.",
    )
    assert await snapshot(store) == before


async def test_an_undo_and_a_rollback_post_the_board_again(store: Store) -> None:
    """The position changed backwards: the channel gets a fresh board image with the line."""
    drawing = Conductor(store, seed_source=lambda: 42)  # images on
    await started_two_player(drawing)
    for actor, text in [(ANN, "/tt announce wood"), (ANN, "/tt place A1")]:
        assert (await say(drawing, actor, text)).ok
    undone = await say(drawing, ANN, "/game undo")
    assert undone.ok and len(undone.images) == 1
    rolled = await say(drawing, MOD, "/mod rollback 0")
    assert rolled.ok and rolled.public.startswith("mod rolled the game back to move 0.") and len(rolled.images) == 1
