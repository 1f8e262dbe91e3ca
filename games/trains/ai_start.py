"""Trains level 2: where to place the starting rail.

Level 1's choice (cities and remote locations weighed by their worth over their distance), with
the crowding of other seats' starts as a tunable weight: sharing cities with another seat makes
every station there help both seats alike, and every shared hex costs a coin and a Waste.
"""

from __future__ import annotations

from games.base import State
from games.trains import ai, board
from games.trains.content import MAPS

_CROWD = 0.0  # points taken off a start per other seat's start within _NEAR (tuned: 0 beat 3 and 10)
_NEAR = 4.0  # path cost within which another start crowds this one


def best_start(state: State, seat: int) -> str:
    gmap = MAPS[state["map"]]
    others = [p["start"] for s, p in enumerate(state["players"]) if s != seat and p["start"]]
    table = ai._static_distances(state["map"])
    best, best_score = "", -1e9
    for h in board.start_hexes(state):
        dist = table[h]
        score = 0.0
        for c in gmap.cities:
            score += ai._city_worth(state, c) / (1 + dist.get(c, 99)) ** 1.5
        for r, place in gmap.remotes.items():
            score += place.value / (1 + dist.get(r, 99)) ** 1.5
        for o in others:
            if dist.get(o, 99) < _NEAR:
                score -= _CROWD
        if score > best_score:
            best, best_score = h, score
    return best
