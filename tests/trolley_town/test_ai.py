"""The My Trolley Town bots: legal, deterministic, and the planning bot (level 1) plays well.

The full figures (200 games against the random bot, solo averages against the titles, decision
times) are in bench/bench_trolley_town.py; these are the smaller versions that keep the suite fast.
"""

from __future__ import annotations

import json
import statistics
from typing import Any

from games.options import parse_options
from games.trolley_town import GAME, ai, rules
from games.trolley_town.town import canonical_rotation
from tests.playouts import bot_line

State = dict[str, Any]


def _play(players: int, seed: int, levels: list[int], options: str = "") -> State:
    """A seeded game of bots, every bot move checked against the listed legal moves."""
    state = GAME.setup(["ann", "bob", "cat", "dan"][:players], parse_options(options, GAME.options), seed)
    for _ in range(2000):
        status = GAME.status(state)
        if status.finished:
            return state
        seat = status.to_act[0]
        move = GAME.bot_move(state, seat, levels[seat])
        assert move in rules.legal_moves(state, seat), f"seed {seed}: bot move {move} is not listed"
        state, _ = GAME.apply(state, seat, move)
        state = json.loads(json.dumps(state))
    raise AssertionError(f"seed {seed}: the game did not finish")


def _town(extra: dict[str, dict[str, Any]], **held: int) -> dict[str, Any]:
    """A town with the starting Forest (0,0) and Mountain (1,0) plus ``extra`` cells; wood and
    stone in ``held`` sit on the Forest and the Mountain."""
    town = rules.new_town(False)
    town["cells"]["0,0"]["r"] = {"wood": held["wood"]} if held.get("wood") else {}
    town["cells"]["1,0"]["r"] = {"stone": held["stone"]} if held.get("stone") else {}
    for key, cell in extra.items():
        cell = dict(cell)
        if "route" in cell:
            cell["rot"] = canonical_rotation(cell["route"], cell.get("rot", 0))
        else:
            cell.setdefault("r", {})
        cell["n"] = town["placed"]
        town["placed"] += 1
        town["cells"][key] = cell
    return town


# ---------------------------------------------------------------- strength


def test_level_one_beats_the_random_bot() -> None:
    """24 seeded two-player games, the bot in either seat; bench_trolley_town.py plays 200."""
    wins = 0
    games = 24
    for seed in range(games):
        levels = [1, 0] if seed % 2 == 0 else [0, 1]
        bot = levels.index(1)
        towns = _play(2, 1000 + seed, levels)["towns"]
        if towns[bot]["vp"] > towns[1 - bot]["vp"]:
            wins += 1
    assert wins >= 23, f"level 1 won only {wins} of {games} games against the random bot"


def test_solo_bot_scores_like_a_rookie_at_least() -> None:
    """Solo: the level-1 bot averages at least 40 VP (the Rookie title) on a few seeds."""
    scores = [_play(1, seed, [1])["towns"][0]["vp"] for seed in range(200, 206)]
    assert statistics.mean(scores) >= 40, scores


def test_level_one_plays_every_option_set_legally() -> None:
    """Expert rule, first game, custom solo basics, the 4-player Rebuild tile: complete games,
    every move listed (a game with more players is covered by the conformance suite)."""
    for players, options in (
        (1, "basics=meadow,meadow,meadow,meadow,ranch,ranch,ranch"),
        (2, "expert=all"),
        (3, "first_game=on expert=2"),
        (4, ""),
    ):
        state = _play(players, 7, [1] * players, options)
        assert GAME.status(state).finished


def _bot_line(hash_seed: str) -> str:
    return bot_line("games.trolley_town", ["ann", "bob"], hash_seed)


def test_bot_moves_are_deterministic() -> None:
    """The same state gives the same bot move in every process (replays and `conductor check` rely on it)."""
    first = _bot_line("1")
    assert first.startswith("['/") and first == _bot_line("2") == _bot_line("3")


def test_bot_does_not_change_the_state() -> None:
    state = GAME.setup(["ann", "bob"], {}, 9)
    for _ in range(30):
        seat = GAME.status(state).to_act[0]
        before = json.dumps(state, sort_keys=True)
        move = GAME.bot_move(state, seat, 1)
        assert json.dumps(state, sort_keys=True) == before
        state, _ = GAME.apply(state, seat, move)


# ---------------------------------------------------------------- the pieces of the plan


def test_route_path_joins_two_buildings() -> None:
    cells = _town({"0,-2": {"t": "bakery"}})["cells"]
    path = ai.find_path(cells, {"0,0"}, {"0,-2"})
    assert path is not None and path.cost == 1
    assert path.routes == [("straight", "0,-1", 90)]


def test_route_path_goes_round_buildings_and_extends_route_ends() -> None:
    # Forest 0,0, a straight route 0,-1 opening north and south, a Kiln 2,-2: the path continues
    # from the route end at 0,-2 and turns east.
    cells = _town({"0,-1": {"route": "straight", "rot": 90}, "2,-2": {"t": "charcoal-kiln"}})["cells"]
    path = ai.find_path(cells, {"0,0", "0,-1"}, {"2,-2"})
    assert path is not None and path.cost == 2
    assert [key for _, key, _ in path.routes] == ["0,-2", "1,-2"]


def test_transport_burns_leftover_wood_in_a_connected_kiln() -> None:
    town = _town({"0,-1": {"route": "straight", "rot": 90}, "0,-2": {"t": "charcoal-kiln"}}, wood=3)
    moves = ai.plan_transport(town, round_now=2)
    assert moves == [["wood", "0,0", "0,-2"]] * 3


def test_transport_completes_a_bakery_set_from_two_producers() -> None:
    # A junction opening west, east and north joins a Field, a Bakery and a Kiln holding coal.
    town = _town(
        {
            "0,-1": {"route": "junction", "rot": 180},
            "-1,-1": {"t": "field", "r": {"wheat": 2}},
            "1,-1": {"t": "bakery"},
            "0,-2": {"t": "charcoal-kiln", "r": {"coal": 1}},
        }
    )
    moves = ai.plan_transport(town, round_now=2)
    assert moves[:2] == [["wheat", "-1,-1", "1,-1"], ["coal", "0,-2", "1,-1"]]


def _chain(*tiles: tuple[str, dict[str, int]]) -> dict[str, Any]:
    """Buildings in a row from x = -2 on row y = -1, each pair joined by a straight route."""
    extra: dict[str, dict[str, Any]] = {}
    x = -2
    for index, (slug, held) in enumerate(tiles):
        if index:
            extra[f"{x},-1"] = {"route": "straight", "rot": 0}
            x += 1
        extra[f"{x},-1"] = {"t": slug, "r": dict(held)}
        x += 1
    return _town(extra)


def test_last_round_keeps_coal_for_the_better_conversion() -> None:
    # Round 4, transport repeats: a full Bakery (2 wheat + 1 coal) and a Coal Merchant (2 coal
    # -> 5) compete for 2 coal on a Peat Cutting. Feeding the Coal Merchant now (5 VP) would
    # starve the Bakery later; keeping both coal for it makes 3 Bakery sets (18 VP).
    town = _chain(
        ("peat-cutting", {"coal": 2}),
        ("bakery", {"wheat": 2, "coal": 1}),
        ("coal-merchant", {}),
        ("field", {"wheat": 1}),
    )
    assert ai.rollout_value(town, 4) == 18.0


def test_a_building_at_a_route_end_needs_no_more_routes() -> None:
    state = GAME.setup(["ann"], {}, 3)
    town = state["towns"][0]
    town["cells"]["0,-1"] = {"route": "straight", "rot": 90, "n": 2}
    town["placed"] = 3
    builder = ai.Builder(state, 0)
    field = builder.distance_field(set(builder.members[builder.part["0,0"]]))
    assert field["0,-2"] == 0  # the route end faces it
    assert field["-1,-1"] == 1  # a route on -1,0 would join it to the Forest


def test_solo_removal_is_a_listed_move() -> None:
    state = GAME.setup(["ann"], {}, 11)
    while state["phase"] != "cleanup":
        seat = GAME.status(state).to_act[0]
        state, _ = GAME.apply(state, seat, GAME.bot_move(state, seat, 1))
    move = GAME.bot_move(state, 0, 1)
    assert move in rules.removal_moves(state)
