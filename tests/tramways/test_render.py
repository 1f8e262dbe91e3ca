"""The board image: readable text (no label under 14 px, link numbers whole), what it must show
(turn order, round, auction bids and display, draft), and its size."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

import rendering.tramways as render
from games.tramways import GAME
from games.tramways.content import card_name
from rendering import theme

ALL = {"station": True, "exchange": True, "park": True, "master": True}


def _play_until(state: dict, done, level: int = 1) -> dict:
    while not GAME.status(state).finished and not done(state):
        seat = GAME.status(state).to_act[0]
        state, _ = GAME.apply(state, seat, GAME.bot_move(state, seat, level))
    return state


def _texts(view: dict, focus: int | None) -> tuple[list[theme.DrawnText], bytes]:
    """Every text the image draws (the terrain layer's letters too) and the PNG."""
    render.clear_caches()
    with theme.recording() as drawn:
        png = render.render_board(view, focus)
    return drawn, png


@pytest.mark.parametrize("players", [2, 5])
def test_every_text_follows_the_theme_rules_and_link_numbers_are_whole(players):
    state = GAME.setup([f"player{i}" for i in range(players)], ALL, 7)
    state = _play_until(state, lambda s: s["round"] == 5 and s["phase"] == "actions")
    view = GAME.view(state, 0)
    assert len(view["links"]) >= 5 * players // 2  # two-digit link numbers at 5 players
    drawn, png = _texts(view, 0)
    assert theme.text_problems(drawn) == []
    typed = {item.text for item in drawn if item.typed}
    assert all(str(link["id"]) in typed for link in view["links"])  # typed in /tram move ... via
    assert {ep["label"] for ep in view["endpoints"] if ep["kind"] not in ("exchange", "park")} <= typed
    assert {"A", "J", "1", "10"} <= typed  # the cell letters and numbers
    texts = [item.text for item in drawn]
    assert not any(text.endswith(("...", "…")) for text in texts)
    joined = " ".join(texts)
    assert "Round 5 of 6" in joined and "Turn order" in joined and "Your hand" in joined
    assert all(any(text.endswith(f". {p['name']}") for text in texts) for p in view["players"])
    assert all(card_name(slug) in typed for slug in view["hand"] + view["display"])
    image = Image.open(io.BytesIO(png))
    assert image.width <= 700 and len(png) < 300_000


def test_the_auction_shows_bids_passes_and_the_display():
    state = GAME.setup(["ann", "bob", "cat"], ALL, 3)
    for p in state["players"]:
        p["money"] = 9
    state, _ = GAME.apply(state, 0, GAME.parse("/tram bid 2"))
    state, _ = GAME.apply(state, 1, GAME.parse("/tram pass"))
    drawn, _ = _texts(GAME.view(state, None), None)
    joined = " ".join(item.text for item in drawn)
    assert "High bid $2" in joined and "ann bid $2 (high)" in joined and "bob no bid, passed" in joined
    assert "First to pass goes last: bob" in joined and "Auction cards" in joined


def test_the_draft_shows_the_parcels_left():
    state = GAME.setup(["ann", "bob"], {**ALL, "parcels": "draft"}, 3)
    state, _ = GAME.apply(state, 0, GAME.parse("/tram draft P2"))
    view = GAME.view(state, None)
    drawn, _ = _texts(view, None)
    texts = [item.text for item in drawn]
    assert "Parcels left to draft" in texts
    # Each parcel left is named twice (on the map and in the draft row); the drafted P2 only on the map.
    assert texts.count("P2") == 1 and all(texts.count(label) == 2 for label in view["draft"]["pool"])


def test_the_legend_names_only_the_tiles_in_play():
    state = GAME.setup(["ann", "bob"], {"park": True}, 3)
    kinds = [kind for kind, _ in render._legend_entries(GAME.view(state, None))]
    assert "park" in kinds and "station" not in kinds and "master" not in kinds and "exchange" not in kinds


def test_a_cached_card_or_legend_is_the_same_pixels_as_drawing_it_in_place():
    # Cards and legend entries are drawn once and pasted; text at a half-pixel position rounds to
    # even, so each is kept per position parity. Pasted at every parity, they match drawing in place.
    state = _play_until(GAME.setup(["a", "b", "c"], {**ALL}, 3), lambda s: False)
    view = GAME.view(state, None)
    slugs = sorted({*view["display"], *view["dev_display"], "track-crew", "express-line", "delivery"})
    entries = tuple(render._legend_entries(view))
    assert len(entries) > 8
    for x in (30, 31):
        for y in (40, 41):
            for slug in slugs:
                for width in (180, 211):
                    placed = Image.new("RGB", (400, 300), theme.BACKGROUND)
                    placed.paste(render._card_image(slug, width, 99, None, 2, (x % 2, y % 2)), (x, y))
                    drawn = Image.new("RGB", (400, 300), theme.BACKGROUND)
                    render._card_box(drawn, ImageDraw.Draw(drawn), slug, (x, y, x + width, y + 99), None, 2)
                    assert placed.tobytes() == drawn.tobytes(), (slug, width, x, y)
            for kind, label in entries:
                placed = Image.new("RGB", (400, 300), theme.BACKGROUND)
                placed.paste(render._legend_entry(kind, label, 270, (x % 2, y % 2)), (x, y))
                drawn = Image.new("RGB", (400, 300), theme.BACKGROUND)
                render._legend_item(drawn, ImageDraw.Draw(drawn), kind, label, (x, y, x + 270, y + 32))
                assert placed.tobytes() == drawn.tobytes(), (kind, x, y)
