"""Every refusal and event text of the Tiny Towns move handlers, word for word, on the real engine.

The other tests check refusals with ``in`` (a fragment); a changed word, a swapped name or a wrong count in
the rest of the sentence passed them. Each case here names the situation, the move (as the parser would
produce it) and the whole message. Refusals must also leave the caller's state untouched.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from types import MappingProxyType
from typing import Any

import pytest

from games.base import IllegalMove
from games.options import parse_options
from games.tiny_towns import GAME
from tests.tiny_towns.helpers import game, play, play_all, with_town

State = dict[str, Any]

WELL_READY = "W . . . / . . . . / . . . . / . . . ."  # a stone beside the wood makes a Well possible
REACTIVE = "factory:brick warehouse:stone+wood cottage . / S S S S / S S S S / S S S ."
FULL_WAREHOUSE = "factory:brick warehouse:stone+wood+wood cottage . / S S S S / S S S S / S S S ."


def refusal(state: State, seat: int, move: Any) -> str:
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalMove) as caught:
        GAME.apply(state, seat, move)
    assert json.dumps(state, sort_keys=True) == before
    return caught.value.message


def standard(seat1: str = ". . . . / . . . . / . . . . / . . . .", **fields: Any) -> State:
    return with_town(game(2, cave="on"), 1, seat1, **fields)


def named(resource: str = "wood", seat1: str = ". . . . / . . . . / . . . . / . . . .", **fields: Any) -> State:
    """Seat 0 (the Master Builder) has named ``resource``; seat 1 holds ``seat1``."""
    state, _ = play(standard(seat1, **fields), 0, f"/tt announce {resource}")
    return state


def monuments() -> State:
    options = parse_options("monuments=grove,starloom,fort,sky-baths", GAME.options)
    return GAME.setup(["ann", "bob"], options, 1)


def solo() -> State:
    state = GAME.setup(["sol"], parse_options("buildings=first-game", GAME.options), 4)
    state["solo"]["revealed"] = ["wood", "brick", "stone"]
    return state


def hall(round_no: int) -> State:
    state = GAME.setup(["p0", "p1"], parse_options("variant=town-hall buildings=first-game", GAME.options), 4)
    squares = ["A1", "B1", "C1"]
    while state["round"] < round_no:
        free = " wood" if state["source"] == "free" else ""
        for seat in (0, 1):
            state, _ = play(state, seat, f"/tt place {squares[state['round'] - 1]}{free}")
    return state


def finished() -> State:
    state, _ = GAME.resign(game(2), 0)
    state, _ = GAME.resign(state, 1)
    return state


def placed_with_claims() -> State:
    state = play_all(standard(WELL_READY), [(0, "/tt announce stone"), (1, "/tt place B1")])
    state["towns"][1].update(pending_claims=["farm", "well"], aside=["farm", "well", "chapel"])
    return state


CASES: list[tuple[str, Callable[[], State], int, Any, str]] = [
    # apply
    ("not a mapping", standard, 0, ["place", "A1"], "A move must be a command such as /tt place B2."),
    (
        "unknown verb",
        standard,
        0,
        {"verb": "fly"},
        "Unknown command 'fly': use monument, announce, place, store, cave, build, claim, done.",
    ),
    # _require_town_in_play
    ("finished", finished, 0, {"verb": "place", "cell": "A1"}, "The game is over."),
    ("no such seat", named, 2, {"verb": "place", "cell": "A1"}, "You are not playing in this game."),
    ("negative seat", named, -1, {"verb": "place", "cell": "A1"}, "You are not playing in this game."),
    (
        "resigned",
        lambda: named(resigned=True),
        1,
        {"verb": "place", "cell": "A1"},
        "You have left this game.",
    ),
    (
        "complete",
        lambda: named(complete=True),
        1,
        {"verb": "place", "cell": "A1"},
        "Your town is complete: you have nothing more to do this game.",
    ),
    # _cell, _resource
    (
        "not a square",
        named,
        1,
        {"verb": "place", "cell": "E5"},
        "'E5' is not a square: use A1 to D4 (column letter, then row number).",
    ),
    (
        "no square",
        named,
        1,
        {"verb": "place"},
        "None is not a square: use A1 to D4 (column letter, then row number).",
    ),
    (
        "not a resource",
        named,
        1,
        {"verb": "place", "cell": "A1", "resource": "mud"},
        "'mud' is not a resource: choose wood, wheat, brick, glass, stone.",
    ),
    # _waiting_phase_error
    (
        "placing in the monuments phase",
        monuments,
        0,
        {"verb": "place", "cell": "A1"},
        "First every player keeps one of their two monuments: /tt monument <name>.",
    ),
    (
        "naming in the monuments phase",
        monuments,
        0,
        {"verb": "announce", "resource": "wood"},
        "First every player keeps one of their two monuments: /tt monument <name>.",
    ),
    (
        "solo placing before picking",
        solo,
        0,
        {"verb": "place", "cell": "A1"},
        "First pick one of the revealed resources: /tt announce <resource>.",
    ),
    (
        "master builder placing before naming",
        standard,
        0,
        {"verb": "place", "cell": "A1"},
        "You are the Master Builder: first name this round's resource with /tt announce <resource>.",
    ),
    (
        "another player placing before the name",
        standard,
        1,
        {"verb": "cave"},
        "Wait for the Master Builder (p0) to name a resource.",
    ),
    # _monument
    (
        "monument after the monuments phase",
        standard,
        0,
        {"verb": "monument", "monument": "starloom"},
        "Monuments were chosen at the start of the game.",
    ),
    (
        "a monument not dealt",
        monuments,
        0,
        {"verb": "monument", "monument": "sky-baths"},
        "The Sky Baths is not one of your monuments: keep grove-university (Grove University) or starloom "
        "(The Starloom).",
    ),
    (
        "not a monument at all",
        monuments,
        1,
        {"verb": "monument", "monument": "moon"},
        "'moon' is not one of your monuments: keep fort-ironweed (Fort Ironweed) or sky-baths (The Sky Baths).",
    ),
    (
        "a second monument",
        lambda: play(monuments(), 0, "/tt monument starloom")[0],
        0,
        {"verb": "monument", "monument": "grove-university"},
        "You already keep The Starloom.",
    ),
    # _announce
    (
        "town hall",
        lambda: hall(1),
        0,
        {"verb": "announce", "resource": "wood"},
        "Town Hall has no Master Builder: the Mayor draws the resource, and every third round "
        "each player chooses with /tt place <square> <resource>.",
    ),
    (
        "already named",
        lambda: play(named(), 1, "/tt place A1")[0],
        0,
        {"verb": "announce", "resource": "brick"},
        "Round 1's resource is already named (wood); the next one is named when everyone has placed and is "
        "done. Waiting for: p0.",
    ),
    (
        "already named, nobody placed",
        named,
        1,
        {"verb": "announce", "resource": "brick"},
        "Round 1's resource is already named (wood); the next one is named when everyone has placed and is "
        "done. Waiting for: p0, p1.",
    ),
    (
        "solo pick not revealed",
        solo,
        0,
        {"verb": "announce", "resource": "glass"},
        "Pick one of the revealed resources: wood, brick, stone.",
    ),
    (
        "not the master builder",
        standard,
        1,
        {"verb": "announce", "resource": "wood"},
        "Only the Master Builder (p0) names the resource this round.",
    ),
    (
        "a banked resource",
        lambda: with_town(game(2), 0, "bank:glass . . . / . . . . / . . . . / . . . ."),
        0,
        {"verb": "announce", "resource": "glass"},
        "Your Bank holds glass, so you may not name it. Choose wood, wheat, brick, stone.",
    ),
    (
        "an unknown resource",
        standard,
        0,
        {"verb": "announce", "resource": "gold"},
        "'gold' is not a resource: choose wood, wheat, brick, glass, stone.",
    ),
    # _before_placing
    (
        "placing twice",
        lambda: play(named(), 1, "/tt place A1")[0],
        1,
        {"verb": "place", "cell": "B1"},
        "You have already placed this round; build with /tt build or finish with /tt done.",
    ),
    (
        "skipped with Fort Ironweed",
        lambda: named(placed=True, skipped=True),
        1,
        {"verb": "place", "cell": "B1"},
        "You took no resource this round; build with /tt build or finish with /tt done.",
    ),
    # _place
    (
        "free round without a resource",
        lambda: hall(3),
        0,
        {"verb": "place", "cell": "B3"},
        "This is a free-choice round: say which resource, e.g. /tt place B3 wood.",
    ),
    (
        "free round, a banked resource",
        lambda: with_town(hall(3), 1, "bank:wheat . . . / . . . . / . . . . / . . . ."),
        1,
        {"verb": "place", "cell": "B3", "resource": "wheat"},
        "Your Bank holds wheat, so you may not choose it. Choose wood, brick, glass, stone.",
    ),
    (
        "another resource without a Factory",
        named,
        1,
        {"verb": "place", "cell": "A1", "resource": "brick"},
        "This round's resource is wood. You may place another resource only when one of your Factories holds "
        "wood and another player named it.",
    ),
    (
        "another resource with a Factory, named by yourself",
        lambda: play(with_town(game(2), 0, "factory:wood . . . / . . . . / . . . . / . . . ."), 0, "/tt announce wood")[
            0
        ],
        0,
        {"verb": "place", "cell": "B1", "resource": "brick"},
        "This round's resource is wood. You may place another resource only when one of your Factories holds "
        "wood and another player named it.",
    ),
    (
        "an occupied square",
        lambda: named(seat1=REACTIVE),
        1,
        {"verb": "place", "cell": "B2"},
        "B2 already holds a stone cube. Empty squares: D1, D4.",
    ),
    (
        "a Cottage without the Statue",
        lambda: named(seat1=REACTIVE),
        1,
        {"verb": "place", "cell": "C1"},
        "C1 already holds a Cottage. Empty squares: D1, D4.",
    ),
    (
        "a Cottage that already holds a Statue cube",
        lambda: named(
            seat1="statue-of-the-bondmaker! S cottage^wheat . / S S S S / S S S S / S S S S",
            monument="statue-of-the-bondmaker",
        ),
        1,
        {"verb": "place", "cell": "C1"},
        "The Cottage on C1 already holds a Statue of the Bondmaker cube.",
    ),
    (
        "the Statue on your own name",
        lambda: play(
            with_town(
                game(2),
                0,
                "statue-of-the-bondmaker! S cottage . / S S S S / S S S S / S S S S",
                monument="statue-of-the-bondmaker",
            ),
            0,
            "/tt announce wood",
        )[0],
        0,
        {"verb": "place", "cell": "C1"},
        "C1 already holds a Cottage. Empty squares: D1.",
    ),
    # _store
    (
        "store your own name",
        lambda: play(with_town(game(2), 0, REACTIVE), 0, "/tt announce wood")[0],
        0,
        {"verb": "store", "cell": "B1"},
        "A Warehouse only takes a resource named by another player.",
    ),
    (
        "store in a free round",
        lambda: with_town(hall(3), 1, REACTIVE),
        1,
        {"verb": "store", "cell": "B1"},
        "A Warehouse only takes a resource named by another player.",
    ),
    (
        "store on a cube",
        lambda: named(seat1=REACTIVE),
        1,
        {"verb": "store", "cell": "A2"},
        "A2 holds a stone cube, not one of your Warehouses.",
    ),
    (
        "store on an empty square",
        lambda: named(seat1=REACTIVE),
        1,
        {"verb": "store", "cell": "D1"},
        "D1 holds nothing, not one of your Warehouses.",
    ),
    (
        "store on a full Warehouse",
        lambda: named(seat1=FULL_WAREHOUSE),
        1,
        {"verb": "store", "cell": "B1"},
        "The Warehouse on B1 is full (3 cubes); swap instead: /tt store B1 swap stone to <empty square>.",
    ),
    (
        "swap a resource not stored",
        lambda: named(seat1=REACTIVE),
        1,
        {"verb": "store", "cell": "B1", "swap": "glass", "to": "D1"},
        "The Warehouse on B1 holds stone, wood, not glass.",
    ),
    (
        "swap from an empty Warehouse",
        lambda: named(seat1="factory:brick warehouse: cottage . / S S S S / S S S S / S S S ."),
        1,
        {"verb": "store", "cell": "B1", "swap": "wood", "to": "D1"},
        "The Warehouse on B1 holds nothing, not wood.",
    ),
    (
        "swap onto an occupied square",
        lambda: named(seat1=REACTIVE),
        1,
        {"verb": "store", "cell": "B1", "swap": "stone", "to": "A1"},
        "A1 already holds a Factory.",
    ),
    # _cave
    (
        "cave without the rule",
        lambda: play(game(2), 0, "/tt announce wood")[0],
        1,
        {"verb": "cave"},
        "The cave rule is not used in this game (setup option cave=on).",
    ),
    (
        "cave on your own name",
        named,
        0,
        {"verb": "cave"},
        "The cave only takes a resource named by another player.",
    ),
    (
        "cave used up",
        lambda: named(cave_used=2),
        1,
        {"verb": "cave"},
        "You have already used the cave 2 times.",
    ),
    # _after_placing, _build
    ("build before placing", named, 1, {"verb": "done"}, "Place this round's resource first: /tt place <square>."),
    (
        "build after done",
        lambda: play_all(standard(WELL_READY), [(0, "/tt announce stone"), (1, "/tt place B1"), (1, "/tt done")]),
        1,
        GAME.parse("/tt build well A1 B1 at A1"),
        "You said you are done this round; build again next round.",
    ),
    # _claim
    (
        "claim without a claim",
        lambda: play_all(standard(WELL_READY), [(0, "/tt announce stone"), (1, "/tt place B1")]),
        1,
        {"verb": "claim", "building": "farm", "cell": "C1"},
        "You have no Opaleye's Watch claim to use now.",
    ),
    (
        "claim another building",
        placed_with_claims,
        1,
        {"verb": "claim", "building": "chapel", "cell": "C1"},
        "You may claim farm, well, not chapel.",
    ),
    (
        "claim onto an occupied square",
        placed_with_claims,
        1,
        {"verb": "claim", "building": "well", "cell": "B1"},
        "B1 already holds a stone cube; a claimed building goes on an empty square.",
    ),
    # _done
    (
        "done with a claim open",
        placed_with_claims,
        1,
        {"verb": "done"},
        "First take your Opaleye's Watch building: /tt claim <building> <square> (farm, well).",
    ),
    ("done by a resigned player", lambda: named(resigned=True), 1, {"verb": "done"}, "You have left this game."),
    ("done by no such seat", named, 3, {"verb": "done"}, "You are not playing in this game."),
    ("done by the seat just past the last", named, 2, {"verb": "done"}, "You are not playing in this game."),
    (
        "done in the monuments phase",
        monuments,
        0,
        {"verb": "done"},
        "First every player keeps one of their two monuments: /tt monument <name>.",
    ),
    (
        "done before the first resource",
        standard,
        0,
        {"verb": "done"},
        "You are the Master Builder: first name this round's resource with /tt announce <resource>.",
    ),
    (
        "done after the name, before placing, in round 2",
        lambda: play(play_all(named(), [(0, "/tt place A1"), (1, "/tt place A1")]), 1, "/tt announce wheat")[0],
        0,
        {"verb": "done"},
        "Place this round's resource first: /tt place <square>.",
    ),
]


@pytest.mark.parametrize(("state", "seat", "move", "message"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_refusal_word_for_word(state: Callable[[], State], seat: int, move: Any, message: str) -> None:
    assert refusal(state(), seat, move) == message


LATE_DONE: list[tuple[str, Callable[[], State], int, str]] = [
    ("after the game", finished, 0, "The game is over: nothing more to do."),
    (
        "a complete town",
        lambda: named(complete=True),
        1,
        "Your town is complete: nothing more to do.",
    ),
    (
        "done automatically",
        lambda: play(named(), 1, "/tt place A1")[0],
        1,
        "You are already done this round.",
    ),
    (
        "after the round, before the next name",
        lambda: play_all(named(), [(0, "/tt place A1"), (1, "/tt place A1")]),
        1,
        "Round 1 is already over; round 2 waits for the next resource.",
    ),
    (
        "town hall: the next card is drawn at once",
        lambda: hall(2),
        1,
        "Round 1 is already over; round 2 waits for /tt place <square>.",
    ),
]


@pytest.mark.parametrize(("state", "seat", "text"), [c[1:] for c in LATE_DONE], ids=[c[0] for c in LATE_DONE])
def test_a_late_done_is_accepted_and_only_tells_the_player(state: Callable[[], State], seat: int, text: str) -> None:
    before = state()
    after, events = GAME.apply(before, seat, {"verb": "done"})
    assert events == [{"private": {"seat": seat, "text": text}}]
    assert after == before


def test_event_texts_of_each_move() -> None:
    state = monuments()
    state, events = GAME.apply(state, 0, {"verb": "monument", "monument": "starloom"})
    assert events == [
        {"text": "ann has chosen a monument."},
        {"private": {"seat": 0, "text": "You keep The Starloom."}},
    ]
    assert state["phase"] == "monuments" and state["towns"][0]["monument"] == "starloom"

    state, events = GAME.apply(standard(), 0, {"verb": "announce", "resource": "wood"})
    assert events == [{"text": "p0 names wood."}]
    assert (state["resource"], state["source"], state["named_by"], state["phase"]) == ("wood", "master", 0, "place")
    assert state["towns"][0]["times_master_builder"] == 1 and state["towns"][1]["times_master_builder"] == 0

    alone = solo()
    deck = list(alone["solo"]["deck"])
    alone, events = GAME.apply(alone, 0, {"verb": "announce", "resource": "brick"})
    assert events == [{"text": f"sol picks brick; {deck[0]} is revealed.", "irreversible": True}]
    assert alone["solo"]["revealed"] == ["wood", deck[0], "stone"] and alone["solo"]["deck"] == [*deck[1:], "brick"]
    assert (alone["resource"], alone["source"], alone["named_by"], alone["phase"]) == ("brick", "solo", 0, "place")
    assert alone["towns"][0]["times_master_builder"] == 0

    state, events = GAME.apply(named(seat1=REACTIVE), 1, {"verb": "place", "cell": "d4", "resource": "wood"})
    assert events[0] == {"text": "p1 places wood on D4."} and state["towns"][1]["cells"][15] == {"resource": "wood"}
    assert state["towns"][1]["placed"]

    statue = named(
        seat1="statue-of-the-bondmaker! S cottage . / S S S S / S S S S / S S S S", monument="statue-of-the-bondmaker"
    )
    state, events = GAME.apply(statue, 1, {"verb": "place", "cell": "C1"})
    assert events[0] == {"text": "p1 puts wood on the Cottage on C1 (Statue of the Bondmaker)."}
    assert state["towns"][1]["cells"][2] == {"building": "cottage", "bond": ["wood"]} and state["towns"][1]["placed"]

    state, events = GAME.apply(named(seat1=REACTIVE), 1, {"verb": "store", "cell": "B1"})
    assert events[0] == {"text": "p1 stores wood on the Warehouse on B1."}
    assert state["towns"][1]["cells"][1]["stored"] == ["stone", "wood", "wood"] and state["towns"][1]["placed"]

    state, events = GAME.apply(
        named(seat1=FULL_WAREHOUSE), 1, {"verb": "store", "cell": "B1", "swap": "stone", "to": "D4"}
    )
    assert events[0] == {"text": "p1 stores wood on the Warehouse on B1 and moves its stone to D4."}
    town = state["towns"][1]
    assert town["cells"][1]["stored"] == ["wood", "wood", "wood"] and town["cells"][15] == {"resource": "stone"}
    assert town["placed"]

    state, events = GAME.apply(named(cave_used=1), 1, {"verb": "cave"})
    assert events[0] == {"text": "p1 puts wood in the cave (2 of 2)."}
    assert state["towns"][1]["cave"] == ["wood"] and state["towns"][1]["cave_used"] == 2 and state["towns"][1]["placed"]

    state, events = GAME.apply(placed_with_claims(), 1, {"verb": "claim", "building": "well", "cell": "C1"})
    assert events[0] == {"text": "p1 takes a Well from Opaleye's Watch onto C1."}
    town = state["towns"][1]
    assert town["cells"][2] == {"building": "well"} and town["pending_claims"] == ["farm"]
    assert town["aside"] == ["farm", "chapel"]

    state = play_all(standard(WELL_READY), [(0, "/tt announce stone"), (1, "/tt place B1")])
    state, events = GAME.apply(state, 1, {"verb": "done"})
    # Said by the player: no "you cannot build anything now" line (that one is for being made done).
    assert events == [{"text": "p1 is done."}] and state["towns"][1]["done"]


def test_an_accepted_move_leaves_the_callers_state_alone() -> None:
    """apply copies the mover's town (rules.fork) and flow copies the others before a round ends."""
    cases: list[tuple[State, int, Any]] = [
        (named(seat1=REACTIVE), 1, {"verb": "place", "cell": "D1"}),
        (named(seat1=REACTIVE), 1, {"verb": "store", "cell": "B1", "swap": "wood", "to": "D4"}),
        (named(cave_used=0), 1, {"verb": "cave"}),
        (placed_with_claims(), 1, {"verb": "claim", "building": "farm", "cell": "C1"}),
        (play(named(), 1, "/tt place A1")[0], 0, {"verb": "place", "cell": "A1"}),  # ends the round
        (monuments(), 1, {"verb": "monument", "monument": "sky-baths"}),
        (standard(), 0, {"verb": "announce", "resource": "glass"}),
    ]
    for state, seat, move in cases:
        before = json.dumps(state, sort_keys=True)
        after, _ = GAME.apply(state, seat, move)
        assert json.dumps(state, sort_keys=True) == before, move
        assert json.dumps(after, sort_keys=True) != before, move


def test_a_move_may_be_any_mapping() -> None:
    state, events = GAME.apply(named(), 1, MappingProxyType({"verb": "place", "cell": "A1"}))
    assert events[0] == {"text": "p1 places wood on A1."} and state["towns"][1]["placed"]


def test_town_hall_done_before_placing_in_the_first_round_is_refused() -> None:
    assert refusal(hall(1), 1, {"verb": "done"}) == "Place this round's resource first: /tt place <square>."


def test_banks_holding_all_five_resources_forbid_no_free_choice() -> None:
    five_banks = "bank:wood bank:wheat bank:brick bank:glass / bank:stone S S S / S S S S / S S . ."
    state = with_town(hall(3), 1, five_banks)
    assert state["source"] == "free"
    state, events = GAME.apply(state, 1, {"verb": "place", "cell": "C4", "resource": "wheat"})
    assert events[0] == {"text": "p1 places wheat on C4."} and state["towns"][1]["cells"][14] == {"resource": "wheat"}


def test_banks_holding_all_five_resources_forbid_no_name() -> None:
    five_banks = "bank:wood bank:wheat bank:brick bank:glass / bank:stone S S S / S S S S / S S . ."
    state, events = GAME.apply(with_town(game(2), 0, five_banks), 0, {"verb": "announce", "resource": "wood"})
    assert events == [{"text": "p0 names wood."}] and state["resource"] == "wood"
