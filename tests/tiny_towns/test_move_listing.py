"""legal_moves and place_moves: the exact listing, in order, for each kind of placement and phase.

Every expectation is written out by hand from the rules (reference section 5: Factory, Warehouse, Statue of
the Bondmaker and the cave react only to a resource named by another player; a Bank's resource may not be
named or chosen unless the Banks hold all five) and the listing order the engine documents: empty squares in
reading order, the Statue's Cottages, then each Warehouse's store and swaps, then the cave.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.options import parse_options
from games.tiny_towns import GAME
from games.tiny_towns.rules import legal_moves, place_moves
from tests.tiny_towns.helpers import game, play, with_town

State = dict[str, Any]

# Statue of the Bondmaker built on A2; a Factory holding wood, a Warehouse with stone, wood, wood, a Cottage
# without a Statue cube and one with one; empty squares D1 and D4 only.
REACTIVE = (
    "factory:wood warehouse:stone+wood cottage . / statue-of-the-bondmaker! cottage^wheat S S / S S S S / S S S ."
)
FIVE_BANKS = "bank:wood bank:wheat bank:brick bank:glass / bank:stone S S S / S S S S / S S . ."


def short(move: dict[str, Any]) -> str:
    """A move as one line: the verb, then every other key and value in the move's own order."""
    rest = [f"{key}={value}" for key, value in move.items() if key != "verb"]
    return " ".join([move["verb"], *rest])


def listing(state: State, seat: int) -> list[str]:
    return [short(m) for m in legal_moves(state, seat)]


def named_wood(town: str, cave: bool = False, **fields: Any) -> State:
    """Two players, seat 0 names wood; seat 1 holds ``town``."""
    state = game(2, cave="on") if cave else game(2)
    state = with_town(state, 1, town, monument="statue-of-the-bondmaker", **fields)
    state, _ = play(state, 0, "/tt announce wood")
    return state


def test_a_resource_named_by_another_player_lists_every_reaction_in_order() -> None:
    state = named_wood(REACTIVE, cave=True)
    expected = [
        "place cell=D1",
        "place cell=D1 resource=wheat",
        "place cell=D1 resource=brick",
        "place cell=D1 resource=glass",
        "place cell=D1 resource=stone",
        "place cell=D4",
        "place cell=D4 resource=wheat",
        "place cell=D4 resource=brick",
        "place cell=D4 resource=glass",
        "place cell=D4 resource=stone",
        "place cell=C1",  # the Statue's Cottage without a cube (B2's already holds one)
        "store cell=B1",
        "store cell=B1 swap=wood to=D1",  # kinds in resource order (wood before stone), each once
        "store cell=B1 swap=wood to=D4",
        "store cell=B1 swap=stone to=D1",
        "store cell=B1 swap=stone to=D4",
        "cave",
    ]
    assert listing(state, 1) == expected
    assert [short(m) for m in place_moves(state, 1)] == expected
    for move in legal_moves(state, 1):  # every listed move is accepted
        GAME.apply(state, 1, move)


def test_the_one_who_named_it_only_places_it_whatever_their_town_holds() -> None:
    state = game(2, cave="on")
    state = with_town(state, 0, REACTIVE, monument="statue-of-the-bondmaker")
    state, _ = play(state, 0, "/tt announce wood")
    assert listing(state, 0) == ["place cell=D1", "place cell=D4"]


@pytest.mark.parametrize(
    ("fields", "town", "expected"),
    [
        # A Factory holding another resource, a full Warehouse, no Statue built, the cave used twice.
        (
            {"cave_used": 2},
            "factory:brick warehouse:stone+wood+wood cottage . / S S S S / S S S S / S S S .",
            [
                "place cell=D1",
                "place cell=D4",
                "store cell=B1 swap=wood to=D1",
                "store cell=B1 swap=wood to=D4",
                "store cell=B1 swap=stone to=D1",
                "store cell=B1 swap=stone to=D4",
            ],
        ),
        # The cave once used is still open; an empty Warehouse offers only a store; no building at all besides.
        (
            {"cave_used": 1},
            "warehouse: S S . / S S S S / S S S S / S S S S",
            ["place cell=D1", "store cell=A1", "cave"],
        ),
        ({"cave_used": 0}, "S S S . / S S S S / S S S S / S S S .", ["place cell=D1", "place cell=D4", "cave"]),
    ],
)
def test_factory_warehouse_and_cave_limits(fields: dict[str, Any], town: str, expected: list[str]) -> None:
    state = game(2, cave="on")
    state = with_town(state, 1, town, **fields)
    state, _ = play(state, 0, "/tt announce wood")
    assert listing(state, 1) == expected


def test_without_the_cave_rule_there_is_no_cave_move() -> None:
    state = named_wood("S S S . / S S S S / S S S S / S S S .")
    assert listing(state, 1) == ["place cell=D1", "place cell=D4"]


def hall_round(round_no: int, town: str, seat: int = 1) -> State:
    """A two-player Town Hall game at the start of round ``round_no`` with ``town`` for ``seat``."""
    state = GAME.setup(["p0", "p1"], parse_options("variant=town-hall buildings=first-game cave=on", GAME.options), 4)
    squares = ["A1", "B1", "C1", "D1"]
    while state["round"] < round_no:
        free = " wood" if state["source"] == "free" else ""
        for s in (0, 1):
            state, _ = play(state, s, f"/tt place {squares[state['round'] - 1]}{free}")
            if not state["towns"][s]["done"]:
                state, _ = play(state, s, "/tt done")
    return with_town(state, seat, town)


def test_a_drawn_resource_is_named_by_another_player_for_everyone_and_opens_the_cave() -> None:
    state = hall_round(1, "factory:brick S S . / S S S S / S S S S / S S S S")
    state["resource"] = "brick"  # the Mayor's card, fixed so the Factory reacts
    assert state["source"] == "mayor"
    assert listing(state, 1) == [
        "place cell=D1",
        "place cell=D1 resource=wood",
        "place cell=D1 resource=wheat",
        "place cell=D1 resource=glass",
        "place cell=D1 resource=stone",
        "cave",
    ]
    assert listing(state, 0)[:1] == ["place cell=A1"]  # the Mayor's own seat reacts too: nobody named it


def test_a_free_round_offers_every_resource_the_banks_allow_and_never_the_cave() -> None:
    state = hall_round(3, "bank:wheat bank:glass S . / S S S S / S S S S / S S S .")
    assert state["source"] == "free" and state["phase"] == "place"
    assert listing(state, 1) == [
        "place cell=D1 resource=wood",
        "place cell=D1 resource=brick",
        "place cell=D1 resource=stone",
        "place cell=D4 resource=wood",
        "place cell=D4 resource=brick",
        "place cell=D4 resource=stone",
    ]
    # Banks holding all five resources forbid nothing.
    state = with_town(state, 1, FIVE_BANKS)
    assert listing(state, 1) == [
        *(f"place cell=C4 resource={r}" for r in ("wood", "wheat", "brick", "glass", "stone")),
        *(f"place cell=D4 resource={r}" for r in ("wood", "wheat", "brick", "glass", "stone")),
    ]


def test_announce_lists_what_the_master_builder_may_name() -> None:
    state = game(3)
    assert listing(state, 0) == [f"announce resource={r}" for r in ("wood", "wheat", "brick", "glass", "stone")]
    assert listing(state, 1) == [] and listing(state, 2) == []  # only the Master Builder names
    banked = with_town(state, 0, "bank:brick . . . / . . . . / . . . . / . . . .")
    assert listing(banked, 0) == [f"announce resource={r}" for r in ("wood", "wheat", "glass", "stone")]
    assert listing(with_town(state, 0, FIVE_BANKS), 0) == [
        f"announce resource={r}" for r in ("wood", "wheat", "brick", "glass", "stone")
    ]


def test_solo_announce_lists_the_revealed_resources_in_resource_order() -> None:
    state = GAME.setup(["sol"], parse_options("buildings=first-game", GAME.options), 4)
    state["solo"]["revealed"] = ["stone", "wood", "stone"]
    assert listing(state, 0) == ["announce resource=wood", "announce resource=stone"]


def test_after_placing_builds_then_done_and_nothing_once_done() -> None:
    state = with_town(game(2), 1, "W . . . / . . . . / . . . . / . . . .")
    state, _ = play(state, 0, "/tt announce stone")
    state, _ = play(state, 1, "/tt place B1")
    assert listing(state, 1) == [
        "build building=well cells=['A1', 'B1'] at=A1",
        "build building=well cells=['A1', 'B1'] at=B1",
        "done",
    ]
    state, _ = play(state, 1, "/tt done")
    assert listing(state, 1) == []


def test_an_opaleyes_claim_comes_first_and_holds_back_done() -> None:
    state = with_town(game(2), 1, "S S S S / S S S S / S S S S / S S . .", placed=True)
    state, _ = play(state, 0, "/tt announce wood")
    state["towns"][1].update(placed=True, pending_claims=["farm", "well"], aside=["farm", "well", "chapel"])
    assert listing(state, 1) == [
        "claim building=farm cell=C4",
        "claim building=farm cell=D4",
        "claim building=well cell=C4",
        "claim building=well cell=D4",
    ]
    state["towns"][1]["done"] = True  # done, but a claim is still open: only the claims
    assert listing(state, 1) == [
        "claim building=farm cell=C4",
        "claim building=farm cell=D4",
        "claim building=well cell=C4",
        "claim building=well cell=D4",
    ]
    full = with_town(state, 1, "S S S S / S S S S / S S S S / S S S S", placed=True, done=False)
    full["towns"][1].update(pending_claims=["farm"])
    assert listing(full, 1) == ["done"]  # a claim with no empty square holds nothing back


def test_nobody_outside_the_game_or_out_of_it_has_a_move() -> None:
    state = game(2)
    assert listing(state, -1) == [] and listing(state, 2) == []
    assert listing(with_town(state, 0, ". . . . / . . . . / . . . . / . . . .", resigned=True), 0) == []
    assert listing(with_town(state, 0, ". . . . / . . . . / . . . . / . . . .", complete=True), 0) == []
    monuments = GAME.setup(["a", "b"], parse_options("monuments=grove,starloom,fort,sky-baths", GAME.options), 1)
    assert listing(monuments, 0) == ["monument monument=grove-university", "monument monument=starloom"]
    kept, _ = play(monuments, 0, "/tt monument starloom")
    assert listing(kept, 0) == []
    assert listing(kept, 1) == ["monument monument=fort-ironweed", "monument monument=sky-baths"]
