"""Trains level 2: where to lay rails.

Level 1's planner (frontier hexes ranked by the best target's worth over its distance, less the
rail's cost) with level 2's own worth of a target: a city another seat already reaches is worth
less. A rail there costs a coin and a Waste more, and every station in it scores for that seat as
much as for the bot, while a city of its own lets each station the bot builds count for it alone
(ai_play.py builds only there). Tuned on seeded games: -2 (as -1 and -3) beat 0 (level 1's worth), +1 and +2.
"""

from __future__ import annotations

from collections.abc import Iterator

from games.base import MOVE_KEY, Move, State
from games.trains import ai
from games.trains.content import CARDS, MAPS, RULES

_SHARED = -2.0  # worth added to a city another seat already reaches
_SLOTS = 0.6  # weight of the station bonus a city can reach when full
_REMOTE = 1.0  # weight of a remote location's printed value


def targets(state: State, seat: int) -> dict[str, float]:
    gmap = MAPS[state["map"]]
    bonus = RULES["station_bonus"]
    out: dict[str, float] = {}
    for h, city in gmap.cities.items():
        seats = state["rails"].get(h, ())
        if seat in seats:
            continue
        stations = state["stations"].get(h, 0)
        worth = bonus[min(city.value, 3)] * _SLOTS + bonus[min(stations, 3)] + 1
        if seats and stations < city.value:
            worth += _SHARED
        out[h] = worth
    for h, place in gmap.remotes.items():
        if seat not in state["rails"].get(h, ()):
            out[h] = _REMOTE * place.value
    return out


def rail_moves(state: State, seat: int) -> Iterator[Move]:
    """Level 1's rail moves, ranked by level 2's worth of each target."""
    return ai._rail_moves(state, seat, targets)


def is_rail_move(move: Move) -> bool:
    if move[MOVE_KEY] != "play":
        return False
    card = CARDS[str(move["card"])]
    return card.kind == "lay_rails" or (card.slug == "central-station" and move.get("args", [""])[0] == "rail")
