"""Building on a parcel (actions.build), word for word: which parcels the refusal offers, a move dict
that lacks its parcel or type, the building tiles left, and the Building card (reference: "on one of
your parcels, pay $2 and choose R, C, I or L (while building tiles of that type remain); it becomes
your building with 1 passenger, and you take a Building card of that type if any remain")."""

from __future__ import annotations

from typing import Any

import pytest

from games.tramways.content import CARDS, Card
from tests.tramways.conftest import crafted, do, hand, new_game, refused

# t-crowded's parcels in reading order: P1 at A1, P2 at A2, P3 at C2, P4 at A3, P5 at C3, P6 at E3, ...
CROWDED = ["t-crowded", "t-plain", "t-plain", "t-plain"]
PARK = ["t-park", "t-plain", "t-plain", "t-plain"]  # Residence R1 at E3 (1 cell), parcel P1 at C5


def parcels() -> dict[str, Any]:
    """Orange owns P1, P4 and P3 (built on: a Residence); green owns P2; P5 belongs to nobody."""
    state = crafted(CROWDED, [], parcels={"P1": 0, "P2": 1, "P3": 0, "P4": 0}, built={"P3": "R"})
    hand(state, 0, "contractor")
    return state


def test_the_refusal_offers_only_your_unbuilt_parcels() -> None:
    state = parcels()
    offer = "Yours to build on: P1, P4."
    assert (
        refused(state, 0, "/tram build P2 R with contractor:build", parse=True)
        == f"P2 is not a parcel of yours. {offer}"
    )
    assert (
        refused(state, 0, "/tram build P5 R with contractor:build", parse=True)
        == f"P5 is not a parcel of yours. {offer}"
    )
    assert refused(state, 0, "/tram build P3 R with contractor:build", parse=True) == "P3 is already built on."
    # Green's only parcel is unbuilt; orange's unbuilt parcels are not green's to build on.
    green = parcels()
    green["current"] = 1
    hand(green, 1, "contractor")
    assert refused(green, 1, "/tram build P1 R with contractor:build", parse=True) == (
        "P1 is not a parcel of yours. Yours to build on: P2."
    )


def test_the_refusal_offers_parcels_in_number_order() -> None:
    """P2 before P10, as on the board; not the text order that puts P10 first."""
    state = crafted(CROWDED, [], parcels={"P10": 0, "P2": 0, "P11": 0, "P1": 1})
    hand(state, 0, "contractor")
    assert refused(state, 0, "/tram build P1 R with contractor:build", parse=True) == (
        "P1 is not a parcel of yours. Yours to build on: P2, P10, P11."
    )


def test_with_every_parcel_built_on_the_refusal_offers_none() -> None:
    state = parcels()
    state["built"]["P1"] = state["built"]["P4"] = {"type": "C", "owner": 0, "upgraded": False}
    assert refused(state, 0, "/tram build P2 R with contractor:build", parse=True) == (
        "P2 is not a parcel of yours. Yours to build on: none."
    )


def test_a_move_without_parcel_or_type_reads_them_as_empty() -> None:
    # apply takes move dicts as they come (the bot's buttons send legal-move dicts; anything may): a
    # missing key is refused like an empty one, naming no parcel or type.
    state = parcels()
    no_parcel = {"verb": "build", "type": "R", "cards": ["contractor:build"]}
    assert refused(state, 0, no_parcel) == " is not a parcel of yours. Yours to build on: P1, P4."
    assert refused(state, 0, {**no_parcel, "parcel": ""}) == refused(state, 0, no_parcel)
    no_type = {"verb": "build", "parcel": "P1", "cards": ["contractor:build"]}
    assert refused(state, 0, no_type) == "Build one of R, C, I, L, not ."
    assert refused(state, 0, {**no_type, "type": ""}) == refused(state, 0, no_type)


def test_the_tiles_left_include_a_type_with_its_last_tile() -> None:
    state = parcels()
    state["building_tiles"].update({"R": 0, "C": 1, "I": 2, "L": 1})
    assert refused(state, 0, "/tram build P1 R with contractor:build", parse=True) == (
        "No R building tiles are left; left: C, I, L."
    )


def test_building_takes_a_tile_and_a_building_card() -> None:
    # Four players: 3 tiles of each type (settings building_tiles) and a Building card per player.
    four = new_game(4)
    assert four["building_tiles"] == {"R": 3, "C": 3, "I": 3, "L": 3}
    assert four["building_cards"] == {"R": 4, "C": 4, "I": 4, "L": 4}
    state = parcels()
    state["building_tiles"]["C"], state["building_cards"]["C"] = 3, 4
    state, events = do(state, 0, "/tram build P1 C with contractor:build")
    assert [e["text"] for e in events] == [
        "orange builds a Commercial (C) building on P1 for $2 and takes a Commercial card (playing Contractor)."
    ]
    assert (state["building_tiles"]["C"], state["building_cards"]["C"]) == (2, 3)
    assert state["players"][0]["hand"] == ["commercial-card"]
    assert state["built"]["P1"] == {"type": "C", "owner": 0, "upgraded": False}
    assert state["passengers"]["P1"] == 1
    assert state["players"][0]["money"] == 1


@pytest.mark.parametrize(("cards_left", "takes"), [(1, True), (0, False)])
def test_the_last_building_card_and_none_left(cards_left: int, takes: bool) -> None:
    state = parcels()
    state["building_cards"]["I"] = cards_left
    state, events = do(state, 0, "/tram build P4 I with contractor:build")
    took = " and takes an Industry card" if takes else ""
    assert [e["text"] for e in events] == [
        f"orange builds an Industry (I) building on P4 for $2{took} (playing Contractor)."
    ]
    assert state["building_cards"]["I"] == 0
    assert state["players"][0]["hand"] == (["industry-card"] if takes else [])
    assert state["building_tiles"]["I"] == 1


def test_a_card_with_build_and_new_passenger_icons_places_its_passenger() -> None:
    # No card of today's data shows both icons; the data may gain one (content.py loads any icon list),
    # and the build action then places the new passenger like every other action.
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(
            CARDS, "test-town-planner", Card("test-town-planner", "Town Planner", "auction", ("build", "pax"))
        )
        state = crafted(PARK, [], parcels={"P1": 0})
        state["passengers"]["R1"] = 0
        hand(state, 0, "test-town-planner")
        assert refused(state, 0, "/tram build P1 L with test-town-planner:build+pax", parse=True) == (
            "Say where the new passenger goes: at <building> (one with room)."
        )
        state, events = do(state, 0, "/tram build P1 L with test-town-planner:build+pax at R1")
    assert [e["text"] for e in events] == [
        "orange builds a Leisure (L) building on P1 for $2 and takes a Leisure card "
        "(playing Town Planner; +1 stress for extra icons; 1 new passenger at R1)."
    ]
    assert (state["passengers"]["R1"], state["passengers"]["P1"]) == (1, 1)
    assert (state["players"][0]["stress"], state["players"][0]["money"]) == (1, 1)
