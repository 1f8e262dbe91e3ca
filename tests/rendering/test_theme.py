"""Theme helpers added for the renderers: cached text stamping and label fitting."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from rendering import theme
from tests.rendering.imaging import decode, diff_box


def test_stamp_text_matches_pillow_text() -> None:
    for anchor in ("la", "mm", "ra", "ls", "lm", "ma"):
        for text, size in (("Cottage", 11), ("W", 30), ("Feast Hall 12 VP", 17)):
            expected = Image.new("RGB", (200, 80), theme.BACKGROUND)
            ImageDraw.Draw(expected).text((100, 40), text, font=theme.font(size), fill=theme.INK, anchor=anchor)
            stamped = Image.new("RGB", (200, 80), theme.BACKGROUND)
            theme.stamp_text(stamped, (100, 40), text, size, theme.INK, anchor)
            assert diff_box(expected, stamped) is None, (anchor, text)


# What boards write: letters, digits, punctuation, the separators and accents names bring, and spaces.
board_text = st.text(alphabet=[chr(c) for c in range(32, 127)] + list("·—–’éüÉ…×→✓ñß"), min_size=1, max_size=60)


@settings(max_examples=150, deadline=None)
@given(
    st.one_of(board_text, st.text(alphabet=" ", min_size=1, max_size=3)),
    st.sampled_from([11, 13, 16, 18, 21, 26, 40]),
    st.sampled_from(["la", "mm", "ra", "ls", "lm", "rm"]),
)
def test_a_text_mask_is_what_pillow_draws(text: str, size: int, anchor: str) -> None:
    # _text_mask lays a text out once (getmask2); Pillow's ImageDraw.text at the same spot is the reference.
    expected = Image.new("L", (1000, 120), 0)
    ImageDraw.Draw(expected).text((10, 60), text, font=theme.font(size), fill=255, anchor=anchor)
    stamped = Image.new("L", (1000, 120), 0)
    mask, left, top = theme._text_mask.__wrapped__(text, size, anchor)
    stamped.paste(255, (10 + left, 60 + top, 10 + left + mask.width, 60 + top + mask.height), mask)
    assert diff_box(expected, stamped) is None, (text, size, anchor)
    assert mask.width >= 1 and mask.height >= 1  # a paste needs a pixel, even of a blank text


@pytest.mark.parametrize("anchor", ["la", "lm", "rm", "ls", "ra"])
@pytest.mark.parametrize(
    "text",
    [
        "Chapel 1 · Cottage 0 · Farm 3 · Tavern 3 · Well 4",
        "  Grand Mausoleum of the Rodina  ",
        "fitzgerald, eve and the 12 others",
        "Jo (B2, C3) → D4 — 14 VP",
    ],
)
def test_a_long_line_is_put_together_from_its_words_exactly(text: str, anchor: str) -> None:
    # Score lines change every turn but their words do not: the line is its cached words' masks.
    for size in (13, 16, 21):
        composed = theme._composed_mask(text, size, anchor)
        assert composed is not None, (text, size, anchor)
        mask, left, top = composed
        expected, expected_left, expected_top = theme._rendered_mask(text, size, anchor)
        assert (left, top, mask.size) == (expected_left, expected_top, expected.size), (size, anchor)
        assert mask.tobytes() == expected.tobytes(), (size, anchor)


@settings(max_examples=150, deadline=None)
@given(board_text, st.sampled_from([11, 13, 16, 18, 21, 26, 40]))
def test_text_width_is_the_sum_of_advances(text: str, size: int) -> None:
    # Text is measured as the sum of its characters' advances: exactly what FreeType lays out with
    # the bundled font (no kerning pairs), so a font or layout that kerned would fail here.
    assert theme._measure(text, size) == theme.font(size).getlength(text), (text, size)


words = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABC'", min_size=1, max_size=14)


@settings(max_examples=60, deadline=None)
@given(st.lists(words, min_size=1, max_size=6), st.integers(9, 18), st.integers(30, 160), st.integers(1, 3))
def test_fit_lines_fits(parts: list[str], size: int, width: int, max_lines: int) -> None:
    lines = theme.fit_lines(" ".join(parts), size, width, max_lines)
    assert 1 <= len(lines) <= max_lines
    for line in lines:
        assert line
        assert theme.text_width(line, size) <= width or len(line) == 1


def test_fit_lines_keeps_what_fits_and_wraps_before_shortening() -> None:
    assert theme.fit_lines("Cottage", 11, 100) == ("Cottage",)
    assert theme.fit_lines("Trading Post", 11, 50) == ("Trading", "Post")
    assert theme.wrap_lines("Mausoleum", 11, 20) is None


def test_to_png_fast_is_a_small_png() -> None:
    image, draw = theme.new_canvas(300, 200)
    draw.rectangle((10, 10, 100, 100), fill=theme.player_colour(5))
    png = decode(theme.to_png_fast(image))
    assert png.size == (300, 200)
    assert png.convert("RGB").getpixel((50, 50)) == theme.player_colour(5)


def test_draw_text_never_goes_below_the_minimum_and_stays_in_its_box() -> None:
    image = Image.new("RGB", (400, 200), theme.BACKGROUND)
    with theme.recording() as drawn:
        used = theme.draw_text(image, (10, 10, 110, 60), "Shinjuku Station Grand Central", 30)
        typed = theme.draw_text(image, (200, 10, 260, 40), "H6", 12, typed=True)
    assert used == theme.MIN_TEXT
    assert typed == theme.MIN_TYPED
    assert drawn and theme.text_problems(drawn) == []


def test_text_problems_reports_small_and_escaping_text() -> None:
    image = Image.new("RGB", (200, 60), theme.BACKGROUND)
    with theme.recording() as drawn:
        theme.stamp_text(image, (5, 5), "tiny", 11)
        theme.stamp_text(image, (5, 30), "A long label", 18, box=(0, 25, 40, 55))
        theme.stamp_text(image, (150, 5), "B2", 16, typed=True)
    problems = theme.text_problems(drawn)
    assert len(problems) == 3
    assert "'tiny' is 11 px" in problems[0]
    assert "leaves its box" in problems[1]
    assert "below 20 px" in problems[2]


def test_polygon_in_a_crop_draws_the_same_pixels_as_pillow() -> None:
    import random

    from PIL import ImageDraw

    picker = random.Random(3)
    cases = [(theme.shape_points(shape, 40.5, 30.25, 11), 2) for shape in theme.SHAPES[1:]]
    cases += [([(2.0, -5.0), (60.0, 20.0), (-8.0, 49.0)], 3)]  # partly outside the image
    for _ in range(40):
        cx, cy = picker.uniform(-5, 125), picker.uniform(-5, 85)
        points = [(cx + picker.uniform(-20, 20), cy + picker.uniform(-20, 20)) for _ in range(picker.randint(3, 7))]
        cases.append((points, picker.randint(1, 7)))
    for points, width in cases:
        for fill in (None, (0, 158, 115)):
            expected = Image.new("RGB", (120, 80), theme.BACKGROUND)
            ImageDraw.Draw(expected).polygon(points, fill=fill, outline=theme.INK, width=width)
            drawn = Image.new("RGB", (120, 80), theme.BACKGROUND)
            theme.polygon(drawn, points, fill=fill, outline=theme.INK, width=width)
            assert drawn.tobytes() == expected.tobytes(), (points, width, fill)


def _idat(png: bytes) -> bytes:
    """The IDAT payload of a PNG with one IDAT chunk (what ``png_bytes`` and ``png_with_tail`` write)."""
    import struct

    at, found = 8, b""
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        if png[at + 4 : at + 8] == b"IDAT":
            found += png[at + 8 : at + 8 + length]
        at += 12 + length
    return found


def test_a_png_with_a_deflated_tail_is_the_same_image_and_a_valid_zlib_stream() -> None:
    import random
    import zlib

    picker = random.Random(5)
    image = Image.new("P", (97, 61), 0)
    image.putdata([picker.randrange(8) if picker.random() < 0.2 else 3 for _ in range(97 * 61)])
    image.putpalette(bytes(picker.randrange(256) for _ in range(3 * 256)))
    colours = bytes(image.getpalette("RGB") or [])
    rows = theme.framed_rows(image)
    for split in (1, 30, 60):  # the tail: the last rows, from one to all but one
        cut = (image.width + 1) * split
        png = theme.png_with_tail(image.width, image.height, rows[:cut], theme.deflate_rows(rows[cut:]), colours)
        assert zlib.decompress(_idat(png)) == rows  # zlib checks the combined Adler-32 too
        assert decode(png).tobytes() == image.tobytes()
        assert png == theme.png_with_tail(
            image.width, image.height, rows[:cut], theme.deflate_rows(rows[cut:]), colours
        )


def test_adler32_combine_matches_zlib() -> None:
    import random
    import zlib

    picker = random.Random(9)
    for second_length in (0, 1, 65520, 65521, 65522, 200_003):
        first, second = picker.randbytes(picker.randrange(5000)), picker.randbytes(second_length)
        combined = theme.adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second))
        assert combined == zlib.adler32(first + second)


def test_a_palette_with_exact_colours_draws_them_exactly_in_a_palette_image() -> None:
    exact = (theme.BACKGROUND, theme.INK, *theme.PLAYER_COLOURS)
    sheet, draw = theme.new_canvas(200, 100)
    draw.rectangle((0, 0, 99, 99), fill=(200, 60, 60))
    palette = theme.palette_from(sheet, [(10, 200, 10)], exact=exact)
    inks = theme.exact_inks(exact)
    colours = palette.getpalette("RGB") or []
    assert len(colours) <= 3 * 256
    for colour, index in inks.items():
        assert tuple(colours[3 * index : 3 * index + 3]) == colour
    image = Image.new("P", (60, 40), inks[theme.BACKGROUND])
    image.putpalette(colours)
    for seat in range(len(theme.PLAYER_COLOURS)):
        theme.draw_player_marker(image, seat, (10 + seat * 8, 20), 6, inks=inks)
    drawn = decode(theme.png_bytes(image)).convert("RGB")
    expected = Image.new("RGB", (60, 40), theme.BACKGROUND)
    for seat in range(len(theme.PLAYER_COLOURS)):
        theme.draw_player_marker(expected, seat, (10 + seat * 8, 20), 6)
    assert drawn.tobytes() == expected.tobytes()
