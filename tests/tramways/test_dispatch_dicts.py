"""Move dicts without their argument (rules._dispatch): apply takes move dicts as they come (the
parser always fills these keys, any other caller may not), and a missing argument is refused like an
empty one, word for word, leaving the state as it was."""

from __future__ import annotations

from typing import Any

from tests.tramways.conftest import crafted, do, hand, new_game, refused
from tests.tramways.test_draft import drafting


def admin() -> dict[str, Any]:
    state = crafted(["t-plain"] * 4, [])
    state["phase"], state["turn"] = "admin", {"index": 0, "discarded": False, "bought": False}
    state["dev_display"] = ["spa", "builder", "spa"]
    hand(state, 0, "petty-cash")
    return state


def test_draft_without_a_parcel() -> None:
    state = drafting(2)
    text = " is not a parcel left in the draft. Left: P1, P2, P3, P4, P5, P6, P7, P8."
    assert refused(state, 0, {"verb": "draft"}) == text
    assert refused(state, 0, {"verb": "draft", "parcel": ""}) == text


def test_bid_without_an_amount_is_a_bid_of_nothing() -> None:
    state = new_game(2)
    assert refused(state, 0, {"verb": "bid"}) == "Bid more than the high bid of $0 (or pass)."
    assert refused(state, 0, {"verb": "bid", "amount": 0}) == "Bid more than the high bid of $0 (or pass)."


def test_take_without_a_card() -> None:
    state, _ = do(new_game(2), 0, "/tram pass")  # bob is the last bidder left: he takes first
    assert state["phase"] == "take" and state["current"] == 1
    text = refused(state, 1, {"verb": "take"})
    assert text.startswith(" is not on display. On display: ")
    assert text == refused(state, 1, {"verb": "take", "card": ""})


def test_discard_and_buy_without_cards() -> None:
    state = admin()
    assert refused(state, 0, {"verb": "discard"}) == "Name the cards to discard."
    assert refused(state, 0, {"verb": "discard", "cards": []}) == "Name the cards to discard."
    text = " is not on display. Development cards: builder, spa."
    assert refused(state, 0, {"verb": "buy"}) == text
    assert refused(state, 0, {"verb": "buy", "card": ""}) == text
