"""Trains level 2: buy decisions judged by playing the game out (determinized level-1 rollouts).

A candidate buy (or buying nothing) is applied to a determinized copy of the state and the rest
of the game is played by level 1 for every seat; the candidate with the best average outcome over
a few determinizations wins. Level 1's own choice is always among the candidates, so the search
is a one-step improvement on level 1 (the rollout method) rather than a new, untested plan.

Determinizing hides what the bot may not know: its own draw pile is re-shuffled (its order is
hidden from its owner too); each other seat's hand, draw pile and discard pile are pooled and
dealt afresh at their public sizes (what a seat holds overall follows from its public buys); and
the engine's shuffle seed is replaced. Every shuffle starts from sorted cards, so the result
depends on what a zone holds, never on its order.
"""

from __future__ import annotations

from games.base import MOVE_KEY, IllegalMove, Move, State
from games.rng import Rng
from games.trains import ai
from games.trains.copying import clone
from games.trains.rules import apply
from games.trains.scoring import rails_on_board, score

_MAX_MOVES = 4000  # a rollout that has not ended by then is cut off (never seen; a guard)
_WIN = 6.0  # points a win is worth over the margin: the bench counts wins, the margin breaks ties


def determinize(state: State, seat: int, rng: Rng) -> State:
    """A copy of ``state`` with every secret ``seat`` cannot see dealt afresh from ``rng``."""
    new = clone(state)
    for other, player in enumerate(new["players"]):
        if other == seat:
            player["deck"] = rng.shuffled(sorted(player["deck"]))
            continue
        pool = rng.shuffled(sorted([*player["hand"], *player["deck"], *player["discard"]]))
        cut, cut2 = len(player["hand"]), len(player["hand"]) + len(player["deck"])
        player["hand"], player["deck"], player["discard"] = pool[:cut], pool[cut:cut2], pool[cut2:]
    new["rng"] = rng.next_u64()
    return new


def outcome(state: State, seat: int) -> float:
    """Margin over the best other seat, plus a bonus for winning (ties: half, by rails)."""
    mine = (score(state, seat), rails_on_board(state, seat))
    best = max(
        (score(state, s), rails_on_board(state, s))
        for s, p in enumerate(state["players"])
        if s != seat and not p["resigned"]
    )
    win = 1.0 if mine > best else (0.5 if mine == best else 0.0)
    return _WIN * win + (mine[0] - best[0])


def play_out(state: State, seat: int, first: Move) -> float:
    """``first`` by ``seat``, then level 1 for everyone to the end; the outcome for ``seat``."""
    current, _ = apply(state, seat, first)
    for _ in range(_MAX_MOVES):
        if current["phase"] == "over":
            break
        current = _level_one_step(current, current["current"])
    return outcome(current, seat)


def _level_one_step(state: State, seat: int) -> State:
    """Level 1's move (ai.bot_move at level 1, play phase), applied: the first of its candidates
    that applies is kept as it is, not applied a second time (rollouts spend their time here)."""
    for move in ai._candidates(state, seat):
        try:
            new, _ = apply(state, seat, move)
        except IllegalMove:
            continue
        return new
    return apply(state, seat, {MOVE_KEY: "end"})[0]


def best_move(state: State, seat: int, candidates: list[Move], samples: int, rng: Rng) -> Move:
    """The candidate with the best mean outcome over ``samples`` shared determinizations."""
    worlds = [determinize(state, seat, rng) for _ in range(samples)]
    best: tuple[float, int] = (-1e18, 0)
    for index, move in enumerate(candidates):
        try:
            total = sum(play_out(world, seat, move) for world in worlds)
        except IllegalMove:
            continue
        if total > best[0] + 1e-9:
            best = (total, index)
    return candidates[best[1]]


__all__ = ["best_move", "determinize", "outcome", "play_out"]
