"""What a played card's money, worker, new-passenger and calm icons and its $1 consequence do (settings
simple_icons_in_actions: played as /tram use or as further icons within an action; +1 stress per
further icon of a card): amounts and the public line word for word, singular and plural, a new
passenger at a building that already has one, and moves that name no cards."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tramways.conftest import add_link, crafted, do, hand, refused

PARK = ["t-park", "t-plain", "t-plain", "t-plain"]  # Residence R1 at E3, parcel P1 at C5


def upgraded(kind: str, waiting: int) -> dict[str, Any]:
    """Orange's upgraded building of ``kind`` on P1 (room for 2) with ``waiting`` passengers."""
    state = crafted(PARK, [], parcels={"P1": 0}, built={"P1": kind})
    state["built"]["P1"]["upgraded"] = True
    state["passengers"]["P1"] = waiting
    hand(state, 0, "new-arrivals", "foreman", "union-hall")
    return state


@pytest.mark.parametrize(
    ("text", "line", "p1", "money_workers_stress"),
    [
        (
            "/tram use new-arrivals:pax at P1",
            "orange uses icons (playing New Arrivals; 1 new passenger at P1).",
            2,
            (3, 2, 0),
        ),
        (
            "/tram use new-arrivals:pax+$1 at P1",
            "orange uses icons (playing New Arrivals; +1 stress for extra icons; +$1; 1 new passenger at P1).",
            2,
            (4, 2, 1),
        ),
        ("/tram use foreman:worker", "orange uses icons (playing Foreman; +1 rail worker).", 1, (3, 3, 0)),
        (
            "/tram use union-hall:worker+worker",
            "orange uses icons (playing Union Hall; +1 stress for extra icons; +2 rail workers; "
            "Union Hall: +1 stress).",
            1,
            (3, 4, 2),
        ),
    ],
)
def test_use_one_card(text: str, line: str, p1: int, money_workers_stress: tuple[int, int, int]) -> None:
    state, events = do(upgraded("R", 1), 0, text)
    assert events == [{"text": line}]
    assert state["passengers"]["P1"] == p1
    me = state["players"][0]
    assert (me["money"], me["workers"], me["stress"]) == money_workers_stress


def test_two_new_passengers_within_a_trip() -> None:
    # Green's 3-cell link R1 - P1 (orange's upgraded Leisure, empty): two Tourists pay the ticket and
    # the l icon, each bringing a passenger (+2 stress); the Leisure bonus draws a card.
    state = upgraded("L", 0)
    add_link(state, 1, ["D3", "C3", "C4"], ["R1", "P1"])
    hand(state, 0, "tourist", "tourist")
    state["players"][0]["deck"] = ["foreman"]
    state, events = do(state, 0, "/tram move R1 P1 via 1 with tourist:ticket+pax tourist:l+pax at P1")
    assert events == [
        {
            "text": "orange moves a passenger R1 → P1 (playing Tourist, Tourist; +2 stress for extra icons; "
            "2 new passengers at P1): green +1 HP (link 1); L: draws 1; orange +1 HP (upgraded P1); "
            "pays green $3 (link 1)."
        },
        {"text": "orange draws 1 card.", "irreversible": True},
        {"private": {"seat": 0, "text": "You drew: Foreman."}, "irreversible": True},
    ]
    assert state["passengers"] == {"R1": 0, "P1": 2}
    assert [(p["money"], p["hp"], p["stress"]) for p in state["players"]] == [(0, 1, 2), (6, 1, 0)]


def test_the_last_dollar_pays_a_cards_consequence() -> None:
    state = crafted(["t-res", "t-plain", "t-plain", "t-plain"], [])
    add_link(state, 0, ["A2", "A3", "A4"], ["R1", "C1"])
    hand(state, 0, "city-hall")
    state["players"][0]["money"] = 1
    state, events = do(state, 0, "/tram upgrade-link 1 with city-hall:up+c")
    assert events == [
        {"text": "orange upgrades link 1 (R1-C1) (playing City Hall; +1 stress for extra icons; City Hall: pays $1)."}
    ]
    assert (state["players"][0]["money"], state["players"][0]["stress"]) == (0, 1)


def test_an_action_naming_no_cards_says_what_pays_for_it() -> None:
    state = crafted(PARK, [], parcels={"P1": 0}, built={"P1": "R"})
    hand(state, 0, "builder")
    assert refused(state, 0, {"verb": "upgrade-building", "building": "P1"}) == (
        "Name the cards that pay for this: build."
    )
