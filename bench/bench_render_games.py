"""Render-time and PNG-size benchmark of one game's renderer on views of seeded bot games (the shared
sample driver, tests/rendering/samples.py), public and private views alike, from the start to the end.

    python bench/bench_render_games.py [SLUG ...]      (default: tramways trolley-town)

Prints one JSON object, per game: each case's wall and CPU milliseconds and PNG sizes in a warm process
(as in the long-running bot), the headline case (the largest table) with "cold_cache" repeating part of
it with every drawing cache emptied before each render, and whether the issue's targets are met
(median <= 15 ms, at most 300 KB). The load average is printed: wall times are only comparable on an
idle machine.
"""

from __future__ import annotations

import json
import os
import sys
from functools import partial
from pathlib import Path
from typing import Any

from render_timing import measure

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games  # noqa: E402
from rendering import renderer_for, theme  # noqa: E402
from tests.rendering.samples import clear_renderer_caches, play  # noqa: E402
from tests.tramways.samples import ALL_MODULES  # noqa: E402
from tests.tramways.samples import NAMES as TRAMWAYS_NAMES  # noqa: E402
from tests.trolley_town.samples import NAMES as TROLLEY_NAMES  # noqa: E402

TARGET_MS = 15.0
TARGET_BYTES = 300_000
# Per game: its player names, then (case, players, options, seeds, every n-th state); the first is the headline.
CASES: dict[str, tuple[tuple[str, ...], tuple[tuple[str, int, str, range, int], ...]]] = {
    "tramways": (
        TRAMWAYS_NAMES,
        (
            ("5p_all_modules", 5, ALL_MODULES, range(3), 30),
            ("1p", 1, "", range(2), 20),
            ("3p_station", 3, "station=on", range(2), 40),
        ),
    ),
    "trolley-town": (
        TROLLEY_NAMES,
        (
            ("4p", 4, "", range(3), 8),
            ("1p", 1, "", range(2), 4),
            ("3p_expert", 3, "expert=all", range(2), 8),
        ),
    ),
}


def views(slug: str, names: tuple[str, ...], players: int, options: str, seeds: range, every: int) -> list[Any]:
    """(view, focus) pairs: every ``every``-th state of seeded bot games, alternately public and private."""
    spec = games.get_game(slug)
    found: list[tuple[dict[str, Any], int | None]] = []
    for seed in seeds:
        for index, state in enumerate(play(slug, names[:players], options, seed)[::every]):
            viewer = index % players if index % 2 else None
            found.append((spec.view(state, viewer), viewer))
    return found


def clear_caches(slug: str) -> None:
    """The worst case: the renderer's layers and tiles and the theme's glyphs and text widths all gone
    (its palette stays: it is made once per process, in the render worker's warm-up)."""
    clear_renderer_caches(slug)
    for cached in (theme._text_mask, theme.text_width, theme._advances, theme._fit_lines, theme._text_layout):
        cached.cache_clear()


def bench(slug: str) -> dict[str, Any]:
    names, table = CASES[slug]
    draw = renderer_for(slug).render_board
    cases: dict[str, Any] = {}
    for index, (label, players, options, seeds, every) in enumerate(table):
        jobs = [partial(draw, view, focus) for view, focus in views(slug, names, players, options, seeds, every)]
        jobs[0]()  # palettes and fixed layers are made once per process
        cases[label] = measure(jobs)
        if index == 0:
            cases[f"{label}_cold_cache"] = measure(jobs[:10], before=partial(clear_caches, slug))
    headline = cases[table[0][0]]
    bytes_max = max(case["bytes_max"] for case in cases.values())
    return {
        "render_ms_median": headline["ms_median"],
        "render_cpu_ms_median": headline["cpu_ms_median"],
        "render_ms_p95": headline["ms_p95"],
        "kb_max": round(bytes_max / 1024, 1),
        "targets_met": headline["ms_median"] <= TARGET_MS and bytes_max <= TARGET_BYTES,
        "cases": cases,
    }


def main(slugs: list[str]) -> None:
    figures: dict[str, Any] = {slug: bench(slug) for slug in slugs}
    figures["load_average_1min"] = round(os.getloadavg()[0], 2)
    print(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:] or list(CASES))
