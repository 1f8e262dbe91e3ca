"""Board image: valid PNG within the size budget for every phase and viewer."""

from __future__ import annotations

import io

from PIL import Image

from games.trains import GAME, MANIFEST
from rendering.trains import TERRAIN_FILL, render_board


def _states():
    state = GAME.setup(["ann", "bob", "cat", "dan"], {"map": "osaka"}, 2)
    yield state
    step = 0
    while not GAME.status(state).finished:
        seat = GAME.status(state).to_act[0]
        state, _ = GAME.apply(state, seat, GAME.bot_move(state, seat, 1))
        step += 1
        if step % 150 == 0:
            yield state
    yield state


def test_render_every_stage_and_viewer():
    for state in _states():
        for viewer in (None, 0):
            png = render_board(GAME.view(state, viewer), viewer)
            assert png[:8] == b"\x89PNG\r\n\x1a\n"
            assert len(png) <= 300_000
            image = Image.open(io.BytesIO(png))
            assert image.width >= 800 and image.height >= 600


def test_render_marks_empty_piles_and_all_seats():
    state = GAME.setup(["ann", "bob"], {"map": "tokyo"}, 3)
    state["supply"]["express-train"] = 0
    state["rails"] = {"E5": [0, 1]}
    view = GAME.view(state, None)
    assert next(p for p in view["supply"] if p["card"] == "express-train")["empty"]
    full = render_board(view, None)
    state["supply"]["express-train"] = 5
    other = render_board(GAME.view(state, None), None)
    assert full != other  # the empty marker changes the image


def test_colours_come_from_the_manifest_palette():
    palette = MANIFEST.palette
    assert palette["accent"] == (0, 158, 115)
    assert all(len(rgb) == 3 and all(0 <= c <= 255 for c in rgb) for rgb in palette.values())
    terrains = ("plain", "river", "mountain", "sea", "city", "remote")
    assert dict(TERRAIN_FILL) == {t: palette[f"terrain_{t}"] for t in terrains}
