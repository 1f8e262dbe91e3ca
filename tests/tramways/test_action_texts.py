"""What each action says, word for word, with the amounts worked by hand from the reference
(tramways.reference.md): $1 per hill rail; a completed link spends a rail worker; building costs $2
and gives a building card; upgrading a building $3; the extra icon of one card +1 stress; a trip pays
HP to the link owner (2 on an upgraded link), then the destination bonus (Commercial: HP at $3,
Residence: -1 stress), then $1 per rail tile ($2 upgraded) to the owner."""

from __future__ import annotations

from typing import Any

from tests.tramways.conftest import add_link, crafted, do, hand

CITY = ["t-res", "t-plain", "t-plain", "t-plain"]  # Residence R1 at A1, Commercial C1 at A5


def said(state: dict[str, Any], text: str) -> tuple[dict[str, Any], list[str]]:
    new, events = do(state, 0, text)
    return new, [e["text"] for e in events]


def test_rails_on_a_hill_then_extended_and_completed() -> None:
    hill = crafted(["t-hill", "t-plain", "t-plain", "t-plain"], [])  # R1 at A1, a hill at B1
    hand(hill, 0, "foreman")
    hill, lines = said(hill, "/tram rails A1 B1 with foreman:rail")
    assert lines == ["orange lays rails on B1 (link 1 from R1), paying $1 for hills (playing Foreman)."]
    assert hill["players"][0]["money"] == 2
    state = crafted(CITY, [])
    hand(state, 0, "track-crew", "foreman", "commuter")
    state, lines = said(state, "/tram rails A1 A2 A3 with track-crew:rail+rail")
    assert lines == ["orange lays rails on A2 A3 (link 1 from R1) (playing Track Crew; +1 stress for extra icons)."]
    state, lines = said(state, "/tram rails A3 A4 A5 dest C with foreman:rail commuter:c")
    assert lines == [
        "orange lays rails on A4 (link 1 from R1) and completes it to C1 with a Commercial icon, spending a rail "
        "worker (playing Foreman, Commuter).",
        "orange ends their turn. green to act.",
    ]
    me = state["players"][0]
    assert (me["workers"], me["rails_left"], me["stress"]) == (1, 21, 1)


def test_build_then_upgrade_a_building() -> None:
    state = crafted(["t-park", "t-plain", "t-plain", "t-plain"], [], parcels={"P1": 0})
    hand(state, 0, "contractor", "builder")
    state["players"][0]["money"] = 10
    state, lines = said(state, "/tram build P1 I with contractor:build")
    assert lines == [
        "orange builds an Industry (I) building on P1 for $2 and takes an Industry card (playing Contractor)."
    ]
    assert state["building_tiles"]["I"] == 1 and state["building_cards"]["I"] == 1
    state, lines = said(state, "/tram upgrade-building P1 with builder:build")
    assert lines == ["orange upgrades P1 for $3 (playing Builder).", "orange ends their turn. green to act."]
    assert state["players"][0]["money"] == 5


def test_use_money_calm_and_a_new_passenger() -> None:
    state = crafted(["t-park", "t-plain", "t-plain", "t-plain"], [])
    hand(state, 0, "petty-cash", "new-arrivals")
    state["passengers"]["R1"] = 0
    state, lines = said(state, "/tram use petty-cash:$1+calm")
    assert lines == ["orange uses icons (playing Petty Cash; +1 stress for extra icons; +$1; -1 stress)."]
    state, lines = said(state, "/tram use new-arrivals:pax+$1 at R1")
    assert lines == [
        "orange uses icons (playing New Arrivals; +1 stress for extra icons; +$1; 1 new passenger at R1).",
        "orange ends their turn. green to act.",
    ]
    assert state["passengers"]["R1"] == 1 and state["players"][0]["money"] == 5


def test_a_trip_on_another_player_s_upgraded_link_to_a_commercial() -> None:
    state = crafted(CITY, [])
    add_link(state, 1, ["A2", "A3", "A4"], ["R1", "C1"], upgraded=True)
    hand(state, 0, "commuter")
    state["players"][0]["money"] = 10
    state, lines = said(state, "/tram move R1 C1 via 1 hp 1 with commuter:ticket+c")
    assert lines == [
        "orange moves a passenger R1 → C1 (playing Commuter; +1 stress for extra icons): green +2 HP (link 1); "
        "C: buys 1 HP for $3; pays green $6 (link 1)."
    ]
    orange, green = state["players"]
    assert (orange["money"], orange["hp"], green["money"], green["hp"]) == (10 - 3 - 6, 1, 3 + 6, 2)


def test_a_trip_on_your_own_link_to_a_residence() -> None:
    state = crafted(CITY, [])
    add_link(state, 0, ["A2", "A3", "A4"], ["R1", "C1"])
    hand(state, 0, "commuter")
    state, lines = said(state, "/tram move C1 R1 via 1 with commuter:ticket+r")
    assert lines == [
        "orange moves a passenger C1 → R1 (playing Commuter; +1 stress for extra icons): orange +1 HP (link 1); "
        "R: -1 stress; +$3 own rails (link 1)."
    ]
    me = state["players"][0]
    assert (me["money"], me["hp"], me["stress"]) == (6, 1, 0)
