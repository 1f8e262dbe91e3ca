"""Bots: level 0 picks a legal move at random, level 1 plays a simple greedy policy."""

from __future__ import annotations

from games.base import MOVE_KEY, IllegalMove, Move, State
from games.rng import Rng

from .rules import legal_moves

GOOD = 5  # bank or stash a die this high rather than rolling again


def bot_move(state: State, seat: int, level: int) -> Move:
    moves = legal_moves(state, seat)
    if not moves:
        raise IllegalMove("The bot has no move: it is not its turn.")
    if level <= 0:
        # A fixed function of the state, so replays and tests see the same choices; the game's RNG
        # state is only read, never advanced.
        rng = Rng(state["rng"] ^ (seat + 1) * 0x9E3779B97F4A7C15 ^ len(state["players"][seat]["banked"]) << 8)
        return rng.choice(moves)
    hand = state["players"][seat]["hand"]
    by_verb = {(m[MOVE_KEY], m.get("die")) for m in moves}
    best = max(hand)
    if ("stash", best) in by_verb and best >= GOOD:
        return {MOVE_KEY: "stash", "die": best}
    if ("done", None) in by_verb:
        return {MOVE_KEY: "done"}
    banked = state["players"][seat]["banked"]
    if state["doubles"] and banked and ("bank", banked[-1]) in by_verb and banked[-1] >= GOOD - 1:
        return {MOVE_KEY: "bank", "die": banked[-1]}
    if best >= GOOD or ("reroll", min(hand)) not in by_verb:
        return {MOVE_KEY: "bank", "die": best}
    return {MOVE_KEY: "reroll", "die": min(hand)}
