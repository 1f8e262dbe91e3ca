"""Trains board image: hex map with rails and stations, supply strip, scores.

Pure function of the view dict (see games/trains/view.py). The terrain layer depends only
on the map, so it is drawn once per map and reused; each render copies it and adds the
changing parts (stations, rails, panel).
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from games.trains import MANIFEST
from rendering.theme import (
    BACKGROUND,
    GRID,
    HIGHLIGHT,
    INK,
    MUTED,
    font,
    player_colour,
    stamp_text,
    text_colour_on,
    to_png_fast,
)

SIZE = 30  # hex radius (centre to corner), flat-topped
MARGIN = 14
PANEL = 285
ROOT3 = math.sqrt(3)

# The Trains colours live in the game's manifest (one package declares its own look); images
# read them from there so a palette change shows up everywhere the game is drawn.
PALETTE = MANIFEST.palette
TERRAIN_FILL: dict[str, tuple[int, int, int]] = {
    terrain: PALETTE[f"terrain_{terrain}"] for terrain in ("plain", "river", "mountain", "sea", "city", "remote")
}
SHAPES = ("circle", "square", "triangle", "diamond")
Point = tuple[float, float]


def _centre(col: int, row: int) -> Point:
    x = MARGIN + SIZE + col * 1.5 * SIZE
    y = MARGIN + ROOT3 / 2 * SIZE + row * ROOT3 * SIZE + (ROOT3 / 2 * SIZE if col % 2 else 0)
    return x, y


def _corners(cx: float, cy: float, r: float = SIZE) -> list[Point]:
    angles = [math.radians(60 * i) for i in range(6)]
    return [(cx + r * math.cos(a), cy + r * math.sin(a)) for a in angles]


def _parse(label: str) -> tuple[int, int]:
    return ord(label[0]) - ord("A"), int(label[1:]) - 1


def _map_size(columns: int, rows: int) -> tuple[int, int]:
    width = int(MARGIN * 2 + SIZE * 2 + (columns - 1) * 1.5 * SIZE)
    height = int(MARGIN * 2 + ROOT3 * SIZE * rows + ROOT3 / 2 * SIZE)
    return width, height


@lru_cache(maxsize=8)
def _base_layer(map_json: str) -> Image.Image:
    """Terrain, labels, names, remote values and barriers: everything fixed for a map."""
    gmap = json.loads(map_json)
    map_w, map_h = _map_size(gmap["columns"], gmap["rows"])
    height = max(map_h, 630)
    image = Image.new("RGB", (map_w + PANEL, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for entry in gmap["hexes"]:
        cx, cy = _centre(*_parse(entry["hex"]))
        terrain = entry["terrain"]
        draw.polygon(_corners(cx, cy), fill=TERRAIN_FILL[terrain], outline=GRID)
        if terrain == "river":
            for dy in (-5, 5):
                pts = [(cx - 14 + i * 4, cy + dy + (2 if i % 2 else -2)) for i in range(8)]
                draw.line(pts, fill=PALETTE["river_waves"], width=2)
        elif terrain == "mountain":
            peak = [(cx - 10, cy + 8), (cx, cy - 8), (cx + 10, cy + 8)]
            draw.polygon(peak, outline=PALETTE["mountain_outline"], width=2)
        elif terrain == "sea":
            draw.arc((cx - 8, cy - 4, cx + 8, cy + 6), 200, 340, fill=PALETTE["sea_wave"], width=2)
        elif terrain == "city":
            draw.polygon(_corners(cx, cy, SIZE - 3), outline=INK, width=2)
            name = entry["name"]
            draw.text((cx, cy - 9), name[:12], font=font(10 if len(name) <= 8 else 8), fill=INK, anchor="mm")
        elif terrain == "remote":
            draw.ellipse((cx - 10, cy - 18, cx + 10, cy + 2), fill=PALETTE["remote_badge"])
            draw.text((cx, cy - 8), str(entry["value"]), font=font(14), fill=PALETTE["remote_value"], anchor="mm")
            name = entry["name"]
            draw.text((cx, cy + 9), name[:14], font=font(9 if len(name) <= 10 else 8), fill=INK, anchor="mm")
        if terrain != "sea":
            draw.text((cx, cy - SIZE * 0.7), entry["hex"], font=font(9), fill=MUTED, anchor="mm")
    for a, b in gmap["barriers"]:
        _draw_barrier(draw, a, b)
    return image


def _draw_barrier(draw: ImageDraw.ImageDraw, a: str, b: str) -> None:
    ax, ay = _centre(*_parse(a))
    bx, by = _centre(*_parse(b))
    corners_a = _corners(ax, ay)
    # The shared edge is made of the two corners of ``a`` nearest to ``b``'s centre.
    near = sorted(corners_a, key=lambda p: (p[0] - bx) ** 2 + (p[1] - by) ** 2)[:2]
    draw.line(near, fill=PALETTE["barrier"], width=5)


@lru_cache(maxsize=64)
def _marker_sprite(seat: int, letter: str) -> Image.Image:
    """A rail marker (shape + letter in the seat colour), drawn once and pasted many times."""
    r = 6
    sprite = Image.new("RGBA", (2 * r + 5, 2 * r + 5), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    x = y = r + 2
    colour = player_colour(seat)
    shape = SHAPES[seat % len(SHAPES)]
    if shape == "circle":
        draw.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=INK)
    elif shape == "square":
        draw.rectangle((x - r + 1, y - r + 1, x + r - 1, y + r - 1), fill=colour, outline=INK)
    elif shape == "triangle":
        points = [(x, y - r - 1), (x - r - 1, y + r - 1), (x + r + 1, y + r - 1)]
        draw.polygon(points, fill=colour, outline=INK)
    else:
        points = [(x, y - r - 1), (x + r + 1, y), (x, y + r + 1), (x - r - 1, y)]
        draw.polygon(points, fill=colour, outline=INK)
    draw.text(
        (x, y + (1 if shape == "triangle" else 0)), letter, font=font(8), fill=text_colour_on(colour), anchor="mm"
    )
    return sprite


def _rail_marker(image: Image.Image, seat: int, x: float, y: float, letter: str) -> None:
    sprite = _marker_sprite(seat, letter)
    half = sprite.width // 2
    image.paste(sprite, (int(x) - half, int(y) - half), sprite)


# Four marker spots: a 2x2 block on open terrain, a row under the name on cities/remotes.
_OPEN_SPOTS = ((-9, 7), (9, 7), (-9, 20), (9, 20))
_ROW_SPOTS = ((-15, 21), (-5, 21), (5, 21), (15, 21))


def _letters(players: list[dict[str, Any]]) -> list[str]:
    return [(p["name"][:1] or "?").upper() for p in players]


def render_board(view: dict[str, Any], focus: int | None = None) -> bytes:
    gmap = view["map"]
    image = _base_layer(json.dumps(gmap, sort_keys=True)).copy()
    draw = ImageDraw.Draw(image)
    players = view["players"]
    letters = _letters(players)
    slots = {e["hex"]: e.get("slots", 0) for e in gmap["hexes"] if e["terrain"] == "city"}
    for h, count in slots.items():
        cx, cy = _centre(*_parse(h))
        built = view["stations"].get(h, 0)
        x0 = cx - (count * 11 - 3) / 2
        for i in range(count):
            box = (x0 + i * 11, cy + 1, x0 + i * 11 + 8, cy + 9)
            draw.rectangle(box, fill=INK if i < built else PALETTE["station_free"], outline=INK)
    starts = {p["start"]: p["seat"] for p in players if p.get("start")}
    for h, seat in starts.items():
        cx, cy = _centre(*_parse(h))
        draw.polygon(_corners(cx, cy, SIZE - 1), outline=player_colour(seat), width=3)
    named = {e["hex"] for e in gmap["hexes"] if e["terrain"] in ("city", "remote")}
    for h, seats in view["rails"].items():
        cx, cy = _centre(*_parse(h))
        spots = _ROW_SPOTS if h in named else _OPEN_SPOTS
        for i, seat in enumerate(seats[:4]):
            dx, dy = spots[i]
            _rail_marker(image, seat, cx + dx, cy + dy, letters[seat])
    map_w, _ = _map_size(gmap["columns"], gmap["rows"])
    _panel(image, draw, view, map_w, focus, letters)
    return to_png_fast(image)


def _panel(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], x: int, focus: int | None, letters: list[str]
) -> None:
    x += 8
    y = 10
    stamp_text(image, (x, y), f"Trains - {view['map']['name']}", 18, INK)
    y += 26
    stamp_text(image, (x, y), view.get("status", "")[:46], 11, MUTED)
    y += 22
    for p in view["players"]:
        seat = p["seat"]
        current = view["phase"] != "over" and view["current"] == seat
        if current or seat == focus:
            outline = HIGHLIGHT if current else GRID
            draw.rectangle((x - 4, y - 3, x + PANEL - 16, y + 33), outline=outline, width=2)
        _rail_marker(image, seat, x + 9, y + 9, letters[seat])
        name = p["name"][:14] + (" (kicked)" if p.get("kicked") else " (resigned)" if p["resigned"] else "")
        stamp_text(image, (x + 22, y + 1), name, 13, INK)
        stamp_text(image, (x + PANEL - 24, y + 1), f"{p['score']} VP", 13, INK, anchor="ra")
        b = p["breakdown"]
        total = p["rails_on_board"] + p["rails_left"]
        detail = (
            f"cities {b['cities']} remote {b['remote locations']} cards {b['VP cards']} "
            f"track {b['track VP']} | rails {p['rails_on_board']}/{total}"
        )
        stamp_text(image, (x + 22, y + 16), detail, 9, MUTED)
        y += 26
        top = p["discard_top"] or "-"
        sizes = f"hand {p['hand_size']} deck {p['deck_size']} discard {p['discard_size']} (top: {top})"
        stamp_text(image, (x + 22, y), sizes[:58], 9, MUTED)
        y += 18
    y += 4
    stamp_text(image, (x, y), f"Supply  (stations left: {view['stations_left']})", 13, INK)
    y += 20
    for pile in view["supply"]:
        empty = pile["empty"]
        colour = MUTED if empty else INK
        stamp_text(image, (x, y), pile["name"], 11, colour)
        stamp_text(image, (x + 170, y), f"${pile['cost']}" if pile["card"] != "waste" else "", 11, colour)
        count = "EMPTY" if empty else str(pile["count"])
        stamp_text(image, (x + PANEL - 24, y), count, 11, PALETTE["empty_pile"] if empty else colour, anchor="ra")
        if empty:
            draw.line((x, y + 7, x + 160, y + 7), fill=PALETTE["empty_pile"], width=1)
        y += 16
    legend_y = y + 6
    legend = (
        ("plain", "plain"),
        ("river +1", "river"),
        ("mountain +2", "mountain"),
        ("city +1+st.", "city"),
        ("remote +n", "remote"),
    )
    for i, (label, terrain) in enumerate(legend):
        lx = x + (i % 3) * 90
        ly = legend_y + (i // 3) * 16
        draw.rectangle((lx, ly + 2, lx + 10, ly + 12), fill=TERRAIN_FILL[terrain], outline=GRID)
        stamp_text(image, (lx + 14, ly), label, 10, INK)
