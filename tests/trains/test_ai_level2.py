"""The level-2 (search) bot: legal to the end, deterministic, blind to hidden information (other
seats' hands and every deck's order), and stronger than level 1 on seeded games."""

from __future__ import annotations

import json
from typing import Any

from games.rng import Rng
from games.trains import GAME
from games.trains.movegen import legal_moves
from games.trains.rules import apply, redeal


def _game(seed: int, levels: list[int], map_name: str = "tokyo") -> list[dict[str, Any]]:
    state = GAME.setup(["ann", "bob"], {"map": map_name}, seed)
    while not GAME.status(state).finished:
        seat = GAME.status(state).to_act[0]
        move = GAME.bot_move(state, seat, levels[seat])
        state, _ = GAME.apply(state, seat, move)  # raises on an illegal move
    return list(GAME.standings(state))


def _midgame(seed: int, moves: int) -> dict[str, Any]:
    state = GAME.setup(["ann", "bob", "cat"], {"map": "osaka"}, seed)
    for _ in range(moves):
        seat = GAME.status(state).to_act[0]
        state, _ = GAME.apply(state, seat, GAME.bot_move(state, seat, 1))
    return state


def test_level_two_beats_level_one_on_both_maps() -> None:
    """Six seeded 2-player games per map, seats alternating: level 2 must win at least 4 of 6
    (a random bot wins none against level 1)."""
    for map_name in ("tokyo", "osaka"):
        wins = 0
        for seed in range(6):
            levels = [2, 1] if seed % 2 == 0 else [1, 2]
            me = levels.index(2)
            ranks = {row["seat"]: row["rank"] for row in _game(500 + seed, levels, map_name)}
            wins += ranks[me] == 1 and ranks[1 - me] == 2
        assert wins >= 4, f"{map_name}: level 2 won {wins} of 6"


def test_level_two_moves_are_legal_deterministic_and_leave_the_state_unchanged() -> None:
    for moves in (6, 40, 90, 150):
        state = _midgame(9, moves)
        seat = GAME.status(state).to_act[0]
        before = json.dumps(state, sort_keys=True)
        move = GAME.bot_move(state, seat, 2)
        assert move == GAME.bot_move(state, seat, 2)
        assert json.dumps(state, sort_keys=True) == before
        apply(state, seat, move)
        assert move["verb"] in {m["verb"] for m in legal_moves(state, seat)}


def test_level_two_never_reads_other_hands_or_any_deck_order() -> None:
    """Re-dealing another seat's hand and deck, or shuffling the bot's own draw pile (its order is
    hidden from its owner too), never changes the bot's move."""
    checked = 0
    for seed in (2, 5):
        for moves in (20, 60, 100, 140, 180):
            state = _midgame(seed, moves)
            if GAME.status(state).finished:
                continue
            seat = GAME.status(state).to_act[0]
            mine = GAME.bot_move(state, seat, 2)
            for other in range(3):
                if other != seat:
                    assert GAME.bot_move(redeal(state, other, 31 + other), seat, 2) == mine
            shuffled = redeal(state, seat, 77)
            player = shuffled["players"][seat]
            player["hand"] = list(state["players"][seat]["hand"])  # own hand known, deck order not
            player["deck"] = Rng(1234).shuffled(list(state["players"][seat]["deck"]))
            assert GAME.bot_move(shuffled, seat, 2) == mine
            checked += 1
    assert checked >= 8
