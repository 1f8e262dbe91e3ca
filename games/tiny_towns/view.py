"""What one viewer may see (schema: briefs/tt_view.md). Unbuilt monuments stay with their owner."""

from __future__ import annotations

from typing import Any

from games.base import State, View, ViewHeader
from games.tiny_towns.content import CATALOGUE, ORDER
from games.tiny_towns.scoring import score_town, standings
from games.tiny_towns.setup import SLUG


def _cell_view(cell: Any, fed: bool) -> Any:
    if cell is None:
        return None
    if "resource" in cell:
        return {"resource": cell["resource"]}
    slug = cell["building"]
    out: dict[str, Any] = {"building": slug}
    if CATALOGUE[slug].get("feedable"):
        out["fed"] = fed
    if "holds" in cell:
        out["holds"] = cell["holds"]
    if "stored" in cell:
        out["stored"] = list(cell["stored"])
    if cell.get("bond"):
        out["bond"] = list(cell["bond"])
    if cell.get("monument"):
        out["monument"] = True
    return out


def _catalog_entry(slug: str) -> dict[str, Any]:
    entry = CATALOGUE[slug]
    return {
        "name": entry["name"],
        "colour": entry["colour"],
        "pattern": list(entry["pattern"]),
        "monument": bool(entry["monument"]),
        "text": entry["text"],
    }


def _visible_monuments(state: State, viewer: int | None) -> list[str]:
    out: list[str] = []
    for seat, town in enumerate(state["towns"]):
        if town.get("monument") and (town.get("monument_built") or seat == viewer):
            out.append(town["monument"])
        if seat == viewer and state["phase"] == "monuments" and not town.get("monument"):
            out.extend(town.get("monument_options") or [])
    return sorted(set(out), key=ORDER.__getitem__)


def view(state: State, viewer: int | None) -> View:
    """Everything ``viewer`` may see, starting with the ViewHeader keys every renderer relies on."""
    towns = []
    for seat, town in enumerate(state["towns"]):
        result = score_town(state, seat)
        fed = result["fed"]
        own = viewer == seat
        built = bool(town.get("monument_built"))
        towns.append(
            {
                "player": state["names"][seat],
                "cells": [_cell_view(cell, bool(fed >> i & 1)) for i, cell in enumerate(town["cells"])],
                "score": result["total"],
                "breakdown": result["breakdown"],
                "placed": bool(town["placed"]),
                "done": bool(town["done"]),
                "complete": bool(town["complete"]),
                "resigned": bool(town["resigned"]),
                "kicked": bool(town.get("kicked")),
                "monument": town.get("monument") if (built or own) else None,
                "monument_built": built,
                "monument_options": (
                    list(town["monument_options"])
                    if own
                    and state["phase"] == "monuments"
                    and town.get("monument_options")
                    and not town.get("monument")
                    else None
                ),
                "times_master_builder": town["times_master_builder"],
                "cave_used": town["cave_used"],
                "cave": list(town["cave"]),
                "skipped": bool(town["skipped"]),
                "completed_round": town["completed_round"],
                "aside": list(town["aside"]) if built else [],
                "pending_claims": list(town["pending_claims"]),
            }
        )
    if state["phase"] == "finished":
        # The final board shows each town's rank (with the rulebook's tie-breaks) and a solo title.
        for row in standings(state):
            towns[row["seat"]]["rank"] = row["rank"]
            if "title" in row:
                towns[row["seat"]]["title"] = row["title"]
    hall = state.get("town_hall")
    town_hall = None
    if hall:
        town_hall = {
            "mayor": hall["mayor"],
            "cycle_round": (state["round"] - 1) % 3 + 1,
            "draw_pile": len(hall["draw_pile"]),
            "discards": len(hall["discards"]),
            "revealed": hall["revealed"],
        }
    solo = {"revealed": list(state["solo"]["revealed"])} if state.get("solo") else None
    catalog = {slug: _catalog_entry(slug) for slug in state["buildings"]}
    for slug in _visible_monuments(state, viewer):
        catalog[slug] = _catalog_entry(slug)
    header: ViewHeader = {
        "game": SLUG,
        "names": list(state["names"]),
        "viewer": viewer,  # the seat this view was drawn for; None for spectators and the public board
        "finished": state["phase"] == "finished",
    }
    return {
        **header,
        "round": state["round"],
        "phase": state["phase"],
        "variant": state["variant"],
        "master_builder": state["master_builder"] if state["variant"] == "standard" else None,
        "resource": state["resource"],
        "free_choice": state.get("source") == "free",
        "buildings": list(state["buildings"]),
        "catalog": catalog,
        "towns": towns,
        "town_hall": town_hall,
        "solo": solo,
        "cave_rule": bool(state["cave_rule"]),
    }


def private_summary(state: State, seat: int) -> str:
    """What only this seat knows: its dealt or kept monument (and pending Opaleye claims)."""
    if not 0 <= seat < len(state["towns"]):
        return "You are not playing in this game."
    town = state["towns"][seat]
    lines: list[str] = []
    if town.get("monument"):
        entry = CATALOGUE[town["monument"]]
        built = "built" if town.get("monument_built") else "not built yet"
        rows = " / ".join(" ".join(row) for row in entry["pattern"])
        lines.append(f"Your monument: {entry['name']} ({built}) [{rows}]: {entry['text']}")
    elif town.get("monument_options"):
        lines.append("Keep one of your monuments with /tt monument <name>:")
        for slug in town["monument_options"]:
            entry = CATALOGUE[slug]
            rows = " / ".join(" ".join(row) for row in entry["pattern"])
            lines.append(f"  {slug} [{rows}]: {entry['text']}")
    else:
        lines.append("No monuments in this game.")
    if town.get("pending_claims"):
        lines.append(
            "Opaleye's Watch: you may claim "
            + ", ".join(town["pending_claims"])
            + " with /tt claim <building> <square>."
        )
    return "\n".join(lines)
