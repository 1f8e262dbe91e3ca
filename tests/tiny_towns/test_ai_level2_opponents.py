"""The level-2 bot's model of the other players (4-player games only): naming a resource that would
help them less (denial), and never reading their secret monuments while it models them."""

from __future__ import annotations

from typing import Any

import pytest

from games.tiny_towns import GAME, ai_search
from games.tiny_towns.ai_search import opponent_gains, public_view
from games.tiny_towns.patterns import CELL_INDEX

FIRST_GAME = {"buildings": "first-game"}


def _cubes(spec: list[tuple[str, str]]) -> list[Any]:
    cells: list[Any] = [None] * 16
    for name, resource in spec:
        cells[CELL_INDEX[name]] = {"resource": resource}
    return cells


def _glass_table() -> dict[str, Any]:
    """Seat 0 names the resource. Glass would finish a Tavern in its own town (two bricks down), but
    also two Cottages and a Tavern in each of the three other towns."""
    state = GAME.setup(["ann", "bob", "cat", "dan"], FIRST_GAME, 3)
    assert state["phase"] == "announce" and state["master_builder"] == 0
    state["towns"][0]["cells"] = _cubes([("A4", "brick"), ("B4", "brick")])
    theirs = [("B1", "wheat"), ("A2", "brick"), ("D1", "wheat"), ("C2", "brick"), ("A4", "brick"), ("B4", "brick")]
    for seat in (1, 2, 3):
        state["towns"][seat]["cells"] = _cubes(theirs)
    return state


def test_denial_names_a_resource_that_helps_the_other_players_less(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _glass_table()
    gains = opponent_gains(state, 0)
    assert max(gains, key=lambda letter: gains[letter]) == "G"
    assert GAME.bot_move(state, 0, 2) == {"verb": "announce", "resource": "brick"}
    monkeypatch.setattr(ai_search, "_DENIAL", 0.0)  # its own town alone: glass
    assert GAME.bot_move(state, 0, 2) == {"verb": "announce", "resource": "glass"}


def test_the_model_of_the_other_players_never_reads_their_secret_monuments() -> None:
    state = GAME.setup(["ann", "bob", "cat", "dan"], {**FIRST_GAME, "monuments": "on"}, 5)
    for seat, town in enumerate(state["towns"]):
        town["monument"] = town["monument_options"][0]
        town["cells"] = _glass_table()["towns"][seat]["cells"]
    state["phase"], state["master_builder"] = "announce", 0
    view = public_view(state, 0)
    assert view["towns"][0]["monument"] == state["towns"][0]["monument"]
    for seat in (1, 2, 3):
        assert view["towns"][seat]["monument"] is None and view["towns"][seat]["monument_options"] is None
    # Another secret monument for seat 1 changes neither the model nor the move.
    other = {**state, "towns": list(state["towns"])}
    other["towns"][1] = {**state["towns"][1], "monument": state["towns"][1]["monument_options"][1]}
    assert opponent_gains(other, 0) == opponent_gains(state, 0)
    assert GAME.bot_move(other, 0, 2) == GAME.bot_move(state, 0, 2)
