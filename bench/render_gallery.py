"""A gallery of sample images for every registered game, for reviewing how boards look.

    python bench/render_gallery.py OUT_DIR

Plays seeded bot games through each game's spec (tests/rendering/samples.py): smallest and largest
player counts, every option value, and at the start, middle and end the public board and one
seat's private view, plus the end-of-game summary chart. Writes the PNGs, a phone-width copy
(400 px wide) of each, and index.md / index.html listing them, and prints render figures as JSON.
"""

from __future__ import annotations

import html
import io
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games  # noqa: E402
from rendering import render, render_standings  # noqa: E402
from tests.rendering import samples  # noqa: E402

PHONE = 400

# What a reviewer should look at first, and why (the closing note of the index).
REVIEW = [
    ("trains-4p-defaults-mid.png", "coordinates, names, rails at hex centres joined by track lines, player strip"),
    ("trains-4p-defaults-mid-seat2.png", "the private view: the hand as cards beside the map, money, deck, discard"),
    ("trains-4p-map-osaka-end-seat0.png", "Osaka: abbreviated names in the legend, barriers, remote badges"),
    ("tiny-towns-6p-cave-on-mid.png", "points per building, free squares and the cave under every town, legend"),
    ("tiny-towns-6p-defaults-end.png", "the final board: ranks, the winner, Empty squares only now"),
    ("tiny-towns-1p-defaults-end-seat0.png", "solo: the title chip, never clipped"),
    ("tiny-towns-6p-defaults-summary.png", "the summary chart: stacked breakdowns, tie-break notes"),
    ("trains-4p-defaults-summary.png", "the summary chart for Trains' labels"),
    ("phone/trains-4p-defaults-mid.png", "the same board at phone width (400 px)"),
]


def _save(out: Path, name: str, data: bytes) -> dict[str, Any]:
    (out / f"{name}.png").write_bytes(data)
    with Image.open(io.BytesIO(data)) as image:
        size = image.size
        phone = image.convert("RGB").resize((PHONE, max(1, round(size[1] * PHONE / size[0]))), Image.LANCZOS)
    phone.save(out / "phone" / f"{name}.png")
    return {"file": f"{name}.png", "width": size[0], "height": size[1], "bytes": len(data)}


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / "phone").mkdir(exist_ok=True)
    entries: dict[str, list[dict[str, Any]]] = {}
    figures: dict[str, Any] = {}
    for slug in games.available_slugs():
        times: list[float] = []
        sizes: list[int] = []
        rows = entries.setdefault(slug, [])
        for game in samples.playouts(slug):
            for sample in game.samples:
                start = time.perf_counter()
                data = render(sample.view, sample.focus)
                times.append((time.perf_counter() - start) * 1000)
                sizes.append(len(data))
                rows.append({"label": sample.label, **_save(out, f"{slug}-{sample.label}", data)})
            label = f"{samples._label(game.players, game.options)}-summary"
            data = render_standings(game.final_view, list(game.standings))
            rows.append({"label": label, **_save(out, f"{slug}-{label}", data)})
        figures[slug] = {
            "images": len(times),
            "first_render_ms_median": round(statistics.median(times), 2),  # one render each: cold caches
            "bytes_median": int(statistics.median(sizes)),
            "bytes_max": max(sizes),
            "width_max": max(row["width"] for row in rows),
        }
    _index(out, entries)
    print(json.dumps(figures, indent=1))


def _index(out: Path, entries: dict[str, list[dict[str, Any]]]) -> None:
    lines = ["# Board gallery", ""]
    parts = ["<html><head><meta charset='utf-8'><title>Board gallery</title></head><body><h1>Board gallery</h1>"]
    for slug, rows in entries.items():
        lines += [f"## {slug}", "", "| image | size | bytes | phone |", "|---|---|---|---|"]
        parts.append(f"<h2>{html.escape(slug)}</h2>")
        for row in rows:
            lines.append(
                f"| [{row['label']}]({row['file']}) | {row['width']}x{row['height']} | {row['bytes']} "
                f"| [400 px](phone/{row['file']}) |"
            )
            parts.append(
                f"<h3>{html.escape(row['label'])} ({row['width']}x{row['height']}, {row['bytes']} bytes)</h3>"
                f"<img src='{row['file']}' style='max-width:100%'> <img src='phone/{row['file']}'>"
            )
        lines.append("")
    lines += ["## What to look at", ""]
    lines += [f"- [{name}]({name}): {why}." for name, why in REVIEW]
    parts.append("<h2>What to look at</h2><ul>")
    parts += [f"<li><a href='{n}'>{html.escape(n)}</a>: {html.escape(why)}.</li>" for n, why in REVIEW]
    parts.append("</ul></body></html>")
    (out / "index.md").write_text("\n".join(lines) + "\n")
    (out / "index.html").write_text("\n".join(parts) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python bench/render_gallery.py OUT_DIR")
    main(Path(sys.argv[1]))
