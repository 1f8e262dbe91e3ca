"""Who may move: a seat outside the game is refused as such (not as "not your move", and not
with an error), a pass sticks for the rest of the round, and a building's choice is announced."""

from __future__ import annotations

import pytest

from games.base import IllegalMove
from games.trolley_town import GAME
from tests.trolley_town.helpers import game, offer, play


@pytest.mark.parametrize("seat", [-1, 2, 3])
def test_a_seat_outside_the_game_is_refused(seat: int) -> None:
    state = game(2)
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(state, seat, GAME.parse("/trolley pass"))
    assert refused.value.message == "You are not playing in this game."


def test_a_pass_sticks_for_the_round() -> None:
    state, events = play(game(2), 0, "/trolley pass")
    assert state["passed"] == [True, False]
    assert [e["text"] for e in events] == ["ann passes for this round.", "bob to build, lay routes or pass."]


def test_a_choice_from_a_new_building_is_announced() -> None:
    """Trading Post: when built, 3 pieces of the player's choice."""
    state = offer(game(2), "trading-post")
    _, events = play(state, 0, "/trolley build trading-post 0,1")
    assert {"text": "ann's Trading Post at 0,1: 3 to choose."} in events
