"""Rebuilding a game's state from its seed and move log (undo, rollback, check, transcripts)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from games.base import Event, GameSpec, State

RESIGN = "/game resign"
KICK = "/game kick"  # a moderator removed the seat (the game's ``kick``, else its ``resign``)
HOST_LEVEL = (RESIGN, KICK)


def apply_text(spec: GameSpec, state: State, seat: int, text: str) -> tuple[State, list[Event]]:
    """Apply one logged command: a game move, or a host-level resignation or kick."""
    word = text.strip().lower()
    if word == RESIGN:
        return spec.resign(state, seat)
    if word == KICK:
        return spec.kick(state, seat) if spec.kick is not None else spec.resign(state, seat)
    return spec.apply(state, seat, spec.parse(text))


def rebuild(
    spec: GameSpec, players: Sequence[str], options: Mapping[str, Any], seed: int, moves: Iterable[tuple[int, str]]
) -> State:
    """Setup from seed, then apply (seat, text) moves in order. Raises IllegalMove on a bad log."""
    state = spec.setup(list(players), dict(options), seed)
    for seat, text in moves:
        state, _ = apply_text(spec, state, seat, text)
    return state
