"""Render-time and PNG-size benchmark for the Tramways renderer.

Prints one JSON object. Headline figures (render_ms_median, kb_max) are for 5-player boards with every
Grand Station module (the largest map, the most links and tiles), views of seeded bot games from the
start to the end, public and private (hand) views alike, in a warm process as in the long-running
bot; the issue's targets are a median of at most 40 ms and at most 300 KB. "cold_cache" empties the
drawing caches (terrain layer, building tiles) before each render. Wall-clock times suffer on a
shared machine: the CPU time per render and the load average are printed too.
Run from the repo root: python bench/bench_render_tramways.py
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.tramways import GAME  # noqa: E402
from rendering import tramways  # noqa: E402
from tests.tramways.samples import ALL_MODULES, play  # noqa: E402

TARGET_MS = 40.0
TARGET_BYTES = 300_000


def views(players: int, options: str, seeds: range, every: int) -> list[tuple[dict[str, Any], int | None]]:
    """(view, focus) pairs: every ``every``-th state of seeded bot games, alternately public and private."""
    found: list[tuple[dict[str, Any], int | None]] = []
    for seed in seeds:
        states = play(players, options, seed)
        for index, state in enumerate(states[::every]):
            viewer = index % players if index % 2 else None
            found.append((GAME.view(state, viewer), viewer))
    return found


def measure(jobs: list[tuple[dict[str, Any], int | None]], before: Callable[[], None] | None = None) -> dict[str, Any]:
    times: list[float] = []
    cpu: list[float] = []
    sizes: list[int] = []
    for view, focus in jobs:
        if before:
            before()
        start, start_cpu = time.perf_counter(), time.process_time()
        data = tramways.render_board(view, focus)
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
        sizes.append(len(data))
    times.sort()
    return {
        "n": len(times),
        "ms_median": round(statistics.median(times), 2),
        "cpu_ms_median": round(statistics.median(cpu), 2),
        "ms_p95": round(times[min(len(times) - 1, int(len(times) * 0.95))], 2),
        "ms_max": round(times[-1], 2),
        "kb_median": round(statistics.median(sizes) / 1024, 1),
        "kb_max": round(max(sizes) / 1024, 1),
    }


def main() -> None:
    five = views(5, ALL_MODULES, range(3), every=30)
    tramways.render_board(*five[0])  # the PNG palette and the terrain layer are made once
    cases = {
        "5p_all_modules": measure(five),
        "5p_all_modules_cold_cache": measure(five[:10], before=tramways.clear_caches),
        "1p": measure(views(1, "", range(2), every=20)),
        "3p_station": measure(views(3, "station=on", range(2), every=40)),
    }
    headline = cases["5p_all_modules"]
    kb_max = max(case["kb_max"] for case in cases.values())
    print(
        json.dumps(
            {
                "render_ms_median": headline["ms_median"],
                "render_ms_p95": headline["ms_p95"],
                "render_cpu_ms_median": headline["cpu_ms_median"],
                "load_average_1min": round(os.getloadavg()[0], 2),
                "kb_max": kb_max,
                "targets_met": headline["ms_median"] <= TARGET_MS and kb_max * 1024 <= TARGET_BYTES,
                "cases": cases,
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
