"""Shared look for every board image: neutral colours, player colours, fonts, and PNG encoding.

Player colours come from the Okabe–Ito palette, which stays distinguishable for the common
forms of colour blindness; every coloured thing also carries a letter or shape, so colour is
never the only cue. A game's own colours (resources, card families) live in its package's
``MANIFEST.palette``, not here.
"""

from __future__ import annotations

import io
import threading
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

BACKGROUND = (250, 248, 242)
INK = (30, 30, 30)
MUTED = (120, 120, 120)
GRID = (190, 185, 175)
HIGHLIGHT = (230, 159, 0)

# Okabe–Ito: orange, sky blue, bluish green, yellow, blue, vermillion, reddish purple, grey.
PLAYER_COLOURS: tuple[tuple[int, int, int], ...] = (
    (0, 114, 178),
    (213, 94, 0),
    (0, 158, 115),
    (204, 121, 167),
    (230, 159, 0),
    (86, 180, 233),
)


def player_colour(seat: int) -> tuple[int, int, int]:
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


@lru_cache(maxsize=16)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled font, so no system font is needed."""
    return ImageFont.load_default(size=size)


def text_colour_on(background: tuple[int, int, int]) -> tuple[int, int, int]:
    """Black or white, whichever reads better on ``background``."""
    r, g, b = background
    return INK if (0.299 * r + 0.587 * g + 0.114 * b) > 140 else (255, 255, 255)


def new_canvas(width: int, height: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (width, height), BACKGROUND)
    return image, ImageDraw.Draw(image)


# --- Extensions used by the game renderers -------------------------------------------------

WHITE = (255, 255, 255)


def tint(colour: tuple[int, int, int], amount: float) -> tuple[int, int, int]:
    """``colour`` mixed towards white by ``amount`` (0 = unchanged, 1 = white)."""
    return tuple(round(c + (255 - c) * amount) for c in colour)  # type: ignore[return-value]


def shade(colour: tuple[int, int, int], amount: float) -> tuple[int, int, int]:
    """``colour`` mixed towards black by ``amount``."""
    return tuple(round(c * (1 - amount)) for c in colour)  # type: ignore[return-value]


# The host renders in worker threads and a FreeType face is not safe to share between
# threads, so cache misses that touch the font take this lock (hits never do).
_FONT_LOCK = threading.Lock()


@lru_cache(maxsize=8192)
def _text_mask(text: str, size: int, anchor: str) -> tuple[Image.Image, int, int]:
    # FreeType rasterising costs ~70 µs a call; boards repeat the same few strings
    # (letters, building names), so each glyph run is rendered once and then stamped.
    with _FONT_LOCK:
        left, top, right, bottom = (int(edge) for edge in font(size).getbbox(text, anchor=anchor))
        mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
        ImageDraw.Draw(mask).text((-left, -top), text, font=font(size), fill=255, anchor=anchor)
    return mask, left, top


def stamp_text(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: tuple[int, int, int] = INK,
    anchor: str = "la",
) -> None:
    """Like ``ImageDraw.text`` (same anchors) but with cached glyph masks: much faster."""
    if not text:
        return
    mask, left, top = _text_mask(text, size, anchor)
    x, y = round(xy[0]) + left, round(xy[1]) + top
    image.paste(fill, (x, y, x + mask.width, y + mask.height), mask)


@lru_cache(maxsize=8192)
def text_width(text: str, size: int) -> float:
    with _FONT_LOCK:
        return font(size).getlength(text)


def fit_lines(text: str, size: int, width: float, max_lines: int = 2) -> tuple[str, ...]:
    """``text`` wrapped into at most ``max_lines`` lines no wider than ``width``.

    Drops filler words first ("of", "the"), then shortens the longest words with a
    dot ("Mausoleum" -> "Mausol."), so a long name still reads as itself.
    """
    return _fit_lines(text, size, round(width), max_lines)


_FILLER = {"of", "the", "of the"}


@lru_cache(maxsize=4096)
def _fit_lines(text: str, size: int, width: int, max_lines: int) -> tuple[str, ...]:
    if text_width(text, size) <= width:
        return (text,)
    words = [w for w in text.split() if w.lower() not in _FILLER] or text.split()
    while True:
        lines = _wrap(words, size, width, max_lines)
        if lines is not None:
            return lines
        longest = max(range(len(words)), key=lambda i: len(words[i].rstrip(".")))
        stem = words[longest].rstrip(".")
        if len(stem) <= 1:
            # Nothing left to shorten: hard-cut the first line.
            line = " ".join(words)
            while len(line) > 1 and text_width(line, size) > width:
                line = line[:-1]
            return (line,)
        words[longest] = stem[:-1] + "."


def wrap_lines(text: str, size: int, width: float, max_lines: int = 2) -> tuple[str, ...] | None:
    """``text`` word-wrapped into at most ``max_lines`` lines of ``width``, or None if it won't fit."""
    return _wrap(text.split(), size, round(width), max_lines)


def _wrap(words: list[str], size: int, width: int, max_lines: int) -> tuple[str, ...] | None:
    lines: list[str] = []
    current = ""
    for word in words:
        candidate = f"{current} {word}" if current else word
        if text_width(candidate, size) <= width:
            current = candidate
            continue
        if not current or text_width(word, size) > width:
            return None
        lines.append(current)
        current = word
    lines.append(current)
    return tuple(lines) if len(lines) <= max_lines else None


def to_png_fast(image: Image.Image, colors: int = 96) -> bytes:
    """Palette PNG with the fast octree quantiser.

    Median cut takes ~70 ms on a 1100x700 board on a small machine; the octree takes ~10 ms
    and looks the same on flat board art.
    """
    buffer = io.BytesIO()
    image.quantize(colors=colors, method=Image.Quantize.FASTOCTREE).save(
        buffer, format="PNG", optimize=False, compress_level=6
    )
    return buffer.getvalue()
