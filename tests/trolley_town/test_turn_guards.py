"""Who may move: a seat outside the game is refused as such (not as "not your move", and not
with an error), a pass sticks for the rest of the round, and a building's choice is announced."""

from __future__ import annotations

import pytest

from games.base import IllegalMove
from games.trolley_town import GAME
from games.trolley_town.content import BASICS, RULES
from tests.trolley_town.helpers import game, offer, play, rejected


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


def test_a_pending_choice_must_be_answered_first() -> None:
    state, _ = play(offer(game(2), "trading-post"), 0, "/trolley build trading-post 0,1")
    assert rejected(state, 0, "/trolley pass") == (
        "First choose for your Trading Post at 0,1: /trolley choose 0,1 <wood|stone|wheat|coal|sheep> (3 piece(s))."
    )


def test_the_options_dry_run_skips_unknown_players_but_reads_the_rest() -> None:
    """/game new checks options with one placeholder player: a later player's name is skipped,
    and the words after it are still read (seat 1 here)."""
    assert game(1, expert=["bob", "1"])["options"]["expert"] == [0]


def test_basics_is_refused_word_for_word() -> None:
    with pytest.raises(IllegalMove) as refused:
        game(2, basics=["field"])
    assert refused.value.message == "basics= is for solo games; with 2-4 players every basic pile is used."
    with pytest.raises(IllegalMove) as refused:
        game(1, basics=["field"])
    assert refused.value.message == (
        f"basics= needs {RULES.solo_basics} basic buildings from {', '.join(BASICS)} separated by commas "
        f"(repeats allowed), e.g. basics={','.join(RULES.solo_default)}."
    )
