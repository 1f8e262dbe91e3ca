"""flow.maybe_auto_done's inlined readiness check (public buildings, the kept monument, the count test on
the monuments it might be, with capped counts from a table) decides what the plain definitions decide:
the cell-by-cell reference matcher and the rulebook count test on the town's letters."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.options import parse_options
from games.rng import Rng
from games.tiny_towns import GAME, flow
from games.tiny_towns.bitboard import board_of_marks, could_fit_any, could_fit_any_counts, counts_of
from games.tiny_towns.content import CATALOGUE, MONUMENTS, RESOURCE_OF
from games.tiny_towns.patterns import CELL_INDEX, could_match
from games.tiny_towns.town import cube_counts, letters, possible_monuments, with_choices
from tests.tiny_towns import reference_matching as reference

State = dict[str, Any]
MARKS = ["", "W", "H", "B", "G", "S", "*"]


def _plain_decision(state: State, seat: int) -> tuple[bool, bool]:
    """(done afterwards, move flagged irreversible) from the plain definitions."""
    town = state["towns"][seat]
    marks = letters(town["cells"])
    if any(with_choices(state, seat, s) and reference.any_match(s, marks) for s in state["buildings"]):
        return False, False
    possible = possible_monuments(state, seat)
    if not possible:
        return True, False
    kept = town["monument"]
    if with_choices(state, seat, kept) and reference.any_match(kept, marks):
        return False, True
    counts, wild = cube_counts(marks)
    return True, any(could_match(slug, counts, wild) for slug in possible)


def _placed_states() -> list[tuple[State, int]]:
    """Seeded games: before each placement, the town with that cube on it and 'placed' set, unchecked."""
    out = []
    for players, options, seed in (
        (4, "monuments=on", 31),
        (4, "monuments=on", 34),
        (2, "monuments=on buildings=random", 32),
        (1, "", 33),
    ):
        state = GAME.setup([f"p{i}" for i in range(players)], parse_options(options, GAME.options), seed)
        picker = Rng(seed)
        while not GAME.status(state).finished:
            seat = picker.choice(GAME.status(state).to_act)
            move = picker.choice(GAME.legal_moves(state, seat))
            if move["verb"] == "place" and len(move) == 2:
                placed = copy.deepcopy(state)
                town = placed["towns"][seat]
                index = CELL_INDEX[move["cell"]]
                if town["cells"][index] is None:
                    town["cells"][index] = {"resource": state["resource"]}
                    town["placed"] = True
                    out.append((placed, seat))
            state, _ = GAME.apply(state, seat, move)
    return out


def test_auto_done_decides_as_the_plain_definitions() -> None:
    outcomes = set()
    states = _placed_states()
    assert len(states) > 150
    for state, seat in states:
        events: list[dict[str, Any]] = []
        flow.maybe_auto_done(state, seat, events)
        done = state["towns"][seat]["done"]
        irreversible = any(event.get("irreversible") for event in events)
        assert (done, irreversible) == _plain_decision(state, seat)
        outcomes.add((done, irreversible))
    assert {(False, False), (True, True), (True, False)} <= outcomes


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(MARKS), min_size=16, max_size=16), st.sets(st.sampled_from(sorted(CATALOGUE))))
def test_capped_counts_answer_like_the_raw_counts(marks: list[str], slugs: set[str]) -> None:
    board = board_of_marks(marks)
    counts, wild = cube_counts(marks)
    expected = any(could_match(slug, counts, wild) for slug in sorted(slugs))
    for _ in range(2):  # the second time from the tables
        assert could_fit_any_counts(sorted(slugs), counts_of(board)) == expected
        assert could_fit_any(sorted(slugs), board) == expected


def test_the_count_table_keeps_trading_posts_apart() -> None:
    # The same cubes with and without a Trading Post: a Cottage (wheat, brick, glass) has the cubes
    # only with the post standing in for the glass. Asked in both orders, so neither answer is a
    # table entry left by the other.
    cubes = ["H", "B", "", "", *[""] * 12]
    with_post = ["H", "B", "*", "", *[""] * 12]
    assert not could_match("cottage", *cube_counts(cubes))
    assert could_match("cottage", *cube_counts(with_post))
    for first, second in ((cubes, with_post), (with_post, cubes)):
        for marks in (first, second):
            expected = could_match("cottage", *cube_counts(marks))
            assert could_fit_any_counts(["cottage"], counts_of(board_of_marks(marks))) == expected
    assert not could_fit_any_counts(MONUMENTS, counts_of(board_of_marks([""] * 16)))


def _cell(mark: str) -> dict[str, Any] | None:
    if mark == "*":
        return {"building": "trading-post"}
    return {"resource": RESOURCE_OF[mark]} if mark else None


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from(["", "", "W", "H", "B", "G", "S", "*"]), min_size=16, max_size=16),
    st.sampled_from(MONUMENTS),
    st.sampled_from([None, *MONUMENTS]),
)
def test_auto_done_decides_as_the_plain_definitions_on_any_town(marks: list[str], kept: str, built: str | None) -> None:
    # Random towns reach what seeded games seldom do: the kept monument fitting, or only the monument
    # another town built or the first of the list being the one that might fit.
    options = parse_options("monuments=on buildings=cottage,granary,shed,abbey,inn,bakery,trading-post", GAME.options)
    state = copy.deepcopy(GAME.setup(["a", "b", "c"], options, 5))
    state.update(phase="place", resource="wood", source="master", named_by=0, round=2)
    town = state["towns"][1]
    town.update(cells=[_cell(mark) for mark in marks], monument=kept, monument_built=False, placed=True, done=False)
    if built is not None and built != kept:
        state["towns"][2].update(monument=built, monument_built=True, monument_round=1)
    expected = _plain_decision(state, 1)
    events: list[dict[str, Any]] = []
    flow.maybe_auto_done(state, 1, events)
    assert (town["done"], any(event.get("irreversible") for event in events)) == expected
