"""Tiny Towns board images from hand-built views (the engine package supplies only the palette)."""

from __future__ import annotations

import copy
import itertools
import random
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from PIL import Image

from games.tiny_towns import MANIFEST
from games.tiny_towns.content import COLOURS
from games.tiny_towns.content import RESOURCES as ENGINE_RESOURCES
from rendering import theme, tiny_towns
from rendering.tiny_towns import BUILDING_COLOURS, RESOURCE_COLOURS
from tests.rendering import synthetic
from tests.rendering.imaging import decode, diff_box, inside

RESOURCES = list(RESOURCE_COLOURS)


def test_colours_come_from_the_manifest_palette() -> None:
    """Every resource and building family the engine knows has a named colour in the game's manifest."""
    assert list(RESOURCE_COLOURS) == list(ENGINE_RESOURCES) == synthetic.RESOURCES
    assert set(BUILDING_COLOURS) == {*COLOURS, "pink"}  # pink: monuments
    for name, rgb in {
        **{f"resource-{k}": v for k, v in RESOURCE_COLOURS.items()},
        **{f"building-{k}": v for k, v in BUILDING_COLOURS.items()},
    }.items():
        assert MANIFEST.palette[name] == rgb
    assert MANIFEST.palette["accent"] == BUILDING_COLOURS["blue"]
    assert set(tiny_towns.RESOURCE_LETTERS) == set(RESOURCE_COLOURS)


def image(view: dict[str, Any], focus: int | None = None) -> Image.Image:
    return tiny_towns.board_image(view, focus)


def crop(view: dict[str, Any], seat: int, index: int, focus: int | None = None) -> Image.Image:
    return image(view, focus).crop(tiny_towns.cell_box(view, seat, index, focus))


def with_cell(view: dict[str, Any], seat: int, index: int, content: Any) -> dict[str, Any]:
    result = copy.deepcopy(view)
    result["towns"][seat]["cells"][index] = content
    return result


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_full_board_is_a_png_of_the_drawn_size(players: int) -> None:
    view = synthetic.view(players, seed=players, viewer=0)
    png = decode(tiny_towns.render_board(view))
    assert png.size == image(view).size
    width, height = png.size
    assert 400 < width <= theme.MAX_WIDTH and 400 < height <= 1100  # issue 13: at most 1600 px wide
    assert len(tiny_towns.render_board(view)) < 300_000


def test_board_grows_with_the_number_of_towns() -> None:
    sizes = {n: image(synthetic.view(n, seed=3)).size for n in range(1, 7)}
    widths = {n: size[0] for n, size in sizes.items()}
    heights = {n: size[1] for n, size in sizes.items()}
    # 1 and 2 towns are drawn with larger squares; 4 towns sit 2x2, 5-6 towns 3x2.
    assert widths[1] < widths[4] < widths[2] < widths[3] == widths[5] == widths[6]
    assert heights[3] < heights[4] == heights[5] == heights[6]
    cell = {n: tiny_towns.cell_box(synthetic.view(n, seed=3), 0, 0) for n in (1, 2, 3)}
    assert [box[2] - box[0] for box in cell.values()] == sorted(
        (box[2] - box[0] for box in cell.values()), reverse=True
    )


def test_towns_do_not_overlap_and_fit_the_canvas() -> None:
    view = synthetic.view(6, seed=4)
    width, height = image(view).size
    boxes = [tiny_towns.town_box(view, seat) for seat in range(6)]
    for box in boxes:
        assert inside(box, (0, 0, width, height))
    for a, b in itertools.combinations(boxes, 2):
        assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


@pytest.mark.parametrize(("players", "seat", "index"), [(1, 0, 0), (2, 1, 5), (4, 3, 15), (6, 4, 10)])
def test_placing_a_cube_changes_only_that_square(players: int, seat: int, index: int) -> None:
    before = with_cell(synthetic.view(players, seed=11), seat, index, None)
    after = with_cell(before, seat, index, {"resource": "glass"})
    # In the grid only that square changes; under the grid the "free squares" count does.
    grid = grid_box(before, seat)
    box = diff_box(image(before).crop(grid), image(after).crop(grid))
    assert box is not None
    x0, y0, x1, y1 = tiny_towns.cell_box(before, seat, index)
    assert inside(box, (x0 - grid[0], y0 - grid[1], x1 - grid[0], y1 - grid[1]))
    footer = (grid[0], grid[3], grid[2], tiny_towns.town_box(before, seat)[3])
    assert diff_box(image(before).crop(footer), image(after).crop(footer)) is not None


def grid_box(view: dict[str, Any], seat: int, focus: int | None = None) -> tuple[int, int, int, int]:
    first, last = tiny_towns.cell_box(view, seat, 0, focus), tiny_towns.cell_box(view, seat, 15, focus)
    return first[0], first[1], last[2], last[3]


def test_placing_a_cube_changes_the_focus_view_in_that_square() -> None:
    before = with_cell(synthetic.view(3, seed=12), 2, 6, None)
    after = with_cell(before, 2, 6, {"resource": "wheat"})
    # Within the grid only that square changes (the footer and breakdown count free squares).
    town = grid_box(before, 2, focus=2)
    box = diff_box(image(before, 2).crop(town), image(after, 2).crop(town))
    assert box is not None
    x0, y0, x1, y1 = tiny_towns.cell_box(before, 2, 6, focus=2)
    assert inside(box, (x0 - town[0], y0 - town[1], x1 - town[0], y1 - town[1]))


def test_resources_differ_even_in_greyscale() -> None:
    base = synthetic.view(1, seed=1)
    crops = [crop(with_cell(base, 0, 0, {"resource": r}), 0, 0).convert("L").tobytes() for r in RESOURCES]
    assert len(set(crops)) == len(RESOURCES)


def test_fed_and_unfed_cottages_differ_in_greyscale() -> None:
    base = synthetic.view(1, seed=1)
    fed = crop(with_cell(base, 0, 5, {"building": "cottage", "fed": True}), 0, 5).convert("L")
    unfed = crop(with_cell(base, 0, 5, {"building": "cottage", "fed": False}), 0, 5).convert("L")
    assert diff_box(fed, unfed) is not None


def test_building_family_icons_differ_in_greyscale() -> None:
    # Same name for every family, so only the icon and tints can tell them apart.
    families = ["blue", "red", "gray", "orange", "green", "yellow", "black", "pink"]
    crops = []
    for family in families:
        view = synthetic.view(1, seed=1)
        view["catalog"]["thing"] = {"name": "Thing", "colour": family, "pattern": ["WS"], "monument": False}
        tile = crop(with_cell(view, 0, 0, {"building": "thing"}), 0, 0)
        icon_area = tile.crop((0, 0, tile.width, tile.height // 2)).convert("L")
        crops.append(icon_area.tobytes())
    assert len(set(crops)) == len(families)


def test_every_building_and_monument_in_the_catalog_renders() -> None:
    slugs = list(synthetic.CATALOG)
    rng_cells = iter(slugs)
    view = synthetic.view(6, seed=5, monuments=False)
    view["catalog"] = {slug: synthetic.entry(slug) for slug in slugs}
    rng = random.Random(5)
    for town in view["towns"]:
        for index in range(16):
            slug = next(rng_cells, None)
            town["cells"][index] = synthetic.building_cell(slug, rng) if slug else {"resource": rng.choice(RESOURCES)}
    empty = crop(with_cell(view, 0, 0, None), 0, 0)
    full = image(view)
    for seat in range(6):
        for index in range(16):
            assert diff_box(full.crop(tiny_towns.cell_box(view, seat, index)), empty) is not None
    for seat in range(6):
        decode(tiny_towns.render_board(view, seat))
    # Every card in the side panel: cycle all slugs through the 7 "in play" positions.
    for start in range(0, len(slugs), 7):
        view["buildings"] = slugs[start : start + 7]
        decode(tiny_towns.render_board(view))


@pytest.mark.parametrize(
    "variants",
    [
        [{"building": "factory", "holds": r} for r in RESOURCES],
        [{"building": "bank", "holds": r} for r in RESOURCES],
        [{"building": "warehouse", "stored": s} for s in ([], ["wood"], ["wood", "wheat"], ["wood", "wheat", "stone"])],
        [{"building": "cottage", "fed": False}, {"building": "cottage", "fed": False, "bond": ["stone"]}],
        [
            {"building": "cottage", "fed": True, "bond": ["glass"]},
            {"building": "cottage", "fed": True, "bond": ["brick"]},
        ],
    ],
)
def test_held_and_stored_cubes_show(variants: list[dict[str, Any]]) -> None:
    view = synthetic.view(2, seed=2, buildings=["cottage", "farm", "well", "chapel", "tavern", "bank", "warehouse"])
    view["catalog"]["factory"] = synthetic.entry("factory")
    crops = [crop(with_cell(view, 1, 9, variant), 1, 9).tobytes() for variant in variants]
    assert len(set(crops)) == len(variants)


def test_status_marks_change_only_that_towns_header() -> None:
    view = synthetic.view(4, seed=6)
    for town in view["towns"]:
        town.update(done=False, complete=False, resigned=False, placed=True)
    for flag in ("done", "complete", "resigned"):
        changed = copy.deepcopy(view)
        changed["towns"][2][flag] = True
        box = diff_box(image(view), image(changed))
        assert box is not None, flag
        header = tiny_towns.town_box(view, 2)
        grid_top = tiny_towns.cell_box(view, 2, 0)[1]
        assert inside(box, (header[0], header[1], header[2], grid_top)), flag


def test_master_builder_mark_moves_between_towns() -> None:
    view = synthetic.view(3, seed=7)
    view["master_builder"] = 0
    moved = copy.deepcopy(view)
    moved["master_builder"] = 1
    a, b = image(view), image(moved)
    for seat in (0, 1):
        assert diff_box(a.crop(tiny_towns.town_box(view, seat)), b.crop(tiny_towns.town_box(view, seat))) is not None
    assert diff_box(a.crop(tiny_towns.town_box(view, 2)), b.crop(tiny_towns.town_box(view, 2))) is None


def test_a_hidden_monument_draws_nothing_in_that_town() -> None:
    # Seat 1 keeps a secret monument: seat 0's view has monument null for seat 1, and shows its own.
    plain = synthetic.view(3, seed=8, viewer=0, monuments=False)
    own = copy.deepcopy(plain)
    own["towns"][0]["monument"] = "fort-ironweed"
    own["catalog"]["fort-ironweed"] = synthetic.entry("fort-ironweed")
    a, b = image(plain), image(own)
    box = diff_box(a, b)
    assert box is not None
    for seat in (1, 2):
        town = tiny_towns.town_box(plain, seat)
        assert diff_box(a.crop(town), b.crop(town)) is None
    # The owner's secret appears in their own header.
    town0 = tiny_towns.town_box(plain, 0)
    assert diff_box(a.crop(town0), b.crop(town0)) is not None


def test_monument_options_show_only_when_present() -> None:
    view = synthetic.view(2, seed=9, viewer=0, monuments=False)
    view["phase"] = "monuments"
    offered = copy.deepcopy(view)
    offered["towns"][0]["monument_options"] = ["starloom", "silva-forum"]
    for slug in ("starloom", "silva-forum"):
        offered["catalog"][slug] = synthetic.entry(slug)
    assert image(offered).size[1] >= image(view).size[1]
    assert diff_box(image(view), image(offered)) is not None


def test_focus_view_is_larger_and_lists_the_breakdown() -> None:
    view = synthetic.view(4, seed=10)
    full_cell = tiny_towns.cell_box(view, 3, 0)
    focus_cell = tiny_towns.cell_box(view, 3, 0, focus=3)
    assert focus_cell[2] - focus_cell[0] > 1.5 * (full_cell[2] - full_cell[0])
    png = decode(tiny_towns.render_board(view, 3))
    assert png.size == image(view, 3).size
    changed = copy.deepcopy(view)
    changed["towns"][3]["breakdown"]["Bonus"] = 5
    right = tiny_towns.town_box(view, 3, focus=3)[2]
    beside = (right, 0, image(view, 3).width, image(view, 3).height)
    # The breakdown panel beside the town lists it (the town's own footer does too).
    assert diff_box(image(view, 3).crop(beside), image(changed, 3).crop(beside)) is not None
    with pytest.raises(ValueError):
        tiny_towns.render_board(view, 4)
    with pytest.raises(ValueError):
        tiny_towns.cell_box(view, 2, 0, focus=3)


def test_focus_shows_the_chosen_town() -> None:
    view = synthetic.view(2, seed=13)
    view["towns"][0]["cells"] = [None] * 16
    view["towns"][1]["cells"] = [{"resource": "brick"}] * 16
    assert diff_box(image(view, 0), image(view, 1)) is not None


def test_long_player_names_stay_inside_their_town() -> None:
    view = synthetic.view(6, seed=14)
    renamed = copy.deepcopy(view)
    renamed["towns"][4]["player"] = "Bartholomew-the-Magnificent-of-Very-Long-Names"
    box = diff_box(image(view), image(renamed))
    assert box is not None
    assert inside(box, tiny_towns.town_box(view, 4))


def test_town_hall_and_solo_panels_render() -> None:
    view = synthetic.view(3, seed=15)
    hall = copy.deepcopy(view)
    hall["master_builder"] = None
    hall["town_hall"] = {"mayor": 1, "cycle_round": 2, "draw_pile": 7, "discards": 3, "revealed": "wheat"}
    assert diff_box(image(view), image(hall)) is not None
    decode(tiny_towns.render_board(hall))
    solo = synthetic.view(1, seed=16)
    other = copy.deepcopy(solo)
    other["solo"] = {"revealed": ["stone", "stone", "wood"]}
    solo["solo"] = {"revealed": ["glass", "brick", "wheat"]}
    assert diff_box(image(solo), image(other)) is not None


def test_sparse_and_unknown_content_still_renders() -> None:
    # Early-game views (empty towns, no resource yet) and a slug missing from the catalog.
    view = synthetic.view(2, seed=17, fill=0.0)
    view.update(resource=None, phase="announce", round=1)
    view["towns"][0]["cells"][3] = {"building": "mystery-hut"}
    decode(tiny_towns.render_board(view))
    decode(tiny_towns.render_board(view, 0))


def test_renders_in_parallel_threads_match_sequential_ones() -> None:
    # The host renders with asyncio.to_thread; shared caches and fonts must not mix results.
    views = [synthetic.view(n, seed=40 + n, viewer=0) for n in (2, 3, 5, 6)] * 2
    tiny_towns._tile.cache_clear()
    theme._text_mask.cache_clear()
    with ThreadPoolExecutor(max_workers=4) as pool:
        parallel = list(pool.map(tiny_towns.render_board, views))
    assert parallel == [tiny_towns.render_board(view) for view in views]


def drawn_texts(view: dict[str, Any], focus: int | None = None) -> list[str]:
    for cached in (tiny_towns._tile, tiny_towns._card, tiny_towns._heading, tiny_towns._legend):
        cached.cache_clear()  # cached pieces are drawn (and recorded) again
    with theme.recording() as drawn:
        tiny_towns.board_image(view, focus)
    return [item.text for item in drawn]


def test_points_per_building_and_free_squares_during_play_empty_squares_at_the_end() -> None:
    view = synthetic.view(3, seed=4)
    town = view["towns"][1]
    free = sum(1 for cell in town["cells"] if cell is None)
    # A footer may wrap onto two lines: read the drawn lines as one text.
    everything = " ".join(drawn_texts(view))
    assert f"free squares: {free}" in everything
    for label, points in town["breakdown"].items():
        if label != "Empty squares":
            assert f"{label} {points}" in everything
    assert "Empty squares" not in everything
    header_points = town["score"] - town["breakdown"]["Empty squares"]
    assert f"{header_points} VP" in drawn_texts(view)
    final = copy.deepcopy(view)
    final["finished"], final["phase"] = True, "finished"
    everything = " ".join(drawn_texts(final))
    assert f"Empty squares {town['breakdown']['Empty squares']}" in everything
    assert "free squares" not in everything


def test_the_cave_and_what_is_in_it_when_the_rule_is_on() -> None:
    view = synthetic.view(2, seed=5)
    assert not any("cave" in text for text in drawn_texts(view))
    view["cave_rule"] = True
    view["towns"][0]["cave"], view["towns"][0]["cave_used"] = ["stone", "brick"], 2
    everything = " ".join(drawn_texts(view))
    assert "cave: stone, brick (2 of 2 used)" in everything
    assert "cave: empty (0 of 2 used)" in everything


def test_badges_follow_what_happened() -> None:
    view = synthetic.view(3, seed=6)
    view["phase"] = "place"
    for town in view["towns"]:
        town.update(placed=False, done=False, resigned=False, kicked=False, complete=False)
    view["towns"][0].update(placed=True)  # placed, then "done" was taken back (undo)
    view["towns"][1].update(resigned=True, kicked=True)
    view["towns"][2].update(resigned=True)
    texts = drawn_texts(view)
    assert "PLACED - NOT DONE" in texts and "KICKED" in texts and "RESIGNED" in texts


def test_the_final_board_shows_ranks_the_winner_and_a_solo_title() -> None:
    view = synthetic.view(3, seed=7)
    view["finished"], view["phase"] = True, "finished"
    for seat, rank in enumerate((2, 1, 3)):
        view["towns"][seat]["rank"] = rank
    texts = drawn_texts(view)
    assert "1st - WINNER" in texts and "2nd" in texts and "3rd" in texts
    solo = synthetic.view(1, seed=7)
    solo["finished"], solo["phase"] = True, "finished"
    solo["towns"][0].update(rank=1, title="Builder's Apprentice")
    texts = drawn_texts(solo)
    assert "Builder's Apprentice" in texts  # the chip, whole
    assert "title: Builder's Apprentice" in " ".join(texts)  # and the footer


def test_the_legend_explains_resources_and_cottages() -> None:
    texts = drawn_texts(synthetic.view(2, seed=8))
    for letter, resource in (("W", "wood"), ("H", "wheat"), ("B", "brick"), ("G", "glass"), ("S", "stone")):
        assert f"{letter} = {resource}" in texts
    assert "fed Cottage" in texts and "unfed: 0 VP" in texts
