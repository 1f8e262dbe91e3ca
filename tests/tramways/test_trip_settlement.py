"""A passenger's trip settled step by step (Grand Station rulebook's order, actions.settle): HP to each
link's owner (2 for an upgraded link), the destination bonus (none at an unbuilt parcel), +1 HP to the
owner of an upgraded building delivered to, then money per rail tile in trip order with the Stock
Exchange's $5 as the passenger passes through it, and +1 stress per $1 that cannot be paid
(settings unpaid_stress_per_dollar). Amounts worked by hand; every line word for word."""

from __future__ import annotations

from typing import Any

import pytest

from games.tramways.content import SETTINGS
from tests.tramways.conftest import add_link, crafted, do, hand, refused

PARK = ["t-park", "t-plain", "t-plain", "t-plain"]  # Residence R1 at E3, parcel P1 at C5


def via_the_exchange(built: bool = True) -> dict[str, Any]:
    """R1 -(orange's link 1, 2 cells)- EXCHANGE -(green's upgraded link 2, 4 cells)- P1, green's parcel
    (an upgraded Residence when ``built``). Orange (stress 3) holds a Commuter; green has 5 HP."""
    state = crafted(
        PARK,
        [("exchange", ["A1", "B1"])],
        modules={"exchange": True},
        parcels={"P1": 1},
        built={"P1": "R"} if built else {},
    )
    if built:
        state["built"]["P1"]["upgraded"] = True
    add_link(state, 0, ["D3", "C3"], ["R1", "EXCHANGE"])
    add_link(state, 1, ["A2", "A3", "A4", "B5"], ["EXCHANGE", "P1"], upgraded=True)
    state["players"][0]["stress"], state["players"][1]["hp"] = 3, 5
    hand(state, 0, "commuter")
    return state


MOVE = "/tram move R1 P1 via 1 2 with commuter:ticket+r"
PLAYED = "orange moves a passenger R1 → EXCHANGE → P1 (playing Commuter; +1 stress for extra icons): "


@pytest.mark.parametrize(
    ("money", "unpaid_stress", "notes", "after"),
    [
        # $3 + $2 own rails + $5 at the Exchange = $10; green's upgraded 4 cells cost $8.
        (
            3,
            1,
            "orange +1 HP (link 1); green +2 HP (link 2); R: -1 stress; green +1 HP (upgraded P1); "
            "+$2 own rails (link 1); Stock Exchange +$5; pays green $8 (link 2).",
            [(2, 1, 3), (11, 8, 0)],
        ),
        # $0 + $2 + $5 = $7 of the $8: $1 unpaid, +1 stress.
        (
            0,
            1,
            "orange +1 HP (link 1); green +2 HP (link 2); R: -1 stress; green +1 HP (upgraded P1); "
            "+$2 own rails (link 1); Stock Exchange +$5; pays green $7 (link 2); cannot pay $1: +1 stress.",
            [(0, 1, 4), (10, 8, 0)],
        ),
        # The same with the settings asking 2 stress per unpaid dollar: the note says the 2.
        (
            0,
            2,
            "orange +1 HP (link 1); green +2 HP (link 2); R: -1 stress; green +1 HP (upgraded P1); "
            "+$2 own rails (link 1); Stock Exchange +$5; pays green $7 (link 2); cannot pay $1: +2 stress.",
            [(0, 1, 5), (10, 8, 0)],
        ),
    ],
)
def test_a_two_link_trip_through_the_exchange_to_an_upgraded_building(
    money: int, unpaid_stress: int, notes: str, after: list[tuple[int, int, int]]
) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(SETTINGS, "unpaid_stress_per_dollar", unpaid_stress)
        state = via_the_exchange()
        state["players"][0]["money"] = money
        state, events = do(state, 0, MOVE)
    assert events == [{"text": PLAYED + notes}]
    assert [(p["money"], p["hp"], p["stress"]) for p in state["players"]] == after
    assert state["passengers"] == {"R1": 0, "P1": 1}


def test_an_unbuilt_parcel_gives_no_destination_bonus_whatever_the_settings_list() -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(SETTINGS, "destination_bonus", {**SETTINGS["destination_bonus"], "P": {"stress": 1}})
        state = via_the_exchange(built=False)
        hand(state, 0, "parcel-p1", "commuter")
        state, events = do(state, 0, "/tram move R1 P1 via 1 2 with commuter:ticket parcel-p1:p1")
    assert events == [
        {
            "text": "orange moves a passenger R1 → EXCHANGE → P1 (playing Commuter, Parcel P1): orange +1 HP (link 1); "
            "green +2 HP (link 2); +$2 own rails (link 1); Stock Exchange +$5; pays green $8 (link 2)."
        }
    ]
    assert state["players"][0]["stress"] == 3


def test_a_trip_from_a_place_without_passengers_is_refused() -> None:
    state = via_the_exchange()
    waiting = "Passengers wait at: P1, R1."
    no_from = {"verb": "move", "to": "P1", "via": [1, 2], "cards": ["commuter:ticket+r"]}
    assert refused(state, 0, no_from) == f"No passenger waits at . {waiting}"
    assert refused(state, 0, "/tram move Z9 P1 via 1 2 with commuter:ticket+r", parse=True) == (
        f"No passenger waits at Z9. {waiting}"
    )
