"""Trains level 2: where to put a station (level 1's other plays are kept).

A station scores for every seat with a rail in its city, so one in a city the other seats share
gains the bot nothing over them and costs it a Waste. Level 2 counts another seat's rail as
fully cancelling its own, and keeps a station card in hand rather than help everyone equally.
"""

from __future__ import annotations

from games.base import MOVE_KEY, Move, State
from games.trains import board
from games.trains.content import CARDS, RULES

_THEIRS = 1.0  # weight of another seat's rail in the city against the bot's own
_REACH = 0.4  # share of the gain counted for a city the bot can reach next (no one else there)


def station_value(state: State, seat: int, h: str) -> float:
    bonus = RULES["station_bonus"]
    s = state["stations"].get(h, 0)
    gain = bonus[min(s + 1, 3)] - bonus[min(s, 3)]
    seats = state["rails"].get(h, [])
    mine = 1 if seat in seats else 0
    theirs = len(seats) - mine
    value = gain * (mine - _THEIRS * theirs)
    if not mine and not theirs and h in board.frontier(state, seat):
        value += _REACH * gain
    return value


def station_move(state: State, seat: int, card: str) -> Move | None:
    """The best station for ``card`` (a plain station card), or None: better kept in hand."""
    best, best_value = None, 1e-9
    for h in board.station_hexes(state):
        value = station_value(state, seat, h)
        if value > best_value:
            best, best_value = h, value
    if best is None:
        return None
    return {MOVE_KEY: "play", "card": card, "args": [best]}


def is_plain_station(move: Move) -> bool:
    return move[MOVE_KEY] == "play" and CARDS[str(move["card"])].kind == "station"
