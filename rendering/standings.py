"""Standings image for any game: a score-pad table, players in rank order as columns.

Rows are the union of every player's breakdown labels (in first-seen order), so the same
code serves Tiny Towns ("Cottage", "Empty squares") and Trains ("Territory", "Deck VP").
"""

from __future__ import annotations

from typing import Any

from PIL import Image

import games
from games.base import IllegalMove
from rendering import theme
from rendering.theme import GRID, HIGHLIGHT, INK, MUTED, WHITE, player_colour, stamp_text, text_width

LABEL_WIDTH = 210
COLUMN_WIDTH = 118
ROW = 26
PAD = 14
NEGATIVE = (190, 60, 0)
STRIPE = (244, 240, 230)


def render_standings(view: dict[str, Any], standings: list[dict[str, Any]]) -> bytes:
    """PNG of ``standings`` (a game's standings(): rank order, each with a breakdown)."""
    return theme.to_png_fast(standings_image(view, standings))


def standings_image(view: dict[str, Any], standings: list[dict[str, Any]]) -> Image.Image:
    labels: list[str] = []
    for entry in standings:
        for label in entry.get("breakdown") or {}:
            if label not in labels:
                labels.append(str(label))
    has_titles = any(entry.get("title") for entry in standings)
    columns = max(1, len(standings))
    width = PAD + LABEL_WIDTH + columns * COLUMN_WIDTH + PAD
    header_rows = 3 + (1 if has_titles else 0)  # rank, player, [title], score
    title_h = 40
    height = PAD + title_h + header_rows * ROW + len(labels) * ROW + PAD + (ROW if not standings else 0)
    image, draw = theme.new_canvas(width, height)

    game, accent = _game_look(str(view.get("game") or ""))
    finished = view.get("phase") == "finished" or view.get("finished")
    heading = f"{game}: {'final standings' if finished else 'standings'}"
    stamp_text(image, (PAD, PAD), heading, 22, INK)
    if accent is not None:
        # The game's own colour underlines the heading; the text stays ink so it always reads.
        draw.rectangle((PAD, PAD + title_h - 12, width - PAD, PAD + title_h - 9), fill=accent)
    if view.get("round") and not finished:
        stamp_text(image, (width - PAD, PAD + 4), f"round {view['round']}", 15, MUTED, "ra")
    if not standings:
        stamp_text(image, (PAD, PAD + title_h), "No players.", 15, MUTED)
        return image

    top = PAD + title_h
    rows: list[tuple[str, list[tuple[str, tuple[int, int, int]]]]] = []
    rows.append(("Rank", [(_ordinal(entry, standings), INK) for entry in standings]))
    rows.append(
        (
            "Player",
            [(str(entry.get("player") or _seat_name(view, entry.get("seat"))), INK) for entry in standings],
        )
    )
    if has_titles:
        rows.append(("Title", [(str(entry.get("title") or ""), MUTED) for entry in standings]))
    rows.append(("Score", [(_fmt(entry.get("score", 0)), INK) for entry in standings]))
    for label in labels:
        cells = []
        for entry in standings:
            breakdown = entry.get("breakdown") or {}
            value = breakdown.get(label)
            text = "-" if value is None else _fmt(value)
            negative = isinstance(value, int | float) and value < 0
            cells.append((text, NEGATIVE if negative else (MUTED if value is None else INK)))
        rows.append((label, cells))

    score_row = 3 if has_titles else 2
    for r, (label, cells) in enumerate(rows):
        y = top + r * ROW
        if r > score_row and (r - score_row) % 2 == 0:
            draw.rectangle((PAD, y, width - PAD, y + ROW), fill=STRIPE)
        if r == score_row:
            draw.rectangle((PAD, y, width - PAD, y + ROW), fill=(255, 236, 190))
        size = 17 if r == score_row else 15
        stamp_text(
            image,
            (PAD + 6, y + ROW / 2),
            theme.fit_lines(label, size, LABEL_WIDTH - 12, 1)[0],
            size,
            INK,
            "lm",
        )
        for c, (text, colour) in enumerate(cells):
            x = PAD + LABEL_WIDTH + c * COLUMN_WIDTH
            fitted = theme.fit_lines(text, size, COLUMN_WIDTH - 18, 1)[0]
            if r == 1:
                seat = standings[c].get("seat")
                if isinstance(seat, int):
                    bar_x = x + COLUMN_WIDTH / 2 + 3 - text_width(fitted, size) / 2 - 11
                    draw.rectangle((bar_x, y + 6, bar_x + 5, y + ROW - 6), fill=player_colour(seat))
            stamp_text(image, (x + COLUMN_WIDTH / 2 + 3, y + ROW / 2), fitted, size, colour, "mm")
        if r == 0:
            for c, entry in enumerate(standings):
                if entry.get("rank") == 1:
                    centre = PAD + LABEL_WIDTH + c * COLUMN_WIDTH + COLUMN_WIDTH / 2 + 3
                    _winner_mark(draw, centre + text_width(cells[c][0], size) / 2 + 14, y + ROW / 2)
    bottom = top + len(rows) * ROW
    draw.line((PAD, top + (score_row + 1) * ROW, width - PAD, top + (score_row + 1) * ROW), fill=INK)
    for c in range(columns + 1):
        x = PAD + LABEL_WIDTH + c * COLUMN_WIDTH
        draw.line((x, top, x, bottom), fill=GRID)
    draw.rectangle((PAD, top, width - PAD, bottom), outline=GRID)
    return image


def _winner_mark(draw: Any, x: float, y: float) -> None:
    # A small crown: shape, not colour, marks the winner(s).
    draw.polygon(
        [(x - 7, y + 5), (x - 7, y - 4), (x - 3, y), (x, y - 6), (x + 3, y), (x + 7, y - 4), (x + 7, y + 5)],
        fill=HIGHLIGHT,
        outline=INK,
    )
    draw.point((x, y + 2), fill=WHITE)


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


def _fmt(value: Any) -> str:
    return str(value)


def _seat_name(view: dict[str, Any], seat: Any) -> str:
    """A name for a standings entry without one: the view's ``names`` (the ViewHeader key)."""
    names = view.get("names") or []
    return str(names[seat]) if isinstance(seat, int) and 0 <= seat < len(names) else "?"
