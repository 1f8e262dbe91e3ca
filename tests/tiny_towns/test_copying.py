"""The explicit Tiny Towns state copies equal a JSON round trip and share nothing a move changes."""

from __future__ import annotations

import json

from games.options import parse_options
from games.rng import Rng
from games.tiny_towns import GAME
from games.tiny_towns.copying import copy_state, fork

# One black building per game: a Warehouse (stores cubes), then a Trading Post (wild squares).
WAREHOUSE = "buildings=cottage,farm,well,chapel,tavern,market,warehouse"
TRADING_POST = "buildings=cottage,granary,shed,abbey,inn,bakery,trading-post"


def _states() -> list[dict]:
    """Every state of two seeded random games."""
    out = []
    for players, options in ((4, f"monuments=on {WAREHOUSE}"), (3, f"variant=town-hall cave=on {TRADING_POST}")):
        state = GAME.setup([f"p{i}" for i in range(players)], parse_options(options, GAME.options), 5)
        picker = Rng(5)
        while not GAME.status(state).finished:
            seat = picker.choice(GAME.status(state).to_act)
            state, _ = GAME.apply(state, seat, picker.choice(GAME.legal_moves(state, seat)))
            out.append(state)
    return out


def test_copies_serialise_like_the_state() -> None:
    for state in _states():
        text = json.dumps(state)
        assert json.dumps(copy_state(state)) == text
        for seat in range(len(state["towns"])):
            assert json.dumps(fork(state, seat)) == text


def test_a_copy_shares_no_list_or_building_with_the_state() -> None:
    def nested(value: object) -> list[int]:
        if isinstance(value, dict):
            own = [] if set(value) == {"resource"} else [id(value)]  # cubes are shared by design
            return [*own, *(i for item in value.values() for i in nested(item))]
        if isinstance(value, list):
            return [id(value), *(i for item in value for i in nested(item))]
        return []

    for state in _states()[::7]:
        assert not set(nested(copy_state(state))) & set(nested(state))
        for seat in range(len(state["towns"])):
            forked = fork(state, seat)
            assert not set(nested(forked["towns"][seat])) & set(nested(state))  # the mover's town is its own
            rest = {key: value for key, value in forked.items() if key != "towns"}
            assert not set(nested(rest)) & set(nested(state))
