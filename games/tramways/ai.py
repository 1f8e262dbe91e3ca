"""Bot seats. Level 0: a random legal move. Level 1 and up: the greedy strategy in strategy.py.

Level 0 picks a kind of move at random and then one move of that kind (for rails: a random
start, then one of its moves), so it never lists the thousands of rails moves a hand of rail
cards allows. Every move it returns is built by the same generators legal_moves uses, so it is
always one of the listed moves.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from games.base import MOVE_KEY, IllegalMove, Move, State
from games.rng import Rng
from games.tramways import movegen


def _rng(state: State, seat: int) -> Rng:
    salt = ((seat + 1) * 0x9E3779B97F4A7C15) ^ (state["move_number"] * 0xBF58476D1CE4E5B9)
    return Rng(state["rng"] ^ salt)


def random_move(state: State, seat: int) -> Move:
    rng = _rng(state, seat)
    if state["phase"] != "actions" or seat != state["current"]:
        moves = movegen.legal_moves(state, seat)
        if not moves:
            raise IllegalMove("This seat has nothing to do now.")
        return rng.choice(moves)
    # Each kind of move is generated only when picked; an empty kind is dropped and another picked.
    kinds: list[Callable[[], list[Move]]] = []
    if state["turn"]["actions_left"] > 0:

        def rails() -> list[Move]:
            # The starts are looked for only when rails are picked: most random moves are not rails.
            starts = movegen.rail_starts(state, seat)
            if not starts:
                return []
            start = starts[rng.below(len(starts))]
            move = movegen.sample_rails(state, seat, start, rng.below)
            return [move] if move is not None else movegen.rail_moves_from(state, seat, start, {})

        kinds.append(rails)
        generators: tuple[Callable[[State, int], list[Move]], ...] = (
            movegen.trip_moves,
            movegen.upgrade_link_moves,
            movegen.building_moves,
            movegen.use_moves,
        )
        for generator in generators:
            kinds.append(functools.partial(generator, state, seat))
    kinds.append(lambda: movegen.master_moves(state, seat))
    kinds.append(lambda: [{MOVE_KEY: "done"}])
    while kinds:
        moves = kinds.pop(rng.below(len(kinds)))()
        if moves:
            return rng.choice(moves)
    return {MOVE_KEY: "done"}


def bot_move(state: State, seat: int, level: int) -> Move:
    if state["phase"] == "over" or seat != state["current"] or state["players"][seat]["resigned"]:
        raise IllegalMove("This seat has nothing to do now.")
    if level <= 0:
        return random_move(state, seat)
    from games.tramways.strategy import choose

    return choose(state, seat)
