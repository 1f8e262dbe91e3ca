"""Level-1 bot: placeholder greedy policy (replaced below)."""

from __future__ import annotations

from games.base import Move, State
from games.tramways.movegen import legal_moves


def choose(state: State, seat: int) -> Move:
    return legal_moves(state, seat)[-1]
