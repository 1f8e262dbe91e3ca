"""When the last player's turn waits for a Station Master move (rules.master_available): only while a
complete link leads from him to a destination (Grand Station rulebook via the reference: "along
exactly one link, stopping at the first building or parcel (a parcel only while it is still a
destination)"; the Park is never one). Otherwise the turn ends after the last action, with the +2
stress for the unmoved Station Master."""

from __future__ import annotations

from typing import Any

from tests.tramways.conftest import add_link, crafted, do, hand

PARK = ["t-park", "t-plain", "t-plain", "t-plain"]  # Residence R1 at E3, parcel P1 at C5
TILES = [("station", ["A1", "B1"]), ("park", ["H3"])]


def green_last_with(ends: list[str]) -> dict[str, Any]:
    """The Station Master at the Station, orange's one link STATION-``ends``; green (seat 1), last in
    turn order, has one action left in the double-action step and holds a Petty Cash."""
    state = crafted(PARK, TILES, modules={"station": True, "park": True, "master": True}, parcels={"P1": 0})
    add_link(state, 0, ["A2", "A3"], ["STATION", *ends])
    state["current"], state["turn"] = 1, {"step": 2, "index": 1, "actions_left": 1}
    hand(state, 1, "petty-cash")
    return state


def test_only_the_park_is_reachable_so_the_turn_ends_with_the_stress() -> None:
    state, events = do(green_last_with(["PARK"]), 1, "/tram use petty-cash:$1")
    assert [e["text"] for e in events] == [
        "green uses icons (playing Petty Cash; +$1).",
        "green did not move the Station Master: +2 stress.",
        "Administration: discard, buy a development card, draw up to your hand limit.",
    ]
    assert (state["phase"], state["current"], state["players"][1]["stress"]) == ("admin", 0, 2)


def test_an_owned_parcel_is_reachable_so_the_turn_waits_for_him() -> None:
    state, events = do(green_last_with(["P1"]), 1, "/tram use petty-cash:$1")
    assert [e["text"] for e in events] == ["green uses icons (playing Petty Cash; +$1)."]
    assert (state["phase"], state["current"], state["turn"]["actions_left"]) == ("actions", 1, 0)
    assert state["players"][1]["stress"] == 0
