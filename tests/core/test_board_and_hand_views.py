"""``/game board`` and ``/game hand`` with images on: which view is drawn for whom (the public view
for the board, the seat's own private view for its hand), its file name and its text alternative; and
the hand's move menu with the game's labels (issue 17, host mutation testing: ``board``, ``hand``,
``labelled_moves``)."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace
from typing import Any

import pytest

import games
from bot.core import Conductor
from bot.host import render_aborted, render_board
from storage import Store
from tests.core.conftest import ANN, BOB, CAT, CHANNEL, GUILD, MOD, say, started_two_player


async def open_state(store: Store) -> dict:
    row = await store.latest_game(GUILD, CHANNEL)
    assert row is not None and row.state is not None
    return row.state


async def test_the_board_is_the_public_view_with_the_focus_named(store: Store) -> None:
    drawing = Conductor(store, seed_source=lambda: 42)  # images on
    spec = games.get_game("tiny-towns")
    await started_two_player(drawing)
    for actor, text in [(ANN, "/tt announce wood"), (ANN, "/tt place A1")]:
        assert (await say(drawing, actor, text)).ok
    state = await open_state(store)
    public = spec.view(state, None)
    summary = "round 1 (wood): waiting for: bob"
    for focus, who in [("", "the"), (" ann", "ann's"), (" bob", "bob's")]:
        reply = await say(drawing, CAT, "/game board" + focus)
        assert (reply.error, reply.private, reply.public) == (None, summary, "")
        [image] = reply.private_images
        assert (image.filename, image.description) == ("tiny-towns-1-board.png", f"Tiny Towns: {who} board. {summary}")
        seat = {"": None, " ann": 0, " bob": 1}[focus]
        assert image.data == render_board(public, seat), focus
    assert (await say(drawing, MOD, "/mod abort")).ok
    aborted = await say(drawing, CAT, "/game board")
    [image] = aborted.private_images
    assert (image.filename, image.description) == (
        "tiny-towns-1-board.png",
        "Tiny Towns: the board. This Tiny Towns game was aborted by mod.",
    )
    assert image.data == render_aborted(public, None)


async def test_the_hand_is_the_seats_own_view_drawn_for_that_seat(store: Store) -> None:
    drawing = Conductor(store, seed_source=lambda: 42)
    spec = games.get_game("tiny-towns")
    await started_two_player(drawing)
    assert (await say(drawing, ANN, "/tt announce wood")).ok
    state = await open_state(store)
    for actor, seat in [(ANN, 0), (BOB, 1)]:
        reply = await say(drawing, actor, "/game hand")
        assert (reply.private, reply.public) == ("No monuments in this game.", "")
        [image] = reply.private_images
        assert (image.filename, image.description) == ("tiny-towns-1-yours.png", "Your private view of Tiny Towns.")
        assert image.data == render_board(spec.view(state, seat), seat)
        # Both still have to place: the menu is every empty square, with no labels (Tiny Towns has none).
        assert reply.legal[:2] == [("/tt place A1", ""), ("/tt place B1", "")] and len(reply.legal) == 16


async def test_the_hand_menu_carries_the_games_labels(host: Conductor) -> None:
    for actor, text in [
        (ANN, "/game new trains map=tokyo kingdom=tunnel"),
        (BOB, "/game join"),
        (ANN, "/game start"),
        (ANN, "/trains start shinjuku"),
    ]:
        assert (await say(host, actor, text)).ok, text
    waiting = await say(host, ANN, "/game hand")  # ann has placed her starting rail: nothing to do
    assert waiting.private == "Your hand: Lay Rails, 4x Normal Train.\nDeck 5, discard 0, rails left 19."
    assert waiting.legal == []
    bobs = await say(host, BOB, "/game hand")
    assert bobs.private == (
        "Your hand: Lay Rails, 3x Normal Train, Station Expansion.\nDeck 5, discard 0, rails left 20.\n"
        "Place your starting rail: /trains start HEX."
    )
    assert bobs.legal[:2] == [("/trains start A1", "mountain"), ("/trains start B1", "mountain")]
    assert len(bobs.legal) == 121
    # In the play phase the labels depend on whose money it is: ann's, not an onlooker's.
    assert (await say(host, BOB, "/trains start B1")).ok
    anns = await say(host, ANN, "/game hand")
    assert anns.legal[:4] == [
        ("/trains play lay-rails G6", "money 0 → 0, +1 Waste"),
        ("/trains play lay-rails G7", "money 0 → 0, +1 Waste"),
        ("/trains play lay-rails H5", "money 0 → 0, +1 Waste"),
        ("/trains play lay-rails skip", "money 0 → 0"),
    ]
    assert len(anns.legal) == 7


async def test_a_game_without_a_private_summary_says_the_view_is_private(
    host: Conductor, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    manifest = games.get_manifest("tiny-towns")
    monkeypatch.setitem(
        games._loaded, "tiny-towns", replace(manifest, spec=replace(manifest.spec, private_summary=None))
    )
    await started_two_player(host)
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None
    reply = await say(host, BOB, "/game hand")
    assert (reply.error, reply.private, reply.public) == (None, "Your private view:", "")
    assert (reply.game_id, reply.version) == (row.id, row.version)
    assert reply.legal == []  # ann names the resource first


@pytest.mark.parametrize("seed", [3, 42, 77])
async def test_kept_drawings_are_the_current_drawings_along_a_seeded_game(store: Store, seed: int) -> None:
    """The Conductor keeps what it drew by game, version, viewer and focus (``Conductor._draw``),
    and its plain definition is drawing afresh: along a seeded game played by level-0 bots, after
    every move, the posted board, every /game board focus and both hands are the drawing of the
    state now, though each is asked twice at one version and the round's board was drawn already."""
    drawing = Conductor(store, seed_source=lambda: seed)
    spec = games.get_game("tiny-towns")
    await started_two_player(drawing)
    actors = [ANN, BOB]
    for _ in range(7):
        state = await open_state(store)
        seat = spec.status(state).to_act[0]
        reply = await say(drawing, actors[seat], spec.format(spec.bot_move(state, seat, 0)))
        assert reply.ok, reply.error
        state = await open_state(store)
        public = spec.view(state, None)
        for image in reply.images[:1]:  # the board posted when a round ends
            assert image.data == render_board(public, None)
        for _ in range(2):
            for focus, seat_shown in [("", None), (" ann", 0), (" bob", 1)]:
                [image] = (await say(drawing, CAT, "/game board" + focus)).private_images
                assert image.data == render_board(public, seat_shown), focus
            for viewer, actor in enumerate(actors):
                [image] = (await say(drawing, actor, "/game hand")).private_images
                assert image.data == render_board(spec.view(state, viewer), viewer)


class CountingExecutor(ThreadPoolExecutor):
    """A render executor that counts the drawings asked of it."""

    def __init__(self) -> None:
        super().__init__(max_workers=1)
        self.drawn = 0

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.drawn += 1
        return super().submit(fn, *args, **kwargs)


async def test_a_board_or_hand_asked_again_at_the_same_version_is_not_drawn_again(store: Store) -> None:
    """The point of keeping drawings (issue 14): on a busy server the same picture is asked for again
    and again between two moves; only a new version, another focus or another viewer draws anew."""
    executor = CountingExecutor()
    host = Conductor(store, seed_source=lambda: 7, render_executor=executor)
    try:
        await started_two_player(host)
        assert (await say(host, CAT, "/game board")).private_images
        assert executor.drawn == 1
        await say(host, BOB, "/game board")
        assert executor.drawn == 1  # the same picture, whoever asks
        await say(host, CAT, "/game board ann")
        assert executor.drawn == 2  # another focus
        await say(host, BOB, "/game hand")
        await say(host, BOB, "/game hand")
        assert executor.drawn == 3
        await say(host, ANN, "/game hand")
        assert executor.drawn == 4  # another viewer
        assert (await say(host, ANN, "/tt announce wood")).ok
        await say(host, CAT, "/game board")
        await say(host, BOB, "/game hand")
        assert executor.drawn == 6  # a new version
    finally:
        executor.shutdown()
