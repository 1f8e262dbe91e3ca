"""Board image: valid PNG within the size budget for every phase and viewer."""

from __future__ import annotations

import io

from PIL import Image, ImageChops

from games.trains import GAME, MANIFEST
from rendering import trains as trains_render
from rendering.theme import player_colour
from rendering.trains import SIZE, TERRAIN_FILL, render_board


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


def _texts(view, focus=None):
    from rendering import theme

    trains_render._base_layer.cache_clear()  # the map layer's labels are drawn (and recorded) again
    trains_render._map_layer.cache_clear()
    with theme.recording() as drawn:
        render_board(view, focus)
    return drawn


def test_every_land_hex_shows_its_coordinate_at_typed_size():
    from rendering import theme

    state = GAME.setup(["ann", "bob"], {"map": "tokyo"}, 3)
    view = GAME.view(state, None)
    drawn = {item.text: item for item in _texts(view) if item.typed}
    land = [h["hex"] for h in view["map"]["hexes"] if h["terrain"] != "sea"]
    assert land and all(h in drawn for h in land)
    assert all(drawn[h].size >= theme.MIN_TYPED for h in land)
    # Coordinates and names never overlap: H6's label sits above Shinjuku's name.
    names = {item.text: item for item in _texts(view) if not item.typed}
    assert drawn["H6"].ink[3] <= names["Shinjuku"].ink[1]


def test_a_rail_is_drawn_inside_its_hex_and_adjacent_rails_are_joined():
    state = GAME.setup(["ann", "bob"], {"map": "tokyo"}, 3)
    state["rails"] = {}
    bare = Image.open(io.BytesIO(render_board(GAME.view(state, None)))).convert("RGB")
    state["rails"] = {"E5": [0]}
    one = Image.open(io.BytesIO(render_board(GAME.view(state, None)))).convert("RGB")
    map_w, map_h = trains_render._map_size(14, 11)
    box = ImageChops.difference(bare.crop((0, 0, map_w, map_h)), one.crop((0, 0, map_w, map_h))).getbbox()
    cx, cy = trains_render._centre(*trains_render._parse("E5"))
    assert box is not None
    assert cx - SIZE <= box[0] and box[2] <= cx + SIZE and cy - SIZE <= box[1] and box[3] <= cy + SIZE
    # A neighbour with the same player's rail: the track line between the two runs in ann's colour.
    state["rails"] = {"F4": [0], "G4": [0]}
    two = Image.open(io.BytesIO(render_board(GAME.view(state, None)))).convert("RGB")
    (ax, ay), (bx, by) = (
        trains_render._rail_spots("plain", 1, *trains_render._centre(*trains_render._parse(h)))[0] for h in ("F4", "G4")
    )
    middle = two.getpixel((round((ax + bx) / 2), round((ay + by) / 2)))
    assert sum(abs(a - b) for a, b in zip(middle, player_colour(0), strict=True)) < 40


def test_the_private_view_shows_the_hand_as_cards_and_its_money():
    state = GAME.setup(["ann", "bob"], {"map": "tokyo"}, 3)
    public = render_board(GAME.view(state, None), None)
    private_view = GAME.view(state, 0)
    assert render_board(private_view, 0) != public
    texts = [item.text for item in _texts(private_view, 0)]
    hand = private_view["hand"]
    from games.trains.content import CARDS

    for slug in set(hand):
        count = hand.count(slug)
        assert (CARDS[slug].name if count == 1 else f"{count}x {CARDS[slug].name}") in texts
    money = sum(CARDS[slug].money for slug in hand)
    assert f"Money if you play every train: ${money}" in texts
    assert f"Your hand ({len(hand)} cards)" in texts
    # The public board names no card of anyone's hand.
    public_texts = [item.text for item in _texts(GAME.view(state, None))]
    assert not any(text.startswith("Your hand") for text in public_texts)


def test_the_player_strip_has_every_count_and_the_active_player_is_marked_in_words():
    state = GAME.setup(["ann", "bob"], {"map": "tokyo"}, 3)
    view = GAME.view(state, None)
    texts = [item.text for item in _texts(view)]
    current = view["players"][view["current"]]
    assert f"{current['name']} - to play" in texts
    for p in view["players"]:
        cards = f"hand {p['hand_size']} · deck {p['deck_size']} · discard {p['discard_size']} · Waste {p['waste']}"
        assert cards in texts
        assert any(text.startswith(f"rails {p['rails_on_board']} laid, {p['rails_left']} left") for text in texts)
