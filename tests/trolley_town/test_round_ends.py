"""What the end of a round leaves behind: the solo clean-up's prompt word for word, every
town's step and allowances reset for the next round, round 4's second "done" finishing a
player, and the state a move started from left untouched (the engine copies what it changes)."""

from __future__ import annotations

import json

from tests.trolley_town.helpers import game, next_round, pass_all, play, to_act


def town_keys() -> set[str]:
    """The keys setup gives a town: a misspelt key in a later state would leave the real one stale."""
    return set(game(2)["towns"][0])


def frozen(state: dict) -> str:
    return json.dumps(state, sort_keys=True)


def test_the_solo_clean_up_prompt_and_the_state_it_leaves() -> None:
    """Solo rule: at the end of each round remove 1 V tile and 2 A/B tiles."""
    before = pass_all(game(1))
    snapshot = frozen(before)
    state, events = play(before, 0, "/trolley done")
    assert frozen(before) == snapshot  # the move's own copy changed, not the state it started from
    assert state["phase"] == "cleanup"
    assert events[-1] == {
        "text": "End of round: remove 1 V tile and 2 A/B tiles (/trolley remove ...).",
        "post_board": True,
    }
    assert set(state["towns"][0]) == town_keys()
    assert state["towns"][0]["step"] == ""


def test_the_next_round_starts_with_no_step_and_no_allowances() -> None:
    state = next_round(game(2))
    assert state["phase"] == "construction" and state["round"] == 2
    for town in state["towns"]:
        assert set(town) == town_keys()
        assert town["step"] == "" and town["pull"] == {}


def test_a_second_done_in_round_4_finishes_the_player() -> None:
    """Round 4: the first done processes (the player may still transport again); the second
    says the player is finished for the game."""
    state = game(2)
    while state["round"] < 4:
        state = next_round(state)
    state = pass_all(state)
    state, _ = play(state, 0, "/trolley done")
    assert state["towns"][0]["step"] == "processed"
    state, events = play(state, 0, "/trolley done")
    # the board is posted: ann no longer acts this round
    assert events == [{"text": "ann is finished for the game.", "post_board": True}]
    assert state["towns"][0]["step"] == "finished"
    assert set(state["towns"][0]) == town_keys()
    assert to_act(state) == (1,)


def test_the_phase_change_leaves_the_state_it_started_from_untouched() -> None:
    """The last pass starts transport, which changes every town (steps, allowances): the other
    towns, shared with the old state until then, must be copied first."""
    before = play(game(2), 0, "/trolley pass")[0]
    snapshot = frozen(before)
    after, _ = play(before, 1, "/trolley pass")
    assert after["phase"] == "transport"
    assert frozen(before) == snapshot
