"""Tramways board image, top to bottom: the round, phase and who acts; the city grid (buildings,
parcels with their owners, passengers, links, the expansion tiles and the Station Master); the
auction (bids, passes); a table of every player (turn order, score, money, HP, stress, rail
workers, rail tiles, hand and deck); the parcels left in the draft; the auction display, the
viewer's hand and the development display as cards; and a legend of every mark on the map.

Pure function of the view dict (games/tramways/view.py). Text follows the theme's rules (issue 13):
at least ``theme.MIN_TEXT`` px, and the words players type (cell letters and numbers, building
labels, link numbers, card names) at least ``theme.MIN_TYPED`` px, each inside its box. The image
stays narrow (672 px for 2-5 players, 972 px for the 15-column solo map) so a phone shows it large.
Player colours are the Okabe-Ito palette and every player also has a shape (circle, square,
triangle, diamond, cross) drawn on each rail tile, on each link's number tag and in the player
table, so colour is never the only cue; building types are letters as well as colours, hills and
water have their own marks, and card icons are labelled chips. The terrain layer depends only on the
map and each building tile only on its look, so both are drawn once and reused; the PNG palette is
fixed (computed once from the colours drawn here), which is several times faster than choosing one
per image.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from games.tramways import MANIFEST
from games.tramways.content import card
from rendering import theme
from rendering.theme import (
    BACKGROUND,
    GRID,
    INK,
    MUTED,
    PLAYER_COLOURS,
    WHITE,
    draw_text,
    player_colour,
    shade,
    stamp_text,
    text_colour_on,
    text_width,
    tint,
)

CELL = 60
LEFT = 36  # room for the row numbers
LETTERS = 28  # column letters above the grid
MIN_WIDTH = 640  # the panels under the map need this much; a 10-column map is 672 px
PAD = 8
TYPED = theme.MIN_TYPED
TEXT = 17  # body text: a little over the minimum
PALETTE = MANIFEST.palette
SHAPES = ("circle", "square", "triangle", "diamond", "cross")
TILE_FILL = {"station": "S", "exchange": "X", "park": "K"}
TILE_TEXT = {"exchange": "EX", "park": "PARK"}  # not destinations, so never typed: short names
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
PANEL = (255, 254, 251)
BAD = (190, 60, 40)  # card consequences (+1 stress, pay $1)
ICON_MEANINGS = {
    "rail": "lay a rail tile",
    "up": "upgrade a link",
    "build": "build or upgrade",
    "ticket": "move a passenger",
    "worker": "+1 rail worker",
    "pax": "a new passenger",
    "calm": "stress -1",
    "$1": "money",
    "$2": "money",
    "stress": "when played",
    "pay": "when played",
}
ICON_FILL = {"rail": (90, 90, 90), "up": (40, 40, 40), "build": (150, 110, 70), "ticket": (0, 114, 178)}

Box = tuple[float, float, float, float]


def _xy(cell: str) -> tuple[int, int]:
    """The top-left pixel of a cell like "B7" in the map layer."""
    col, row = ord(cell[0]) - 65, int(cell[1:]) - 1
    return LEFT + col * CELL, LETTERS + row * CELL


# ---------------------------------------------------------------- the fixed PNG palette


Colour = tuple[int, ...]


def _colours() -> list[Colour]:
    solid: list[Colour] = [BACKGROUND, INK, MUTED, GRID, WHITE, (0, 0, 0), HIGHLIGHT_ROW, WAVES, PANEL, BAD]
    solid += [*PLAYER_COLOURS, *ICON_FILL.values()]
    fills = [colour for key, colour in PALETTE.items() if key != "accent"]
    solid += fills + [shade(colour, 0.45) for colour in fills] + [tint(colour, 0.5) for colour in PLAYER_COLOURS]
    inks = [INK, WHITE, MUTED, (0, 0, 0), *PLAYER_COLOURS]
    grounds = [BACKGROUND, WHITE, HIGHLIGHT_ROW, PANEL, *fills, *PLAYER_COLOURS, *ICON_FILL.values()]
    ramps: list[Colour] = []
    for fg in inks:  # anti-aliased edges: each ink fading into each ground
        for bg in grounds:
            for step in (0.2, 0.4, 0.6, 0.8):
                ramps.append(tuple(round(f * step + b * (1 - step)) for f, b in zip(fg, bg, strict=True)))
    return solid + ramps


@lru_cache(maxsize=1)
def _palette_image() -> Image.Image:
    colours = list(dict.fromkeys(_colours()))
    # The solid colours come first and are repeated, so the quantiser keeps them exactly.
    weighted = Image.new("RGB", (len(colours) + 64 * 48, 1))
    weighted.putdata(colours + [c for c in colours[:48] for _ in range(64)])
    return weighted.quantize(colors=256, method=Image.Quantize.FASTOCTREE)


def _png(image: Image.Image) -> bytes:
    return theme.png_bytes(image.quantize(palette=_palette_image(), dither=Image.Dither.NONE))


# ---------------------------------------------------------------- terrain (cached per map)


def _hill(draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
    draw.polygon(((x + 7, y + CELL - 7), (x + 18, y + CELL - 24), (x + 29, y + CELL - 7)), outline=INK, width=2)


def _water(draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
    for dy in (19, 36):
        draw.arc((x + 6, y + dy - 6, x + 27, y + dy + 6), 200, 340, fill=WAVES, width=3)
        draw.arc((x + 27, y + dy - 6, x + 48, y + dy + 6), 200, 340, fill=WAVES, width=3)


TERRAIN_MARKS: dict[str, Callable[[ImageDraw.ImageDraw, float, float], None]] = {
    "^": _hill,
    "~": _water,
}


@lru_cache(maxsize=8)
def _base(terrain_json: str) -> Image.Image:
    """The grid with its terrain marks and the column letters and row numbers players type."""
    rows: list[str] = json.loads(terrain_json)
    width, height = len(rows[0]), len(rows)
    image = Image.new("RGB", (LEFT * 2 + width * CELL, LETTERS + height * CELL + 6), BACKGROUND)
    draw = ImageDraw.Draw(image)
    fills = {".": PALETTE["plain"], "^": PALETTE["hill"], "~": PALETTE["water"], "#": PALETTE["plain"]}
    for r, line in enumerate(rows):
        for c, ch in enumerate(line):
            x, y = LEFT + c * CELL, LETTERS + r * CELL
            draw.rectangle((x, y, x + CELL, y + CELL), fill=fills[ch], outline=GRID)
            if ch in TERRAIN_MARKS:
                TERRAIN_MARKS[ch](draw, x, y)
    for c in range(width):
        x = LEFT + c * CELL
        box = (x, 0, x + CELL, LETTERS)
        stamp_text(image, (x + CELL / 2, LETTERS - 4), chr(65 + c), TYPED, INK, "ms", box=box, typed=True)
    for r in range(height):
        y = LETTERS + r * CELL
        box = (0, y, LEFT, y + CELL)
        stamp_text(image, (LEFT - 5, y + CELL / 2), str(r + 1), TYPED, INK, "rm", box=box, typed=True)
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


def _player_shape(draw: ImageDraw.ImageDraw, seat: int, cx: float, cy: float, r: float) -> None:
    _shape(draw, SHAPES[seat % len(SHAPES)], cx, cy, r, player_colour(seat), INK)


# ---------------------------------------------------------------- the map


def _fill(ep: dict[str, Any], pool: set[str]) -> tuple[int, int, int]:
    kind, kind_type = ep["kind"], ep["type"]
    if kind in TILE_FILL:
        return PALETTE[TILE_FILL[kind]]
    if kind == "parcel" and kind_type == "P":
        return PALETTE["P"] if ep["owner"] is not None or ep["label"] in pool else tint(PALETTE["P"], 0.5)
    return PALETTE[kind_type]


def _master_token(image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float, moved: bool) -> None:
    r = 13
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(0, 0, 0), outline=WHITE, width=2)
    stamp_text(image, (cx, cy + 1), "m" if moved else "M", 17, WHITE, "mm", box=(cx - r, cy - r, cx + r, cy + r))


def _endpoints(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], origin: tuple[int, int]) -> None:
    """Every building, parcel and tile (each drawn once per look, then pasted) and the Station Master."""
    master = (view.get("master") or {}).get("at")
    pool = set((view.get("draft") or {}).get("pool", ()))
    ox, oy = origin
    for ep in view["endpoints"]:
        boxes = [_xy(cell) for cell in ep["cells"]]
        x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
        x1, y1 = max(b[0] for b in boxes) + CELL, max(b[1] for b in boxes) + CELL
        look = (ep["label"], ep["kind"], ep["type"], ep["owner"], bool(ep["upgraded"]), ep["capacity"])
        sprite = _endpoint_sprite(*look, ep["passengers"], _fill(ep, pool), x1 - x0, y1 - y0)
        image.paste(sprite, (ox + x0 + 2, oy + y0 + 2))
        if master == ep["label"]:
            _master_token(image, draw, ox + x1 - 4, oy + y0 + 4, bool(view["master"]["moved"]))


@lru_cache(maxsize=1024)
def _endpoint_sprite(
    label: str,
    kind: str,
    kind_type: str,
    owner: int | None,
    upgraded: bool,
    capacity: int,
    passengers: int,
    fill: tuple[int, int, int],
    width: int,
    height: int,
) -> Image.Image:
    """One endpoint as drawn inside its cells (2 px in from the grid lines): fill, owner frame and
    shape, label, type and passengers. Boards repeat most of them from render to render."""
    image = Image.new("RGB", (width - 3, height - 3), fill)
    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = -2, -2, width - 2, height - 2  # the cells' box in the sprite's coordinates
    outline = player_colour(owner) if owner is not None else shade(fill, 0.45)
    draw.rectangle((0, 0, width - 4, height - 4), outline=outline, width=5 if owner is not None else 2)
    ink = text_colour_on(fill)
    label_box = (x0 + 6, y0 + 4, x1 - 4, y0 + 28)
    if kind in TILE_TEXT:
        draw_text(image, label_box, TILE_TEXT[kind], TEXT, ink, align="l", max_lines=1)
    elif text_width(label, TYPED) > label_box[2] - label_box[0] and y1 - y0 > x1 - x0:
        _upright_label(image, label, fill, ink, (x0 + 5, y0 + 6, x0 + 31, y1 - 20))
    else:  # building labels are typed in /tram move, build and draft
        draw_text(image, label_box, label, TYPED, ink, align="l", max_lines=1, typed=True)
    second = (x0 + 6, y0 + 27, x1 - 22, y0 + 45)
    if kind == "parcel" and kind_type != "P":
        # A built parcel: its building type (and + once upgraded) under the parcel's name.
        draw_text(image, second, kind_type + ("+" if upgraded else ""), TEXT, ink, align="l", max_lines=1)
    elif kind == "exchange":
        draw_text(image, second, "+$5", TEXT, ink, align="l", max_lines=1)
    if owner is not None:
        _player_shape(draw, owner, x1 - 14, y0 + 36, 6)
    # Passengers: filled dots; room for more: hollow dots.
    for i in range(max(capacity, passengers)):
        cx, cy = x0 + 12 + i * 13, y1 - 10
        draw.ellipse((cx - 5, cy - 5, cx + 5, cy + 5), fill=ink if i < passengers else None, outline=ink, width=2)
    return image


def clear_caches() -> None:
    """Empty the drawing caches (tests record the text of a whole image)."""
    for cached in (_base, _endpoint_sprite, _card_image, _legend_entry):
        cached.cache_clear()


def _upright_label(image: Image.Image, label: str, fill: Any, ink: Any, box: Box) -> None:
    """A label too long for a tall narrow tile (STATION standing on end), read bottom to top."""
    x0, y0, x1, y1 = (round(v) for v in box)
    strip = Image.new("RGB", (y1 - y0, x1 - x0), fill)
    stamp_text(strip, (2, strip.height / 2), label, TYPED, ink, "lm", box=(0, 0, *strip.size), typed=True)
    image.paste(strip.rotate(90, expand=True), (x0, y0))


def _links(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], origin: tuple[int, int]) -> None:
    centres = {ep["label"]: ep["cells"] for ep in view["endpoints"]}
    ox, oy = origin
    tags = []
    for link in view["links"]:
        owner = link["owner"]
        colour = player_colour(owner)
        points = [(ox + x + CELL / 2, oy + y + CELL / 2) for x, y in (_xy(c) for c in link["cells"])]
        ends = [_nearest(centres[link["ends"][0]], link["cells"][0], origin)]
        if link["complete"]:
            ends.append(_nearest(centres[link["ends"][1]], link["cells"][-1], origin))
        line = [ends[0], *points] + ([ends[1]] if link["complete"] else [])
        thick = 12 if link["complete"] else 5
        if link["upgraded"]:
            draw.line(line, fill=INK, width=thick + 8, joint="curve")
        draw.line(line, fill=colour, width=thick, joint="curve")
        middle = len(points) // 2
        for i, (cx, cy) in enumerate(points):
            if i != middle:
                _player_shape(draw, owner, cx, cy, 8)
        tags.append((points[middle], link, colour))
    for (cx, cy), link, colour in tags:  # on top of every line
        _link_tag(image, draw, cx, cy, link, colour)


def _link_tag(
    image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float, link: dict[str, Any], colour: Any
) -> None:
    """The link's number (typed in /tram move ... via) behind its owner's shape."""
    text = str(link["id"])
    w = 24 + text_width(text, TYPED) + 5
    box = (cx - w / 2, cy - 14, cx + w / 2, cy + 14)
    draw.rectangle(box, fill=WHITE if link["complete"] else BACKGROUND, outline=colour, width=2)
    _player_shape(draw, link["owner"], box[0] + 11, cy, 5)
    stamp_text(image, (box[0] + 22, cy + 1), text, TYPED, INK, "lm", box=box, typed=True)


def _nearest(cells: list[str], rail: str, origin: tuple[int, int]) -> tuple[float, float]:
    """The point on the edge of the endpoint cell next to ``rail``, so the line meets the building."""
    rx, ry = _xy(rail)
    best = min((_xy(c) for c in cells), key=lambda p: abs(p[0] - rx) + abs(p[1] - ry))
    return origin[0] + (best[0] + rx) / 2 + CELL / 2, origin[1] + (best[1] + ry) / 2 + CELL / 2


# ---------------------------------------------------------------- panels (each its own canvas)


class Panel:
    """A canvas as wide as the image that grows as it is drawn on; ``image()`` crops it."""

    def __init__(self, width: int, height: int = 600) -> None:
        self.canvas, self.draw = theme.new_canvas(width, height)
        self.width = width
        self.y = 0

    def room(self, height: float) -> None:
        """Make sure ``height`` px below ``self.y`` exist (the canvas starts small: filling is not free)."""
        if self.y + height > self.canvas.height:
            canvas, draw = theme.new_canvas(self.width, max(2 * self.canvas.height, round(self.y + height) + 200))
            canvas.paste(self.canvas, (0, 0))
            self.canvas, self.draw = canvas, draw

    def text(self, text: str, size: int = TEXT, fill: Any = INK, max_lines: int = 6, typed: bool = False) -> None:
        """``text`` wrapped across the panel at ``self.y``; moves ``self.y`` below it."""
        inner = self.width - 2 * LEFT
        found = theme.wrap_lines(text, size, inner, max_lines) or theme.fit_lines(text, size, inner, max_lines)
        height = theme.line_height(size) * len(found)
        self.room(height + 4)
        box = (LEFT, self.y, self.width - LEFT, self.y + height)
        draw_text(self.canvas, box, text, size, fill, align="l", max_lines=max_lines, typed=typed)
        self.y += height + 4

    def heading(self, text: str) -> None:
        self.room(30)
        box = (LEFT, self.y, self.width - LEFT, self.y + 28)
        draw_text(self.canvas, box, text, 19, INK, align="l", max_lines=1)
        self.y += 30

    def image(self) -> Image.Image:
        return self.canvas.crop((0, 0, self.width, self.y))


def _header(view: dict[str, Any], width: int) -> Image.Image:
    panel = Panel(width, 200)
    panel.y = 8
    phase = PHASES.get(view["phase"], "Game over")
    if view["phase"] == "actions" and view.get("turn", {}).get("step") == 2:
        phase += ": two actions each"
    elif view["phase"] == "actions":
        phase += ": one action each"
    round_text = f"Round {view['round']} of {view['rounds']} · " if view["round"] else ""
    panel.text(round_text + phase, 22, INK, max_lines=2)
    status = view.get("status", "")
    if status.startswith(("Round ", "Parcel draft: ")) and ": " in status:
        status = status.split(": ", 1)[1]  # the round and phase are in the line above
    if status:
        panel.text(status, TEXT, INK, max_lines=3)
    return panel.image()


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


# The player table: (header, view key, width in px). Width fits the header and a 2-digit value.
COLUMNS: tuple[tuple[str, str, int], ...] = (
    ("pts", "score", 46),
    ("$", "money", 40),
    ("HP", "hp", 40),
    ("stress", "stress", 56),
    ("workers", "workers", 70),
    ("rails", "rails_left", 48),
    ("hand", "hand_size", 48),
    ("deck", "deck_size", 48),
)
ROW = 32


def _table(panel: Panel, view: dict[str, Any], focus: int | None) -> None:
    """One row per player in turn order: the current player's row highlighted, the viewer's framed."""
    order = view["order"]
    players = view["players"]
    ranked = order + [p["seat"] for p in players if p["seat"] not in order]
    title = "Bidding order (last round's turn order)" if view["phase"] == "auction" else "Turn order"
    if view["finished"]:
        title = "Final scores"
    panel.heading(title)
    panel.room(24 + ROW * len(ranked) + 8)
    canvas, draw, width = panel.canvas, panel.draw, panel.width
    right = width - LEFT + 4
    columns = []
    x = right
    for header, key, w in reversed(COLUMNS):
        x -= w
        columns.append((header, key, x, x + w))
    name_right = x - 6
    y = panel.y
    for header, _, x0, x1 in columns:
        stamp_text(canvas, (x1 - 4, y + 10), header, 16, MUTED, "rm", box=(x0, y, x1, y + 22))
    y += 24
    for seat in ranked:
        p = players[seat]
        row = (LEFT - 8, y, right + 4, y + ROW)
        if seat == view["current"] and not view["finished"]:
            draw.rectangle(row, fill=HIGHLIGHT_ROW)
        if focus == seat:
            draw.rectangle(row, outline=INK, width=2)
        _player_shape(draw, seat, LEFT + 6, y + ROW / 2, 8)
        place = f"{order.index(seat) + 1}." if seat in order else "–"
        name = f"{place} {p['name']}" + ((" (kicked)" if p.get("kicked") else " (resigned)") if p["resigned"] else "")
        name_left = LEFT + 20
        if view.get("master") is not None and view.get("last") == seat and view["phase"] in ("take", "actions"):
            _master_token(canvas, draw, name_right - 13, y + ROW / 2, bool(view["master"]["moved"]))
            name_box = (name_left, y, name_right - 30, y + ROW)
        else:
            name_box = (name_left, y, name_right, y + ROW)
        draw_text(canvas, name_box, name, 19, INK, align="l", max_lines=1)
        for _, key, x0, x1 in columns:
            stamp_text(canvas, (x1 - 4, y + ROW / 2), str(p[key]), 19, INK, "rm", box=(x0, y, x1, y + ROW))
        draw.line((LEFT - 8, y + ROW, right + 4, y + ROW), fill=GRID)
        y += ROW
    panel.y = y + 8


# ---------------------------------------------------------------- cards


def _icon_look(icon: str) -> tuple[str, tuple[int, int, int]]:
    """(label, fill) of a card icon: destinations in their building colour, parcels as P3."""
    if icon.upper() in TYPE_NAMES or icon == "s":
        return icon.upper(), PALETTE["S" if icon == "s" else icon.upper()]
    if icon in ICON_FILL:
        return icon, ICON_FILL[icon]
    if icon.startswith("p") and icon[1:].isdigit():
        return icon.upper(), PALETTE["P"]
    if icon in ("stress", "pay"):
        return ("+1 stress" if icon == "stress" else "pay $1"), BAD
    return icon, (235, 235, 235)


def _chip_width(icon: str) -> float:
    return text_width(_icon_look(icon)[0], TEXT) + 12


def _icon_chip(image: Image.Image, draw: ImageDraw.ImageDraw, icon: str, x: float, y: float) -> float:
    """One card icon as a labelled chip; returns its width."""
    label, fill = _icon_look(icon)
    w = _chip_width(icon)
    box = (x, y, x + w, y + 25)
    draw.rounded_rectangle(box, radius=5, fill=fill, outline=shade(fill, 0.4))
    stamp_text(image, (x + w / 2, y + 13), label, TEXT, text_colour_on(fill), "mm", box=box)
    return w


def _card_icons(slug: str) -> list[str]:
    c = card(slug)
    return [*c.icons, *([c.consequence] if c.consequence in ("stress", "pay") else [])]


CARD_W_MIN = 180


def _card_box(image: Image.Image, draw: ImageDraw.ImageDraw, slug: str, box: Box, cost: int | None, count: int) -> None:
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=7, fill=WHITE, outline=GRID, width=2)
    c = card(slug)
    price = f"${cost}" if cost is not None else (f"x{count}" if count > 1 else "")
    price_w = text_width(price, 19) + 8 if price else 0
    if price:
        stamp_text(image, (x1 - 7, y0 + 16), price, 19, INK, "rm", box=(x1 - price_w - 4, y0, x1, y0 + 32))
    name_box = (x0 + 8, y0 + 4, x1 - 8 - price_w, y0 + 30)
    draw_text(image, name_box, c.name, TYPED, INK, align="l", max_lines=1, typed=True)  # typed in take/buy
    x, y = x0 + 8, y0 + 34
    for icon in _card_icons(slug):
        if x + _chip_width(icon) > x1 - 6:
            x, y = x0 + 8, y + 29
        x += _icon_chip(image, draw, icon, x, y) + 5


def _card_rows(slugs: Sequence[str], width: int, inner: int) -> tuple[int, int]:
    """(columns, card height) for cards laid out in ``inner`` px."""
    columns = max(1, inner // CARD_W_MIN)  # the same card width in every section
    card_w = (inner - 8 * (columns - 1)) // columns
    lines = 1
    for slug in slugs:
        used, rows = 8.0, 1
        for icon in _card_icons(slug):
            w = _chip_width(icon) + 5
            if used + w > card_w - 6:
                used, rows = 8.0, rows + 1
            used += w
        lines = max(lines, rows)
    return columns, 34 + 29 * lines + 6


def _cards(panel: Panel, title: str, slugs: Sequence[str], costs: dict[str, int] | None = None) -> None:
    panel.heading(title)
    counted: dict[str, int] = {}
    for slug in slugs:
        counted[slug] = counted.get(slug, 0) + 1
    unique = list(counted)
    if not unique:
        panel.text("none", TEXT, MUTED)
        return
    inner = panel.width - 2 * LEFT + 16
    columns, height = _card_rows(unique, panel.width, inner)
    card_w = (inner - 8 * (columns - 1)) // columns
    rows = -(-len(unique) // columns)
    panel.room(rows * (height + 8) + 4)
    for index, slug in enumerate(unique):
        row, col = divmod(index, columns)
        x = LEFT - 8 + col * (card_w + 8)
        y = panel.y + row * (height + 8)
        cost = costs.get(slug) if costs is not None else None
        panel.canvas.paste(_card_image(slug, card_w, height, cost, counted[slug], (x % 2, y % 2)), (x, y))
    panel.y += rows * (height + 8) + 4


@lru_cache(maxsize=256)
def _card_image(
    slug: str, width: int, height: int, cost: int | None, count: int, parity: tuple[int, int]
) -> Image.Image:
    """A card as ``_card_box`` draws it at a spot of ``parity`` (x and y mod 2), to paste there: a
    card looks the same from one board to the next. Drawn at that parity because a half-pixel text
    position rounds to even: the same pixels as drawing it on the panel."""
    px, py = parity
    canvas, draw = theme.new_canvas(px + width + 1, py + height + 1)
    _card_box(canvas, draw, slug, (px, py, px + width, py + height), cost, count)
    return canvas.crop((px, py, px + width + 1, py + height + 1))


def _draft(panel: Panel, pool: Sequence[str]) -> None:
    panel.heading("Parcels left to draft")
    panel.room(34 * len(pool) + 36)  # at most a row each
    x: float = LEFT
    y = panel.y
    for label in pool:
        w = text_width(label, TYPED) + 14
        if x + w > panel.width - LEFT:
            x, y = LEFT, y + 34
        box = (x, y, x + w, y + 28)
        panel.draw.rounded_rectangle(box, radius=5, fill=PALETTE["P"], outline=shade(PALETTE["P"], 0.45))
        stamp_text(panel.canvas, (x + w / 2, y + 14), label, TYPED, INK, "mm", box=box, typed=True)
        x += w + 6
    panel.y = y + 36


# ---------------------------------------------------------------- legend


def _legend_entries(view: dict[str, Any]) -> list[tuple[str, str]]:
    """(symbol kind, explanation) for every mark this board uses, and only those."""
    kinds = {ep["kind"] for ep in view["endpoints"]}
    types = {ep["type"] for ep in view["endpoints"]}
    terrain = "".join(view["map"]["terrain"])
    entries = [(f"type-{t}", f"{t} {TYPE_NAMES[t]}") for t in "RCIL" if t in types]
    entries.append(("parcel", "P parcel (frame: owner)"))
    if "^" in terrain:
        entries.append(("hill", "hill"))
    if "~" in terrain:
        entries.append(("water", "water"))
    if any(ep["passengers"] for ep in view["endpoints"]):
        entries.append(("pax", "passenger"))
    if any(ep["capacity"] > ep["passengers"] for ep in view["endpoints"]):
        entries.append(("room", "room for one"))
    links = view["links"]
    for kind, label, shown in (
        ("complete", "complete link", any(link["complete"] for link in links)),
        ("open", "unfinished link", any(not link["complete"] for link in links)),
        ("upgraded", "upgraded link", any(link["upgraded"] for link in links)),
        ("tag", "link number", bool(links)),
    ):
        if shown:
            entries.append((kind, label))
    if "station" in kinds:
        entries.append(("station", "STATION Station"))
    if "exchange" in kinds:
        entries.append(("exchange", "EX Stock Exchange: +$5"))
    if "park" in kinds:
        entries.append(("park", "PARK: stress -1"))
    if view.get("master"):
        entries.append(("master", "Station Master (m: moved)"))
    cards = [*(view.get("hand") or ()), *view["display"], *view["dev_display"]]
    icons = {icon for slug in cards for icon in _card_icons(slug)}
    meanings = {meaning: icon for icon, meaning in reversed(ICON_MEANINGS.items()) if icon in icons}
    entries += [(f"icon-{icon}", meaning) for meaning, icon in reversed(meanings.items())]
    if any(icon.upper() in TYPE_NAMES or icon == "s" for icon in icons):
        entries.append(("icon-r", "R C I L S: destination"))
    if any(icon.startswith("p") and icon[1:].isdigit() for icon in icons):
        entries.append(("icon-p1", "P1: that parcel"))
    return entries


def _legend_symbol(image: Image.Image, draw: ImageDraw.ImageDraw, kind: str, x: float, y: float) -> None:
    """One symbol in a 44x28 area."""
    if kind.startswith("type-") or kind in ("parcel", "station", "exchange", "park"):
        key = {"parcel": "P", "station": "S", "exchange": "X", "park": "K"}.get(kind, kind[5:])
        fill = PALETTE[key]
        box = (x + 4, y, x + 40, y + 28)
        draw.rectangle(box, fill=fill, outline=shade(fill, 0.45), width=2)
        letter = {"S": "S", "X": "EX", "K": "PK"}.get(key, key)
        stamp_text(image, (x + 22, y + 15), letter, TEXT, text_colour_on(fill), "mm", box=box)
    elif kind in ("hill", "water"):
        tile = Image.new("RGB", (CELL, CELL), PALETTE[kind])
        TERRAIN_MARKS["^" if kind == "hill" else "~"](ImageDraw.Draw(tile), 0, 0)
        image.paste(tile.resize((36, 36)).crop((0, 4, 36, 32)), (round(x + 4), round(y)))
    elif kind in ("pax", "room"):
        draw.ellipse((x + 16, y + 8, x + 28, y + 20), fill=INK if kind == "pax" else None, outline=INK, width=2)
    elif kind in ("complete", "open", "upgraded"):
        colour = player_colour(0)
        if kind == "upgraded":
            draw.line((x + 2, y + 14, x + 42, y + 14), fill=INK, width=20)
        draw.line((x + 2, y + 14, x + 42, y + 14), fill=colour, width=5 if kind == "open" else 12)
    elif kind == "tag":
        box = (x + 2, y + 1, x + 42, y + 27)
        draw.rectangle(box, fill=WHITE, outline=player_colour(0), width=2)
        _player_shape(draw, 0, x + 11, y + 14, 4)
        stamp_text(image, (x + 19, y + 15), "3", TYPED, INK, "lm", box=box, typed=True)
    elif kind == "master":
        _master_token(image, draw, x + 22, y + 14, False)
    elif kind.startswith("icon-"):
        _icon_chip(image, draw, kind[5:], x + 2, y + 1)


def _legend(panel: Panel, view: dict[str, Any]) -> None:
    entries = _legend_entries(view)
    panel.heading("Legend")
    inner = panel.width - 2 * LEFT
    columns = max(1, inner // 270)
    col_w = inner // columns
    rows = -(-len(entries) // columns)
    panel.room(rows * 32 + 6)
    for index, (kind, label) in enumerate(entries):
        col, row = divmod(index, rows)
        x, y = LEFT + col * col_w, panel.y + row * 32
        panel.canvas.paste(_legend_entry(kind, label, col_w, (x % 2, y % 2)), (x, y))
    panel.y += rows * 32 + 6


@lru_cache(maxsize=256)
def _legend_entry(kind: str, label: str, width: int, parity: tuple[int, int]) -> Image.Image:
    """One legend entry (``_legend_item``) drawn once per ``parity`` (x and y mod 2), as a card is."""
    px, py = parity
    canvas, draw = theme.new_canvas(px + width, py + 32)
    _legend_item(canvas, draw, kind, label, (px, py, px + width, py + 32))
    return canvas.crop((px, py, px + width, py + 32))


def _legend_item(image: Image.Image, draw: ImageDraw.ImageDraw, kind: str, label: str, box: Box) -> None:
    """A legend entry in ``box`` (a column wide, 32 px high): its symbol, then what it means."""
    x, y, right, _ = box
    _legend_symbol(image, draw, kind, x, y)
    text_x = x + max(50, _chip_width(kind[5:]) + 10 if kind.startswith("icon-") else 0)
    draw_text(image, (text_x, y, right - 6, y + 28), label, TEXT, INK, align="l", max_lines=1)


# ---------------------------------------------------------------- the image


def board_image(view: dict[str, Any], focus: int | None = None) -> Image.Image:
    """The RGB image behind ``render_board``."""
    base = _base(json.dumps(view["map"]["terrain"]))
    width = max(base.width, MIN_WIDTH)
    header = _header(view, width)
    panel = Panel(width)
    auction = _auction_line(view)
    if auction:
        panel.text(auction, TEXT)
    _table(panel, view, focus)
    if view.get("draft"):
        _draft(panel, view["draft"]["pool"])
    if view.get("hand") is not None:
        _cards(panel, "Your hand", view["hand"])
    if view["display"]:
        _cards(panel, "Auction cards (take one)", view["display"])
    if view["dev_display"]:
        _cards(panel, "Development cards (buy)", view["dev_display"], view.get("dev_costs", {}))
    _legend(panel, view)
    below = panel.image()
    image = Image.new("RGB", (width, header.height + base.height + below.height + 8), BACKGROUND)
    left = (width - base.width) // 2
    image.paste(header, (0, 0))
    image.paste(base, (left, header.height))
    image.paste(below, (0, header.height + base.height))
    draw = ImageDraw.Draw(image)
    _endpoints(image, draw, view, (left, header.height))
    _links(image, draw, view, (left, header.height))
    return image


def render_board(view: dict[str, Any], focus: int | None = None) -> bytes:
    return _png(board_image(view, focus))
