"""Tramways board image, top to bottom: the round, phase and who acts; the city grid (buildings,
parcels with their owners, passengers, links, the expansion tiles and the Station Master); a
legend of the map's abbreviations; the auction (bids, passes) or turn order with every player's
money, HP, stress, rail workers, rail tiles and hand size; then the auction display, the viewer's
hand or the development display.

Pure function of the view dict (games/tramways/view.py). Every text is at least 14 px at the
image's native size, and long names wrap rather than being cut. Player colours are the Okabe-Ito
palette and every player also has a shape (circle, square, triangle, diamond, cross) drawn on
each rail tile, on each link's number tag and beside their name, so colour is never the only
cue; building types are letters as well as colours, hills and water have their own marks. The
terrain layer depends only on the map, so it is drawn once per map and reused; the PNG palette is
fixed (computed once from the colours drawn here), which is several times faster than choosing
one per image.
"""

from __future__ import annotations

import io
import json
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from games.tramways import MANIFEST
from games.tramways.content import card
from rendering.theme import (
    BACKGROUND,
    GRID,
    INK,
    MUTED,
    PLAYER_COLOURS,
    WHITE,
    fit_lines,
    player_colour,
    shade,
    stamp_text,
    text_colour_on,
    text_width,
    tint,
    wrap_lines,
)

CELL = 48
LEFT = 30  # room for the row numbers
TOP_BAR = 64  # round/phase line and the status line above the map
LETTERS = 22  # column letters above the grid
ROW_H = 54  # one player's two lines in the strip
SMALL = 14  # the smallest text anywhere
PALETTE = MANIFEST.palette
SHAPES = ("circle", "square", "triangle", "diamond", "cross")
TILE_NAMES = {"station": "STN", "exchange": "EX", "park": "PARK"}
TILE_FILL = {"station": "S", "exchange": "X", "park": "K"}
TYPE_NAMES = {"R": "Residence", "C": "Commercial", "I": "Industry", "L": "Leisure"}
PHASES = {
    "draft": "Parcel draft",
    "auction": "Auction for turn order",
    "take": "Auction cards",
    "actions": "Actions",
    "admin": "Administration",
}
HIGHLIGHT_ROW = (255, 240, 200)
WAVES = (60, 110, 170)


def _xy(cell: str) -> tuple[int, int]:
    col, row = ord(cell[0]) - 65, int(cell[1:]) - 1
    return LEFT + col * CELL, TOP_BAR + LETTERS + row * CELL


# ---------------------------------------------------------------- the fixed PNG palette


Colour = tuple[int, ...]


def _colours() -> list[Colour]:
    solid: list[Colour] = [BACKGROUND, INK, MUTED, GRID, WHITE, (0, 0, 0), HIGHLIGHT_ROW, WAVES, *PLAYER_COLOURS]
    fills = [colour for key, colour in PALETTE.items() if key != "accent"]
    solid += fills + [shade(colour, 0.45) for colour in fills] + [tint(colour, 0.5) for colour in PLAYER_COLOURS]
    inks = [INK, WHITE, MUTED, (0, 0, 0), *PLAYER_COLOURS]
    grounds = [BACKGROUND, WHITE, HIGHLIGHT_ROW, *fills, *PLAYER_COLOURS]
    ramps: list[Colour] = []
    for fg in inks:  # anti-aliased edges: each ink fading into each ground
        for bg in grounds:
            for step in (0.2, 0.4, 0.6, 0.8):
                ramps.append(tuple(round(f * step + b * (1 - step)) for f, b in zip(fg, bg, strict=True)))
    return solid + ramps


@lru_cache(maxsize=1)
def _palette_image() -> Image.Image:
    colours = list(dict.fromkeys(_colours()))
    swatch = Image.new("RGB", (len(colours), 1))
    swatch.putdata(colours)
    # The solid colours come first and are repeated, so the quantiser keeps them exactly.
    weighted = Image.new("RGB", (len(colours) + 64 * 40, 1))
    weighted.putdata(colours + [c for c in colours[:40] for _ in range(64)])
    return weighted.quantize(colors=256, method=Image.Quantize.FASTOCTREE)


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.quantize(palette=_palette_image(), dither=Image.Dither.NONE).save(
        buffer, format="PNG", optimize=False, compress_level=3
    )
    return buffer.getvalue()


# ---------------------------------------------------------------- terrain (cached per map)


@lru_cache(maxsize=8)
def _base(terrain_json: str) -> Image.Image:
    rows: list[str] = json.loads(terrain_json)
    width, height = len(rows[0]), len(rows)
    image = Image.new("RGB", (LEFT * 2 + width * CELL, TOP_BAR + LETTERS + height * CELL + 8), BACKGROUND)
    draw = ImageDraw.Draw(image)
    fills = {".": PALETTE["plain"], "^": PALETTE["hill"], "~": PALETTE["water"], "#": PALETTE["plain"]}
    for r, line in enumerate(rows):
        for c, ch in enumerate(line):
            x, y = LEFT + c * CELL, TOP_BAR + LETTERS + r * CELL
            draw.rectangle((x, y, x + CELL, y + CELL), fill=fills[ch], outline=GRID)
            if ch == "^":  # a small peak, so hills read without colour
                draw.polygon(((x + 6, y + CELL - 6), (x + 15, y + CELL - 20), (x + 24, y + CELL - 6)), outline=MUTED)
            elif ch == "~":
                for dy in (16, 30):
                    draw.arc((x + 6, y + dy - 5, x + 22, y + dy + 5), 200, 340, fill=WAVES, width=2)
                    draw.arc((x + 22, y + dy - 5, x + 38, y + dy + 5), 200, 340, fill=WAVES, width=2)
    for c in range(width):
        stamp_text(image, (LEFT + c * CELL + CELL / 2, TOP_BAR + LETTERS - 3), chr(65 + c), 16, MUTED, "ms")
    for r in range(height):
        stamp_text(image, (LEFT - 4, TOP_BAR + LETTERS + r * CELL + CELL / 2), str(r + 1), 16, MUTED, "rm")
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


# ---------------------------------------------------------------- the map


def _endpoints(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    master = (view.get("master") or {}).get("at")
    pool = set((view.get("draft") or {}).get("pool", ()))
    for ep in view["endpoints"]:
        boxes = [_xy(cell) for cell in ep["cells"]]
        x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
        x1, y1 = max(b[0] for b in boxes) + CELL, max(b[1] for b in boxes) + CELL
        kind, kind_type = ep["kind"], ep["type"]
        if kind in TILE_FILL:
            fill = PALETTE[TILE_FILL[kind]]
        elif kind == "parcel" and kind_type == "P":
            fill = PALETTE["P"] if ep["owner"] is not None or ep["label"] in pool else tint(PALETTE["P"], 0.5)
        else:
            fill = PALETTE[kind_type]
        owner = ep["owner"]
        outline = player_colour(owner) if owner is not None else shade(fill, 0.45)
        draw.rectangle(
            (x0 + 2, y0 + 2, x1 - 2, y1 - 2), fill=fill, outline=outline, width=5 if owner is not None else 2
        )
        ink = text_colour_on(fill)
        label = TILE_NAMES.get(kind, ep["label"])
        stamp_text(image, (x0 + 6, y0 + 5), label, 15 if text_width(label, 15) <= x1 - x0 - 10 else SMALL, ink)
        if kind == "parcel" and kind_type != "P":
            # A built parcel: its building type (and + once upgraded) under the parcel's name.
            stamp_text(image, (x0 + 6, y0 + 21), kind_type + ("+" if ep["upgraded"] else ""), 16, ink)
        elif kind == "exchange":
            stamp_text(image, (x0 + 6, y0 + 21), "+$5", 15, ink)
        if owner is not None:
            _shape(draw, SHAPES[owner % len(SHAPES)], x1 - 12, y1 - 12, 6, player_colour(owner), INK)
        # Passengers: filled dots; room for more: hollow dots.
        cap, here = max(ep["capacity"], ep["passengers"]), ep["passengers"]
        for i in range(cap):
            cx, cy = x0 + 11 + i * 13, y1 - 11
            draw.ellipse((cx - 5, cy - 5, cx + 5, cy + 5), fill=ink if i < here else None, outline=ink, width=2)
        if master == ep["label"]:
            moved = view["master"]["moved"]
            cx, cy = x1 - 14, y0 + 24
            draw.ellipse((cx - 10, cy - 10, cx + 10, cy + 10), fill=(0, 0, 0), outline=WHITE, width=2)
            stamp_text(image, (cx, cy), "m" if moved else "M", 15, WHITE, "mm")


def _links(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    centres = {ep["label"]: ep["cells"] for ep in view["endpoints"]}
    tags = []
    for link in view["links"]:
        owner = link["owner"]
        colour = player_colour(owner)
        points = [(x + CELL / 2, y + CELL / 2) for x, y in (_xy(c) for c in link["cells"])]
        ends = [_nearest(centres[link["ends"][0]], link["cells"][0])]
        if link["complete"]:
            ends.append(_nearest(centres[link["ends"][1]], link["cells"][-1]))
        line = [ends[0], *points] + ([ends[1]] if link["complete"] else [])
        thick = 12 if link["complete"] else 5
        if link["upgraded"]:
            draw.line(line, fill=INK, width=thick + 8, joint="curve")
        draw.line(line, fill=colour, width=thick, joint="curve")
        shape = SHAPES[owner % len(SHAPES)]
        middle = len(points) // 2
        for i, (cx, cy) in enumerate(points):
            if i != middle:
                _shape(draw, shape, cx, cy, 7, colour, INK)
        tags.append((points[middle], link, shape, colour))
    for (cx, cy), link, shape, colour in tags:  # on top of every line
        text = str(link["id"])
        w = 17 + text_width(text, 15)
        box = (cx - w / 2, cy - 11, cx + w / 2, cy + 11)
        draw.rectangle(box, fill=WHITE if link["complete"] else BACKGROUND, outline=colour, width=2)
        _shape(draw, shape, box[0] + 8, cy, 4, colour, INK)
        stamp_text(image, (box[0] + 15, cy), text, 15, INK, "lm")


def _nearest(cells: list[str], rail: str) -> tuple[float, float]:
    """The point on the edge of the endpoint cell next to ``rail``, so the line meets the building."""
    rx, ry = _xy(rail)
    best = min((_xy(c) for c in cells), key=lambda p: abs(p[0] - rx) + abs(p[1] - ry))
    return (best[0] + rx) / 2 + CELL / 2, (best[1] + ry) / 2 + CELL / 2


# ---------------------------------------------------------------- text panels


def _wrapped(image: Image.Image, x: int, y: int, text: str, size: int, width: int) -> int:
    """Draw ``text`` word-wrapped to ``width`` (every word kept); returns the y below it."""
    found = wrap_lines(text, size, width, 40) or fit_lines(text, size, width, 40)
    for line in found:
        stamp_text(image, (x, y), line, size, INK)
        y += size + 6
    return y


def _legend(view: dict[str, Any]) -> list[str]:
    kinds = {ep["kind"] for ep in view["endpoints"]}
    first = "R Residence · C Commercial · I Industry · L Leisure · P parcel (frame and mark: its owner)"
    second = "dots: passengers (hollow: room) · thick line: complete link, thin: unfinished, black edge: upgraded"
    tiles = []
    if "station" in kinds:
        tiles.append("STN Station")
    if "exchange" in kinds:
        tiles.append("EX Stock Exchange (+$5 passing)")
    if "park" in kinds:
        tiles.append("PARK (stress -1 passing)")
    if view.get("master"):
        tiles.append("M Station Master (m: moved)")
    return [first, second] + ([" · ".join(tiles)] if tiles else [])


def _card_text(slug: str) -> str:
    c = card(slug)
    icons = " ".join(c.icons)
    extra = "; +1 stress" if c.consequence == "stress" else "; pay $1" if c.consequence == "pay" else ""
    return f"{c.name} [{icons}{extra}]"


def _auction_line(view: dict[str, Any]) -> str | None:
    auction = view.get("auction")
    if not auction:
        return None
    names = view["names"]
    paid = auction.get("paid", {})
    parts = []
    for seat in auction.get("queue", []):
        bid = paid.get(str(seat), 0)
        state = f"bid ${bid}" if bid else "no bid"
        if seat in auction["passed"]:
            state += ", passed"
        if auction.get("leader") == seat:
            state += " (high)"
        parts.append(f"{names[seat]} {state}")
    passed = auction["passed"]
    goes_last = f" First to pass goes last: {names[passed[0]]}." if passed else " The first to pass goes last."
    return f"Bids are paid at once and add up. High bid ${auction['high']}. " + "; ".join(parts) + "." + goes_last


def _strip(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], top: int, focus: int | None) -> int:
    order = view["order"]
    players = view["players"]
    ranked = order + [p["seat"] for p in players if p["seat"] not in order]
    title = "Bidding order (last round's turn order)" if view["phase"] == "auction" else "Turn order"
    stamp_text(image, (LEFT, top), title, 16, MUTED)
    y = top + 24
    for seat in ranked:
        p = players[seat]
        if seat == view["current"] and not view["finished"]:
            draw.rectangle((LEFT - 8, y - 3, image.width - LEFT + 8, y + ROW_H - 7), fill=HIGHLIGHT_ROW)
        if focus == seat:
            draw.rectangle((LEFT - 8, y - 3, image.width - LEFT + 8, y + ROW_H - 7), outline=INK, width=2)
        _shape(draw, SHAPES[seat % len(SHAPES)], LEFT + 10, y + 11, 9, player_colour(seat), INK)
        place = f"{order.index(seat) + 1}." if seat in order else "–"
        name = p["name"] if text_width(p["name"], 19) <= 200 else p["name"][:16] + "…"
        head = f"{place} {name}" + ((" (kicked)" if p.get("kicked") else " (resigned)") if p["resigned"] else "")
        if view.get("master") is not None and view.get("last") == seat and view["phase"] in ("take", "actions"):
            head += " · Station Master"
        stamp_text(image, (LEFT + 26, y), f"{head} · {p['score']} pts", 19, INK)
        stats = (
            f"${p['money']} · {p['hp']} HP · stress {p['stress']} · {p['workers']} workers · "
            f"{p['rails_left']} rails · {p['hand_size']} cards"
        )
        stamp_text(image, (LEFT + 26, y + 25), stats, 17, INK)
        y += ROW_H
    return y


def render_board(view: dict[str, Any], focus: int | None = None) -> bytes:
    rows = view["map"]["terrain"]
    base = _base(json.dumps(rows))
    width = max(base.width, 540)
    text_w = width - 2 * LEFT
    # Everything under the map is laid out on a scratch canvas first, so its height is known.
    panel = Image.new("RGB", (width, 1400), BACKGROUND)
    pdraw = ImageDraw.Draw(panel)
    y = 4
    for line in _legend(view):
        y = _wrapped(panel, LEFT, y, line, 15, text_w)
    y += 6
    auction = _auction_line(view)
    if auction:
        y = _wrapped(panel, LEFT, y, auction, 15, text_w) + 4
    y = _strip(panel, pdraw, view, y, focus) + 4
    sections = []
    if view.get("draft"):
        sections.append("Parcels left to draft: " + ", ".join(view["draft"]["pool"]))
    if view["display"]:
        sections.append("Auction cards: " + "; ".join(_card_text(c) for c in view["display"]))
    if view.get("hand") is not None:
        sections.append("Your hand: " + ("; ".join(_card_text(c) for c in view["hand"]) or "empty"))
    if view["dev_display"]:
        costs = view.get("dev_costs", {})
        sections.append(
            "Development cards: " + "; ".join(f"{_card_text(c)} ${costs.get(c, 0)}" for c in view["dev_display"])
        )
    for text in sections:
        y = _wrapped(panel, LEFT, y, text, 15, text_w) + 4
    image = Image.new("RGB", (width, base.height + y + 8), BACKGROUND)
    image.paste(base, (0, 0))
    image.paste(panel.crop((0, 0, width, y + 8)), (0, base.height))
    draw = ImageDraw.Draw(image)
    phase = PHASES.get(view["phase"], "Game over")
    if view["phase"] == "actions" and view.get("turn", {}).get("step") == 2:
        phase += ": two actions each"
    elif view["phase"] == "actions":
        phase += ": one action each"
    round_text = f"Round {view['round']} of {view['rounds']} · " if view["round"] else ""
    stamp_text(image, (LEFT, 8), round_text + phase, 20, INK)
    status = view.get("status", "")
    if status.startswith(("Round ", "Parcel draft: ")) and ": " in status:
        status = status.split(": ", 1)[1]  # the round and phase are in the line above
    for i, line in enumerate(wrap_lines(status, 16, text_w, 2) or fit_lines(status, 16, text_w, 2)):
        stamp_text(image, (LEFT, 34 + i * 20), line, 16, MUTED if i else INK)
    _endpoints(image, draw, view)
    _links(image, draw, view)
    return _png(image)
