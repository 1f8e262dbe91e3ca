"""The generic standings image (any game's standings list)."""

from __future__ import annotations

import copy
from typing import Any

from rendering import render_standings
from rendering.standings import standings_image
from tests.rendering import synthetic
from tests.rendering.imaging import decode, diff_box

TRAINS_VIEW: dict[str, Any] = {"game": "trains", "players": ["ann", "bob", "cat"], "round": 12}
TRAINS_STANDINGS: list[dict[str, Any]] = [
    {
        "seat": 2,
        "player": "cat",
        "score": 31,
        "rank": 1,
        "breakdown": {"Territory": 12, "Stations": 8, "VP cards": 11},
    },
    {"seat": 0, "player": "ann", "score": 25, "rank": 2, "breakdown": {"Territory": 10, "VP cards": 15}},
    {
        "seat": 1,
        "player": "bob",
        "score": 25,
        "rank": 2,
        "breakdown": {"Territory": 9, "Stations": 4, "Waste": -2},
    },
]


def test_tiny_towns_standings_png() -> None:
    view = synthetic.view(4, seed=1)
    png = decode(render_standings(view, synthetic.standings_for(view)))
    assert png.size == standings_image(view, synthetic.standings_for(view)).size
    assert png.width < 1200 and png.height < 900


def test_any_games_labels_become_rows() -> None:
    base = standings_image(TRAINS_VIEW, TRAINS_STANDINGS)
    extra = copy.deepcopy(TRAINS_STANDINGS)
    extra[1]["breakdown"]["Bonus"] = 3  # a label nobody else has adds one row
    taller = standings_image(TRAINS_VIEW, extra)
    assert taller.width == base.width and taller.height > base.height
    decode(render_standings(TRAINS_VIEW, TRAINS_STANDINGS))


def test_more_players_make_a_wider_table() -> None:
    widths = []
    for players in range(1, 7):
        view = synthetic.view(players, seed=players)
        widths.append(standings_image(view, synthetic.standings_for(view)).width)
    assert widths == sorted(widths) and len(set(widths)) == 6


def test_scores_titles_and_ties_change_the_image() -> None:
    base = standings_image(TRAINS_VIEW, TRAINS_STANDINGS)
    rescored = copy.deepcopy(TRAINS_STANDINGS)
    rescored[0]["score"] = 32
    assert diff_box(base, standings_image(TRAINS_VIEW, rescored)) is not None
    untied = copy.deepcopy(TRAINS_STANDINGS)
    untied[2]["rank"] = 3
    assert diff_box(base, standings_image(TRAINS_VIEW, untied)) is not None
    titled = copy.deepcopy(TRAINS_STANDINGS)
    titled[0]["title"] = "Master Architect"
    assert standings_image(TRAINS_VIEW, titled).height > base.height


def test_empty_standings_still_render() -> None:
    decode(render_standings({"game": "tiny-towns", "players": []}, []))
