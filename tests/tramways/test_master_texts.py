"""The Station Master's moves (Grand Station rulebook: the last player in turn order moves him once
a round, along one link, for free, and gets the destination's bonus) word for word: each refusal,
the trip's public line with the settlement amounts worked by hand, and the Commercial HP he buys."""

from __future__ import annotations

from typing import Any

import pytest

from games.tramways import GAME
from tests.tramways.conftest import add_link, do, refused
from tests.tramways.test_modules import station_city


def green_last() -> dict[str, Any]:
    """Orange's links R1 - STATION (1, one cell) and STATION - C1 (2, four cells, upgraded); green
    (seat 1) is last in turn order, with two actions left in the double-action step."""
    state = station_city(master=True)
    add_link(state, 0, ["B1"], ["R1", "STATION"])
    add_link(state, 0, ["C2", "C3", "C4", "B5"], ["STATION", "C1"], upgraded=True)
    state["current"], state["turn"] = 1, {"step": 2, "index": 1, "actions_left": 2}
    return state


@pytest.mark.parametrize(
    ("money", "text", "event", "master"),
    [
        # One cell of orange's plain link: +1 HP to orange, the Residence's -1 stress, $1 to orange.
        (
            3,
            "/tram master R1 via 1",
            "green moves the Station Master STATION → R1 (free): orange +1 HP (link 1); R: -1 stress; "
            "pays orange $1 (link 1).",
            {"at": "R1", "moved": True},
        ),
        # The upgraded link: 2 HP to orange and $2 a cell ($8); 1 HP bought for $3 leaves $7, so $1 unpaid.
        (
            10,
            "/tram master C1 via 2 hp 1",
            "green moves the Station Master STATION → C1 (free): orange +2 HP (link 2); C: buys 1 HP for $3; "
            "pays orange $7 (link 2); cannot pay $1: +1 stress.",
            {"at": "C1", "moved": True},
        ),
    ],
)
def test_a_station_master_move_says_the_whole_settlement(
    money: int, text: str, event: str, master: dict[str, Any]
) -> None:
    state = green_last()
    state["players"][1]["money"] = money
    state, events = do(state, 1, text)
    assert events == [{"text": event}]
    assert state["master"] == master
    assert state["turn"] == {"step": 2, "index": 1, "actions_left": 2}  # free: not one of the actions


def test_station_master_refusals_word_for_word() -> None:
    state = green_last()
    state["players"][1]["money"] = 1
    assert refused(state, 1, "/tram master C1 via 2 hp 1", parse=True) == "Buying 1 HP costs $3; you have $1."
    assert refused(state, 1, {"verb": "master", "to": "C1", "via": [1, 2], "hp": 0}) == (
        "The Station Master travels exactly one link: /tram master <to> via <link>."
    )
    moved, _ = do(state, 1, "/tram master R1 via 1")
    assert refused(moved, 1, "/tram master STATION via 1", parse=True) == (
        "The Station Master has already moved this round."
    )
    first = green_last()
    first["current"], first["turn"] = 0, {"step": 2, "index": 0, "actions_left": 2}
    assert refused(first, 0, "/tram master R1 via 1", parse=True) == (
        "Only the last player in turn order moves the Station Master."
    )
    assert GAME.status(moved).summary == "Round 1: green to act (2 actions left)"


def test_the_last_player_in_turn_order_skips_those_gone() -> None:
    from games.tramways.actions import last_player

    state = green_last()
    state["order"] = [1, 0]
    assert last_player(state) == 0
    state["players"][0]["resigned"] = True
    assert last_player(state) == 1
    state["players"][1]["resigned"] = True
    assert last_player(state) == -1  # nobody: no seat number matches it
