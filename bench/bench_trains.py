"""Trains engine benchmark: random 4-player games per second on each map, legal-move
generation time, bot decision time, and board render time. Prints one JSON object.

``random_4p`` draws each move from the listing with a seeded Rng (the engine alone, like
bench_tiny_towns.py); ``bot0_4p`` lets the level-0 bot choose, which lists the moves a second time.
``games_per_s`` divides by wall time (the issue-14 target: >= 100 on the 2-core machine);
``games_per_cpu_s`` by this process's CPU time, which stays meaningful when other processes
share the cores. ``--engine-only`` skips the bot games and renders.

Run from the repo root: python bench/bench_trains.py
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.rng import Rng  # noqa: E402
from games.trains import GAME  # noqa: E402
from rendering.trains import render_board  # noqa: E402

GAMES_PER_MAP = 30
BOT_GAMES = 6


def _ms(values: list[float]) -> dict[str, float]:
    values = sorted(values)
    return {
        "mean_ms": round(1000 * statistics.fmean(values), 3),
        "median_ms": round(1000 * statistics.median(values), 3),
        "p95_ms": round(1000 * values[int(0.95 * (len(values) - 1))], 3),
        "max_ms": round(1000 * values[-1], 3),
        "samples": len(values),
    }


def random_games(map_name: str, level0: bool = False) -> dict[str, Any]:
    """Random games: each move drawn from the listing by a seeded Rng (the engine alone, as
    bench_tiny_towns.py does), or with ``level0`` chosen by the level-0 bot, which lists again."""
    legal_times: list[float] = []
    moves = 0
    start, cpu = time.perf_counter(), time.process_time()
    for seed in range(GAMES_PER_MAP):
        rng = Rng(seed)
        state = GAME.setup(["ann", "bob", "cat", "dan"], {"map": map_name}, seed)
        status = GAME.status(state)
        while not status.finished:  # one status per move, as a host asks for it
            seat = status.to_act[0]
            t0 = time.perf_counter()
            legal = GAME.legal_moves(state, seat)
            legal_times.append(time.perf_counter() - t0)
            move = GAME.bot_move(state, seat, 0) if level0 else legal[rng.below(len(legal))]
            state, _ = GAME.apply(state, seat, move)
            status = GAME.status(state)
            moves += 1
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    return {
        "games_per_s": round(GAMES_PER_MAP / elapsed, 2),
        "games_per_cpu_s": round(GAMES_PER_MAP / cpu, 2),
        "moves_per_game": round(moves / GAMES_PER_MAP, 1),
        "legal_moves": _ms(legal_times),
    }


def bot_games(map_name: str) -> dict[str, Any]:
    decisions: list[float] = []
    renders: list[float] = []
    sizes: list[int] = []
    for seed in range(BOT_GAMES):
        state = GAME.setup(["ann", "bob", "cat", "dan"], {"map": map_name}, 500 + seed)
        step = 0
        while not GAME.status(state).finished:
            seat = GAME.status(state).to_act[0]
            t0 = time.perf_counter()
            move = GAME.bot_move(state, seat, 1)
            decisions.append(time.perf_counter() - t0)
            state, _ = GAME.apply(state, seat, move)
            step += 1
            if step % 40 == 0:
                t0 = time.perf_counter()
                png = render_board(GAME.view(state, seat), seat)
                renders.append(time.perf_counter() - t0)
                sizes.append(len(png))
    return {"ai_decision": _ms(decisions), "render": _ms(renders), "png_kb_max": round(max(sizes) / 1024, 1)}


def main() -> None:
    engine_only = "--engine-only" in sys.argv
    result: dict[str, Any] = {"game": "trains"}
    for map_name in ("tokyo", "osaka"):
        result[map_name] = {"random_4p": random_games(map_name), "bot0_4p": random_games(map_name, level0=True)}
        if not engine_only:
            result[map_name]["bot_4p"] = bot_games(map_name)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
