"""My Trolley Town board images, drawn from the engine's view dict (the contract is in issue 10).

``render_board(view)`` draws a header (round, phase, summary, every player's VP, the start player
and whose turn it is), every town (side by side while they fit, two by two once they grow, each
scaled down when it sprawls) and the building market with a legend. ``render_board(view, seat)``
draws that seat's town large, with the empty cells it may build on labelled and every building's
full effect text listed, the other towns as small overviews, and the market.

Text follows the theme's rules (issue 13): never below ``theme.MIN_TEXT`` px, the coordinates and
building names players type at least ``theme.MIN_TYPED`` px, each inside its box. The image is
840 px wide so a phone shows it at about half size; market cards sit three a row so their names
(22 px) and effects (19 px) stay readable there. A building too small to name in its cell gets its
abbreviation (spelled out in the key), and a resource piece too small for a readable letter shows
its shape alone.

Colour is never the only cue: every player has a shape (circle, square, triangle, diamond) beside
their name, each resource piece its own shape and letter, each effect timing its own letter badge
(all explained in the legend), routes are drawn as track, and a building has a track stub only on
the sides where a route connects to it, so the transport network reads at a glance (a route end that
meets a tile without connecting gets a buffer stop). Cells and market cards are drawn once per
distinct content and size and then pasted; text is stamped from cached glyph masks; every board
is mapped onto one fixed palette made from the board's own drawings (``_board_palette``); and the
market, which changes only when a tile is built, is put together from pieces kept mapped onto it,
then kept deflated (``_market_band``) for the PNG to end with.
"""

from __future__ import annotations

import contextvars
import json
import math
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from games.trolley_town import MANIFEST
from rendering import theme
from rendering.theme import (
    BACKGROUND,
    GRID,
    HIGHLIGHT,
    INK,
    MUTED,
    WHITE,
    player_colour,
    shade,
    stamp_text,
    text_colour_on,
    text_width,
    tint,
)

Colour = tuple[int, int, int]
Box = tuple[float, float, float, float]
Pos = tuple[int, int]
Tag = tuple[str, Colour, Colour]

# The game's colours by name. The manifest (games.trolley_town.MANIFEST.palette) owns them once it
# exists; until then, and for any key it lacks, these are used.
# The game's colours live in its manifest (one package declares its own look).
PALETTE: dict[str, Colour] = {key: (int(c[0]), int(c[1]), int(c[2])) for key, c in MANIFEST.palette.items()}

RESOURCES = ("wood", "stone", "wheat", "coal", "sheep")
# A fixed letter and shape per resource: colour is never the only cue.
RESOURCE_LETTERS = {"wood": "W", "stone": "S", "wheat": "G", "coal": "C", "sheep": "L"}
RESOURCE_SHAPES = {"wood": "circle", "stone": "square", "wheat": "triangle", "coal": "diamond", "sheep": "cloud"}
RESOURCE_LEGEND = {"wood": "wood", "stone": "stone", "wheat": "wheat (grain)", "coal": "coal", "sheep": "sheep (lamb)"}

# timing -> (badge letter, legend label, badge colour)
TIMINGS: dict[str, tuple[str, str, Colour]] = {
    "immediate": ("!", "immediate", (230, 159, 0)),
    "production": ("P", "production", (0, 158, 115)),
    "construction": ("B", "on building", (0, 114, 178)),
    "transport": ("T", "transport start", (120, 84, 60)),
    "processing": (">", "processing", (213, 94, 0)),
    "end": ("E", "game end", (204, 121, 167)),
}
# Effect-text prefixes the engine may write, and the timing each names.
_PREFIXES = {
    "immediate": "immediate",
    "immediately": "immediate",
    "when built": "immediate",
    "production": "production",
    "on production": "production",
    "construction": "construction",
    "on construction": "construction",
    "on building": "construction",
    "transport": "transport",
    "transport start": "transport",
    "on transport start": "transport",
    "processing": "processing",
    "on processing": "processing",
    "end": "end",
    "game end": "end",
    "at game end": "end",
}
_PREFIX = re.compile(r"^(?P<when>[A-Za-z ]+?)\s*(?:\((?P<which>[^)]*)\))?\s*:\s*(?P<rest>.*)$")
PHASES = {
    "production": "Production",
    "construction": "Construction",
    "transport": "Transport",
    "processing": "Processing",
    "finished": "Game over",
}
STEPS = {"transport": "TRANSPORTING", "done": "DONE", "processed": "PROCESSED", "finished": "FINISHED"}
SIDES = ("N", "E", "S", "W")
STEP: dict[str, Pos] = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
BLOCKED = (190, 40, 30)  # buffer stops
# Tag chip fills: passed or a step done, a place below first, expert, resigned or kicked.
PALE_TAG, PLACE_TAG, EXPERT_TAG, GONE_TAG = (215, 215, 215), (225, 225, 225), (60, 60, 60), (90, 90, 90)
TAG_GREYS = (PALE_TAG, PLACE_TAG, EXPERT_TAG, GONE_TAG)

WIDTH = 840  # every image; a phone shows it ~400 px wide, about half size, so 20 px text reads as 10
MARGIN = 12
GAP = 10
PAD = 8
PANEL_FILL = (255, 254, 251)
EMPTY_CELL = (244, 241, 233)
MAX_CELL = 104  # overview towns
FOCUS_MAX_CELL = 150  # the focused town
SMALL_MAX_CELL = {1: 80, 2: 60}  # the other towns below a focused one, by how many share the row (else 46)
SIDE_BY_SIDE_CELL = 60  # towns stay in one row while every cell keeps this size
MAX_GRID_HEIGHT = 470  # overview: a tall town is scaled down rather than stretching the image
ONE_ROW_GRID_HEIGHT = 640  # the same when all towns share one row
FOCUS_GRID_HEIGHT = 820
SMALL_GRID_HEIGHT = 260


# --------------------------------------------------------------------------------------------
# Colours


def colours() -> dict[str, Colour]:
    """The manifest's palette (kept as a function: tests and callers read it through here)."""
    return PALETTE


def _colour(key: str) -> Colour:
    return PALETTE.get(key) or (200, 200, 200)


def _pile_fill(pile: str) -> Colour:
    return _colour(f"pile-{pile}") if f"pile-{pile}" in PALETTE else _colour("pile-basic")


# --------------------------------------------------------------------------------------------
# Entry points


def render_board(view: dict[str, Any], focus: int | None = None) -> bytes:
    """PNG bytes: every town (``focus`` None) or seat ``focus``'s town large, plus the market.

    Every board is mapped onto one fixed palette (``_board_palette``). The market and the margin
    under it, half to three quarters of the image, are mapped and deflated once per market
    (``_market_band``): only the towns above it are mapped and deflated for each board.
    """
    top, market_key = _above_market(view, focus)
    band = _market_band(market_key, WIDTH - 2 * MARGIN)
    towns = top.quantize(palette=_board_palette(), dither=Image.Dither.NONE)
    return theme.png_with_tail(WIDTH, top.height + band.height, theme.framed_rows(towns), band.rows, _board_colours())


class _Band:
    """The market and the margins around it as deflated scanlines over the board palette."""

    def __init__(self, rows: theme.DeflatedRows, height: int) -> None:
        self.rows, self.height = rows, height


@lru_cache(maxsize=64)  # ~60 KB each: many tables' markets stay encoded
def _market_band(market_key: str, inner: int) -> _Band:
    """The band under the towns: the market, its side margins and the bottom margin.

    Put together from pieces already mapped onto the board palette (``_mapped``), not drawn and
    mapped whole: a new market is mostly cards an earlier one showed."""
    height, pieces = _market_layout(market_key, inner)
    panel, grid, background = (_BOARD_EXACT.index(colour) for colour in (PANEL_FILL, GRID, BACKGROUND))
    band = Image.new("P", (WIDTH + 1, height + MARGIN), background)
    box = (1 + MARGIN, 0, MARGIN + inner, height - 1)
    ImageDraw.Draw(band).rounded_rectangle(box, radius=8, fill=panel, outline=grid)
    for piece, (x, y) in pieces:
        band.paste(_mapped(piece), (1 + MARGIN + x, y))
    band.paste(0, (0, 0, 1, band.height))  # each scanline's filter byte
    return _Band(theme.deflate_rows(band.tobytes()), band.height)


@lru_cache(maxsize=256)  # a card is ~56 KB (a byte a pixel): a dozen markets' pieces
def _mapped(piece: Piece) -> Image.Image:
    """A market piece over the board palette."""
    return _market_piece(piece).quantize(palette=_board_palette(), dither=Image.Dither.NONE)


# The board's flat colours, each at its own palette entry: the market's panel, its border and the
# margins are drawn straight into the palette image (_market_band) by these entries.
_BOARD_EXACT: tuple[Colour, ...] = (PANEL_FILL, GRID, INK, MUTED, WHITE, BACKGROUND)


@lru_cache(maxsize=1)
def _board_palette() -> Image.Image:
    """The palette every board is mapped onto (256 entries), made once (about 0.2 s, in the render
    worker's warm-up) from a sheet of the board's own drawings (``_sample_sheet``) and swatches of
    its colours under each ink (``theme.palette_from``).

    Fixed, so mapping a board onto it is fast: Pillow keeps a palette's colour lookups from one
    image to the next, while a palette made for each board starts them afresh (twice the time).
    Drawn in a context of its own and past the drawing caches (``__wrapped__``): these samples are
    part of no board, so a test recording a board's texts neither sees them nor misses a text of
    its own that a sample left cached."""
    return contextvars.Context().run(_palette_of_samples)


def _palette_of_samples() -> Image.Image:
    colours = [
        *PALETTE.values(),
        *(colour for _, _, colour in TIMINGS.values()),
        *theme.PLAYER_COLOURS,
        *(shade(colour, 0.2) for colour in theme.PLAYER_COLOURS),  # VP in the header chips
        HIGHLIGHT,
        EMPTY_CELL,
        BLOCKED,
        *TAG_GREYS,
        tint(_colour("accent"), 0.7),
        tint(_colour("accent"), 0.72),
    ]
    # The exact colours first, then what the octree finds.
    return theme.palette_from(_sample_sheet(), colours, colors=256 - len(_BOARD_EXACT), exact=_BOARD_EXACT)


def _board_colours() -> bytes:
    """The board palette's 256 RGB entries, for the PNG."""
    return bytes(_board_palette().getpalette("RGB") or [])[: 3 * 256].ljust(3 * 256, b"\0")


def _sample_sheet() -> Image.Image:
    """What boards are made of, drawn once each: a market card of each pile's tiles (with a star and
    without), basic piles face up and down, an empty slot, the round marker, a heading and the
    legend; every tile as a town cell at the overview's largest size and at the small and tiny
    sizes, with resources on it and tracks joining it; routes of each shape; a free cell; and the
    header of a fresh table of the most players, mid-game and finished."""
    from games.trolley_town.content import TILES  # the drawing needs only the view; the palette, all tiles
    from games.trolley_town.view import tile_card
    from rendering.warmup import sample_views

    drawings: list[Image.Image] = []
    kinds = {(tile.pile, tile.star): slug for slug, tile in reversed(TILES.items())}
    for slug in kinds.values():
        key = json.dumps(tile_card(slug), sort_keys=True)
        card = _tile_body.__wrapped__(key, 244, 230)
        card.paste(_tile_label.__wrapped__(key, 244, 230, "A slot 1"), (0, 0))
        drawings.append(card)
    basic = {"name": "Sample", "cost": {"wood": 1, "stone": 1}, "text": "immediate: sample", "left": 3}
    for up in (True, False):
        drawings.append(_basic_card.__wrapped__(json.dumps({**basic, "up": up}, sort_keys=True), 190, BASIC_H))
    drawings.append(_empty_card.__wrapped__(244, 230, "V pile 1 · 0 left"))
    drawings.append(_round_marker.__wrapped__(8, 200))
    drawings += [_heading.__wrapped__("Basic buildings", "top tile face up", 796), _legend.__wrapped__(796)]
    for index, slug in enumerate(TILES):
        held = {RESOURCES[index % 5]: 1 + index % 3, RESOURCES[(index + 2) % 5]: 1}
        content = {"kind": "building", **(tile_card(slug) or {}), "res": held}
        key = json.dumps([content.get(name) for name in _CELL_KEYS])
        sides = "".join("L" if index >> bit & 1 else "-" for bit in range(4))
        for cell in (MAX_CELL, 46, 26):
            drawings.append(_cell_image.__wrapped__(key, sides, cell, _detail(cell)))
    for opens in (["N", "S"], ["N", "E"], ["N", "E", "S"], ["N", "E", "S", "W"]):
        key = json.dumps([{"kind": "route", "open": opens}.get(name) for name in _CELL_KEYS])
        for sides in ("L-X-", "XL-L"):
            drawings.append(_cell_image.__wrapped__(key, sides, MAX_CELL, "full"))
    drawings.append(_free_cell.__wrapped__((0, 0), MAX_CELL))
    table = max((view for view, focus in sample_views(MANIFEST.slug) if focus is None), key=lambda v: len(v["towns"]))
    inner = WIDTH - 2 * MARGIN
    for moment in ({"round": 2}, {"finished": True}):
        view = {**table, **moment}
        header = Image.new("RGB", (inner, _header_height(view, inner)), BACKGROUND)
        _draw_header(header, ImageDraw.Draw(header), view, 0, 0, inner, header.height)
        drawings.append(header)
    return theme.sheet(drawings, WIDTH, PANEL_FILL)


def clear_caches() -> None:
    """Empty every drawing cache (tests record the text of a whole image; the bench's cold case)."""
    for cached in (
        _cell_image,
        _free_cell,
        _label,
        _name_lines,
        _piece_sprite,
        _letter_mask,
        _building_list_image,
        _market_image,
        _market_layout,
        _market_band,
        _mapped,
        _heading,
        _round_marker,
        _empty_card,
        _tile_label,
        _tile_body,
        _tile_height,
        _basic_card,
        _legend,
    ):
        cached.cache_clear()


def board_image(view: dict[str, Any], focus: int | None = None) -> Image.Image:
    """The RGB image behind ``render_board`` (before palette encoding)."""
    top, market_key = _above_market(view, focus)
    market = _market_image(market_key, WIDTH - 2 * MARGIN)
    image = Image.new("RGB", (WIDTH, top.height + market.height + MARGIN), BACKGROUND)
    image.paste(top, (0, 0))
    image.paste(market, (MARGIN, top.height))
    return image


def _above_market(view: dict[str, Any], focus: int | None) -> tuple[Image.Image, str]:
    """Everything above the market (header, towns, building list, abbreviation key) and the
    market's cache key: the market is the same for every view until a tile is built."""
    towns = list(view.get("towns") or [])
    if focus is not None and (isinstance(focus, bool) or not isinstance(focus, int) or not 0 <= focus < len(towns)):
        raise ValueError(f"focus must be a seat between 0 and {len(towns) - 1}, got {focus!r}")
    inner = WIDTH - 2 * MARGIN
    rows: list[list[_TownPlan]] = []
    focus_list: Image.Image | None = None
    if focus is None:
        rows = _overview_rows(towns, inner)
    else:
        rows = [[_plan(towns, focus, inner, FOCUS_MAX_CELL, FOCUS_GRID_HEIGHT, margin=1, focus=True)]]
        others = [seat for seat in range(len(towns)) if seat != focus]
        if others:
            panel = (inner - GAP * (len(others) - 1)) // len(others)
            small = SMALL_MAX_CELL.get(len(others), 46)
            rows.append([_plan(towns, seat, panel, small, SMALL_GRID_HEIGHT) for seat in others])
        focus_list = _building_list(towns[focus], inner)
    key_entries = _abbreviation_key(towns, rows, skip=focus)
    key_h = _key_height(key_entries, inner)
    market_key = _market_key(view)
    market_h = _market_band(market_key, inner).height - MARGIN
    header_h = _header_height(view, inner)
    row_heights = [max(_panel_height(view, plan) for plan in row) for row in rows]
    sections = [header_h, *row_heights, market_h]
    if focus_list is not None:
        sections.append(focus_list.height)
    if key_h:
        sections.append(key_h)
    height = 2 * MARGIN + sum(sections) + GAP * (len(sections) - 1)

    image = Image.new("RGB", (WIDTH, height - market_h - MARGIN), BACKGROUND)
    draw = ImageDraw.Draw(image)
    y = MARGIN
    _draw_header(image, draw, view, MARGIN, y, inner, header_h)
    y += header_h + GAP
    for index, (row, row_h) in enumerate(zip(rows, row_heights, strict=True)):
        x = MARGIN
        for plan in row:
            _draw_town(image, draw, view, plan, x, y, row_h)
            x += plan.width + GAP
        y += row_h + GAP
        if index == 0 and focus_list is not None:
            image.paste(focus_list, (MARGIN, y))
            y += focus_list.height + GAP
    if key_h:
        _draw_key(image, key_entries, MARGIN, y, inner)
        y += key_h + GAP
    return image, market_key


# --------------------------------------------------------------------------------------------
# Layout of the towns


class _TownPlan:
    """One town panel: its seat, width, cell size, and the ring of free cells shown around it."""

    def __init__(self, seat: int, width: int, cell: int, margin: int, focus: bool, header_lines: int) -> None:
        self.seat, self.width, self.cell, self.margin, self.focus = seat, width, cell, margin, focus
        self.header_lines = header_lines


def _bounds(town: Mapping[str, Any], margin: int) -> tuple[int, int, int, int]:
    cells = [c for c in town.get("cells") or [] if isinstance(c, Mapping)]
    if not cells:
        return -margin, -margin, 1 + margin, margin
    xs = [int(c.get("x") or 0) for c in cells]
    ys = [int(c.get("y") or 0) for c in cells]
    return min(xs) - margin, min(ys) - margin, max(xs) + margin, max(ys) + margin


def _label_size(cell: int) -> int:
    """Axis labels are the coordinates players type: always MIN_TYPED."""
    return theme.MIN_TYPED


def _gutters(bounds: tuple[int, int, int, int], cell: int) -> tuple[int, int]:
    """(left, top) room for the axis labels."""
    size = _label_size(cell)
    widest = max(text_width(str(v), size) for v in (bounds[1], bounds[3]))
    return round(widest) + 10, size + 8


def _plan(
    towns: Sequence[Mapping[str, Any]],
    seat: int,
    width: int,
    max_cell: int,
    max_height: int,
    margin: int = 0,
    focus: bool = False,
) -> _TownPlan:
    town = towns[seat]
    bounds = _bounds(town, margin)
    columns, rows = bounds[2] - bounds[0] + 1, bounds[3] - bounds[1] + 1
    gutter_left, _ = _gutters(bounds, 100)  # at the largest label size, so the grid always fits
    room = width - 2 * PAD - gutter_left
    cell = max(6, min(max_cell, room // columns, max_height // rows))
    return _TownPlan(seat, width, cell, margin, focus, 1)


def _overview_rows(towns: Sequence[Mapping[str, Any]], inner: int) -> list[list[_TownPlan]]:
    """All towns in one row while each keeps cells of SIDE_BY_SIDE_CELL px, else in rows of half."""
    count = len(towns)
    if not count:
        return []
    best: list[list[_TownPlan]] = []
    best_score = -1.0
    for columns in sorted({count, math.ceil(count / 2)}, reverse=True):
        panel = (inner - GAP * (columns - 1)) // columns
        tallest = MAX_GRID_HEIGHT if columns < count else ONE_ROW_GRID_HEIGHT
        plans = [_plan(towns, seat, panel, MAX_CELL, tallest) for seat in range(count)]
        smallest = min(plan.cell for plan in plans)
        # One scale for every town, so they compare at a glance; a town that sprawls far more than
        # the others is scaled down alone rather than shrinking them all.
        largest = max(plan.cell for plan in plans)
        common = min(plan.cell for plan in plans if plan.cell >= 0.6 * largest)
        for plan in plans:
            plan.cell = min(plan.cell, common)
        score = smallest + (1000 if columns == count and smallest >= SIDE_BY_SIDE_CELL else 0)
        if score > best_score:
            best_score = score
            best = [plans[start : start + columns] for start in range(0, count, columns)]
    return best


def _panel_height(view: Mapping[str, Any], plan: _TownPlan) -> int:
    town = (view.get("towns") or [])[plan.seat]
    bounds = _bounds(town, plan.margin)
    _, gutter_top = _gutters(bounds, plan.cell)
    rows = bounds[3] - bounds[1] + 1
    plan.header_lines = 1 if _town_tags_fit(view, town, plan) else 2
    pending = len(_pending(town))
    header = 34 if plan.header_lines == 1 else 58
    return PAD + header + gutter_top + rows * plan.cell + (6 + 22 * pending if pending else 0) + PAD


# --------------------------------------------------------------------------------------------
# Header


def _player_name(view: Mapping[str, Any], seat: Any) -> str:
    names = view.get("names") or []
    if isinstance(seat, int) and 0 <= seat < len(names):
        return str(names[seat])
    return "?"


def _seat(town: Mapping[str, Any], index: int) -> int:
    seat = town.get("seat", index)
    return seat if isinstance(seat, int) and not isinstance(seat, bool) else index


def _bold(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: Colour,
    anchor: str = "la",
    *,
    box: Box | None = None,
    typed: bool = False,
) -> None:
    """Pillow's bundled font has no bold face: the text is stamped twice, one pixel apart."""
    stamp_text(image, xy, text, size, fill, anchor, box=box, typed=typed)
    stamp_text(image, (xy[0] + 1, xy[1]), text, size, fill, anchor, box=box, typed=typed)


PLAYER_SHAPES = ("circle", "square", "triangle", "diamond", "star", "cross")


def _player_mark(draw: ImageDraw.ImageDraw, seat: int, cx: float, cy: float, r: float) -> None:
    """The seat's shape in its colour (circle, square, triangle, diamond): colour is never the only cue."""
    colour = player_colour(seat)
    shape = PLAYER_SHAPES[seat % len(PLAYER_SHAPES)]
    edge = shade(colour, 0.5)
    if shape == "circle":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=edge, width=2)
    elif shape == "square":
        draw.rectangle((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=edge, width=2)
    elif shape == "triangle":
        draw.polygon([(cx, cy - r - 1), (cx + r + 1, cy + r), (cx - r - 1, cy + r)], fill=colour, outline=edge)
    elif shape == "diamond":
        r += 2
        draw.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=colour, outline=edge)
    elif shape == "star":
        _star(draw, (cx - r - 1, cy - r - 1, cx + r + 1, cy + r + 1), colour)
    else:
        w = r / 2.4
        draw.rectangle((cx - r, cy - w, cx + r, cy + w), fill=colour, outline=edge)
        draw.rectangle((cx - w, cy - r, cx + w, cy + r), fill=colour, outline=edge)


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _finished(view: Mapping[str, Any]) -> bool:
    return bool(view.get("finished")) or view.get("phase") == "finished"


def _header_layout(view: Mapping[str, Any], width: int) -> tuple[tuple[str, ...], int, int, int]:
    """(summary lines, chip columns, chip rows, top of the chips)."""
    count = max(1, len(view.get("towns") or []))
    columns = count if count <= 2 else 2 if count == 4 else 3
    summary = str(view.get("summary") or "")
    if summary.startswith(f"Round {view.get('round')} · ") and ": " in summary:
        summary = summary.split(": ", 1)[1]  # the round and phase are in the title above
    lines = theme.fit_lines(summary, 20, width - 24, 2) if summary else ()
    return lines, columns, math.ceil(count / columns), 50 + 25 * len(lines)


CHIP_H = 64


def _header_height(view: Mapping[str, Any], width: int) -> int:
    _, _, chip_rows, top = _header_layout(view, width)
    return top + chip_rows * (CHIP_H + 8) + 2


def _draw_header(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: Mapping[str, Any], x: int, y: int, width: int, height: int
) -> None:
    towns = list(view.get("towns") or [])
    finished = _finished(view)
    rounds = max(1, min(9, int(view.get("rounds") or 4)))
    round_no = int(view.get("round") or 1)
    phase = str(view.get("phase") or "")
    lines, columns, _, top = _header_layout(view, width)
    draw.rounded_rectangle((x, y, x + width - 1, y + height - 1), radius=8, fill=PANEL_FILL, outline=GRID)
    title = "Game over: final scores" if finished else f"Round {round_no} of {rounds} · {PHASES.get(phase, phase)}"
    if view.get("solo"):
        title += "  (solo)"
    box = 32
    track_w = rounds * (box + 4)
    title_box = (x + 8, y + 4, x + width - 14 - track_w, y + 46)
    _bold(image, (x + 12, y + 10), theme.fit_lines(title, 28, width - 40 - track_w, 1)[0], 28, INK, box=title_box)
    accent = _colour("accent")
    for r in range(1, rounds + 1):  # the round track: past rounds pale, the current one solid
        bx = x + width - 10 - (rounds - r + 1) * (box + 4)
        current = r == round_no and not finished
        fill = accent if current else (tint(accent, 0.72) if r < round_no or finished else WHITE)
        draw.rounded_rectangle((bx, y + 9, bx + box, y + 9 + box), radius=5, fill=fill, outline=shade(accent, 0.3))
        round_box = (bx, y + 9, bx + box, y + 9 + box)
        stamp_text(image, (bx + box / 2, y + 9 + box / 2), str(r), 19, text_colour_on(fill), "mm", box=round_box)
    for i, line in enumerate(lines):
        stamp_text(image, (x + 12, y + 50 + 25 * i), line, 20, INK, box=(x, y, x + width, y + top))
    ranks = _ranks(towns) if finished and len(towns) > 1 else {}  # solo: the title says it
    chip_w = (width - 12 - 8 * (columns - 1)) // columns
    for index, town in enumerate(towns):
        seat = _seat(town, index)
        row, column = divmod(index, columns)
        cx = x + 6 + column * (chip_w + 8)
        cy = y + top + row * (CHIP_H + 8)
        _player_chip(image, draw, view, town, seat, (cx, cy, cx + chip_w, cy + CHIP_H), ranks.get(seat))


def _ranks(towns: Sequence[Mapping[str, Any]]) -> dict[int, int]:
    """Final places, ties shared (two on 50 VP are both 1st); resigned players get none."""
    scores = sorted((int(t.get("vp") or 0) for t in towns if not t.get("resigned")), reverse=True)
    ranks = {}
    for index, town in enumerate(towns):
        if not town.get("resigned"):
            ranks[_seat(town, index)] = scores.index(int(town.get("vp") or 0)) + 1
    return ranks


def _acting(view: Mapping[str, Any], seat: int) -> tuple[bool, bool]:
    """(whose construction turn it is, still to act in this phase)."""
    if _finished(view):
        return False, False
    turn = view.get("turn") == seat and view.get("phase") == "construction"
    return turn, turn or seat in (view.get("to_act") or [])


def _player_chip(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: Mapping[str, Any],
    town: Mapping[str, Any],
    seat: int,
    box: tuple[int, int, int, int],
    rank: int | None,
) -> None:
    x0, y0, x1, y1 = box
    colour = player_colour(seat)
    turn, to_act = _acting(view, seat)
    strong = turn or rank == 1
    draw.rounded_rectangle(
        box, radius=7, fill=WHITE, outline=HIGHLIGHT if (to_act or strong) else GRID, width=4 if strong else 2
    )
    draw.rounded_rectangle((x0, y0, x0 + 12, y1), radius=4, fill=colour)
    resigned = bool(town.get("resigned"))
    vp = f"{int(town.get('vp') or 0)} VP"
    _bold(image, (x1 - 8, y0 + 5), vp, 26, MUTED if resigned else shade(colour, 0.2), "ra", box=box)
    name = str(town.get("name") or _player_name(view, seat)) + (" (you)" if view.get("viewer") == seat else "")
    room = x1 - x0 - 63 - text_width(vp, 26)
    _player_mark(draw, seat, x0 + 30, y0 + 17, 9)
    name_text = theme.fit_lines(name, 20, room, 1)[0]
    _bold(image, (x0 + 45, y0 + 7), name_text, 20, MUTED if resigned else INK, box=box)
    tags: list[Tag] = []
    if rank:
        tags.append((_ordinal(rank), HIGHLIGHT if rank == 1 else PLACE_TAG, INK))
    if view.get("start_player") == seat and not _finished(view):
        tags.append(("START", INK, WHITE))
    if turn:
        tags.append(("TURN", HIGHLIGHT, INK))
    elif to_act:
        tags.append(("TO ACT", HIGHLIGHT, INK))
    if resigned:
        tags.append(("KICKED" if town.get("kicked") else "RESIGNED", GONE_TAG, WHITE))
    if town.get("title"):
        tags.append((str(town["title"]), tint(_colour("accent"), 0.7), INK))
    _tags(image, draw, tags, x0 + 20, y0 + 34, x1 - 6, TOWN_TAG)


def _tags_width(tags: Sequence[Tag], size: int) -> float:
    return sum(text_width(label, size) + 15 for label, _, _ in tags)


def _tags(
    image: Image.Image, draw: ImageDraw.ImageDraw, tags: Sequence[Tag], x: float, y: float, right: float, size: int
) -> float:
    """Small labelled chips from ``x`` rightwards (dropped when out of room); returns where they end."""
    height = size + 8
    for label, fill, fg in tags:
        room = right - x - 10
        if room < size * 2:
            break
        text = theme.fit_lines(label, size, room, 1)[0]
        w = text_width(text, size) + 10
        draw.rounded_rectangle((x, y, x + w, y + height), radius=4, fill=fill, outline=shade(fill, 0.35))
        stamp_text(image, (x + 5, y + height / 2 + 1), text, size, fg, "lm", box=(x, y, x + w, y + height))
        x += w + 5
    return x


# --------------------------------------------------------------------------------------------
# Towns


def _pending(town: Mapping[str, Any]) -> list[str]:
    return [str(p) for p in (town.get("pending") or [])]


def _town_tags(view: Mapping[str, Any], town: Mapping[str, Any], seat: int) -> list[Tag]:
    tags: list[Tag] = []
    finished = _finished(view)
    if view.get("start_player") == seat and not finished:
        tags.append(("START", INK, WHITE))
    turn, _ = _acting(view, seat)
    if turn:
        tags.append(("TURN", HIGHLIGHT, INK))
    if town.get("passed") and view.get("phase") == "construction":
        tags.append(("PASSED", PALE_TAG, INK))
    step = str(town.get("step") or "")
    if step in STEPS and not finished:
        tags.append((STEPS[step], HIGHLIGHT if step == "transport" else PALE_TAG, INK))
    if town.get("expert"):
        tags.append(("EXPERT", EXPERT_TAG, WHITE))
    if town.get("resigned"):
        tags.append(("KICKED" if town.get("kicked") else "RESIGNED", GONE_TAG, WHITE))
    if town.get("title"):
        tags.append((str(town["title"]), tint(_colour("accent"), 0.7), INK))
    return tags


TOWN_NAME = 20
TOWN_VP = 22
TOWN_TAG = 16


def _town_name(view: Mapping[str, Any], town: Mapping[str, Any], seat: int) -> str:
    return str(town.get("name") or _player_name(view, seat)) + (" (you)" if view.get("viewer") == seat else "")


def _town_tags_fit(view: Mapping[str, Any], town: Mapping[str, Any], plan: _TownPlan) -> bool:
    seat = _seat(town, plan.seat)
    tags = _town_tags(view, town, seat)
    if not tags:
        return True
    vp = f"{int(town.get('vp') or 0)} VP"
    name = min(text_width(_town_name(view, town, seat), TOWN_NAME), 160)
    used = 2 * PAD + 30 + name + 10 + _tags_width(tags, TOWN_TAG) + text_width(vp, TOWN_VP) + 8
    return used <= plan.width


def _draw_town(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: Mapping[str, Any],
    plan: _TownPlan,
    x: int,
    y: int,
    height: int,
) -> None:
    town = (view.get("towns") or [])[plan.seat]
    seat = _seat(town, plan.seat)
    cell, width = plan.cell, plan.width
    _, to_act = _acting(view, seat)
    draw.rounded_rectangle(
        (x, y, x + width - 1, y + height - 1),
        radius=8,
        outline=HIGHLIGHT if to_act else GRID,
        width=3 if to_act else 1,
    )
    _player_mark(draw, seat, x + PAD + 9, y + PAD + 12, 9)
    vp = f"{int(town.get('vp') or 0)} VP"
    head_box = (x, y, x + width, y + PAD + (34 if plan.header_lines == 1 else 58))
    _bold(image, (x + width - PAD - 2, y + PAD), vp, TOWN_VP, INK, "ra", box=head_box)
    tags = _town_tags(view, town, seat)
    name_room = width - 2 * PAD - 30 - text_width(vp, TOWN_VP) - 10
    if plan.header_lines == 1 and tags:
        name_room = min(name_room, 160)
    name = theme.fit_lines(_town_name(view, town, seat), TOWN_NAME, name_room, 1)[0]
    _bold(image, (x + PAD + 26, y + PAD + 1), name, TOWN_NAME, MUTED if town.get("resigned") else INK, box=head_box)
    if plan.header_lines == 1:
        tag_x, tag_y = x + PAD + 26 + text_width(name, TOWN_NAME) + 12, y + PAD
        right = x + width - PAD - text_width(vp, TOWN_VP) - 10
    else:
        tag_x, tag_y, right = x + PAD + 26, y + PAD + 30, x + width - PAD
    _tags(image, draw, tags, tag_x, tag_y, right, TOWN_TAG)

    x0, y0, x1, y1 = bounds = _bounds(town, plan.margin)
    columns, rows = x1 - x0 + 1, y1 - y0 + 1
    gutter_left, gutter_top = _gutters(bounds, cell)
    grid_w = columns * cell
    # The grid is centred in the panel (its labels to its left).
    grid_x = x + PAD + gutter_left + max(0, (width - 2 * PAD - gutter_left - grid_w) // 2)
    grid_y = y + PAD + (34 if plan.header_lines == 1 else 58) + gutter_top
    label = _label_size(cell)
    # Axis labels: every column and row when they fit, else every other (0 always labelled).
    every = 1 if cell >= label * 1.7 else 2 if cell * 2 >= label * 1.9 else 5
    for i in range(columns):
        if (x0 + i) % every == 0:
            mid = grid_x + i * cell + cell / 2
            column_box = (mid - cell * every / 2, grid_y - gutter_top, mid + cell * every / 2, grid_y)
            stamp_text(image, (mid, grid_y - 3), str(x0 + i), label, INK, "md", box=column_box, typed=True)
    for j in range(rows):
        if (y0 + j) % every == 0:
            mid = grid_y + j * cell + cell / 2
            row_box = (grid_x - gutter_left, mid - cell * every / 2, grid_x, mid + cell * every / 2)
            stamp_text(image, (grid_x - 5, mid), str(y0 + j), label, INK, "rm", box=row_box, typed=True)
    draw.rectangle((grid_x, grid_y, grid_x + columns * cell, grid_y + rows * cell), fill=EMPTY_CELL)

    cells = _cells(town)
    links = _links(town)
    placeable = _placeable(cells) if plan.focus else set()
    detail = _detail(cell)
    for (cx, cy), content in cells.items():
        if x0 <= cx <= x1 and y0 <= cy <= y1:
            tile = _cell_for_content(content, (cx, cy), cells, links, cell, detail)
            image.paste(tile, (grid_x + (cx - x0) * cell, grid_y + (cy - y0) * cell))
    for cx, cy in placeable:
        if x0 <= cx <= x1 and y0 <= cy <= y1:
            image.paste(_free_cell((cx, cy), cell), (grid_x + (cx - x0) * cell, grid_y + (cy - y0) * cell))
    if cell >= 10:
        for i in range(columns + 1):
            draw.line((grid_x + i * cell, grid_y, grid_x + i * cell, grid_y + rows * cell), fill=GRID)
        for j in range(rows + 1):
            draw.line((grid_x, grid_y + j * cell, grid_x + columns * cell, grid_y + j * cell), fill=GRID)
    py = grid_y + rows * cell + 8
    for line in _pending(town):
        text = theme.fit_lines(line, 16, width - 2 * PAD - 14, 1)[0]
        draw.rectangle((x + PAD, py + 3, x + PAD + 7, py + 14), fill=HIGHLIGHT, outline=INK)
        stamp_text(image, (x + PAD + 14, py), text, 16, INK, box=(x, py - 2, x + width - PAD, py + 21))
        py += 22


def _cells(town: Mapping[str, Any]) -> dict[Pos, Mapping[str, Any]]:
    out: dict[Pos, Mapping[str, Any]] = {}
    for content in town.get("cells") or []:
        if isinstance(content, Mapping):
            out[(int(content.get("x") or 0), int(content.get("y") or 0))] = content
    return out


def _links(town: Mapping[str, Any]) -> set[tuple[Pos, Pos]]:
    found: set[tuple[Pos, Pos]] = set()
    for pair in town.get("links") or []:
        try:
            (ax, ay), (bx, by) = pair
            a, b = (int(ax), int(ay)), (int(bx), int(by))
        except (TypeError, ValueError):
            continue
        found.add((a, b))
        found.add((b, a))
    return found


def _placeable(cells: Mapping[Pos, Any]) -> set[Pos]:
    """Free cells sharing an edge with the town: where the next tile may go."""
    free: set[Pos] = set()
    for x, y in cells:
        for dx, dy in STEP.values():
            if (x + dx, y + dy) not in cells:
                free.add((x + dx, y + dy))
    return free


def _detail(cell: int) -> str:
    if cell >= 54:
        return "full"
    if cell >= 28:
        return "small"
    return "tiny"


def _sides(content: Mapping[str, Any], pos: Pos, cells: Mapping[Pos, Any], links: set[tuple[Pos, Pos]]) -> str:
    """Per side N, E, S, W: L linked to the neighbour, X an open route end facing a tile it does not join, - else."""
    out = []
    route = content.get("kind") == "route"
    opens = set(content.get("open") or []) if route else set()
    for side in SIDES:
        dx, dy = STEP[side]
        other = (pos[0] + dx, pos[1] + dy)
        if (pos, other) in links:
            out.append("L")
        elif side in opens and other in cells:
            out.append("X")
        else:
            out.append("-")
    return "".join(out)


_CELL_KEYS = ("kind", "tile", "name", "abbrev", "pile", "spaces", "res", "timings", "text", "route", "open")


def _cell_for_content(
    content: Mapping[str, Any],
    pos: Pos,
    cells: Mapping[Pos, Any],
    links: set[tuple[Pos, Pos]],
    cell: int,
    detail: str,
) -> Image.Image:
    key = json.dumps([content.get(k) for k in _CELL_KEYS])
    return _cell_image(key, _sides(content, pos, cells, links), cell, detail)


@lru_cache(maxsize=1024)  # ~30 KB each at 60-100 px: a few renders' worth of distinct cells
def _cell_image(key: str, sides: str, cell: int, detail: str) -> Image.Image:
    content = dict(zip(_CELL_KEYS, json.loads(key), strict=True))
    if content.get("kind") == "route":
        opens = content.get("open") or []
        return _route_image(tuple(s for s in SIDES if s in opens), sides, cell)
    return _building_image(content, sides, cell, detail)


@lru_cache(maxsize=512)
def _free_cell(pos: Pos, cell: int) -> Image.Image:
    """An empty cell next to the town, dashed and labelled with its coordinates."""
    image = Image.new("RGB", (cell, cell), EMPTY_CELL)
    draw = ImageDraw.Draw(image)
    inset = max(2, cell // 14)
    _dashed_rect(draw, (inset, inset, cell - 1 - inset, cell - 1 - inset), MUTED, max(3, cell // 12))
    text = f"{pos[0]},{pos[1]}"
    if text_width(text, theme.MIN_TYPED) <= cell - 2 * inset - 4:  # else the axis labels name it
        stamp_text(image, (cell / 2, cell / 2), text, theme.MIN_TYPED, INK, "mm", box=(0, 0, cell, cell), typed=True)
    return image


def _dashed_rect(draw: ImageDraw.ImageDraw, box: Box, colour: Colour, dash: int) -> None:
    x0, y0, x1, y1 = box
    for a, b, horizontal, fixed in ((x0, x1, True, y0), (x0, x1, True, y1), (y0, y1, False, x0), (y0, y1, False, x1)):
        t = a
        while t < b:
            end = min(b, t + dash)
            draw.line((t, fixed, end, fixed) if horizontal else (fixed, t, fixed, end), fill=colour)
            t += 2 * dash


# --- Abbreviation key ------------------------------------------------------------------------


def _abbreviation_key(
    towns: Sequence[Mapping[str, Any]], rows: Sequence[Sequence[_TownPlan]], skip: int | None
) -> list[tuple[str, str]]:
    """(abbreviation, name) of every building drawn abbreviated (the focused town lists its own)."""
    seen: dict[str, str] = {}
    for row in rows:
        for plan in row:
            if plan.seat == skip:
                continue
            detail = _detail(plan.cell)
            for content in _cells(towns[plan.seat]).values():
                if content.get("kind") == "route":
                    continue
                name, abbrev = _names(content)
                if _label(name, abbrev, plan.cell, detail, _slot_count(content))[2]:
                    seen.setdefault(abbrev, name)
    return sorted(seen.items())


KEY_SIZE = 16


def _key_lines(entries: Sequence[tuple[str, str]], width: int) -> list[list[tuple[str, str, float]]]:
    lines: list[list[tuple[str, str, float]]] = [[]]
    x = 0.0
    start = text_width("Key:", KEY_SIZE) + 10
    x = start
    for abbrev, name in entries:
        w = text_width(abbrev, KEY_SIZE) + 8 + text_width(name, KEY_SIZE) + 18
        if x + w > width - 16 and lines[-1]:
            lines.append([])
            x = start
        lines[-1].append((abbrev, name, x))
        x += w
    return lines


def _key_height(entries: Sequence[tuple[str, str]], width: int) -> int:
    return 0 if not entries else 12 + 24 * len(_key_lines(entries, width))


def _draw_key(image: Image.Image, entries: Sequence[tuple[str, str]], x: int, y: int, width: int) -> None:
    box = (x, y, x + width, y + _key_height(entries, width))
    stamp_text(image, (x + 8, y + 8), "Key:", KEY_SIZE, MUTED, box=box)
    for index, line in enumerate(_key_lines(entries, width)):
        for abbrev, name, dx in line:
            _bold(image, (x + 8 + dx, y + 8 + 24 * index), abbrev, KEY_SIZE, INK, box=box)
            name_x = x + 8 + dx + text_width(abbrev, KEY_SIZE) + 8
            stamp_text(image, (name_x, y + 8 + 24 * index), name, KEY_SIZE, INK, box=box)


# --- Track ---------------------------------------------------------------------------------


def _route_image(opens: tuple[str, ...], sides: str, cell: int) -> Image.Image:
    image = Image.new("RGB", (cell, cell), _colour("ground"))
    _track(ImageDraw.Draw(image), cell, list(opens), sides, 0, 0)
    return image


def _track(draw: ImageDraw.ImageDraw, cell: int, opens: list[str], sides: str, ox: float, oy: float) -> None:
    """Rails and sleepers from the cell centre to each open edge (curves as arcs)."""
    rail = _colour("track")
    sleeper = tint(rail, 0.45)
    c = cell
    half = c / 2
    gauge = c * 0.1
    rail_w = max(1, round(c / 36))
    sleeper_w = max(1, round(c / 22))
    simple = c < 30
    opposite = {"N": "S", "S": "N", "E": "W", "W": "E"}
    pairs: list[tuple[str, str]] = []
    spokes: list[str] = []
    remaining = list(opens)
    if len(opens) == 2 and opposite[opens[0]] != opens[1]:
        pairs.append((opens[0], opens[1]))
        remaining = []
    else:
        for a in ("N", "E"):
            if a in remaining and opposite[a] in remaining:
                pairs.append((a, opposite[a]))
                remaining.remove(a)
                remaining.remove(opposite[a])
                break
        spokes = remaining
    for a, b in pairs:
        if opposite[a] == b:  # straight through
            vertical = a in ("N", "S")
            if simple:
                line = (ox + half, oy, ox + half, oy + c) if vertical else (ox, oy + half, ox + c, oy + half)
                draw.line(line, fill=rail, width=max(2, round(c / 7)))
                continue
            count = 5
            for k in range(count):
                t = (k + 0.5) * c / count
                if vertical:
                    draw.line(
                        (ox + half - gauge * 1.7, oy + t, ox + half + gauge * 1.7, oy + t),
                        fill=sleeper,
                        width=sleeper_w,
                    )
                else:
                    draw.line(
                        (ox + t, oy + half - gauge * 1.7, ox + t, oy + half + gauge * 1.7),
                        fill=sleeper,
                        width=sleeper_w,
                    )
            for d in (-gauge, gauge):
                if vertical:
                    draw.line((ox + half + d, oy, ox + half + d, oy + c), fill=rail, width=rail_w)
                else:
                    draw.line((ox, oy + half + d, ox + c, oy + half + d), fill=rail, width=rail_w)
        else:  # curve: a quarter circle around the corner the two edges share
            cx = ox + (c if "E" in (a, b) else 0)
            cy = oy + (c if "S" in (a, b) else 0)
            start = {("N", "E"): 90, ("E", "S"): 180, ("S", "W"): 270, ("N", "W"): 0}[_corner(a, b)]
            if simple:
                draw.arc(
                    (cx - half, cy - half, cx + half, cy + half),
                    start,
                    start + 90,
                    fill=rail,
                    width=max(2, round(c / 7)),
                )
                continue
            for k in range(4):
                angle = math.radians(start + (k + 0.5) * 90 / 4)
                r0, r1 = half - gauge * 1.7, half + gauge * 1.7
                draw.line(
                    (
                        cx + r0 * math.cos(angle),
                        cy + r0 * math.sin(angle),
                        cx + r1 * math.cos(angle),
                        cy + r1 * math.sin(angle),
                    ),
                    fill=sleeper,
                    width=sleeper_w,
                )
            for r in (half - gauge, half + gauge):
                draw.arc((cx - r, cy - r, cx + r, cy + r), start, start + 90, fill=rail, width=rail_w)
    for side in spokes:
        _spoke(draw, cell, side, ox, oy, rail, sleeper, simple)
    if spokes and len(opens) > 1:  # a junction: a turntable plate where the branches meet
        r = c * 0.17
        draw.ellipse(
            (ox + half - r, oy + half - r, ox + half + r, oy + half + r),
            fill=tint(rail, 0.7),
            outline=rail,
            width=rail_w,
        )
    for index, side in enumerate(SIDES):
        if sides[index] == "X" and side in opens and not simple:
            _buffer(draw, cell, side, ox, oy)


def _corner(a: str, b: str) -> tuple[str, str]:
    pair = {a, b}
    for corner in (("N", "E"), ("E", "S"), ("S", "W"), ("N", "W")):
        if set(corner) == pair:
            return corner
    raise ValueError(f"{a}{b} is not a curve")


def _spoke(
    draw: ImageDraw.ImageDraw,
    cell: int,
    side: str,
    ox: float,
    oy: float,
    rail: Colour,
    sleeper: Colour,
    simple: bool,
    length: float | None = None,
) -> None:
    """Track from the cell centre to the edge ``side``, or only its last ``length`` px (a stub)."""
    c = cell
    half = c / 2
    gauge = c * 0.1
    rail_w = max(1, round(c / 36))
    sleeper_w = max(1, round(c / 22))
    dx, dy = STEP[side]
    # Track runs along the axis from the centre (t = 0) to the edge (t = half).
    t0 = half - length if length is not None else 0.0

    def point(t: float, across: float) -> tuple[float, float]:
        if dx:
            return ox + half + dx * t, oy + half + across
        return ox + half + across, oy + half + dy * t

    if simple:
        draw.line((*point(t0, 0), *point(half, 0)), fill=rail, width=max(2, round(c / 7)))
        return
    count = max(1, round((half - t0) / (c / 5)))
    for k in range(count):
        t = t0 + (k + 0.5) * (half - t0) / count
        draw.line((*point(t, -gauge * 1.7), *point(t, gauge * 1.7)), fill=sleeper, width=sleeper_w)
    for across in (-gauge, gauge):
        draw.line((*point(t0, across), *point(half, across)), fill=rail, width=rail_w)


def _buffer(draw: ImageDraw.ImageDraw, cell: int, side: str, ox: float, oy: float) -> None:
    """A buffer stop: the route opens towards a tile it is not connected to."""
    c = cell
    half = c / 2
    dx, dy = STEP[side]
    t = half - c * 0.08
    w = c * 0.2
    cx, cy = ox + half + dx * t, oy + half + dy * t
    thick = max(2, round(c / 14))
    if dx:
        draw.line((cx, cy - w, cx, cy + w), fill=BLOCKED, width=thick)
    else:
        draw.line((cx - w, cy, cx + w, cy), fill=BLOCKED, width=thick)


# --- Buildings -----------------------------------------------------------------------------


def _names(content: Mapping[str, Any]) -> tuple[str, str]:
    name = str(content.get("name") or content.get("tile") or "?")
    abbrev = str(content.get("abbrev") or "".join(w[0] for w in name.split())[:3].upper())
    return name, abbrev


def _slot_count(content: Mapping[str, Any]) -> int:
    return max(int(content.get("spaces") or 0), len(_pieces_of(content.get("res"))))


@lru_cache(maxsize=2048)
def _label(name: str, abbrev: str, cell: int, detail: str, slots: int) -> tuple[tuple[str, ...], int, bool]:
    """(lines, font size, abbreviated) naming a building in a cell of ``cell`` px.

    Never below MIN_TEXT: the full name when it fits (wrapped), else the abbreviation (spelled
    out in the key), else nothing (the cell is too small to name; the pile colour remains).
    """
    inner = cell - 2 * _inset(cell) - 2
    if detail in ("full", "text"):
        size = max(theme.MIN_TEXT, min(22, round(cell * 0.16)))
        for tried in dict.fromkeys((size, max(theme.MIN_TEXT, size - 2))):
            lines = theme.wrap_lines(name, tried, inner, 2 if slots <= 4 and cell >= 80 else 1)
            if lines is not None:
                return lines, tried, False
    big = max(theme.MIN_TEXT, min(26, round(cell * 0.28)))
    for tried in dict.fromkeys((big, theme.MIN_TEXT)):
        if text_width(abbrev, tried) + 1 <= inner:
            return (abbrev,), tried, True
    return (), theme.MIN_TEXT, False


@lru_cache(maxsize=1024)
def _name_lines(name: str, size: int, width: int, max_lines: int) -> tuple[str, ...]:
    return theme.wrap_lines(name, size, width, max_lines) or theme.fit_lines(name, size, width, max_lines)


def _inset(cell: int) -> int:
    """Room left around a building's contents for the track stubs."""
    return max(3, round(cell * 0.08))


def _building_image(content: Mapping[str, Any], sides: str, cell: int, detail: str) -> Image.Image:
    c = cell
    fill = _pile_fill(str(content.get("pile") or "basic"))
    image = Image.new("RGB", (c, c), fill)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, c - 1, c - 1), outline=shade(fill, 0.4), width=max(1, round(c / 40)))
    rail = _colour("track")
    inset = _inset(c)
    for index, side in enumerate(SIDES):
        if sides[index] == "L":  # a route joins here: the track runs into the building
            _spoke(draw, c, side, 0, 0, rail, tint(rail, 0.45), c < 30, length=inset + c * 0.06)
    name, abbrev = _names(content)
    pieces = _pieces_of(content.get("res"))
    slots = _slot_count(content)
    timings = list(dict.fromkeys(str(t) for t in content.get("timings") or []))
    lines, size, _ = _label(name, abbrev, c, detail, slots)
    box = (0, 0, c, c)
    if detail == "tiny":
        if lines:
            _bold(image, (c / 2, c * 0.38), lines[0], size, INK, "mm", box=box)
        dot = max(4, round(c / 4))
        for i, res in enumerate(pieces[:3]):
            _piece(image, res, 1 + i * (dot + 1), c - dot - 1, dot)
        return image

    left, top, right, bottom = inset, inset, c - inset, c - inset
    line_h = round(size * 1.1)
    for i, line in enumerate(lines):
        _bold(image, (c / 2, top + i * line_h), line, size, INK, "ma", box=box)
    name_bottom = top + len(lines) * line_h + 1
    bottom_used = bottom
    badge = round(c * 0.15)
    if detail in ("full", "text") and timings and badge >= BADGE:  # the letter in a badge must be MIN_TEXT
        bottom_used = bottom - badge - 1
        for i, timing in enumerate(timings):
            _badge(image, draw, timing, (left + i * (badge + 2), bottom - badge), badge)
    if slots:
        _slots(image, draw, pieces, slots, (left, name_bottom + 1, right, bottom_used - 2), c)
    return image


def _draw_effects(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    lines: Sequence[tuple[str | None, str]],
    x: float,
    y: float,
    size: int,
    badge: int,
) -> None:
    """Effect lines, each effect's first line behind its timing badge."""
    previous: str | None = None
    for timing, line in lines:
        if timing and timing != previous:
            _badge(image, draw, timing, (x, y + 1), badge)
        previous = timing or previous
        step = max(size + 3, badge + 2)
        stamp_text(image, (x + badge + 4, y + 1), line, size, INK, box=(x + badge + 2, y, image.width, y + step + 1))
        y += step


def _pieces_of(res: Any) -> list[str]:
    out: list[str] = []
    if isinstance(res, Mapping):
        for kind in (*RESOURCES, *sorted(str(k) for k in res if k not in RESOURCES)):
            count = res.get(kind)
            out.extend([kind] * max(0, min(16, int(count))) if isinstance(count, int) else [])
    return out


def _slots(image: Image.Image, draw: ImageDraw.ImageDraw, pieces: list[str], slots: int, box: Box, cell: int) -> None:
    """The resource pieces in the tile's spaces, the empty spaces as rings: capacity at a glance."""
    x0, y0, x1, y1 = box
    per_row = slots if slots <= 4 else math.ceil(slots / 2)
    rows = math.ceil(slots / per_row)
    gap = max(1, round(cell / 40))
    size = int(max(4, min((x1 - x0 - gap * (per_row - 1)) / per_row, (y1 - y0 - gap * (rows - 1)) / rows, cell * 0.3)))
    ty = y0 + (y1 - y0 - (rows * size + (rows - 1) * gap)) / 2
    for index in range(slots):
        row, column = divmod(index, per_row)
        in_row = min(per_row, slots - row * per_row)
        px = x0 + (x1 - x0 - (in_row * size + (in_row - 1) * gap)) / 2 + column * (size + gap)
        py = ty + row * (size + gap)
        if index < len(pieces):
            _piece(image, pieces[index], px, py, size)
        else:
            r = size * 0.32
            cx, cy = px + size / 2, py + size / 2
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=MUTED, width=max(1, size // 12))


def _piece(image: Image.Image, resource: str, x: float, y: float, size: int) -> None:
    sprite = _piece_sprite(resource, size)
    image.paste(sprite, (round(x), round(y)), sprite)


@lru_cache(maxsize=256)
def _piece_sprite(resource: str, size: int) -> Image.Image:
    """A resource piece (RGBA): its own shape, colour and letter."""
    scale = 3  # drawn large, then shrunk: smooth edges at small sizes
    s = size * scale
    big = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    colour = _colour(f"resource-{resource}")
    edge = INK if resource in ("sheep", "coal") else shade(colour, 0.55)
    w = max(scale, round(s / 13))
    m = w / 2 + 1
    shape = RESOURCE_SHAPES.get(resource, "circle")
    if shape == "circle":  # wood: a log end
        draw.ellipse((m, m, s - m, s - m), fill=colour, outline=edge, width=w)
    elif shape == "square":  # stone: a block
        k = m + s * 0.05
        draw.rounded_rectangle((k, k, s - k, s - k), radius=s * 0.1, fill=colour, outline=edge, width=w)
    elif shape == "triangle":  # wheat: a sheaf
        draw.polygon([(s / 2, m), (s - m, s - m), (m, s - m)], fill=colour, outline=edge, width=w)
    elif shape == "diamond":  # coal: a lump
        draw.polygon([(s / 2, m), (s - m, s / 2), (s / 2, s - m), (m, s / 2)], fill=colour, outline=edge, width=w)
    else:  # sheep: a fleece of puffs
        puffs = ((0.31, 0.4, 0.26), (0.69, 0.4, 0.26), (0.5, 0.64, 0.3), (0.5, 0.34, 0.26))
        for px, py, r in puffs:
            draw.ellipse((s * (px - r) - w, s * (py - r) - w, s * (px + r) + w, s * (py + r) + w), fill=edge)
        for px, py, r in puffs:
            draw.ellipse((s * (px - r), s * (py - r), s * (px + r), s * (py + r)), fill=colour)
    sprite = big.resize((size, size), Image.Resampling.LANCZOS)
    letter_size = round(size * (0.55 if shape == "triangle" else 0.6))
    if letter_size < theme.MIN_TEXT:  # too small to read: the shape alone tells the resource
        return sprite
    letter = _letter_mask(RESOURCE_LETTERS.get(resource, "?"), letter_size)
    cy = size * (0.64 if shape == "triangle" else 0.52)
    ink = Image.new("RGBA", letter.size, (*text_colour_on(colour), 255))
    sprite.paste(ink, (round(size / 2 - letter.width / 2), round(cy - letter.height / 2)), letter)
    return sprite


@lru_cache(maxsize=256)
def _letter_mask(letter: str, size: int) -> Image.Image:
    """A bold glyph as an L mask cropped to its ink."""
    canvas = Image.new("RGB", (size * 2 + 4, size * 2 + 4), (0, 0, 0))
    middle = (canvas.width / 2, canvas.height / 2)
    _bold(canvas, middle, letter, size, (255, 255, 255), "mm")
    mask = canvas.convert("L")
    return mask.crop(mask.getbbox() or (0, 0, 1, 1))


BADGE = 21  # the smallest timing badge: its letter is MIN_TEXT


def _badge(image: Image.Image, draw: ImageDraw.ImageDraw, timing: str, xy: tuple[float, float], size: int) -> None:
    """A timing badge: its own letter on its own colour."""
    letter, _, colour = TIMINGS.get(timing, ("?", timing, (160, 160, 160)))
    x, y = xy
    draw.rounded_rectangle(
        (x, y, x + size, y + size), radius=max(2, size // 4), fill=colour, outline=shade(colour, 0.4)
    )
    box = (x, y, x + size, y + size)
    letter_size = max(theme.MIN_TEXT, round(size * 0.75))
    _bold(image, (x + size / 2, y + size / 2 + 1), letter, letter_size, text_colour_on(colour), "mm", box=box)


def _effect_lines(text: str, timings: Sequence[str]) -> list[tuple[str | None, str]]:
    """The effect text as (timing, text) parts; a leading "Production:" names the part's timing."""
    parts = [p.strip() for p in re.split(r"[;\n]", text) if p.strip()]
    out: list[tuple[str | None, str]] = []
    for index, part in enumerate(parts):
        timing: str | None = None
        prefix = _PREFIX.match(part)
        if prefix and prefix["when"].strip().lower() in _PREFIXES:
            # "On construction (building around): 2 VP" -> badge B, "building around: 2 VP".
            timing = _PREFIXES[prefix["when"].strip().lower()]
            part = f"{prefix['which']}: {prefix['rest']}" if prefix["which"] else prefix["rest"]
        elif len(parts) == len(timings):
            timing = timings[index]
        elif len(timings) == 1:
            timing = timings[0]
        out.append((timing, part))
    if not out:
        out = [(t, TIMINGS[t][1]) for t in timings if t in TIMINGS]
    return out


def _wrap_effects(
    effects: Sequence[tuple[str | None, str]], size: int, width: float, max_lines: int
) -> list[tuple[str | None, str]]:
    """Every effect on its own lines, all within ``max_lines`` (later effects keep at least one)."""
    out: list[tuple[str | None, str]] = []
    for index, (timing, text) in enumerate(effects):
        room = max_lines - len(out) - (len(effects) - index - 1)
        if room <= 0:
            break
        out.extend((timing, line) for line in theme.fit_lines(text, size, width, room))
    return out[:max_lines]


# --------------------------------------------------------------------------------------------
# Focus: the town's buildings with their full effects


def _building_list(town: Mapping[str, Any], width: int) -> Image.Image:
    seen: dict[str, Mapping[str, Any]] = {}
    counts: dict[str, int] = {}
    for content in _cells(town).values():
        if content.get("kind") == "route":
            continue
        key = str(content.get("tile") or content.get("name"))
        seen.setdefault(key, content)
        counts[key] = counts.get(key, 0) + 1
    entries = tuple(
        (
            *_names(content),
            str(content.get("pile") or "basic"),
            int(content.get("spaces") or 0),
            counts[key],
            str(content.get("text") or ""),
            tuple(str(t) for t in content.get("timings") or ()),
        )
        for key, content in seen.items()
    )
    return _building_list_image(entries, width)


LIST_SIZE = 18


@lru_cache(maxsize=16)
def _building_list_image(
    entries: tuple[tuple[str, str, str, int, int, str, tuple[str, ...]], ...], width: int
) -> Image.Image:
    columns = 2
    col_w = (width - 24 - 16) // columns
    text_x = 64
    # Lines of (kind, text, abbrev, pile): kind is "title", a timing (an effect's first line) or "".
    blocks: list[list[tuple[str, str, str, str]]] = []
    for name, abbrev, pile, spaces, count, text, timings in entries:
        title = name + (f" x{count}" if count > 1 else "") + (f"  ({spaces} spaces)" if spaces else "")
        block: list[tuple[str, str, str, str]] = [
            ("title", theme.fit_lines(title, LIST_SIZE, col_w - text_x, 1)[0], abbrev, pile)
        ]
        for timing, part in _effect_lines(text, timings):
            for i, line in enumerate(theme.fit_lines(part, LIST_SIZE - 1, col_w - text_x - 28, 2)):
                block.append(((timing or "") if i == 0 else "", line, abbrev, pile))
        blocks.append(block)
    line_h = LIST_SIZE + 7
    # Fill the left column first, balancing the two by lines.
    total = sum(len(b) for b in blocks)
    split, running = len(blocks), 0
    for index, block in enumerate(blocks):
        if running >= total / 2:
            split = index
            break
        running += len(block)
    halves = [blocks[:split], blocks[split:]]
    height = 44 + max(sum(len(b) * line_h + 8 for b in half) for half in halves) + 4
    image, draw = theme.new_canvas(width, height)
    draw.rounded_rectangle((0, 0, width - 1, height - 1), radius=8, fill=PANEL_FILL, outline=GRID)
    _bold(image, (12, 10), "Buildings in this town", 21, INK, box=(0, 0, width, 44))
    for column, half in enumerate(halves):
        x = 12 + column * (col_w + 16)
        y = 44
        for block in half:
            for timing, line, abbrev, pile in block:
                if timing == "title":
                    fill = _pile_fill(pile)
                    draw.rounded_rectangle(
                        (x, y, x + 56, y + line_h - 3), radius=4, fill=fill, outline=shade(fill, 0.4)
                    )
                    abbrev_box = (x, y, x + 56, y + line_h - 3)
                    _bold(image, (x + 28, y + (line_h - 3) / 2 + 1), abbrev, 16, INK, "mm", box=abbrev_box)
                    _bold(image, (x + text_x, y + 1), line, LIST_SIZE, INK, box=(x + text_x, y, x + col_w, y + line_h))
                else:
                    if timing:
                        _badge(image, draw, timing, (x + text_x, y + 1), BADGE)
                    line_box = (x + text_x + 28, y, x + col_w, y + line_h)
                    stamp_text(image, (x + text_x + 28, y + 2), line, LIST_SIZE - 1, INK, box=line_box)
                y += line_h
            y += 8
    return image


# --------------------------------------------------------------------------------------------
# Market


def _market_key(view: Mapping[str, Any]) -> str:
    market = view.get("market")
    return json.dumps(
        {
            "market": market if isinstance(market, Mapping) else {},
            "round": view.get("round"),
            "solo": bool(view.get("solo")),
        },
        sort_keys=True,
    )


CARD_MIN_H = 130  # an empty slot; a card is as tall as the tallest in the market needs
CARDS_PER_ROW = 3
BASICS_PER_ROW = 4
BASIC_H = 168
BASIC_SHORT_H = 118
HEADING = 30
NAME_SIZE = 22  # building names are typed into /trolley build: over MIN_TYPED
CARD_TEXT = 19
COST_PIECE = 27  # big enough for the resource letter to be MIN_TEXT


# A piece of the market: which cached drawing (``_market_piece``) with which arguments.
Piece = tuple[Any, ...]


@lru_cache(maxsize=2)  # ~2 MB each; the PNG keeps the market encoded (_market_band)
def _market_image(key: str, width: int) -> Image.Image:
    """The market in RGB: its panel and every piece of ``_market_layout`` pasted on it."""
    height, pieces = _market_layout(key, width)
    image, draw = theme.new_canvas(width, height)
    draw.rounded_rectangle((0, 0, width - 1, height - 1), radius=8, fill=PANEL_FILL, outline=GRID)
    for piece, xy in pieces:
        image.paste(_market_piece(piece), xy)
    return image


@lru_cache(maxsize=64)
def _market_layout(key: str, width: int) -> tuple[int, list[tuple[Piece, tuple[int, int]]]]:
    """The market's height and its pieces with where each goes: basic piles, the A/B row with the
    round marker, the draw piles and V piles, and the legend, each under its heading."""
    data = json.loads(key)
    market = data["market"]
    round_no = int(data.get("round") or 1)
    pad, gap, marker_gap = 10, 8, 30
    inner = width - 2 * pad
    basics: list[Any] = [pile for pile in market.get("basic") or [] if isinstance(pile, Mapping)]
    rebuild = market.get("rebuild")
    piles = basics + ([{"rebuild": True, **rebuild}] if isinstance(rebuild, Mapping) else [])
    per_row = BASICS_PER_ROW
    basic_w = (inner - gap * (per_row - 1)) // per_row
    basic_rows = math.ceil(len(piles) / per_row)
    basic_h = _basic_height(piles)
    row = list(market.get("row") or [None] * 6)
    slots = max(1, len(row))
    marker = max(0, min(slots, int(market.get("marker") or 0)))
    # Three cards a row (room for the round marker on every row), so names and effects stay large.
    per_card_row = min(CARDS_PER_ROW, slots)
    card_w = (inner - gap * (per_card_row - 1) - marker_gap) // per_card_row
    draws: list[tuple[Any, str]] = []
    for letter, pile_key in (("A", "a_pile"), ("B", "b_pile")):
        pile = market.get(pile_key) or {}
        draws.append((pile.get("top"), f"{letter} pile · {int(pile.get('left') or 0)} left"))
    for index, v in enumerate(market.get("v") or []):
        if isinstance(v, Mapping):
            draws.append((v.get("top"), f"V pile {index + 1} · {int(v.get('left') or 0)} left"))
    draw_per_row = max(1, (inner + gap) // (card_w + gap))
    tiles = [tile for tile in [*row, *(tile for tile, _ in draws)] if isinstance(tile, Mapping)]
    card_h = max([CARD_MIN_H, *(_tile_height(json.dumps(tile, sort_keys=True), card_w) for tile in tiles)])
    draw_rows = max(1, math.ceil(len(draws) / draw_per_row))
    row_rows = math.ceil(slots / per_card_row)
    legend = _legend(inner)
    height = pad + HEADING + basic_rows * (basic_h + gap) + HEADING + row_rows * (card_h + gap) + HEADING
    height += draw_rows * (card_h + gap) + legend.height + pad
    pieces: list[tuple[Piece, tuple[int, int]]] = []
    heading_w = width - 2 * pad

    def round_marker(cx: float, top: int) -> None:
        pieces.append((("marker", round_no, card_h), (round(cx) - MARKER_HALF, top - MARKER_OVER)))

    y = pad
    title = "Basic buildings" + ("  (solo: the 7 chosen)" if data.get("solo") else "")
    pieces.append((("heading", title, "" if data.get("solo") else "top tile face up", heading_w), (pad, y)))
    y += HEADING
    for index, pile in enumerate(piles):
        r, col = divmod(index, per_row)
        card = ("basic", json.dumps(pile, sort_keys=True), basic_w, basic_h)
        pieces.append((card, (pad + col * (basic_w + gap), y + r * (basic_h + gap))))
    y += basic_rows * (basic_h + gap)

    heading = ("heading", "Building row", "A slots before the round marker, B after", heading_w)
    pieces.append((heading, (pad, y)))
    y += HEADING
    for index in range(slots):
        r, col = divmod(index, per_card_row)
        # The round marker's row makes room for it; the cards after it there move right.
        shift = marker_gap if index >= marker and r == marker // per_card_row else 0
        x = pad + col * (card_w + gap) + shift
        top = y + r * (card_h + gap)
        if index == marker:
            round_marker(x - (marker_gap + gap) / 2, top)
        label = f"{'A' if index < marker else 'B'} slot {index + 1}"
        pieces += [
            (piece, (x, top)) for piece in _card_pieces(row[index] if index < len(row) else None, card_w, card_h, label)
        ]
    if marker >= slots:
        last = (slots - 1) % per_card_row
        round_marker(pad + (last + 1) * (card_w + gap) + (marker_gap - gap) / 2, y + (row_rows - 1) * (card_h + gap))
    y += row_rows * (card_h + gap)

    heading = ("heading", "Draw piles and V piles", "the top tile of each can be built", heading_w)
    pieces.append((heading, (pad, y)))
    y += HEADING
    for index, (tile, label) in enumerate(draws):
        r, col = divmod(index, draw_per_row)
        xy = (pad + col * (card_w + gap), y + r * (card_h + gap))
        pieces += [(piece, xy) for piece in _card_pieces(tile, card_w, card_h, label)]
    y += draw_rows * (card_h + gap)
    pieces.append((("legend", inner), (pad, y)))
    return height, pieces


def _card_pieces(tile: Any, width: int, height: int, label: str) -> list[Piece]:
    """A tile (its body, then its label over the body's band) or an empty slot."""
    if isinstance(tile, Mapping):
        key = json.dumps(tile, sort_keys=True)
        return [("tile", key, width, height), ("label", key, width, height, label)]
    return [("empty", width, height, label)]


def _market_piece(piece: Piece) -> Image.Image:
    """The RGB drawing of a market piece (each kind cached by its own function)."""
    kind, *args = piece
    drawing: Any = {
        "heading": _heading,
        "basic": _basic_card,
        "tile": _tile_body,
        "label": _tile_label,
        "empty": _empty_card,
        "marker": _round_marker,
        "legend": _legend,
    }[kind]
    image: Image.Image = drawing(*args)
    return image


@lru_cache(maxsize=32)
def _heading(title: str, note: str, width: int) -> Image.Image:
    """A market section's title, and its note on the right when there is room."""
    image, draw = theme.new_canvas(width, HEADING)
    draw.rectangle((0, 0, width, HEADING), fill=PANEL_FILL)
    box = (0, 0, width, HEADING)
    _bold(image, (0, 3), title, 21, INK, box=box)
    if note:
        room = width - text_width(title, 21) - 24
        if room > 60:
            stamp_text(image, (width, 7), theme.fit_lines(note, 16, room, 1)[0], 16, MUTED, "ra", box=box)
    return image


MARKER_R = 14
MARKER_HALF = MARKER_R + 1  # the marker's half width, its outline included
MARKER_OVER = 4  # its bar reaches this far above and below the cards


@lru_cache(maxsize=16)
def _round_marker(round_no: int, height: int) -> Image.Image:
    """The round marker between two cards of the building row: a bar as tall as the cards (and a little
    more) with the round's number in a disc at its middle; centred on its image's middle column."""
    accent = _colour("accent")
    width = 2 * MARKER_HALF + 1
    image, draw = theme.new_canvas(width, height + 2 * MARKER_OVER + 1)
    draw.rectangle((0, 0, width, image.height), fill=PANEL_FILL)
    cx, mid, r = MARKER_HALF, MARKER_OVER + height / 2, MARKER_R
    draw.rectangle((cx - 3, 0, cx + 3, height + 2 * MARKER_OVER), fill=accent)
    draw.ellipse((cx - r, mid - r, cx + r, mid + r), fill=accent, outline=shade(accent, 0.4), width=2)
    box = (cx - r, mid - r, cx + r, mid + r)
    _bold(image, (cx, mid + 1), str(round_no), 19, text_colour_on(accent), "mm", box=box)
    return image


@lru_cache(maxsize=64)
def _empty_card(width: int, height: int, label: str) -> Image.Image:
    image, draw = theme.new_canvas(width, height)
    draw.rectangle((0, 0, width, height), fill=PANEL_FILL)
    _dashed_rect(draw, (1, 1, width - 2, height - 2), MUTED, 7)
    box = (0, 0, width, height)
    stamp_text(image, (8, 7), theme.fit_lines(label, 16, width - 16, 1)[0], 16, MUTED, box=box)
    stamp_text(image, (width / 2, height / 2), "empty", 21, MUTED, "mm", box=box)
    return image


def _spaces_mark(image: Image.Image, draw: ImageDraw.ImageDraw, spaces: int, right: int, y: int, fg: Colour) -> int:
    """ "○4" at ``right``: the tile holds 4 goods (explained in the legend); returns its width."""
    text = str(spaces)
    w = round(text_width(text, 18)) + 18
    x = right - w
    draw.ellipse((x, y + 7, x + 13, y + 20), outline=fg, width=2)
    stamp_text(image, (right, y + 14), text, 18, fg, "rm", box=(x, y, right, y + COST_PIECE + 1))
    return w


def _cost_row(
    image: Image.Image, draw: ImageDraw.ImageDraw, cost: Any, spaces: int | None, x: int, y: int, right: int, fg: Colour
) -> int:
    """Cost pieces from ``x`` (grouped as "piece x3" when short of room); the tile's spaces at
    ``right`` as a ring and a number. Returns the row's height."""
    if spaces:
        right -= _spaces_mark(image, draw, spaces, right, y, fg) + 4
    counts = [(res, int(cost.get(res) or 0)) for res in RESOURCES] if isinstance(cost, Mapping) else []
    counts = [(res, n) for res, n in counts if n > 0]
    total = sum(n for _, n in counts)
    size = COST_PIECE
    box = (x, y, right, y + size + 1)
    if total * (size + 2) <= right - x:
        for res, n in counts:
            for _ in range(n):
                _piece(image, res, x, y, size)
                x += size + 2
    else:
        for res, n in counts:
            label = f"x{n}" if n > 1 else ""
            if x + size + text_width(label, 16) > right:
                break
            _piece(image, res, x, y, size)
            stamp_text(image, (x + size + 1, y + size / 2 + 1), label, 16, fg, "lm", box=box)
            x += size + 1 + round(text_width(label, 16)) + 5
    if not counts:
        stamp_text(image, (x, y + size / 2), "free", 16, fg, "lm", box=box)
    return size + 1


def _card_name(image: Image.Image, name: str, x: int, y: int, width: int, fg: Colour, lines: int = 2) -> int:
    """A building's name (typed into /trolley build, so MIN_TYPED), wrapped; returns the y below it."""
    found = theme.wrap_lines(name, NAME_SIZE, width, lines) or theme.fit_lines(name, NAME_SIZE, width, lines)
    step = theme.line_height(NAME_SIZE)
    box = (x, y, x + width + 2, y + step * len(found) + 2)
    for line in found:
        _bold(image, (x, y), line, NAME_SIZE, fg, box=box, typed=True)
        y += step
    return y


@lru_cache(maxsize=256)
def _tile_label(key: str, width: int, height: int, label: str) -> Image.Image:
    """A market tile's band with its label (pile or slot), pasted over the tile's body at its top left.

    Kept apart from the body: a tile moving along the building row, or a pile one tile shorter,
    changes only this strip of the card."""
    tile = json.loads(key)
    band_fill = shade(_pile_fill(str(tile.get("pile") or "basic")), 0.3)
    star = bool(tile.get("star"))
    room = width - 2 * CARD_PAD - (24 if star else 0)
    band_box = (0, 0, width - (24 if star else 0), CARD_BAND)
    image = _tile_body(key, width, height).crop(band_box)
    band_text = theme.fit_lines(label, 16, room, 1)[0]
    stamp_text(image, (CARD_PAD, CARD_BAND / 2 + 1), band_text, 16, text_colour_on(band_fill), "lm", box=band_box)
    return image


@lru_cache(maxsize=256)
def _tile_body(key: str, width: int, height: int) -> Image.Image:
    """A market tile without its label (``_tile_label``): star, name, cost pieces, spaces, each effect
    behind its timing."""
    tile = json.loads(key)
    fill = _pile_fill(str(tile.get("pile") or "basic"))
    image, draw = theme.new_canvas(width, height)
    draw.rectangle((0, 0, width, height), fill=PANEL_FILL)
    draw.rounded_rectangle((0, 0, width - 1, height - 1), radius=7, fill=fill, outline=shade(fill, 0.45), width=2)
    pad, band = CARD_PAD, CARD_BAND
    band_fill = shade(fill, 0.3)
    draw.rounded_rectangle((0, 0, width - 1, band), radius=7, fill=band_fill)
    draw.rectangle((0, band - 7, width - 1, band), fill=band_fill)
    star = bool(tile.get("star"))
    if star:  # "for players used to the game"
        _star(draw, (width - pad - 19, 3, width - pad + 1, band - 3), HIGHLIGHT)
    name = str(tile.get("name") or tile.get("tile") or "?")
    y = _card_name(image, name, CARD_PAD, CARD_BAND + 4, width - 2 * CARD_PAD, INK) + 2
    y += _cost_row(image, draw, tile.get("cost"), int(tile.get("spaces") or 0), pad, y, width - pad, INK) + 4
    draw.line((pad, y - 2, width - pad, y - 2), fill=shade(fill, 0.3))
    room = max(1, (height - y - 4) // EFFECT_STEP)
    lines = _card_effects(tile, width, room)
    _draw_effects(image, draw, lines, pad, y + 1, CARD_TEXT, BADGE)
    return image


CARD_PAD = 7
CARD_BAND = 26
EFFECT_STEP = max(CARD_TEXT + 3, BADGE + 2)
MAX_EFFECT_LINES = 4


def _card_effects(tile: Mapping[str, Any], width: int, room: int) -> list[tuple[str | None, str]]:
    timings = [str(t) for t in tile.get("timings") or []]
    effects = _effect_lines(str(tile.get("text") or ""), timings)
    return _wrap_effects(effects, CARD_TEXT, width - 2 * CARD_PAD - BADGE - 4, room)


@lru_cache(maxsize=256)
def _tile_height(key: str, width: int) -> int:
    """How tall a tile's card (``_tile_body``) needs to be to show the whole tile (effects up to
    MAX_EFFECT_LINES)."""
    tile = json.loads(key)
    name = str(tile.get("name") or tile.get("tile") or "?")
    inner = width - 2 * CARD_PAD
    names = theme.wrap_lines(name, NAME_SIZE, inner, 2) or theme.fit_lines(name, NAME_SIZE, inner, 2)
    top = CARD_BAND + 4 + theme.line_height(NAME_SIZE) * len(names) + 2 + COST_PIECE + 1 + 4
    return top + EFFECT_STEP * len(_card_effects(tile, width, MAX_EFFECT_LINES)) + 8


def _star(draw: ImageDraw.ImageDraw, box: Box, colour: Colour) -> None:
    x0, y0, x1, y1 = box
    s = min(x1 - x0, y1 - y0)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2 + s * 0.04
    points = []
    for i in range(10):
        r = s * (0.52 if i % 2 == 0 else 0.22)
        a = -math.pi / 2 + i * math.pi / 5
        points.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    draw.polygon(points, fill=colour, outline=INK)


REBUILD_TEXT = "Build a face-down basic tile"


def _basic_height(piles: Sequence[Mapping[str, Any]]) -> int:
    """Taller cards when the view carries the basic tiles' effect texts."""
    return BASIC_H if any(pile.get("text") for pile in piles if not pile.get("rebuild")) else BASIC_SHORT_H


@lru_cache(maxsize=64)
def _basic_card(key: str, width: int, height: int) -> Image.Image:
    """A basic pile: name, cost, effect (if given); face up or face down (hatched); how many are left."""
    pile = json.loads(key)
    rebuild = bool(pile.get("rebuild"))
    left = 1 if rebuild else int(pile.get("left") or 0)
    up = bool(pile.get("up")) and left > 0
    name = "Rebuild" if rebuild else str(pile.get("name") or pile.get("tile") or "?")
    image, draw = theme.new_canvas(width, height)
    draw.rectangle((0, 0, width, height), fill=PANEL_FILL)
    pad = 7
    box = (0, 0, width, height)
    if left <= 0:
        _dashed_rect(draw, (1, 1, width - 2, height - 2), MUTED, 7)
        _card_name(image, name, pad, 6, width - 2 * pad, MUTED)
        stamp_text(image, (width / 2, height / 2 + 16), "none left", 18, MUTED, "mm", box=box)
        return image
    fill = _pile_fill("basic") if up else (110, 110, 110)
    draw.rounded_rectangle((0, 0, width - 1, height - 1), radius=7, fill=fill, outline=shade(fill, 0.45), width=2)
    if not up:  # a hatched back: face down
        for k in range(-height, width, 14):
            draw.line((k, height, k + height, 0), fill=(128, 128, 128), width=4)
        draw.rounded_rectangle((0, 0, width - 1, height - 1), radius=7, outline=shade(fill, 0.45), width=2)
    fg = text_colour_on(fill)
    lines = 1 if theme.wrap_lines(name, NAME_SIZE, width - 2 * pad, 1) else 2
    y = _card_name(image, name, pad, 5, width - 2 * pad, fg, lines) + 2
    spaces = None if rebuild or pile.get("spaces") is None else int(pile.get("spaces") or 0)
    y += _cost_row(image, draw, pile.get("cost"), spaces, pad, y, width - pad, fg) + 4
    strip_top = height - 28
    step = max(CARD_TEXT + 3, BADGE + 2)
    room = (strip_top - y) // step
    if up and room > 0:
        text = REBUILD_TEXT if rebuild else str(pile.get("text") or "")
        timings = [] if rebuild else [str(t) for t in pile.get("timings") or []]
        effects = _wrap_effects(_effect_lines(text, timings), CARD_TEXT, width - 2 * pad - BADGE - 4, min(3, room))
        _draw_effects(image, draw, effects, pad, y, CARD_TEXT, BADGE)
    elif not up:
        label_box = (pad, y, width - pad, strip_top)
        draw.rounded_rectangle((pad, y + 4, width - pad, y + 30), radius=5, fill=(60, 60, 60))
        stamp_text(image, (width / 2, y + 17), "face down", 17, WHITE, "mm", box=label_box)
    strip = WHITE if up else (60, 60, 60)
    draw.rounded_rectangle((3, strip_top, width - 4, height - 4), radius=5, fill=strip)
    fg = text_colour_on(strip)
    if not rebuild:
        strip_box = (3, strip_top, width - 4, height - 4)
        _bold(image, (width / 2, (strip_top + height - 4) / 2 + 1), f"{left} left", 17, fg, "mm", box=strip_box)
    return image


# --------------------------------------------------------------------------------------------
# Legend

LEGEND_ROW = 30


def _legend_marks(draw: ImageDraw.ImageDraw, image: Image.Image, kind: str, x: int, y: int) -> None:
    """One legend symbol in a 48x26 area at (x, y)."""
    s = 26
    if kind == "joined":
        ground = Image.new("RGB", (s * 2, s), _colour("ground"))
        gdraw = ImageDraw.Draw(ground)
        _track(gdraw, s, ["E", "W"], "----", 0, 0)
        fill = _pile_fill("B")
        gdraw.rectangle((s, 0, 2 * s - 1, s - 1), fill=fill, outline=shade(fill, 0.4))
        _spoke(gdraw, s, "W", s, 0, _colour("track"), tint(_colour("track"), 0.45), False, length=7)
        image.paste(ground, (x, y))
    elif kind == "buffer":
        ground = Image.new("RGB", (s * 2, s), _colour("ground"))
        gdraw = ImageDraw.Draw(ground)
        _track(gdraw, s * 2, ["E", "W"], "-X--", 0, -s / 2)
        image.paste(ground, (x, y))
    elif kind == "junction":
        ground = Image.new("RGB", (s, s), _colour("ground"))
        _track(ImageDraw.Draw(ground), s, ["N", "E", "S"], "----", 0, 0)
        image.paste(ground, (x + 11, y))
    elif kind == "space":
        draw.ellipse((x + 16, y + 5, x + 32, y + 21), outline=MUTED, width=2)
    elif kind == "free":
        draw.rectangle((x + 4, y, x + 44, y + s), fill=EMPTY_CELL)
        _dashed_rect(draw, (x + 6, y + 2, x + 42, y + s - 2), MUTED, 4)
    elif kind == "star":
        _star(draw, (x + 13, y + 1, x + 35, y + 23), HIGHLIGHT)
    elif kind == "down":
        back = Image.new("RGB", (40, s), (110, 110, 110))
        bdraw = ImageDraw.Draw(back)
        for k in range(-s, 40, 10):
            bdraw.line((k, s, k + s, 0), fill=(128, 128, 128), width=3)
        image.paste(back, (x + 4, y))
    elif kind == "marker":
        accent = _colour("accent")
        draw.rectangle((x + 21, y - 2, x + 27, y + s + 2), fill=accent)
        draw.ellipse((x + 12, y + 2, x + 36, y + 24), fill=accent, outline=shade(accent, 0.4), width=2)


MARKS = (
    ("joined", "route joins tile"),
    ("buffer", "route not joined"),
    ("junction", "junction"),
    ("space", "space for a good"),
    ("free", "free cell x,y"),
    ("star", "advanced tile"),
    ("down", "pile face down"),
    ("marker", "round marker"),
)


@lru_cache(maxsize=4)
def _legend(width: int) -> Image.Image:
    """What each piece shape and letter, each timing badge and every other mark means: columns
    filled top to bottom (resources, timings, then the marks)."""
    entries: list[tuple[str, str, str]] = [("piece", res, RESOURCE_LEGEND[res]) for res in RESOURCES]
    entries += [("badge", timing, label) for timing, (_, label, _) in TIMINGS.items()]
    entries += [("mark", kind, label) for kind, label in MARKS]
    columns = max(1, (width - 20) // 196)
    rows = -(-len(entries) // columns)
    height = 36 + rows * LEGEND_ROW + 4
    image, draw = theme.new_canvas(width, height)
    draw.rounded_rectangle((0, 0, width - 1, height - 1), radius=7, fill=WHITE, outline=GRID)
    _bold(image, (10, 7), "Legend", 20, INK, box=(0, 0, width, 36))
    column = (width - 20) // columns
    for index, (what, key, label) in enumerate(entries):
        col, row = divmod(index, rows)
        x, y = 10 + col * column, 36 + row * LEGEND_ROW
        if what == "piece":
            _piece(image, key, x + 10, y, COST_PIECE)
        elif what == "badge":
            _badge(image, draw, key, (x + 13, y + 3), BADGE)
        else:
            _legend_marks(draw, image, key, x, y + 1)
        text_x = x + 54
        stamp_text(image, (text_x, y + 14), label, 17, INK, "lm", box=(text_x, y, x + column, y + LEGEND_ROW))
    return image
