"""Payment refusals (payment.check_pays) word for word: a card paying nothing the action needs names
every icon it was asked for, and the exact-payment refusal mentions the further simple icons only when
the settings allow them within an action (settings simple_icons_in_actions)."""

from __future__ import annotations

import pytest

from games.tramways.content import SETTINGS
from tests.tramways.conftest import crafted, hand, refused

PARK = ["t-park", "t-plain", "t-plain", "t-plain"]  # parcel P1 at C5


def test_a_card_paying_nothing_names_all_its_icons() -> None:
    state = crafted(PARK, [], parcels={"P1": 0})
    hand(state, 0, "contractor", "petty-cash")
    assert refused(state, 0, "/tram build P1 R with contractor:build petty-cash:$1+calm", parse=True) == (
        "Petty Cash pays nothing this action needs (build): play its $1+calm with /tram use, "
        "or as further icons of a card that pays."
    )


@pytest.mark.parametrize(
    ("allowed", "text"),
    [
        (True, "This action is paid with exactly build (and, as further icons of those cards, $1 $2 worker pax calm)."),
        (False, "This action is paid with exactly build."),
    ],
)
def test_the_exact_payment_refusal_follows_the_setting(allowed: bool, text: str) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(SETTINGS, "simple_icons_in_actions", allowed)
        state = crafted(PARK, [], parcels={"P1": 0})
        hand(state, 0, "contractor")
        assert refused(state, 0, "/tram build P1 R with contractor:build+rail", parse=True) == text


def test_cards_not_held() -> None:
    state = crafted(PARK, [], parcels={"P1": 0})
    hand(state, 0, "contractor", "investor")
    assert refused(state, 0, "/tram build P1 R with builder:build", parse=True) == "You do not hold builder."
    # Two tokens of one card need two copies in hand.
    assert refused(state, 0, "/tram build P1 R with contractor:build contractor:rail", parse=True) == (
        "You do not hold that many copies of contractor."
    )
