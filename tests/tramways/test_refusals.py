"""Every refusal of the round structure, word for word, and that a refused move changes nothing:
setup, whose turn, the phase's verbs, bids, auction cards, discards and development cards."""

from __future__ import annotations

from typing import Any

import pytest

from games.base import IllegalMove
from games.tramways import GAME
from games.tramways.rules import resign
from tests.tramways.conftest import new_game, refused
from tests.tramways.test_seat_changes import take_phase, until


def admin_state() -> dict[str, Any]:
    """Round 1's administration, cat (seat 2) first with $3 and this hand."""
    state = until(take_phase(), "admin")
    assert state["current"] == 2 and state["players"][2]["money"] == 3
    assert state["players"][2]["hand"] == ["suburb", "parcel-p2", "track-crew", "commuter", "petty-cash", "contractor"]
    assert state["dev_display"] == ["city-hall", "subsidy", "builder"]
    return state


@pytest.mark.parametrize("players", [0, 6])
def test_setup_needs_one_to_five_players(players: int) -> None:
    with pytest.raises(IllegalMove, match=r"^Tramways needs 1 to 5 players\.$"):
        GAME.setup(["p"] * players, {}, 1)


def test_whose_turn_and_which_verbs() -> None:
    state = new_game(3)
    assert refused(state, 1, {"verb": "pass"}) == "It is orange's turn, not yours."
    assert refused(state, 0, {"verb": "take", "card": "x"}) == "Now (auction) you can: /tram bid, /tram pass."
    assert refused(state, 3, {"verb": "pass"}) == "You are not playing in this game."
    assert refused(state, -1, {"verb": "pass"}) == "You are not playing in this game."
    assert refused(state, 0, {"verb": "fly"}) == (
        "Unknown command 'fly'; use one of: draft, bid, pass, take, rails, upgrade-link, build, "
        "upgrade-building, move, master, use, discard, buy, done."
    )
    assert refused(state, 0, "pass") == "Unknown command None; use one of: draft, bid, pass, take, rails, " + (
        "upgrade-link, build, upgrade-building, move, master, use, discard, buy, done."
    )
    assert refused(state, 0, {"verb": "bid", "amount": "lots"}) == "That move is malformed (ValueError)."
    gone, _ = resign(state, 1)
    assert refused(gone, 1, {"verb": "pass"}) == "You are not playing in this game."
    over, _ = resign(gone, 0)
    assert refused(over, 2, {"verb": "pass"}) == "The game is over."
    actions = until(take_phase(), "actions")
    assert refused(actions, actions["current"], {"verb": "discard", "cards": []}) == (
        "Now (actions) you can: /tram rails, /tram upgrade-link, /tram build, /tram upgrade-building, "
        "/tram move, /tram master, /tram use, /tram done."
    )


def test_bids_must_top_the_high_bid_and_be_paid_in_full() -> None:
    state = new_game(3)
    assert refused(state, 0, {"verb": "bid", "amount": 0}) == "Bid more than the high bid of $0 (or pass)."
    assert refused(state, 0, {"verb": "bid", "amount": 4}) == "You have $3; bids are paid in full when made."
    state, events = GAME.apply(state, 0, {"verb": "bid", "amount": 3})
    assert [e["text"] for e in events] == ["orange bids $3 (paid to the bank)."]
    assert state["players"][0]["money"] == 0 and state["auction"]["high"] == 3 and state["current"] == 1
    assert refused(state, 1, {"verb": "bid", "amount": 3}) == "Bid more than the high bid of $3 (or pass)."


def test_only_a_displayed_auction_card_is_taken() -> None:
    state = take_phase()
    assert refused(state, 2, {"verb": "take", "card": "nothing"}) == (
        "nothing is not on display. On display: contractor, investor, parcel-p8, tram-pass."
    )


def test_discard_once_before_buying_and_pay_past_the_free_one() -> None:
    state = admin_state()
    assert refused(state, 2, {"verb": "discard", "cards": []}) == "Name the cards to discard."
    assert refused(state, 2, {"verb": "discard", "cards": ["nope"]}) == "You do not hold all of: nope."
    five = ["suburb", "parcel-p2", "track-crew", "commuter", "petty-cash"]
    assert refused(state, 2, {"verb": "discard", "cards": five}) == "Discarding 5 cards costs $4; you have $3."
    four, events = GAME.apply(state, 2, {"verb": "discard", "cards": five[:4]})
    assert [e["text"] for e in events] == ["cat discards Commuter, Parcel P2, Suburb, Track Crew for $3."]
    assert four["players"][2]["money"] == 0
    one, events = GAME.apply(state, 2, {"verb": "discard", "cards": ["suburb"]})
    assert [e["text"] for e in events] == ["cat discards Suburb."] and one["players"][2]["money"] == 3
    assert one["players"][2]["discard"][-1] == "suburb" and "suburb" not in one["players"][2]["hand"]
    assert refused(one, 2, {"verb": "discard", "cards": ["commuter"]}) == "Discard once, before buying."


def test_one_development_card_per_round_from_the_display() -> None:
    state = admin_state()
    assert refused(state, 2, {"verb": "buy", "card": "nope"}) == (
        "nope is not on display. Development cards: builder, city-hall, subsidy."
    )
    assert refused(state, 2, {"verb": "buy", "card": "city-hall"}) == "City Hall costs $4; you have $3."
    bought, events = GAME.apply(state, 2, {"verb": "buy", "card": "subsidy"})
    assert [e["text"] for e in events] == ["cat buys Subsidy for $2.", "New development card: Freight."]
    assert bought["players"][2]["money"] == 1 and bought["dev_display"] == ["city-hall", "builder", "freight"]
    assert refused(bought, 2, {"verb": "buy", "card": "builder"}) == "You may buy one development card per round."
    assert refused(bought, 2, {"verb": "discard", "cards": ["suburb"]}) == "Discard once, before buying."


def test_the_auction_records_the_leader_and_what_each_seat_paid() -> None:
    state = new_game(3)
    for player in state["players"]:
        player["money"] = 20
    state, _ = GAME.apply(state, 0, {"verb": "bid", "amount": 4})
    assert state["auction"] == {"high": 4, "queue": [0, 1, 2], "passed": [], "paid": {"0": 4}, "leader": 0}
    state, _ = GAME.apply(state, 1, {"verb": "bid", "amount": 5})
    state, _ = GAME.apply(state, 2, {"verb": "pass"})
    state, _ = GAME.apply(state, 0, {"verb": "bid", "amount": 6})  # bids add up: 4 + 6
    assert state["auction"]["paid"] == {"0": 10, "1": 5} and state["auction"]["leader"] == 0
    assert GAME.view(state, None)["auction"]["paid"] == {"0": 10, "1": 5}
