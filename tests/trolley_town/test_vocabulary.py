"""One scenario per term of the effect vocabulary (reference: "Effect vocabulary"; content.py).

Each scenario uses a real tile from data/tiles.json that has the effect shape in question;
``test_the_tiles_used_here_have_the_shapes_these_tests_rely_on`` pins those shapes, so a data
change shows up there first. Towns: Forest 0,0 and Mountain 1,0, x to the right, y downward.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.trolley_town import GAME
from games.trolley_town.content import TILES
from tests.trolley_town.helpers import (
    answer_defaults,
    do,
    done_all,
    finish,
    game,
    hold,
    lay,
    next_round,
    offer,
    pass_all,
    play,
    put,
    rejected,
    res,
    texts,
    to_act,
    to_transport,
    totals,
    town,
    vp,
)

SHAPES: dict[str, list[dict[str, Any]]] = {
    "lumber-camp": [{"when": "immediate", "do": "gain", "resource": "wood", "amount": 3}],
    "trading-post": [{"when": "immediate", "do": "gain", "resource": "choice", "options": ["any"], "amount": 3}],
    "supply-cart": [
        {"when": "immediate", "do": "gain", "resource": "choice", "options": ["any"], "different": True, "amount": 2}
    ],
    "clock-tower": [{"when": "immediate", "do": "score", "vp": 12}],
    "town-hall": [{"when": "immediate", "do": "score", "vp": 2, "per": {"count": "surrounding_buildings"}}],
    "tram-stop": [{"when": "immediate", "do": "score", "vp": 1, "per": {"count": "surrounding_tiles"}}],
    "trading-house": [
        {"when": "immediate", "do": "score", "vp": 2, "per": {"count": "surrounding_distinct_resources"}}
    ],
    "sheepfold": [{"when": "production", "do": "gain", "resource": "sheep", "amount": 1}],
    "granary": [
        {
            "when": "production",
            "do": "gain",
            "resource": "wheat",
            "amount": 1,
            "per": {"count": "surrounding_buildings_with", "resource": "wheat"},
        }
    ],
    "dairy": [
        {"when": "immediate", "do": "gain", "resource": "sheep", "amount": 1},
        {"when": "production", "do": "score", "vp": 1, "per": {"count": "here", "resource": "sheep"}},
    ],
    "repair-shop": [{"when": "production", "do": "score", "vp": 1, "per": {"count": "surrounding_processors"}}],
    "fairground": [{"when": "production", "do": "score", "vp": 1, "per": {"count": "surrounding_buildings"}}],
    "tram-depot": [{"when": "production", "do": "score", "vp": 1, "per": {"count": "connected_buildings"}}],
    "water-wheel": [{"when": "production", "do": "trigger"}],
    "boiler-house": [
        {"when": "production", "do": "trigger"},
        {"when": "processing", "do": "convert", "from": {"coal": 1}, "to": {"vp": 2}},
    ],
    "spinning-shop": [{"when": "production", "do": "score", "vp": 2, "per": {"count": "here", "resource": "sheep"}}],
    "roadside-inn": [{"when": "construction", "do": "score", "vp": 2, "where": "surrounding"}],
    "stonecutters-lodge": [
        {"when": "construction", "do": "gain", "resource": "stone", "amount": 1, "where": "surrounding"}
    ],
    "newspaper-office": [{"when": "construction", "do": "score", "vp": 2, "where": "town"}],
    "builders-merchant": [{"when": "construction", "do": "gain", "resource": "wood", "amount": 1, "where": "town"}],
    "builders-yard": [{"when": "construction", "do": "discount", "amount": 1}],
    "surveyors-office": [
        {"when": "construction", "do": "discount", "amount": 1},
        {"when": "construction", "do": "score", "vp": 1, "where": "surrounding"},
    ],
    "goods-hoist": [
        {"when": "transport", "do": "pull", "amount": 1},
        {"when": "processing", "do": "convert", "from": {"wheat": 1, "coal": 1}, "to": {"vp": 5}},
    ],
    "freight-depot": [
        {"when": "transport", "do": "pull", "amount": 2},
        {"when": "processing", "do": "convert", "from": {"any": 2}, "to": {"vp": 4}},
    ],
    "market-stall": [{"when": "processing", "do": "convert", "from": {"any": 2}, "to": {"vp": 3}}],
    "general-store": [{"when": "processing", "do": "convert", "from": {"any_different": 3}, "to": {"vp": 7}}],
    "feed-barn": [{"when": "processing", "do": "convert", "from": {"wheat": 2}, "to": {"sheep": 1}}],
    "windmill": [{"when": "processing", "do": "convert", "from": {"wheat": 2}, "to": {"vp": 4}}],
    "guild-hall": [{"when": "processing", "do": "neighbour_bonus", "vp": 1}],
    "chamber-of-commerce": [{"when": "processing", "do": "neighbour_bonus", "vp": 2}],
    "show-ground": [
        {
            "when": "end",
            "do": "score",
            "vp": 3,
            "per": {"count": "here", "resource": "sheep"},
            "bonus": {"at": 5, "vp": 3},
        }
    ],
    "town-park": [
        {"when": "end", "do": "score", "vp": 1, "per": {"count": "surrounding_tiles"}, "bonus": {"at": 8, "vp": 4}}
    ],
    "town-square": [{"when": "end", "do": "score", "vp": 2, "per": {"count": "surrounding_buildings"}}],
    "grain-exchange": [
        {"when": "end", "do": "score", "vp": 3, "per": {"count": "surrounding_buildings_with", "resource": "wheat"}}
    ],
    "wool-exchange": [
        {"when": "end", "do": "score", "vp": 3, "per": {"count": "surrounding_buildings_with", "resource": "sheep"}}
    ],
    "industrial-museum": [{"when": "end", "do": "score", "vp": 3, "per": {"count": "surrounding_processors"}}],
    "bazaar": [
        {
            "when": "end",
            "do": "score",
            "vp": 3,
            "per": {"count": "surrounding_distinct_resources"},
            "bonus": {"at": 5, "vp": 3},
        }
    ],
    "central-station": [
        {"when": "end", "do": "score", "vp": 1, "per": {"count": "connected_buildings"}, "bonus": {"at": 10, "vp": 5}}
    ],
    "exhibition-hall": [{"when": "end", "do": "convert", "from": {"any_different": 5}, "to": {"vp": 15}}],
    "warehouse": [{"when": "end", "do": "convert", "from": {"any": 2}, "to": {"vp": 4}}],
}


def _raw(slug: str) -> list[dict[str, Any]]:
    return [{"when": e.when, "do": e.do, **e.data} for e in TILES[slug].effects]


def test_the_tiles_used_here_have_the_shapes_these_tests_rely_on() -> None:
    changed = {slug: _raw(slug) for slug, shape in SHAPES.items() if _raw(slug) != shape}
    assert changed == {}
    assert TILES["granary"].spaces == 4 and TILES["sheepfold"].spaces == 2
    assert TILES["stonecutters-lodge"].spaces == 2 and TILES["builders-merchant"].spaces == 3
    assert TILES["market-stall"].spaces == 4 and TILES["general-store"].spaces == 6


def _game_end(s: dict) -> dict:
    s = finish(s)
    assert s["phase"] == "finished"
    return s


# ================================================================ immediate


def test_immediate_gain_fixed_amount_lumber_camp() -> None:
    s = offer(game(2), "lumber-camp")
    s, events = play(s, 0, "/trolley build lumber-camp 0,1")
    assert res(s, "0,1") == {"wood": 3}
    assert totals(s) == {"stone": 2, "wood": 6}  # paid its 1 stone
    assert "ann's Lumber Camp at 0,1: +3 wood." in texts(events)


def test_immediate_gain_choice_of_any_resources_repeats_allowed() -> None:
    s = offer(game(2), "trading-post")
    s = do(s, 0, "/trolley build trading-post 0,1")
    assert town(s)["pending"] == [
        {
            "cell": "0,1",
            "tile": "trading-post",
            "amount": 3,
            "options": ["wood", "stone", "wheat", "coal", "sheep"],
            "different": False,
        }
    ]
    assert to_act(s) == (0,)  # the turn waits for the choice
    assert len(GAME.legal_moves(s, 0)) == 35  # multisets of 3 from 5 resources
    assert "Name 3 resource(s)" in rejected(s, 0, "/trolley choose 0,1 sheep sheep")
    s, events = play(s, 0, "/trolley choose 0,1 sheep sheep coal")
    assert res(s, "0,1") == {"sheep": 2, "coal": 1}
    assert to_act(s) == (1,)
    assert town(s)["pending"] == []


def test_immediate_gain_any_different_resources() -> None:
    s = offer(game(2), "supply-cart")
    s = do(s, 0, "/trolley build supply-cart 0,1")
    legal = GAME.legal_moves(s, 0)
    assert len(legal) == 10  # pairs of different resources
    assert all(len(set(m["resources"])) == 2 for m in legal)
    assert rejected(s, 0, "/trolley choose 0,1 coal coal") == "These must be different resources."
    s = do(s, 0, "/trolley choose 0,1 wheat coal")
    assert res(s, "0,1") == {"wheat": 1, "coal": 1}


def test_immediate_score_fixed_clock_tower() -> None:
    s = offer(game(2), "clock-tower", 0)
    put(s, "0,1", "stone-quarry", stone=3)
    s, events = play(s, 0, "/trolley build clock-tower -1,0")
    assert vp(s) == 12 and town(s)["scored"] == {"immediate": 12}
    assert totals(s) == {"stone": 2, "wood": 1}  # paid 2 wood + 4 stone


def _crowded(s: dict) -> dict:
    """Around 0,1: Forest, Mountain (edges), routes at -1,1, 1,1 and 0,2, a Field at 1,2 and a
    Bakery at -1,2 (diagonals); a Kiln at 2,1 is two cells away."""
    lay(s, "-1,1", "straight", 0)
    lay(s, "1,1", "straight", 0)
    lay(s, "0,2", "straight", 90)
    put(s, "1,2", "field")
    put(s, "-1,2", "bakery")
    put(s, "2,1", "charcoal-kiln")
    return s


def test_immediate_score_per_surrounding_building_counts_diagonals_not_routes() -> None:
    s = _crowded(offer(game(2), "town-hall"))
    hold(s, "1,0", stone=3)
    s = do(s, 0, "/trolley build town-hall 0,1")
    assert vp(s) == 2 * 4  # Forest, Mountain, Field, Bakery


def test_immediate_score_per_surrounding_tile_counts_routes_too() -> None:
    s = _crowded(offer(game(2), "tram-stop"))
    s = do(s, 0, "/trolley build tram-stop 0,1")
    assert vp(s) == 7  # 4 buildings + 3 routes; the Kiln two cells away is not around


def test_immediate_score_per_distinct_resource_drawn_around_ignores_any_icons() -> None:
    s = offer(game(2), "trading-house")
    put(s, "-1,1", "market-stall")  # draws "any": not counted
    put(s, "1,1", "field")  # wheat
    put(s, "1,2", "charcoal-kiln")  # wood (again) and coal
    put(s, "-1,2", "supply-cart")  # any different: not counted
    put(s, "0,3", "meadow")  # sheep, but two cells away
    s = do(s, 0, "/trolley build trading-house 0,1")
    assert vp(s) == 2 * 4  # wood (Forest, Kiln), stone (Mountain), wheat, coal


# ================================================================ production


def test_production_gain_fixed_amount_until_the_tile_is_full() -> None:
    s = game(2)
    put(s, "0,1", "sheepfold")
    s = next_round(s)
    assert res(s, "0,1") == {"sheep": 1}
    s = next_round(s)
    assert res(s, "0,1") == {"sheep": 2}
    s = next_round(s)
    assert res(s, "0,1") == {"sheep": 2}  # two spaces


def test_production_gain_per_surrounding_building_with_wheat() -> None:
    s = game(2)
    put(s, "0,1", "granary")
    put(s, "1,1", "field")  # wheat drawn
    put(s, "-1,2", "bakery")  # wheat drawn (diagonal)
    put(s, "-1,1", "charcoal-kiln")  # no wheat
    put(s, "0,3", "field")  # wheat, two cells away
    s = next_round(s)
    assert res(s, "0,1") == {"wheat": 2}
    s = next_round(s)
    assert res(s, "0,1") == {"wheat": 4}
    s = next_round(s)
    assert res(s, "0,1") == {"wheat": 4}  # four spaces


def test_dairy_gains_a_sheep_when_built_then_scores_per_sheep_here() -> None:
    s = offer(game(2), "dairy")
    s = do(s, 0, "/trolley build dairy 0,1")
    assert res(s, "0,1") == {"sheep": 1} and vp(s) == 0
    s = next_round(s)
    assert vp(s) == 1 and res(s, "0,1") == {"sheep": 1}
    hold(s, "0,1", sheep=4)
    s = next_round(s)
    assert vp(s) == 1 + 4 and town(s)["scored"] == {"production": 5}


def test_production_score_per_surrounding_processor() -> None:
    s = game(2)
    put(s, "0,1", "repair-shop")
    put(s, "-1,1", "bakery")  # processing
    put(s, "1,1", "charcoal-kiln")  # processing
    put(s, "1,2", "market-stall")  # processing
    put(s, "-1,2", "warehouse")  # converts at game end, not processing
    put(s, "0,2", "ranch")  # game-end score
    put(s, "0,3", "bakery")  # two cells away
    s = next_round(s)
    assert vp(s) == 3


def test_production_score_per_surrounding_building() -> None:
    s = game(2)
    put(s, "0,1", "fairground")
    lay(s, "-1,1", "straight", 0)
    put(s, "1,2", "field")
    s = next_round(s)
    assert vp(s) == 3  # Forest, Mountain, Field; not the route


def _network(s: dict, centre: str = "tram-depot") -> dict:
    """``centre`` at 0,1 (edge to edge with the Forest, no route between).
    Linked by routes: a Bakery (0,3) below, a Kiln (-2,1) to the west, a Ranch (1,3) by a curve
    and a straight to the east. A Field (0,5) hangs off the Bakery, connected only through it."""
    put(s, "0,1", centre)
    lay(s, "0,2", "straight", 90)
    put(s, "0,3", "bakery")
    lay(s, "0,4", "straight", 90)
    put(s, "0,5", "field")
    lay(s, "-1,1", "straight", 0)
    put(s, "-2,1", "charcoal-kiln")
    lay(s, "1,1", "curve", 0)  # W (the centre) and S; closed to the Mountain above
    lay(s, "1,2", "straight", 90)
    put(s, "1,3", "ranch")  # beside the Bakery: no link between them
    return s


def test_production_score_per_building_connected_by_routes_only() -> None:
    s = next_round(_network(game(2)))
    assert vp(s) == 3  # Bakery, Kiln, Ranch: not the Field behind the Bakery, not the Forest beside it


# ---------------------------------------------------------------- trigger


def test_trigger_runs_surrounding_productions_again() -> None:
    s = game(2)
    put(s, "0,1", "water-wheel")
    put(s, "1,1", "sheepfold")
    put(s, "-1,2", "spinning-shop", sheep=2)
    put(s, "0,3", "spinning-shop", sheep=1)  # two cells away: only its own production
    s = next_round(s)
    assert res(s, "1,1") == {"sheep": 2}  # its own +1 and the trigger's +1
    assert vp(s) == 4 + 4 + 2


def test_trigger_does_not_chain_through_another_trigger() -> None:
    """Water Wheel 0,1 and Boiler House 1,1 side by side; a Spinning Shop beside each only."""
    s = game(2)
    put(s, "0,1", "water-wheel")
    put(s, "1,1", "boiler-house")
    put(s, "-1,2", "spinning-shop", sheep=2)  # around the Water Wheel only
    put(s, "2,2", "spinning-shop", sheep=2)  # around the Boiler House only
    s = next_round(s)
    # each shop: its own 4 + one trigger's 4; a chain would give the second shop 4 more
    assert vp(s) == 16


def test_trigger_skips_wood_and_stone_producers() -> None:
    """The Wasteland is built after the Water Wheel: triggered first it would ask a second time."""
    s = game(2)
    put(s, "0,1", "water-wheel")
    put(s, "-1,1", "wasteland")
    put(s, "1,1", "woodcutters-hut")
    s = done_all(pass_all(s))
    assert town(s)["pending"] == [
        {"cell": "-1,1", "tile": "wasteland", "amount": 1, "options": ["wood", "stone"], "different": False}
    ]
    assert res(s, "1,1") == {"wood": 2}
    s = do(s, 0, "/trolley choose -1,1 stone")
    assert res(s, "-1,1") == {"stone": 1} and s["phase"] == "construction"


# ================================================================ construction


def _builder(s: dict) -> dict:
    """Bob passes at once so ann builds on; ann gets plenty of wood and stone."""
    put(s, "3,0", "woodcutters-hut", wood=2)
    put(s, "2,0", "stone-quarry", stone=3)
    return s


def _ann_builds(s: dict, *commands: str) -> dict:
    """Ann plays ``commands`` on her turns; bob passes on his first turn."""
    for i, command in enumerate(commands):
        s = do(s, 0, command)
        if i == 0:
            s = do(s, 1, "/trolley pass")
    return s


def test_construction_score_for_buildings_in_the_surroundings_only() -> None:
    s = _builder(game(2))
    put(s, "0,1", "roadside-inn")
    s = _ann_builds(s, "/trolley build field -1,1")  # edge neighbour of the Inn
    assert vp(s) == 2
    s = do(s, 0, "/trolley route straight 0,2 90")  # routes are not buildings
    assert vp(s) == 2
    s = do(s, 0, "/trolley build meadow 1,2")  # diagonal to the Inn, touches the route
    assert vp(s) == 4
    s = do(s, 0, "/trolley build bakery 4,0")  # far from the Inn
    assert vp(s) == 4
    assert town(s)["scored"] == {"construction": 4}


def test_construction_gain_in_the_surroundings_up_to_the_spaces() -> None:
    s = _builder(game(2))
    put(s, "0,1", "stonecutters-lodge")
    s = _ann_builds(s, "/trolley build field -1,1")
    assert res(s, "0,1") == {"stone": 1}
    s = do(s, 0, "/trolley build field 1,1")
    assert res(s, "0,1") == {"stone": 2}
    s = do(s, 0, "/trolley build charcoal-kiln 0,2")
    assert res(s, "0,1") == {"stone": 2}  # two spaces
    s = do(s, 0, "/trolley build meadow 4,0")
    assert res(s, "0,1") == {"stone": 2}


def test_construction_score_for_any_building_in_the_town() -> None:
    s = _builder(game(2))
    put(s, "-1,0", "newspaper-office")
    s = _ann_builds(s, "/trolley build field 3,1")  # far away
    assert vp(s) == 2
    s = do(s, 0, "/trolley route straight 0,1 90")
    assert vp(s) == 2
    s = do(s, 0, "/trolley build bakery 0,2")
    assert vp(s) == 4


def test_construction_gain_for_any_building_in_the_town_up_to_the_spaces() -> None:
    s = _builder(game(2))
    put(s, "-1,0", "builders-merchant")
    s = _ann_builds(s, "/trolley build field 3,1")
    assert res(s, "-1,0") == {"wood": 1}
    s = do(s, 0, "/trolley build field 2,1")
    s = do(s, 0, "/trolley build charcoal-kiln 1,1")
    s = do(s, 0, "/trolley build bakery 0,1")
    assert res(s, "-1,0") == {"wood": 3}  # three spaces


def test_the_new_building_does_not_trigger_its_own_construction_effect() -> None:
    s = offer(game(2), "newspaper-office")
    put(s, "0,1", "stone-quarry", stone=3)
    s = do(s, 0, "/trolley build newspaper-office -1,0")
    assert vp(s) == 0


# ---------------------------------------------------------------- discount


def test_discount_takes_one_wood_or_stone_off_a_building_around() -> None:
    s = game(2)
    put(s, "0,1", "builders-yard")
    before = totals(s)
    # Bakery (1 wood + 1 stone) beside the Yard costs one piece, either kind.
    message = rejected(s, 0, "/trolley build bakery -1,1 pay wood 0,0 stone 1,0")
    assert (
        message == "That payment (1 wood + 1 stone) does not match the cost: pay 0 wood + 1 stone or 1 wood + 0 stone."
    )
    s = do(s, 0, "/trolley build bakery -1,1 pay stone 1,0")
    assert totals(s) == {"stone": before["stone"] - 1, "wood": before["wood"]}


def test_discount_is_only_for_buildings_in_the_surroundings() -> None:
    s = game(2)
    put(s, "0,1", "builders-yard")
    s = do(s, 0, "/trolley build bakery 2,0")  # 2,0 is two cells from 0,1: full price
    assert totals(s) == {"stone": 2, "wood": 2}


def test_discount_is_not_for_routes() -> None:
    s = game(2)
    put(s, "0,1", "builders-yard")
    s = do(s, 0, "/trolley route junction -1,1 0")
    assert totals(s) == {"stone": 2, "wood": 2}


def test_discounts_stack_and_never_make_a_building_free() -> None:
    s = game(2)
    put(s, "0,1", "builders-yard")
    put(s, "1,1", "surveyors-office")
    s = _ann_builds(s, "/trolley build ranch 0,2")  # 2 wood + 1 stone, two off: one piece
    assert sum(totals(s).values()) == 6 - 1
    assert vp(s) == 1  # the Surveyor's Office also scores a building around it
    s = do(s, 0, "/trolley build bakery 1,2")  # 2 pieces, two off, never 0: one piece
    assert sum(totals(s).values()) == 6 - 2
    assert vp(s) == 2
    assert "does not match the cost" in rejected(s, 0, "/trolley build field -1,1 pay wood 0,0 wood 0,0")
    s = do(s, 0, "/trolley build field -1,1")  # beside the Yard, but 1 wood stays 1 wood
    assert sum(totals(s).values()) == 6 - 3
    assert vp(s) == 2  # -1,1 is two cells from the Surveyor's Office


def test_discount_makes_a_building_affordable_in_the_legal_moves() -> None:
    s = game(2)
    hold(s, "0,0", wood=1)
    hold(s, "1,0")
    put(s, "-1,0", "builders-yard")
    legal = [(m["tile"], m["cell"]) for m in GAME.legal_moves(s, 0) if m["verb"] == "build"]
    assert ("bakery", "-1,1") in legal  # beside the Yard: 1 piece
    assert ("bakery", "2,0") not in legal  # far from it: 1 wood + 1 stone
    s = do(s, 0, "/trolley build bakery -1,1")
    assert totals(s) == {}


# ================================================================ transport start: pull


def test_pull_moves_pieces_from_any_tile_without_a_route_once_per_allowance() -> None:
    s = game(2)
    put(s, "0,1", "field", wheat=2)
    put(s, "2,0", "goods-hoist")  # no routes anywhere
    s = to_transport(s)
    assert town(s)["pull"] == {"2,0": 1}
    s = do(s, 0, "/trolley move wheat 0,1 2,0")
    assert res(s, "2,0") == {"wheat": 1} and town(s)["pull"] == {"2,0": 0}
    assert "No route carries wheat" in rejected(s, 0, "/trolley move wheat 0,1 2,0")
    assert "takes only resources drawn on it" in rejected(s, 0, "/trolley move wood 0,0 2,0")


def test_pull_of_two_and_any_resources() -> None:
    s = game(2)
    put(s, "2,0", "freight-depot")
    s = to_transport(s)
    s = do(s, 0, "/trolley move wood 0,0 2,0 stone 1,0 2,0")
    assert res(s, "2,0") == {"wood": 1, "stone": 1}
    assert "No route carries" in rejected(s, 0, "/trolley move wood 0,0 2,0")
    s = do(s, 0, "/trolley done")
    assert vp(s) == 4 and res(s, "2,0") == {}  # any 2 -> 4 VP


def test_pull_does_not_spend_the_allowance_on_a_routed_move() -> None:
    s = game(2)
    lay(s, "0,1", "straight", 90)
    put(s, "0,2", "freight-depot")
    put(s, "1,1", "field", wheat=2)
    s = to_transport(s)
    s = do(s, 0, "/trolley move wood 0,0 0,2")  # along the route
    assert town(s)["pull"] == {"0,2": 2}
    s = do(s, 0, "/trolley move wheat 1,1 0,2 wheat 1,1 0,2")
    assert town(s)["pull"] == {"0,2": 0} and res(s, "0,2") == {"wood": 1, "wheat": 2}


def test_pull_allowance_returns_with_each_new_transport_step_in_round_four() -> None:
    s = game(1)
    put(s, "0,1", "field", wheat=2)
    put(s, "2,0", "goods-hoist", coal=2)
    while s["round"] < 4:
        s = next_round(s)
    s = to_transport(s)
    s = do(s, 0, "/trolley move wheat 0,1 2,0")
    s = do(s, 0, "/trolley done")  # processing: wheat + coal -> 5
    assert vp(s) == 5 and town(s)["step"] == "processed"
    s, events = play(s, 0, "/trolley move wheat 0,1 2,0")  # a new transport step: a new allowance
    assert "ann transports again." in texts(events)
    assert town(s)["pull"] == {"2,0": 0}
    s = do(s, 0, "/trolley done")
    assert vp(s) == 10
    s = do(s, 0, "/trolley done")
    assert s["phase"] == "finished" and vp(s) == 10


# ================================================================ processing


def test_convert_with_any_resources() -> None:
    s = game(2)
    put(s, "0,1", "market-stall", wood=1, wheat=1, sheep=1)
    s = do(to_transport(s), 0, "/trolley done")
    assert vp(s) == 3 and sum(res(s, "0,1").values()) == 1


def test_convert_with_any_different_resources_as_often_as_possible() -> None:
    s = game(2)
    put(s, "0,1", "general-store", wheat=2, coal=2, sheep=2)
    put(s, "1,1", "general-store", wheat=4, coal=1, sheep=1)
    s = do(to_transport(s), 0, "/trolley done")
    assert vp(s) == 7 * 2 + 7
    assert res(s, "0,1") == {} and res(s, "1,1") == {"wheat": 3}


def test_convert_into_goods_on_the_tile() -> None:
    s = game(2)
    put(s, "0,1", "feed-barn", wheat=4)
    s = do(to_transport(s), 0, "/trolley done")
    assert res(s, "0,1") == {"sheep": 2} and vp(s) == 0


def test_neighbour_bonus_for_each_scoring_conversion_around() -> None:
    s = game(2)
    put(s, "0,1", "guild-hall")
    put(s, "1,1", "windmill", wheat=4)  # around: 2 x (4 + 1)
    put(s, "-1,1", "charcoal-kiln", wood=2)  # around, but converts into coal: no VP, no bonus
    put(s, "0,3", "bakery", wheat=1, coal=1)  # two cells away: 6
    s, events = play(to_transport(s), 0, "/trolley done")
    assert vp(s) == 10 + 6
    assert res(s, "-1,1") == {"coal": 2}
    assert "ann's Windmill at 1,1 converts 2×, +10 VP." in texts(events)


def test_neighbour_bonuses_stack() -> None:
    s = game(2)
    put(s, "0,1", "guild-hall")
    put(s, "2,1", "chamber-of-commerce")
    put(s, "1,1", "windmill", wheat=4)  # around both: 2 x (4 + 1 + 2)
    s = do(to_transport(s), 0, "/trolley done")
    assert vp(s) == 14


def test_neighbour_bonus_is_for_processing_not_game_end_conversions() -> None:
    s = game(2)
    put(s, "0,1", "guild-hall")
    put(s, "1,1", "warehouse", wheat=2, coal=2)  # game end: any 2 -> 4, twice
    s = _game_end(s)
    assert vp(s) == 8 and town(s)["scored"] == {"end": 8}


# ================================================================ game end


def test_end_score_per_sheep_here_with_bonus() -> None:
    s = game(2)
    put(s, "0,1", "show-ground", sheep=5)
    put(s, "0,1", "show-ground", seat=1, sheep=4)
    s = _game_end(s)
    assert vp(s) == 3 * 5 + 3 and vp(s, 1) == 3 * 4


def _park(s: dict, seat: int, tiles_around: int) -> dict:
    put(s, "0,1", "town-park", seat)
    around = ["-1,0", "-1,1", "1,1", "-1,2", "0,2", "1,2"][: tiles_around - 2]  # + Forest and Mountain
    for i, key in enumerate(around):
        if i % 2:
            lay(s, key, "curve", 90, seat)
        else:
            put(s, key, "field", seat)
    return s


def test_end_score_per_surrounding_tile_with_bonus_at_eight() -> None:
    s = game(2)
    _park(s, 0, 8)
    _park(s, 1, 7)
    s = _game_end(s)
    assert vp(s) == 8 + 4 and vp(s, 1) == 7


def test_end_score_per_surrounding_building() -> None:
    s = game(2)
    put(s, "0,1", "town-square")
    lay(s, "-1,1", "straight", 0)
    put(s, "1,2", "field")
    put(s, "0,3", "field")
    s = _game_end(s)
    assert vp(s) == 2 * 3  # Forest, Mountain, Field 1,2


def test_end_score_per_surrounding_building_with_a_resource() -> None:
    s = game(2)
    put(s, "0,1", "grain-exchange")
    put(s, "1,1", "field")  # wheat
    put(s, "-1,1", "bakery")  # wheat
    put(s, "-1,2", "meadow")  # sheep
    put(s, "1,2", "ranch")  # sheep (drawn as "per sheep here")
    put(s, "0,2", "wool-exchange")
    s = _game_end(s)
    # Grain Exchange: Field, Bakery = 6; Wool Exchange (0,2): Meadow, Ranch = 6
    assert vp(s) == 6 + 6


def test_end_score_per_surrounding_processor() -> None:
    s = game(2)
    put(s, "0,1", "industrial-museum")
    put(s, "-1,1", "bakery")
    put(s, "1,1", "boiler-house")
    put(s, "1,2", "warehouse")  # game-end conversion: not a processing effect
    s = _game_end(s)
    assert vp(s) == 3 * 2


@pytest.mark.parametrize(("with_sheep", "expected"), [(True, 3 * 5 + 3), (False, 3 * 4)])
def test_end_score_per_distinct_resource_with_bonus_at_five(with_sheep: bool, expected: int) -> None:
    s = game(2)
    put(s, "0,1", "bazaar")
    put(s, "-1,1", "field")  # wheat
    put(s, "1,1", "charcoal-kiln")  # wood, coal
    put(s, "1,2", "market-stall")  # any: not counted
    if with_sheep:
        put(s, "-1,2", "meadow")  # sheep
    s = _game_end(s)
    assert vp(s) == expected  # + Forest (wood) and Mountain (stone)


def _station_spine(s: dict, seat: int, buildings: int) -> dict:
    """Central Station at 0,1: a building west and east by straights, then a spine of
    junctions below, each opening to one building beside it (10 buildings in all)."""
    put(s, "0,1", "central-station", seat)
    lay(s, "-1,1", "straight", 0, seat)
    put(s, "-2,1", "field", seat)
    lay(s, "1,1", "straight", 0, seat)
    put(s, "2,1", "field", seat)
    for i in range(8):
        y = 2 + i
        west = i % 2 == 0
        lay(s, f"0,{y}", "junction", 90 if west else 270, seat)  # N S W, or N S E
        if 2 + i < buildings:
            put(s, f"{-1 if west else 1},{y}", "field", seat)
    return s


def test_end_score_per_connected_building_with_bonus_at_ten() -> None:
    s = game(2)
    _station_spine(s, 0, 10)
    _station_spine(s, 1, 9)
    s = _game_end(s)
    assert vp(s) == 10 + 5 and vp(s, 1) == 9


def test_end_score_per_connected_building_counts_routes_only() -> None:
    s = _game_end(_network(game(2), "central-station"))
    assert vp(s) == 3


def test_end_convert_any_different() -> None:
    s = game(2)
    put(s, "0,1", "exhibition-hall", wood=1, stone=1, wheat=1, coal=1, sheep=1)
    put(s, "0,1", "exhibition-hall", seat=1, wood=1, stone=1, wheat=1, coal=2)
    s = _game_end(s)
    assert vp(s) == 15 and res(s, "0,1") == {}
    assert vp(s, 1) == 0 and res(s, "0,1", 1) == {"wood": 1, "stone": 1, "wheat": 1, "coal": 2}


def test_end_convert_any() -> None:
    s = game(2)
    put(s, "0,1", "warehouse", wood=3, coal=2, sheep=2)
    s = _game_end(s)
    assert vp(s) == 3 * 4 and sum(res(s, "0,1").values()) == 1


def test_end_effects_run_once_at_the_end_and_not_before() -> None:
    s = game(2)
    put(s, "0,1", "warehouse", wood=2)
    put(s, "1,1", "show-ground", sheep=1)
    for _ in range(3):
        s = answer_defaults(next_round(s))
        assert vp(s) == 0
    s = _game_end(s)
    assert vp(s) == 4 + 3
