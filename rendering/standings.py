"""The end-of-game summary for any game: final standings and each player's score as a stacked bar.

One row per player in rank order: rank (a crown for the winner), the player's marker (colour,
shape and letter), name, total, and a horizontal bar stacked from the game's own ``standings()``
breakdown labels (Tiny Towns by building, Trains by cities / remote locations / VP cards / track
VP). Negative parts (Tiny Towns' empty squares) go left of the zero line. Every segment has a
colour and a pattern, and its value printed when it fits; a legend names them. A closing line
says who won and how ties were broken. Pillow only.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

import games
from games.base import IllegalMove
from rendering import theme
from rendering.theme import GRID, HIGHLIGHT, INK, MUTED, WHITE, draw_player_marker, draw_text, stamp_text, text_width

PAD = 16
WIDTH = 1100
ROW = 58
BAR_H = 34
NAME_W = 300  # rank, marker, name
TOTAL_W = 80
TITLE_H = 48
NEGATIVE = (190, 60, 0)

# Distinct segment colours (Okabe–Ito extended with light tones); patterns repeat every 4 so
# neighbouring segments differ in pattern as well as colour.
SEGMENT_COLOURS: tuple[tuple[int, int, int], ...] = (
    (86, 180, 233),
    (230, 159, 0),
    (0, 158, 115),
    (240, 228, 66),
    (204, 121, 167),
    (0, 114, 178),
    (213, 94, 0),
    (170, 170, 170),
    (140, 200, 160),
    (250, 190, 140),
    (180, 160, 220),
    (120, 120, 60),
)
PATTERNS = ("solid", "stripes", "dots", "cross")


def render_standings(view: dict[str, Any], standings: list[dict[str, Any]]) -> bytes:
    """PNG of ``standings`` (a game's standings(): rank order, each with a breakdown)."""
    return theme.to_png_fast(standings_image(view, standings))


def _labels(standings: list[dict[str, Any]]) -> list[str]:
    labels: list[str] = []
    for entry in standings:
        for label, value in (entry.get("breakdown") or {}).items():
            if str(label) not in labels and isinstance(value, int | float):
                labels.append(str(label))
    return labels


def standings_image(view: dict[str, Any], standings: list[dict[str, Any]]) -> Image.Image:
    slug = str(view.get("game") or "")
    labels = _labels(standings)
    legend_rows = _legend_layout(labels)
    finished = bool(view.get("phase") in ("finished", "over") or view.get("finished"))
    notes = _notes(
        slug,
        finished,
        [{**e, "player": _name(view, e), "title": e.get("title") or _left(view, e.get("seat"))} for e in standings],
    )
    height = PAD + TITLE_H + max(1, len(standings)) * ROW + 12 + len(legend_rows) * 30 + len(notes) * 26 + PAD
    image, draw = theme.new_canvas(WIDTH, height)

    game, accent = _game_look(slug)
    stamp_text(image, (PAD, PAD), f"{game}: {'final standings' if finished else 'standings'}", 26, INK)
    if accent is not None:
        # The game's own colour underlines the heading; the text stays ink so it always reads.
        draw.rectangle((PAD, PAD + TITLE_H - 12, WIDTH - PAD, PAD + TITLE_H - 9), fill=accent)
    if view.get("round") and not finished:
        stamp_text(image, (WIDTH - PAD, PAD + 4), f"round {view['round']}", 18, MUTED, "ra")
    top = PAD + TITLE_H
    if not standings:
        stamp_text(image, (PAD, top + 8), "No players.", 18, MUTED)
        return image

    values = [[_number((e.get("breakdown") or {}).get(label)) for label in labels] for e in standings]
    most = max([sum(v for v in row if v > 0) for row in values] + [1])
    least = max([sum(-v for v in row if v < 0) for row in values] + [0])
    bar_x0 = PAD + NAME_W + TOTAL_W + 10
    bar_w = WIDTH - PAD - bar_x0
    scale = bar_w / (most + least)
    zero = bar_x0 + least * scale

    for r, entry in enumerate(standings):
        y = top + r * ROW
        if r % 2:
            draw.rectangle((PAD, y, WIDTH - PAD, y + ROW), fill=(244, 240, 230))
        middle = y + ROW / 2
        draw_text(image, (PAD + 2, y, PAD + 58, y + ROW), _ordinal(entry, standings), 22, INK, align="l", max_lines=1)
        if entry.get("rank") == 1 and entry.get("title") not in ("resigned", "kicked"):
            _crown(draw, PAD + 66, middle)
        seat = entry.get("seat")
        name = _name(view, entry)
        if isinstance(seat, int):
            draw_player_marker(image, seat, (PAD + 100, middle), 14, name[:1].upper())
        title = str(entry.get("title") or _left(view, seat) or "")
        name_box = (PAD + 122, y + 2, PAD + NAME_W, y + ROW - 2)
        draw_text(image, name_box, f"{name} ({title})" if title else name, 22, INK, align="l", max_lines=2)
        total_box = (PAD + NAME_W, y, PAD + NAME_W + TOTAL_W, y + ROW)
        draw_text(image, total_box, str(entry.get("score", 0)), 26, INK, align="r", max_lines=1)
        _bar(image, draw, values[r], zero, scale, middle)
    axis_bottom = top + len(standings) * ROW
    draw.line((zero, top, zero, axis_bottom), fill=INK, width=2)

    y = axis_bottom + 12
    for row in legend_rows:
        x: float = PAD
        for index, label, w in row:
            _segment(draw, (x, y + 3, x + 24, y + 25), index)
            draw.rectangle((x, y + 3, x + 24, y + 25), outline=INK)
            stamp_text(image, (x + 30, y + 14), label, 18, INK, "lm", box=(x + 28, y, x + w, y + 30))
            x += w
        y += 30
    for note in notes:
        draw_text(image, (PAD, y, WIDTH - PAD, y + 26), note, 18, INK, align="l", max_lines=1)
        y += 26
    return image


def _legend_layout(labels: list[str]) -> list[list[tuple[int, str, float]]]:
    rows: list[list[tuple[int, str, float]]] = [[]]
    x: float = PAD
    for index, label in enumerate(labels):
        text = theme.fit_lines(label, 18, 300, 1)[0]
        w = 30 + text_width(text, 18) + 24
        if x + w > WIDTH - PAD and rows[-1]:
            rows.append([])
            x = PAD
        rows[-1].append((index, text, w))
        x += w
    return [row for row in rows if row]


def _bar(
    image: Image.Image, draw: ImageDraw.ImageDraw, values: list[float], zero: float, scale: float, middle: float
) -> None:
    top, bottom = middle - BAR_H / 2, middle + BAR_H / 2
    right = left = zero
    for index, value in enumerate(values):
        if value == 0:
            continue
        w = abs(value) * scale
        if value > 0:
            box = (right, top, right + w, bottom)
            right += w
        else:
            box = (left - w, top, left, bottom)
            left -= w
        _segment(draw, box, index)
        draw.rectangle(box, outline=INK if value > 0 else NEGATIVE, width=1 if value > 0 else 3)
        text = f"{value:g}"
        if text_width(text, 18) + 8 <= w:
            # A light plate under the number keeps it readable over any pattern.
            cx = (box[0] + box[2]) / 2
            tw = text_width(text, 18)
            draw.rectangle((cx - tw / 2 - 3, middle - 11, cx + tw / 2 + 3, middle + 11), fill=WHITE)
            stamp_text(image, (cx, middle), text, 18, NEGATIVE if value < 0 else INK, "mm", box=box)


def _segment(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], index: int) -> None:
    x0, y0, x1, y1 = box
    colour = SEGMENT_COLOURS[index % len(SEGMENT_COLOURS)]
    draw.rectangle(box, fill=colour)
    pattern = PATTERNS[index % len(PATTERNS)]
    mark = theme.shade(colour, 0.45)
    if pattern == "stripes":
        step = 8
        start = int(x0) - int(y1 - y0)
        for x in range(start, int(x1), step):
            # Clip each diagonal to the box.
            ax, ay, bx, by = float(x), y1, x + (y1 - y0), y0
            if ax < x0:
                ay -= x0 - ax
                ax = x0
            if bx > x1:
                by += bx - x1
                bx = x1
            if ax < bx:
                draw.line((ax, ay, bx, by), fill=mark, width=2)
    elif pattern == "dots":
        for yy in range(int(y0) + 4, int(y1) - 1, 7):
            for xx in range(int(x0) + 4, int(x1) - 1, 7):
                draw.rectangle((xx, yy, xx + 1, yy + 1), fill=mark)
    elif pattern == "cross":
        for xx in range(int(x0) + 5, int(x1), 10):
            draw.line((xx, y0, xx, y1), fill=mark)
        for yy in range(int(y0) + 5, int(y1), 10):
            draw.line((x0, yy, x1, yy), fill=mark)


def _tie_break(slug: str) -> str:
    """The game's tie-break rule in words, from its manifest (``GameManifest.tie_break``)."""
    try:
        return games.get_manifest(slug).tie_break or "the game's tie-break rules"
    except IllegalMove:  # a view of a game no longer registered: still drawn
        return "the game's tie-break rules"


def _notes(slug: str, finished: bool, standings: list[dict[str, Any]]) -> list[str]:
    """Who won, and every tie and how it was broken, in words."""
    if not standings:
        return []
    active = [e for e in standings if e.get("title") not in ("resigned", "kicked")]
    winners = [e for e in active if e.get("rank") == 1]
    names = [str(e.get("player") or "?") for e in winners]
    notes = []
    if finished and len(winners) == 1:
        notes.append(f"Winner: {names[0]} with {winners[0].get('score', 0)} points.")
    elif finished and winners:
        notes.append(f"Shared win: {' and '.join(names)} with {winners[0].get('score', 0)} points.")
    rule = _tie_break(slug)
    for above, below in zip(standings, standings[1:], strict=False):
        if above.get("score") != below.get("score"):
            continue
        a, b = str(above.get("player") or "?"), str(below.get("player") or "?")
        if below.get("title") in ("resigned", "kicked"):
            continue  # said below: a player who left ranks last
        if above.get("rank") == below.get("rank"):
            notes.append(f"{a} and {b} tie on {above.get('score')} points and share the place.")
        else:
            notes.append(f"{a} ranks above {b} on equal points by the tie-break: {rule}.")
    for entry in standings:
        if entry.get("title") in ("resigned", "kicked"):
            notes.append(f"{entry.get('player')} {entry.get('title')}: ranked last.")
    return list(dict.fromkeys(notes))[:6]


def _number(value: Any) -> float:
    return float(value) if isinstance(value, int | float) else 0.0


def _crown(draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
    # Shape, not colour, marks the winner(s).
    draw.polygon(
        [(x - 11, y + 8), (x - 11, y - 6), (x - 5, y), (x, y - 10), (x + 5, y), (x + 11, y - 6), (x + 11, y + 8)],
        fill=HIGHLIGHT,
        outline=INK,
        width=2,
    )


def _ordinal(entry: dict[str, Any], standings: list[dict[str, Any]]) -> str:
    rank = entry.get("rank")
    if not isinstance(rank, int):
        return "-"
    suffix = "th" if 10 <= rank % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
    shared = sum(1 for other in standings if other.get("rank") == rank) > 1
    return f"{'=' if shared else ''}{rank}{suffix}"


def _game_look(slug: str) -> tuple[str, tuple[int, int, int] | None]:
    """The game's display name and accent colour from its manifest; a slug turned into words and
    no accent for a game that is not registered (an old view, a removed package)."""
    try:
        manifest = games.get_manifest(slug)
    except IllegalMove:
        return slug.replace("-", " ").title(), None
    return manifest.spec.name, manifest.palette.get("accent")


def _left(view: dict[str, Any], seat: Any) -> str | None:
    """ "kicked" or "resigned" when the view's per-seat entry (``players`` or ``towns``) says so."""
    if not isinstance(seat, int):
        return None
    for key in ("players", "towns"):
        rows = view.get(key)
        if isinstance(rows, list) and 0 <= seat < len(rows) and isinstance(rows[seat], dict):
            if rows[seat].get("kicked"):
                return "kicked"
            if rows[seat].get("resigned"):
                return "resigned"
    return None


def _name(view: dict[str, Any], entry: dict[str, Any]) -> str:
    return str(entry.get("player") or _seat_name(view, entry.get("seat")))


def _seat_name(view: dict[str, Any], seat: Any) -> str:
    """A name for a standings entry without one: the view's ``names`` (the ViewHeader key)."""
    names = view.get("names") or []
    return str(names[seat]) if isinstance(seat, int) and 0 <= seat < len(names) else "?"


__all__ = ["GRID", "MUTED", "PAD", "render_standings", "standings_image"]
