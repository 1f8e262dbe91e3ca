"""Scores and standings: banked dice, the doubles bonus, and the stash once the game is over."""

from __future__ import annotations

from typing import Any

from games.base import NAMES_KEY, Standing, State

from .content import DOUBLES_BONUS, solo_par


def breakdown(state: State, seat: int) -> dict[str, int]:
    """Score rows; the stash is secret until the end, so before that it counts 0 for everyone."""
    player = state["players"][seat]
    banked = player["banked"]
    rows = {"Banked": sum(banked)}
    if state["doubles"]:
        rows["Doubles"] = DOUBLES_BONUS * sum(1 for a, b in zip(banked, banked[1:], strict=False) if a == b)
    rows["Stash"] = (player["stash"] or 0) if state["finished"] else 0
    return rows


def standings(state: State) -> list[Standing]:
    """Rank order; equal scores share a rank (1, 1, 3) and players who resigned rank last."""
    rows: list[tuple[tuple[bool, int], Standing]] = []
    for seat, player in enumerate(state["players"]):
        parts = breakdown(state, seat)
        entry: Standing = {
            "seat": seat,
            "player": state[NAMES_KEY][seat],
            "score": sum(parts.values()),
            "rank": 0,
            "breakdown": parts,
        }
        if len(state["players"]) == 1:
            entry["title"] = "Par beaten" if entry["score"] >= solo_par(state["rounds"]) else "Below par"
        rows.append(((bool(player["resigned"]), -entry["score"]), entry))
    rows.sort(key=lambda row: (row[0], row[1]["seat"]))
    result: list[Standing] = []
    previous: Any = None
    rank = 0
    for position, (key, entry) in enumerate(rows, start=1):
        if key != previous:
            rank, previous = position, key
        entry["rank"] = rank
        result.append(entry)
    return result
