"""The pattern module's small pieces, checked directly: shapes never hold an empty square, the reference
matcher (Trading Post wildcards, at least one real cube), the count pre-filter at its boundaries, cell
names, and the end-of-game building counts.

Written against mutants bench/mutation.sh left alive in games/tiny_towns/patterns.py and scoring.py
(see bench/mutation_report.md); expected values are worked out by hand from the rulebook patterns.
"""

from __future__ import annotations

import pytest

from games.tiny_towns.content import CATALOGUE
from games.tiny_towns.patterns import (
    ADJACENT,
    PLACEMENTS,
    SURROUNDING,
    cell_index,
    could_match,
    matches,
    orientations,
)
from games.tiny_towns.scoring import stats
from tests.tiny_towns.helpers import game, with_town


@pytest.mark.parametrize("slug", sorted(CATALOGUE))
def test_every_orientation_holds_only_the_patterns_cubes(slug):
    cubes = sorted(ch for row in CATALOGUE[slug]["pattern"] for ch in row if ch != ".")
    for shape in orientations(CATALOGUE[slug]["pattern"]):
        assert sorted(ch for _, _, ch in shape) == cubes


def test_the_chapel_has_eight_orientations_and_twelve_placements_by_hand():
    # ..G / SGS: an L-like 2x3 shape without symmetry: 8 orientations; 2x3 fits 3x2 = 6 ways, 3x2 too.
    assert len(orientations(CATALOGUE["chapel"]["pattern"])) == 8
    assert len(PLACEMENTS["chapel"]) == 8 * 6
    # The Well (WS): 4 orientations (W left, right, above, below the S), 12 offsets each.
    assert len(PLACEMENTS["well"]) == 2 * 12 + 2 * 12


def _text_variants(rows: list[str]) -> list[list[str]]:
    """The 8 rotations and mirrors of a pattern, turned as text (independent of patterns.orientations)."""
    out: list[list[str]] = []
    shape = rows
    for _ in range(4):
        for candidate in (shape, [row[::-1] for row in shape]):
            if candidate not in out:
                out.append(candidate)
        shape = ["".join(col) for col in zip(*shape[::-1], strict=True)]  # 90 degrees clockwise
    return out


@pytest.mark.parametrize("slug", sorted(CATALOGUE))
def test_placements_are_every_turned_pattern_at_every_offset(slug):
    expected = set()
    for rows in _text_variants(CATALOGUE[slug]["pattern"]):
        for top in range(4 - len(rows) + 1):
            for left in range(4 - len(rows[0]) + 1):
                squares = sorted(
                    ((top + r) * 4 + left + c, ch)
                    for r, row in enumerate(rows)
                    for c, ch in enumerate(row)
                    if ch != "."
                )
                expected.add((tuple(i for i, _ in squares), tuple(ch for _, ch in squares)))
    got = [(p.cells, p.need) for p in PLACEMENTS[slug]]
    assert len(got) == len(set(got)) and set(got) == expected
    for p in PLACEMENTS[slug]:
        assert p.mask == sum(2**i for i in p.cells)


def test_neighbour_tables_match_their_definition_on_every_square():
    for i in range(16):
        row, col = divmod(i, 4)
        around = [j for j in range(16) if j != i and max(abs(j // 4 - row), abs(j % 4 - col)) == 1]
        assert sorted(SURROUNDING[i]) == around
        assert sorted(ADJACENT[i]) == [j for j in around if abs(j // 4 - row) + abs(j % 4 - col) == 1]


def test_neighbour_tables_at_a_corner_an_edge_and_the_centre_by_hand():
    assert sorted(ADJACENT[0]) == [1, 4]  # A1: B1 and A2
    assert sorted(ADJACENT[1]) == [0, 2, 5]  # B1
    assert sorted(ADJACENT[5]) == [1, 4, 6, 9]  # B2
    assert sorted(ADJACENT[15]) == [11, 14]  # D4
    assert sorted(SURROUNDING[0]) == [1, 4, 5]
    assert sorted(SURROUNDING[5]) == [0, 1, 2, 4, 6, 8, 9, 10]
    assert sorted(SURROUNDING[7]) == [2, 3, 6, 10, 11]  # D2, on the right edge
    assert sorted(SURROUNDING[13]) == [8, 9, 10, 12, 14]  # B4, on the bottom edge


def _well(cells: tuple[int, ...]):
    return next(p for p in PLACEMENTS["well"] if p.cells == cells and p.need == ("W", "S"))


def test_the_reference_matcher_needs_each_cube_or_a_wildcard_and_one_real_cube():
    place = _well((0, 1))  # W on A1, S on B1
    letters = ["."] * 16
    assert matches(place, ["W", "S", *letters[2:]])
    assert matches(place, ["*", "S", *letters[2:]])  # a Trading Post stands in for the wood
    assert matches(place, ["W", "*", *letters[2:]])
    assert not matches(place, ["*", "*", *letters[2:]])  # Trading Posts alone build nothing
    assert not matches(place, ["S", "W", *letters[2:]])
    assert not matches(place, ["W", ".", *letters[2:]])
    assert not matches(place, [".", "S", *letters[2:]])


def test_the_count_prefilter_at_its_boundaries():
    # The Chapel needs G, G, S, S: four cubes.
    assert could_match("chapel", {"G": 2, "S": 2}, 0)
    assert not could_match("chapel", {"G": 2, "S": 1}, 0)  # one short, no wildcard
    assert could_match("chapel", {"G": 2, "S": 1}, 1)  # one short, one Trading Post
    assert could_match("chapel", {"G": 1, "S": 1}, 2)
    assert not could_match("chapel", {"G": 1, "S": 1}, 1)
    assert not could_match("chapel", {}, 4)  # short by the whole pattern: wildcards alone are no build
    assert could_match("chapel", {"G": 1}, 3)
    assert could_match("chapel", {"G": 5, "S": 5, "W": 3}, 0)  # extra cubes do not hurt


def test_cell_names_in_either_case():
    assert cell_index("A1") == 0 and cell_index("d4") == 15 and cell_index("b3") == 9


def test_end_of_game_counts_are_buildings_per_town_monument_included():
    state = game(2)
    state = with_town(state, 0, "cottage cottage farm . / W . . . / . . . . / . . . .")
    state = with_town(
        state,
        1,
        "chapel . . . / . . . . / . . . . / . . . grand-mausoleum-of-the-rodina",
        monument="grand-mausoleum-of-the-rodina",
    )
    assert stats(state) == {
        "map": None,
        "counted": "buildings built",
        "counts": [{"cottage": 2, "farm": 1}, {"chapel": 1, "grand-mausoleum-of-the-rodina": 1}],
    }
