"""One whole round of a seeded 3-player game with the Station Master, move by move: every event
text, which ones redraw the board or reveal something, and the status line after each move.
The amounts come from the reference: the last bidder left goes first with +1 stress (round 1),
players + 1 auction cards on display, +2 stress for a Station Master not moved, 1 HP lost at each
round end at stress 12 or more."""

from __future__ import annotations

from typing import Any

from games.tramways import GAME
from games.tramways.rules import skip_move
from tests.tramways.conftest import new_game

BOARD = {"post_board": True}
SECRET = {"irreversible": True}

# (seat, move, [(text, flags)], status afterwards)
ROUND_ONE: list[tuple[int, dict[str, Any], list[tuple[str, dict[str, bool]]], str]] = [
    (0, {"verb": "pass"}, [("orange passes.", {})], "Round 1: green to bid more than $0 or pass"),
    (
        1,
        {"verb": "pass"},
        [("green passes.", {}), ("Turn order: cat, green, orange. cat goes first: +1 stress.", BOARD)],
        "Round 1: cat to take an auction card",
    ),
    (
        2,
        {"verb": "take", "card": "inspector"},
        [("cat takes Inspector.", {})],
        "Round 1: green to take an auction card",
    ),
    (
        1,
        {"verb": "take", "card": "parcel-p3"},
        [("green takes Parcel P3 and now owns parcel P3.", {})],
        "Round 1: orange to take an auction card",
    ),
    (
        0,
        {"verb": "take", "card": "tram-pass"},
        [("orange takes Tram Pass.", {}), ("Actions: one action each, then two each.", BOARD)],
        "Round 1: cat to act (1 action left)",
    ),
    (
        2,
        {"verb": "done"},
        [("cat is done.", {}), ("cat ends their turn. green to act.", BOARD)],
        "Round 1: green to act (1 action left)",
    ),
    (
        1,
        {"verb": "done"},
        [("green is done.", {}), ("green ends their turn. orange to act.", BOARD)],
        "Round 1: orange to act (1 action left)",
    ),
    (
        0,
        {"verb": "done"},
        [
            ("orange is done.", {}),
            ("Double-action round: two actions each.", {}),
            ("orange ends their turn. cat to act.", BOARD),
        ],
        "Round 1: cat to act (2 actions left)",
    ),
    (
        2,
        {"verb": "done"},
        [("cat is done.", {}), ("cat ends their turn. green to act.", BOARD)],
        "Round 1: green to act (2 actions left)",
    ),
    (
        1,
        {"verb": "done"},
        [("green is done.", {}), ("green ends their turn. orange to act.", BOARD)],
        "Round 1: orange to act (2 actions left)",
    ),
    (
        0,
        {"verb": "done"},
        [
            ("orange is done.", {}),
            ("orange did not move the Station Master: +2 stress.", {}),
            ("Administration: discard, buy a development card, draw up to your hand limit.", BOARD),
        ],
        "Round 1: cat to do administration",
    ),
    (2, {"verb": "done"}, [("green to do their administration.", BOARD)], "Round 1: green to do administration"),
    (1, {"verb": "done"}, [("orange to do their administration.", BOARD)], "Round 1: orange to do administration"),
    (
        0,
        {"verb": "done"},
        [
            ("cat is overstressed: -1 HP.", {}),
            ("Round 1 ends: buildings refill with passengers.", {}),
            ("Round 2 of 6 begins.", BOARD),
            ("Auction cards on display: Express Line, Parcel P1, Investor, Parcel P5.", SECRET),
        ],
        "Round 2: cat to bid more than $0 or pass",
    ),
]


def test_round_one_move_by_move() -> None:
    state = new_game(3, master=True, station=True)
    for index, (seat, move, said, summary) in enumerate(ROUND_ONE):
        assert skip_move(state, seat) == move  # the least move: the round runs on its own
        if index == len(ROUND_ONE) - 1:
            state["players"][2]["stress"] = 12  # cat overstressed when the round ends
        state, events = GAME.apply(state, seat, move)
        assert [(e["text"], {k: v for k, v in e.items() if k != "text"}) for e in events] == said, index
        assert GAME.status(state).summary == summary, index
    players = state["players"]
    assert [p["stress"] for p in players] == [2, 0, 12]  # orange: Station Master; cat: set above
    assert [p["hp"] for p in players] == [0, 0, -1]
    assert state["order"] == [2, 1, 0] and state["display"] == ["express-line", "parcel-p1", "investor", "parcel-p5"]
