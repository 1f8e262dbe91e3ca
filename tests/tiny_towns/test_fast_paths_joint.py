"""Issue 14's fourth pass: every building matched at once (bitboard.joint_fits, the readiness
check's question) answers what matching each building alone (bitboard.fitting) answers, placement
by placement, on every town of seeded games and on random towns with Trading Posts."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import games
from games.tiny_towns import GAME
from games.tiny_towns.bitboard import SPANS, Board, board_after_cube, board_of_marks, fitting, joint_fits, warm
from games.tiny_towns.content import CATALOGUE
from games.tiny_towns.town import letters
from tests.tiny_towns.helpers import seeded_states

SLUGS = sorted(CATALOGUE)
GAMES = (
    (4, "monuments=on", 51),
    (4, "monuments=on", 52),
    (3, "monuments=on buildings=random", 53),
    (2, "variant=town-hall monuments=on", 54),
    (1, "", 55),
)


def _own_bits(fits: int, slug: str) -> int:
    """``slug``'s part of a joint answer, numbered as ``fitting`` numbers its placements."""
    span = SPANS[slug]
    return (fits & span) >> ((span & -span).bit_length() - 1)


def _check(slugs: tuple[str, ...], board: Board) -> bool:
    fits = joint_fits(slugs, board)
    for slug in SLUGS:
        expected = fitting(slug, board) if slug in slugs else 0
        assert _own_bits(fits, slug) == expected, (slug, slugs)
    return fits != 0


def test_joint_fits_is_each_buildings_fitting_on_seeded_games() -> None:
    warm()
    checked = fitted = 0
    for players, options, seed in GAMES:
        for state in seeded_states(players, options, seed):
            for town in state["towns"]:
                board = board_of_marks(letters(town["cells"]))
                monument = town.get("monument")
                slugs = tuple(state["buildings"]) + ((monument,) if monument else ())
                fitted += _check(slugs, board)
                checked += 1
    assert checked > 1000
    assert fitted > 100  # towns where something fits, not only empty answers


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(SLUGS), max_size=10, unique=True),
    st.lists(st.sampled_from(["", "W", "H", "B", "G", "S", "*"]), min_size=16, max_size=16),
)
def test_joint_fits_is_each_buildings_fitting_with_trading_posts(slugs: list[str], marks: list[Any]) -> None:
    _check(tuple(slugs), board_of_marks(marks))


def test_an_all_trading_post_pattern_does_not_fit() -> None:
    # A Cottage's three squares as Trading Posts alone: no real cube, no build.
    marks = ["", "*", "", "", "*", "*", *[""] * 10]
    assert joint_fits(("cottage",), board_of_marks(marks)) == 0
    marks[1] = "H"
    assert _check(("cottage", "well"), board_of_marks(marks))


def test_board_after_cube_returns_the_board_of_the_squares() -> None:
    # The place handler hands the board board_after_cube returns to the readiness check: it must be
    # the board of the squares after the cube, on every placement of seeded games.
    placements = 0
    for players, options, seed in GAMES:
        states = seeded_states(players, options, seed)
        for old, new in zip(states, states[1:], strict=False):
            for town_before, town_after in zip(old["towns"], new["towns"], strict=True):
                before, after = town_before["cells"], town_after["cells"]
                added = [i for i in range(16) if before[i] is None and after[i] is not None]
                if len(added) == 1 and all(before[i] is after[i] for i in range(16) if i != added[0]):
                    board = board_after_cube(before, after, added[0])
                    assert board == board_of_marks(letters(after))
                    placements += 1
    assert placements > 200


def test_the_host_warms_the_joint_tables_through_the_game_spec() -> None:
    """The bot builds them at start-up (games.warm_engines, from its setup_hook), in a thread, so the
    first move after a restart, which settles on the event loop, does not pay for them. Emptied
    first, they come back whole: every building's span."""
    assert GAME.warm is warm
    saved = dict(SPANS)
    SPANS.clear()
    try:
        games.warm_engines()
        assert set(SPANS) == set(CATALOGUE) and saved == SPANS
    finally:
        SPANS.update(saved)
