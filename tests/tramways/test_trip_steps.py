"""A passenger's trip (actions._trip, move_passenger): a move dict without its links or destination,
and a passenger delivered to the Station (Grand Station rulebook via the reference: "Passengers
delivered there stay, at most 2; a third is discarded"; the Station gives no destination bonus)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tramways.conftest import add_link, crafted, do, hand, refused

PARK = ["t-park", "t-plain", "t-plain", "t-plain"]  # Residence R1 at E3, parcel P1 at C5
CITY = ["t-res", "t-plain", "t-plain", "t-plain"]  # Residence R1 at A1, Commercial C1 at A5


def linked() -> dict[str, Any]:
    """Orange's complete link 1 R1-C1 (3 cells); orange holds a Commuter."""
    state = crafted(CITY, [])
    add_link(state, 0, ["A2", "A3", "A4"], ["R1", "C1"])
    hand(state, 0, "commuter")
    return state


def test_a_move_without_links_or_destination_reads_them_as_empty() -> None:
    # apply takes move dicts as they come; the parser never sends these (it refuses a trip without
    # via), but a dict may lack the keys or carry empty ones, and both are refused alike.
    state = linked()
    move = {"verb": "move", "from": "R1", "to": "C1", "hp": 0, "cards": ["commuter:ticket+c"]}
    links_first = "Say which links the trip uses: via <link> <link> ... (link numbers on the map)."
    assert refused(state, 0, move) == links_first
    assert refused(state, 0, {**move, "via": []}) == links_first
    no_to = {"verb": "move", "from": "R1", "via": [1], "hp": 0, "cards": ["commuter:ticket+c"]}
    assert refused(state, 0, no_to) == "Those links lead from R1 to C1, not ."
    assert refused(state, 0, {**no_to, "to": ""}) == refused(state, 0, no_to)


def at_the_station(waiting: int) -> dict[str, Any]:
    """Orange's complete link 1 R1-STATION (2 cells), ``waiting`` passengers at the Station; orange
    holds a Station card (its s icon is the Station's destination icon)."""
    state = crafted(PARK, [("station", ["A1", "B1"])], modules={"station": True})
    add_link(state, 0, ["D3", "C3"], ["R1", "STATION"])
    state["passengers"]["STATION"] = waiting
    hand(state, 0, "station-card")
    return state


@pytest.mark.parametrize(("waiting", "after"), [(0, 1), (1, 2), (2, 2)])
def test_a_passenger_delivered_to_the_station_stays_there_up_to_two(waiting: int, after: int) -> None:
    state = at_the_station(waiting)
    state, events = do(state, 0, "/tram move R1 STATION via 1 with station-card:ticket+s")
    # (1) orange's link: +1 HP; (2) the Station: no bonus; (3) 2 own rail tiles: +$2.
    assert [e["text"] for e in events] == [
        "orange moves a passenger R1 → STATION (playing Station; +1 stress for extra icons): "
        "orange +1 HP (link 1); +$2 own rails (link 1); the passenger stays at the Station."
    ]
    assert state["passengers"] == {"R1": 0, "STATION": after}
    me = state["players"][0]
    assert (me["hp"], me["money"], me["stress"]) == (1, 5, 1)
