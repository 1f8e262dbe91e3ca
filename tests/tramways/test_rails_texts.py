"""Laying rails word for word (project rules in data/settings.json: up to 3 rail tiles an action, $1 more
per hill cell, completing a link costs a rail worker and a destination icon matching one end, whose
card may bring a new passenger within the action): the link records it leaves, extending an
unfinished link among others, the last rail tiles, and each refusal."""

from __future__ import annotations

from typing import Any

from tests.tramways.conftest import add_link, crafted, do, hand, refused

PARK = ["t-park", "t-plain", "t-plain", "t-plain"]  # Residence R1 at E3, parcel P1 at C5
COMPLETE = "/tram rails C5 C4 D4 E4 E3 dest L with track-crew:rail+rail foreman:rail tourist:l"


def leisure() -> dict[str, Any]:
    """Orange's upgraded Leisure on P1 (empty, room for 2), three cells from R1 (C4, D4, E4)."""
    state = crafted(PARK, [], parcels={"P1": 0}, built={"P1": "L"})
    state["built"]["P1"]["upgraded"] = True
    state["passengers"]["P1"] = 0
    hand(state, 0, "track-crew", "foreman", "tourist", "commuter")
    return state


def test_completing_a_link_with_a_new_passenger_from_the_destination_card() -> None:
    state, events = do(leisure(), 0, COMPLETE + "+pax at P1")
    assert events == [
        {
            "text": "orange lays rails on C4 D4 E4 (link 1 from P1) and completes it to R1 with a Leisure icon, "
            "spending a rail worker (playing Track Crew, Foreman, Tourist; +2 stress for extra icons; "
            "1 new passenger at P1)."
        }
    ]
    assert state["links"] == [
        {"id": 1, "owner": 0, "cells": ["C4", "D4", "E4"], "ends": ["P1", "R1"], "upgraded": False}
    ]
    assert state["rails"] == {"C4": 1, "D4": 1, "E4": 1}
    assert state["passengers"] == {"R1": 1, "P1": 1}
    me = state["players"][0]
    assert (me["money"], me["workers"], me["stress"], me["rails_left"]) == (3, 1, 2, 21)


def test_the_last_two_rail_tiles_open_a_link() -> None:
    state = leisure()
    state["players"][0]["rails_left"] = 2
    state, events = do(state, 0, "/tram rails C5 C4 D4 with track-crew:rail+rail")
    assert events == [
        {"text": "orange lays rails on C4 D4 (link 1 from P1) (playing Track Crew; +1 stress for extra icons)."}
    ]
    assert state["links"] == [{"id": 1, "owner": 0, "cells": ["C4", "D4"], "ends": ["P1", None], "upgraded": False}]
    assert state["players"][0]["rails_left"] == 0


def test_extending_the_unfinished_link_when_it_is_not_the_last_one() -> None:
    state, _ = do(leisure(), 0, "/tram rails C5 C4 D4 with track-crew:rail+rail")
    add_link(state, 1, ["A1"], ["R1", "P1"])  # green's link 2, laid after orange's link 1
    state, events = do(state, 0, "/tram rails D4 E4 E3 dest L with foreman:rail tourist:l")
    assert events[0]["text"] == (
        "orange lays rails on E4 (link 1 from P1) and completes it to R1 with a Leisure icon, spending a rail worker "
        "(playing Foreman, Tourist)."
    )
    assert state["links"] == [
        {"id": 1, "owner": 0, "cells": ["C4", "D4", "E4"], "ends": ["P1", "R1"], "upgraded": False},
        {"id": 2, "owner": 1, "cells": ["A1"], "ends": ["R1", "P1"], "upgraded": False},
    ]


def test_rails_refusals_word_for_word() -> None:
    state = leisure()
    assert refused(state, 0, COMPLETE.replace("dest L", "dest P1"), parse=True) == (
        "Say the destination icon you play: dest L."
    )
    assert refused(state, 0, {"verb": "rails", "cards": ["foreman:rail"]}) == (
        "Name where the link starts (a cell of a building or owned parcel, or your unfinished link's last rail) "
        "and then 1 to 3 new rail cells, ending on a building's cell to complete it."
    )
    state["players"][0]["workers"] = 0
    assert refused(state, 0, COMPLETE, parse=True) == "Completing a link costs a rail worker and you have none."
    hills = crafted(["t-hill", "t-plain", "t-plain", "t-plain"], [])  # Residence at A1, a hill at B1
    hand(hills, 0, "foreman")
    hills["players"][0]["money"] = 0
    assert refused(hills, 0, "/tram rails A1 B1 with foreman:rail", parse=True) == (
        "Rails on 1 hill cell(s) costs $1; you have $0."
    )


def test_the_first_link_to_the_station_takes_a_station_card_while_any_is_left() -> None:
    from tests.tramways.test_modules import station_city

    said = (
        "orange lays rails on B1 (link 1 from R1) and completes it to STATION with a Residence icon, "
        "spending a rail worker"
    )
    for left, after, extra, got in (
        (1, 0, "; first link to the Station: takes a Station card", ["station-card"]),
        (0, 0, "", []),
    ):
        state = station_city()
        state["station_cards"] = left
        hand(state, 0, "foreman", "suburb")
        state, events = do(state, 0, "/tram rails A1 B1 C1 dest R with foreman:rail suburb:r")
        assert events == [{"text": said + extra + " (playing Foreman, Suburb)."}]
        assert (state["station_cards"], state["players"][0]["hand"], state["players"][0]["station_link"]) == (
            after,
            got,
            True,
        )
