"""Seeded random playouts of every engine, reduced to one hash per game.

The golden fixture (``engine_golden.json``) was recorded with the engines as they were before the
fast paths (bitboard matching, cheap state copies) went in; the test replays the same seeds and
must get the same hashes: the same legal moves in the same order, the same events and the same
final state, byte for byte (key order included, as states are stored as JSON).

Regenerate only on purpose (a rules change):
``python -m tests.golden.playouts > tests/golden/engine_golden.json``.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from games.base import GameSpec
from games.options import parse_options
from games.rng import Rng
from games.tiny_towns import GAME as TINY_TOWNS
from games.trains import GAME as TRAINS
from games.tramways import GAME as TRAMWAYS
from games.trolley_town import GAME as TROLLEY_TOWN

MAX_MOVES = 5000

# (game, players, options text, seeds): 60 four-player Tiny Towns games with monuments, then
# solo, two-player and the other variants; a few games of every other engine.
CASES: list[tuple[GameSpec, int, str, range]] = [
    (TINY_TOWNS, 4, "monuments=on", range(60)),
    (TINY_TOWNS, 1, "monuments=on", range(10)),
    (TINY_TOWNS, 1, "monuments=off", range(5)),
    (TINY_TOWNS, 2, "monuments=on cave=on", range(10)),
    (TINY_TOWNS, 3, "variant=town-hall monuments=on cave=on", range(5)),
    (TINY_TOWNS, 6, "monuments=on", range(3)),
    (TRAINS, 4, "map=tokyo", range(8)),
    (TRAINS, 2, "map=osaka", range(8)),
    (TRAINS, 3, "map=osaka", range(4)),
    (TROLLEY_TOWN, 4, "", range(4)),
    (TROLLEY_TOWN, 1, "", range(3)),
    (TRAMWAYS, 3, "", range(2)),
    (TRAMWAYS, 2, "station=on exchange=on park=on", range(2)),
]


def playout(game: GameSpec, players: int, options: str, seed: int) -> dict[str, Any]:
    """Random legal moves (seat and move drawn from a seeded Rng), hashed move by move."""
    state = game.setup([f"p{i}" for i in range(players)], parse_options(options, game.options), seed)
    picker = Rng(seed * 7919 + players)
    digest = hashlib.sha256(json.dumps(state).encode())
    moves = 0
    while not game.status(state).finished:
        if moves >= MAX_MOVES:
            raise AssertionError(f"{game.slug} seed {seed} did not end in {MAX_MOVES} moves")
        status = game.status(state)
        seat = picker.choice(status.to_act)
        legal = game.legal_moves(state, seat)
        move = picker.choice(legal)
        state, events = game.apply(state, seat, move)
        digest.update(json.dumps([seat, legal, move, events]).encode())
        moves += 1
    digest.update(json.dumps(state).encode())
    scores = [row["score"] for row in sorted(game.standings(state), key=lambda row: row["seat"])]
    return {"moves": moves, "scores": scores, "sha256": digest.hexdigest()[:24]}


def case_key(game: GameSpec, players: int, options: str, seed: int) -> str:
    return f"{game.slug}/{players}p/{options or '-'}/{seed}"


def record() -> dict[str, dict[str, Any]]:
    return {
        case_key(game, players, options, seed): playout(game, players, options, seed)
        for game, players, options, seeds in CASES
        for seed in seeds
    }


if __name__ == "__main__":
    print(json.dumps(record(), indent=0, sort_keys=True))
