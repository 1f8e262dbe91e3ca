"""How many passengers a place holds when full (links.capacity: refilled to this each round, and the
room a new passenger needs), worked from the reference: a building holds one per cell, the Station 2,
a parcel once built 1, +1 when upgraded, and an unbuilt parcel, the Park and the Stock Exchange none."""

from __future__ import annotations

import pytest

from games.tramways import links
from games.tramways.board import EXTRA_BOARDS
from tests.tramways.conftest import crafted, do, hand, refused

TILES = [("station", ["A1", "B1"]), ("exchange", ["G1", "H1"]), ("park", ["H3"])]
ALL = {"station": True, "exchange": True, "park": True}


def city(upgraded: bool = False) -> dict:
    """A two-cell Residence R1 (A3-B3), parcels P1 (built on by orange: a Commercial) and P2 (green's,
    unbuilt), and the three expansion tiles."""
    state = crafted(
        ["t-wide", "t-plain", "t-plain", "t-plain"], TILES, modules=ALL, parcels={"P1": 0, "P2": 1}, built={"P1": "C"}
    )
    state["built"]["P1"]["upgraded"] = upgraded
    return state


@pytest.fixture(autouse=True)
def wide_board():
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(EXTRA_BOARDS, "t-wide", (".....", ".....", "R=...", ".....", "P...P"))
        yield


@pytest.mark.parametrize("upgraded", [False, True])
def test_capacity_of_every_kind_of_place(upgraded: bool) -> None:
    state = city(upgraded)
    gmap = links.game_map(state)
    held = {e.label: links.capacity(state, e) for e in gmap.endpoints}
    assert held == {"R1": 2, "P1": 2 if upgraded else 1, "P2": 0, "STATION": 2, "EXCHANGE": 0, "PARK": 0}


def test_a_new_passenger_needs_room_at_a_built_parcel() -> None:
    state = city()
    hand(state, 0, "new-arrivals")
    assert state["passengers"]["P1"] == 1
    assert refused(state, 0, "/tram use new-arrivals:pax at P1", parse=True) == "P1 has room for 0 more passenger(s)."
    assert refused(state, 0, "/tram use new-arrivals:pax at P2", parse=True) == (
        "Say where the new passenger goes: at <building> (one with room)."
    )
    assert refused(state, 0, "/tram use new-arrivals:pax at PARK", parse=True) == (
        "Say where the new passenger goes: at <building> (one with room)."
    )
    upgraded = city(upgraded=True)
    hand(upgraded, 0, "new-arrivals")
    upgraded, events = do(upgraded, 0, "/tram use new-arrivals:pax at P1")
    assert [e["text"] for e in events] == ["orange uses icons (playing New Arrivals; 1 new passenger at P1)."]
    assert upgraded["passengers"]["P1"] == 2
