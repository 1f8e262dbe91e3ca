"""Laying rails and chaining a trip's links: every refusal word for word, on crafted cities (10x10
from four test boards), and a refused move changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tramways.conftest import add_link, crafted, do, hand
from tests.tramways.conftest import refused as refused_by

CARDS = ("track-crew", "foreman", "commuter")


def city(*boards: str) -> dict[str, Any]:
    state = crafted(list(boards), [])
    hand(state, 0, *CARDS)
    return state


def refused(state: dict[str, Any], text: str) -> str:
    """Seat 0's refusal of ``text`` (these states all have seat 0 to act)."""
    return refused_by(state, 0, text, parse=True)


# t-res: Residence R1 at A1, Commercial C1 at A5; t-wet below it (A6 to E10) is all water.
RES_WET = ("t-res", "t-plain", "t-wet", "t-plain")
RAIL_REFUSALS = [
    ("/tram rails Z1 A2 with foreman:rail", '"Z1" is not a cell of this map (A1 to J10).'),
    (
        "/tram rails A1 with foreman:rail",
        "Name where the link starts (a cell of a building or owned parcel, or your unfinished link's last rail) "
        "and then 1 to 3 new rail cells, ending on a building's cell to complete it.",
    ),
    (
        "/tram rails B2 B3 with foreman:rail",
        "A new link starts on a cell of a building, an owned parcel or an expansion tile, not B2.",
    ),
    ("/tram rails A1 B2 with foreman:rail", "B2 is not next to A1: rails run orthogonally, cell by cell."),
    ("/tram rails A1 A3 with foreman:rail", "A3 is not next to A1: rails run orthogonally, cell by cell."),
    ("/tram rails A1 A2 A2 with track-crew:rail+rail", "A2 already has rails; only one player's rails go on a cell."),
    ("/tram rails A1 A2 A1 with track-crew:rail+rail", "A link joins two different places; it starts at R1."),
    ("/tram rails A5 A6 with foreman:rail", "A6 is water: rails go on plain and hill cells."),
    ("/tram rails A1 A2 A3 A5 with track-crew:rail+rail", "C1 is not next to A3."),
    ("/tram rails A1 A2 A3 A4 B4 B5 with track-crew:rail+rail", "Lay 1 to 3 rail tiles in one action."),
]


@pytest.mark.parametrize(("text", "message"), RAIL_REFUSALS)
def test_rail_refusals(text: str, message: str) -> None:
    assert refused(city(*RES_WET), text) == message


def test_unfinished_links_and_other_players_rails() -> None:
    state = city(*RES_WET)
    add_link(state, 1, ["B1", "C1"], ["R1", None])
    assert refused(state, "/tram rails C1 D1 with foreman:rail") == (
        "C1 is not the last rail of an unfinished link of yours."
    )
    assert refused(state, "/tram rails A1 B1 with foreman:rail") == (
        "B1 already has rails; only one player's rails go on a cell."
    )
    add_link(state, 0, ["A2", "A3"], ["R1", None])
    assert refused(state, "/tram rails A2 B2 with foreman:rail") == (
        "A2 is not the last rail of an unfinished link of yours."
    )
    assert refused(state, "/tram rails A1 B2 with foreman:rail") == (
        "You already have 1 unfinished link(s): extend one first."
    )


def test_a_link_cannot_end_on_an_unowned_parcel() -> None:
    # t-park: Residence R1 at E3, parcel P1 at C5, owned by nobody.
    state = city("t-park", "t-plain", "t-plain", "t-plain")
    assert refused(state, "/tram rails E3 E4 E5 D5 C5 with track-crew:rail+rail") == (
        "P1 is an unowned parcel: links cannot end there."
    )


def paired() -> dict[str, Any]:
    """t-pair: R1 at A1, R2 at C3, C1 at A5; links 1 (R1, unfinished), 2 (R1-R2), 3 (R2-C1)."""
    state = city("t-pair", "t-plain", "t-plain", "t-plain")
    add_link(state, 0, ["A2"], ["R1", None])
    add_link(state, 0, ["B1", "C1", "C2"], ["R1", "R2"])
    add_link(state, 0, ["C4"], ["R2", "C1"])
    return state


TRIP_REFUSALS = [
    ("/tram move R1 C1 via 3 hp 0 with commuter:ticket+c", "Link 3 (R2-C1) does not leave R1."),
    ("/tram move R1 C1 via 1 hp 0 with commuter:ticket+c", "Link 1 is not complete yet."),
    ("/tram move R1 C1 via 2 2 hp 0 with commuter:ticket+c", "A trip visits each place at most once."),
    ("/tram move R1 C1 via 9 hp 0 with commuter:ticket+c", "There is no link 9."),
    ("/tram move R1 C1 via 0 hp 0 with commuter:ticket+c", "There is no link 0."),
    ("/tram move R1 R2 via 2 3 hp 0 with commuter:ticket+r", "Those links lead from R1 to C1, not R2."),
]


@pytest.mark.parametrize(("text", "message"), TRIP_REFUSALS)
def test_trip_refusals(text: str, message: str) -> None:
    assert refused(paired(), text) == message


def test_a_two_link_trip_goes_through() -> None:
    state, events = do(paired(), 0, "/tram move R1 C1 via 2 3 hp 0 with commuter:ticket+c")
    assert events[0]["text"].startswith("orange moves a passenger R1 → R2 → C1 (playing Commuter")


FURTHER = " (and, as further icons of those cards, $1 $2 worker pax calm)."
PAYMENT_REFUSALS = [
    ("/tram rails A1 A2 with track-crew:rail+rail", "This action is paid with exactly rail" + FURTHER),
    ("/tram rails A1 A2 A3 with foreman:rail", "This action is paid with exactly 2x rail" + FURTHER),
    ("/tram rails A1 A2 A3 A4 with track-crew:rail+rail", "This action is paid with exactly 3x rail" + FURTHER),
    (
        "/tram rails A1 A2 A3 A4 A5 with track-crew:rail+rail",
        "This action is paid with exactly 3x rail + a destination icon: c/r" + FURTHER,
    ),
]


@pytest.mark.parametrize(("text", "message"), PAYMENT_REFUSALS)
def test_what_an_action_is_paid_with(text: str, message: str) -> None:
    assert refused(city(*RES_WET), text) == message


def test_a_need_no_destination_icon_fits() -> None:
    from games.tramways.payment import Need

    assert Need((("rail", 2),), True, frozenset()).describe() == "2x rail + a destination icon: none fits"
