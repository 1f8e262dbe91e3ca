"""`scoring.score`, the one-number total the level-2 end-game guard compares (games/trains/ai_end.py), worked out
by hand from the rulebook's "Train Bonus Points": a city with 1 station gives 2 per rail token, with 2 stations 4;
track VP counts as it stands; the starting cards carry no VP."""

from __future__ import annotations

import copy

import games
from games.trains.content import MAPS
from games.trains.scoring import score, standings

GAME = games.get_game("trains")


def test_score_totals_cities_by_stations_and_track_vp() -> None:
    state = copy.deepcopy(GAME.setup(["Ann", "Bob"], {"map": "tokyo"}, 1))
    one, two = sorted(MAPS["tokyo"].cities)[:2]
    state["rails"] = {one: [0], two: [0, 1]}
    state["stations"] = {one: 1, two: 2}
    state["players"][0]["track_vp"] = 3

    assert score(state, 0) == 2 + 4 + 3
    assert score(state, 1) == 4
    assert {row["player"]: row["score"] for row in standings(state)} == {"Ann": 9, "Bob": 4}
