"""Helpers for the Trains tests: crafted mid-game states and command shortcuts."""

from __future__ import annotations

import json
from collections.abc import Iterable
from types import SimpleNamespace
from typing import Any

import pytest

from games.base import Event
from games.trains import GAME
from games.trains.content import CARDS, MAPS
from games.trains.deck import all_cards

DEFAULT_KINGDOM = [
    "landfill",
    "transfer",
    "timetable",
    "freight-train",
    "tunnel",
    "steel-bridge",
    "viaduct",
    "central-station",
]


def new_game(
    players: int = 2, map_name: str = "tokyo", kingdom: list[str] | None = None, seed: int = 1
) -> dict[str, Any]:
    names = ["ann", "bob", "cat", "dan"][:players]
    return GAME.setup(names, {"map": map_name, "kingdom": kingdom or list(DEFAULT_KINGDOM)}, seed)


def scenario(
    hand: Iterable[str],
    *,
    deck: Iterable[str] = (),
    discard: Iterable[str] = (),
    rails: dict[str, list[int]] | None = None,
    stations: dict[str, int] | None = None,
    money: int = 0,
    players: int = 2,
    map_name: str = "tokyo",
    kingdom: list[str] | None = None,
    seat: int = 0,
) -> dict[str, Any]:
    """A play-phase state where ``seat`` is to act with exactly the given cards.

    ``deck`` is listed top first. Other players keep their dealt cards.
    """
    state = new_game(players, map_name, kingdom)
    state["phase"] = "play"
    state["turn_number"] = 1
    state["current"] = seat
    player = state["players"][seat]
    player["hand"] = list(hand)
    player["deck"] = list(reversed(list(deck)))
    player["discard"] = list(discard)
    state["rails"] = {h: list(s) for h, s in (rails or {}).items()}
    for p in state["players"]:
        p["rails_left"] = 20
    for seats in state["rails"].values():
        for s in seats:
            state["players"][s]["rails_left"] -= 1
    for s, p in enumerate(state["players"]):
        p["start"] = next((hexname for hexname, seats in state["rails"].items() if s in seats), None)
    state["stations"] = dict(stations or {})
    state["stations_left"] = 30 - sum(state["stations"].values())
    state["turn"]["money"] = money
    return state


def do(state: dict[str, Any], seat: int, text: str) -> tuple[dict[str, Any], list[Event]]:
    return GAME.apply(state, seat, GAME.parse(text))


def card_totals(state: dict[str, Any]) -> dict[str, int]:
    """Every card in the game by slug: supply + players' zones + trash."""
    totals: dict[str, int] = dict(state["supply"])
    for p in state["players"]:
        for c in all_cards(p):
            totals[c] = totals.get(c, 0) + 1
    for c, n in state["trash"].items():
        totals[c] = totals.get(c, 0) + n
    return {k: v for k, v in sorted(totals.items()) if v}


def find_hexes(map_name: str, terrain: str) -> list[str]:
    gmap = MAPS[map_name]
    return [h for h, t in gmap.terrain.items() if t == terrain]


def neighbour_of(map_name: str, target: str, terrain: str = "plain") -> str:
    """A neighbour of ``target`` with the given terrain (barriers respected)."""
    for n in MAPS[map_name].neighbours[target]:
        if MAPS[map_name].terrain[n] == terrain:
            return n
    raise AssertionError(f"no {terrain} neighbour of {target}")


def roundtrip(state: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(state))


@pytest.fixture
def tr() -> SimpleNamespace:
    return SimpleNamespace(
        GAME=GAME,
        CARDS=CARDS,
        MAPS=MAPS,
        new_game=new_game,
        scenario=scenario,
        do=do,
        card_totals=card_totals,
        find_hexes=find_hexes,
        neighbour_of=neighbour_of,
        roundtrip=roundtrip,
    )
