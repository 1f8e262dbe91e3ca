"""A monument kept in secret but not built changes nothing in the score; built, it does.

Written against mutants of games/tiny_towns/scoring.py (``score_town``) that bench/mutation.sh left alive (see
bench/mutation_report.md). Counted by hand from tiny-towns.reference.md: an unfed Cottage 0 VP (3 with the Grand
Mausoleum of the Rodina built), each empty square -1 (0 with the Cathedral of Caterina built, which is 2 VP).
"""

from __future__ import annotations

from games.tiny_towns.scoring import score_town
from tests.tiny_towns.helpers import game, with_town


def test_the_cathedral_kept_but_not_built_leaves_empty_squares_at_minus_one():
    unbuilt = with_town(game(2), 0, "cottage . . . / . . . . / . . . . / . . . .", monument="cathedral-of-caterina")
    assert score_town(unbuilt, 0)["breakdown"] == {"Cottage": 0, "Empty squares": -15}
    built = with_town(
        game(2), 0, "cottage cathedral-of-caterina . . / . . . . / . . . . / . . . .", monument="cathedral-of-caterina"
    )
    assert score_town(built, 0)["breakdown"] == {"Cottage": 0, "Cathedral of Caterina": 2, "Empty squares": 0}


def test_the_mausoleum_kept_but_not_built_leaves_unfed_cottages_at_zero():
    mausoleum = "grand-mausoleum-of-the-rodina"
    unbuilt = with_town(game(2), 0, "cottage cottage . . / . . . . / . . . . / . . . .", monument=mausoleum)
    assert score_town(unbuilt, 0)["breakdown"] == {"Cottage": 0, "Empty squares": -14}
    built = with_town(game(2), 0, f"cottage cottage {mausoleum} . / . . . . / . . . . / . . . .", monument=mausoleum)
    assert score_town(built, 0)["breakdown"] == {
        "Cottage": 2 * 3,
        "Grand Mausoleum of the Rodina": 0,
        "Empty squares": -13,
    }
