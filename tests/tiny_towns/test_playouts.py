"""Random and bot playouts for 1-6 players and every variant, checking invariants after every move."""

from __future__ import annotations

import json
import random

import pytest

from games.base import ViewHeader
from games.options import parse_options
from games.tiny_towns import GAME
from tests.tiny_towns.helpers import check_invariants

CONFIGS = [
    (1, "monuments=off"),
    (1, "monuments=on"),
    (2, "monuments=on cave=on"),
    (2, "variant=town-hall monuments=on"),
    (3, "cave=on"),
    (3, "variant=town-hall cave=on monuments=on"),
    (4, "monuments=on"),
    (4, "variant=town-hall"),
    (5, "monuments=on cave=on"),
    (6, "monuments=on"),
    (6, "variant=town-hall monuments=on cave=on"),
]


def playout(players: int, options: str, seed: int, level: int, check: bool) -> tuple[dict, list]:
    state = GAME.setup([f"p{i}" for i in range(players)], parse_options(options, GAME.options), seed)
    history: list = []
    picker = random.Random(seed)
    for _ in range(4000):
        status = GAME.status(state)
        if status.finished:
            return state, history
        seat = picker.choice(status.to_act)
        move = GAME.bot_move(state, seat, level)
        before = json.dumps(state, sort_keys=True)
        state, events = GAME.apply(state, seat, move)
        assert json.dumps(state, sort_keys=True) != before or move["verb"] == "done"
        history.append((seat, GAME.format(move)))
        if check:
            check_invariants(state)
    raise AssertionError("game did not end")


@pytest.mark.parametrize("players, options", CONFIGS)
def test_random_playout_keeps_invariants(players: int, options: str) -> None:
    state, _ = playout(players, options, seed=players * 7 + len(options), level=0, check=True)
    assert state["phase"] == "finished"
    assert GAME.view(state, None)["finished"] and GAME.view(state, 0)["finished"]
    assert all(t["complete"] for t in state["towns"])


@pytest.mark.parametrize("players, options", CONFIGS[::2])
def test_bot_playout_keeps_invariants(players: int, options: str) -> None:
    state, _ = playout(players, options, seed=100 + players, level=1, check=True)
    assert state["phase"] == "finished"


def test_hidden_monuments_never_reach_other_viewers() -> None:
    options = parse_options("monuments=on", GAME.options)
    state = GAME.setup(["ann", "bob", "cat"], options, 77)
    secret = state["towns"][0]["monument_options"]
    for viewer in (1, 2, None):
        text = json.dumps(GAME.view(state, viewer))
        assert all(m not in text for m in secret)
    own = GAME.view(state, 0)
    assert own["towns"][0]["monument_options"] == secret
    assert all(m in own["catalog"] for m in secret)
    # Keep playing; until seat 0 builds it, its monument stays invisible to the others.
    picker = random.Random(3)
    for _ in range(400):
        status = GAME.status(state)
        if status.finished:
            break
        seat = picker.choice(status.to_act)
        state, _ = GAME.apply(state, seat, GAME.bot_move(state, seat, 1))
        kept = state["towns"][0]["monument"]
        if kept and not state["towns"][0]["monument_built"]:
            for viewer in (1, 2, None):
                assert kept not in json.dumps(GAME.view(state, viewer))
            assert GAME.view(state, 0)["towns"][0]["monument"] == kept
    assert "monument" in GAME.private_summary(state, 0).lower() if GAME.private_summary else True


def test_view_schema_shape() -> None:
    state = GAME.setup(["ann", "bob"], parse_options("variant=town-hall", GAME.options), 5)
    view = GAME.view(state, 1)
    # The ViewHeader keys come first and carry their documented meaning.
    assert list(view)[:4] == list(ViewHeader.__annotations__)
    assert (view["game"], view["names"], view["viewer"], view["finished"]) == ("tiny-towns", ["ann", "bob"], 1, False)
    assert GAME.view(state, None)["viewer"] is None
    for key in ("round", "phase", "master_builder", "resource", "buildings", "catalog", "towns", "town_hall", "solo"):
        assert key in view
    assert "players" not in view
    town = view["towns"][0]
    for key in (
        "player",
        "cells",
        "score",
        "breakdown",
        "placed",
        "done",
        "complete",
        "resigned",
        "monument",
        "monument_built",
        "monument_options",
        "times_master_builder",
        "cave_used",
    ):
        assert key in town
    assert len(town["cells"]) == 16
    assert set(view["town_hall"]) >= {"mayor", "cycle_round", "draw_pile", "discards", "revealed"}
    assert view["catalog"]["cottage"] == {
        "name": "Cottage",
        "colour": "blue",
        "pattern": [".H", "BG"],
        "monument": False,
        "text": "3 VP if fed, otherwise 0.",
    }
