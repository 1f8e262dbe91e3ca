"""Building and transporting word for word: the refusal for a tile not in the market (with the
list of what is), the refusal for a cell away from the town (the first 8 free cells next to it,
row by row), the cell a new building occupies, the construction effects it sets off (named
for their player), several transports said in one line, and a pull allowance spent when the
expert rule blocks the route."""

from __future__ import annotations

import json

import pytest

from games.base import IllegalMove
from games.trolley_town import GAME
from games.trolley_town.content import TILES
from tests.trolley_town.helpers import game, lay, play, put, rejected, res, to_transport


def test_a_tile_that_is_not_in_the_market_is_refused_with_what_is() -> None:
    state = game(2)
    m = state["market"]
    # Buildable now: the face-up basic piles, the row, the A and B pile tops, the V pile tops.
    offered = {p["tile"] for p in m["basic"]} | {s for s in m["row"] if s} | {m["a"][0], m["b"][0]}
    offered |= {pile[0] for pile in m["v"]}
    available = ", ".join(sorted(offered))
    hidden = m["a"][1]  # second in the A pile: face down
    assert rejected(state, 0, f"/trolley build {hidden} 0,1") == (
        f"{TILES[hidden].name} is not available to build now. Available: {available}."
    )
    # A move not made by the parser (which knows every tile's name) is refused the same way.
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(state, 0, {**GAME.parse("/trolley build field 0,1"), "tile": "castle"})
    assert refused.value.message == f"castle is not available to build now. Available: {available}."
    assert json.dumps(state, sort_keys=True) == before


def test_a_cell_away_from_the_town_is_refused_with_the_first_8_free_cells() -> None:
    """Four buildings in a row at y=0 (x 0-3): 10 free cells touch them; the refusal names the
    first 8 in row order (y, then x)."""
    state = game(2)
    put(state, "2,0", "warehouse")
    put(state, "3,0", "warehouse")
    near = "0,-1, 1,-1, 2,-1, 3,-1, -1,0, 4,0, 0,1, 1,1"
    assert rejected(state, 0, "/trolley build field 9,9") == (
        f"9,9 does not touch your town along an edge. Free cells next to it include {near}."
    )


def test_a_new_building_and_the_construction_effects_it_sets_off() -> None:
    """Roadside Inn: 2 VP when a building goes up around it; Newspaper Office: 2 VP for every
    building built anywhere in the town. The Field (1 wood, from the Forest) goes up at 0,1."""
    state = game(2)
    put(state, "1,1", "roadside-inn")
    put(state, "3,0", "newspaper-office")
    placed = state["towns"][0]["placed"]
    state, events = play(state, 0, "/trolley build field 0,1")
    assert events[:3] == [
        {"text": "ann builds Field at 0,1, paying 1 wood.", "irreversible": False},
        {"text": "ann's Roadside Inn at 1,1: +2 VP."},
        {"text": "ann's Newspaper Office at 3,0: +2 VP."},
    ]
    assert state["towns"][0]["cells"]["0,1"] == {"t": "field", "r": {}, "n": placed}
    assert state["towns"][0]["vp"] == 4


def test_several_transports_are_said_in_one_line() -> None:
    """Forest 0,0 - straight route 0,1 - Freight Depot 0,2 (takes every resource)."""
    state = game(2)
    lay(state, "0,1", "straight", 90)
    put(state, "0,2", "freight-depot")
    state = to_transport(state)
    state, events = play(state, 0, "/trolley move wood 0,0 0,2 wood 0,0 0,2")
    assert events == [{"text": "ann moves wood 0,0→0,2, wood 0,0→0,2."}]
    assert res(state, "0,2") == {"wood": 2}


def test_the_expert_rule_makes_a_transport_through_the_forest_spend_a_pull_allowance() -> None:
    """Field 0,-2 - route - Forest 0,0 - route - Freight Depot 0,2 (pulls 2 pieces a transport step
    from tiles without a route). Under the expert rule the Forest passes only wood, so ann's wheat
    reaches the depot only by its pull; bob (basic rule) sends it along the routes for free."""
    state = game(2, expert=["ann"])
    for seat in (0, 1):
        put(state, "0,-2", "field", seat, wheat=2)
        lay(state, "0,-1", "straight", 90, seat)
        lay(state, "0,1", "straight", 90, seat)
        put(state, "0,2", "freight-depot", seat)
    state = to_transport(state)
    assert [t["pull"] for t in state["towns"]] == [{"0,2": 2}, {"0,2": 2}]
    state, _ = play(state, 0, "/trolley move wheat 0,-2 0,2")
    state, _ = play(state, 1, "/trolley move wheat 0,-2 0,2")
    assert [t["pull"] for t in state["towns"]] == [{"0,2": 1}, {"0,2": 2}]
    assert res(state, "0,2", 0) == res(state, "0,2", 1) == {"wheat": 1}
