"""apply's cheaper copies (copying.fork_town) leave the old state alone on every path, rare ones included.

The golden purity test plays random games, which seldom reach a Statue of the Bondmaker cube, a Warehouse
swap or an Opaleye's Watch claim; here every legal move of hand-built states that hold those is applied
and the old state's JSON must not change.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.tiny_towns import GAME
from games.tiny_towns.copying import fork_town
from tests.tiny_towns.helpers import game, play, with_town

State = dict[str, Any]

# Statue of the Bondmaker, a Factory holding wood, a Warehouse with cubes, Cottages with and without a
# Statue cube, cubes forming buildings; empty squares D1 and D4.
REACTIVE = (
    "factory:wood warehouse:stone+wood cottage . / statue-of-the-bondmaker! cottage^wheat W H / B G S S / W W H ."
)


def _named_wood(town: str, **fields: Any) -> State:
    """Two players with the cave rule; seat 0 names wood, seat 1 holds ``town``."""
    state = with_town(game(2, cave="on"), 1, town, monument="statue-of-the-bondmaker", **fields)
    state, _ = play(state, 0, "/tt announce wood")
    return state


def _every_move_leaves_the_state_alone(state: State, depth: int) -> int:
    """Apply every legal move of every seat (and the moves after them, ``depth`` deep); count them."""
    before = json.dumps(state)
    applied = 0
    for seat in range(len(state["towns"])):
        for move in GAME.legal_moves(state, seat):
            new, _ = GAME.apply(state, seat, move)
            assert json.dumps(state) == before, (seat, move)
            applied += 1
            if depth > 1:
                applied += _every_move_leaves_the_state_alone(new, depth - 1)
    return applied


def test_statue_cube_warehouse_and_cave_moves_leave_the_old_state_alone() -> None:
    state = _named_wood(REACTIVE)
    verbs = {move["verb"] for move in GAME.legal_moves(state, 1)}
    assert {"place", "store", "cave"} <= verbs
    assert _every_move_leaves_the_state_alone(state, 2) > 20


def test_a_statue_cube_goes_on_a_new_cottage_entry() -> None:
    state = _named_wood(REACTIVE)
    old_cottage = state["towns"][1]["cells"][2]
    new, _ = play(state, 1, "/tt place C1")
    assert new["towns"][1]["cells"][2] == {"building": "cottage", "bond": ["wood"]}
    assert old_cottage == {"building": "cottage"}
    assert state["towns"][1]["cells"][2] is old_cottage


def test_opaleye_claims_leave_the_old_state_alone() -> None:
    # Seat 1 built Opaleye's Watch last round with a Cottage set aside; seat 0 builds a Cottage now.
    state = with_town(game(2), 0, ". H . . / B G . . / . . . . / . . . .")
    state = with_town(
        state,
        1,
        "opaleyes-watch! . . . / . . . . / . . . . / . . . .",
        monument="opaleyes-watch",
        aside=["cottage", "farm", "well"],
    )
    state, _ = play(state, 0, "/tt announce wood")
    state, _ = play(state, 0, "/tt place D4")
    state, events = play(state, 0, "/tt build cottage B1 A2 B2 at A2")
    assert state["towns"][1]["pending_claims"] == ["cottage"], events
    assert _every_move_leaves_the_state_alone(state, 2) > 10


@pytest.mark.parametrize("seat", [0, 1])
def test_fork_town_shares_only_what_its_moves_replace(seat: int) -> None:
    state = _named_wood(REACTIVE)
    forked = fork_town(state, seat)
    town, old = forked["towns"][seat], state["towns"][seat]
    # The list of squares is shared too: the place handler copies it before changing it.
    assert town is not old and town["cells"] is old["cells"]
    assert town == old and json.dumps(forked) == json.dumps(state)
    other = 1 - seat
    assert forked["towns"][other] is state["towns"][other]
