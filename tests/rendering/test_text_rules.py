"""Issue 13's rules for every image of every registered game: no text below the minimum size,
no text outside its box, no image wider than MAX_WIDTH.

The sample views come from seeded bot games through each game's spec (tests/rendering/samples.py):
smallest and largest player counts, every option value, start/mid/end, public and private views,
plus the end-of-game summary and the aborted band.
"""

from __future__ import annotations

import io
import sys
from typing import Any

import pytest
from PIL import Image, ImageDraw

import games
from rendering import render, render_aborted, render_standings, theme
from tests.rendering import samples

SLUGS = games.available_slugs()


def _width(data: bytes) -> int:
    with Image.open(io.BytesIO(data)) as image:
        return image.width


@pytest.fixture
def raw_text(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Text drawn with ImageDraw.text outside rendering/theme.py: invisible to recording(), so refused."""
    found: list[str] = []
    original = ImageDraw.ImageDraw.text

    def spy(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> Any:
        if sys._getframe(1).f_globals.get("__name__") != "rendering.theme":
            found.append(f"{text!r} drawn with ImageDraw.text, not the theme helpers")
        return original(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    return found


def _check(label: str, draw: object, raw: list[str]) -> list[str]:
    raw.clear()
    with theme.recording() as drawn:
        data = draw()  # type: ignore[operator]
    problems = [f"{label}: {problem}" for problem in theme.text_problems(drawn)]
    problems += [f"{label}: {problem}" for problem in raw]
    if _width(data) > theme.MAX_WIDTH:
        problems.append(f"{label}: {_width(data)} px wide, over {theme.MAX_WIDTH}")
    if not drawn:
        problems.append(f"{label}: no text recorded (drawn outside the theme helpers?)")
    return problems


@pytest.mark.parametrize("slug", SLUGS)
def test_every_image_follows_the_text_rules(slug: str, raw_text: list[str]) -> None:
    # Renderers cache fixed layers (a map's terrain and labels): empty the caches so the text in
    # them is drawn, and so checked, inside recording() even if another test drew this game first.
    samples.clear_renderer_caches(slug)
    problems: list[str] = []
    played = samples.playouts(slug)
    assert played, f"{slug}: no sample game could be set up"
    for game in played:
        for sample in game.samples:
            problems += _check(sample.label, lambda s=sample: render(s.view, s.focus), raw_text)
        label = f"{samples._label(game.players, game.options)}"
        problems += _check(
            f"{label}-summary", lambda g=game: render_standings(g.final_view, list(g.standings)), raw_text
        )
        problems += _check(f"{label}-aborted", lambda g=game: render_aborted(g.samples[2].view), raw_text)
    unique = list(dict.fromkeys(problems))
    assert not unique, f"{len(unique)} problems, first 25:\n" + "\n".join(unique[:25])


def test_the_checker_catches_small_and_escaping_text() -> None:
    # The rules test is only as good as its checker: small text and text outside its box are found.
    image = Image.new("RGB", (200, 100))
    with theme.recording() as drawn:
        theme.stamp_text(image, (5, 5), "tiny", 10)
        theme.stamp_text(image, (5, 40), "A1", 18, typed=True)
        theme.stamp_text(image, (5, 70), "far too long for its box", 16, box=(0, 60, 40, 100))
    problems = theme.text_problems(drawn)
    assert any("'tiny' is 10 px" in p for p in problems)
    assert any("'A1' is 18 px, below 20" in p for p in problems)
    assert any("leaves its box" in p for p in problems)
