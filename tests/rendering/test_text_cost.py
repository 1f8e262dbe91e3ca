"""Fitting text costs about linear time in its length: a 10,000-character player name costs no
more to draw than a 1,000-character one (it used to cost ~100x: the name was shortened one
character at a time and measured whole at every step). Counted in characters handed to the font,
not in seconds, so the test cannot flake; and the fast fitting gives the same lines as the
one-character-at-a-time reference."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.trains import GAME
from rendering import standings, theme, tiny_towns, trains
from tests.rendering import synthetic

CACHES = (
    theme._fit_lines,
    theme._text_layout,
    theme.text_width,
    theme._text_mask,
    tiny_towns._card,
    tiny_towns._heading,
    tiny_towns._legend,
    tiny_towns._tile,
)


@pytest.fixture
def measured(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[Callable[[], Any]], int]]:
    """Runs a job with cold caches and returns how many characters it measured."""
    real = theme._measure
    count = [0]

    def counting(text: str, size: int) -> float:
        count[0] += len(text)
        return real(text, size)

    monkeypatch.setattr(theme, "_measure", counting)

    def run(job: Callable[[], Any]) -> int:
        for cache in CACHES:
            cache.cache_clear()
        count[0] = 0
        job()
        return count[0]

    yield run
    for cache in CACHES:
        cache.cache_clear()


def long_name(shape: str, length: int) -> str:
    pattern = {
        "one word": "x",
        "words": "Sir Reginald of the Longname ",
        "dots": "Dr.Who.. ",
        "short words": "ab ",
        "mixed": "Wil.l iam Mmm the iiiiiiiiiiiiiiiiiiiiiiiiiiiiii-Jones ",
    }[shape]
    return (pattern * (length // len(pattern) + 1))[:length]


def tiny_towns_boards(name: str) -> Callable[[], Any]:
    view = synthetic.view(3, seed=3, viewer=1)
    view["names"][1] = name
    view["towns"][1]["player"] = name
    view["master_builder"] = 1

    def draw() -> None:
        tiny_towns.render_board(view)
        tiny_towns.render_board(view, 1)
        standings.render_standings(view, synthetic.standings_for(view))

    return draw


def trains_boards(name: str) -> Callable[[], Any]:
    state = GAME.setup(["ann", name, "cat"], {"map": "osaka"}, 2)

    def draw() -> None:
        trains.render_board(GAME.view(state, 1), 1)
        standings.render_standings(GAME.view(state, None), [dict(s) for s in GAME.standings(state)])

    return draw


@pytest.mark.parametrize("shape", ["one word", "words", "dots", "mixed"])
@pytest.mark.parametrize("boards", [tiny_towns_boards, trains_boards])
def test_board_cost_does_not_grow_with_name_length(measured, boards, shape: str) -> None:
    short = measured(boards(long_name(shape, 1_000)))
    long = measured(boards(long_name(shape, 10_000)))
    assert long < 20 * short, (short, long)


@pytest.mark.parametrize("shape", ["one word", "words", "dots", "short words", "mixed"])
@pytest.mark.parametrize("max_lines", [1, 2])
def test_fit_lines_cost_is_linear(measured, shape: str, max_lines: int) -> None:
    results: list[tuple[str, ...]] = []
    cost = {}
    for length in (1_000, 10_000):
        text = long_name(shape, length)
        cost[length] = measured(lambda text=text: results.append(theme.fit_lines(text, 13, 150, max_lines)))
    assert cost[10_000] < 20 * cost[1_000], cost
    for lines in results:
        assert 1 <= len(lines) <= max_lines
        assert all(theme.text_width(line, 13) <= 150 or len(line) == 1 for line in lines)


# ----- the same lines as the step-by-step reference -------------------------------------------------


def reference_fit_lines(text: str, size: int, width: int, max_lines: int) -> tuple[str, ...]:
    """The original algorithm, one character per step: the specification of the output."""

    def fits(line: str) -> bool:
        return theme.text_width(line, size) <= width

    def wrap(words: list[str]) -> tuple[str, ...] | None:
        lines: list[str] = []
        current = ""
        for word in words:
            candidate = f"{current} {word}" if current else word
            if fits(candidate):
                current = candidate
                continue
            if not current or not fits(word):
                return None
            lines.append(current)
            current = word
        lines.append(current)
        return tuple(lines) if len(lines) <= max_lines else None

    if fits(text):
        return (text,)
    words = [w for w in text.split() if w.lower() not in ("of", "the", "of the")] or text.split()
    while True:
        lines = wrap(words)
        if lines is not None:
            return lines
        longest = max(range(len(words)), key=lambda i: len(words[i].rstrip(".")))
        stem = words[longest].rstrip(".")
        if len(stem) <= 1:
            line = " ".join(words)
            while len(line) > 1 and not fits(line):
                line = line[:-1]
            return (line,)
        words[longest] = stem[:-1] + "."


word = st.one_of(
    st.sampled_from(["of", "the", "The", "Mausoleum", "St.", "Dr.Who..", ".NET", "i", "W"]),
    st.text(alphabet="abcdefghijklmnopqrstuvwxyzWMil.'-\u0301", min_size=1, max_size=120),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(word, min_size=1, max_size=8), st.integers(8, 20), st.integers(4, 260), st.integers(1, 3))
def test_fit_lines_matches_the_reference(parts: list[str], size: int, width: int, max_lines: int) -> None:
    text = " ".join(parts)
    assert theme.fit_lines(text, size, width, max_lines) == reference_fit_lines(text, size, width, max_lines)
