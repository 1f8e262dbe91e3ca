"""Resignation and kicks in every phase, a moderator's skip, the undo scope and the conformance
redeal: who acts next, which phase follows, and the exact texts (seeded 3-player games)."""

from __future__ import annotations

from typing import Any

import pytest

from games.base import IllegalMove
from games.tramways import GAME
from games.tramways.rules import kick, redeal, resign, skip_move, undo_scope
from tests.tramways.conftest import do, new_game
from tests.tramways.test_draft import drafting


def texts(events: list[Any]) -> list[str]:
    return [e["text"] for e in events]


def until(state: dict[str, Any], phase: str, **turn: int) -> dict[str, Any]:
    """Play the least moves (pass, first card, done) until ``phase`` with ``turn``'s values."""
    while not (state["phase"] == phase and all(state["turn"].get(k) == v for k, v in turn.items())):
        seat = state["current"]
        move = skip_move(state, seat)
        state, _ = GAME.apply(state, seat, move)
    return state


def take_phase() -> dict[str, Any]:
    """Round 1 after orange and green passed: turn order cat, green, orange; cat takes first."""
    state = new_game(3)
    state, _ = do(state, 0, "/tram pass")
    state, _ = do(state, 1, "/tram pass")
    return state


def test_the_take_phase_and_its_skip():
    state = take_phase()
    assert (state["phase"], state["order"], state["current"], state["turn"]) == ("take", [2, 1, 0], 2, {"index": 0})
    assert state["display"] == ["contractor", "investor", "tram-pass", "parcel-p8"]
    assert skip_move(state, 2) == {"verb": "take", "card": "contractor"}
    assert undo_scope(state) == (1, "take", 0, 0, 2)


def test_skip_passes_in_the_auction_drafts_the_first_parcel_and_otherwise_is_done():
    assert skip_move(new_game(3), 0) == {"verb": "pass"}
    assert skip_move(drafting(3), 0) == {"verb": "draft", "parcel": "P1"}
    actions = until(take_phase(), "actions")
    assert skip_move(actions, actions["current"]) == {"verb": "done"}
    admin = until(actions, "admin")
    assert skip_move(admin, admin["current"]) == {"verb": "done"}


def test_undo_scope_is_round_phase_step_index_and_seat():
    assert undo_scope(new_game(3)) == (1, "auction", 0, 0, 0)
    assert undo_scope(drafting(3)) == (0, "draft", 0, 0, 0)
    actions = until(take_phase(), "actions", step=2, index=1)
    assert undo_scope(actions) == (1, "actions", 2, 1, 1)
    admin = until(actions, "admin", index=2)
    assert undo_scope(admin) == (1, "admin", 0, 2, 0)


def test_refusals():
    state = new_game(3)
    with pytest.raises(IllegalMove, match=r"^You are not playing in this game\.$"):
        resign(state, 3)
    with pytest.raises(IllegalMove, match=r"^You are not playing in this game\.$"):
        resign(state, -1)
    gone, _ = resign(state, 1)
    with pytest.raises(IllegalMove, match=r"^You are not playing in this game\.$"):
        resign(gone, 1)
    over, _ = resign(gone, 0)
    assert over["phase"] == "over"
    with pytest.raises(IllegalMove, match=r"^The game is over\.$"):
        resign(over, 2)


def test_resigning_in_the_auction_passes_the_bid_on_and_the_last_bidder_leaves_the_order():
    state = new_game(3)
    new, events = resign(state, 0)
    assert texts(events) == ["orange resigns."] and events[0]["post_board"] is True
    assert new["current"] == 1 and new["phase"] == "auction" and new["move_number"] == state["move_number"] + 1
    assert new["players"][0]["resigned"] is True and state["players"][0]["resigned"] is False  # a copy
    # orange passed, green bid: cat resigning leaves green alone, first; orange last, cat after.
    state, _ = do(state, 0, "/tram pass")
    state, _ = do(state, 1, "/tram bid 1")
    assert state["current"] == 2
    new, events = resign(state, 2)
    assert texts(events) == ["cat resigns."]
    assert (new["phase"], new["order"], new["current"], new["turn"]) == ("take", [1, 0, 2], 1, {"index": 0})
    # Not the seat to act: only the flag changes, the bidding goes on.
    new, _ = resign(state, 0)
    assert (new["phase"], new["current"], new["auction"]["passed"]) == ("auction", 2, [0])


def test_resigning_with_two_bidders_left_moves_the_bid_to_the_next():
    state = new_game(3)
    state, _ = do(state, 0, "/tram bid 1")
    new, _ = resign(state, 1)
    assert (new["phase"], new["current"]) == ("auction", 2)


def test_resigning_while_taking_an_auction_card():
    state = take_phase()
    new, events = resign(state, 2)
    assert texts(events) == ["cat resigns."]
    assert (new["phase"], new["current"], new["turn"]) == ("take", 1, {"index": 0})
    assert (state["move_number"], new["move_number"]) == (2, 3)
    # orange takes last: resigning then starts the actions.
    last = until(state, "take", index=2)
    assert last["current"] == 0
    new, events = resign(last, 0)
    assert texts(events) == ["orange resigns.", "Actions: one action each, then two each."]
    assert (new["phase"], new["current"], new["turn"]) == ("actions", 2, {"step": 1, "index": 0, "actions_left": 1})


def test_resigning_in_the_actions_hands_the_turn_on_and_ends_the_step():
    first = until(take_phase(), "actions")
    assert (first["current"], first["turn"]) == (2, {"step": 1, "index": 0, "actions_left": 1})
    new, events = resign(first, 2)
    assert texts(events) == ["cat resigns."]
    assert (new["current"], new["turn"]) == (1, {"step": 1, "index": 0, "actions_left": 1})
    # The last of the single-action step: the double-action step starts with the first seat.
    last = until(first, "actions", step=1, index=2)
    new, events = resign(last, 0)
    assert texts(events) == ["orange resigns."]
    assert (new["phase"], new["current"], new["turn"]) == ("actions", 2, {"step": 2, "index": 0, "actions_left": 2})
    # In the double-action step the next seat gets two actions.
    double = until(first, "actions", step=2, index=1)
    new, _ = resign(double, 1)
    assert (new["current"], new["turn"]) == (0, {"step": 2, "index": 1, "actions_left": 2})
    # The last of the double-action step: the administration follows.
    final = until(first, "actions", step=2, index=2)
    new, events = resign(final, 0)
    assert texts(events)[-1] == "Administration: discard, buy a development card, draw up to your hand limit."
    assert (new["phase"], new["current"], new["turn"]) == (
        "admin",
        2,
        {"index": 0, "discarded": False, "bought": False},
    )


def test_resigning_in_the_administration():
    admin = until(take_phase(), "admin")
    new, _ = resign(admin, admin["current"])
    assert (new["phase"], new["current"], new["turn"]) == (
        "admin",
        1,
        {"index": 0, "discarded": False, "bought": False},
    )
    last = until(admin, "admin", index=2)
    new, events = resign(last, 0)
    assert "Round 1 ends: buildings refill with passengers." in texts(events)
    assert "Round 2 of 6 begins." in texts(events)
    assert (new["round"], new["phase"], new["current"]) == (2, "auction", 2)
    assert new["auction"]["queue"] == [2, 1]


def test_resigning_in_the_draft_skips_the_seat_s_picks():
    state = drafting(3)
    new, events = resign(state, 0)
    assert texts(events) == ["ann resigns."]
    assert new["current"] == 1 and new["draft"]["picks"] == [1, 2, 2, 1, 0]


def test_the_last_player_but_one_resigning_ends_the_game():
    new, events = resign(resign(new_game(3), 1)[0], 0)
    assert new["phase"] == "over"
    assert texts(events) == ["orange resigns.", "Game over. Final scores: cat 0, orange 0, green 0."]
    assert GAME.status(new).summary == "Game over: cat wins with 0 HP."


def test_a_kick_is_a_resignation_said_as_a_kick():
    state = new_game(3)
    new, events = kick(state, 1)
    assert texts(events) == ["green was kicked by a moderator."]
    assert new["players"][1]["resigned"] is True and new["players"][1]["kicked"] is True
    assert "kicked" not in state["players"][1]
    assert new["current"] == 0
    standings = {row["player"]: row for row in GAME.standings(new)}
    assert standings["green"]["title"] == "kicked" and standings["green"]["rank"] == 3


def test_redeal_shuffles_only_that_seat_s_hidden_cards():
    state = new_game(3)
    other = redeal(state, 1, 99)
    before, after = state["players"][1], other["players"][1]
    assert sorted(before["hand"] + before["deck"]) == sorted(after["hand"] + after["deck"])
    assert (before["hand"], before["deck"]) != (after["hand"], after["deck"])
    assert other["players"][0] == state["players"][0] and other["players"][2] == state["players"][2]
    assert {k: v for k, v in other.items() if k != "players"} == {k: v for k, v in state.items() if k != "players"}


def test_the_last_bidder_resigning_orders_those_who_passed_last_passer_first():
    state = new_game(4)
    state, _ = do(state, 0, "/tram pass")  # first to pass: last
    state, _ = do(state, 1, "/tram pass")
    state, _ = do(state, 2, "/tram bid 1")
    new, events = resign(state, 3)
    assert texts(events) == ["dan resigns."]
    assert (new["order"], new["phase"], new["current"]) == ([2, 1, 0, 3], "take", 2)


def test_an_auction_ended_by_a_resignation_without_auction_cards_starts_the_actions():
    state = new_game(3)
    state["display"] = []  # as in round 6: no auction cards to take
    state, _ = do(state, 0, "/tram pass")
    state, _ = do(state, 1, "/tram bid 1")
    new, events = resign(state, 2)
    assert texts(events) == ["cat resigns.", "Actions: one action each, then two each."]
    assert (new["order"], new["phase"], new["current"]) == ([1, 0, 2], "actions", 1)


def test_the_last_drafter_resigning_ends_the_draft():
    state = drafting(3)
    for label in ["P1", "P2", "P3", "P4", "P5"]:
        state, _ = do(state, state["current"], f"/tram draft {label}")
    assert state["current"] == 0 and state["draft"]["picks"] == [0]
    new, events = resign(state, 0)
    assert [e.get("text") for e in events][:2] == ["ann resigns.", "The parcel draft is over."]
    assert (new["phase"], new["round"]) == ("auction", 1) and "draft" not in new
    assert new["parcels"] == {"P1": 0, "P2": 1, "P5": 1, "P3": 2, "P4": 2}


def test_the_next_seat_gets_a_fresh_turn_after_a_resignation_mid_turn():
    actions = until(take_phase(), "actions", step=2, index=0)
    actions, _ = do(actions, 2, "/tram use petty-cash:$1")
    assert actions["turn"] == {"step": 2, "index": 0, "actions_left": 1}
    new, events = resign(actions, 2)
    assert texts(events) == ["cat resigns."]
    assert (new["current"], new["turn"]) == (1, {"step": 2, "index": 0, "actions_left": 2})
    admin = until(take_phase(), "admin")
    admin, _ = do(admin, 2, "/tram discard suburb")
    assert admin["turn"] == {"index": 0, "discarded": True, "bought": False}
    new, _ = resign(admin, 2)
    assert (new["current"], new["turn"]) == (1, {"index": 0, "discarded": False, "bought": False})
