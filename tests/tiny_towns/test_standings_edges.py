"""Standings: a resigned player ranks after everyone still playing, whatever their town scores.

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
