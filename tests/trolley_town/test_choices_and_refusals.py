"""A moderator's default for a pending choice (what the town holds least of, different resources
when the tile says so), kicks in a game saved before kicks were recorded, cost texts, and the
refusals of malformed moves, word for word."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.base import IllegalMove
from games.trolley_town import GAME
from games.trolley_town.payment import Need
from games.trolley_town.rules import resign
from tests.trolley_town.helpers import (
    do,
    done_all,
    empty_start,
    game,
    hold,
    lay,
    next_round,
    offer,
    pass_all,
    play,
    put,
    texts,
    to_transport,
    town,
)


def refused(state: dict[str, Any], seat: int, move: Any) -> str:
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalMove) as info:
        GAME.apply(state, seat, move)
    assert json.dumps(state, sort_keys=True) == before
    return info.value.message


def built(slug: str) -> dict[str, Any]:
    """ann builds ``slug`` at -1,0 holding 1 wheat on a Field (and none of coal or sheep)."""
    state = game(2)
    offer(state, slug)
    put(state, "0,1", "field", wheat=1)
    state, events = play(state, 0, f"/trolley build {slug} -1,0")
    assert GAME.status(state).summary == "Round 1 · Construction: ann to choose (/trolley choose)"
    return state


def test_the_default_for_different_resources_takes_the_two_held_least() -> None:
    state = built("supply-cart")
    assert town(state)["pending"] == [
        {
            "cell": "-1,0",
            "tile": "supply-cart",
            "amount": 2,
            "options": ["wood", "stone", "wheat", "coal", "sheep"],
            "different": True,
        }
    ]
    # coal and sheep: none held; wheat: 1 held; wood and stone: more.
    assert GAME.skip_move(state, 0) == {"verb": "choose", "cell": "-1,0", "resources": ["coal", "sheep"]}


def test_the_default_for_any_resources_repeats_the_one_held_least() -> None:
    state = built("trading-post")
    assert town(state)["pending"][0]["amount"] == 3 and town(state)["pending"][0]["different"] is False
    assert GAME.skip_move(state, 0) == {"verb": "choose", "cell": "-1,0", "resources": ["coal", "coal", "coal"]}


def test_different_resources_are_checked_and_the_choice_is_for_the_pending_cell() -> None:
    state = built("supply-cart")
    move = {"verb": "choose", "cell": "-1,0", "resources": ["coal", "coal"]}
    assert refused(state, 0, move) == "These must be different resources."
    assert refused(state, 0, {**move, "cell": "0,1"}) == "Your next choice is for the Supply Cart at -1,0."
    assert (
        refused(state, 0, {**move, "resources": ["coal"]}) == "Name 2 resource(s) from wood, stone, wheat, coal, sheep."
    )
    assert (
        refused(state, 0, {**move, "resources": "coal"}) == "Name 2 resource(s) from wood, stone, wheat, coal, sheep."
    )
    state, events = GAME.apply(state, 0, {**move, "resources": ["coal", "sheep"]})
    assert texts(events)[0] == "ann takes coal + sheep on the Supply Cart."
    assert town(state)["cells"]["-1,0"]["r"] == {"coal": 1, "sheep": 1}
    assert GAME.status(state).to_act == (1,)  # the choice ended ann's construction turn


def test_a_kick_in_a_game_saved_before_kicks_were_recorded() -> None:
    state = game(3)
    del state["kicked"]
    new, events = GAME.kick(state, 1)
    assert new["kicked"] == [False, True, False]
    assert texts(events)[0] == "bob was kicked by a moderator."
    rows = {row["seat"]: row for row in GAME.standings(new)}
    assert rows[1]["title"] == "kicked"
    gone, _ = resign(state, 2)
    assert {row["seat"]: row for row in GAME.standings(gone)}[2]["title"] == "resigned"


def test_cost_texts() -> None:
    assert Need(0, 0).text() == "nothing"
    assert Need(1, 1, 0, 1).text() == "1 wood + 1 stone, 1 off"
    assert Need(2, 0).text() == "2 wood"
    assert Need(0, 0, 2).text() == "2 wood/stone"


@pytest.mark.parametrize("players", [0, 5])
def test_one_to_four_players(players: int) -> None:
    with pytest.raises(IllegalMove) as info:
        GAME.setup(["p"] * players, {}, 1)
    assert info.value.message == "My Trolley Town is for 1-4 players."


ROUTE_REFUSALS = [
    ({"verb": "route", "routes": []}, "Name at least one route: kind x,y rotation."),
    ({"verb": "route"}, "Name at least one route: kind x,y rotation."),
    ({"verb": "route", "routes": "straight"}, "Name at least one route: kind x,y rotation."),
    ({"verb": "upgrade", "cells": []}, "Name at least one route: kind x,y rotation."),
    ({"verb": "route", "routes": [["straight", "0,1"]]}, "Each route is kind x,y rotation."),
    ({"verb": "route", "routes": ["straight 0,1 0"]}, "Each route is kind x,y rotation."),
    (
        {"verb": "route", "routes": [["tunnel", "0,1", 0]]},
        "Route kinds: straight, curve, junction (or upgrade); rotations 0, 90, 180, 270.",
    ),
    (
        {"verb": "route", "routes": [["straight", "0,1", 45]]},
        "Route kinds: straight, curve, junction (or upgrade); rotations 0, 90, 180, 270.",
    ),
    ({"verb": "fly"}, "Unknown command 'fly'."),
    ({"nothing": 1}, "That is not a move."),
    ("pass", "That is not a move."),
]


@pytest.mark.parametrize(("move", "message"), ROUTE_REFUSALS)
def test_malformed_construction_moves(move: Any, message: str) -> None:
    assert refused(game(2), 0, move) == message


TRANSPORT_REFUSALS = [
    ({"verb": "move", "moves": []}, "Name at least one transport: resource from to."),
    ({"verb": "move"}, "Name at least one transport: resource from to."),
    ({"verb": "move", "moves": "wood"}, "Name at least one transport: resource from to."),
    ({"verb": "move", "moves": [["wood", "0,0"]]}, "Each transport is resource from to."),
    ({"verb": "move", "moves": ["wood 0,0 1,0"]}, "Each transport is resource from to."),
]


@pytest.mark.parametrize(("move", "message"), TRANSPORT_REFUSALS)
def test_malformed_transports(move: Any, message: str) -> None:
    assert refused(to_transport(game(2)), 0, move) == message


def test_a_seat_out_of_range_cannot_resign() -> None:
    state = game(2)
    for seat in (-1, 2):
        with pytest.raises(IllegalMove) as info:
            resign(state, seat)
        assert info.value.message == "You are not playing in this game."


def test_skip_is_pass_in_construction_and_done_in_transport() -> None:
    state = game(2)
    assert GAME.skip_move(state, 0) == {"verb": "pass"}
    assert GAME.skip_move(to_transport(state), 1) == {"verb": "done"}


def test_resigning_with_the_only_pending_production_choice_opens_construction() -> None:
    state = game(3)
    put(state, "0,1", "wasteland")
    state = done_all(pass_all(state))
    assert GAME.status(state).summary == "Round 2 · Production: ann to choose (/trolley choose)"
    new, events = resign(state, 0)
    assert texts(events) == ["ann resigns.", "bob to build, lay routes or pass."]
    assert (new["phase"], new["turn"]) == ("construction", 1)
    assert town(new)["pending"] == []
    # Someone else resigning leaves the choice waiting.
    other, events = resign(state, 2)
    assert texts(events) == ["cat resigns."] and other["phase"] == "production"


def test_resign_refusals_word_for_word() -> None:
    state = game(2)
    gone, _ = resign(game(3), 1)
    with pytest.raises(IllegalMove) as info:
        resign(gone, 1)
    assert info.value.message == "You are not playing in this game."
    over, _ = resign(state, 1)
    assert over["phase"] == "finished"
    with pytest.raises(IllegalMove) as info:
        resign(over, 0)
    assert info.value.message == "The game is over."


def test_resigning_out_of_turn_leaves_the_turn_and_clears_the_town_s_step() -> None:
    state = game(3)
    new, events = resign(state, 2)
    assert events == [{"text": "cat resigns.", "post_board": True}]
    assert (new["turn"], new["passed"], GAME.status(new).to_act) == (0, [False, False, True], (0,))
    moving = to_transport(game(3))
    assert town(moving, 1)["step"] == "transport"
    new, events = resign(moving, 1)
    assert events == [{"text": "bob resigns.", "post_board": True}]
    assert (moving["move_number"], new["move_number"]) == (3, 4)
    assert town(new, 1)["step"] == "" and town(new, 1)["pending"] == []
    assert (new["phase"], GAME.status(new).to_act) == ("transport", (0, 2))


@pytest.mark.parametrize(
    ("pay", "message"),
    [
        ("wood", "Payment is a list of resource x,y pairs."),
        ([["wood"]], "Payment is a list of resource x,y pairs."),
        ([["wood", "0,0"], "stone"], "Payment is a list of resource x,y pairs."),
        ([["wood", "0,0", "1"]], "Payment is a list of resource x,y pairs."),
        ([["wheat", "0,0"]], "Pay with wood and stone only."),
        ([["wood", "5,5"]], "There are not 1 wood on your tile at 5,5."),
        ([["wood", "1,0"]], "There are not 1 wood on your tile at 1,0."),
    ],
)
def test_malformed_payments(pay: Any, message: str) -> None:
    move = {**GAME.parse("/trolley build field 0,1"), "pay": pay}
    assert refused(game(2), 0, move) == message


def test_construction_waits_for_every_pending_production_choice() -> None:
    state = game(2)
    put(state, "0,1", "wasteland")
    put(state, "0,1", "wasteland", seat=1)
    state = done_all(pass_all(state))
    assert GAME.status(state).summary == "Round 2 · Production: ann, bob to choose (/trolley choose)"
    state, events = play(state, 0, "/trolley choose 0,1 wood")
    assert texts(events) == ["ann takes wood on the Wasteland."]
    assert state["phase"] == "production" and GAME.status(state).to_act == (1,)
    state, events = play(state, 1, "/trolley choose 0,1 stone")
    assert texts(events) == ["bob takes stone on the Wasteland.", "bob to build, lay routes or pass."]
    assert (state["phase"], state["turn"]) == ("construction", 1)


def test_a_town_without_wood_or_stone_can_only_pass() -> None:
    state = game(2)
    empty_start(state)
    assert GAME.legal_moves(state, 0) == [{"verb": "pass"}]


def test_a_trigger_s_second_production_is_said_and_scored_as_production() -> None:
    state = game(2)
    put(state, "0,1", "water-wheel")
    put(state, "1,1", "sheepfold")
    put(state, "-1,2", "spinning-shop", sheep=2)
    state = do(pass_all(state), 0, "/trolley done")
    state, events = play(state, 1, "/trolley done")
    assert texts(events) == [
        "bob processes. Nothing to convert.",
        "Round 2 begins; bob is the start player.",
        "Round 2: production.",
        "ann's Sheepfold at 1,1: +1 sheep.",
        "ann's Spinning Shop at -1,2: +4 VP.",
        "ann's Sheepfold at 1,1: +1 sheep.",  # the Water Wheel runs its neighbours again
        "ann's Spinning Shop at -1,2: +4 VP.",
        "bob to build, lay routes or pass.",
    ]
    assert town(state)["scored"] == {"production": 8} and town(state)["vp"] == 8


def _last_dones(players: int, points: list[int]) -> tuple[dict[str, Any], list[str]]:
    """Round 4's transport with these VP, everyone done twice; the state and the last done's texts."""
    state = game(players)
    while state["round"] < 4:
        state = next_round(state)
    state = pass_all(state)
    for seat, vp in enumerate(points):
        state["towns"][seat]["vp"] = vp
    events: list[Any] = []
    while state["phase"] == "transport":
        state, events = play(state, GAME.status(state).to_act[0], "/trolley done")
    return state, texts(events)


def test_the_game_over_line_names_the_winner_or_the_winners() -> None:
    state, said = _last_dones(3, [5, 2, 5])
    assert said[-1] == "Game over: ann and cat win with 5 VP."
    assert GAME.status(state).summary == "Game over: ann and cat with 5 VP"
    state, said = _last_dones(2, [0, 3])
    assert said[-1] == "Game over: bob wins with 3 VP."
    assert GAME.status(state).summary == "Game over: bob with 3 VP"


def test_the_solo_cleanup_status_and_undo_scope() -> None:
    state = done_all(pass_all(game(1)))
    assert GAME.status(state).summary == "Round 1 · End of round: ann to remove tiles"
    assert GAME.undo_scope(state) == (1, "cleanup")


@pytest.mark.parametrize(
    "move",
    [{"verb": "build", "tile": "field", "cell": 5}, {"verb": "route", "routes": [["straight", 5, 0]]}],
)
def test_a_cell_must_be_named_as_text(move: Any) -> None:
    assert refused(game(2), 0, move) == "Name a cell x,y."


def test_a_route_holds_nothing_to_pay_with() -> None:
    state = lay(game(2), "-1,0", "straight")
    move = {**GAME.parse("/trolley build field 0,1"), "pay": [["wood", "-1,0"]]}
    assert refused(state, 0, move) == "There are not 1 wood on your tile at -1,0."


def test_one_piece_pays_an_upgrade_and_a_junction_is_not_upgraded_again() -> None:
    state = empty_start(game(2))
    hold(state, "0,0", wood=1)
    lay(state, "0,1", "straight", 90)
    lay(state, "-1,0", "junction", 0)
    upgrades = [m for m in GAME.legal_moves(state, 0) if m["verb"] == "upgrade"]
    assert upgrades == [{"verb": "upgrade", "cells": [["0,1", 90]]}, {"verb": "upgrade", "cells": [["0,1", 270]]}]


def test_solo_removals_from_a_market_with_an_empty_side() -> None:
    """With no V tile visible only 2 A/B tiles are removed; with no A/B tile only 1 V tile."""
    no_v = done_all(pass_all(game(1)))
    no_v["market"]["v"] = [[], []]
    moves = GAME.legal_moves(no_v, 0)
    assert len(moves) == 28 and moves[0] == {"verb": "remove", "tiles": ["stonecutters-lodge", "builders-yard"]}
    no_ab = done_all(pass_all(game(1)))
    market = no_ab["market"]
    market["row"], market["a"], market["b"] = [None] * len(market["row"]), [], []
    assert GAME.legal_moves(no_ab, 0) == [
        {"verb": "remove", "tiles": ["central-station"]},
        {"verb": "remove", "tiles": ["wool-exchange"]},
    ]
