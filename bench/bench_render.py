"""Render-time and PNG-size benchmark for the Tiny Towns renderer and the standings image.

Prints one JSON object. Headline figures (render_ms_median, render_ms_p95) are for the
6-player full board in a warm process (as in the long-running bot); "cold_cache" repeats
that with every cache emptied before each render, the worst case.
Run from the repo root: python bench/bench_render.py
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rendering import render, render_standings, theme, tiny_towns  # noqa: E402
from tests.rendering import synthetic  # noqa: E402

RUNS = 40


def clear_caches() -> None:
    for cached in (
        tiny_towns._tile,
        tiny_towns._card,
        tiny_towns._heading,
        tiny_towns._fit_name,
        theme._text_mask,
        theme.text_width,
        theme._fit_lines,
    ):
        cached.cache_clear()


def measure(jobs: list[Callable[[], bytes]], before: Callable[[], None] | None = None) -> dict[str, Any]:
    times: list[float] = []
    sizes: list[int] = []
    for job in jobs:
        if before:
            before()
        start = time.perf_counter()
        data = job()
        times.append((time.perf_counter() - start) * 1000)
        sizes.append(len(data))
    times.sort()
    return {
        "n": len(times),
        "ms_median": round(statistics.median(times), 2),
        "ms_p95": round(times[min(len(times) - 1, int(len(times) * 0.95))], 2),
        "ms_max": round(times[-1], 2),
        "bytes_median": int(statistics.median(sizes)),
        "bytes_max": max(sizes),
    }


def full_views(players: int) -> list[dict[str, Any]]:
    return [synthetic.view(players, seed=seed, fill=0.9, viewer=seed % players) for seed in range(RUNS)]


def main() -> None:
    clear_caches()
    start = time.perf_counter()
    render(synthetic.view(6, seed=999, fill=0.9))
    first_ms = (time.perf_counter() - start) * 1000

    cases: dict[str, dict[str, Any]] = {}
    for players in (1, 4, 6):
        views = full_views(players)
        cases[f"full_{players}p"] = measure([lambda v=v: render(v) for v in views])
    six = full_views(6)
    cases["full_6p_cold_cache"] = measure([lambda v=v: render(v) for v in six], before=clear_caches)
    cases["focus_6p"] = measure([lambda v=v: render(v, focus=v["viewer"]) for v in six])
    cases["standings_6p"] = measure([lambda v=v: render_standings(v, synthetic.standings_for(v)) for v in six])

    engine: dict[str, Any] | str
    try:
        views, standings = synthetic.engine_playout(6, seed=7, every=3, options="monuments=on", level=1)
    except Exception as error:  # the engine is optional for this bench
        engine = f"unavailable: {type(error).__name__}: {error}"
    else:
        final = views[-1]
        engine = {
            "players": 6,
            "views": len(views),
            "full": measure([lambda v=v: render(v) for v in views]),
            "focus": measure([lambda v=v: render(v, focus=0) for v in views]),
            "standings": measure([lambda: render_standings(final, standings)] * 10),
        }

    every = [case["bytes_max"] for case in cases.values()]
    if isinstance(engine, dict):
        every += [engine["full"]["bytes_max"], engine["focus"]["bytes_max"]]
    print(
        json.dumps(
            {
                "render_ms_median": cases["full_6p"]["ms_median"],
                "render_ms_p95": cases["full_6p"]["ms_p95"],
                "bytes_max": max(every),
                "first_render_ms": round(first_ms, 2),
                "cases": cases,
                "engine": engine,
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
