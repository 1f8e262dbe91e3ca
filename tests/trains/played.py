"""Every (state, seat, move) of seeded random Trains games: the material the fast-path tests
compare the engine's shortcuts against its plain rules on."""

from __future__ import annotations

from typing import Any

from games.base import State
from games.rng import Rng
from games.trains import GAME

Record = tuple[State, int, dict[str, Any]]


def played(map_name: str, players: int, seeds: range, picks: int) -> list[Record]:
    """(state, seat, move) of every move of seeded random games (another kingdom per seed); the
    moves are drawn by ``Rng(seed + picks)``, so each test file can see games of its own."""
    out = []
    for seed in seeds:
        state = GAME.setup([f"p{i}" for i in range(players)], {"map": map_name}, seed)
        picker = Rng(seed + picks)
        while not GAME.status(state).finished:
            seat = GAME.status(state).to_act[0]
            move = picker.choice(GAME.legal_moves(state, seat))
            out.append((state, seat, move))
            state, _ = GAME.apply(state, seat, move)
    return out


def sample(picks: int) -> list[Record]:
    """Three 4-player Tokyo games and two 3-player Osaka games."""
    return played("tokyo", 4, range(3), picks) + played("osaka", 3, range(3, 5), picks)
