"""The one-line status in each phase (who acts, and that the game is not over), the state the
start of transport and each player's done leave, and processing: conversions said in the
order their tiles were built, the neighbour bonus booked as processing points."""

from __future__ import annotations

from games.base import Status
from games.trolley_town import GAME
from games.trolley_town.rules import resign
from tests.trolley_town.helpers import done_all, game, offer, pass_all, play, put, texts


def test_done_before_round_4_leaves_the_step_done() -> None:
    state = pass_all(game(2))
    state, _ = play(state, 0, "/trolley done")
    assert state["towns"][0]["step"] == "done"
    assert set(state["towns"][0]) == set(game(2)["towns"][0])


def test_the_status_in_each_phase() -> None:
    state = game(2)
    assert GAME.status(state) == Status((0,), False, "Round 1 · Construction: ann to build, lay routes or pass")
    offer(state, "trading-post")  # Trading Post: 3 pieces of the player's choice when built
    chooser, _ = play(state, 0, "/trolley build trading-post 0,1")
    assert GAME.status(chooser) == Status((0,), False, "Round 1 · Construction: ann to choose (/trolley choose)")
    solo = done_all(pass_all(game(1)))
    assert GAME.status(solo) == Status((0,), False, "Round 1 · End of round: ann to remove tiles")


def test_the_status_when_no_one_is_left() -> None:
    """The only player of a solo game resigns: no one wins, and no empty name is shown."""
    state, _ = resign(game(1), 0)
    assert GAME.status(state) == Status((), True, "Game over: everyone resigned")


def test_transport_starts_with_no_turn() -> None:
    state = pass_all(game(2))
    assert state["phase"] == "transport" and state["turn"] is None
    assert set(state) == set(game(2))


def test_conversions_are_said_in_build_order_and_the_neighbour_bonus_is_processing_points() -> None:
    """Market Stall (2 of any -> 3 VP), built first at 3,0 with 2 wheat; Coal Merchant (2 coal ->
    5 VP), built next at 2,0 with 2 coal, beside a Guild Hall (+1 VP for each neighbour's
    processing conversion that scores)."""
    state = game(2)
    put(state, "3,0", "market-stall", wheat=2)
    put(state, "2,0", "coal-merchant", coal=2)
    put(state, "2,1", "guild-hall")
    scored_before = dict(state["towns"][0]["scored"])
    state = pass_all(state)
    state, events = play(state, 0, "/trolley done")
    assert texts(events)[:3] == [
        "ann processes.",
        "ann's Market Stall at 3,0 converts 1×, +4 VP.",
        "ann's Coal Merchant at 2,0 converts 1×, +6 VP.",
    ]
    assert state["towns"][0]["vp"] == 10
    assert state["towns"][0]["scored"] == {**scored_before, "processing": 10}
