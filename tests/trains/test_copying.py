"""The explicit Trains state copy equals a JSON round trip and shares only the rails' seat lists
(which the engine replaces, never changes in place)."""

from __future__ import annotations

import json

from games.rng import Rng
from games.trains import GAME
from games.trains.copying import clone


def _nested(value: object) -> list[int]:
    if isinstance(value, dict):
        return [id(value), *(i for item in value.values() for i in _nested(item))]
    if isinstance(value, list):
        return [id(value), *(i for item in value for i in _nested(item))]
    return []


def test_clone_serialises_like_the_state_and_shares_only_rail_lists() -> None:
    state = GAME.setup(["ann", "bob", "cat"], {"map": "osaka"}, 8)
    picker = Rng(8)
    checked = 0
    while not GAME.status(state).finished:
        seat = GAME.status(state).to_act[0]
        state, _ = GAME.apply(state, seat, picker.choice(GAME.legal_moves(state, seat)))
        copy = clone(state)
        assert json.dumps(copy) == json.dumps(state)
        rail_lists = {id(seats) for seats in state["rails"].values()}
        assert set(_nested(copy)) & set(_nested(state)) <= rail_lists
        checked += 1
    assert checked > 50
