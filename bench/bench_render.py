"""Render-time and PNG-size benchmark for the Tiny Towns renderer and the standings image.

Prints one JSON object. Headline figures (render_ms_median, render_ms_p95) are for the
6-player full board in a warm process (as in the long-running bot); "cold_cache" repeats
that with every cache emptied before each render, the worst case.
Run from the repo root: python bench/bench_render.py
"""

from __future__ import annotations

import io
import json
import sys
import time
from pathlib import Path
from typing import Any

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from render_timing import measure  # noqa: E402

import games  # noqa: E402
from rendering import render, render_standings, theme, tiny_towns  # noqa: E402
from tests.rendering import samples, synthetic  # noqa: E402

RUNS = 40


def clear_caches() -> None:
    for cached in (
        tiny_towns._tile,
        tiny_towns._card,
        tiny_towns._heading,
        tiny_towns._legend,
        theme._text_mask,
        theme.text_width,
        theme._advances,
        theme._fit_lines,
        theme._text_layout,
    ):
        cached.cache_clear()


def full_views(players: int) -> list[dict[str, Any]]:
    return [synthetic.view(players, seed=seed, fill=0.9, viewer=seed % players) for seed in range(RUNS)]


def games_figures() -> dict[str, Any]:
    """Every registered game's sample views (tests/rendering/samples.py: start, mid, end, public and
    private, smallest and largest player counts, every option), each drawn once to warm the caches
    and then timed, plus the widest image."""
    figures: dict[str, Any] = {}
    for slug in games.available_slugs():
        jobs = [lambda s=sample: render(s.view, s.focus) for game in samples.playouts(slug) for sample in game.samples]
        for job in jobs:
            job()
        result = measure(jobs)
        result["width_max"] = max(_width(job()) for job in jobs)
        figures[slug] = result
    return figures


def _width(data: bytes) -> int:
    with Image.open(io.BytesIO(data)) as image:
        return image.width


def _load() -> float | None:
    # Render times are only comparable on an idle machine: the load is printed with them.
    try:
        return float(Path("/proc/loadavg").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


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
    per_game = games_figures()
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
                "per_game": per_game,
                "loadavg_1min": _load(),
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
