"""The actions' refusals word for word (rails, links, buildings, icons, trips, the Station Master),
each on a crafted city, and that a refused action changes nothing; plus a card's $1 consequence
that cannot be paid."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.base import IllegalMove
from games.tramways import GAME
from tests.tramways.conftest import add_link, crafted, do, hand
from tests.tramways.conftest import refused as refused_by

CITY = ["t-res", "t-plain", "t-plain", "t-plain"]  # Residence R1 at A1, Commercial C1 at A5
PARK = ["t-park", "t-plain", "t-plain", "t-plain"]  # Residence R1 at E3, parcel P1 at C5


def city() -> dict[str, Any]:
    state = crafted(CITY, [])
    hand(state, 0, "track-crew", "foreman", "commuter", "builder", "petty-cash", "new-arrivals", "city-hall")
    return state


def linked() -> dict[str, Any]:
    """The city with orange's complete link 1, R1 - C1."""
    state = city()
    add_link(state, 0, ["A2", "A3", "A4"], ["R1", "C1"])
    return state


def parcel(**built: str) -> dict[str, Any]:
    state = crafted(PARK, [], parcels={"P1": 0}, built=built)
    hand(state, 0, "contractor", "builder", "commuter")
    return state


def refused(state: dict[str, Any], text: str) -> str:
    """Seat 0's refusal of ``text`` (these states all have seat 0 to act)."""
    return refused_by(state, 0, text, parse=True)


CITY_REFUSALS = [
    (
        "/tram rails A1 A2 dest C with foreman:rail",
        "Only a rails action that completes a link names a destination (dest ...).",
    ),
    ("/tram upgrade-link 1 with builder:build", "There is no link 1."),
    ("/tram upgrade-link 0 with builder:build", "There is no link 0."),
    (
        "/tram upgrade-building R1 with builder:build",
        "R1 is not a building of yours that can be upgraded (pre-printed buildings, the Station, "
        "the Stock Exchange and the Park belong to nobody).",
    ),
    (
        "/tram use foreman:rail",
        "/tram use plays only $1, $2, worker, pax, calm icons; the others belong to their actions.",
    ),
    ("/tram use new-arrivals:pax", "Say where the new passenger goes: at <building> (one with room)."),
    ("/tram use new-arrivals:pax at Z9", "Say where the new passenger goes: at <building> (one with room)."),
    ("/tram use new-arrivals:pax at C1", "C1 has room for 0 more passenger(s)."),
    ("/tram use petty-cash:$1 at R1", "Only a new passenger icon (pax) takes a building: at <building>."),
    ("/tram master C1 via 1", "The Station Master is not in this game."),
]


@pytest.mark.parametrize(("text", "message"), CITY_REFUSALS)
def test_refusals_in_the_city(text: str, message: str) -> None:
    assert refused(city(), text) == message


def test_rail_tiles_run_out() -> None:
    state = city()
    state["players"][0]["rails_left"] = 1
    assert refused(state, "/tram rails A1 A2 A3 with track-crew:rail+rail") == "You have 1 rail tiles left."


LINK_REFUSALS = [
    ("/tram move R1 C1 via 1 1 1 1 1 with commuter:ticket+c", "A trip uses at most 4 links."),
    ("/tram move R1 R1 via 1 with commuter:ticket+c", "Those links lead from R1 to C1, not R1."),
    (
        "/tram move R1 C1 via 1 with commuter:ticket+c",
        "A trip to a Commercial building says how many HP you buy there: hp 0, 1 or 2.",
    ),
    ("/tram move R1 C1 via 1 hp 3 with commuter:ticket+c", "Buy 0 to 2 HP at a Commercial building."),
    ("/tram move C1 R1 via 1 hp 1 with commuter:ticket+r", "Only a trip to a Commercial building buys HP (hp N)."),
    ("/tram move R1 C1 via 1 hp 2 with commuter:ticket+c", "Buying 2 HP costs $6; you will have $3."),
]


@pytest.mark.parametrize(("text", "message"), LINK_REFUSALS)
def test_trip_refusals(text: str, message: str) -> None:
    assert refused(linked(), text) == message


def test_a_negative_hp_purchase_is_refused() -> None:
    state = linked()
    move = {**GAME.parse("/tram move R1 C1 via 1 hp 0 with commuter:ticket+c"), "hp": -1}
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalMove) as info:
        GAME.apply(state, 0, move)
    assert info.value.message == "Buy 0 to 2 HP at a Commercial building."
    assert json.dumps(state, sort_keys=True) == before


def test_a_trip_needs_links_and_a_waiting_passenger() -> None:
    state = linked()
    assert refused(state, "/tram move R1 C1 hp 0 with commuter:ticket+c").startswith("Say which links: via <link> ...")
    state["passengers"]["R1"] = state["passengers"]["C1"] = 0
    assert refused(state, "/tram move R1 C1 via 1 hp 0 with commuter:ticket+c") == (
        "No passenger waits at R1. Passengers wait at: nowhere."
    )
    state["passengers"]["C1"] = 1
    assert refused(state, "/tram move R1 C1 via 1 hp 0 with commuter:ticket+c") == (
        "No passenger waits at R1. Passengers wait at: C1."
    )


def test_only_your_complete_link_is_upgraded_once() -> None:
    state = linked()
    state["links"][0]["owner"] = 1
    assert refused(state, "/tram upgrade-link 1 with city-hall:up+c") == (
        "Link 1 is not a complete, not yet upgraded link of yours."
    )
    mine = linked()
    mine["links"][0]["upgraded"] = True
    assert refused(mine, "/tram upgrade-link 1 with city-hall:up+c") == (
        "Link 1 is not a complete, not yet upgraded link of yours."
    )


def test_a_dollar_consequence_that_cannot_be_paid_is_a_stress() -> None:
    state = linked()
    state["players"][0]["money"] = 0
    state, events = do(state, 0, "/tram upgrade-link 1 with city-hall:up+c")
    assert [e["text"] for e in events] == [
        "orange upgrades link 1 (R1-C1) (playing City Hall; +1 stress for extra icons; "
        "City Hall: cannot pay $1, +1 stress)."
    ]
    me = state["players"][0]
    assert (me["money"], me["stress"], state["links"][0]["upgraded"]) == (0, 2, True)
    paid = linked()
    paid, events = do(paid, 0, "/tram upgrade-link 1 with city-hall:up+c")
    assert [e["text"] for e in events] == [
        "orange upgrades link 1 (R1-C1) (playing City Hall; +1 stress for extra icons; City Hall: pays $1)."
    ]
    assert (paid["players"][0]["money"], paid["players"][0]["stress"]) == (2, 1)


def test_the_unpaid_dollar_note_says_the_stress_the_settings_ask() -> None:
    """settings unpaid_stress_per_dollar is data a group may correct: the note follows it."""
    from games.tramways.content import SETTINGS

    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(SETTINGS, "unpaid_stress_per_dollar", 2)
        state = linked()
        state["players"][0]["money"] = 0
        state, events = do(state, 0, "/tram upgrade-link 1 with city-hall:up+c")
    assert events[0]["text"].endswith("City Hall: cannot pay $1, +2 stress).")
    assert state["players"][0]["stress"] == 3  # 0, +1 for the extra icon, +2 unpaid


def test_building_refusals() -> None:
    state = parcel()
    assert refused(state, "/tram build P1 X with contractor:build") == "Build one of R, C, I, L, not X."
    state["players"][0]["money"] = 1
    assert refused(state, "/tram build P1 R with contractor:build") == "Building costs $2; you have $1."
    state["building_tiles"]["R"] = 0
    assert refused(state, "/tram build P1 R with contractor:build") == "No R building tiles are left; left: C, I, L."
    for kind in "CIL":
        state["building_tiles"][kind] = 0
    assert refused(state, "/tram build P1 R with contractor:build") == "No R building tiles are left; left: none."
    built = parcel(P1="R")
    assert refused(built, "/tram build P1 R with contractor:build") == "P1 is already built on."
    built["players"][0]["money"] = 2
    assert refused(built, "/tram upgrade-building P1 with builder:build") == (
        "Upgrading a building costs $3; you have $2."
    )
    built["built"]["P1"]["upgraded"] = True
    assert refused(built, "/tram upgrade-building P1 with builder:build").startswith(
        "P1 is not a building of yours that can be upgraded"
    )


def test_no_actions_left() -> None:
    state = city()
    state["turn"]["actions_left"] = 0
    assert refused(state, "/tram use petty-cash:$1") == (
        "You have no actions left this turn; move the Station Master or /tram done."
    )
    assert GAME.status(state).to_act == (0,)


def test_upgrading_needs_your_own_building_and_takes_no_passenger() -> None:
    built = parcel(P1="R")
    built["players"][0]["money"] = 10
    assert refused(built, "/tram upgrade-building P1 with builder:build at R1") == (
        "Only a new passenger icon (pax) takes a building: at <building>."
    )
    built["built"]["P1"]["owner"] = 1
    assert refused(built, "/tram upgrade-building P1 with builder:build").startswith(
        "P1 is not a building of yours that can be upgraded"
    )
    before = json.dumps(built, sort_keys=True)
    with pytest.raises(IllegalMove) as info:
        GAME.apply(built, 0, {"verb": "upgrade-building"})
    assert info.value.message.startswith(" is not a building of yours that can be upgraded")
    assert json.dumps(built, sort_keys=True) == before
