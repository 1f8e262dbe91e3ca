"""Issue 14's third pass: the boards remembered by list (bitboard.town_board, board_after_cube) and
status's lines remembered by their fields answer exactly what the plain definitions answer, on
real seeded games (every state, every town) and on lists changed in place."""

from __future__ import annotations

from typing import Any

from games.tiny_towns import rules
from games.tiny_towns.bitboard import board_after_cube, board_of_cells, board_of_marks, town_board
from games.tiny_towns.town import letters
from tests.tiny_towns.helpers import seeded_states

State = dict[str, Any]
GAMES = (
    (4, "monuments=on", 41),
    (4, "monuments=on", 42),
    (3, "monuments=on buildings=random", 43),
    (2, "variant=town-hall monuments=on", 44),
    (1, "", 45),
)


def test_remembered_boards_are_the_boards_of_the_squares() -> None:
    checked = 0
    for players, options, seed in GAMES:
        for state in seeded_states(players, options, seed):
            for town in state["towns"]:
                plain = board_of_marks(letters(town["cells"]))
                # The engine remembered most of these while playing (board_after_cube after each
                # placement): the remembered board must be the board of the squares.
                assert town_board(town["cells"]) == plain
                assert board_of_cells(town["cells"]) == plain
                checked += 1
    assert checked > 1000


def test_a_list_changed_in_place_is_read_again() -> None:
    cells: list[Any] = [None] * 16
    cells[0] = {"resource": "wood"}
    assert town_board(cells).cubes["W"] == 1
    cells[0] = {"resource": "stone"}  # the same list, another cube: not the remembered board
    assert town_board(cells) == board_of_marks(letters(cells))
    cells[5] = {"building": "trading-post"}
    assert town_board(cells).wild == 1 << 5


def test_a_cube_on_a_remembered_board_or_on_an_unknown_one() -> None:
    before: list[Any] = [None] * 16
    before[3] = {"resource": "glass"}
    town_board(before)
    after = before.copy()
    after[7] = {"resource": "brick"}
    board_after_cube(before, after, 7)  # from the remembered board, plus one cube
    assert town_board(after) == board_of_marks(letters(after))
    unknown = [None] * 15 + [{"building": "trading-post"}]
    later = unknown.copy()
    later[2] = {"resource": "wheat"}
    board_after_cube(unknown, later, 2)  # nothing remembered for the list before: read in full
    assert town_board(later) == board_of_marks(letters(later))
    # The list before changed in place since it was remembered: not used.
    before[3] = {"resource": "wood"}
    again = before.copy()
    again[9] = {"resource": "stone"}
    board_after_cube(before, again, 9)
    assert town_board(again) == board_of_marks(letters(again))


def test_remembered_status_lines_are_the_lines_of_the_fields() -> None:
    for players, options, seed in GAMES:
        for state in seeded_states(players, options, seed):
            remembered = rules.status(state)
            rules._STATUS_BY_FIELDS.clear()
            assert rules.status(state) == remembered
