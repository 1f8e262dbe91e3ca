"""Standings: a resigned player ranks after everyone still playing, whatever their town scores; more Cottages
break a tie that the score, the times as Master Builder and the empty squares leave; the breakdown lists the
buildings in card order.

Written against mutants of games/tiny_towns/scoring.py (``standings``) that bench/mutation.sh left alive (see
bench/mutation_report.md). Scores counted by hand: a Bank 4 VP, a Well 1 VP per adjacent Cottage, an unfed
Cottage 0, each empty square -1.
"""

from __future__ import annotations

from games.tiny_towns import GAME
from tests.tiny_towns.helpers import game, with_town


def test_a_resigned_player_ranks_last_even_with_the_best_town():
    state = game(3)
    state = with_town(state, 0, "bank bank bank . / . . . . / . . . . / . . . .")  # 12 - 13 = -1
    state = with_town(state, 1, "well cottage . . / . . . . / . . . . / . . . .")  # 1 - 14 = -13
    state = with_town(state, 2, "well . . . / . . . . / . . . . / . . . .")  # 0 - 15 = -15
    state, _ = GAME.resign(state, 0)
    table = GAME.standings(state)
    assert [(r["player"], r["score"], r["rank"]) for r in table] == [("p1", -13, 1), ("p2", -15, 2), ("p0", -1, 3)]
    # Two resigned players rank last among themselves by score.
    state, _ = GAME.resign(state, 1)
    table = GAME.standings(state)
    assert [(r["player"], r["score"], r["rank"]) for r in table] == [("p2", -15, 1), ("p0", -1, 2), ("p1", -13, 3)]


def test_more_cottages_break_a_tie_of_score_master_builder_turns_and_empty_squares():
    state = game(2)
    state = with_town(state, 0, "well . . . / . . . . / . . . . / . . . .")  # 0 - 15 = -15, no Cottage
    state = with_town(state, 1, "cottage . . . / . . . . / . . . . / . . . .")  # unfed 0 - 15 = -15, 1 Cottage
    table = GAME.standings(state)
    assert [(r["player"], r["score"], r["rank"]) for r in table] == [("p1", -15, 1), ("p0", -15, 2)]


def test_the_breakdown_lists_the_buildings_in_card_order_then_the_empty_squares():
    state = with_town(
        game(2, buildings="farm,well,chapel,tavern,bakery,warehouse"),
        0,
        "warehouse well cottage tavern / bakery chapel farm . / . . . . / . . . .",
    )
    breakdown = GAME.standings(state)[0]["breakdown"]
    assert list(breakdown) == ["Cottage", "Farm", "Well", "Chapel", "Tavern", "Bakery", "Warehouse", "Empty squares"]
