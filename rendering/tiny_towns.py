"""Tiny Towns board images, drawn from the engine's view dict (its shape: games/tiny_towns/view.py).

``render_board(view)`` shows every town plus a side panel with the round, the resource and
the building cards; ``render_board(view, seat)`` shows that one town large with its score
breakdown. Every square is drawn once per distinct content and cached as a small tile, and
text is stamped from cached glyph masks, so a warm 6-player board costs a few pastes.

Colour is never the only cue: resources carry their letter, building families have their
own icon shape plus the (abbreviated) name, fed/unfed cottages show a full vs empty bowl.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from games.tiny_towns import MANIFEST
from games.tiny_towns.content import LETTER, RESOURCE_OF
from rendering import theme
from rendering.theme import (
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

COLUMNS = "ABCD"
SIDE = 4
FULL_CELL = 84  # square size on the all-towns board with 3 or more towns
# Fewer towns leave room beside the side panel, so their squares are drawn larger.
FEW_TOWNS_CELL = {1: 104, 2: 96}
FOCUS_CELL = 128
GAP = 12
SIDEBAR_WIDTH = 330
BREAKDOWN_WIDTH = 300
TEXT = theme.MIN_TEXT
LINE = theme.line_height(TEXT)
FOOTER = 2 * LINE + 10  # under each town: points per building, free squares, the cave
PANEL_FILL = (255, 254, 251)
EMPTY_FILL = (255, 255, 255)
NEGATIVE = (190, 60, 0)


def _palette_group(prefix: str) -> dict[str, Colour]:
    """The manifest's colours named ``<prefix>-<key>``, keyed by ``<key>`` in the manifest's order."""
    return {name.removeprefix(prefix): rgb for name, rgb in MANIFEST.palette.items() if name.startswith(prefix)}


# The game package owns its colours (MANIFEST.palette); the renderer only looks them up by name.
RESOURCE_COLOURS: dict[str, Colour] = _palette_group("resource-")
# By family (blue, red, gray, ... pink for monuments). Each family also has its own icon shape, so two
# similar tints are still told apart by shape and by the printed name.
BUILDING_COLOURS: dict[str, Colour] = _palette_group("building-")
# Fixed letter per resource so the colour is never the only cue: the rules' own letters (the ones
# building patterns are written in), so the board and /tt rules agree.
RESOURCE_LETTERS: dict[str, str] = dict(LETTER)
LETTER_TO_RESOURCE: dict[str, str] = dict(RESOURCE_OF)

# Shorter names tried when the printed name does not fit a square; data, not logic,
# so a wrong abbreviation is a one-line fix. Keyed by display name, not slug.
SHORT_NAMES: dict[str, str] = {
    "Archive of the Second Age": "Archive",
    "Cathedral of Caterina": "Cathedral",
    "Grand Mausoleum of the Rodina": "Mausoleum",
    "Obelisk of the Crescent": "Obelisk",
    "Shrine of the Elder Tree": "Shrine",
    "Statue of the Bondmaker": "Bondmaker",
    "The Sky Baths": "Sky Baths",
    "The Starloom": "Starloom",
    "Architect's Guild": "Architect",
    "Opaleye's Watch": "Opaleye",
    "Grove University": "Grove Univ.",
}

PHASES = {
    "monuments": "choosing monuments",
    "announce": "naming a resource",
    "place": "placing & building",
    "finished": "game over",
}


# --------------------------------------------------------------------------------------------
# Entry point


def render_board(view: dict[str, Any], focus: int | None = None) -> bytes:
    """PNG bytes: every town (``focus`` None) or seat ``focus``'s town large with its breakdown."""
    return theme.to_png_fast(board_image(view, focus), palette=_palette())


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """The PNG palette for every Tiny Towns board, built once from samples of everything a board
    draws: a cube of each resource, a building of each family (fed, unfed, holding cubes), a card
    of each family, the legend and chips. Mapping to a known palette is several times faster
    than building one for each image."""
    tiles: list[Image.Image] = []
    for resource in RESOURCE_COLOURS:
        tiles.append(_tile(json.dumps({"resource": resource}), "", FULL_CELL))
    for family in BUILDING_COLOURS:
        for content in (
            {"building": "x", "fed": True},
            {"building": "x", "fed": False, "stored": list(RESOURCE_COLOURS)[:3]},
        ):
            tiles.append(_tile(json.dumps(content, sort_keys=True), json.dumps(["Sample Name", family]), FULL_CELL))
        tiles.append(_card("Sample Name", family, ("WHB", "GS."), "secret"))
    tiles.append(_legend())
    scratch = theme.sheet(tiles, 1200, theme.BACKGROUND)
    chips = [HIGHLIGHT, (90, 90, 90), (0, 130, 90), (215, 215, 215), (255, 236, 190), PANEL_FILL, EMPTY_FILL]
    return theme.palette_from(
        scratch, [*theme.PLAYER_COLOURS, *chips, GRID, NEGATIVE, tint(BUILDING_COLOURS["pink"], 0.7)]
    )


def board_image(view: dict[str, Any], focus: int | None = None) -> Image.Image:
    """The RGB image behind ``render_board`` (before palette encoding)."""
    if focus is None:
        return _full_board(view)
    _check_focus(view, focus)
    return _focus_board(view, focus)


def cell_box(view: dict[str, Any], seat: int, index: int, focus: int | None = None) -> tuple[int, int, int, int]:
    """Pixel box (x0, y0, x1, y1), exclusive end, of square ``index`` (0 = A1) of ``seat``'s town."""
    if focus is None:
        count = max(1, len(view.get("towns") or []))
        x, y, cell = *_town_origin(count, seat), _full_cell(count)
    else:
        _check_focus(view, focus)
        if seat != focus:
            raise ValueError(f"seat {seat} is not shown in a view focused on seat {focus}")
        x, y, cell = GAP, GAP, FOCUS_CELL
    pad, header, gutter = _town_metrics(cell)
    grid_row, grid_column = divmod(index, SIDE)
    x0 = x + pad + gutter + grid_column * cell
    y0 = y + pad + header + gutter + grid_row * cell
    return x0, y0, x0 + cell, y0 + cell


def town_box(view: dict[str, Any], seat: int, focus: int | None = None) -> tuple[int, int, int, int]:
    """Pixel box (exclusive end) of ``seat``'s whole town panel: header, labels and grid."""
    cell = _full_cell(max(1, len(view.get("towns") or []))) if focus is None else FOCUS_CELL
    pad, header, gutter = _town_metrics(cell)
    x0, y0, _, _ = cell_box(view, seat, 0, focus)
    width, height = _town_size(cell)
    left, top = x0 - pad - gutter, y0 - pad - header - gutter
    return left, top, left + width, top + height


def _check_focus(view: dict[str, Any], focus: int) -> None:
    towns = view.get("towns") or []
    if isinstance(focus, bool) or not isinstance(focus, int) or not 0 <= focus < len(towns):
        raise ValueError(f"focus must be a seat between 0 and {len(towns) - 1}, got {focus!r}")


def _town_origin(count: int, seat: int) -> tuple[int, int]:
    """Top-left corner of ``seat``'s town on the all-towns board of ``count`` towns."""
    town_w, town_h = _town_size(_full_cell(count))
    row, column = divmod(seat, _grid_columns(count))
    return GAP + column * (town_w + GAP), GAP + row * (town_h + GAP)


def _full_cell(count: int) -> int:
    return FEW_TOWNS_CELL.get(count, FULL_CELL)


def _grid_columns(count: int) -> int:
    return {1: 1, 2: 2, 3: 3, 4: 2}.get(count, 3)


def _full_board(view: dict[str, Any]) -> Image.Image:
    towns = view.get("towns") or []
    count = max(1, len(towns))
    columns = _grid_columns(count)
    rows = math.ceil(count / columns)
    cell = _full_cell(count)
    town_w, town_h = _town_size(cell)
    sidebar = _sidebar(view)
    width = GAP + columns * (town_w + GAP) + SIDEBAR_WIDTH + GAP
    height = max(GAP + rows * (town_h + GAP), sidebar.height + 2 * GAP)
    image, draw = theme.new_canvas(width, height)
    for seat in range(len(towns)):
        _draw_town(image, draw, view, seat, *_town_origin(count, seat), cell)
    image.paste(sidebar, (width - SIDEBAR_WIDTH - GAP, GAP))
    return image


def _focus_board(view: dict[str, Any], seat: int) -> Image.Image:
    town_w, town_h = _town_size(FOCUS_CELL)
    sidebar = _sidebar(view)
    breakdown_x = GAP + town_w + GAP
    width = breakdown_x + BREAKDOWN_WIDTH + GAP + SIDEBAR_WIDTH + GAP
    height = max(town_h + 2 * GAP, sidebar.height + 2 * GAP)
    image, draw = theme.new_canvas(width, height)
    _draw_town(image, draw, view, seat, GAP, GAP, FOCUS_CELL)
    _draw_breakdown(image, draw, view, seat, (breakdown_x, GAP, breakdown_x + BREAKDOWN_WIDTH, GAP + town_h))
    image.paste(sidebar, (width - SIDEBAR_WIDTH - GAP, GAP))
    return image


# --------------------------------------------------------------------------------------------
# Towns


def _town_metrics(cell: int) -> tuple[int, int, int]:
    """(padding, header height, label gutter) for a town drawn at ``cell`` pixels a square."""
    return 8, _name_size(cell) + 10 + CHIP_H + 6, max(28, round(cell * 0.3))


CHIP_H = TEXT + 8


def _name_size(cell: int) -> int:
    return max(20, round(cell * 0.25))


def _town_size(cell: int) -> tuple[int, int]:
    pad, header, gutter = _town_metrics(cell)
    return pad + gutter + SIDE * cell + pad, pad + header + gutter + SIDE * cell + FOOTER + pad


def _draw_town(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], seat: int, x: int, y: int, cell: int
) -> None:
    town = view["towns"][seat]
    catalog = view.get("catalog") or {}
    pad, header, gutter = _town_metrics(cell)
    width, height = _town_size(cell)
    is_viewer = view.get("viewer") == seat
    draw.rounded_rectangle(
        (x, y, x + width - 1, y + height - 1),
        radius=8,
        fill=PANEL_FILL,
        outline=HIGHLIGHT if is_viewer else GRID,
        width=3 if is_viewer else 1,
    )

    name_size = _name_size(cell)
    resigned = bool(town.get("resigned"))
    draw.rectangle((x + pad, y + pad, x + pad + 5, y + pad + name_size + 2), fill=player_colour(seat))
    score = f"{_points(view, town)} VP"
    stamp_text(image, (x + width - pad, y + pad), score, name_size, INK, "ra")
    name = str(town.get("player") or _player_name(view, seat)) + (" (you)" if is_viewer else "")
    room = width - 2 * pad - 14 - text_width(score, name_size) - 8
    stamp_text(
        image,
        (x + pad + 12, y + pad),
        theme.fit_lines(name, name_size, room, 1)[0],
        name_size,
        MUTED if resigned else INK,
    )

    chip_size = TEXT
    chip_y = y + pad + name_size + 10
    _draw_chips(image, draw, _town_chips(view, seat, catalog), x + pad, chip_y, x + width - pad, chip_size)

    grid_x, grid_y = x + pad + gutter, y + pad + header + gutter
    # Square names are typed in commands (place B2), so they get the typed size.
    label_size = theme.MIN_TYPED
    for column, letter in enumerate(COLUMNS):
        stamp_text(
            image, (grid_x + column * cell + cell / 2, grid_y - gutter / 2), letter, label_size, INK, "mm", typed=True
        )
    for row in range(SIDE):
        stamp_text(
            image,
            (grid_x - gutter / 2, grid_y + row * cell + cell / 2),
            str(row + 1),
            label_size,
            INK,
            "mm",
            typed=True,
        )
    cells = town.get("cells") or []
    for index in range(SIDE * SIDE):
        content = cells[index] if index < len(cells) else None
        row, column = divmod(index, SIDE)
        image.paste(_tile_for(content, catalog, cell), (grid_x + column * cell, grid_y + row * cell))
    for i in range(SIDE + 1):
        draw.line((grid_x + i * cell, grid_y, grid_x + i * cell, grid_y + SIDE * cell), fill=GRID)
        draw.line((grid_x, grid_y + i * cell, grid_x + SIDE * cell, grid_y + i * cell), fill=GRID)
    footer = (x + pad, grid_y + SIDE * cell + 4, x + width - pad, grid_y + SIDE * cell + FOOTER)
    theme.draw_text(image, footer, _footer_text(view, seat), TEXT, INK, align="l", max_lines=2)


def _points(view: dict[str, Any], town: dict[str, Any]) -> int:
    """The town's score; during play without the end-of-game "Empty squares" penalty, so the
    header adds up to the points per building shown under the town."""
    score = int(town.get("score", 0))
    if view.get("finished") or view.get("phase") == "finished":
        return score
    return score - int((town.get("breakdown") or {}).get("Empty squares", 0))


def _footer_text(view: dict[str, Any], seat: int) -> str:
    """Where the town's points come from: points per building; free squares during play, the
    "Empty squares" penalty only at the end; the cave when it is in use; a solo title."""
    town = view["towns"][seat]
    finished = bool(view.get("finished")) or view.get("phase") == "finished"
    parts = []
    for label, points in (town.get("breakdown") or {}).items():
        if label == "Empty squares" and not finished:
            continue
        parts.append(f"{label} {points}")
    if not finished:
        free = sum(1 for cell in (town.get("cells") or []) if cell is None)
        parts.append(f"free squares: {free}")
    if view.get("cave_rule") or town.get("cave_used"):
        held = ", ".join(str(r) for r in town.get("cave") or []) or "empty"
        parts.append(f"cave: {held} ({town.get('cave_used', 0)} of 2 used)")
    if town.get("title"):
        parts.append(f"title: {town['title']}")
    return " · ".join(parts) or "no points yet"


def _player_name(view: dict[str, Any], seat: int | None) -> str:
    names = view.get("names") or []
    if seat is None or not 0 <= seat < len(names):
        return "?"
    return str(names[seat])


# (texts to try, longest first; fill; text colour; icon kind)
Chip = tuple[tuple[str, ...], Colour, Colour, str | None]


def _town_chips(view: dict[str, Any], seat: int, catalog: dict[str, Any]) -> list[Chip]:
    town = view["towns"][seat]
    chips: list[Chip] = []
    rank = town.get("rank")
    if town.get("title"):
        chips.append(((str(town["title"]),), HIGHLIGHT, INK, "star"))
    elif isinstance(rank, int) and not town.get("resigned"):
        suffix = "th" if 10 <= rank % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
        if rank == 1 and len(view.get("towns") or []) > 1:
            chips.append(((f"{rank}{suffix} - WINNER", f"{rank}{suffix}"), HIGHLIGHT, INK, "star"))
        else:
            chips.append(((f"{rank}{suffix}",), (215, 215, 215), INK, None))
    if view.get("master_builder") == seat and not view.get("finished"):
        chips.append((("MB",), HIGHLIGHT, INK, "hammer"))
    if town.get("resigned"):
        chips.append((("KICKED",) if town.get("kicked") else ("RESIGNED",), (90, 90, 90), WHITE, None))
    elif town.get("complete"):
        chips.append((("COMPLETE",), (0, 130, 90), WHITE, None))
    elif town.get("done"):
        chips.append((("DONE",), (215, 215, 215), INK, None))
    elif view.get("phase") == "place" and not town.get("placed"):
        chips.append((("TO PLACE",), WHITE, INK, None))
    elif view.get("phase") == "place":
        # Placed but not done (also after an undo of "done"): may still build, then says done.
        chips.append((("PLACED - NOT DONE", "PLACED"), (255, 236, 190), INK, None))
    monument = town.get("monument")
    if monument:
        entry = catalog.get(monument) or {}
        state = "built" if town.get("monument_built") else "secret"
        name = entry.get("name") or _title(monument)
        short = SHORT_NAMES.get(name, name)
        chips.append(
            (
                (f"{name} ({state})", f"{short} ({state})", short),
                tint(BUILDING_COLOURS["pink"], 0.7),
                INK,
                "star",
            )
        )
    return chips


def _draw_chips(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    chips: Sequence[Chip],
    x: float,
    y: float,
    right: float,
    size: int,
) -> None:
    height = size + 8
    for texts, fill, fg, icon in chips:
        icon_w = height - 4 if icon else 0
        room = right - x - icon_w - 12
        if room < size * 2:
            return
        fitting = [text for text in texts if text_width(text, size) <= room]
        label = fitting[0] if fitting else theme.fit_lines(texts[-1], size, room, 1)[0]
        width = icon_w + text_width(label, size) + 12
        outline = INK if fill == WHITE else shade(fill, 0.3)
        draw.rounded_rectangle((x, y, x + width, y + height), radius=4, fill=fill, outline=outline)
        if icon:
            _icon(
                draw,
                "hammer" if icon == "hammer" else "pink",
                (x + 4, y + 3, x + 2 + icon_w, y + height - 3),
                INK if icon == "hammer" else BUILDING_COLOURS["pink"],
            )
        stamp_text(image, (x + 6 + icon_w, y + height / 2), label, size, fg, "lm", box=(x, y, x + width, y + height))
        x += width + 6


def _title(slug: str) -> str:
    return slug.replace("-", " ").title()


# --------------------------------------------------------------------------------------------
# Squares


def _tile_for(content: Any, catalog: dict[str, Any], cell: int) -> Image.Image:
    if content is None:
        return _tile("null", "", cell)
    if isinstance(content, dict) and len(content) == 1 and isinstance(content.get("resource"), str):
        # Most squares hold one resource: their key is made once, not by json.dumps every time.
        return _tile(_resource_key(content["resource"]), "", cell)
    entry = ""
    if isinstance(content, dict) and "building" in content:
        info = catalog.get(content["building"]) or {}
        entry = json.dumps([info.get("name") or _title(str(content["building"])), info.get("colour") or "gray"])
    return _tile(json.dumps(content, sort_keys=True), entry, cell)


@lru_cache(maxsize=64)
def _resource_key(resource: str) -> str:
    return json.dumps({"resource": resource}, sort_keys=True)


@lru_cache(maxsize=1024)
def _tile(content_key: str, entry_key: str, cell: int) -> Image.Image:
    # Keyed by the square's JSON: the same square looks the same in every town and every turn.
    image = Image.new("RGB", (cell, cell), EMPTY_FILL)
    content = json.loads(content_key)
    if not isinstance(content, dict):
        return image
    draw = ImageDraw.Draw(image)
    if "building" not in content:
        inset = round(cell * 0.14)
        _cube(
            image,
            draw,
            (inset, inset, cell - inset, cell - inset),
            str(content.get("resource", "")),
            round(cell * 0.42),
        )
        return image
    name, colour = json.loads(entry_key)
    _draw_building(image, draw, content, name, colour, cell)
    return image


def _draw_building(
    image: Image.Image, draw: ImageDraw.ImageDraw, content: dict[str, Any], name: str, family: str, cell: int
) -> None:
    base = BUILDING_COLOURS.get(family, BUILDING_COLOURS["gray"])
    dark = family == "black"
    background = (85, 85, 85) if dark else tint(base, 0.72)
    draw.rectangle((0, 0, cell - 1, cell - 1), fill=background)
    border = max(2, cell // 28)
    draw.rectangle((1, 1, cell - 2, cell - 2), outline=shade(base, 0.25) if not dark else INK, width=border)

    marker = max(22, round(cell * 0.24))  # holds a 16 px resource letter
    edge = border + 2
    held = [content["holds"]] if content.get("holds") else []
    cubes = list(content.get("stored") or []) + list(content.get("bond") or [])
    # Warehouse: always three slots, hollow when free, so its fill level reads at a glance.
    slots = 3 if "stored" in content else len(held) + len(cubes)
    strip = [*held, *cubes][:3]
    name_top = cell - edge - 2 * LINE - 1
    icon_box = (cell * 0.28, cell * 0.06, cell * 0.72, name_top - 2)
    if slots > 1:
        icon_box = (cell * 0.28, edge + marker + 2, cell * 0.72, name_top - 2)
    elif "fed" in content:
        # The bowl sits top-left, so the icon moves right (or shrinks if a cube is top-right).
        icon_box = (cell * 0.36, cell * 0.06, cell - edge - (marker + 2 if slots else 0), name_top - 2)
    _icon(draw, family, icon_box, base if not dark else WHITE)
    if "fed" in content:
        bowl = round(cell * 0.28)
        _bowl(draw, (edge, edge, edge + bowl, edge + bowl), bool(content["fed"]))
    for i in range(slots):
        x1 = cell - edge - i * (marker + 1)
        box = (x1 - marker, edge, x1, edge + marker)
        if i < len(strip):
            _cube(image, draw, box, str(strip[i]), TEXT)
        else:
            draw.rectangle(box, fill=background, outline=WHITE if dark else INK)

    box = (edge + 1, name_top, cell - edge - 1, cell - edge)
    short = SHORT_NAMES.get(name, name)
    fits = theme.wrap_lines(name, TEXT, box[2] - box[0], 2)
    theme.draw_text(image, box, name if fits else short, TEXT, WHITE if dark else INK, max_lines=2)


def _cube(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, resource: str, size: int) -> None:
    colour = RESOURCE_COLOURS.get(resource, (200, 200, 200))
    draw.rectangle(box, fill=colour, outline=shade(colour, 0.45), width=max(1, round((box[2] - box[0]) / 20)))
    letter = RESOURCE_LETTERS.get(resource, "?")
    stamp_text(image, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2 + 1), letter, size, text_colour_on(colour), "mm")


def _bowl(draw: ImageDraw.ImageDraw, box: Box, fed: bool) -> None:
    """Fed: a full bowl (grain heaped above the rim). Unfed: an empty bowl, struck through."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    rim = y0 + h * 0.45
    if fed:
        draw.pieslice(
            (x0 + w * 0.14, rim - h * 0.45, x1 - w * 0.14, rim + h * 0.45),
            180,
            360,
            fill=RESOURCE_COLOURS["wheat"],
            outline=INK,
        )
    draw.pieslice(
        (x0, rim - h * 0.55, x1, y1),
        0,
        180,
        fill=INK if fed else WHITE,
        outline=INK,
        width=max(1, round(w / 10)),
    )
    if not fed:
        draw.line((x0, y1, x1, y0), fill=INK, width=max(1, round(w / 9)))


# --------------------------------------------------------------------------------------------
# Icons: one simple shape per building family, so shape identifies the family without colour.


def _icon(draw: ImageDraw.ImageDraw, kind: str, box: Box, colour: Colour) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    # Keep the art square and centred whatever box it gets.
    side = min(w, h)
    x0, y0 = x0 + (w - side) / 2, y0 + (h - side) / 2
    x1, y1, s = x0 + side, y0 + side, side
    xc = x0 + s / 2
    line = max(1, round(s / 24))
    if kind == "blue":  # cottage: house with a door
        draw.polygon([(x0, y0 + s * 0.48), (xc, y0 + s * 0.08), (x1, y0 + s * 0.48)], fill=colour, outline=INK)
        draw.rectangle((x0 + s * 0.15, y0 + s * 0.48, x1 - s * 0.15, y1), fill=colour, outline=INK)
        draw.rectangle((xc - s * 0.1, y0 + s * 0.68, xc + s * 0.1, y1), fill=WHITE, outline=INK)
    elif kind == "red":  # farm: barn with a crossed door
        draw.polygon(
            [
                (x0 + s * 0.08, y1),
                (x0 + s * 0.08, y0 + s * 0.4),
                (x0 + s * 0.3, y0 + s * 0.14),
                (x1 - s * 0.3, y0 + s * 0.14),
                (x1 - s * 0.08, y0 + s * 0.4),
                (x1 - s * 0.08, y1),
            ],
            fill=colour,
            outline=INK,
        )
        door = (xc - s * 0.2, y0 + s * 0.55, xc + s * 0.2, y1)
        draw.rectangle(door, fill=WHITE, outline=INK)
        draw.line((door[0], door[1], door[2], door[3]), fill=INK, width=line)
        draw.line((door[0], door[3], door[2], door[1]), fill=INK, width=line)
    elif kind == "gray":  # well: roof on two posts over a round well
        draw.polygon(
            [(x0 + s * 0.1, y0 + s * 0.3), (xc, y0 + s * 0.05), (x1 - s * 0.1, y0 + s * 0.3)],
            fill=colour,
            outline=INK,
        )
        for px in (x0 + s * 0.22, x1 - s * 0.22):
            draw.line((px, y0 + s * 0.3, px, y0 + s * 0.62), fill=INK, width=line + 1)
        draw.ellipse((x0 + s * 0.08, y0 + s * 0.5, x1 - s * 0.08, y1), fill=colour, outline=INK)
        draw.ellipse((x0 + s * 0.25, y0 + s * 0.6, x1 - s * 0.25, y1 - s * 0.12), fill=INK)
    elif kind == "orange":  # chapel: steeple with a cross
        draw.rectangle((xc - s * 0.17, y0 + s * 0.5, xc + s * 0.17, y1), fill=colour, outline=INK)
        draw.polygon(
            [(xc - s * 0.24, y0 + s * 0.5), (xc, y0 + s * 0.16), (xc + s * 0.24, y0 + s * 0.5)],
            fill=colour,
            outline=INK,
        )
        draw.line((xc, y0, xc, y0 + s * 0.16), fill=INK, width=line + 1)
        draw.line((xc - s * 0.08, y0 + s * 0.06, xc + s * 0.08, y0 + s * 0.06), fill=INK, width=line + 1)
        draw.pieslice((xc - s * 0.08, y0 + s * 0.7, xc + s * 0.08, y0 + s * 0.86), 180, 360, fill=WHITE)
        draw.rectangle((xc - s * 0.08, y0 + s * 0.78, xc + s * 0.08, y1), fill=WHITE, outline=INK)
    elif kind == "green":  # tavern: beer mug with foam and a handle
        draw.ellipse((x0 + s * 0.52, y0 + s * 0.38, x0 + s * 0.9, y0 + s * 0.8), outline=INK, width=line + 2)
        draw.rectangle((x0 + s * 0.15, y0 + s * 0.25, x0 + s * 0.65, y1), fill=colour, outline=INK)
        for fx in (0.15, 0.32, 0.49):
            draw.ellipse((x0 + s * fx, y0 + s * 0.1, x0 + s * (fx + 0.2), y0 + s * 0.32), fill=WHITE, outline=INK)
    elif kind == "yellow":  # theater / shop: striped awning over a shop front
        draw.rectangle((x0 + s * 0.1, y0 + s * 0.45, x1 - s * 0.1, y1), fill=WHITE, outline=INK)
        draw.rectangle((xc - s * 0.12, y0 + s * 0.62, xc + s * 0.12, y1), fill=colour, outline=INK)
        stripes = 4
        sw = s / stripes
        for i in range(stripes):
            fill = colour if i % 2 == 0 else WHITE
            draw.rectangle((x0 + i * sw, y0 + s * 0.12, x0 + (i + 1) * sw, y0 + s * 0.38), fill=fill)
            draw.pieslice((x0 + i * sw, y0 + s * 0.28, x0 + (i + 1) * sw, y0 + s * 0.5), 0, 180, fill=fill, outline=INK)
        draw.rectangle((x0, y0 + s * 0.12, x1, y0 + s * 0.39), outline=INK)
    elif kind == "black":  # factory: saw-tooth roof and a smoking chimney
        draw.rectangle((x1 - s * 0.28, y0 + s * 0.12, x1 - s * 0.12, y0 + s * 0.6), fill=colour, outline=INK)
        draw.ellipse((x1 - s * 0.3, y0 - s * 0.02, x1 - s * 0.14, y0 + s * 0.12), fill=(200, 200, 200))
        draw.polygon(
            [
                (x0, y1),
                (x0, y0 + s * 0.45),
                (x0 + s * 0.3, y0 + s * 0.28),
                (x0 + s * 0.3, y0 + s * 0.45),
                (x0 + s * 0.6, y0 + s * 0.28),
                (x0 + s * 0.6, y0 + s * 0.45),
                (x1, y0 + s * 0.45),
                (x1, y1),
            ],
            fill=colour,
            outline=INK,
        )
        for wx in (0.12, 0.42, 0.72):
            draw.rectangle((x0 + s * wx, y0 + s * 0.62, x0 + s * (wx + 0.14), y0 + s * 0.78), fill=INK)
    elif kind == "hammer":  # Master Builder's hammer
        draw.rectangle((xc - s * 0.1, y0 + s * 0.3, xc + s * 0.1, y1), fill=(150, 100, 50), outline=colour)
        draw.rectangle((x0 + s * 0.05, y0, x1 - s * 0.05, y0 + s * 0.36), fill=colour)
    else:  # pink / monument (and anything unknown): a five-point star
        points = []
        for i in range(10):
            radius = s * (0.5 if i % 2 == 0 else 0.2)
            angle = -math.pi / 2 + i * math.pi / 5
            points.append((xc + radius * math.cos(angle), y0 + s * 0.53 + radius * math.sin(angle)))
        draw.polygon(points, fill=colour, outline=INK)


# --------------------------------------------------------------------------------------------
# Side panel: round, resource, Master Builder, building cards, visible monuments


def _sidebar(view: dict[str, Any]) -> Image.Image:
    catalog = view.get("catalog") or {}
    width = SIDEBAR_WIDTH
    blocks: list[Image.Image] = [_status_block(view)]
    blocks.append(_heading("Buildings in play"))
    for slug in view.get("buildings") or []:
        blocks.append(_card_for(slug, catalog, ""))
    monuments = []
    for seat, town in enumerate(view.get("towns") or []):
        if town.get("monument"):
            state = "built" if town.get("monument_built") else "secret"
            monuments.append((town["monument"], f"{town.get('player') or _player_name(view, seat)}, {state}"))
    if monuments:
        blocks.append(_heading("Monuments"))
        blocks.extend(_card_for(slug, catalog, subtitle) for slug, subtitle in monuments)
    for seat, town in enumerate(view.get("towns") or []):
        options = town.get("monument_options")
        if options:
            player = town.get("player") or _player_name(view, seat)
            blocks.append(_heading(f"{player}: keep one monument"))
            blocks.extend(_card_for(slug, catalog, "option") for slug in options)
    blocks.append(_heading("Legend"))
    blocks.append(_legend())
    height = sum(block.height for block in blocks) + 6 * (len(blocks) - 1) + 16
    panel, draw = theme.new_canvas(width, height)
    draw.rounded_rectangle((0, 0, width - 1, height - 1), radius=8, fill=PANEL_FILL, outline=GRID)
    y = 8
    for block in blocks:
        panel.paste(block, (8, y))
        y += block.height + 6
    return panel


def _status_block(view: dict[str, Any]) -> Image.Image:
    width = SIDEBAR_WIDTH - 16
    lines: list[tuple[str, Any]] = []
    if view.get("master_builder") is not None:
        lines.append(("mb", f"Master Builder: {_player_name(view, view['master_builder'])}"))
    hall = view.get("town_hall")
    if hall:
        cycle = f", round {hall['cycle_round']} of 3" if hall.get("cycle_round") else ""
        lines.append(("text", f"Mayor: {_player_name(view, hall.get('mayor'))}{cycle}"))
        lines.append(("text", f"Deck: {hall.get('draw_pile', 0)} left, {hall.get('discards', 0)} discarded"))
        if hall.get("revealed") and hall["revealed"] != view.get("resource"):
            lines.append(("cubes", ("Mayor drew", [hall["revealed"]])))
    resource = view.get("resource")
    if resource:
        lines.append(("cubes", ("Resource", [resource])))
    elif view.get("free_choice"):
        lines.append(("text", "Resource: each player picks"))
    elif view.get("phase") in ("announce", "place"):
        lines.append(("text", "Resource: not named yet"))
    solo = view.get("solo")
    if solo and solo.get("revealed"):
        lines.append(("cubes", ("Revealed", list(solo["revealed"]))))
    line_h = 28
    height = 34 + 26 + line_h * len(lines)
    image, draw = theme.new_canvas(width, height)
    draw.rectangle((0, 0, width, height), fill=PANEL_FILL)
    round_text = "Final board" if view.get("finished") else f"Round {view.get('round', 1)}"
    stamp_text(image, (0, 0), round_text, 26, INK)
    phase = f"Phase: {PHASES.get(view.get('phase') or '', view.get('phase') or '?')}"
    theme.draw_text(image, (0, 34, width, 58), phase, 18, INK, align="l", max_lines=1)
    y = 60
    for kind, payload in lines:
        if kind == "mb":
            _icon(draw, "hammer", (0, y + 2, 20, y + 22), INK)
            theme.draw_text(image, (26, y, width, y + 24), payload, 18, INK, align="l", max_lines=1)
        elif kind == "cubes":
            label, resources = payload
            stamp_text(image, (0, y + 12), f"{label}:", 18, INK, "lm")
            x = text_width(f"{label}:", 18) + 8
            for res in resources:
                _cube(image, draw, (x, y + 1, x + 24, y + 25), str(res), TEXT)
                x += 28
            if len(resources) == 1:
                theme.draw_text(image, (x + 2, y, width, y + 24), str(resources[0]), 18, INK, align="l", max_lines=1)
        else:
            theme.draw_text(image, (0, y, width, y + 24), payload, 18, INK, align="l", max_lines=1)
        y += line_h
    return image


@lru_cache(maxsize=64)
def _heading(text: str) -> Image.Image:
    width = SIDEBAR_WIDTH - 16
    image, draw = theme.new_canvas(width, 28)
    draw.rectangle((0, 0, width, 28), fill=PANEL_FILL)
    theme.draw_text(image, (0, 0, width, 25), text, 20, INK, align="l", max_lines=1)
    draw.line((0, 26, width, 26), fill=GRID)
    return image


@lru_cache(maxsize=1)
def _legend() -> Image.Image:
    """Resource letters and colours, fed and unfed Cottages, the Master Builder and monuments."""
    width = SIDEBAR_WIDTH - 16
    rows = 3 + 2
    image, draw = theme.new_canvas(width, rows * 28)
    draw.rectangle((0, 0, width, rows * 28), fill=PANEL_FILL)
    resources = list(RESOURCE_LETTERS)
    column_w = width / 2
    for i, resource in enumerate(resources):
        x, y = (i % 2) * column_w, (i // 2) * 28
        _cube(image, draw, (x, y + 2, x + 24, y + 26), resource, TEXT)
        label = f"{RESOURCE_LETTERS[resource]} = {resource}"
        theme.draw_text(image, (x + 30, y, x + column_w - 4, y + 28), label, TEXT, INK, align="l", max_lines=1)
    y = 3 * 28
    for i, (fed, label) in enumerate(((True, "fed Cottage"), (False, "unfed: 0 VP"))):
        x = i * column_w
        _bowl(draw, (x, y + 3, x + 22, y + 25), fed)
        theme.draw_text(image, (x + 30, y, x + column_w - 4, y + 28), label, TEXT, INK, align="l", max_lines=1)
    y += 28
    _icon(draw, "hammer", (0, y + 3, 22, y + 25), INK)
    theme.draw_text(image, (30, y, column_w - 4, y + 28), "Master Builder", TEXT, INK, align="l", max_lines=1)
    _icon(draw, "pink", (column_w, y + 3, column_w + 22, y + 25), BUILDING_COLOURS["pink"])
    theme.draw_text(image, (column_w + 30, y, width, y + 28), "monument", TEXT, INK, align="l", max_lines=1)
    return image


def _card_for(slug: str, catalog: dict[str, Any], subtitle: str) -> Image.Image:
    entry = catalog.get(slug) or {}
    pattern = tuple(str(row) for row in entry.get("pattern") or ())
    return _card(entry.get("name") or _title(slug), entry.get("colour") or "gray", pattern, subtitle)


@lru_cache(maxsize=256)
def _card(name: str, family: str, pattern: tuple[str, ...], subtitle: str) -> Image.Image:
    width = SIDEBAR_WIDTH - 16
    square = 21  # holds a 16 px resource letter
    columns = max((len(row) for row in pattern), default=0)
    pattern_w = columns * (square + 1)
    pattern_h = len(pattern) * (square + 1)
    text_room = width - 40 - pattern_w - 10
    lines = (
        theme.wrap_lines(name, TEXT, text_room, 2)
        or theme.wrap_lines(SHORT_NAMES.get(name, name), TEXT, text_room, 2)
        or theme.fit_lines(SHORT_NAMES.get(name, name), TEXT, text_room, 2)
    )
    name_size = TEXT
    block_h = len(lines) * LINE + (LINE if subtitle else 0)
    height = max(46, pattern_h + 12, block_h + 12)
    base = BUILDING_COLOURS.get(family, BUILDING_COLOURS["gray"])
    image, draw = theme.new_canvas(width, height)
    draw.rectangle((0, 0, width, height), fill=PANEL_FILL)
    draw.rounded_rectangle(
        (0, 0, width - 1, height - 1),
        radius=5,
        fill=tint(base, 0.6 if family == "black" else 0.82),
        outline=shade(base, 0.2),
        width=2,
    )
    _icon(draw, family, (6, height / 2 - 13, 32, height / 2 + 13), base)
    ty = (height - block_h) / 2
    for i, line in enumerate(lines):
        stamp_text(image, (40, ty + i * LINE), line, name_size, INK)
    if subtitle:
        sub_y = ty + len(lines) * LINE
        theme.draw_text(image, (40, sub_y, 40 + text_room, sub_y + LINE), subtitle, TEXT, INK, align="l", max_lines=1)
    px = width - 8 - pattern_w
    py = (height - pattern_h) / 2
    for r, row in enumerate(pattern):
        for c, char in enumerate(row):
            box = (
                px + c * (square + 1),
                py + r * (square + 1),
                px + c * (square + 1) + square,
                py + r * (square + 1) + square,
            )
            resource = LETTER_TO_RESOURCE.get(char.upper())
            if resource:
                _cube(image, draw, box, resource, TEXT)
            else:
                draw.rectangle(box, outline=tint(base, 0.55))
    return image


# --------------------------------------------------------------------------------------------
# Focus view: the breakdown beside the large town


def _draw_breakdown(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], seat: int, box: Box) -> None:
    town = view["towns"][seat]
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=8, fill=PANEL_FILL, outline=GRID)
    pad = 12
    stamp_text(image, (x0 + pad, y0 + pad), "Score breakdown", 20, INK)
    y = y0 + pad + 34
    size = 18
    breakdown = dict(town.get("breakdown") or {})
    finished = bool(view.get("finished"))
    if not finished:
        # "Empty squares" is an end-of-game penalty; during play the free squares are shown below.
        breakdown.pop("Empty squares", None)
    for label, points in breakdown.items():
        value = str(points)
        stamp_text(image, (x1 - pad, y), value, size, NEGATIVE if value.startswith("-") else INK, "ra")
        room = x1 - x0 - 2 * pad - text_width(value, size) - 10
        stamp_text(image, (x0 + pad, y), theme.fit_lines(str(label), size, room, 1)[0], size, INK)
        y += size + 8
    draw.line((x0 + pad, y, x1 - pad, y), fill=INK)
    y += 6
    stamp_text(image, (x0 + pad, y), "Total" if finished else "Total so far", 20, INK)
    total = _points(view, town)
    stamp_text(image, (x1 - pad, y), f"{total} VP", 20, INK, "ra")
    y += 36
    facts = [f"Times Master Builder: {town.get('times_master_builder', 0)}"]
    if view.get("cave_rule") or town.get("cave_used"):
        cave = ", ".join(str(r) for r in town.get("cave") or []) or "empty"
        facts.append(f"Cave: {cave} ({town.get('cave_used', 0)} of 2 used)")
    if town.get("rank"):
        facts.append(f"Final rank: {town['rank']}" + (f", title: {town['title']}" if town.get("title") else ""))
    if town.get("aside"):
        names = ", ".join(_name(slug, view) for slug in town["aside"])
        facts.append(f"Set aside: {names}")
    # Squares still free for a cube; not the scoring "empty squares", which also counts cubes.
    free = sum(1 for cell in (town.get("cells") or []) if cell is None)
    if not finished:
        facts.append(f"free squares: {free}")
    for fact in facts:
        for line in theme.fit_lines(fact, TEXT, x1 - x0 - 2 * pad, 2):
            if y + LINE > y1 - pad:
                return
            stamp_text(image, (x0 + pad, y), line, TEXT, INK)
            y += LINE
        y += 4


def _name(slug: str, view: dict[str, Any]) -> str:
    return str(((view.get("catalog") or {}).get(slug) or {}).get("name") or _title(slug))
