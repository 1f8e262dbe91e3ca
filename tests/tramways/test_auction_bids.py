"""The auction's bids as players see them: each bid is paid to the bank at once, a player's bids in
one auction add up, the last bidder leads, and the two refusals say what would be legal. The view
(what the board image and /game board show) carries the high bid, the leader and what each seat has
paid, so each of these is checked there, not only in the state."""

from __future__ import annotations

from typing import Any

import pytest

from games.base import IllegalMove
from games.tramways import GAME
from games.tramways.rules import clone
from games.tramways.view import view
from tests.tramways.conftest import new_game


def _auction_with_money(money: int) -> dict[str, Any]:
    state = clone(new_game(2))
    assert state["phase"] == "auction" and state["current"] == 0
    for player in state["players"]:
        player["money"] = money
    return state


def _bid(state: dict[str, Any], seat: int, amount: int) -> tuple[dict[str, Any], list[str]]:
    state, events = GAME.apply(state, seat, {"verb": "bid", "amount": amount})
    return state, [e["text"] for e in events]


def test_bids_are_paid_at_once_add_up_and_the_last_bidder_leads() -> None:
    state = _auction_with_money(10)
    state, lines = _bid(state, 0, 2)
    assert lines == ["orange bids $2 (paid to the bank)."]
    seen = view(state, None)
    assert seen["auction"]["high"] == 2 and seen["auction"]["leader"] == 0
    assert seen["auction"]["paid"] == {"0": 2}
    assert [p["money"] for p in seen["players"]] == [8, 10]
    assert state["current"] == 1

    state, lines = _bid(state, 1, 3)
    assert lines == ["green bids $3 (paid to the bank)."]
    seen = view(state, None)
    assert (seen["auction"]["high"], seen["auction"]["leader"]) == (3, 1)
    assert seen["auction"]["paid"] == {"0": 2, "1": 3}

    state, lines = _bid(state, 0, 4)  # orange's second bid: $2 + $4 paid in all
    assert lines == ["orange bids $4 (paid to the bank)."]
    seen = view(state, None)
    assert (seen["auction"]["high"], seen["auction"]["leader"]) == (4, 0)
    assert seen["auction"]["paid"] == {"0": 6, "1": 3}
    assert [p["money"] for p in seen["players"]] == [4, 7]


@pytest.mark.parametrize(
    ("amount", "refusal"),
    [
        (2, "Bid more than the high bid of $2 (or pass)."),  # equal to the high bid
        (1, "Bid more than the high bid of $2 (or pass)."),
        (11, "You have $10; bids are paid in full when made."),
    ],
)
def test_a_refused_bid_says_what_is_legal_and_changes_nothing(amount: int, refusal: str) -> None:
    state, _ = _bid(_auction_with_money(10), 0, 2)
    before = clone(state)
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(state, 1, {"verb": "bid", "amount": amount})
    assert str(refused.value) == refusal
    assert state == before


def test_a_bid_of_all_ones_money_is_legal() -> None:
    state, lines = _bid(_auction_with_money(3), 0, 3)
    assert lines == ["orange bids $3 (paid to the bank)."]
    assert view(state, None)["players"][0]["money"] == 0
