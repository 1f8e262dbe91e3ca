"""Trains images are drawn partly straight into a palette image: the map's changing parts (rails, track
lines, stations, start hexes) in their exact colours at fixed palette indices, over the map layer
mapped onto the map's palette once; the legend once per table; the panel mapped per board."""

from __future__ import annotations

from typing import Any

from PIL import Image

from games.trains import GAME
from rendering import trains
from rendering.theme import INK, player_colour
from tests.rendering.imaging import decode


def _board(state: dict[str, Any], focus: int | None = None) -> Image.Image:
    return decode(trains.render_board(GAME.view(state, focus), focus))


def test_rails_tracks_and_stations_keep_their_exact_colours() -> None:
    state = GAME.setup(["ann", "bob"], {"map": "tokyo"}, 3)
    state["rails"] = {"F4": [0], "G4": [0], "E5": [1]}
    image = _board(state)
    palette = image.getpalette("RGB") or []
    assert [tuple(palette[3 * i : 3 * i + 3]) for i in range(len(trains.EXACT))] == list(trains.EXACT)
    rgb = image.convert("RGB")
    (ax, ay), (bx, by) = (trains._rail_spots("plain", 1, *trains._centre(*trains._parse(h)))[0] for h in ("F4", "G4"))
    assert rgb.getpixel((round((ax + bx) / 2), round((ay + by) / 2))) == player_colour(0)
    ex, ey = trains._rail_spots("plain", 1, *trains._centre(*trains._parse("E5")))[0]
    assert rgb.getpixel((round(ex), round(ey))) == player_colour(1)
    city = next(h for h in GAME.view(state, None)["map"]["hexes"] if h["terrain"] == "city" and h.get("slots"))
    cx, cy = trains._centre(*trains._parse(city["hex"]))
    x0 = cx - (city["slots"] - 1) * 10
    assert rgb.getpixel((round(x0), round(cy + 40 - 2))) != INK  # a free slot: white inside
    state["stations"] = {city["hex"]: 1}
    assert _board(state).convert("RGB").getpixel((round(x0), round(cy + 40 - 2))) == INK  # built: ink


def test_a_new_table_redraws_only_the_legend_and_shares_the_map_palette() -> None:
    first = GAME.setup(["ann", "bob"], {"map": "osaka"}, 3)
    second = GAME.setup(["zed", "yolanda-with-a-long-name", "xi"], {"map": "osaka"}, 3)
    assert first["rails"] == second["rails"] == {} and first["stations"] == second["stations"] == {}
    a, b = _board(first), _board(second)
    assert a.getpalette() == b.getpalette()
    map_w, map_h = trains._map_size(*(GAME.view(first, None)["map"][k] for k in ("columns", "rows")))
    assert a.crop((0, 0, map_w, map_h)).tobytes() == b.crop((0, 0, map_w, map_h)).tobytes()
    legend = (0, map_h, map_w, map_h + 4 * trains.LEGEND_ROW)
    assert a.crop(legend).tobytes() != b.crop(legend).tobytes()  # it names each table's players
