"""Feeding that mixes a fixed feeder with slots: a Cottage the Granary already feeds must not use up a Farm's
slot. Written against mutants of _Feeding.best_slots that bench/mutation.sh left alive (see
bench/mutation_report.md); the expected scores are counted by hand from the rulebook (a fed Cottage 3 VP, an
unfed one 0, each empty square -1, Farm and Granary 0 themselves).
"""

from __future__ import annotations

from games.tiny_towns.scoring import score_town
from tests.tiny_towns.helpers import game, with_town


def test_a_farm_feeds_four_cottages_the_granary_does_not_already_feed():
    # Granary on B2 feeds A1, B1, C1 (its 8 surrounding squares); the Farm feeds 4 of the other 6 Cottages.
    state = with_town(
        game(2),
        0,
        "cottage cottage cottage cottage / . granary . cottage / . . . cottage / cottage cottage cottage farm",
    )
    result = score_town(state, 0)
    assert result["breakdown"] == {"Cottage": 7 * 3, "Farm": 0, "Granary": 0, "Empty squares": -5}
    assert result["total"] == 16


def test_with_every_cottage_in_the_granarys_reach_the_farm_has_nothing_left_to_feed():
    state = with_town(
        game(2), 0, "cottage cottage cottage . / cottage granary cottage . / cottage cottage cottage . / . . . farm"
    )
    result = score_town(state, 0)
    assert result["breakdown"] == {"Cottage": 8 * 3, "Farm": 0, "Granary": 0, "Empty squares": -6}
