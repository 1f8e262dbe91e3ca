"""``apply`` never changes the state it is given, and its result is plain JSON data.

The engines copy only what a move changes (the rest is shared with the old state), so a move
that changed a shared part in place would corrupt the history; this plays seeded random games of
every engine and compares the old state's JSON before and after every move.
"""

from __future__ import annotations

import json

import pytest

from games.base import GameSpec
from games.options import parse_options
from games.rng import Rng
from tests.golden.playouts import CASES

# A few seeds of every case of the golden playouts (other seeds than those recorded there).
PURITY_CASES = [(game, players, options) for game, players, options, _ in CASES]


@pytest.mark.parametrize(
    "game, players, options", PURITY_CASES, ids=[f"{g.slug}-{p}p-{o or 'default'}" for g, p, o in PURITY_CASES]
)
def test_apply_leaves_the_old_state_alone(game: GameSpec, players: int, options: str) -> None:
    seed = 1000 + players
    state = game.setup([f"p{i}" for i in range(players)], parse_options(options, game.options), seed)
    picker = Rng(seed)
    moves = 0
    while not game.status(state).finished:
        seat = picker.choice(game.status(state).to_act)
        before = json.dumps(state)
        new, _ = game.apply(state, seat, picker.choice(game.legal_moves(state, seat)))
        assert json.dumps(state) == before, f"move {moves} changed the old state"
        assert json.loads(json.dumps(new)) == new
        resigned, _ = game.resign(state, seat) if moves % 97 == 96 else (state, [])
        assert json.dumps(state) == before, f"resigning at move {moves} changed the old state"
        del resigned
        state = new
        moves += 1
    assert moves > 0
