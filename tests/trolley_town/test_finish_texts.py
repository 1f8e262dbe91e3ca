"""The end of the game word for word: the game-end conversions and scores named for their
player, the final state (no turn, every town's step and pending choices cleared), the closing
line posted with the board, and the line when no one is left playing."""

from __future__ import annotations

from games.trolley_town.rules import resign
from tests.trolley_town.helpers import NAMES, finish, game, next_round, pass_all, play, put, texts, vp


def town_keys() -> set[str]:
    """The keys setup gives a town: a misspelt key in a later state would leave the real one stale."""
    return set(game(2)["towns"][0])


def test_game_end_lines_name_their_player_and_the_closing_line_posts_the_board() -> None:
    """Warehouse: 2 of any -> 4 VP as often as possible at game end; 4 wheat convert twice, +8.
    Show Ground: 3 VP per sheep on it at game end; 2 sheep, +6 (no bonus below 5)."""
    state = game(2)
    put(state, "0,1", "warehouse", wheat=4)
    put(state, "1,1", "show-ground", sheep=2)
    state = pass_all(finish_rounds(state))
    state, events = play_done(state)
    lines = texts(events)
    assert "ann's Warehouse at 0,1 converts 2×, +8 VP." in lines
    assert "ann's Show Ground at 1,1: +6 VP at game end." in lines
    assert vp(state, 0) == 14 and vp(state, 1) == 0
    assert events[-1] == {"text": "Game over: ann wins with 14 VP.", "post_board": True}


def finish_rounds(state: dict) -> dict:
    """Empty rounds up to the start of round 4's construction."""
    while state["round"] < 4:
        state = next_round(state)
    return state


def play_done(state: dict) -> tuple[dict, list]:
    """Round 4's transport: every player says done; returns the finished state and all events."""
    events: list = []
    while state["phase"] == "transport":
        seat = next(s for s, t in enumerate(state["towns"]) if t["step"] in ("transport", "processed"))
        state, more = play(state, seat, "/trolley done")
        events += more
    assert state["phase"] == "finished"
    return state, events


def test_the_finished_state_has_no_turn_and_no_town_left_mid_step() -> None:
    state = finish(game(3))
    assert state["phase"] == "finished"
    assert state["turn"] is None
    assert "TURN" not in state and "XXturnXX" not in state
    for town in state["towns"]:
        assert set(town) == town_keys()
        assert town["step"] == "" and town["pending"] == []


def test_a_finish_mid_construction_clears_the_turn_and_pending_choices() -> None:
    """Both rivals resign while ann is to build: the game ends at once, with ann's turn gone."""
    state = game(3)
    assert state["turn"] == 0
    state, _ = resign(state, 1)
    state, events = resign(state, 2)
    assert state["phase"] == "finished" and state["turn"] is None
    assert "TURN" not in state and "XXturnXX" not in state
    assert [set(t) for t in state["towns"]] == [town_keys()] * 3
    assert events[-1] == {"text": "Game over: ann wins with 0 VP.", "post_board": True}


def test_the_rounds_in_between_leave_every_step_empty() -> None:
    """After a round's transport every town is 'finished'; the next round starts them all afresh."""
    state = next_round(game(2))
    assert state["phase"] == "construction" and state["round"] == 2
    for town in state["towns"]:
        assert set(town) == town_keys()
        assert town["step"] == ""


def test_when_the_only_player_resigns_no_one_wins() -> None:
    """A solo game ends when its player resigns; no seat is still in, so nobody is named the winner."""
    state, events = resign(game(1), 0)
    assert state["phase"] == "finished"
    assert events == [
        {"text": f"{NAMES[0]} resigns.", "post_board": True},
        {"text": "Game over: everyone resigned, so no one wins.", "post_board": True},
    ]
