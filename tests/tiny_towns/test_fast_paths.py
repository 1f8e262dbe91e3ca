"""The engine's fast paths (issue 14) answer exactly what the plain definitions answer."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.tiny_towns.bitboard import board_of_marks, could_fit, could_fit_any, fits_anywhere, fitting_slugs
from games.tiny_towns.content import CATALOGUE, MONUMENTS
from games.tiny_towns.patterns import CELLS
from games.tiny_towns.town import mask_cells, mask_squares
from tests.tiny_towns import reference_matching as reference

SLUGS = sorted(CATALOGUE)
MARKS = ["", "W", "H", "B", "G", "S", "*"]
towns = st.lists(st.sampled_from(MARKS), min_size=16, max_size=16)
slug_lists = st.lists(st.sampled_from(SLUGS), min_size=0, max_size=10, unique=True)


@settings(max_examples=300, deadline=None)
@given(slug_lists, towns)
def test_fitting_slugs_lists_the_buildings_that_fit_in_order(slugs: list[str], marks: list[str]) -> None:
    board = board_of_marks(marks)
    expected = [slug for slug in slugs if reference.any_match(slug, marks)]
    assert list(fitting_slugs(slugs, board)) == expected
    assert expected == [slug for slug in slugs if fits_anywhere(slug, board)]


def test_fitting_slugs_stops_at_the_first_fit() -> None:
    # Cottage (.H / BG) fits on B1, A2, B2. The readiness check takes the first fit and stops:
    # the name after it is never looked up (an unknown one would raise KeyError).
    board = board_of_marks(["", "H", "", "", "B", "G", *[""] * 10])
    found = fitting_slugs(["well", "cottage", "no-such-building"], board)
    assert next(found) == "cottage"


@settings(max_examples=300, deadline=None)
@given(slug_lists, towns)
def test_could_fit_any_matches_the_count_test_of_each_building(slugs: list[str], marks: list[str]) -> None:
    board = board_of_marks(marks)
    # Asked twice: the second answer comes from the cache keyed by cube counts.
    for _ in range(2):
        assert could_fit_any(slugs, board) == any(could_fit(slug, board) for slug in slugs)


def test_could_fit_any_cache_keeps_sets_of_buildings_apart() -> None:
    # The same cube counts, two different lists of monuments: answers must not leak between them.
    marks = ["W", "W", "S", "G", *[""] * 12]
    board = board_of_marks(marks)
    for slug in MONUMENTS:
        assert could_fit_any([slug], board) == could_fit(slug, board)


def test_mask_squares_lists_the_squares_of_a_mask() -> None:
    for mask in (0, 1, 0b1011, 1 << 15, (1 << CELLS) - 1, 0x8421):
        squares = [i for i in range(CELLS) if mask >> i & 1]
        assert list(mask_squares(mask)) == squares == mask_cells(mask)
