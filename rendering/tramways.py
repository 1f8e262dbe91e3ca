"""Tramways board image: the city grid with buildings, parcels, passengers, links and the
expansion tiles, then a player strip (money, HP, stress, rail workers, rails, hand size) in
turn order, and the round and phase.

Pure function of the view dict (games/tramways/view.py). Player colours are the Okabe-Ito
palette and every player also has a shape (circle, square, triangle, diamond, cross) drawn
on each rail tile, so colour is never the only cue. The terrain layer depends only on the
map, so it is drawn once per map and reused.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from games.tramways import MANIFEST
from rendering.theme import (
    BACKGROUND,
    GRID,
    INK,
    MUTED,
    fit_lines,
    player_colour,
    shade,
    stamp_text,
    text_colour_on,
    to_png_fast,
)

CELL = 44
MARGIN = 26  # room for the column letters and row numbers
ROW_H = 56  # one player's two lines in the strip
PALETTE = MANIFEST.palette
SHAPES = ("circle", "square", "triangle", "diamond", "cross")
TILE_NAMES = {"station": "STN", "exchange": "EX$5", "park": "PARK"}


def _xy(cell: str, width: int) -> tuple[int, int]:
    col, row = ord(cell[0]) - 65, int(cell[1:]) - 1
    return MARGIN + col * CELL, MARGIN + 30 + row * CELL


@lru_cache(maxsize=8)
def _base(terrain_json: str) -> Image.Image:
    rows: list[str] = json.loads(terrain_json)
    width, height = len(rows[0]), len(rows)
    image = Image.new("RGB", (MARGIN * 2 + width * CELL, MARGIN + 30 + height * CELL + 6), BACKGROUND)
    draw = ImageDraw.Draw(image)
    fills = {".": PALETTE["plain"], "^": PALETTE["hill"], "~": PALETTE["water"], "#": PALETTE["plain"]}
    for r, line in enumerate(rows):
        for c, ch in enumerate(line):
            x, y = MARGIN + c * CELL, MARGIN + 30 + r * CELL
            draw.rectangle((x, y, x + CELL, y + CELL), fill=fills[ch], outline=GRID)
            if ch == "^":  # a small peak, so hills read without colour
                draw.polygon(((x + 6, y + CELL - 6), (x + 14, y + CELL - 18), (x + 22, y + CELL - 6)), outline=MUTED)
            elif ch == "~":
                for dy in (14, 26):
                    draw.arc((x + 6, y + dy - 5, x + 20, y + dy + 5), 200, 340, fill=(60, 110, 170), width=2)
                    draw.arc((x + 20, y + dy - 5, x + 34, y + dy + 5), 200, 340, fill=(60, 110, 170), width=2)
    for c in range(width):
        stamp_text(image, (MARGIN + c * CELL + CELL / 2, MARGIN + 30 - 4), chr(65 + c), 16, MUTED, "ms")
    for r in range(height):
        stamp_text(image, (MARGIN - 4, MARGIN + 30 + r * CELL + CELL / 2), str(r + 1), 16, MUTED, "rm")
    return image


def _shape(draw: ImageDraw.ImageDraw, shape: str, cx: float, cy: float, r: float, fill: Any, outline: Any) -> None:
    if shape == "circle":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=outline, width=2)
    elif shape == "square":
        draw.rectangle((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=outline, width=2)
    elif shape == "triangle":
        draw.polygon(((cx, cy - r - 1), (cx + r + 1, cy + r), (cx - r - 1, cy + r)), fill=fill, outline=outline)
    elif shape == "diamond":
        draw.polygon(
            ((cx, cy - r - 2), (cx + r + 2, cy), (cx, cy + r + 2), (cx - r - 2, cy)), fill=fill, outline=outline
        )
    else:
        w = r / 2.2
        draw.rectangle((cx - r, cy - w, cx + r, cy + w), fill=fill, outline=outline)
        draw.rectangle((cx - w, cy - r, cx + w, cy + r), fill=fill, outline=outline)


def _endpoints(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], width: int) -> None:
    master = (view.get("master") or {}).get("at")
    for ep in view["endpoints"]:
        boxes = [_xy(cell, width) for cell in ep["cells"]]
        x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
        x1, y1 = max(b[0] for b in boxes) + CELL, max(b[1] for b in boxes) + CELL
        kind, kind_type = ep["kind"], ep["type"]
        if kind in TILE_NAMES:
            fill = PALETTE[{"station": "S", "exchange": "X", "park": "K"}[kind]]
        elif kind == "parcel" and kind_type == "P":
            fill = PALETTE["P"]
        else:
            fill = PALETTE[kind_type]
        owner = ep["owner"]
        outline = player_colour(owner) if owner is not None else shade(fill, 0.45)
        draw.rectangle(
            (x0 + 2, y0 + 2, x1 - 2, y1 - 2), fill=fill, outline=outline, width=4 if owner is not None else 2
        )
        ink = text_colour_on(fill)
        label = TILE_NAMES.get(kind, ep["label"])
        if kind == "parcel" and kind_type != "P":
            label = f"{ep['label']}:{kind_type}"
        if ep["upgraded"]:
            label += "+"
        size = 15 if len(label) <= 4 else 12 if len(label) <= 6 else 10
        stamp_text(image, ((x0 + x1) / 2, y0 + 5), label, size, ink, "mt")
        if owner is not None:
            _shape(draw, SHAPES[owner % len(SHAPES)], x1 - 10, y1 - 10, 5, player_colour(owner), INK)
        # Passengers: filled dots; room for more: hollow dots.
        cap, here = max(ep["capacity"], ep["passengers"]), ep["passengers"]
        for i in range(cap):
            cx, cy = x0 + 10 + i * 12, y1 - 10
            draw.ellipse((cx - 4, cy - 4, cx + 4, cy + 4), fill=INK if i < here else None, outline=INK, width=1)
        if master == ep["label"]:
            moved = view["master"]["moved"]
            draw.ellipse((x1 - 22, y0 + 16, x1 - 6, y0 + 32), fill=(0, 0, 0), outline=(255, 255, 255), width=2)
            stamp_text(image, (x1 - 14, y0 + 24), "m" if moved else "M", 12, (255, 255, 255), "mm")


def _links(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], width: int) -> None:
    centres = {ep["label"]: ep["cells"] for ep in view["endpoints"]}
    for link in view["links"]:
        colour = player_colour(link["owner"])
        points = [(x + CELL / 2, y + CELL / 2) for x, y in (_xy(c, width) for c in link["cells"])]
        ends = [_nearest(centres[link["ends"][0]], link["cells"][0], width)]
        if link["complete"]:
            ends.append(_nearest(centres[link["ends"][1]], link["cells"][-1], width))
        line = [ends[0], *points] + ([ends[1]] if link["complete"] else [])
        thick = 12 if link["complete"] else 6
        if link["upgraded"]:
            draw.line(line, fill=INK, width=thick + 6, joint="curve")
        draw.line(line, fill=colour, width=thick, joint="curve")
        shape = SHAPES[link["owner"] % len(SHAPES)]
        for cx, cy in points:
            _shape(draw, shape, cx, cy, 7, colour, INK)
        mx, my = points[len(points) // 2]
        tag = str(link["id"]) + ("" if link["complete"] else "…")
        draw.rectangle((mx - 11, my - 19, mx + 11, my - 6), fill=(255, 255, 255), outline=colour)
        stamp_text(image, (mx, my - 12), tag, 12, INK, "mm")


def _nearest(cells: list[str], rail: str, width: int) -> tuple[float, float]:
    """The point on the edge of the endpoint cell next to ``rail``, so the line meets the building."""
    rx, ry = _xy(rail, width)
    best = min((_xy(c, width) for c in cells), key=lambda p: abs(p[0] - rx) + abs(p[1] - ry))
    return (best[0] + rx) / 2 + CELL / 2, (best[1] + ry) / 2 + CELL / 2


def _strip(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], top: int, focus: int | None) -> None:
    order = view["order"]
    players = view["players"]
    ranked = order + [p["seat"] for p in players if p["seat"] not in order]
    stamp_text(image, (MARGIN, top), "Players in turn order", 15, MUTED)
    for line, seat in enumerate(ranked):
        p = players[seat]
        y = top + 20 + line * ROW_H
        if seat == view["current"] and not view["finished"]:
            draw.rectangle((MARGIN - 6, y - 2, image.width - MARGIN, y + ROW_H - 6), fill=(255, 240, 200))
        if focus == seat:
            draw.rectangle((MARGIN - 6, y - 2, image.width - MARGIN, y + ROW_H - 6), outline=INK, width=2)
        _shape(draw, SHAPES[seat % len(SHAPES)], MARGIN + 10, y + 13, 9, player_colour(seat), INK)
        place = f"{order.index(seat) + 1}." if seat in order else "–"
        name = f"{place} {p['name']}" + (" (resigned)" if p["resigned"] else "")
        if view.get("last") == seat and (view.get("master") is not None):
            name += " (M)"
        stamp_text(image, (MARGIN + 26, y + 2), f"{name[:24]}   score {p['score']}", 19, INK)
        stats = (
            f"${p['money']}  {p['hp']} HP  stress {p['stress']}  workers {p['workers']}  "
            f"rails {p['rails_left']}  hand {p['hand_size']}"
        )
        stamp_text(image, (MARGIN + 26, y + 26), stats, 19, INK)


def render_board(view: dict[str, Any], focus: int | None = None) -> bytes:
    rows = view["map"]["terrain"]
    width = len(rows[0])
    base = _base(json.dumps(rows))
    strip_h = 30 + ROW_H * len(view["players"]) + 60
    image = Image.new("RGB", (max(base.width, 520), base.height + strip_h), BACKGROUND)
    image.paste(base, (0, 0))
    draw = ImageDraw.Draw(image)
    phase = {"auction": "auction", "take": "auction cards", "actions": "actions", "admin": "administration"}
    head = f"Round {view['round']}/{view['rounds']} · {phase.get(view['phase'], 'game over')}"
    auction = view.get("auction")
    if auction:
        head += f" · high bid ${auction['high']}"
    stamp_text(image, (MARGIN, 8), head, 20, INK)
    _endpoints(image, draw, view, width)
    _links(image, draw, view, width)
    _strip(image, draw, view, base.height + 4, focus)
    y = image.height - 56
    if view["display"]:
        footer = "Auction cards: " + ", ".join(view["display"])
    elif view.get("hand") is not None:
        footer = "Your hand: " + ", ".join(view["hand"])
    else:
        footer = "Development cards: " + ", ".join(view["dev_display"])
    for i, line in enumerate(fit_lines(footer, 16, image.width - 2 * MARGIN, 2)):
        stamp_text(image, (MARGIN, y + i * 22), line, 16, INK)
    return to_png_fast(image)
