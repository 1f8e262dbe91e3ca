"""Seeded random and bot playouts on both maps with invariants after every move."""

from __future__ import annotations

import json

import pytest

from games.base import IllegalMove
from games.trains import GAME
from games.trains.content import MAPS, RULES
from games.trains.scoring import rails_on_board

MOVE_CAP = 4000


def totals(state):
    counts = dict(state["supply"])
    for p in state["players"]:
        for zone in ("deck", "hand", "discard", "play", "gained"):
            for c in p[zone]:
                counts[c] = counts.get(c, 0) + 1
    for c, n in state["trash"].items():
        counts[c] = counts.get(c, 0) + n
    return {k: v for k, v in counts.items() if v}


def check(state, expected_totals):
    assert totals(state) == expected_totals, "cards must be conserved"
    gmap = MAPS[state["map"]]
    for seat, p in enumerate(state["players"]):
        assert 0 <= p["rails_left"] <= RULES["rails_per_player"]
        assert rails_on_board(state, seat) + p["rails_left"] == RULES["rails_per_player"]
    for h, seats in state["rails"].items():
        assert gmap.terrain[h] != "sea" and len(set(seats)) == len(seats)
    for h, n in state["stations"].items():
        assert 0 <= n <= gmap.cities[h].value
    assert sum(state["stations"].values()) + state["stations_left"] == RULES["stations_total"]
    assert state["turn"]["money"] >= 0


def playout(seed, players, map_name, levels, check_every=1):
    state = GAME.setup(["ann", "bob", "cat", "dan"][:players], {"map": map_name}, seed)
    expected = totals(state)
    history = []
    for step in range(MOVE_CAP):
        status = GAME.status(state)
        if status.finished:
            break
        seat = status.to_act[0]
        move = GAME.bot_move(state, seat, levels[seat])
        state, events = GAME.apply(state, seat, move)
        history.append((seat, move))
        if check_every and step % check_every == 0:
            check(state, expected)
    assert GAME.status(state).finished, "game must finish"
    check(state, expected)
    return state, history


@pytest.mark.parametrize("map_name", ["tokyo", "osaka"])
def test_random_playouts(map_name):
    for seed in range(40):
        players = 2 + seed % 3
        playout(seed, players, map_name, [0] * players)


@pytest.mark.parametrize("map_name", ["tokyo", "osaka"])
def test_bot_playouts(map_name):
    for seed in range(15):
        players = 2 + seed % 3
        state, _ = playout(100 + seed, players, map_name, [1] * players)
        scores = [r["score"] for r in GAME.standings(state)]
        assert max(scores) > 20


@pytest.mark.parametrize("map_name", ["tokyo", "osaka"])
def test_mixed_playouts(map_name):
    for seed in range(20):
        players = 2 + seed % 3
        playout(200 + seed, players, map_name, [(seed + s) % 2 for s in range(players)], check_every=3)


def test_bot_beats_random_in_200_games():
    wins = 0
    for seed in range(200):
        bot = seed % 2
        state = GAME.setup(["ann", "bob"], {"map": "osaka" if seed % 4 > 1 else "tokyo"}, 1000 + seed)
        for _ in range(MOVE_CAP):
            status = GAME.status(state)
            if status.finished:
                break
            seat = status.to_act[0]
            state, _ = GAME.apply(state, seat, GAME.bot_move(state, seat, 1 if seat == bot else 0))
        rows = GAME.standings(state)
        assert GAME.status(state).finished
        if rows[0]["seat"] == bot and rows[1]["rank"] > 1:
            wins += 1
    assert wins >= 180, wins


def test_apply_never_mutates_and_rejects_cleanly():
    state = GAME.setup(["ann", "bob"], {}, 9)
    before = json.dumps(state, sort_keys=True)
    state2, _ = GAME.apply(state, 0, {"verb": "start", "hex": "E5"})
    assert json.dumps(state, sort_keys=True) == before
    for bad in ({"verb": "fly"}, {"verb": "play", "card": "lay-rails", "args": ["E5"]}, {"verb": "start", "hex": "E5"}):
        with pytest.raises(IllegalMove):
            GAME.apply(state2, 0, bad)
    assert GAME.legal_moves(state2, 0) == [] and GAME.legal_moves(state2, 1)
