"""The level-2 (search) bot: legal to the end, deterministic, blind to hidden information (other
seats' hands and every deck's order), and stronger than level 1 on seeded games."""

from __future__ import annotations

import json
from typing import Any

from games.rng import Rng
from games.trains import GAME, ai_search
from games.trains.ai_search import turns_left
from games.trains.copying import clone
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


def _late_buy_states() -> list[tuple[dict[str, Any], int]]:
    """2-player states in the last turns, where level 2 searches its buy, with money to spend."""
    found = []
    for seed in (3, 8):
        state = GAME.setup(["ann", "bob"], {"map": "tokyo"}, seed)
        while not GAME.status(state).finished and len(found) < (6 if seed == 8 else 3):
            seat = GAME.status(state).to_act[0]
            move = GAME.bot_move(state, seat, 1)
            late = state["phase"] == "play" and turns_left(state, seat) <= ai_search._BUILD_UNTIL
            if late and move["verb"] in ("buy", "end") and state["turn"]["money"] >= 3:
                found.append((state, seat))
            state, _ = GAME.apply(state, seat, move)
    return found


def test_late_buys_never_read_other_hands_discards_deck_order_or_the_seed() -> None:
    """Another seat's hand, deck and discard pile dealt afresh, the bot's own draw pile re-ordered,
    or the engine's shuffle seed changed: the bot's buy in the searched last turns is the same."""
    states = _late_buy_states()
    assert len(states) >= 4
    for state, seat in states:
        mine = GAME.bot_move(state, seat, 2)
        other = 1 - seat
        changed = clone(state)
        player = changed["players"][other]
        pool = Rng(5).shuffled([*player["hand"], *player["deck"], *player["discard"]])
        cut, cut2 = len(player["hand"]), len(player["hand"]) + len(player["deck"])
        player["hand"], player["deck"], player["discard"] = pool[:cut], pool[cut:cut2], pool[cut2:]
        assert changed["players"][other]["hand"] != state["players"][other]["hand"] or cut == 0
        changed["players"][seat]["deck"] = Rng(7).shuffled(state["players"][seat]["deck"])
        changed["rng"] = state["rng"] ^ 0x5DEECE66D
        assert GAME.bot_move(changed, seat, 2) == mine
