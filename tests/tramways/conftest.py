"""Helpers for the Tramways tests: hand-made maps for the rulebook's examples and crafted states."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.base import IllegalMove
from games.tramways import GAME
from games.tramways.board import EXTRA_BOARDS
from games.tramways.rules import clone

# Test boards, added under names no data board uses. The Park example (Grand Station rulebook):
# the Residence at E3, the Park at E5, Orange's parcel (a Leisure) at C5, an unowned Industry at E7.
TEST_BOARDS = {
    "t-park": (".....", ".....", "....R", ".....", "..P.."),
    "t-plain": (".....", ".....", ".....", ".....", "....."),
    "t-ind": (".....", "....I", ".....", ".....", "....."),
    "t-res": ("R....", ".....", ".....", ".....", "C...."),
    "t-near": ("R^...", ".....", ".....", "C....", "....."),
    "t-hill": ("R^...", ".....", ".....", ".....", "....."),
    # Placement rules: all water; all hills; every plain cell next to a parcel but D1-E1 (next to a
    # Residence); a pond under C2 and hills about; two Residences and a Commercial for long trips.
    "t-wet": ("~~~~~",) * 5,
    "t-hills": ("^^^^^",) * 5,
    "t-crowded": ("PRR..", "P.P..", "P.P.P", ".P.P.", "P.P.P"),
    "t-pond": (".....", ".^~^.", "..^..", ".....", "~~~~~"),
    "t-pair": ("R....", ".....", "..R..", ".....", "C...."),
}
EXTRA_BOARDS.update(TEST_BOARDS)


def cell(name: str, width: int = 10) -> int:
    return (int(name[1:]) - 1) * width + ord(name[0]) - 65


def new_game(players: int = 2, seed: int = 1, **modules: bool) -> dict[str, Any]:
    names = ["orange", "green", "cat", "dan", "eve"][:players]
    return GAME.setup(names, modules, seed)


def crafted(
    boards: list[str],
    tiles: list[tuple[str, list[str]]],
    players: int = 2,
    modules: dict[str, bool] | None = None,
    parcels: dict[str, int] | None = None,
    built: dict[str, str] | None = None,
) -> dict[str, Any]:
    """A 2-player game in the actions phase (round 1, double-action step, seat 0 to act with 2
    actions) on the given boards, with the expansion tiles at the given cells."""
    mods = {"station": False, "exchange": False, "park": False, "master": False, **(modules or {})}
    state = clone(new_game(players, **mods))
    state["boards"] = boards
    state["tiles"] = [[kind, [cell(c) for c in cells]] for kind, cells in tiles]
    state["parcels"] = dict(parcels or {})
    state["built"] = {
        label: {"type": t, "owner": state["parcels"][label], "upgraded": False} for label, t in (built or {}).items()
    }
    from games.tramways import links

    gmap = links.game_map(state)
    state["passengers"] = {}
    for endpoint in gmap.endpoints:
        cap = links.capacity(state, endpoint)
        if cap:
            state["passengers"][endpoint.label] = cap
    state["links"], state["rails"] = [], {}
    state["phase"], state["round"] = "actions", 1
    state["order"] = list(range(players))
    state["turn"] = {"step": 2, "index": 0, "actions_left": 2}
    state["current"] = 0
    state["auction"], state["display"] = {}, []
    if state["master"] is not None:
        state["master"] = {"at": "STATION", "moved": False}
    for p in state["players"]:
        p["hand"], p["money"], p["stress"], p["hp"], p["workers"] = [], 3, 0, 0, 2
    return state


def hand(state: dict[str, Any], seat: int, *cards: str) -> None:
    state["players"][seat]["hand"] = list(cards)


def do(state: dict[str, Any], seat: int, text: str) -> tuple[dict[str, Any], list[Any]]:
    return GAME.apply(state, seat, GAME.parse(text))


def refused(state: dict[str, Any], seat: int, move: Any, parse: bool = False) -> str:
    """The refusal of ``move`` by ``seat`` (``parse``: a command text, parsed inside the check, so a parse
    refusal counts), checking it left the state as it was."""
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalMove) as info:
        GAME.apply(state, seat, GAME.parse(move) if parse else move)
    assert json.dumps(state, sort_keys=True) == before
    return info.value.message


def add_link(state: dict[str, Any], owner: int, cells: list[str], ends: list[str], upgraded: bool = False) -> int:
    """A complete link put straight into the state (the geometry is not checked)."""
    link_id = len(state["links"]) + 1
    state["links"].append({"id": link_id, "owner": owner, "cells": cells, "ends": ends, "upgraded": upgraded})
    for c in cells:
        state["rails"][c] = link_id
    return link_id
