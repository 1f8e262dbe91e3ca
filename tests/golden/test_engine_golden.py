"""Every engine plays the recorded seeded games exactly as before (see playouts.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.base import GameSpec
from tests.golden.playouts import CASES, case_key, playout

GOLDEN = json.loads((Path(__file__).parent / "engine_golden.json").read_text())


def test_fixture_covers_every_case() -> None:
    keys = {case_key(game, players, options, seed) for game, players, options, seeds in CASES for seed in seeds}
    assert keys == set(GOLDEN)


@pytest.mark.parametrize(
    "game, players, options, seeds", CASES, ids=[f"{g.slug}-{p}p-{o or 'default'}" for g, p, o, _ in CASES]
)
def test_seeded_playouts_replay_identically(game: GameSpec, players: int, options: str, seeds: range) -> None:
    for seed in seeds:
        assert playout(game, players, options, seed) == GOLDEN[case_key(game, players, options, seed)], seed
