"""Final scores worked by hand from the reference (tramways.reference.md, "End"): HP, plus 1 HP per
$5 left, minus the stress penalty (0-2: 0; 3-5: -2; 6-8: -5; 9-11: -9; 12+: -14); ties: lower
stress, then more money, then shared. Resigned and kicked players rank last. Plus the statistics
of buildings built."""

from __future__ import annotations

from typing import Any

import pytest

from games.tramways import GAME
from games.tramways.rules import kick, resign
from games.tramways.scoring import breakdown, standings, stats
from tests.tramways.conftest import new_game


def with_players(*rows: tuple[int, int, int], over: bool = False) -> dict[str, Any]:
    """A game whose players have these (HP, money, stress)."""
    state = new_game(len(rows))
    for player, (hp, money, stress) in zip(state["players"], rows, strict=True):
        player["hp"], player["money"], player["stress"] = hp, money, stress
    if over:
        state["phase"] = "over"
    return state


def table(state: dict[str, Any]) -> list[tuple[str, int, int, str | None]]:
    return [(r["player"], r["score"], r["rank"], r.get("title")) for r in standings(state)]


@pytest.mark.parametrize(
    ("hp", "money", "stress", "parts"),
    [
        (10, 4, 2, {"HP": 10, "money": 0, "stress": 0}),
        (10, 5, 3, {"HP": 10, "money": 1, "stress": -2}),
        (0, 14, 5, {"HP": 0, "money": 2, "stress": -2}),
        (7, 0, 6, {"HP": 7, "money": 0, "stress": -5}),
        (7, 25, 8, {"HP": 7, "money": 5, "stress": -5}),
        (20, 9, 9, {"HP": 20, "money": 1, "stress": -9}),
        (20, 10, 11, {"HP": 20, "money": 2, "stress": -9}),
        (30, 3, 12, {"HP": 30, "money": 0, "stress": -14}),
        (-1, 0, 15, {"HP": -1, "money": 0, "stress": -14}),
    ],
)
def test_breakdown_by_hand(hp: int, money: int, stress: int, parts: dict[str, int]) -> None:
    state = with_players((hp, money, stress), (0, 0, 0))
    assert breakdown(state, 0) == parts
    assert standings(state)[[r["seat"] for r in standings(state)].index(0)]["score"] == sum(parts.values())


def test_equal_scores_go_to_lower_stress_then_more_money_then_are_shared() -> None:
    # orange 11 - 5 = 6 at stress 6; green 6 at stress 0: green first.
    assert table(with_players((11, 0, 6), (6, 0, 0))) == [("green", 6, 1, None), ("orange", 6, 2, None)]
    # orange 5 + 0 = 5 with $4; green 4 + 1 = 5 with $5: green first.
    assert table(with_players((5, 4, 0), (4, 5, 0))) == [("green", 5, 1, None), ("orange", 5, 2, None)]
    # orange and cat: 10 + 1 - 2 = 9, same stress and money: shared second; green 12 + 0 - 2 = 10.
    state = with_players((10, 9, 3), (12, 4, 3), (10, 9, 3))
    assert table(state) == [("green", 10, 1, None), ("orange", 9, 2, None), ("cat", 9, 2, None)]


def test_titles_and_the_summary_once_the_game_is_over() -> None:
    state = with_players((10, 9, 3), (12, 4, 3), (10, 9, 3), over=True)
    assert table(state) == [("green", 10, 1, "winner"), ("orange", 9, 2, None), ("cat", 9, 2, None)]
    assert GAME.status(state).summary == "Game over: green wins with 10 HP."
    shared = with_players((10, 9, 3), (2, 4, 3), (10, 9, 3), over=True)
    assert table(shared) == [("orange", 9, 1, "shared win"), ("cat", 9, 1, "shared win"), ("green", 0, 3, None)]
    assert GAME.status(shared).summary == "Game over: orange and cat share the win with 9 HP."


def test_resigned_and_kicked_rank_last_whatever_their_score() -> None:
    state = with_players((30, 0, 0), (1, 0, 0), (20, 0, 0))
    state, _ = resign(state, 0)
    state, _ = kick(state, 2)
    assert state["phase"] == "over"
    # Among those gone, the usual order: orange's 30 before cat's 20.
    assert table(state) == [("green", 1, 1, "winner"), ("orange", 30, 2, "resigned"), ("cat", 20, 3, "kicked")]
    assert GAME.status(state).summary == "Game over: green wins with 1 HP."


def test_everyone_gone_means_no_winner() -> None:
    state = with_players((3, 0, 0))
    state, _ = resign(state, 0)
    assert table(state) == [("orange", 3, 1, "resigned")]
    assert GAME.status(state).summary == "Game over."


def test_statistics_count_the_buildings_each_player_built() -> None:
    state = new_game(3)
    state["built"] = {
        "P1": {"type": "R", "owner": 0, "upgraded": False},
        "P2": {"type": "S", "owner": 2, "upgraded": False},
        "P3": {"type": "R", "owner": 0, "upgraded": True},
        "P4": {"type": "L", "owner": 2, "upgraded": False},
        "P5": {"type": "Q", "owner": 1, "upgraded": False},
    }
    assert stats(state) == {
        "map": None,
        "counted": "buildings built",
        "counts": [{"Residence": 2}, {"Q": 1}, {"Station": 1, "Leisure": 1}],
    }
    assert stats(new_game(2))["counts"] == [{}, {}]
