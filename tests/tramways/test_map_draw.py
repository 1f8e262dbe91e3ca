"""Drawing the map (rules._draw_map): when the expansion tiles cannot be placed on the boards drawn,
the boards are drawn again (the Grand Station rulebook's remedy: change the boards), at most 100 times,
and then setup is refused with a message rather than looping for ever.

Crafted: 300 boards that setup may draw, one of them all plain and 299 all water (no Station fits on
water), so each draw of a solo map's 3 boards fails unless it holds the plain one. The seeds were found
by replaying the draws (below); with seed 1 the plain board first comes in the 100th draw, with seed 64
in the 101st."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from games.base import IllegalMove
from games.rng import Rng, seed_state
from games.tramways import GAME, rules
from games.tramways.board import EXTRA_BOARDS

KEYS = [str(900 + i) for i in range(300)]
PLAIN = KEYS[0]


@pytest.fixture(autouse=True)
def boards() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(rules, "BOARDS", {key: (".....",) * 5 if key == PLAIN else ("~~~~~",) * 5 for key in KEYS})
        for key in KEYS:
            patch.setitem(EXTRA_BOARDS, key, rules.BOARDS[key])
        yield


def first_plain_draw(seed: int) -> int:
    """The draw (from 1) whose 3 boards hold the plain one: a failed draw uses the RNG for nothing else,
    since place_tiles finds no position for the Station on water and asks for no choice."""
    rng = Rng(seed_state(seed))
    for draw in range(1, 200):
        if PLAIN in rng.shuffled(sorted(KEYS, key=int))[:3]:
            return draw
    raise AssertionError("no plain board in 200 draws")


def test_the_hundredth_draw_still_counts() -> None:
    assert first_plain_draw(1) == 100
    state = GAME.setup(["ann"], {"station": True}, 1)
    assert PLAIN in state["boards"]
    assert [kind for kind, _ in state["tiles"]] == ["station"]


def test_after_a_hundred_failed_draws_setup_is_refused() -> None:
    assert first_plain_draw(64) == 101
    with pytest.raises(IllegalMove) as info:
        GAME.setup(["ann"], {"station": True}, 64)
    assert info.value.message == "No arrangement of the boards leaves room for the expansion tiles."
