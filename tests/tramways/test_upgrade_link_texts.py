"""Upgrading a link (project rule: the up icon and a destination icon matching one end, settings
upgrade_link_cost): a card paying the destination icon may bring a new passenger within the action
(simple_icons_in_actions: Tourist's l pays the Leisure end, its pax goes where "at" says), a move
naming no link, and the cost refusal when the settings put a price on it."""

from __future__ import annotations

from typing import Any

import pytest

from games.tramways.content import SETTINGS
from tests.tramways.conftest import add_link, crafted, do, hand, refused

PARK = ["t-park", "t-plain", "t-plain", "t-plain"]  # Residence R1 at E3, parcel P1 at C5


def leisure_link() -> dict[str, Any]:
    """Orange's Leisure on P1, linked to R1 (link 1); R1's passenger has left."""
    state = crafted(PARK, [], parcels={"P1": 0}, built={"P1": "L"})
    add_link(state, 0, ["D3", "C3", "C4"], ["R1", "P1"])
    state["passengers"]["R1"] = 0
    hand(state, 0, "double-track", "tourist")
    return state


def test_a_new_passenger_within_an_upgrade_goes_where_at_says() -> None:
    state, events = do(leisure_link(), 0, "/tram upgrade-link 1 with double-track:up tourist:l+pax at R1")
    assert events == [
        {
            "text": "orange upgrades link 1 (R1-P1) (playing Double Track, Tourist; +1 stress for extra icons; "
            "1 new passenger at R1)."
        }
    ]
    assert state["passengers"] == {"R1": 1, "P1": 1}
    assert state["links"][0]["upgraded"] is True
    assert (state["players"][0]["stress"], state["players"][0]["hand"]) == (1, [])


def test_an_upgrade_naming_no_link_is_refused() -> None:
    state = leisure_link()
    assert refused(state, 0, {"verb": "upgrade-link", "cards": ["double-track:up", "tourist:l"]}) == (
        "There is no link 0."
    )


@pytest.mark.parametrize(("money", "message"), [(1, "Upgrading a link costs $2; you have $1."), (2, None)])
def test_the_upgrade_cost_when_the_settings_set_one(money: int, message: str | None) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(SETTINGS, "upgrade_link_cost", 2)
        state = leisure_link()
        state["players"][0]["money"] = money
        text = "/tram upgrade-link 1 with double-track:up tourist:l"
        if message is not None:
            assert refused(state, 0, text, parse=True) == message
        else:
            state, _ = do(state, 0, text)
            assert (state["players"][0]["money"], state["links"][0]["upgraded"]) == (0, True)
