"""Which squares the best feeding allocation feeds, in towns where the choice decides the score.

Written against mutants of games/tiny_towns/scoring.py (``_Feeding``, ``best_feeding``) that bench/mutation.sh
left alive (see bench/mutation_report.md). Every town here can occur in a game: one building per colour, at
most one monument. Expected scores are counted by hand from tiny-towns.reference.md: a fed Cottage 3 VP, unfed
0 (3 with the Grand Mausoleum of the Rodina), a fed Barrett Castle 5 VP and 2 Cottages for every count, a Chapel
1 VP per fed Cottage, a Temple 4 VP beside 2 or more fed Cottages, Farm and Greenhouse 0, each empty square -1.
Among allocations that score the same, the engine feeds the first it finds (Greenhouse groups in reading
order of their first square; a Farm's choices from the most Temple neighbours down); the fed squares are
shown on the board, so the tests pin them too.
"""

from __future__ import annotations

from typing import Any

from games.tiny_towns.patterns import CELL_NAMES
from games.tiny_towns.scoring import score_town
from tests.tiny_towns.helpers import game, with_town

MAUSOLEUM = "grand-mausoleum-of-the-rodina"


def scored(buildings: str, text: str, monument: str | None = None) -> tuple[dict[str, Any], list[str]]:
    """(score_town's result, the fed squares by name) for seat 0's town."""
    result = score_town(with_town(game(2, buildings), 0, text, monument=monument), 0)
    return result, [CELL_NAMES[i] for i in range(16) if result["fed"] >> i & 1]


def test_with_the_mausoleum_the_greenhouse_feeds_the_group_beside_the_temple_not_the_largest():
    # Unfed Cottages score 3 as well, so only the Temple depends on the choice: the 3 Cottages around it
    # (A1 A2 B2, two of them beside the Temple on B1) beat the 9 Cottages on the right (only C1 touches it).
    result, fed = scored(
        "greenhouse,well,temple,tavern,theater,factory",
        "cottage temple cottage cottage / cottage cottage greenhouse cottage / "
        f"{MAUSOLEUM} . cottage cottage / cottage cottage cottage cottage",
        monument=MAUSOLEUM,
    )
    assert fed == ["A1", "A2", "B2"]
    assert result["breakdown"] == {
        "Cottage": 12 * 3,
        "Greenhouse": 0,
        "Temple": 4,
        "Grand Mausoleum of the Rodina": 0,
        "Empty squares": -1,
    }
    assert result["total"] == 39


def test_with_the_mausoleum_and_a_chapel_the_greenhouse_feeds_the_largest_group():
    # Every Cottage scores 3 fed or not; the Chapel counts the fed ones, so C1 D1 D2 (3) beat A1 (1).
    result, fed = scored(
        "greenhouse,well,chapel,tavern,theater,factory",
        f"cottage . cottage cottage / . . . cottage / chapel greenhouse . . / {MAUSOLEUM} . . .",
        monument=MAUSOLEUM,
    )
    assert fed == ["C1", "D1", "D2"]
    assert result["breakdown"] == {
        "Cottage": 4 * 3,
        "Greenhouse": 0,
        "Chapel": 3,
        "Grand Mausoleum of the Rodina": 0,
        "Empty squares": -9,
    }
    assert result["total"] == 6


def test_a_farm_feeds_barrett_castle_first_even_beside_five_chapels():
    # Fed, the Castle is worth 5 + 2 per Chapel = 15 and a Cottage 3 + 1 per Chapel = 8: the Farm's 4 slots
    # go to the Castle and 3 Cottages (A1 B1 C1), not to the 4 Cottages.
    result, fed = scored(
        "farm,well,chapel,tavern,theater,factory",
        "cottage cottage cottage cottage / chapel chapel chapel chapel / chapel farm barrett-castle . / . . . .",
        monument="barrett-castle",
    )
    assert fed == ["A1", "B1", "C1", "C3"]
    assert result["breakdown"] == {
        "Cottage": 3 * 3,
        "Farm": 0,
        "Chapel": 5 * (3 + 2),
        "Barrett Castle": 5,
        "Empty squares": -5,
    }
    assert result["total"] == 34


def test_a_farm_feeds_two_cottages_beside_each_of_two_temples():
    # 5 Cottages, 4 slots: A1 C1 B2 touch the Temple on B1, D3 C4 the one on C3. Feeding the first four in
    # reading order would leave the second Temple with one fed neighbour.
    result, fed = scored(
        "farm,well,temple,tavern,theater,factory",
        "cottage temple cottage . / . cottage . . / . . temple cottage / farm . cottage .",
    )
    assert fed == ["A1", "C1", "D3", "C4"]
    assert result["breakdown"] == {"Cottage": 4 * 3, "Farm": 0, "Temple": 2 * 4, "Empty squares": -8}
    assert result["total"] == 12


def test_a_farm_feeds_barrett_castle_and_three_cottages_that_fill_both_temples():
    # B2 touches both Temples (B1, B3): A1 B2 A3 satisfy both with 3 slots, the 4th feeds the Castle (5 VP).
    # Four Cottages would satisfy both Temples too, but leave the Castle unfed (2 VP less).
    result, fed = scored(
        "farm,well,temple,tavern,theater,factory",
        "cottage temple cottage farm / . cottage . . / cottage temple . . / . . . barrett-castle",
        monument="barrett-castle",
    )
    assert fed == ["A1", "B2", "A3", "D4"]
    assert result["breakdown"] == {
        "Cottage": 3 * 3,
        "Farm": 0,
        "Temple": 2 * 4,
        "Barrett Castle": 5,
        "Empty squares": -8,
    }
    assert result["total"] == 14


def test_a_greenhouse_feeds_the_first_of_two_equal_groups():
    result, fed = scored(
        "greenhouse,well,chapel,tavern,theater,factory",
        "cottage cottage . cottage / . . . cottage / greenhouse . . . / . . . .",
    )
    assert fed == ["A1", "B1"]
    assert result["breakdown"] == {"Cottage": 2 * 3, "Greenhouse": 0, "Empty squares": -11}


def test_a_town_without_cottages_has_no_fed_square():
    result, fed = scored("farm,well,chapel,tavern,theater,factory", "farm well . . / . . . . / . . . . / . . . .")
    assert result == {
        "total": -14,
        "breakdown": {"Farm": 0, "Well": 0, "Empty squares": -14},
        "fed": 0,
        "empty": 14,
        "cottages": 0,
    }
    assert fed == []
