"""The bitboard matcher finds exactly what the old cell-by-cell matcher finds, in the same order."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.tiny_towns.bitboard import (
    board_of_cells,
    board_of_marks,
    could_fit,
    could_fit_any,
    fits_anywhere,
    fits_at,
    fitting_masks,
)
from games.tiny_towns.content import CATALOGUE, RESOURCES
from games.tiny_towns.patterns import PLACEMENTS, could_match
from games.tiny_towns.town import cube_counts, letters, new_building
from tests.tiny_towns import reference_matching as reference

SLUGS = sorted(CATALOGUE)
MARKS = ["", "W", "H", "B", "G", "S", "*"]

# Towns drawn mostly from one pattern's letters so that fits are common, not only misses.
mark_lists = st.lists(st.sampled_from(MARKS), min_size=16, max_size=16)


@st.composite
def dense_towns(draw: st.DrawFn) -> tuple[str, list[str]]:
    slug = draw(st.sampled_from(SLUGS))
    needed = sorted({ch for row in CATALOGUE[slug]["pattern"] for ch in row if ch != "."})
    pool = [*needed, *needed, "*", ""]
    return slug, draw(st.lists(st.sampled_from(pool), min_size=16, max_size=16))


def _check(slug: str, marks: list[str]) -> None:
    board = board_of_marks(marks)
    expected = reference.matching_masks(slug, marks)
    assert fitting_masks(slug, board) == expected
    assert fits_anywhere(slug, board) == bool(expected) == reference.any_match(slug, marks)
    assert could_fit(slug, board) == could_match(slug, *cube_counts(marks))
    monuments = [s for s in SLUGS if CATALOGUE[s]["monument"]]
    assert could_fit_any(monuments, board) == any(could_match(s, *cube_counts(marks)) for s in monuments)
    for mask in {p.mask for p in PLACEMENTS[slug]}:
        assert fits_at(slug, board, mask) == reference.mask_matches(slug, marks, mask)


@settings(max_examples=400, deadline=None)
@given(dense_towns())
def test_bitboard_matches_reference_on_dense_towns(case: tuple[str, list[str]]) -> None:
    _check(*case)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(SLUGS), mark_lists)
def test_bitboard_matches_reference_on_any_town(slug: str, marks: list[str]) -> None:
    _check(slug, marks)


def test_trading_posts_alone_never_form_a_building() -> None:
    assert not fits_anywhere("cottage", board_of_marks(["*"] * 16))
    assert fitting_masks("cottage", board_of_marks(["*"] * 16)) == []


cells = st.one_of(
    st.none(),
    st.sampled_from(RESOURCES).map(lambda r: {"resource": r}),
    st.sampled_from(SLUGS).map(new_building),
)


@given(st.lists(cells, min_size=16, max_size=16))
def test_board_of_cells_reads_squares_like_letters(town: list[Any]) -> None:
    assert board_of_cells(town) == board_of_marks(letters(town))
