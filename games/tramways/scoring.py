"""Final scores and standings: HP, plus $1 HP per $5 left, minus the stress penalty.

Ties: lower stress wins, then more money; a further tie is shared. Resigned players rank
after everyone still playing.
"""

from __future__ import annotations

from typing import Any

from games.base import PlayStats, Standing, State
from games.tramways.content import BUILDING_NAMES, SETTINGS, stress_penalty


def breakdown(state: State, seat: int) -> dict[str, int]:
    player = state["players"][seat]
    return {
        "HP": player["hp"],
        "money": player["money"] // SETTINGS["money_per_hp"],
        "stress": -stress_penalty(player["stress"]),
    }


def score(state: State, seat: int) -> int:
    return sum(breakdown(state, seat).values())


def standings(state: State) -> list[Standing]:
    rows: list[dict[str, Any]] = []
    for seat, name in enumerate(state["names"]):
        player = state["players"][seat]
        parts = breakdown(state, seat)
        rows.append(
            {
                "seat": seat,
                "player": name,
                "score": sum(parts.values()),
                "key": (player["resigned"], -sum(parts.values()), player["stress"], -player["money"]),
                "resigned": player["resigned"],
                "breakdown": parts,
            }
        )
    rows.sort(key=lambda r: (r["key"], r["seat"]))
    result: list[Standing] = []
    for i, row in enumerate(rows):
        rank = result[-1]["rank"] if i and rows[i - 1]["key"] == row["key"] else i + 1
        entry: Standing = {
            "seat": row["seat"],
            "player": row["player"],
            "score": row["score"],
            "rank": rank,
            "breakdown": row["breakdown"],
        }
        if row["resigned"]:
            entry["title"] = "kicked" if state["players"][row["seat"]].get("kicked") else "resigned"
        result.append(entry)
    if state["phase"] == "over" and result and not rows[0]["resigned"]:
        winners = [e for e in result if e["rank"] == 1]
        for e in winners:
            e["title"] = "shared win" if len(winners) > 1 else "winner"
    return result


# The reference's names for the building types (tramways.reference.md, "Cells").


def stats(state: State) -> PlayStats:
    """Buildings each player built on their parcels (the pre-printed buildings belong to no one)."""
    counts: list[dict[str, int]] = [{} for _ in state["names"]]
    for built in state["built"].values():
        name = BUILDING_NAMES.get(built["type"], built["type"])
        counts[built["owner"]][name] = counts[built["owner"]].get(name, 0) + 1
    return {"map": None, "counted": "buildings built", "counts": counts}
