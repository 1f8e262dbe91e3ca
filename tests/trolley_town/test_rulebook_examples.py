"""The rulebook's worked examples, each played through real moves.

Towns are laid out on a setup state (Forest 0,0 and Mountain 1,0 as the rulebook's start), then
the phases run by ``/trolley pass``, ``/trolley move`` and ``/trolley done``.
"""

from __future__ import annotations

from games.trolley_town import GAME
from games.trolley_town.content import TILES
from tests.trolley_town.helpers import (
    answer_defaults,
    do,
    done_all,
    game,
    hold,
    lay,
    next_round,
    pass_all,
    play,
    put,
    rejected,
    res,
    texts,
    to_act,
    to_transport,
    town,
    vp,
)


def test_known_tiles_read_as_the_rulebook_draws_them() -> None:
    """The examples below rely on these tiles; the rulebook gives their effects and some spaces."""
    assert TILES["charcoal-kiln"].effects[0].data == {"from": {"wood": 1}, "to": {"coal": 1}}
    assert TILES["bakery"].effects[0].data == {"from": {"wheat": 1, "coal": 1}, "to": {"vp": 6}}
    assert TILES["restaurant"].effects[0].data == {"from": {"wheat": 1, "coal": 1, "sheep": 1}, "to": {"vp": 12}}
    assert TILES["ranch"].spaces == 8 and TILES["large-farm"].spaces == 2 and TILES["wasteland"].spaces == 1
    assert TILES["meadow"].cost == {"wood": 1, "stone": 1}


# ---------------------------------------------------------------- processing


def test_charcoal_kiln_turns_four_wood_into_four_coal() -> None:
    """Forest - route - Charcoal Kiln: the Forest's wood travels to the Kiln, then all of it burns."""
    s = game(2)
    lay(s, "0,1", "straight", 90)  # opens north (Forest) and south (Kiln)
    put(s, "0,2", "charcoal-kiln", wood=1)
    s = to_transport(s)
    s = do(s, 0, "/trolley move wood 0,0 0,2 wood 0,0 0,2 wood 0,0 0,2")
    assert res(s, "0,0") == {} and res(s, "0,2") == {"wood": 4}
    s, events = play(s, 0, "/trolley done")
    assert res(s, "0,2") == {"coal": 4}
    assert vp(s) == 0
    assert "ann's Charcoal Kiln at 0,2 converts 4×." in texts(events)


def test_bakery_with_two_wheat_and_one_coal_scores_six_and_keeps_a_wheat() -> None:
    s = game(2)
    put(s, "0,1", "bakery", wheat=2, coal=1)
    s = do(to_transport(s), 0, "/trolley done")
    assert vp(s) == 6
    assert res(s, "0,1") == {"wheat": 1}
    assert town(s)["scored"] == {"processing": 6}


def test_bakery_with_two_of_each_scores_twice() -> None:
    s = game(2)
    put(s, "0,1", "bakery", wheat=2, coal=1)
    put(s, "1,1", "bakery", wheat=1, coal=2)
    s = do(to_transport(s), 0, "/trolley done")
    assert vp(s) == 12 and res(s, "0,1") == {"wheat": 1} and res(s, "1,1") == {"coal": 1}


def test_restaurant_without_sheep_does_nothing() -> None:
    s = game(2)
    put(s, "0,1", "restaurant", wheat=1, coal=2)
    s = do(to_transport(s), 0, "/trolley done")
    assert vp(s) == 0 and res(s, "0,1") == {"wheat": 1, "coal": 2}


def test_restaurant_with_all_three_scores_twelve() -> None:
    s = game(2)
    put(s, "0,1", "restaurant", wheat=1, coal=1, sheep=1)
    s = do(to_transport(s), 0, "/trolley done")
    assert vp(s) == 12 and res(s, "0,1") == {}


# ---------------------------------------------------------------- game end


def test_ranch_with_eight_sheep_scores_thirty_at_game_end_only() -> None:
    s = game(2)
    put(s, "0,1", "ranch", sheep=8)
    put(s, "0,1", "ranch", seat=1, sheep=7)
    while s["round"] < 4:
        s = next_round(s)
        assert vp(s) == 0 and vp(s, 1) == 0  # nothing before the end
    s = pass_all(s)
    s = do(s, 0, "/trolley done")
    s = do(s, 0, "/trolley done")
    assert s["phase"] == "transport" and vp(s) == 0  # bob still playing: the game has not ended
    s = do(s, 1, "/trolley done")
    s, events = play(s, 1, "/trolley done")
    assert s["phase"] == "finished"
    assert vp(s) == 3 * 8 + 6 == 30
    assert vp(s, 1) == 3 * 7 == 21  # no bonus below 8 sheep
    assert town(s)["scored"] == {"end": 30}
    assert "ann's Ranch at 0,1: +30 VP at game end." in texts(events)


# ---------------------------------------------------------------- production


def test_spinning_shop_with_two_sheep_scores_four_each_production_and_keeps_them() -> None:
    s = game(2)
    put(s, "0,1", "spinning-shop", sheep=2)
    s = next_round(s)
    assert vp(s) == 4 and res(s, "0,1") == {"sheep": 2}
    assert town(s)["scored"] == {"production": 4}
    s = next_round(s)
    assert vp(s) == 8 and res(s, "0,1") == {"sheep": 2}


def test_meadow_places_two_sheep_when_built() -> None:
    s = game(2)
    s, events = play(s, 0, "/trolley build meadow 0,1")
    assert res(s, "0,1") == {"sheep": 2}
    assert res(s, "0,0") == {"wood": 2} and res(s, "1,0") == {"stone": 2}  # paid 1 wood + 1 stone
    assert "ann's Meadow at 0,1: +2 sheep." in texts(events)
    assert to_act(s) == (1,)


def test_field_with_no_empty_space_produces_nothing() -> None:
    s = game(2)
    put(s, "0,1", "field", wheat=2)
    put(s, "1,1", "field", wheat=1)
    put(s, "2,0", "field")
    s = next_round(s)
    assert res(s, "0,1") == {"wheat": 2}  # full: nothing
    assert res(s, "1,1") == {"wheat": 2}  # one empty space: one wheat
    assert res(s, "2,0") == {"wheat": 2}


def test_large_farm_with_two_empty_spaces_produces_two() -> None:
    s = game(2)
    put(s, "0,1", "large-farm")
    put(s, "1,1", "large-farm", wheat=1)
    s = next_round(s)
    assert res(s, "0,1") == {"wheat": 2} and res(s, "1,1") == {"wheat": 2}


def test_forest_and_mountain_fill_their_three_spaces() -> None:
    s = game(2)
    hold(s, "0,0", wood=2)
    hold(s, "1,0")
    s = next_round(s)
    assert res(s, "0,0") == {"wood": 3} and res(s, "1,0") == {"stone": 3}


def test_wasteland_asks_wood_or_stone_and_construction_waits() -> None:
    s = game(2)
    put(s, "0,1", "wasteland")
    s = done_all(pass_all(s))
    assert s["phase"] == "production" and s["round"] == 2
    assert to_act(s) == (0,)
    assert GAME.legal_moves(s, 0) == [
        {"verb": "choose", "cell": "0,1", "resources": ["wood"]},
        {"verb": "choose", "cell": "0,1", "resources": ["stone"]},
    ]
    assert "First choose for your Wasteland at 0,1" in rejected(s, 0, "/trolley pass")
    assert "Choose from wood, stone" in rejected(s, 0, "/trolley choose 0,1 wheat")
    assert "It is not your move" in rejected(s, 1, "/trolley pass")
    s, events = play(s, 0, "/trolley choose 0,1 stone")
    assert res(s, "0,1") == {"stone": 1}
    assert s["phase"] == "construction" and to_act(s) == (1,)  # bob starts round 2
    assert "ann takes stone on the Wasteland." in texts(events)


def test_wasteland_default_is_what_the_town_holds_least_of() -> None:
    """The moderator's skip (rules.skip_move) answers with the scarcer of wood and stone."""
    more_wood = game(2)
    put(more_wood, "0,1", "wasteland")
    put(more_wood, "1,1", "woodcutters-hut")  # fills 2 more wood
    s = answer_defaults(done_all(pass_all(more_wood)))
    assert res(s, "0,1") == {"stone": 1}

    more_stone = game(2)
    put(more_stone, "0,1", "wasteland")
    put(more_stone, "1,1", "stone-quarry")  # fills 3 more stone
    s = answer_defaults(done_all(pass_all(more_stone)))
    assert res(s, "0,1") == {"wood": 1}


def test_wasteland_default_on_a_tie_takes_wood_first() -> None:
    s = game(2)
    put(s, "0,1", "wasteland")
    s = done_all(pass_all(s))
    assert GAME.skip_move(s, 0) == {"verb": "choose", "cell": "0,1", "resources": ["wood"]}


def test_a_full_wasteland_asks_nothing() -> None:
    s = game(2)
    put(s, "0,1", "wasteland", stone=1)
    s = done_all(pass_all(s))
    assert s["phase"] == "construction" and town(s)["pending"] == []


# ---------------------------------------------------------------- transport


def _field_forest_bakery(s: dict, seat: int = 0) -> dict:
    """Field - route - Forest - route - Bakery (the rulebook's expert example)."""
    put(s, "-2,0", "field", seat, wheat=2)
    lay(s, "-1,0", "straight", 0, seat)  # W-E: Field to Forest
    lay(s, "0,1", "straight", 90, seat)  # N-S: Forest to Bakery
    put(s, "0,2", "bakery", seat)
    return s


def test_transport_passes_through_a_building() -> None:
    s = to_transport(_field_forest_bakery(game(2)))
    s = do(s, 0, "/trolley move wheat -2,0 0,2 wheat -2,0 0,2")
    assert res(s, "-2,0") == {} and res(s, "0,2") == {"wheat": 2}


def test_no_transport_between_adjacent_buildings_without_a_route() -> None:
    s = game(2)
    put(s, "0,1", "field", wheat=2)
    put(s, "1,1", "bakery")  # side by side with the Field, no route between
    put(s, "-1,0", "charcoal-kiln")  # side by side with the Forest
    s = to_transport(s)
    message = rejected(s, 0, "/trolley move wheat 0,1 1,1")
    assert message == "No route carries wheat from 0,1 to 1,1. Lay routes between them first."
    assert "No route carries wood" in rejected(s, 0, "/trolley move wood 0,0 -1,0")
    assert {"verb": "move", "moves": [["wheat", "0,1", "1,1"]]} not in GAME.legal_moves(s, 0)


def test_a_route_that_does_not_open_towards_a_tile_does_not_connect_it() -> None:
    s = game(2)
    put(s, "-2,0", "field", wheat=1)
    lay(s, "-1,0", "straight", 90)  # N-S: its side faces the Field and the Forest
    put(s, "-1,1", "bakery")  # below the route: connected to the route, not to the Field
    s = to_transport(s)
    assert "No route carries wheat" in rejected(s, 0, "/trolley move wheat -2,0 -1,1")


def test_expert_rule_blocks_wheat_through_the_forest_for_that_player_only() -> None:
    s = game(2, expert=["ann"])
    _field_forest_bakery(s, 0)
    _field_forest_bakery(s, 1)
    s = to_transport(s)
    message = rejected(s, 0, "/trolley move wheat -2,0 0,2")
    assert message == (
        "No route carries wheat from -2,0 to 0,2 (expert rule: buildings pass only their own resources). "
        "Lay routes between them first."
    )
    assert not [m for m in GAME.legal_moves(s, 0) if m["verb"] == "move" and m["moves"][0][0] == "wheat"]
    basic = do(s, 1, "/trolley move wheat -2,0 0,2")  # bob plays the basic rule
    assert res(basic, "0,2", 1) == {"wheat": 1}


def test_expert_rule_lets_a_resource_through_a_building_that_draws_it() -> None:
    """Field - route - Bakery - route - Bakery: wheat is drawn on the Bakery, so it passes."""
    s = game(2, expert=["ann"])
    put(s, "0,1", "field", wheat=1)
    lay(s, "0,2", "straight", 90)
    put(s, "0,3", "bakery")
    lay(s, "0,4", "straight", 90)
    put(s, "0,5", "bakery")
    s = do(to_transport(s), 0, "/trolley move wheat 0,1 0,5")
    assert res(s, "0,5") == {"wheat": 1} and res(s, "0,3") == {}


def test_expert_rule_still_lets_a_piece_stop_on_a_building_that_takes_it() -> None:
    s = game(2, expert=["ann"])
    lay(s, "0,1", "straight", 90)
    put(s, "0,2", "charcoal-kiln")
    s = do(to_transport(s), 0, "/trolley move wood 0,0 0,2")
    assert res(s, "0,2") == {"wood": 1}


def test_expert_off_drops_the_rule_for_the_rest_of_the_game() -> None:
    s = to_transport(_field_forest_bakery(game(2, expert=["1"])))
    assert town(s)["expert"] is True
    s, events = play(s, 0, "/trolley expert off")
    assert town(s)["expert"] is False
    assert texts(events) == ["ann drops the expert rule and plays with the basic transport rules."]
    s = do(s, 0, "/trolley move wheat -2,0 0,2")
    assert res(s, "0,2") == {"wheat": 1}
    assert "already playing with the basic" in rejected(s, 0, "/trolley expert off")
    assert "already playing with the basic" in rejected(s, 1, "/trolley expert off")


def test_destination_needs_an_empty_space() -> None:
    s = game(2)
    lay(s, "0,1", "straight", 90)
    put(s, "0,2", "charcoal-kiln", wood=3, coal=1)
    s = to_transport(s)
    assert rejected(s, 0, "/trolley move wood 0,0 0,2") == "The Charcoal Kiln at 0,2 is full (4 spaces)."
    assert not [m for m in GAME.legal_moves(s, 0) if m["verb"] == "move" and m["moves"][0][2] == "0,2"]


def test_capacity_counts_pieces_already_moved_in_the_same_command() -> None:
    s = game(2)
    lay(s, "0,1", "straight", 90)
    put(s, "0,2", "charcoal-kiln", wood=2)
    s = to_transport(s)
    assert "is full" in rejected(s, 0, "/trolley move wood 0,0 0,2 wood 0,0 0,2 wood 0,0 0,2")
    s = do(s, 0, "/trolley move wood 0,0 0,2 wood 0,0 0,2")
    assert res(s, "0,2") == {"wood": 4} and res(s, "0,0") == {"wood": 1}


def test_only_related_resources_may_be_placed() -> None:
    """Field: wheat only; Charcoal Kiln: wood and coal only; Restaurant: wheat, coal and sheep only."""
    s = game(2)
    lay(s, "0,1", "junction", 0)  # W E S: Field, Restaurant and Kiln around it
    put(s, "-1,1", "field")
    put(s, "1,1", "restaurant")
    lay(s, "0,2", "straight", 90)
    put(s, "0,3", "charcoal-kiln", coal=1)
    s = to_transport(s)
    # The Forest sits north of the junction, which is closed there: lay a link from the Mountain.
    assert "No route carries" in rejected(s, 0, "/trolley move wood 0,0 0,3")
    assert rejected(s, 0, "/trolley move coal 0,3 -1,1") == "The Field at -1,1 takes only resources drawn on it: wheat."
    s = do(s, 0, "/trolley move coal 0,3 1,1")
    assert res(s, "1,1") == {"coal": 1} and res(s, "0,3") == {}


def test_related_resources_messages_name_what_the_tile_takes() -> None:
    s = game(2)
    lay(s, "0,1", "straight", 90)
    put(s, "0,2", "restaurant")
    lay(s, "1,1", "straight", 90)
    put(s, "1,2", "charcoal-kiln")
    s = to_transport(s)
    assert rejected(s, 0, "/trolley move wood 0,0 0,2") == (
        "The Restaurant at 0,2 takes only resources drawn on it: coal, sheep, wheat."
    )
    assert rejected(s, 0, "/trolley move stone 1,0 1,2") == (
        "The Charcoal Kiln at 1,2 takes only resources drawn on it: coal, wood."
    )
