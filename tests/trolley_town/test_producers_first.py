"""Which pieces the engine takes when a player does not say (payment.py, "producers first"):
wood or stone comes first from tiles whose production makes it (a plain gain or a production
choice that offers it), then from the tiles holding most of it. A tile that gains the resource
some other way (Trading Post: an immediate choice) or produces something else is no producer."""

from __future__ import annotations

import pytest

from tests.trolley_town.helpers import empty_start, game, hold, play, put, rejected, res


def build_field(tiles: dict[str, tuple[str, int]]) -> tuple[dict, list[str]]:
    """ann (starting wood and stone removed) holds wood on ``tiles`` ({cell: (slug, wood)}; the
    Forest at 0,0 and the Mountain at 1,0 are there already) and builds a Field (1 wood) at 0,1
    without naming the payment."""
    state = empty_start(game(2))
    for key, (slug, wood) in tiles.items():
        if slug in ("forest", "mountain"):
            hold(state, key, wood=wood)
        else:
            put(state, key, slug, wood=wood)
    state, events = play(state, 0, "/trolley build field 0,1")
    return state, [e["text"] for e in events]


def test_a_production_choice_that_offers_wood_makes_wood() -> None:
    """Wasteland (production: wood or stone) holds 1 wood, a Warehouse holds 2: the Wasteland pays."""
    state, lines = build_field({"1,1": ("wasteland", 1), "2,0": ("warehouse", 2)})
    assert lines[0] == "ann builds Field at 0,1, paying 1 wood."
    assert res(state, "1,1") == {}
    assert res(state, "2,0") == {"wood": 2}


@pytest.mark.parametrize("other", ["trading-post", "mountain"])
def test_tiles_that_do_not_produce_wood_come_after_the_forest(other: str) -> None:
    """The Forest holds 1 wood, the other tile 2: the Forest pays. The Trading Post's choice is
    immediate, not production; the Mountain produces stone."""
    key = "1,0" if other == "mountain" else "2,0"
    state, lines = build_field({"0,0": ("forest", 1), key: (other, 2)})
    assert lines[0] == "ann builds Field at 0,1, paying 1 wood."
    assert res(state, "0,0") == {}
    assert res(state, key) == {"wood": 2}


def test_with_no_wood_at_all_a_wood_cost_is_refused() -> None:
    """Only stone in the town: the Field's 1 wood cannot be paid (no wood counted from nowhere)."""
    state = empty_start(game(2))
    hold(state, "1,0", stone=2)
    assert rejected(state, 0, "/trolley build field 0,1") == (
        "That costs 1 wood; you have 0 wood and 2 stone on your tiles."
    )
