"""Board and standings images rendered from real Tiny Towns engine playouts."""

from __future__ import annotations

import pytest

from rendering import render, render_standings, tiny_towns
from tests.rendering import synthetic
from tests.rendering.imaging import decode, diff_box


@pytest.mark.parametrize(
    ("players", "options", "level", "every"),
    [
        (1, "monuments=on", 1, 5),
        (2, "monuments=on cave=on", 1, 9),
        (4, "variant=town-hall", 0, 9),
        (6, "monuments=on", 1, 25),
    ],
)
def test_engine_views_render(players: int, options: str, level: int, every: int) -> None:
    views, standings = synthetic.engine_playout(players, seed=players, every=every, options=options, level=level)
    assert len(views) > 3
    expected = tiny_towns.board_image(views[-1]).size
    for view in views:
        decode(render(view))
        seat = view["viewer"] if view["viewer"] is not None else 0
        decode(render(view, focus=seat))
    final = render(views[-1])
    assert decode(final).size == expected
    table = render_standings(views[-1], standings)
    assert decode(table).width > 300
    assert len(final) < 300_000 and len(table) < 300_000


def test_every_engine_change_to_a_square_shows_in_that_square() -> None:
    views, _ = synthetic.engine_playout(2, seed=11, every=1, options="monuments=on", level=1)
    spectator = [view for view in views if view["viewer"] is None]
    checked = 0
    for before, after in zip(spectator, spectator[1:], strict=False):
        a, b = tiny_towns.board_image(before), tiny_towns.board_image(after)
        for seat, (old, new) in enumerate(zip(before["towns"], after["towns"], strict=True)):
            for index in range(16):
                if old["cells"][index] != new["cells"][index]:
                    box = tiny_towns.cell_box(before, seat, index)
                    assert diff_box(a.crop(box), b.crop(box)) is not None, (seat, index)
                    checked += 1
    assert checked > 20
