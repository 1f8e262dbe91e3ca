"""Standings: victory points by timing; ties share the victory (rulebook); solo titles."""

from __future__ import annotations

from games.base import PlayStats, Standing, State
from games.trolley_town.content import RULES

PARTS = ("immediate", "production", "construction", "processing", "end")


def title_for(points: int) -> str | None:
    """The solo title earned with ``points`` (each title from its score up), or None below 40."""
    found = None
    for threshold, title in RULES.titles:
        if points >= threshold:
            found = title
    return found


def standings(state: State) -> list[Standing]:
    rows = []
    for seat, name in enumerate(state["names"]):
        town = state["towns"][seat]
        parts = {part: int(town["scored"].get(part, 0)) for part in PARTS}
        rows.append((bool(state["resigned"][seat]), -int(town["vp"]), seat, name, parts, int(town["vp"])))
    rows.sort()
    result: list[Standing] = []
    for index, (resigned, negative, seat, name, parts, points) in enumerate(rows):
        previous = rows[index - 1] if index else None
        shared = previous is not None and previous[:2] == (resigned, negative)
        entry: Standing = {
            "seat": seat,
            "player": name,
            "score": points,
            "rank": result[-1]["rank"] if shared else index + 1,
            "breakdown": parts,
        }
        if resigned:
            entry["title"] = "kicked" if state.get("kicked", [False] * (seat + 1))[seat] else "resigned"
        elif len(state["names"]) == 1 and state["phase"] == "finished":
            title = title_for(points)
            entry["title"] = title or "no title yet (40 VP for Rookie)"
        result.append(entry)
    return result


STARTING_TILES = ("forest", "mountain")  # every town starts with one of each: not built


def stats(state: State) -> PlayStats:
    """Buildings each player built from the market (routes and the two starting tiles left out)."""
    counts: list[dict[str, int]] = []
    for town in state["towns"]:
        built: dict[str, int] = {}
        for cell in town["cells"].values():
            if "t" in cell:
                built[cell["t"]] = built.get(cell["t"], 0) + 1
        for tile in STARTING_TILES:
            if built.get(tile):
                built[tile] -= 1
        counts.append({tile: n for tile, n in built.items() if n > 0})
    return {"map": None, "counted": "buildings built", "counts": counts}
