"""Hand-built Tiny Towns views in the shape games/tiny_towns/view.py produces, for renderer tests and the bench.

The catalog copies the printed patterns from the rules reference, so every building and
monument the engine can show is exercised, independently of the engine package.
"""

from __future__ import annotations

import copy
import random
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the hand-built views above need no engine; only engine_playout imports it
    from games.base import Standing

RESOURCES = ["wood", "wheat", "brick", "glass", "stone"]

# slug -> (name, colour, pattern, monument)
CATALOG: dict[str, tuple[str, str, list[str], bool]] = {
    "cottage": ("Cottage", "blue", [".H", "BG"], False),
    "farm": ("Farm", "red", ["HH", "WW"], False),
    "granary": ("Granary", "red", ["HH", "WB"], False),
    "greenhouse": ("Greenhouse", "red", ["HG", "WW"], False),
    "orchard": ("Orchard", "red", ["SH", "HW"], False),
    "well": ("Well", "gray", ["WS"], False),
    "fountain": ("Fountain", "gray", ["WS"], False),
    "millstone": ("Millstone", "gray", ["WS"], False),
    "shed": ("Shed", "gray", ["WS"], False),
    "chapel": ("Chapel", "orange", ["..G", "SGS"], False),
    "abbey": ("Abbey", "orange", ["..G", "BSS"], False),
    "cloister": ("Cloister", "orange", ["..G", "WBS"], False),
    "temple": ("Temple", "orange", ["..G", "BBS"], False),
    "tavern": ("Tavern", "green", ["BBG"], False),
    "almshouse": ("Almshouse", "green", ["SSG"], False),
    "inn": ("Inn", "green", ["HSG"], False),
    "feast-hall": ("Feast Hall", "green", ["WWG"], False),
    "theater": ("Theater", "yellow", [".S.", "WGW"], False),
    "bakery": ("Bakery", "yellow", [".H.", "BGB"], False),
    "market": ("Market", "yellow", [".W.", "SGS"], False),
    "tailor": ("Tailor", "yellow", [".H.", "SGS"], False),
    "factory": ("Factory", "black", ["W...", "BSSB"], False),
    "bank": ("Bank", "black", ["HH.", "WGB"], False),
    "trading-post": ("Trading Post", "black", ["SW.", "SWB"], False),
    "warehouse": ("Warehouse", "black", ["HWH", "B.B"], False),
    "architects-guild": ("Architect's Guild", "pink", ["..G", ".HS", "WB."], True),
    "archive-of-the-second-age": ("Archive of the Second Age", "pink", ["HH", "BG"], True),
    "barrett-castle": ("Barrett Castle", "pink", ["H..S", "WGGB"], True),
    "cathedral-of-caterina": ("Cathedral of Caterina", "pink", [".H", "SG"], True),
    "fort-ironweed": ("Fort Ironweed", "pink", ["H.B", "SWS"], True),
    "grand-mausoleum-of-the-rodina": ("Grand Mausoleum of the Rodina", "pink", ["WW", "BS"], True),
    "grove-university": ("Grove University", "pink", [".B.", "SGS"], True),
    "mandras-palace": ("Mandras Palace", "pink", ["HG", "BW"], True),
    "obelisk-of-the-crescent": ("Obelisk of the Crescent", "pink", ["H..", "BGB"], True),
    "opaleyes-watch": ("Opaleye's Watch", "pink", ["W...", "BGHH", "S..."], True),
    "shrine-of-the-elder-tree": ("Shrine of the Elder Tree", "pink", ["BHS", "WGW"], True),
    "silva-forum": ("Silva Forum", "pink", ["..H.", "BBSW"], True),
    "statue-of-the-bondmaker": ("Statue of the Bondmaker", "pink", ["WSSG", "H..."], True),
    "sky-baths": ("The Sky Baths", "pink", [".H.", "SGW", "B.B"], True),
    "starloom": ("The Starloom", "pink", ["GG", "WH"], True),
}

BASE_SET = ["cottage", "farm", "well", "chapel", "tavern", "theater", "factory"]
FEEDABLE = {"cottage", "barrett-castle"}
NAMES = ["ann", "bob", "cat", "dmitri", "eve", "fitzgerald"]


def entry(slug: str) -> dict[str, Any]:
    name, colour, pattern, monument = CATALOG[slug]
    return {"name": name, "colour": colour, "pattern": list(pattern), "monument": monument}


def building_cell(slug: str, rng: random.Random) -> dict[str, Any]:
    cell: dict[str, Any] = {"building": slug}
    if slug in FEEDABLE:
        cell["fed"] = rng.random() < 0.6
    if slug in ("factory", "bank"):
        cell["holds"] = rng.choice(RESOURCES)
    if slug == "warehouse":
        cell["stored"] = rng.sample(RESOURCES, rng.randint(0, 3))
    if slug == "cottage" and rng.random() < 0.2:
        cell["bond"] = [rng.choice(RESOURCES)]
    if CATALOG[slug][3]:
        cell["monument"] = True
    return cell


def empty_town(player: str) -> dict[str, Any]:
    return {
        "player": player,
        "cells": [None] * 16,
        "score": 0,
        "breakdown": {},
        "placed": False,
        "done": False,
        "complete": False,
        "resigned": False,
        "monument": None,
        "monument_built": False,
        "monument_options": None,
        "times_master_builder": 0,
        "cave_used": 0,
    }


def view(
    players: int = 2,
    seed: int = 1,
    fill: float = 0.8,
    buildings: list[str] | None = None,
    viewer: int | None = None,
    monuments: bool = True,
) -> dict[str, Any]:
    """A plausible mid/late-game view: random cubes and buildings from the 7 in play."""
    rng = random.Random(seed)
    buildings = list(buildings or BASE_SET)
    names = NAMES[:players]
    result: dict[str, Any] = {
        "game": "tiny-towns",
        "names": names,
        "viewer": viewer,
        "finished": False,
        "round": 1 + seed % 15,
        "phase": "place",
        "master_builder": seed % players if players > 1 else None,
        "resource": rng.choice(RESOURCES),
        "buildings": buildings,
        "catalog": {slug: entry(slug) for slug in buildings},
        "towns": [],
        "town_hall": None,
        "solo": {"revealed": rng.sample(RESOURCES, 3)} if players == 1 else None,
    }
    monument_slugs = [slug for slug, info in CATALOG.items() if info[3]]
    for seat, name in enumerate(names):
        town = empty_town(name)
        for index in range(16):
            roll = rng.random()
            if roll > fill:
                continue
            if roll < fill * 0.45:
                town["cells"][index] = {"resource": rng.choice(RESOURCES)}
            else:
                town["cells"][index] = building_cell(rng.choice(buildings), rng)
        if monuments and (viewer == seat or rng.random() < 0.4):
            slug = rng.choice(monument_slugs)
            town["monument"] = slug
            result["catalog"][slug] = entry(slug)
            if viewer != seat or rng.random() < 0.5:
                town["monument_built"] = True
                town["cells"][rng.randrange(16)] = building_cell(slug, rng)
        counts: dict[str, int] = {}
        for cell in town["cells"]:
            if cell and "building" in cell:
                label = CATALOG[cell["building"]][0]
                counts[label] = counts.get(label, 0) + rng.randint(0, 4)
        empties = sum(1 for cell in town["cells"] if cell is None)
        town["breakdown"] = {**counts, "Empty squares": -empties}
        town["score"] = sum(town["breakdown"].values())
        town["placed"] = rng.random() < 0.5
        town["done"] = town["placed"] and rng.random() < 0.5
        town["times_master_builder"] = rng.randint(0, 4)
        result["towns"].append(town)
    return result


def strip_monuments(source: dict[str, Any]) -> dict[str, Any]:
    """The same view with every monument trace removed (as if monuments were off)."""
    result = copy.deepcopy(source)
    for town in result["towns"]:
        town["monument"] = None
        town["monument_built"] = False
        town["monument_options"] = None
    result["catalog"] = {slug: e for slug, e in result["catalog"].items() if not e["monument"]}
    return result


def standings_for(source: dict[str, Any]) -> list[dict[str, Any]]:
    """Standings in the engine's shape, ranked by score (ties share a rank)."""
    order = sorted(range(len(source["towns"])), key=lambda seat: -source["towns"][seat]["score"])
    result: list[dict[str, Any]] = []
    for position, seat in enumerate(order):
        town = source["towns"][seat]
        rank = position + 1
        if result and result[-1]["score"] == town["score"]:
            rank = result[-1]["rank"]
        result.append(
            {
                "seat": seat,
                "player": town["player"],
                "score": town["score"],
                "rank": rank,
                "breakdown": dict(town["breakdown"]),
            }
        )
    return result


def engine_playout(
    players: int, seed: int, every: int = 4, max_steps: int = 3000, options: str = "", level: int = 0
) -> tuple[list[dict[str, Any]], list[Standing]]:
    """Views sampled along one bot game (``level`` 0 random, 1 real policy) of the real engine,
    plus its final standings.

    Every ``every`` moves: the spectator view and the acting seat's own view.
    """
    from games import get_game
    from games.options import parse_options

    game = get_game("tiny-towns")
    state = game.setup(NAMES[:players], parse_options(options, game.options), seed)
    views: list[dict[str, Any]] = [game.view(state, None)]
    for step in range(1, max_steps + 1):
        status = game.status(state)
        if status.finished or not status.to_act:
            break
        seat = status.to_act[step % len(status.to_act)]
        state, _ = game.apply(state, seat, game.bot_move(state, seat, level))
        if step % every == 0:
            views.append(game.view(state, None))
            views.append(game.view(state, seat))
    views.append(game.view(state, None))
    return views, game.standings(state)
