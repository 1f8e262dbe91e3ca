"""Every pattern builds in all 8 rotations/mirrors; wrong shapes are refused; Trading Post wildcards."""

from __future__ import annotations

import json

import pytest

from games.tiny_towns.content import CATALOGUE, MONUMENTS, RESOURCE_OF
from games.tiny_towns.patterns import CELL_NAMES, PLACEMENTS, orientations
from tests.tiny_towns.helpers import at_place_phase, game, grid, play, rejected, with_town

_EXTRA = {
    "factory": " with wood",
    "bank": " with wheat",
    "grove-university": "",  # filled in per case (needs a free square)
    "opaleyes-watch": " aside cottage farm well",
}


def variants(rows: list[str]) -> list[list[str]]:
    """The 8 rotations and mirrors, computed textually (independent of patterns.orientations)."""
    out: list[list[str]] = []
    shape = rows
    for _ in range(4):
        for candidate in (shape, [row[::-1] for row in shape]):
            if candidate not in out:
                out.append(candidate)
        shape = ["".join(col) for col in zip(*shape[::-1], strict=True)]  # rotate 90 degrees clockwise
    return out


def _state_for(slug: str) -> dict:
    state = at_place_phase(game(2, "first-game"))
    if CATALOGUE[slug]["monument"]:
        state["towns"][0]["monument"] = slug
    else:
        state["buildings"] = [b for b in state["buildings"] if CATALOGUE[b]["colour"] != CATALOGUE[slug]["colour"]]
        state["buildings"].append(slug)
    state["towns"][0]["placed"] = True
    return state


def _cases() -> list[tuple[str, int]]:
    return [(slug, k) for slug in CATALOGUE for k in range(len(variants(CATALOGUE[slug]["pattern"])))]


def test_variant_counts_match_the_precomputed_orientations() -> None:
    for slug, entry in CATALOGUE.items():
        textual = {tuple(v) for v in variants(entry["pattern"])}
        assert len(textual) == len(orientations(entry["pattern"])), slug
        assert len(PLACEMENTS[slug]) >= len(textual)


@pytest.mark.parametrize("slug, k", _cases())
def test_every_orientation_builds(slug: str, k: int) -> None:
    rows = variants(CATALOGUE[slug]["pattern"])[k]
    height, width = len(rows), len(rows[0])
    for top, left in ((0, 0), (4 - height, 4 - width)):
        state = _state_for(slug)
        cells: list = [None] * 16
        used = []
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                if ch != ".":
                    index = (top + r) * 4 + left + c
                    cells[index] = {"resource": RESOURCE_OF[ch]}
                    used.append(index)
        state["towns"][0]["cells"] = cells
        at = CELL_NAMES[used[-1]]
        extra = _EXTRA.get(slug, "")
        if slug == "grove-university":
            extra = f" add cottage {CELL_NAMES[used[0]]}"
        names = " ".join(CELL_NAMES[i] for i in reversed(used))  # any order is accepted
        new, events = play(state, 0, f"/tt build {slug} {names} at {at}{extra}")
        town = new["towns"][0]["cells"]
        assert town[used[-1]]["building"] == slug
        assert all(town[i] is None for i in used[:-1] if not (slug == "grove-university" and i == used[0]))
        assert any(f"builds {CATALOGUE[slug]['name']} on {at}" in e.get("text", "") for e in events)


def test_wrong_shape_names_the_pattern_and_changes_nothing() -> None:
    state = _state_for("cottage")
    state["towns"][0]["cells"] = grid(". H . . / B B . . / . . . . / . . . .")
    message = rejected(state, 0, "/tt build cottage B1 A2 B2")
    assert "Cottage needs . H / B G" in message
    message = rejected(state, 0, "/tt build cottage B1 A2")
    assert "3 squares" in message


def test_occupied_or_empty_square_in_pattern_is_named() -> None:
    state = _state_for("cottage")
    state["towns"][0]["cells"] = grid("well H . . / B G . . / . . . . / . . . .")
    assert "A1 holds a Well, not a cube" in rejected(state, 0, "/tt build cottage A1 B1 A2")
    assert "C1 holds nothing" in rejected(state, 0, "/tt build cottage C1 B1 A2")


def test_trading_post_is_a_wildcard_that_stays() -> None:
    state = at_place_phase(game(2, "farm,well,chapel,tavern,theater,trading-post"))
    state["towns"][0]["placed"] = True
    state["towns"][0]["cells"] = grid(". H . . / trading-post G . . / . . . . / . . . .")
    assert "must go on a square just freed: B1, B2" in rejected(state, 0, "/tt build cottage B1 A2 B2 at A2")
    new, _ = play(state, 0, "/tt build cottage B1 A2 B2 at B2")
    cells = new["towns"][0]["cells"]
    assert cells[4]["building"] == "trading-post"
    assert cells[5]["building"] == "cottage"
    assert cells[1] is None


def test_trading_posts_alone_cannot_form_a_building() -> None:
    state = at_place_phase(game(2, "farm,well,chapel,tavern,theater,trading-post"))
    state["towns"][0]["placed"] = True
    state["towns"][0]["cells"] = grid("trading-post trading-post . . / W . . . / . . . . / . . . .")
    assert "at least one real cube" in rejected(state, 0, "/tt build well A1 B1")
    new, _ = play(state, 0, "/tt build well A1 A2")  # one Trading Post + a real wood cube
    assert new["towns"][0]["cells"][4]["building"] == "well"
    assert new["towns"][0]["cells"][0]["building"] == "trading-post"


def test_several_trading_posts_in_one_building() -> None:
    state = at_place_phase(game(2, "farm,well,chapel,tavern,theater,trading-post"))
    state["towns"][0]["placed"] = True
    state["towns"][0]["cells"] = grid("trading-post trading-post G . / . . . . / . . . . / . . . .")
    new, _ = play(state, 0, "/tt build tavern A1 B1 C1")
    assert [c["building"] if c else None for c in new["towns"][0]["cells"][:3]] == [
        "trading-post",
        "trading-post",
        "tavern",
    ]


def test_at_is_needed_only_when_several_squares_are_possible() -> None:
    state = _state_for("cottage")
    state["towns"][0]["cells"] = grid(". H . . / B G . . / . . . . / . . . .")
    assert "Add 'at <square>': one of B1, A2, B2" in rejected(state, 0, "/tt build cottage B1 A2 B2")
    tp = at_place_phase(game(2, "farm,well,chapel,tavern,theater,trading-post"))
    tp["towns"][0]["placed"] = True
    tp["towns"][0]["cells"] = grid("trading-post W . . / . . . . / . . . . / . . . .")
    tp = with_town(tp, 0, "trading-post S . . / . . . . / . . . . / . . . .", placed=True)
    new, _ = play(tp, 0, "/tt build well A1 B1")
    assert new["towns"][0]["cells"][1]["building"] == "well"


def test_monument_patterns_are_the_fifteen() -> None:
    assert len(MONUMENTS) == 15
    assert json.dumps(CATALOGUE["fort-ironweed"]["pattern"]) == '["H.B", "SWS"]'
