"""Shared look for every board image: neutral colours, player colours, fonts, and PNG encoding.

Player colours come from the Okabe–Ito palette, which stays distinguishable for the common
forms of colour blindness; every coloured thing also carries a letter or shape, so colour is
never the only cue. A game's own colours (resources, card families) live in its package's
``MANIFEST.palette``, not here.
"""

from __future__ import annotations

import heapq
import math
import struct
import threading
import zlib
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache

from isal import isal_zlib
from PIL import Image, ImageDraw, ImageFont

# Rules every image follows (issue 13): phones show a board about 400 px wide, so text below
# these sizes cannot be read there. Sizes are the font's pixel size (Pillow's ``size``).
MAX_WIDTH = 1600
MIN_TEXT = 16  # every piece of text
MIN_TYPED = 20  # coordinates and names a player must type into a command

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


# A colour, or on a palette ("P") image the index of a palette entry.
Ink = tuple[int, int, int] | int


def player_colour(seat: int) -> tuple[int, int, int]:
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


@lru_cache(maxsize=16)
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled font, so no system font is needed."""
    face = ImageFont.load_default(size=size)
    if not isinstance(face, ImageFont.FreeTypeFont):  # a Pillow without FreeType has only a bitmap font
        raise RuntimeError("this Pillow has no FreeType support: boards need its scalable font")
    return face


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
    # FreeType rasterising costs ~70 µs a call, and ~0.3 ms for a 40-character line; boards repeat
    # the same strings (letters, building names, the words of score lines), so each glyph run is
    # rendered once and then stamped, and a long line is put together from its words' masks.
    if len(text) >= _COMPOSE_FROM:
        composed = _composed_mask(text, size, anchor)
        if composed is not None:
            return composed
    return _rendered_mask(text, size, anchor)


def _rendered_mask(text: str, size: int, anchor: str) -> tuple[Image.Image, int, int]:
    # ``getmask2`` lays the text out once: the same pixels as ``ImageDraw.text`` drawing it into
    # a mask its ``getbbox`` size, which lays it out twice (test_a_text_mask_is_what_pillow_draws).
    with _FONT_LOCK:
        core, (left, top) = font(size).getmask2(text, "L", anchor=anchor)
    if 0 in core.size:  # ink-less text (spaces): a blank pixel, as a paste needs one
        return Image.new("L", (max(1, core.size[0]), 1), 0), left, top
    return Image.Image()._new(core), left, top


# Texts this long are put together from their words' masks (when they can be: ``_composed_mask``).
_COMPOSE_FROM = 16


def _composed_mask(text: str, size: int, anchor: str) -> tuple[Image.Image, int, int] | None:
    """``text``'s mask made of its words' cached masks, each at its pen position; None when that
    would not be exactly what FreeType draws.

    Exact because every advance of the bundled font is a whole pixel (so a word starts at the same
    sub-pixel phase alone as in the line) and Pillow's basic layout kerns nothing (``_measure``): a
    word looks the same alone. Two words whose ink would touch (a glyph reaching into the space)
    are not composed, as FreeType combines overlapping glyphs differently from a paste. Only left
    or right anchors: a centred line may start half a pixel in.
    """
    if " " not in text or anchor[0] not in "lr" or anchor[1] not in "asdm" or "\n" in text:
        return None
    advances = _advances(size)
    _measure(text, size)  # every character's advance is known after this
    if any(advances[character] % 64 for character in text):
        return None
    pieces: list[tuple[Image.Image, int, int]] = []
    pen = 0
    for word in text.split(" "):
        if word:
            mask, left, top = _text_mask(word, size, "l" + anchor[1])
            if mask.height == 1 and not mask.getbbox():  # an ink-less word has no box to join
                return None
            pieces.append((mask, pen + left, top))
        pen += sum(map(advances.__getitem__, word)) // 64 + advances[" "] // 64
    if len(pieces) < 2:
        return None
    for (first, x, _), (_, next_x, _) in zip(pieces, pieces[1:], strict=False):
        if x + first.width > next_x:
            return None
    width = pen - advances[" "] // 64
    # FreeType's box runs from the pen's start to its end (spaces included) and takes in any ink
    # beyond them; upright it is the ink's.
    x0 = min(0, pieces[0][1])
    y0 = min(top for _, _, top in pieces)
    x1 = max(width, max(x + mask.width for mask, x, _ in pieces))
    y1 = max(top + mask.height for mask, _, top in pieces)
    line = Image.new("L", (x1 - x0, y1 - y0), 0)
    for mask, x, top in pieces:
        line.paste(mask, (x - x0, top - y0))
    return line, x0 - (width if anchor[0] == "r" else 0), y0


Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class DrawnText:
    """One piece of text a renderer drew: what, how big, where its ink is, and the box it must stay in."""

    text: str
    size: int
    ink: tuple[int, int, int, int]  # left, top, right, bottom of the glyphs as pasted
    box: Box | None  # the box the text belongs in; None = the image
    typed: bool  # a coordinate or name a player types: held to MIN_TYPED
    image_size: tuple[int, int]


# Tests render inside ``recording()`` to check every text against the rules; renderers never read it.
_RECORD: ContextVar[list[DrawnText] | None] = ContextVar("drawn_text", default=None)


@contextmanager
def recording() -> Iterator[list[DrawnText]]:
    """Collect every text drawn through this module (in this thread/context) while inside."""
    drawn: list[DrawnText] = []
    token = _RECORD.set(drawn)
    try:
        yield drawn
    finally:
        _RECORD.reset(token)


def stamp_text(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: tuple[int, int, int] = INK,
    anchor: str = "la",
    *,
    box: Box | None = None,
    typed: bool = False,
) -> None:
    """Like ``ImageDraw.text`` (same anchors) but with cached glyph masks: much faster.

    ``box`` is the area the text belongs in (a cell, a card, a strip) and ``typed`` marks
    coordinates and names players type; both only matter to ``recording()``.
    """
    if not text:
        return
    mask, left, top = _text_mask(text, size, anchor)
    x, y = round(xy[0]) + left, round(xy[1]) + top
    image.paste(fill, (x, y, x + mask.width, y + mask.height), mask)
    drawn = _RECORD.get()
    if drawn is not None:
        drawn.append(DrawnText(text, size, (x, y, x + mask.width, y + mask.height), box, typed, image.size))


def draw_text(
    image: Image.Image,
    box: Box,
    text: str,
    size: int,
    fill: tuple[int, int, int] = INK,
    *,
    align: str = "m",
    max_lines: int = 2,
    min_size: int = MIN_TEXT,
    typed: bool = False,
) -> int:
    """``text`` fitted inside ``box`` and drawn there; returns the size used.

    Tries ``size`` on one line, then wrapped to ``max_lines``, then smaller sizes down to
    ``min_size`` (never below), and only then abbreviates (``fit_lines``) at ``min_size``.
    ``align`` is "l", "m" or "r"; lines are centred vertically in the box.
    """
    x0, y0, x1, y1 = box
    width, height = x1 - x0, y1 - y0
    floor = max(min_size, MIN_TYPED if typed else MIN_TEXT)
    layout = _text_layout if len(text) <= _PROBE else _text_layout.__wrapped__
    lines, chosen = layout(text, size, width, height, max_lines, floor)
    step = line_height(chosen)
    top = y0 + (height - step * len(lines)) / 2 + step / 2
    x, anchor = {"l": (x0, "lm"), "r": (x1, "rm")}.get(align, ((x0 + x1) / 2, "mm"))
    for index, line in enumerate(lines):
        stamp_text(image, (x, top + index * step), line, chosen, fill, anchor, box=box, typed=typed)
    return chosen


@lru_cache(maxsize=4096)
def _text_layout(
    text: str, size: int, width: float, height: float, max_lines: int, floor: int
) -> tuple[tuple[str, ...], int]:
    """``draw_text``'s lines and size: boards draw the same labels in the same boxes again and again
    (a panel's ~70 texts a board), so each is fitted once (texts longer than ``_PROBE`` never are)."""
    for candidate in range(max(size, floor), floor - 1, -1):
        wrapped = wrap_lines(text, candidate, width, max_lines)
        if wrapped is not None and len(wrapped) * line_height(candidate) <= height + 1:
            return wrapped, candidate
    fit_count = max(1, min(max_lines, int((height + 1) // line_height(floor))))
    return fit_lines(text, floor, width, fit_count), floor


def text_problems(drawn: list[DrawnText], slack: int = 1) -> list[str]:
    """What breaks the text rules in ``drawn`` (from ``recording()``): too small, or outside its box."""
    problems = []
    for item in drawn:
        floor = MIN_TYPED if item.typed else MIN_TEXT
        if item.size < floor:
            problems.append(f"{item.text!r} is {item.size} px, below {floor} px")
        x0, y0, x1, y1 = item.box if item.box is not None else (0, 0, *item.image_size)
        left, top, right, bottom = item.ink
        if left < x0 - slack or top < y0 - slack or right > x1 + slack or bottom > y1 + slack:
            problems.append(f"{item.text!r} at {item.ink} leaves its box {item.box or 'the image'}")
    return problems


def line_height(size: int) -> int:
    """The height one line of ``size`` text takes, with a little leading."""
    return round(size * 1.2)


@lru_cache(maxsize=8192)
def text_width(text: str, size: int) -> float:
    return _measure(text, size)


def _measure(text: str, size: int) -> float:
    """The one place text is measured: the sum of its characters' advances, each asked of FreeType
    once per size. That is exactly ``getlength``: the bundled font has no kerning pairs and Pillow's
    basic layout adds nothing else (test_text_width_is_the_sum_of_advances), and a ``getlength``
    costs about 2 µs a character, so wrapping a long line measured each of its prefixes slowly."""
    if "\n" in text:  # as getlength: a multiline text has no one length
        with _FONT_LOCK:
            return font(size).getlength(text)
    advances = _advances(size)
    missing = set(text).difference(advances)
    if missing:
        with _FONT_LOCK:
            for character in missing:
                advances[character] = round(font(size).getlength(character) * 64)
    return sum(map(advances.__getitem__, text)) / 64


@lru_cache(maxsize=64)
def _advances(size: int) -> dict[str, int]:
    """Each character's advance at ``size``, in FreeType's 1/64 px (so sums are exact); filled as met."""
    return {}


def fit_lines(text: str, size: int, width: float, max_lines: int = 2) -> tuple[str, ...]:
    """``text`` wrapped into at most ``max_lines`` lines no wider than ``width``.

    Drops filler words first ("of", "the"), then shortens the longest words with a
    dot ("Mausoleum" -> "Mausol."), so a long name still reads as itself.
    """
    return _fit_lines(text, size, round(width), max_lines)


_FILLER = {"of", "the", "of the"}

# Fitting a text costs about O(n log n) in its length: a text's width only grows as characters are
# added, so a too-wide prefix settles a long text without measuring all of it, cuts are found by
# binary search, and only the words a line break can reach are measured again after a cut.
_PROBE = 128  # longer texts are first measured by this prefix, and never cached
_LONG_WORD = 48  # longer words too wide for a line are cut at once, not one letter at a time


@lru_cache(maxsize=4096)
def _fit_lines(text: str, size: int, width: int, max_lines: int) -> tuple[str, ...]:
    if _fits(text, size, width):
        return (text,)
    words = [w for w in text.split() if w.lower() not in _FILLER] or text.split()
    # Shorten the longest word (the leftmost of equals) by one letter at a time until the words
    # wrap. A long word too wide even alone is cut at once to its first too-wide prefix: the steps
    # skipped would all have failed, so the outcome is the same.
    words = [_too_wide_part(word, size, width) if len(word) > _LONG_WORD else word for word in words]
    longest_first = [(-len(word.rstrip(".")), i) for i, word in enumerate(words)]
    heapq.heapify(longest_first)
    lines, reached = _wrap_reached(words, size, width, max_lines)
    while lines is None:
        stem_length, longest = longest_first[0]
        if -stem_length <= 1:
            # Nothing left to shorten: hard-cut the first line.
            line = " ".join(words)
            return (line[: max(1, _fitting_prefix(line, size, width))],)
        stem = words[longest].rstrip(".")[:-1]
        words[longest] = stem + "."
        heapq.heapreplace(longest_first, (-len(stem.rstrip(".")), longest))
        if longest < reached:  # a word past the failed line break cannot change the outcome
            lines, reached = _wrap_reached(words, size, width, max_lines)
    return lines


def wrap_lines(text: str, size: int, width: float, max_lines: int = 2) -> tuple[str, ...] | None:
    """``text`` word-wrapped into at most ``max_lines`` lines of ``width``, or None if it won't fit."""
    return _wrap_reached(text.split(), size, round(width), max_lines)[0]


def _wrap_reached(words: list[str], size: int, width: int, max_lines: int) -> tuple[tuple[str, ...] | None, int]:
    """The greedy word wrap of ``words``, or None if it won't fit; and how many words it looked at."""
    lines: list[str] = []
    current = ""
    for index, word in enumerate(words):
        candidate = f"{current} {word}" if current else word
        if _fits(candidate, size, width):
            current = candidate
            continue
        if not current or not _fits(word, size, width):
            return None, index + 1
        lines.append(current)
        if len(lines) >= max_lines:  # ``word`` starts one line too many
            return None, index + 1
        current = word
    lines.append(current)
    return (tuple(lines) if len(lines) <= max_lines else None), len(words)


def _fits(text: str, size: int, width: int) -> bool:
    if len(text) <= _PROBE:
        return text_width(text, size) <= width
    return text_width(text[:_PROBE], size) <= width and _measure(text, size) <= width


def _fitting_prefix(text: str, size: int, width: int) -> int:
    """The length of the longest prefix of ``text`` no wider than ``width``. Galloping, then
    bisecting: the cost follows the answer, not ``len(text)``."""
    if _fits(text, size, width):
        return len(text)
    fits, too_wide, step = 0, len(text), 1  # text[:fits] fits, text[:too_wide] does not
    while fits + step < too_wide:
        if not _fits(text[: fits + step], size, width):
            too_wide = fits + step
            break
        fits += step
        step *= 2
    while too_wide - fits > 1:
        middle = (fits + too_wide) // 2
        if _fits(text[:middle], size, width):
            fits = middle
        else:
            too_wide = middle
    return fits


def _too_wide_part(word: str, size: int, width: int) -> str:
    """``word``; or, when even its undotted stem is too wide alone, the stem's shortest prefix that is
    still too wide and does not end in a dot (the first length the shortening can reach that fits
    is just below it)."""
    if _fits(word, size, width):
        return word
    stem = word.rstrip(".")
    keep = _fitting_prefix(stem, size, width) + 1
    if keep > len(stem):
        return word
    while stem[keep - 1] == ".":
        keep += 1
    return stem[:keep]


def to_png_fast(image: Image.Image, colors: int = 96, palette: Image.Image | None = None) -> bytes:
    """Palette PNG: ``image`` mapped onto ``palette`` (a "P" image, see ``palette_from``), or onto a
    palette the fast octree quantiser builds for it when none is given.

    A renderer whose colours are known ahead (its map, swatches and text edges) passes ``palette``:
    mapping to a known palette costs about an eighth of building one for every image.
    """
    if palette is not None:
        return png_bytes(image.quantize(palette=palette, dither=Image.Dither.NONE))
    return png_bytes(image.quantize(colors=colors, method=Image.Quantize.FASTOCTREE))


def png_bytes(indexed: Image.Image) -> bytes:
    """The PNG file of the "P" image ``indexed``, deflated by ISA-L.

    Pillow's encoder runs zlib 1.2 (~9 ms for a 2 Mpx board even at level 1, half of a render);
    ISA-L's level 1 deflates the same rows in under 1 ms and to fewer bytes.
    """
    if indexed.mode != "P":
        raise ValueError(f"png_bytes needs a palette image, got mode {indexed.mode}")
    colours = bytes(indexed.getpalette("RGB") or [0, 0, 0])
    return png_from_rows(indexed.width, indexed.height, framed_rows(indexed), colours)


def framed_rows(indexed: Image.Image) -> bytes:
    """The rows of the "P" (or "L") image ``indexed`` as PNG scanlines: each after its filter byte 0
    (palette rows are not filtered, as the PNG specification recommends for indexed images)."""
    # One spare column of index 0 on the left: each row's bytes then start with the 0 filter byte.
    framed = Image.new(indexed.mode, (indexed.width + 1, indexed.height), 0)
    framed.paste(indexed, (1, 0))
    return framed.tobytes()


def png_from_rows(width: int, height: int, rows: bytes, colours: bytes) -> bytes:
    """A palette PNG from its scanlines (``framed_rows``, stacked) and up to 256 RGB palette entries."""
    if len(rows) != (width + 1) * height:
        raise ValueError(f"{len(rows)} bytes of scanlines for a {width}x{height} image")
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", colours[: 3 * 256]),
            _chunk(b"IDAT", isal_zlib.compress(rows, 1)),
            _chunk(b"IEND", b""),
        )
    )


@dataclass(frozen=True)
class DeflatedRows:
    """Scanlines deflated once and kept, to end the PNGs of many images (``png_with_tail``): a
    board's fixed bottom part is then neither kept raw nor deflated again for every board."""

    data: bytes  # a raw deflate stream of the scanlines, ending with the final block
    adler: int  # the Adler-32 of the scanlines
    length: int  # how many bytes of scanlines


def deflate_rows(rows: bytes) -> DeflatedRows:
    """``rows`` (``framed_rows``) as a ``DeflatedRows`` tail."""
    deflater = isal_zlib.compressobj(1, isal_zlib.DEFLATED, -15)
    return DeflatedRows(
        deflater.compress(rows) + deflater.flush(isal_zlib.Z_FINISH), isal_zlib.adler32(rows), len(rows)
    )


def png_with_tail(width: int, height: int, rows: bytes, tail: DeflatedRows, colours: bytes) -> bytes:
    """Like ``png_from_rows`` for ``rows`` followed by the rows of ``tail``, deflating only ``rows``.

    A deflate stream may go on with blocks compressed on their own once the earlier ones end on a
    byte boundary (a sync flush), and the zlib checksum of the whole is combined from the parts'.
    """
    if len(rows) + tail.length != (width + 1) * height:
        raise ValueError(f"{len(rows) + tail.length} bytes of scanlines for a {width}x{height} image")
    deflater = isal_zlib.compressobj(1, isal_zlib.DEFLATED, -15)
    head = deflater.compress(rows) + deflater.flush(isal_zlib.Z_SYNC_FLUSH)
    adler = adler32_combine(isal_zlib.adler32(rows), tail.adler, tail.length)
    # 0x78 0x01: deflate with a 32 KB window, the fastest level (the header's check bits hold).
    stream = b"".join((b"\x78\x01", head, tail.data, struct.pack(">I", adler)))
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", colours[: 3 * 256]),
            _chunk(b"IDAT", stream),
            _chunk(b"IEND", b""),
        )
    )


_ADLER_BASE = 65521


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings joined, from each one's (zlib's adler32_combine)."""
    rem = second_length % _ADLER_BASE
    sum1 = first & 0xFFFF
    sum2 = (rem * sum1) % _ADLER_BASE
    sum1 = (sum1 + (second & 0xFFFF) + _ADLER_BASE - 1) % _ADLER_BASE
    sum2 = (sum2 + (first >> 16) + (second >> 16) + _ADLER_BASE - rem) % _ADLER_BASE
    return sum1 | (sum2 << 16)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


# --- Player markers: colour AND shape AND letter, so no player depends on colour alone -------

SHAPES = ("circle", "square", "triangle", "diamond", "hexagon", "star")


def player_shape(seat: int) -> str:
    return SHAPES[seat % len(SHAPES)]


def shape_points(shape: str, x: float, y: float, r: float) -> list[tuple[float, float]]:
    """The outline of ``shape`` centred on (x, y) with radius ``r`` (circle: its bounding square)."""

    if shape == "square":
        s = r * 0.9
        return [(x - s, y - s), (x + s, y - s), (x + s, y + s), (x - s, y + s)]
    if shape == "triangle":
        return [(x, y - r * 1.15), (x + r * 1.15, y + r * 0.85), (x - r * 1.15, y + r * 0.85)]
    if shape == "diamond":
        return [(x, y - r * 1.15), (x + r * 1.15, y), (x, y + r * 1.15), (x - r * 1.15, y)]
    if shape == "hexagon":
        return [(x + r * math.cos(math.radians(60 * i)), y + r * math.sin(math.radians(60 * i))) for i in range(6)]
    if shape == "star":
        points = []
        for i in range(10):
            radius = r * 1.2 if i % 2 == 0 else r * 0.62
            angle = math.radians(-90 + 36 * i)
            points.append((x + radius * math.cos(angle), y + radius * math.sin(angle)))
        return points
    return [(x - r, y - r), (x + r, y + r)]


def draw_player_marker(
    image: Image.Image,
    seat: int,
    xy: tuple[float, float],
    radius: float,
    letter: str = "",
    size: int = MIN_TEXT,
    inks: Mapping[tuple[int, int, int], int] | None = None,
) -> None:
    """The seat's marker: its shape filled with its colour, outlined in ink, its letter inside.

    On a palette ("P") image pass ``inks``, the palette index of each exact colour (``exact_inks``):
    the marker is then drawn with those indices (no letter: anti-aliased text needs an RGB image).
    """
    draw = ImageDraw.Draw(image)
    x, y = xy
    shape = player_shape(seat)
    colour: Ink = player_colour(seat)
    outline: Ink = INK
    if inks is not None:
        if letter:
            raise ValueError("a marker on a palette image has no letter")
        colour, outline = inks[player_colour(seat)], inks[INK]
    points = shape_points(shape, x, y, radius)
    if shape == "circle":
        draw.ellipse((*points[0], *points[1]), fill=colour, outline=outline, width=2)
    else:
        polygon(image, points, fill=colour, outline=outline, width=2)
    if letter:
        dy = radius * 0.2 if shape == "triangle" else 0
        stamp_text(image, (x, y + dy), letter, size, text_colour_on(player_colour(seat)), "mm")


def palette_from(
    image: Image.Image,
    colours: list[tuple[int, int, int]],
    colors: int = 160,
    exact: Sequence[tuple[int, int, int]] = (),
) -> Image.Image:
    """A palette image for ``to_png_fast``: ``image`` (the fixed layer) plus swatches of ``colours``
    with ink and white text on each, so every fill and its anti-aliased text edges get entries.

    ``exact`` colours come first, each at its own index (``exact_inks``), so shapes can be drawn
    straight into a "P" image over this palette with exactly those colours.
    """
    band = 40
    scratch = Image.new("RGB", (image.width, image.height + band * (1 + len(colours) // 20)), BACKGROUND)
    scratch.paste(image, (0, 0))
    for i, colour in enumerate([*colours, BACKGROUND, WHITE]):
        x, y = (i % 20) * 60, image.height + (i // 20) * band
        ImageDraw.Draw(scratch).rectangle((x, y, x + 59, y + band - 1), fill=colour)
        for j, ink in enumerate((INK, WHITE, MUTED)):
            stamp_text(scratch, (x + 2 + j * 19, y + 4), "Ag", MIN_TEXT, ink)
    octree = scratch.quantize(colors=min(colors, 256 - len(exact)), method=Image.Quantize.FASTOCTREE)
    if not exact:
        return octree
    found = bytes(octree.getpalette("RGB") or [])[: 3 * (256 - len(exact))]
    palette = Image.new("P", (1, 1), 0)
    palette.putpalette(b"".join(bytes(colour) for colour in exact) + found)
    return palette


def sheet(drawings: Sequence[Image.Image], width: int, fill: tuple[int, int, int]) -> Image.Image:
    """``drawings`` side by side in rows ``width`` wide, on ``fill``: the sample sheet a renderer
    makes its palette from (``palette_from``)."""
    x = y = row = 0
    placed = []
    for drawing in drawings:
        if x and x + drawing.width > width:
            x, y, row = 0, y + row, 0
        placed.append((drawing, (x, y)))
        x, row = x + drawing.width, max(row, drawing.height)
    image = Image.new("RGB", (width, y + row), fill)
    for drawing, xy in placed:
        image.paste(drawing, xy)
    return image


def exact_inks(exact: Sequence[tuple[int, int, int]]) -> dict[tuple[int, int, int], int]:
    """The palette index of each of ``palette_from``'s ``exact`` colours (the first, if repeated)."""
    inks: dict[tuple[int, int, int], int] = {}
    for index, colour in enumerate(exact):
        inks.setdefault(colour, index)
    return inks


def polygon(
    image: Image.Image,
    points: Sequence[tuple[float, float]],
    fill: Ink | None = None,
    outline: Ink | None = None,
    width: int = 1,
) -> None:
    """``ImageDraw.polygon`` with the same pixels, drawn in a crop around the polygon.

    Pillow draws an outline wider than 1 px through a mask the size of the whole image (a 2 Mpx
    board: a 2 MB allocation and fill for every player marker); the crop keeps that mask small.
    """
    if width <= 1 or outline is None:
        ImageDraw.Draw(image).polygon(points, fill=fill, outline=outline, width=width)
        return
    margin = width + 2
    left = max(0, math.floor(min(x for x, _ in points)) - margin)
    top = max(0, math.floor(min(y for _, y in points)) - margin)
    right = min(image.width, math.ceil(max(x for x, _ in points)) + margin + 1)
    bottom = min(image.height, math.ceil(max(y for _, y in points)) + margin + 1)
    if right <= left or bottom <= top:
        return
    region = image.crop((left, top, right, bottom))
    shifted = [(x - left, y - top) for x, y in points]
    ImageDraw.Draw(region).polygon(shifted, fill=fill, outline=outline, width=width)
    image.paste(region, (left, top))
