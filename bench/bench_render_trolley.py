"""Render-time and PNG-size benchmark for the My Trolley Town renderer.

Prints one JSON object. Headline figures (render_ms_median, bytes_max) are for 4-player boards
in round 4 (towns of 15-25 tiles, every view different) in a warm process, as in the long-running
bot; the issue's targets are a median of at most 40 ms and at most 300 KB. "cold_cache" repeats
that with every cache emptied before each render (the worst case), "focus" draws one seat large,
and "engine" draws views of a seeded game when the engine package is installed. Wall-clock
times suffer on a shared machine: the CPU time per render and the load average are printed too.
Run from the repo root: python bench/bench_render_trolley.py
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rendering import theme, trolley_town  # noqa: E402
from tests.trolley_town.test_render import engine_views, sample_view  # noqa: E402

RUNS = 50
TARGET_MS = 40.0
TARGET_BYTES = 300_000


def clear_caches() -> None:
    trolley_town.clear_caches()
    for cached in (theme._text_mask, theme.text_width, theme._fit_lines):
        cached.cache_clear()


def measure(jobs: list[Callable[[], bytes]], before: Callable[[], None] | None = None) -> dict[str, Any]:
    times: list[float] = []
    cpu: list[float] = []
    sizes: list[int] = []
    for job in jobs:
        if before:
            before()
        start, start_cpu = time.perf_counter(), time.process_time()
        data = job()
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


def full(views: list[dict[str, Any]]) -> list[Callable[[], bytes]]:
    return [partial(trolley_town.render_board, view) for view in views]


def round_four_views(count: int) -> list[dict[str, Any]]:
    """4-player round-4 views, towns of 15-25 tiles, no two alike (phases vary too)."""
    phases = ("construction", "transport", "processing", "production")
    return [
        sample_view(
            4,
            round_no=4,
            cells=[15 + (seed * 3 + seat * 4) % 11 for seat in range(4)],
            seed=seed,
            phase=phases[seed % len(phases)],
            viewer=seed % 4,
        )
        for seed in range(count)
    ]


def main() -> None:
    views = round_four_views(RUNS)
    clear_caches()
    start = time.perf_counter()
    trolley_town.render_board(views[0])
    first_ms = (time.perf_counter() - start) * 1000

    big = [sample_view(4, cells=40, seed=s) for s in range(10)]
    cases: dict[str, dict[str, Any]] = {
        "full_4p_round4": measure(full(views)),
        "focus_4p_round4": measure([partial(trolley_town.render_board, v, v["viewer"]) for v in views]),
        "full_4p_40_tiles": measure(full(big)),
        "full_4p_round4_cold_cache": measure(full(views[:10]), before=clear_caches),
    }
    for players in (1, 2, 3):
        cases[f"full_{players}p_round4"] = measure(full([sample_view(players, cells=20, seed=s) for s in range(10)]))

    engine: dict[str, Any] | str
    try:
        real = engine_views(4, seed=7)
    except Exception as error:  # the engine package is optional for this bench
        engine = f"unavailable: {type(error).__name__}: {error}"
    else:
        engine = {
            "views": len(real),
            "full": measure(full(real)),
            "focus": measure([partial(trolley_town.render_board, v, 0) for v in real]),
        }

    headline = cases["full_4p_round4"]
    every = [case["kb_max"] for case in cases.values()]
    if isinstance(engine, dict):
        every += [engine["full"]["kb_max"], engine["focus"]["kb_max"]]
    print(
        json.dumps(
            {
                "render_ms_median": headline["ms_median"],
                "render_ms_p95": headline["ms_p95"],
                "render_cpu_ms_median": headline["cpu_ms_median"],
                "load_average_1min": round(os.getloadavg()[0], 2),
                "kb_max": max(every),
                "targets_met": headline["ms_median"] <= TARGET_MS and max(every) * 1024 <= TARGET_BYTES,
                "first_render_ms": round(first_ms, 2),
                "cases": cases,
                "engine": engine,
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
