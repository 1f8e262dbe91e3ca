"""Render workers draw each game's fresh boards when they start (rendering.warmup), so a player's first
board after a restart finds the map layers and palettes made; and the bot starts its workers at once."""

from __future__ import annotations

import multiprocessing

import pytest

import games
import rendering
from bot.discord import app
from games.options import parse_options
from rendering import trains, warmup


def test_sample_views_cover_the_smallest_and_largest_tables_and_every_option_choice() -> None:
    for slug in games.available_slugs():
        spec = games.get_game(slug)
        views = list(warmup.sample_views(slug))
        assert [focus for _, focus in views[:2]] == [None, 0], slug
        counts = {len(view["players"]) for view, _ in views if "players" in view}
        if counts:  # every built-in view lists its players
            assert counts == {spec.min_players, spec.max_players}, slug
    maps = {view["map"]["name"] for view, _ in warmup.sample_views("trains")}
    assert len(maps) == len(next(o for o in games.get_game("trains").options if o.name == "map").choices)


def test_a_fresh_trains_game_after_warm_up_builds_no_map_layer_or_palette() -> None:
    for cached in (trains._map_layer, trains._base_layer, trains._palette):
        cached.cache_clear()
    assert rendering.warm(["trains"]) == ["rendering.trains"]
    layers, palettes = trains._map_layer.cache_info(), trains._palette.cache_info()
    assert layers.currsize == palettes.currsize == 2  # Tokyo and Osaka
    spec = games.get_game("trains")
    for map_name in ("tokyo", "osaka"):
        state = spec.setup(["zoe", "yan", "xia"], parse_options(f"map={map_name}", spec.options), 99)
        assert rendering.render(spec.view(state, None)).startswith(b"\x89PNG")
    assert trains._map_layer.cache_info().misses == layers.misses
    assert trains._palette.cache_info().misses == palettes.misses
    assert trains._base_layer.cache_info().misses > 0  # the legend names these players: drawn for them


def test_warm_without_drawing_only_imports() -> None:
    trains._map_layer.cache_clear()
    assert rendering.warm(["trains"], draw=False) == ["rendering.trains"]
    assert trains._map_layer.cache_info().currsize == 0


def test_the_render_pool_starts_its_workers_before_any_board(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app, "RENDER_PROCESSES", 2)
    before = set(multiprocessing.active_children())
    pool = app.render_pool()
    assert pool is not None
    try:
        assert len(set(multiprocessing.active_children()) - before) == 2
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
