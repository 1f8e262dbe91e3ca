"""The short effect texts players read on the market's tile cards and in /trolley help
(``effects.describe``): every kind of effect, every timing, "where" and counter word, and the goods
wording (a count only above 1, except VP; "any" and "different"). Effects are written by hand here,
not read from the tile data, so each expected text is checked against its own effect."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from games.trolley_town.content import TILES, Effect
from games.trolley_town.effects import describe, describe_effect


def _e(when: str, do: str, **data: Any) -> Effect:
    return Effect(when, do, data)


@pytest.mark.parametrize(
    ("effect", "text"),
    [
        (_e("production", "gain", resource="wheat", amount=1), "Production: +1 wheat"),
        (
            _e("immediate", "gain", resource="coal", amount=2, where="surrounding"),
            "When built (building around): +2 coal",
        ),
        (
            _e("construction", "gain", resource="wood", amount="fill", where="town"),
            "On construction (any building): fill with wood",
        ),
        (_e("production", "gain", resource="choice", options=["wheat", "coal"], amount=1), "Production: +1 wheat/coal"),
        (_e("production", "gain", resource="choice", options=["any"], amount=2), "Production: +2 any"),
        (
            _e("production", "gain", resource="choice", options=["any"], different=True, amount=3),
            "Production: +3 any different",
        ),
        (
            _e("immediate", "gain", resource="wheat", amount=1, per={"count": "surrounding_tiles"}),
            "When built: +1 wheat per surrounding tile",
        ),
        (
            _e("end", "score", vp=2, per={"count": "here", "resource": "coal"}),
            "Game end: 2 VP per coal here",
        ),
        (
            _e("end", "score", vp=1, per={"count": "surrounding_buildings_with", "resource": "wheat"}),
            "Game end: 1 VP per surrounding building with wheat",
        ),
        (_e("end", "score", vp=1, per={"count": "surrounding_buildings"}), "Game end: 1 VP per surrounding building"),
        (
            _e("end", "score", vp=1, per={"count": "surrounding_processors"}),
            "Game end: 1 VP per surrounding processing building",
        ),
        (
            _e("end", "score", vp=1, per={"count": "surrounding_distinct_resources"}),
            "Game end: 1 VP per different resource drawn around",
        ),
        (
            _e("end", "score", vp=2, per={"count": "connected_buildings"}, where="town"),
            "Game end (any building): 2 VP per building connected by route",
        ),
        (_e("end", "score", vp=4, bonus={"vp": 3, "at": 5}), "Game end: 4 VP, +3 at 5"),
        (
            _e("processing", "convert", **{"from": {"wheat": 1, "coal": 2}, "to": {"vp": 6}}),
            "Processing: wheat + 2 coal -> 6 VP",
        ),
        (_e("processing", "convert", **{"from": {"any": 1}, "to": {"vp": 1}}), "Processing: any -> 1 VP"),
        (_e("processing", "convert", **{"from": {"any": 2}, "to": {"coal": 1}}), "Processing: 2 any -> coal"),
        (
            _e("processing", "convert", **{"from": {"any_different": 3}, "to": {"vp": 9}}),
            "Processing: 3 different -> 9 VP",
        ),
        (
            _e("processing", "convert", **{"from": {"any_different": 1}, "to": {"wheat": 2}}),
            "Processing: different -> 2 wheat",
        ),
        (_e("transport", "pull", amount=2), "Transport start: move 2 here from any tile"),
        (_e("production", "trigger"), "Production: surrounding buildings produce again (not wood/stone)"),
        (_e("end", "neighbour_bonus", vp=1), "Game end: +1 VP each time a surrounding building scores"),
        (
            _e("construction", "discount", amount=1),
            "On construction: buildings around cost 1 wood/stone less (never 0)",
        ),
    ],
)
def test_each_effect_reads_exactly(effect: Effect, text: str) -> None:
    assert describe_effect(effect) == text


def test_a_tile_joins_its_effects_and_one_without_effects_points_to_the_rules() -> None:
    tile = next(iter(TILES.values()))
    two = replace(
        tile, effects=(_e("production", "gain", resource="wheat", amount=1), _e("transport", "pull", amount=1))
    )
    assert describe(two) == "Production: +1 wheat; Transport start: move 1 here from any tile"
    assert describe(replace(tile, effects=())) == "See the market rules"
