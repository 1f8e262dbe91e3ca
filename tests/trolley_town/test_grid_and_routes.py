"""The town grid and its routes (reference, "The town grid"): edge-adjacent placement, route
openings by rotation, laying several routes at once, junctions, upgrades that keep their path,
and paying (defaults, explicit ``pay``, discounts)."""

from __future__ import annotations

import pytest

from games.trolley_town import GAME
from tests.trolley_town.helpers import (
    do,
    game,
    hold,
    lay,
    play,
    put,
    rejected,
    res,
    texts,
    to_act,
    to_transport,
    totals,
    town,
)

# ---------------------------------------------------------------- placement


def test_start_town_is_forest_and_mountain_edge_to_edge() -> None:
    s = game(3)
    for seat in range(3):
        assert town(s, seat)["cells"] == {
            "0,0": {"t": "forest", "r": {"wood": 3}, "n": 0},
            "1,0": {"t": "mountain", "r": {"stone": 3}, "n": 1},
        }


@pytest.mark.parametrize("key", ["0,1", "1,1", "-1,0", "2,0", "0,-1", "1,-1"])
def test_a_building_may_go_on_any_cell_sharing_an_edge(key: str) -> None:
    s = do(game(2), 0, f"/trolley build field {key}")
    assert town(s)["cells"][key]["t"] == "field"


@pytest.mark.parametrize("key", ["2,1", "-1,1", "2,-1", "-1,-1", "3,0", "0,2"])
def test_a_building_touching_only_at_a_corner_or_not_at_all_is_refused(key: str) -> None:
    message = rejected(game(2), 0, f"/trolley build field {key}")
    assert message == (
        f"{key} does not touch your town along an edge. Free cells next to it include 0,-1, 1,-1, -1,0, 2,0, 0,1, 1,1."
    )


def test_an_occupied_cell_is_refused() -> None:
    assert rejected(game(2), 0, "/trolley build field 1,0") == "1,0 is already built on."
    assert rejected(game(2), 0, "/trolley route straight 0,0 0") == "0,0 is already built on."


def test_legal_builds_offer_exactly_the_edge_cells() -> None:
    cells = {m["cell"] for m in GAME.legal_moves(game(2), 0) if m["verb"] == "build"}
    assert cells == {"0,-1", "1,-1", "-1,0", "2,0", "0,1", "1,1"}


def test_the_town_grows_without_bounds() -> None:
    s = game(2)
    s = do(s, 0, "/trolley route straight -1,0 0 straight -2,0 0 straight -3,0 0")
    s = do(s, 1, "/trolley pass")
    s = do(s, 0, "/trolley build field -4,0")
    assert town(s)["cells"]["-4,0"]["t"] == "field"


# ---------------------------------------------------------------- openings

# The reference: at 0 a straight opens W and E, a curve W and S, a junction W, E and S;
# each 90 degrees turns every opening one edge clockwise.
OPENINGS = {
    ("straight", 0): "EW",
    ("straight", 90): "NS",
    ("straight", 180): "EW",
    ("straight", 270): "NS",
    ("curve", 0): "SW",
    ("curve", 90): "NW",
    ("curve", 180): "EN",
    ("curve", 270): "ES",
    ("junction", 0): "ESW",
    ("junction", 90): "NSW",
    ("junction", 180): "ENW",
    ("junction", 270): "ENS",
}
AROUND = {"N": "5,4", "E": "6,5", "S": "5,6", "W": "4,5"}


@pytest.mark.parametrize(("kind", "rot"), sorted(OPENINGS))
def test_route_openings_by_rotation_decide_which_neighbours_are_linked(kind: str, rot: int) -> None:
    """A route at 5,5 with a Charcoal Kiln holding a wood on each side: wood moves exactly
    between the kilns the route opens to."""
    s = game(2)
    lay(s, "5,5", kind, rot)
    for key in AROUND.values():
        put(s, key, "charcoal-kiln", wood=1)
    s = to_transport(s)
    linked = set()
    for move in GAME.legal_moves(s, 0):
        if move["verb"] == "move" and move["moves"][0][1] in AROUND.values():
            linked |= {move["moves"][0][1], move["moves"][0][2]}
    assert linked == {AROUND[edge] for edge in OPENINGS[(kind, rot)]}


@pytest.mark.parametrize(("kind", "rot"), sorted(OPENINGS))
def test_the_view_shows_the_openings_laid(kind: str, rot: int) -> None:
    s = game(2)
    cost = 2 if kind == "junction" else 1
    s = do(s, 0, f"/trolley route {kind} 0,1 {rot}")
    assert sum(totals(s).values()) == 6 - cost
    cell = next(c for c in GAME.view(s, None)["towns"][0]["cells"] if (c["x"], c["y"]) == (0, 1))
    assert "".join(sorted(cell["open"])) == "".join(sorted(OPENINGS[(kind, rot)]))


def test_forest_to_kiln_along_a_curve_and_a_straight() -> None:
    """Built by commands: a straight south of the Forest, a curve at 90 (north and west) below it,
    and a Kiln west of the curve."""
    s = game(2)
    s = do(s, 0, "/trolley route straight 0,1 90 curve 0,2 90")
    s = do(s, 1, "/trolley pass")
    s = do(s, 0, "/trolley build charcoal-kiln -1,2")
    s = do(to_transport(s), 0, "/trolley move wood 0,0 -1,2")
    assert res(s, "-1,2") == {"wood": 1}


# ---------------------------------------------------------------- laying routes


def test_several_routes_in_one_command_each_touching_the_town_as_it_grows() -> None:
    s = game(2)
    s, events = play(s, 0, "/trolley route straight 0,1 90 curve 0,2 90 junction -1,2 0")
    cells = town(s)["cells"]
    assert [cells[k]["route"] for k in ("0,1", "0,2", "-1,2")] == ["straight", "curve", "junction"]
    assert sum(totals(s).values()) == 6 - (1 + 1 + 2)
    assert texts(events)[0] == (
        "ann lays a straight at 0,1, lays a curve at 0,2, lays a junction at -1,2, paying 2 stone + 2 wood."
    )
    assert to_act(s) == (1,)  # laying routes is the whole turn


def test_a_route_in_a_command_that_does_not_touch_the_town_yet_is_refused() -> None:
    message = rejected(game(2), 0, "/trolley route straight 0,2 90 straight 0,1 90")
    assert message.startswith("0,2 does not touch your town along an edge.")


def test_routes_cost_one_and_a_junction_two() -> None:
    s = game(2)
    hold(s, "0,0", wood=1)
    hold(s, "1,0")
    assert rejected(s, 0, "/trolley route junction 0,1 0") == (
        "That costs 2 wood/stone; you have 1 wood and 0 stone on your tiles."
    )
    legal = {m["routes"][0][0] for m in GAME.legal_moves(s, 0) if m["verb"] == "route"}
    assert legal == {"straight", "curve"}
    s = do(s, 0, "/trolley route curve 0,1 0")
    assert totals(s) == {}


def test_legal_route_moves_list_each_distinct_rotation_once() -> None:
    moves = [m["routes"][0] for m in GAME.legal_moves(game(2), 0) if m["verb"] == "route"]
    at = [(kind, rot) for kind, key, rot in moves if key == "0,1"]
    assert sorted(at) == sorted(
        [("straight", 0), ("straight", 90)] + [(k, r) for k in ("curve", "junction") for r in (0, 90, 180, 270)]
    )


def test_a_straight_at_180_is_stored_as_the_straight_at_0() -> None:
    s = do(game(2), 0, "/trolley route straight 0,1 180")
    assert town(s)["cells"]["0,1"] == {"route": "straight", "rot": 0, "n": 2}


def test_bad_route_words_are_refused_with_what_is_allowed() -> None:
    s = game(2)
    assert rejected(s, 0, "/trolley route straight 0,1 45") == (
        '"45" is not a rotation: use 0, 90, 180 or 270 (degrees clockwise).'
    )
    assert rejected(s, 0, "/trolley route bridge 0,1 0") == (
        'Unknown route kind "bridge". Choose one of: straight, curve, junction, upgrade.'
    )
    assert "Use: " in rejected(s, 0, "/trolley route straight 0,1")


# ---------------------------------------------------------------- upgrades


def _straight_down(s: dict) -> dict:
    """ann: a straight N-S below the Forest and a Kiln below it; bob passed."""
    s = do(s, 0, "/trolley route straight 0,1 90")
    s = do(s, 1, "/trolley pass")
    return do(s, 0, "/trolley build charcoal-kiln 0,2")


def test_upgrade_costs_one_and_must_keep_the_old_openings() -> None:
    s = _straight_down(game(2))
    assert rejected(s, 0, "/trolley upgrade 0,1 0") == (
        "A junction at 0,1 must keep the straight's path: rotation 90 or 270."
    )
    assert rejected(s, 0, "/trolley upgrade 0,1 180") == (
        "A junction at 0,1 must keep the straight's path: rotation 90 or 270."
    )
    before = sum(totals(s).values())
    s = do(s, 0, "/trolley upgrade 0,1 90")
    assert town(s)["cells"]["0,1"]["route"] == "junction" and town(s)["cells"]["0,1"]["rot"] == 90
    assert sum(totals(s).values()) == before - 1


def test_upgrade_rotations_offered_are_exactly_those_keeping_the_path() -> None:
    s = do(game(2), 0, "/trolley route curve 0,1 90 straight 1,1 0")
    s = do(s, 1, "/trolley pass")
    upgrades = sorted((m["cells"][0][0], m["cells"][0][1]) for m in GAME.legal_moves(s, 0) if m["verb"] == "upgrade")
    # curve 90 (N W): junctions 90 (N S W) and 180 (E W N); straight 0 (W E): junctions 0 and 180
    assert upgrades == [("0,1", 90), ("0,1", 180), ("1,1", 0), ("1,1", 180)]
    assert rejected(s, 0, "/trolley upgrade 0,1 270") == (
        "A junction at 0,1 must keep the curve's path: rotation 90 or 180."
    )


def test_an_upgraded_junction_keeps_the_old_path_and_opens_a_branch() -> None:
    s = _straight_down(game(2))
    s = do(s, 0, "/trolley upgrade 0,1 90")  # N S W
    s = do(s, 0, "/trolley build bakery -1,1")  # (the Kiln pile's next tile is face down)
    put(s, "-1,1", "charcoal-kiln")  # swap the Bakery for a second Kiln
    hold(s, "0,0", wood=2)
    s = to_transport(s)
    s = do(s, 0, "/trolley move wood 0,0 0,2 wood 0,0 -1,1")
    assert res(s, "0,2") == {"wood": 1} and res(s, "-1,1") == {"wood": 1}


def test_upgrades_in_one_command_and_inside_a_route_command() -> None:
    s = do(game(2), 0, "/trolley route straight 0,1 90 straight 1,1 90")
    s = do(s, 1, "/trolley pass")
    s = do(s, 0, "/trolley upgrade 0,1 270 1,1 90")
    assert sum(totals(s).values()) == 6 - 2 - 2
    s = do(s, 0, "/trolley route straight 0,2 90 upgrade 0,2 270")
    assert town(s)["cells"]["0,2"] == {"route": "junction", "rot": 270, "n": 4}
    assert sum(totals(s).values()) == 6 - 2 - 2 - 2


def test_upgrading_what_is_not_a_single_track_is_refused() -> None:
    s = do(game(2), 0, "/trolley route junction 0,1 0")
    s = do(s, 1, "/trolley pass")
    assert rejected(s, 0, "/trolley upgrade 0,1 0") == "The route at 0,1 is already a junction."
    assert rejected(s, 0, "/trolley upgrade 0,0 0") == "There is no route at 0,0 to upgrade."
    assert rejected(s, 0, "/trolley upgrade 5,5 0") == "There is no route at 5,5 to upgrade."


# ---------------------------------------------------------------- payment


def test_default_payment_keeps_wood_and_stone_even_and_takes_from_producers_first() -> None:
    s = game(2)
    hold(s, "0,0", wood=1)
    put(s, "0,1", "charcoal-kiln", wood=2)  # 3 wood, 3 stone in all
    s = do(s, 0, "/trolley route straight -1,0 0")  # even either way: wood first
    assert res(s, "0,0") == {} and res(s, "0,1") == {"wood": 2}  # the Forest's wood went first
    s = do(s, 1, "/trolley pass")
    s = do(s, 0, "/trolley route straight 2,0 0")  # 2 wood, 3 stone: stone
    assert res(s, "1,0") == {"stone": 2} and res(s, "0,1") == {"wood": 2}


def test_default_payment_takes_from_the_tile_holding_most_when_no_producer_holds_it() -> None:
    s = game(2)
    hold(s, "0,0")
    hold(s, "1,0")
    put(s, "0,1", "charcoal-kiln", wood=1)
    put(s, "1,1", "charcoal-kiln", wood=3)
    s = do(s, 0, "/trolley route straight -1,0 0")
    assert res(s, "0,1") == {"wood": 1} and res(s, "1,1") == {"wood": 2}


def test_explicit_payment_picks_the_pieces() -> None:
    s = game(2)
    put(s, "0,1", "charcoal-kiln", wood=2)
    s, events = play(s, 0, "/trolley build bakery -1,0 pay wood 0,1 stone 1,0")
    assert res(s, "0,1") == {"wood": 1} and res(s, "0,0") == {"wood": 3} and res(s, "1,0") == {"stone": 2}
    assert texts(events)[0] == "ann builds Bakery at -1,0, paying 1 stone + 1 wood."


def test_explicit_payment_for_routes_and_junctions() -> None:
    s = do(game(2), 0, "/trolley route junction 0,1 0 pay stone 1,0 stone 1,0")
    assert res(s, "1,0") == {"stone": 1} and res(s, "0,0") == {"wood": 3}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "/trolley build bakery -1,0 pay wood 0,0",
            "That payment (1 wood + 0 stone) does not match the cost: pay 1 wood + 1 stone.",
        ),
        (
            "/trolley build bakery -1,0 pay wood 0,0 wood 0,0",
            "That payment (2 wood + 0 stone) does not match the cost: pay 1 wood + 1 stone.",
        ),
        ("/trolley build bakery -1,0 pay wood 1,0 stone 1,0", "There are not 1 wood on your tile at 1,0."),
        ("/trolley build bakery -1,0 pay wood 0,0 stone 7,7", "There are not 1 stone on your tile at 7,7."),
        ("/trolley build bakery -1,0 pay wheat 0,0 stone 1,0", '"wheat" is not a resource here: use wood, stone.'),
        (
            "/trolley build bakery -1,0 pay wood",
            "After pay, list pieces as resource x,y pairs, e.g. pay wood 0,0 stone 1,0.",
        ),
        (
            "/trolley route straight 0,1 90 pay wood 0,0 stone 1,0",
            "That payment (1 wood + 1 stone) does not match the cost: pay 0 wood + 1 stone or 1 wood + 0 stone.",
        ),
    ],
)
def test_wrong_payments_are_refused_with_a_clear_message(text: str, message: str) -> None:
    assert rejected(game(2), 0, text) == message


def test_paying_more_pieces_than_a_tile_holds_is_refused() -> None:
    s = game(2)
    hold(s, "0,0", wood=1)
    put(s, "0,1", "charcoal-kiln", wood=2)
    assert rejected(s, 0, "/trolley build ranch -1,0 pay wood 0,0 wood 0,0 stone 1,0") == (
        "There are not 2 wood on your tile at 0,0."
    )
    s = do(s, 0, "/trolley build ranch -1,0 pay wood 0,0 wood 0,1 stone 1,0")
    assert totals(s) == {"stone": 2, "wood": 1}


def test_an_unaffordable_building_says_what_it_costs() -> None:
    s = game(2)
    hold(s, "1,0")
    assert rejected(s, 0, "/trolley build bakery -1,0") == (
        "That costs 1 wood + 1 stone; you have 3 wood and 0 stone on your tiles."
    )


def test_a_discounted_building_pays_the_discounted_cost() -> None:
    s = game(2)
    put(s, "0,1", "builders-yard")
    assert rejected(s, 0, "/trolley build ranch -1,1 pay wood 0,0 wood 0,0 stone 1,0") == (
        "That payment (2 wood + 1 stone) does not match the cost: pay 1 wood + 1 stone or 2 wood + 0 stone."
    )
    s = do(s, 0, "/trolley build ranch -1,1 pay wood 0,0 wood 0,0")
    assert totals(s) == {"stone": 3, "wood": 1}
