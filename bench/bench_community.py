"""Community costs: finishing a game with its rating in the same write, re-rating after a rollback,
and the replay viewer's first view and per-step image. Prints JSON.

Finishes go through ``Store.commit`` with real results (4 players from a pool of 12, openskill);
the re-rating replays every finished game of the server; the viewer re-plays a real Trains game.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import games  # noqa: E402
from bot.web.replays import board_png, replay_of  # noqa: E402
from storage import GameResults, SeatResult, open_store  # noqa: E402
from tests.pgcluster import start  # noqa: E402

GAMES = 300
POOL = 12


def _results(rng: random.Random) -> GameResults:
    players = rng.sample(range(POOL), 4)
    seats = tuple(SeatResult(i, f"u{p}", f"player {p}", "human", rank, 40 - 5 * rank) for i, (p, rank) in
                  enumerate(zip(players, rng.sample([1, 2, 3, 4], 4), strict=True)))  # fmt: skip
    return GameResults(seats, None, "", f"game-{rng.random()}", "guild-token")


async def finishes(target: str) -> dict[str, float]:
    store = await open_store(target)
    rng = random.Random(1)
    spent = 0.0
    for i in range(GAMES):
        game = await store.create_game("g", f"c{i}", "trains", "u0", "player 0", {}, "1")
        game, _ = await store.commit(game, status="active", state={"x": i})
        start = time.perf_counter()
        await store.commit(game, status="finished", results=_results(rng))
        spent += time.perf_counter() - start
    plain = 0.0  # the same finishing commit without results: what the rating adds
    for i in range(GAMES):
        game = await store.create_game("h", f"c{i}", "trains", "u0", "player 0", {}, "1")
        game, _ = await store.commit(game, status="active", state={"x": i})
        start = time.perf_counter()
        await store.commit(game, status="finished")
        plain += time.perf_counter() - start
    last = await store.get_game(GAMES)
    assert last is not None
    start = time.perf_counter()
    await store.commit(last, status="active")  # a rollback after the end: every game is re-rated
    rerate = time.perf_counter() - start
    await store.close()
    return {
        "finish_rated_ms": round(1000 * spent / GAMES, 3),
        "finish_unrated_ms": round(1000 * plain / GAMES, 3),
        f"rerate_{GAMES}_games_ms": round(1000 * rerate, 2),
    }


def viewer() -> dict[str, float]:
    spec = games.get_game("trains")
    state = spec.setup(["ann", "bob", "cat"], {}, 7)
    moves = []
    while not spec.status(state).finished and len(moves) < 400:
        seat = spec.status(state).to_act[0]
        move = spec.bot_move(state, seat, 1)
        moves.append((seat, spec.format(move)))
        state, _ = spec.apply(state, seat, move)
    start = time.perf_counter()
    built = replay_of(spec, ["ann", "bob", "cat"], {}, 7, moves, ["ann", "bob", "cat"], 1)
    first = time.perf_counter() - start
    start = time.perf_counter()
    for step in range(0, built.last + 1, max(1, built.last // 10)):
        board_png(built, step)
    per_step = (time.perf_counter() - start) / len(range(0, built.last + 1, max(1, built.last // 10)))
    return {
        "replay_moves": len(moves),
        "replay_build_ms": round(1000 * first, 1),
        "step_png_ms": round(1000 * per_step, 1),
    }


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        stored = asyncio.run(finishes(str(Path(folder) / "bench.db")))
    cluster = start(durable=True)  # the same finishes on PostgreSQL: results and ratings in the same transaction
    try:
        cluster.create_database("bench")
        on_postgres = asyncio.run(finishes(cluster.database_url("bench")))
    finally:
        cluster.stop()
    print(
        json.dumps({"bench": "community", **stored, **{f"postgres_{k}": v for k, v in on_postgres.items()}, **viewer()})
    )


if __name__ == "__main__":
    main()
