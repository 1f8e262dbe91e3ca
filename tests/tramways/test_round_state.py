"""What the round structure leaves in the state and says in the status, beyond the texts of
test_round_script.py: the auction cleared once the turn order is set, the auction display emptied
when the actions begin (the cards nobody takes leave the game), the buildings refilled and the
Station Master ready again at the end of a round, the exact status of every step, and the end of
round 6 (reference: "End": the game ends after round 6; the status and standings say who won)."""

from __future__ import annotations

from typing import Any

from games.base import Status
from games.tramways import GAME
from games.tramways.scoring import standings
from tests.tramways.conftest import crafted, do, new_game, refused
from tests.tramways.test_round_script import ROUND_ONE


def test_round_one_clears_the_auction_and_the_display_and_refills_at_its_end() -> None:
    state = new_game(3, master=True, station=True)
    full = dict(state["passengers"])
    seats = [seat for seat, *_ in ROUND_ONE[1:]] + [2]  # who acts after each move (cat bids first in round 2)
    for index, ((seat, move, _, summary), next_seat) in enumerate(zip(ROUND_ONE, seats, strict=True)):
        if index == len(ROUND_ONE) - 1:
            state["passengers"]["STATION"] = 0  # a passenger left the Station this round
            state["master"]["moved"] = True
        state, _ = GAME.apply(state, seat, move)
        assert GAME.status(state) == Status(to_act=(next_seat,), finished=False, summary=summary), index
        if index == 1:  # the last pass: the turn order is set and the bids are over
            assert (state["phase"], state["auction"], state["order"]) == ("take", {}, [2, 1, 0])
        if index == 4:  # the last take: the card nobody took leaves the game
            assert (state["phase"], state["display"]) == ("actions", [])
    assert state["passengers"] == full  # only the places that hold passengers, each full again
    assert state["master"] == {"at": "STATION", "moved": False}
    assert state["auction"] == {"high": 0, "queue": [2, 1, 0], "passed": [], "paid": {}, "leader": None}


def round_six_administration() -> dict[str, Any]:
    """Round 6's administration, green (seat 1) the last to do it, with the Station Master moved."""
    state = crafted(
        ["t-res", "t-plain", "t-plain", "t-plain"],
        [("station", ["C1", "D1"])],
        modules={"station": True, "master": True},
    )
    state["round"], state["phase"], state["current"] = 6, "admin", 1
    state["turn"] = {"index": 1, "discarded": False, "bought": False}
    state["master"]["moved"] = True
    state["players"][1]["deck"] = ["foreman"] * 5
    return state


def test_the_last_administration_of_round_six_ends_the_game() -> None:
    state = round_six_administration()
    state["passengers"]["R1"] = 0
    state["players"][0]["hp"], state["players"][0]["stress"] = 4, 12  # 4 - 1 (overstressed) - 14
    state["players"][1]["hp"], state["players"][1]["money"] = 2, 10  # 2 + 2
    state, events = do(state, 1, "/tram done")
    assert events == [
        {"text": "green draws 5 cards.", "irreversible": True},
        {
            "private": {"seat": 1, "text": "You drew: Foreman, Foreman, Foreman, Foreman, Foreman."},
            "irreversible": True,
        },
        {"text": "orange is overstressed: -1 HP."},
        {"text": "Round 6 ends: buildings refill with passengers."},
        {"text": "Game over. Final scores: green 4, orange -11.", "post_board": True},
    ]
    assert (state["phase"], state["round"]) == ("over", 6)
    assert state["passengers"] == {"R1": 1, "C1": 1, "STATION": 2}
    assert state["master"] == {"at": "STATION", "moved": False}
    assert GAME.status(state) == Status(to_act=(), finished=True, summary="Game over: green wins with 4 HP.")
    assert standings(state) == [
        {
            "seat": 1,
            "player": "green",
            "score": 4,
            "rank": 1,
            "breakdown": {"HP": 2, "money": 2, "stress": 0},
            "title": "winner",
        },
        {"seat": 0, "player": "orange", "score": -11, "rank": 2, "breakdown": {"HP": 3, "money": 0, "stress": -14}},
    ]
    assert refused(state, 0, {"verb": "done"}) == "The game is over."


def test_a_shared_win_at_the_end() -> None:
    state, events = do(round_six_administration(), 1, "/tram done")
    assert events[-1] == {"text": "Game over. Final scores: orange 0, green 0.", "post_board": True}
    assert GAME.status(state) == Status(
        to_act=(), finished=True, summary="Game over: orange and green share the win with 0 HP."
    )


def test_the_status_of_the_draft_and_of_a_free_station_master_move() -> None:
    from tests.tramways.test_draft import drafting

    assert GAME.status(drafting(2)) == Status(
        to_act=(0,), finished=False, summary="Parcel draft: ann to take a starting parcel"
    )
    state = crafted(
        ["t-res", "t-plain", "t-plain", "t-plain"],
        [("station", ["C1", "D1"])],
        modules={"station": True, "master": True},
    )
    state["links"].append({"id": 1, "owner": 0, "cells": ["B1"], "ends": ["R1", "STATION"], "upgraded": False})
    state["rails"]["B1"] = 1
    state["current"], state["turn"] = 1, {"step": 1, "index": 1, "actions_left": 0}
    assert GAME.status(state) == Status(
        to_act=(1,), finished=False, summary="Round 1: green to act (0 actions left), Station Master free move"
    )


def test_administration_texts_with_their_flags() -> None:
    from tests.tramways.test_refusals import admin_state

    state = admin_state()
    assert refused(state, 2, {"verb": "discard", "cards": ["nope", "suburb"]}) == (
        "You do not hold all of: nope, suburb."
    )
    state, events = GAME.apply(state, 2, {"verb": "buy", "card": "subsidy"})
    # The new card comes off the shuffled deck: it reveals something, so it cannot be taken back.
    assert events == [
        {"text": "cat buys Subsidy for $2."},
        {"text": "New development card: Freight.", "irreversible": True},
    ]
