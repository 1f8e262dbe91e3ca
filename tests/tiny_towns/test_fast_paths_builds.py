"""The build listing's fast paths (town.iter_builds reading Trading Posts from the bitboard and each
building's placements from one joint answer, bitboard.joint_fits) answer what the plain definitions answer:
the cell-by-cell reference matcher and town.at_choices on the town's letters."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.options import parse_options
from games.rng import Rng
from games.tiny_towns import GAME
from games.tiny_towns.bitboard import board_of_marks, fitting_slugs
from games.tiny_towns.content import CATALOGUE, RESOURCE_OF
from games.tiny_towns.town import at_choices, available_buildings, iter_builds, letters, new_building, with_choices
from tests.tiny_towns import reference_matching as reference

State = dict[str, Any]
SLUGS = sorted(CATALOGUE)
# A square: empty, a cube, a Trading Post (wild) or another building (neither).
SQUARES = [None, *({"resource": r} for r in RESOURCE_OF.values()), "trading-post", "well", "shed"]
towns = st.lists(st.sampled_from(SQUARES), min_size=16, max_size=16)


def _cells(squares: list[Any]) -> list[Any]:
    return [new_building(square) if isinstance(square, str) else square for square in squares]


def _plain_builds(state: State, seat: int) -> list[tuple[str, int, list[int], list[str | None]]]:
    town = state["towns"][seat]
    marks = letters(town["cells"])
    out = []
    for slug in available_buildings(state, seat):
        withs = with_choices(state, seat, slug)
        if not withs:
            continue
        for mask in reference.matching_masks(slug, marks):
            out.append((slug, mask, at_choices(town, slug, mask, marks, state["round"]), withs))
    return out


# A state whose buildings include the Shed (goes on any empty square) and the Trading Post (wild).
SHED_AND_POST = "buildings=cottage,granary,shed,abbey,inn,bakery,trading-post"


@settings(max_examples=200, deadline=None)
@given(towns, st.sampled_from(["buildings=first-game", SHED_AND_POST]), st.booleans())
def test_iter_builds_equals_the_plain_listing(squares: list[Any], buildings: str, obelisk: bool) -> None:
    options = parse_options(f"{buildings} monuments=on", GAME.options)
    state = json.loads(json.dumps(GAME.setup(["a", "b"], options, 7)))
    town = state["towns"][0]
    town["cells"] = _cells(squares)
    if obelisk:  # built in an earlier round: every building may go on any empty square
        town.update(monument="obelisk-of-the-crescent", monument_built=True, monument_round=0)
        state["phase"], state["round"] = "place", 2
    assert list(iter_builds(state, 0)) == _plain_builds(state, 0)


def test_iter_builds_equals_the_plain_listing_through_seeded_games() -> None:
    checked = 0
    for seed, buildings in ((1, SHED_AND_POST), (2, "buildings=first-game"), (3, "buildings=random")):
        options = parse_options(f"{buildings} monuments=on", GAME.options)
        state = GAME.setup(["a", "b", "c", "d"], options, seed)
        picker = Rng(seed)
        while not GAME.status(state).finished:
            for seat in range(4):
                if state["phase"] == "place":
                    assert list(iter_builds(state, seat)) == _plain_builds(state, seat)
                    checked += 1
            seat = picker.choice(GAME.status(state).to_act)
            state, _ = GAME.apply(state, seat, picker.choice(GAME.legal_moves(state, seat)))
    assert checked > 300


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(SLUGS), max_size=10, unique=True),
    st.lists(st.sampled_from(["", "W", "H", "B", "G", "S"]), min_size=16, max_size=16),
)
def test_fitting_slugs_without_trading_posts_equals_the_reference(slugs: list[str], marks: list[str]) -> None:
    # Most towns hold no Trading Post, and fitting_slugs has a loop of its own for them.
    expected = [slug for slug in slugs if reference.any_match(slug, marks)]
    assert list(fitting_slugs(slugs, board_of_marks(marks))) == expected
