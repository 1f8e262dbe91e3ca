"""The first board after start-up, for every game: each measurement is a fresh process that starts the
render workers as the bot does (bot.discord.app.render_pool: spawned worker processes that warm up
before their first job), waits until they are ready (the bot is still connecting then), and draws
the first board of a new game through the pool, as the bot's first post after a restart.

Prints one JSON object: per game the median, the max and every run of the first board's wall time
(pickling and the worker round trip included) and of the worker's CPU time for it, plus the second
board (the same game's seat-0 view) for comparison. The issue's target: the first board <= 40 ms.
Run from the repo root: python bench/bench_render_first.py [RUNS]
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TARGET_MS = 40.0
NAMES = ("ann", "bob", "cat", "dmitri")  # not the warm-up's names: their legend text is new


def timed_render(view: dict[str, Any], focus: int | None) -> tuple[float, int]:
    """In the worker: the bot's own render function, with its CPU time."""
    from bot.host import render_board

    start = time.process_time()
    data = render_board(view, focus)
    return (time.process_time() - start) * 1000, len(data)


def one(slug: str, seed: int) -> dict[str, Any]:
    """One fresh bot start-up and the first board of a new ``slug`` game (in this process)."""
    import games
    from bot.discord import app
    from games.options import parse_options

    started = time.perf_counter()
    pool = app.render_pool()
    assert pool is not None, "CONDUCTOR_RENDER_PROCESSES=0: no worker processes to measure"
    ready: set[int] = set()
    while len(ready) < app.RENDER_PROCESSES:  # a job runs only after its worker's warm-up
        ready |= {future.result() for future in [pool.submit(os.getpid) for _ in range(app.RENDER_PROCESSES)]}
    warm_s = time.perf_counter() - started
    spec = games.get_game(slug)
    players = max(spec.min_players, min(3, spec.max_players))
    state = spec.setup(list(NAMES[:players]), parse_options("", spec.options), seed)
    figures: dict[str, Any] = {"warm_s": round(warm_s, 2)}
    for label, focus in (("first", None), ("second", 0)):
        start = time.perf_counter()
        cpu_ms, size = pool.submit(timed_render, spec.view(state, focus), focus).result()
        figures[f"{label}_ms"] = round((time.perf_counter() - start) * 1000, 2)
        figures[f"{label}_cpu_ms"] = round(cpu_ms, 2)
        figures[f"{label}_bytes"] = size
    pool.shutdown(wait=True)
    return figures


def main(runs: int) -> None:
    import games

    per_game: dict[str, Any] = {}
    for slug in games.available_slugs():
        found = []
        for seed in range(runs):
            out = subprocess.run(
                [sys.executable, __file__, "--one", slug, str(seed)], capture_output=True, text=True, check=True
            )
            found.append(json.loads(out.stdout))
        summary: dict[str, Any] = {}
        for key in ("first_ms", "first_cpu_ms", "second_ms", "second_cpu_ms", "warm_s"):
            values = [run[key] for run in found]
            summary[key] = {"median": round(statistics.median(values), 2), "max": max(values), "runs": values}
        per_game[slug] = summary
    print(
        json.dumps(
            {
                "first_render_ms_max_median": max(game["first_ms"]["median"] for game in per_game.values()),
                "target_ms": TARGET_MS,
                "load_average_1min": round(os.getloadavg()[0], 2),
                "per_game": per_game,
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--one":
        print(json.dumps(one(sys.argv[2], int(sys.argv[3]))))
    else:
        main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
