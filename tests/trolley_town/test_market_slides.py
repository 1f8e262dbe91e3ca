"""The market's moving parts (reference, "The building market"): a pile top taken reveals the
next tile only if there is one; building from an A slot slides every A tile between it and the
outer end one slot toward the marker; an empty draw pile leaves the outer slot empty; the Rebuild
tile turns up only face-down basic piles that still have a tile."""

from __future__ import annotations

from games.trolley_town import market
from tests.trolley_town.helpers import game


def fresh_market(players: int = 4) -> dict:
    return game(players)["market"]


def test_taking_a_pile_top_reveals_a_tile_only_while_the_pile_lasts() -> None:
    m = fresh_market()
    m["a"] = ["restaurant", "brewery"]
    assert market.take(m, "a") is True  # Brewery turns up
    assert m["a"] == ["brewery"]
    assert market.take(m, "a") is False  # nothing under it
    assert m["a"] == []


def test_an_a_slot_slides_the_whole_a_side_toward_the_marker() -> None:
    """Round 4: three A slots (0-2) left of the marker. Building slot 2 moves slots 0 and 1 one
    step right and the A pile's top fills slot 0."""
    m = fresh_market()
    m["marker"] = 3
    m["row"] = ["restaurant", "brewery", "ironworks", "dairy", "butcher", "windmill"]
    m["a"] = ["creamery", "coal-mine"]
    assert market.take(m, "row2") is True
    assert m["row"] == ["creamery", "restaurant", "brewery", "dairy", "butcher", "windmill"]
    assert m["a"] == ["coal-mine"]


def test_empty_draw_piles_leave_the_outer_slot_empty() -> None:
    m = fresh_market()
    m["marker"] = 1
    m["row"] = ["restaurant", "dairy", "butcher", "windmill", "bakery", "wasteland"]
    m["a"], m["b"] = [], []
    assert market.take(m, "row0") is True
    assert m["row"] == [None, "dairy", "butcher", "windmill", "bakery", "wasteland"]
    assert market.take(m, "row1") is True
    assert m["row"] == [None, "butcher", "windmill", "bakery", "wasteland", None]


def test_the_rebuild_tile_turns_up_only_piles_with_a_tile_left() -> None:
    """4 players: the Rebuild tile is in play. A basic pile just built from lies face down; the
    Rebuild tile can build its next tile, but not from a pile with none left."""
    m = fresh_market(4)
    first, second = m["basic"][0], m["basic"][2]  # Field, Charcoal Kiln
    first.update(left=1, up=False)
    second.update(left=0, up=False)
    assert market.rebuild_targets(m) == {first["tile"]: "basic0"}
