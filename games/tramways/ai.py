"""Bot seats. Level 0: a random legal move. Level 1+: a greedy strategy (see ``strategy``)."""

from __future__ import annotations

from games.base import IllegalMove, Move, State
from games.rng import Rng
from games.tramways.movegen import legal_moves


def random_move(state: State, seat: int) -> Move:
    moves = legal_moves(state, seat)
    if not moves:
        raise IllegalMove("This seat has nothing to do now.")
    salt = ((seat + 1) * 0x9E3779B97F4A7C15) ^ (state["move_number"] * 0xBF58476D1CE4E5B9)
    return Rng(state["rng"] ^ salt).choice(moves)


def bot_move(state: State, seat: int, level: int) -> Move:
    if level <= 0:
        return random_move(state, seat)
    from games.tramways.strategy import choose

    return choose(state, seat)
