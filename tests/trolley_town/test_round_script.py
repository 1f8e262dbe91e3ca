"""Round 1 of a seeded 2-player game move by move, into round 2's production: every event text,
which ones redraw the board or reveal a tile, and the status line after each move."""

from __future__ import annotations

from typing import Any

from games.trolley_town import GAME
from tests.trolley_town.helpers import game, play

BOARD = {"post_board": True}

# (seat, command, [(text, flags)], status afterwards)
ROUND_ONE: list[tuple[int, str, list[tuple[str, dict[str, Any]]], str]] = [
    (
        0,
        "/trolley build field 0,1",
        [
            ("ann builds Field at 0,1, paying 1 wood.", {"irreversible": False}),
            ("bob to build, lay routes or pass.", BOARD),
        ],
        "Round 1 · Construction: bob to build, lay routes or pass",
    ),
    (
        1,
        "/trolley route straight 0,1 90 curve 1,1 0",
        [
            ("bob lays a straight at 0,1, lays a curve at 1,1, paying 1 stone + 1 wood.", {}),
            ("ann to build, lay routes or pass.", BOARD),
        ],
        "Round 1 · Construction: ann to build, lay routes or pass",
    ),
    (
        0,
        "/trolley pass",
        [("ann passes for this round.", {}), ("bob to build, lay routes or pass.", BOARD)],
        "Round 1 · Construction: bob to build, lay routes or pass",
    ),
    (
        1,
        "/trolley pass",
        [
            ("bob passes for this round.", {}),
            ("Round 1: transport. Move goods along your routes, then /trolley done.", BOARD),
        ],
        "Round 1 · Transport: ann, bob to transport, then done",
    ),
    (
        0,
        "/trolley done",
        [("ann processes. Nothing to convert.", BOARD)],
        "Round 1 · Transport: bob to transport, then done",
    ),
    (
        1,
        "/trolley done",
        [
            ("bob processes. Nothing to convert.", {}),
            ("Round 2 begins; bob is the start player.", {"irreversible": True}),
            ("Round 2: production.", {}),
            ("ann's Forest at 0,0: +1 wood.", {}),
            ("ann's Field at 0,1: +2 wheat.", {}),
            ("bob's Forest at 0,0: +1 wood.", {}),
            ("bob's Mountain at 1,0: +1 stone.", {}),
            ("bob to build, lay routes or pass.", BOARD),
        ],
        "Round 2 · Construction: bob to build, lay routes or pass",
    ),
]


def test_round_one_move_by_move() -> None:
    state = game(2)
    assert GAME.status(state).summary == "Round 1 · Construction: ann to build, lay routes or pass"
    for index, (seat, command, said, summary) in enumerate(ROUND_ONE):
        state, events = play(state, seat, command)
        assert [(e["text"], {k: v for k, v in e.items() if k != "text"}) for e in events] == said, index
        assert GAME.status(state).summary == summary, index
    assert (state["round"], state["start"], state["turn"], state["turns"]) == (2, 1, 1, 5)
    assert state["passed"] == [False, False]
