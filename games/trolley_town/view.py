"""What players see: the towns, the market's face-up tiles, scores and phase.

My Trolley Town has no private information; the only secret is the order of the shuffled
special piles, so views show pile tops and counts, never what lies below.
"""

from __future__ import annotations

from typing import Any

from games.base import MOVE_KEY, Move, State, View
from games.trolley_town import rules
from games.trolley_town.content import RULES, TILES
from games.trolley_town.effects import describe
from games.trolley_town.payment import building_need
from games.trolley_town.scoring import title_for
from games.trolley_town.town import all_links, cell_openings, holdings, tile_of, xy


def tile_card(slug: str | None) -> dict[str, Any] | None:
    if slug is None:
        return None
    tile = TILES[slug]
    return {
        "tile": slug,
        "name": tile.name,
        "abbrev": tile.abbrev,
        "pile": tile.pile,
        "cost": dict(tile.cost),
        "spaces": tile.spaces,
        "text": describe(tile),
        "timings": sorted({e.when for e in tile.effects}, key=list(TIMING_ORDER).index),
        "star": tile.star,
    }


TIMING_ORDER = ("immediate", "production", "construction", "transport", "processing", "end")


def _cells(town: dict[str, Any]) -> list[dict[str, Any]]:
    found = []
    for key, cell in sorted(town["cells"].items(), key=lambda item: (xy(item[0])[1], xy(item[0])[0])):
        x, y = xy(key)
        openings = sorted(cell_openings(cell), key="NESW".index)
        if "route" in cell:
            found.append(
                {"x": x, "y": y, "kind": "route", "route": cell["route"], "rot": cell["rot"], "open": openings}
            )
            continue
        card = tile_card(cell["t"]) or {}
        found.append(
            {
                "x": x,
                "y": y,
                "kind": "building",
                "tile": card["tile"],
                "name": card["name"],
                "abbrev": card["abbrev"],
                "pile": card["pile"],
                "spaces": card["spaces"],
                "res": dict(sorted(cell.get("r", {}).items())),
                "timings": card["timings"],
                "text": card["text"],
                "open": openings,
            }
        )
    return found


def _pending(town: dict[str, Any]) -> list[str]:
    return [
        f"{TILES[c['tile']].name} at {c['cell']}: choose {c['amount']} of {'/'.join(c['options'])}"
        + (" (different)" if c["different"] else "")
        for c in town["pending"]
    ]


def view(state: State, viewer: int | None) -> View:
    finished = state["phase"] == "finished"
    solo = len(state["names"]) == 1
    towns = []
    for seat, name in enumerate(state["names"]):
        town = state["towns"][seat]
        towns.append(
            {
                "seat": seat,
                "name": name,
                "vp": town["vp"],
                "expert": town["expert"],
                "passed": bool(state["passed"][seat]) if state["phase"] == "construction" else False,
                "step": town["step"],
                "resigned": bool(state["resigned"][seat]),
                "kicked": bool(state.get("kicked", [False] * len(state["names"]))[seat]),
                "title": title_for(town["vp"]) if solo and finished else None,
                "cells": _cells(town),
                "links": [[list(xy(a)), list(xy(b))] for a, b in all_links(town["cells"])],
                "pending": _pending(town),
            }
        )
    m = state["market"]
    return {
        "game": state["game"],
        "names": list(state["names"]),
        "viewer": viewer,
        "finished": finished,
        "round": state["round"],
        "rounds": RULES.rounds,
        "phase": state["phase"],
        "summary": rules.status(state).summary,
        "start_player": state["start"],
        "turn": state["turn"] if state["phase"] == "construction" else None,
        "to_act": list(rules.to_act(state)),
        "solo": solo,
        "towns": towns,
        "market": {
            "basic": [
                {**(tile_card(pile["tile"]) or {}), "left": pile["left"], "up": pile["up"]} for pile in m["basic"]
            ],
            "rebuild": {"up": m["rebuild"]["up"], "cost": dict(TILES["rebuild"].cost)} if m.get("rebuild") else None,
            "v": [{"top": tile_card(pile[0] if pile else None), "left": len(pile)} for pile in m["v"]],
            "row": [tile_card(slug) for slug in m["row"]],
            "marker": m["marker"],
            "a_pile": {"top": tile_card(m["a"][0] if m["a"] else None), "left": len(m["a"])},
            "b_pile": {"top": tile_card(m["b"][0] if m["b"] else None), "left": len(m["b"])},
        },
    }


def move_label(state: State, seat: int, move: Move) -> str:
    """A few words on what a listed move means (autocomplete and menus)."""
    verb = move.get(MOVE_KEY)
    town = state["towns"][seat]
    if verb == "build":
        need = building_need(town, move["tile"], move["cell"], bool(move.get("rebuild")))
        return f"{TILES[move['tile']].name} at {move['cell']}: {need.text()}"
    if verb == "route":
        kind, key, _ = move["routes"][0]
        cost = RULES.junction_cost if kind == "junction" else RULES.route_cost
        return f"{kind} at {key}: {cost} wood/stone"
    if verb == "upgrade":
        return f"junction at {move['cells'][0][0]}: {RULES.upgrade_cost} wood/stone"
    if verb == "move":
        what, source, target = move["moves"][0]
        cells = town["cells"]
        return f"{what}: {tile_of(cells[source]).name} → {tile_of(cells[target]).name}"
    if verb == "done":
        return "process now" if town["step"] == "transport" else "finish for the game"
    if verb == "pass":
        return "pass for this round"
    if verb == "choose":
        return f"take {' + '.join(move['resources'])}"
    return ""


def private_summary(state: State, seat: int) -> str:
    """Everything here is public; /game hand shows your own holdings as a reminder."""
    held = holdings(state["towns"][seat])
    goods = ", ".join(f"{n} {r}" for r, n in sorted(held.items())) or "no goods"
    return f"Your town holds {goods}; {state['towns'][seat]['vp']} VP."
