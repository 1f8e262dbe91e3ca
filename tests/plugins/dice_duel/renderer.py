"""Dice Duel board image: one row per player with banked dice, the hand and the stash.

Drawn only from the view (never the state), so a die the viewer may not see is drawn face down.
"""

from __future__ import annotations

from typing import Any

from PIL import ImageDraw

from rendering import theme
from rendering.theme import GRID, HIGHLIGHT, INK, MUTED, WHITE, player_colour, stamp_text

ACCENT = (213, 94, 0)
DIE = 30
GAP = 6
ROW = 58
PAD = 14
NAME_WIDTH = 130
HEAD = 52


def render_board(view: dict[str, Any], focus: int | None = None) -> bytes:
    players = view.get("players") or []
    most_banked = max((len(p["banked"]) for p in players), default=0)
    width = PAD + NAME_WIDTH + (max(most_banked, 5) + 5) * (DIE + GAP) + 70 + PAD
    height = HEAD + len(players) * ROW + PAD
    image, draw = theme.new_canvas(width, height)
    title = f"Dice Duel: round {min(view['round'], view['rounds'])} of {view['rounds']}"
    stamp_text(image, (PAD, PAD), "Dice Duel: game over" if view.get("finished") else title, 20, INK)
    draw.line((PAD, HEAD - 8, width - PAD, HEAD - 8), fill=ACCENT, width=3)
    for seat, player in enumerate(players):
        top = HEAD + seat * ROW
        if seat == focus or seat == view.get("current"):
            # The player to act, or the one in focus, gets a band (shape and text also say who it is).
            draw.rectangle(
                (PAD, top, width - PAD, top + ROW - 6), fill=theme.tint(HIGHLIGHT, 0.8 if seat == focus else 0.9)
            )
        draw.rectangle((PAD, top + 8, PAD + 6, top + ROW - 14), fill=player_colour(seat))
        name = player["name"] + (" (resigned)" if player["resigned"] else "")
        stamp_text(image, (PAD + 12, top + 10), theme.fit_lines(name, 15, NAME_WIDTH - 16, 1)[0], 15, INK)
        stamp_text(image, (PAD + 12, top + 30), f"{player['score']} pts", 13, MUTED)
        x = PAD + NAME_WIDTH
        for value in player["banked"]:
            _die(draw, image, x, top + 8, value, player_colour(seat))
            x += DIE + GAP
        x = max(x, PAD + NAME_WIDTH + 5 * (DIE + GAP)) + 12
        hand = player["hand"]
        for i in range(player["hand_size"]):
            _die(draw, image, x, top + 8, hand[i] if hand is not None else None, WHITE)
            x += DIE + GAP
        x += 12
        if player["stashed"]:
            _die(draw, image, x, top + 8, player["stash"], theme.tint(ACCENT, 0.6))
            stamp_text(image, (x + DIE / 2, top + DIE + 12), "stash", 11, MUTED, "mm")
    return theme.to_png_fast(image)


def _die(
    draw: ImageDraw.ImageDraw, image: Any, x: float, y: float, value: int | None, colour: tuple[int, int, int]
) -> None:
    """A die with its number, or face down (grey with a '?') when the viewer may not see it."""
    fill = colour if value is not None else (205, 200, 190)
    draw.rounded_rectangle((x, y, x + DIE, y + DIE), radius=5, fill=fill, outline=GRID if value else INK)
    text = str(value) if value is not None else "?"
    stamp_text(image, (x + DIE / 2, y + DIE / 2), text, 16, theme.text_colour_on(fill), "mm")
