"""The level-1 bot beats a uniformly random player in at least 90% of 200 seeded 2-player games."""

from __future__ import annotations

from games.tiny_towns import GAME


def _game(seed: int, levels: list[int]) -> list[dict]:
    state = GAME.setup(["a", "b"], {}, seed)
    while not GAME.status(state).finished:
        seat = GAME.status(state).to_act[0]
        state, _ = GAME.apply(state, seat, GAME.bot_move(state, seat, levels[seat]))
    return GAME.standings(state)


def test_level_one_beats_random_in_ninety_percent_of_games() -> None:
    wins = 0
    for seed in range(200):
        levels = [1, 0] if seed % 2 == 0 else [0, 1]
        bot = levels.index(1)
        table = {row["seat"]: row for row in _game(seed, levels)}
        if table[bot]["rank"] == 1 and table[1 - bot]["rank"] == 2:
            wins += 1
    assert wins >= 180, f"level 1 won only {wins} of 200 games"


def test_bot_moves_are_deterministic() -> None:
    state = GAME.setup(["a", "b"], {}, 5)
    state, _ = GAME.apply(state, 0, GAME.bot_move(state, 0, 1))
    for level in (0, 1):
        assert GAME.bot_move(state, 1, level) == GAME.bot_move(state, 1, level)
