"""Trains board image: a hex map you can play from on a phone, the player strip, the supply.

Pure function of the view dict (see games/trains/view.py). The terrain layer (hexes, patterns,
coordinates, city and remote names, barriers) depends only on the map, so it is drawn once per map,
mapped onto the map's palette and reused (the legend, which names the players, once per table);
each render copies that palette image and draws the changing parts of the map straight into it,
and only the panel beside the map is drawn in RGB and mapped onto the palette.

Every hex shows its coordinate (typed in commands, so at least MIN_TYPED) near its top; names sit
below it and wrap, or are abbreviated with the full name in the legend. Rails are the player's
shape in the player's colour inside the hex, and each player's adjacent rails are joined by a
track line so a network reads at a glance. The private view (``focus``) adds that seat's hand as
cards, its deck and discard, and the money the hand would give.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from games.trains import MANIFEST
from games.trains.content import CARDS
from rendering.theme import (
    BACKGROUND,
    GRID,
    HIGHLIGHT,
    INK,
    MIN_TEXT,
    MIN_TYPED,
    MUTED,
    PLAYER_COLOURS,
    WHITE,
    Ink,
    draw_player_marker,
    draw_text,
    exact_inks,
    palette_from,
    player_colour,
    player_shape,
    png_bytes,
    polygon,
    shape_points,
    stamp_text,
    text_width,
    tint,
    wrap_lines,
)

SIZE = 52  # hex radius (centre to corner), flat-topped
MARGIN = 14
PANEL = 440
ROOT3 = math.sqrt(3)
LEGEND_ROW = 30
NAME_BOX = 42  # half-width of the box a name must stay in (the city plate is wider there)

# The Trains colours live in the game's manifest (one package declares its own look); images
# read them from there so a palette change shows up everywhere the game is drawn.
PALETTE = MANIFEST.palette
TERRAIN_FILL: dict[str, tuple[int, int, int]] = {
    terrain: PALETTE[f"terrain_{terrain}"] for terrain in ("plain", "river", "mountain", "sea", "city", "remote")
}
Point = tuple[float, float]
Box = tuple[float, float, float, float]

# The colours drawn straight into the palette image, at fixed palette indices (BACKGROUND is 0).
EXACT = (BACKGROUND, INK, WHITE, *PLAYER_COLOURS)
INKS = exact_inks(EXACT)


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


def _name_lines(name: str) -> tuple[tuple[str, ...], bool]:
    """The name in at most two 16 px lines inside a hex; True when it had to be abbreviated."""
    lines = wrap_lines(name, MIN_TEXT, 2 * NAME_BOX, 2)
    if lines is not None:
        return lines, False
    from rendering.theme import fit_lines

    return fit_lines(name, MIN_TEXT, 2 * NAME_BOX, 2), True


# --- The fixed layer ---------------------------------------------------------------------------

LEGEND_TERRAIN = (
    ("plain", "plain: free"),
    ("river", "river: +$1"),
    ("mountain", "mountain: +$2"),
    ("city", "city: +$1, +$1 a station"),
    ("remote", "remote: +$ and VP = its number"),
    ("sea", "sea: no rails"),
)


Labels = dict[str, list[tuple[int, int, int, int]]]


@lru_cache(maxsize=4)
def _base_layer(map_json: str, players_json: str) -> tuple[Image.Image, int, Labels]:
    """Terrain, coordinates, names, remote values, barriers and the legend under the map, as a
    palette ("P") image over the map's palette (``_palette``).

    Returns the image, the y where the legend ends (the panel may make the image taller), and
    per hex the rectangles of its labels: track lines drawn later are covered there again with
    this layer, so a line never crosses a coordinate or a name. The map part is drawn and mapped
    onto the palette once per map (``_indexed_map``); only the legend, which names the players, is
    drawn for each table, on a strip mapped onto the palette on its own.
    """
    _, labels, abbreviated = _map_layer(map_json)
    gmap = json.loads(map_json)
    players: list[tuple[int, str]] = json.loads(players_json)
    map_w, map_h = _map_size(gmap["columns"], gmap["rows"])
    image = _indexed_map(map_json).copy()
    strip = Image.new("RGB", (map_w, image.height - map_h), BACKGROUND)
    _legend(strip, ImageDraw.Draw(strip), 0, map_w, players, abbreviated)
    image.paste(strip.quantize(palette=_palette(map_json), dither=Image.Dither.NONE), (0, map_h))
    return image, image.height, labels


@lru_cache(maxsize=4)
def _indexed_map(map_json: str) -> Image.Image:
    """``_map_layer``'s image mapped onto the map's palette."""
    return _map_layer(map_json)[0].quantize(palette=_palette(map_json), dither=Image.Dither.NONE)


@lru_cache(maxsize=4)
def _map_layer(map_json: str) -> tuple[Image.Image, Labels, list[tuple[str, str]]]:
    """``_base_layer`` without its legend: the image (legend area left blank), the label rectangles
    per hex, and the abbreviated city names the legend spells out."""
    labels: Labels = {}
    gmap = json.loads(map_json)
    map_w, map_h = _map_size(gmap["columns"], gmap["rows"])
    abbreviated: list[tuple[str, str]] = []
    for entry in gmap["hexes"]:
        if entry.get("name"):
            lines, short = _name_lines(entry["name"])
            if short:
                abbreviated.append((" ".join(lines), entry["name"]))
    legend_h = LEGEND_ROW * (4 + (1 if abbreviated else 0)) + 12
    height = map_h + legend_h
    image = Image.new("RGB", (map_w + PANEL, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for entry in gmap["hexes"]:
        cx, cy = _centre(*_parse(entry["hex"]))
        terrain = entry["terrain"]
        draw.polygon(_corners(cx, cy), fill=TERRAIN_FILL[terrain], outline=GRID)
        _terrain_pattern(draw, terrain, cx, cy)
        if terrain == "city":
            draw.polygon(_corners(cx, cy, SIZE - 4), fill=WHITE, outline=INK, width=2)
        elif terrain == "remote":
            draw.polygon(_corners(cx, cy, SIZE - 4), outline=PALETTE["remote_badge"], width=3)
        if entry.get("name"):
            lines, _ = _name_lines(entry["name"])
            box = (cx - NAME_BOX, cy - 24, cx + NAME_BOX, cy + 14)
            step = 19
            top = cy - 5 - step * (len(lines) - 1) / 2
            for i, line in enumerate(lines):
                stamp_text(image, (cx, top + i * step), line, MIN_TEXT, INK, "mm", box=box)
                half = text_width(line, MIN_TEXT) / 2 + 3
                row_y = top + i * step
                labels.setdefault(entry["hex"], []).append(_rect(cx - half, row_y - 10, cx + half, row_y + 10))
        if terrain == "remote":
            # Below a two-line name: the badge starts where the second line's ink ends.
            badge = (cx - 13, cy + 14, cx + 13, cy + 40)
            draw.ellipse(badge, fill=PALETTE["remote_badge"], outline=INK)
            stamp_text(image, (cx, cy + 27), str(entry["value"]), MIN_TEXT, WHITE, "mm", box=badge)
        if terrain != "sea":
            box = (cx - SIZE / 2, cy - SIZE * 0.86, cx + SIZE / 2, cy - 22)
            stamp_text(image, (cx, cy - 34), entry["hex"], MIN_TYPED, INK, "mm", box=box, typed=True)
            half = text_width(entry["hex"], MIN_TYPED) / 2 + 3
            labels.setdefault(entry["hex"], []).append(_rect(cx - half, cy - 45, cx + half, cy - 22))
    for a, b in gmap["barriers"]:
        _draw_barrier(draw, a, b)
    return image, labels, abbreviated


def _rect(x0: float, y0: float, x1: float, y1: float) -> tuple[int, int, int, int]:
    return int(x0), int(y0), int(math.ceil(x1)), int(math.ceil(y1))


def _terrain_pattern(draw: ImageDraw.ImageDraw, terrain: str, cx: float, cy: float) -> None:
    """A pattern per terrain, so terrain never depends on colour alone."""
    if terrain == "river":
        for dy in (2, 14):
            pts = [(cx - 22 + i * 6, cy + dy + (3 if i % 2 else -3)) for i in range(8)]
            draw.line(pts, fill=PALETTE["river_waves"], width=2)
    elif terrain == "mountain":
        draw.polygon(
            [(cx - 18, cy + 22), (cx - 4, cy - 2), (cx + 10, cy + 22)], outline=PALETTE["mountain_outline"], width=2
        )
        draw.polygon(
            [(cx + 2, cy + 22), (cx + 12, cy + 6), (cx + 22, cy + 22)], outline=PALETTE["mountain_outline"], width=2
        )
    elif terrain == "sea":
        for dy in (-14, 6):
            draw.arc((cx - 16, cy + dy - 6, cx, cy + dy + 6), 200, 340, fill=PALETTE["sea_wave"], width=2)
            draw.arc((cx, cy + dy - 6, cx + 16, cy + dy + 6), 200, 340, fill=PALETTE["sea_wave"], width=2)


def _draw_barrier(draw: ImageDraw.ImageDraw, a: str, b: str) -> None:
    ax, ay = _centre(*_parse(a))
    bx, by = _centre(*_parse(b))
    corners_a = _corners(ax, ay)
    # The shared edge is made of the two corners of ``a`` nearest to ``b``'s centre.
    near = sorted(corners_a, key=lambda p: (p[0] - bx) ** 2 + (p[1] - by) ** 2)[:2]
    draw.line(near, fill=PALETTE["barrier"], width=7)


def _legend(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    top: int,
    width: int,
    players: list[tuple[int, str]],
    abbreviated: list[tuple[str, str]],
) -> None:
    """Every symbol on the board, explained, under the map."""
    y: float = top + 6
    x: float = MARGIN

    def item(label: str, w: float) -> tuple[float, Box]:
        nonlocal x, y
        if x + w > width - MARGIN:
            x, y = MARGIN, y + LEGEND_ROW
        left = x
        x += w
        return left, (left + 30, y, left + w - 6, y + LEGEND_ROW)

    def label_at(box: Box, text: str) -> None:
        stamp_text(image, (box[0], (box[1] + box[3]) / 2), text, MIN_TEXT, INK, "lm", box=box)

    for terrain, label in LEGEND_TERRAIN:
        left, box = item(label, 36 + text_width(label, MIN_TEXT) + 14)
        cy = y + LEGEND_ROW / 2
        draw.polygon(_corners(left + 13, cy, 12), fill=TERRAIN_FILL[terrain], outline=INK)
        label_at(box, label)
    x, y = MARGIN, y + LEGEND_ROW
    for seat, name in players:
        label = f"{name}'s rails"
        left, box = item(label, 36 + text_width(label, MIN_TEXT) + 14)
        draw_player_marker(image, seat, (left + 13, y + LEGEND_ROW / 2), 9)
        label_at(box, label)
    label = "line: a player's connected rails"
    left, box = item(label, 36 + text_width(label, MIN_TEXT) + 14)
    draw.line((left + 2, y + LEGEND_ROW / 2, left + 26, y + LEGEND_ROW / 2), fill=INK, width=4)
    label_at(box, label)
    x, y = MARGIN, y + LEGEND_ROW
    entries: list[tuple[str, str]] = [
        ("start", "coloured hex outline: that player's free starting rail"),
        ("slot", "empty station slot"),
        ("station", "station built"),
        ("barrier", "red edge: no rail across"),
        ("badge", "remote location's number"),
    ]
    for kind, label in entries:
        left, box = item(label, 36 + text_width(label, MIN_TEXT) + 14)
        cy = y + LEGEND_ROW / 2
        if kind == "start":
            draw.polygon(_corners(left + 13, cy, 12), outline=INK, width=3)
        elif kind == "slot":
            draw.rectangle((left + 6, cy - 7, left + 20, cy + 7), fill=WHITE, outline=INK, width=2)
        elif kind == "station":
            _station(draw, left + 13, cy)
        elif kind == "barrier":
            draw.line((left + 4, cy + 8, left + 22, cy - 8), fill=PALETTE["barrier"], width=7)
        else:
            draw.ellipse((left + 2, cy - 11, left + 24, cy + 11), fill=PALETTE["remote_badge"], outline=INK)
        label_at(box, label)
    if abbreviated:
        x, y = MARGIN, y + LEGEND_ROW
        for short, full in abbreviated:
            label = f"{short} = {full}"
            _, box = item(label, text_width(label, MIN_TEXT) + 20)
            stamp_text(
                image,
                (box[0] - 30, y + LEGEND_ROW / 2),
                label,
                MIN_TEXT,
                INK,
                "lm",
                box=(box[0] - 30, box[1], box[2], box[3]),
            )


def _station(draw: ImageDraw.ImageDraw, x: float, y: float, ink: Ink = INK) -> None:
    """A station: a little building (roof and body) in ink, so it differs from a free slot by shape."""
    draw.rectangle((x - 7, y - 3, x + 7, y + 7), fill=ink)
    draw.polygon([(x - 9, y - 2), (x, y - 9), (x + 9, y - 2)], fill=ink)


# --- Changing parts ----------------------------------------------------------------------------


def _rail_spots(terrain: str, count: int, cx: float, cy: float) -> list[Point]:
    """Where the rail markers of ``count`` players go in a hex: inside it, clear of its text."""
    if terrain == "remote":
        # Beside the value badge; a third and fourth player at the hex's sides.
        return [(cx - 25, cy + 26), (cx + 25, cy + 26), (cx - 38, cy + 8), (cx + 38, cy + 8)][:count]
    if terrain == "city":
        # A row between the name and the station slots.
        spacing = 20.0 if count <= 3 else 16.0
        start = cx - spacing * (count - 1) / 2
        return [(start + i * spacing, cy + 24) for i in range(count)]
    if count == 1:
        return [(cx, cy + 8)]
    grid = [(cx - 12, cy - 2), (cx + 12, cy - 2), (cx - 12, cy + 22), (cx + 12, cy + 22)]
    return grid[:count]


def _rail_positions(view: dict[str, Any]) -> dict[tuple[str, int], Point]:
    terrain = {e["hex"]: e["terrain"] for e in view["map"]["hexes"]}
    positions: dict[tuple[str, int], Point] = {}
    for h, seats in view["rails"].items():
        cx, cy = _centre(*_parse(h))
        for seat, spot in zip(
            seats[:4], _rail_spots(terrain.get(h, "plain"), min(4, len(seats)), cx, cy), strict=False
        ):
            positions[(h, seat)] = spot
    return positions


def _neighbours(h: str) -> list[str]:
    col, row = _parse(h)
    odd = col % 2
    deltas = [(0, -1), (0, 1), (-1, -1 + odd), (-1, odd), (1, -1 + odd), (1, odd)]
    return [f"{chr(ord('A') + col + dc)}{row + dr + 1}" for dc, dr in deltas if col + dc >= 0 and row + dr >= 0]


def _station_slots(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    """Each city's station slots, built or free, drawn with palette indices (``INKS``)."""
    for entry in view["map"]["hexes"]:
        if entry["terrain"] != "city":
            continue
        cx, cy = _centre(*_parse(entry["hex"]))
        count, built = entry.get("slots", 0), view["stations"].get(entry["hex"], 0)
        x0 = cx - (count - 1) * 10
        for i in range(count):
            x, y = x0 + i * 20, cy + 40
            if i < built:
                _station(draw, x, y - 2, INKS[INK])
            else:
                draw.rectangle((x - 6, y - 8, x + 6, y + 4), fill=INKS[WHITE], outline=INKS[INK], width=2)


def _tracks(draw: ImageDraw.ImageDraw, view: dict[str, Any], positions: dict[tuple[str, int], Point]) -> None:
    """A line between each pair of adjacent hexes holding one player's rails, in that player's colour
    (palette indices, ``INKS``)."""
    blocked = {frozenset(pair) for pair in view["map"]["barriers"]}
    for (h, seat), (x, y) in positions.items():
        for other in _neighbours(h):
            if other > h and (other, seat) in positions and frozenset((h, other)) not in blocked:
                ox, oy = positions[(other, seat)]
                draw.line((x, y, ox, oy), fill=INKS[INK], width=7)
                draw.line((x, y, ox, oy), fill=INKS[player_colour(seat)], width=4)


def render_board(view: dict[str, Any], focus: int | None = None) -> bytes:
    """The board as a palette PNG. The map side is drawn straight into a copy of the table's
    palette image (its rails, stations and markers are flat colours, all in ``EXACT``); only the
    panel, whose text is anti-aliased on several fills, is drawn in RGB and mapped onto the palette:
    a quarter of the pixels to map instead of all of them."""
    gmap = view["map"]
    players = [(p["seat"], p["name"]) for p in view["players"]]
    key = (json.dumps(gmap, sort_keys=True), json.dumps(players))
    base, base_h, labels = _base_layer(*key)
    map_w, _ = _map_size(gmap["columns"], gmap["rows"])
    panel = _panel_layout(view, focus)
    height = max(base_h, panel.height)
    if height == base_h:
        image = base.copy()
    else:
        image = Image.new("P", (base.width, height), INKS[BACKGROUND])
        image.putpalette(base.getpalette() or [])
        image.paste(base, (0, 0))
    draw = ImageDraw.Draw(image)
    _station_slots(draw, view)
    for p in view["players"]:
        if p.get("start"):
            cx, cy = _centre(*_parse(p["start"]))
            polygon(image, _corners(cx, cy, SIZE - 1), outline=INKS[INK], width=6)
            polygon(image, _corners(cx, cy, SIZE - 2), outline=INKS[player_colour(p["seat"])], width=4)
    positions = _rail_positions(view)
    _tracks(draw, view, positions)
    for h in {h for h, _ in positions}:
        for rect in labels.get(h, []):
            image.paste(base.crop(rect), rect[:2])
    for (_, seat), (x, y) in positions.items():
        draw_player_marker(image, seat, (x, y), 8, inks=INKS)
    strip = Image.new("RGB", (PANEL, panel.height), BACKGROUND)  # below it the copy is background already
    panel.draw(strip, 0)
    image.paste(strip.quantize(palette=_palette(key[0]), dither=Image.Dither.NONE), (map_w, 0))
    return png_bytes(image)


@lru_cache(maxsize=4)
def _palette(map_json: str) -> Image.Image:
    """The PNG palette for a map: the colours drawn straight into the palette image come first,
    exactly (``EXACT``), then entries for its fixed layer with a legend and every colour the panel
    uses. Players' names are ink on the background and their markers are swatches, so one palette
    serves every table."""
    gmap = json.loads(map_json)
    map_w, map_h = _map_size(gmap["columns"], gmap["rows"])
    sheet = _map_layer(map_json)[0].copy()
    _legend(sheet, ImageDraw.Draw(sheet), map_h, map_w, [], _map_layer(map_json)[2])
    colours = [*PLAYER_COLOURS, HIGHLIGHT, tint(HIGHLIGHT, 0.75), *CARD_FAMILY.values(), *PALETTE.values()]
    return palette_from(sheet, [*colours, GRID, MUTED, INK], exact=EXACT)


# --- The panel beside the map ------------------------------------------------------------------

CARD_W, CARD_H = 200, 104
PLAYER_H = 80


class _Panel:
    """The panel's content measured first (its height sets the image's), then drawn."""

    def __init__(self, view: dict[str, Any], focus: int | None) -> None:
        self.view = view
        self.focus = focus if focus is not None and 0 <= focus < len(view["players"]) else None
        hand = list(view.get("hand") or []) if self.focus is not None else []
        # One card per kind, with how many: five cards of two kinds take one row, not three.
        self.hand: list[tuple[str, int]] = [(slug, hand.count(slug)) for slug in dict.fromkeys(hand)]
        self.hand_size = len(hand)
        hand_rows = math.ceil(len(self.hand) / 2) if self.focus is not None else 0
        private = (40 + hand_rows * (CARD_H + 8) + 3 * 26) if self.focus is not None else 0
        self.height = 14 + 40 + 48 + private + len(view["players"]) * PLAYER_H + 36 + 24 * len(view["supply"]) + 14

    def draw(self, image: Image.Image, x0: int) -> None:
        view = self.view
        draw = ImageDraw.Draw(image)
        x, right = x0 + 8, x0 + PANEL - 12
        y: float = 14
        title = f"Trains - {view['map']['name']}"
        if self.focus is not None:
            title += f" - {view['players'][self.focus]['name']}'s hand"
        draw_text(image, (x, y, right, y + 36), title, 26, INK, align="l", max_lines=1)
        y += 40
        draw_text(image, (x, y, right, y + 44), _status(view), 18, INK, align="l", max_lines=2)
        y += 48
        if self.focus is not None:
            y = self._hand(image, draw, x, right, y)
        for p in view["players"]:
            y = self._player(image, draw, p, x, right, y)
        y += 6
        stations = f"Supply - stations left: {view['stations_left']}"
        draw_text(image, (x, y, right, y + 28), stations, 20, INK, align="l", max_lines=1)
        y += 32
        for pile in view["supply"]:
            empty = pile["empty"]
            colour = MUTED if empty else INK
            draw_text(image, (x, y, x + 270, y + 24), pile["name"], 18, colour, align="l", max_lines=1)
            if pile["card"] != "waste":
                draw_text(image, (x + 275, y, x + 325, y + 24), f"${pile['cost']}", 18, colour, align="r", max_lines=1)
            count = "EMPTY" if empty else str(pile["count"])
            draw_text(
                image,
                (x + 330, y, right, y + 24),
                count,
                18,
                PALETTE["empty_pile"] if empty else colour,
                align="r",
                max_lines=1,
            )
            if empty:
                draw.line((x, y + 12, x + 260, y + 12), fill=PALETTE["empty_pile"], width=2)
            y += 24

    def _player(
        self, image: Image.Image, draw: ImageDraw.ImageDraw, p: dict[str, Any], x: float, right: float, y: float
    ) -> float:
        view = self.view
        seat = p["seat"]
        current = view["phase"] != "over" and view["current"] == seat and not p["resigned"]
        if current:
            # A tinted block and a bar at its left edge: the active player, with no line over the text.
            draw.rectangle((x - 6, y - 2, right + 4, y + PLAYER_H - 6), fill=tint(HIGHLIGHT, 0.75))
            draw.rectangle((x - 6, y - 2, x - 1, y + PLAYER_H - 6), fill=HIGHLIGHT)
        draw_player_marker(image, seat, (x + 14, y + 13), 13, (p["name"][:1] or "?").upper())
        tag = " (kicked)" if p.get("kicked") else " (resigned)" if p["resigned"] else " - to play" if current else ""
        draw_text(image, (x + 34, y, right - 70, y + 26), p["name"] + tag, 20, INK, align="l", max_lines=1)
        draw_text(image, (right - 70, y, right, y + 26), f"{p['score']} VP", 20, INK, align="r", max_lines=1)
        waste = p.get("waste")
        cards = f"hand {p['hand_size']} · deck {p['deck_size']} · discard {p['discard_size']}"
        if waste is not None:
            cards += f" · Waste {waste}"
        draw_text(image, (x + 34, y + 26, right, y + 48), cards, 16, INK, align="l", max_lines=1)
        rails = f"rails {p['rails_on_board']} laid, {p['rails_left']} left"
        if current:
            turn = view.get("turn") or {}
            rails += f" · ${turn.get('money', 0)} · {turn.get('buys', 0)} bought"
        draw_text(image, (x + 34, y + 48, right, y + 70), rails, 16, INK, align="l", max_lines=1)
        return y + PLAYER_H

    def _hand(self, image: Image.Image, draw: ImageDraw.ImageDraw, x: float, right: float, y: float) -> float:
        view, seat = self.view, self.focus
        assert seat is not None
        me = view["players"][seat]
        draw_text(image, (x, y, right, y + 32), f"Your hand ({self.hand_size} cards)", 22, INK, align="l", max_lines=1)
        y += 40
        for i, (slug, count) in enumerate(self.hand):
            cx = x + (i % 2) * (CARD_W + 12)
            cy = y + (i // 2) * (CARD_H + 8)
            _card(image, draw, slug, count, (cx, cy, cx + CARD_W, cy + CARD_H))
        y += math.ceil(len(self.hand) / 2) * (CARD_H + 8)
        hand_money = sum(CARDS[c].money * n for c, n in self.hand if c in CARDS)
        turn = view.get("turn") or {}
        mine = view["phase"] == "play" and view["current"] == seat
        so_far = int(turn.get("money", 0)) if mine else 0
        lines = [
            f"Money if you play every train: ${so_far + hand_money}"
            + (f" (${so_far} this turn so far)" if mine else ""),
            f"Deck {me['deck_size']} cards · discard {me['discard_size']} cards",
            f"Rails left {me['rails_left']} · stations left {view['stations_left']}",
        ]
        for line in lines:
            draw_text(image, (x, y, right, y + 24), line, 18, INK, align="l", max_lines=1)
            y += 26
        return y


def _panel_layout(view: dict[str, Any], focus: int | None) -> _Panel:
    return _Panel(view, focus)


CARD_FAMILY = {
    "train": (255, 236, 190),
    "rail": (215, 232, 250),
    "station": (225, 225, 225),
    "victory": (214, 238, 214),
    "action": (240, 220, 240),
    "waste": (235, 225, 215),
}


def _card(image: Image.Image, draw: ImageDraw.ImageDraw, slug: str, count: int, box: Box) -> None:
    """One kind of card in the hand: how many, name, cost, and its effect in a few words."""
    card = CARDS.get(slug)
    x0, y0, x1, y1 = box
    fill = CARD_FAMILY.get(card.type if card else "", WHITE)
    draw.rounded_rectangle(box, radius=8, fill=fill, outline=INK, width=2)
    name = (card.name if card else slug) if count == 1 else f"{count}x {card.name if card else slug}"
    cost = f"${card.cost}" if card and card.type != "waste" else ""
    draw_text(image, (x0 + 8, y0 + 4, x1 - 44, y0 + 28), name, 18, INK, align="l", max_lines=1)
    if cost:
        draw_text(image, (x1 - 44, y0 + 4, x1 - 8, y0 + 28), cost, 18, INK, align="r", max_lines=1)
    effect = card.text if card else ""
    effect = effect.replace("Only in starting decks, not a supply pile.", "").strip()
    draw_text(image, (x0 + 8, y0 + 30, x1 - 8, y1 - 4), effect, 16, INK, align="l", max_lines=3)


def _status(view: dict[str, Any]) -> str:
    return str(view.get("status") or "")


__all__ = ["TERRAIN_FILL", "render_board", "player_shape", "shape_points"]
