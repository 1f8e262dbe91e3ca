"""Level 2's own rules on top of level 1's play: the end of the game (never lay the last rail while
that loses it, lay it when that wins) and where rails go (cities no other seat reaches first)."""

from __future__ import annotations

from typing import Any

from games.trains import GAME, ai_rails
from games.trains.content import MAPS
from games.trains.rules import redeal

from .conftest import scenario


def _plain_pair(map_name: str = "tokyo") -> str:
    """A plain hex with a plain neighbour, so one Lay Rails costs no extra money there."""
    gmap = MAPS[map_name]
    for h, terrain in sorted(gmap.terrain.items()):
        if terrain == "plain" and any(gmap.terrain[n] == "plain" for n in gmap.neighbours[h]):
            return h
    raise AssertionError("no plain pair")


def _last_rail_turn(mine: list[str], theirs: list[str]) -> dict[str, Any]:
    """Seat 0 to act with one rail left, a Lay Rails and two Normal Trains in hand; ``mine`` and
    ``theirs`` are victory cards in each seat's discard pile (public: every buy is announced)."""
    start = _plain_pair()
    state = scenario(
        ["lay-rails", "normal-train", "normal-train"],
        discard=mine,
        rails={start: [0]},
    )
    state["players"][0]["rails_left"] = 1
    state["players"][1]["discard"] = list(theirs)
    return state


def _play_turn(state: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Seat 0's whole level-2 turn (until it ends it)."""
    moves = []
    while GAME.status(state).to_act == (0,):
        move = GAME.bot_move(state, 0, 2)
        moves.append(move)
        state, _ = GAME.apply(state, 0, move)
        if move["verb"] in ("end", "pass"):
            break
    return state, moves


def test_level_two_keeps_its_last_rail_while_laying_it_would_lose() -> None:
    state = _last_rail_turn(mine=[], theirs=["skyscraper", "skyscraper"])
    # The scores it compares are public (bought cards are announced): where the other seat's
    # cards lie, and the order of its own draw pile, change nothing.
    moves = [GAME.bot_move(state, 0, 2)]
    for seed in (3, 4):
        moves.append(GAME.bot_move(redeal(state, 1, seed), 0, 2))
    assert moves == [moves[0]] * 3
    after, moves = _play_turn(state)
    assert not any(m.get("card") == "lay-rails" for m in moves)
    assert after["phase"] == "play"  # the game goes on
    assert after["players"][0]["rails_left"] == 1


def test_level_two_lays_its_last_rail_when_that_wins() -> None:
    state = _last_rail_turn(mine=["skyscraper", "skyscraper"], theirs=[])
    after, moves = _play_turn(state)
    assert any(m.get("card") == "lay-rails" for m in moves)
    assert after["phase"] == "over"
    assert [row["seat"] for row in GAME.standings(after) if row["rank"] == 1] == [0]


def test_rail_plan_prefers_a_city_no_other_seat_reaches() -> None:
    state = scenario([], rails={})
    city = sorted(MAPS["tokyo"].cities)[0]
    alone = ai_rails.targets(state, 0)[city]
    state["rails"] = {city: [1]}
    shared = ai_rails.targets(state, 0)[city]
    assert shared < alone
