"""The board image: readable text (no label under 14 px, link numbers whole), what it must show
(turn order, round, auction bids and display, draft), and its size."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import rendering.tramways as render
from games.tramways import GAME

ALL = {"station": True, "exchange": True, "park": True, "master": True}


def _play_until(state: dict, done, level: int = 1) -> dict:
    while not GAME.status(state).finished and not done(state):
        seat = GAME.status(state).to_act[0]
        state, _ = GAME.apply(state, seat, GAME.bot_move(state, seat, level))
    return state


def _texts(monkeypatch, view: dict, focus: int | None) -> tuple[list[tuple[str, int]], bytes]:
    stamped: list[tuple[str, int]] = []
    original = render.stamp_text

    def spy(image, xy, text, size, fill=(0, 0, 0), anchor="la"):
        stamped.append((text, size))
        original(image, xy, text, size, fill, anchor)

    monkeypatch.setattr(render, "stamp_text", spy)
    render._base.cache_clear()  # the terrain layer's letters too
    return stamped, render.render_board(view, focus)


@pytest.mark.parametrize("players", [2, 5])
def test_every_text_is_at_least_14_px_and_link_numbers_are_whole(monkeypatch, players):
    state = GAME.setup([f"player{i}" for i in range(players)], ALL, 7)
    state = _play_until(state, lambda s: s["round"] == 5 and s["phase"] == "actions")
    view = GAME.view(state, 0)
    assert len(view["links"]) >= 5 * players // 2  # two-digit link numbers at 5 players
    stamped, png = _texts(monkeypatch, view, 0)
    assert min(size for _, size in stamped) >= 14
    texts = [text for text, _ in stamped]
    assert all(str(link["id"]) in texts for link in view["links"])
    assert not any(text.endswith(("...", "…")) for text in texts)
    joined = " ".join(texts)
    assert "Round 5 of 6" in joined and "Turn order" in joined and "Your hand:" in joined
    assert all(p["name"] in joined for p in view["players"])
    image = Image.open(io.BytesIO(png))
    assert image.width <= 800 and len(png) < 300_000


def test_the_auction_shows_bids_passes_and_the_display(monkeypatch):
    state = GAME.setup(["ann", "bob", "cat"], ALL, 3)
    for p in state["players"]:
        p["money"] = 9
    state, _ = GAME.apply(state, 0, GAME.parse("/tram bid 2"))
    state, _ = GAME.apply(state, 1, GAME.parse("/tram pass"))
    stamped, _ = _texts(monkeypatch, GAME.view(state, None), None)
    joined = " ".join(text for text, _ in stamped)
    assert "High bid $2" in joined and "ann bid $2 (high)" in joined and "bob no bid, passed" in joined
    assert "First to pass goes last: bob" in joined and "Auction cards:" in joined


def test_the_draft_shows_the_parcels_left(monkeypatch):
    state = GAME.setup(["ann", "bob"], {**ALL, "parcels": "draft"}, 3)
    state, _ = GAME.apply(state, 0, GAME.parse("/tram draft P2"))
    stamped, _ = _texts(monkeypatch, GAME.view(state, None), None)
    joined = " ".join(text for text, _ in stamped)
    assert "Parcel draft" in joined and "Parcels left to draft:" in joined and "P2," not in joined


def test_the_legend_names_only_the_tiles_in_play():
    state = GAME.setup(["ann", "bob"], {"park": True}, 3)
    legend = " ".join(render._legend(GAME.view(state, None)))
    assert "PARK" in legend and "STN" not in legend and "Station Master" not in legend
