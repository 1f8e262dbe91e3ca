"""My Trolley Town images follow the theme's rules (issue 13) on views of seeded bot games: the start,
mid-game, late and final boards and private (focus) views, at 1 and 4 players and every option set.
Every text is at least MIN_TEXT px (coordinates and building names players type: MIN_TYPED) and
inside its box, the image is at most MAX_WIDTH wide and under 300 KB, and the legend explains every
resource shape and effect timing."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from rendering import theme, trolley_town
from tests.rendering.samples import Table, record
from tests.trolley_town.samples import TABLES, samples


@pytest.mark.parametrize("table", TABLES, ids=[table.label for table in TABLES])
def test_every_sample_view_follows_the_text_rules(table: Table) -> None:
    found = list(samples(tables=(table,)))
    moments = [s.label.removeprefix(table.label + "-") for s in found]
    assert moments == ["start", "mid", "late", "end", "mid-private", "late-private"]
    assert found[3].view.get("finished") and found[0].view["round"] == 1
    for sample in found:
        drawn, png = record(sample)
        assert theme.text_problems(drawn) == [], sample.label
        image = Image.open(io.BytesIO(png))
        assert image.width <= theme.MAX_WIDTH and len(png) <= 300_000, sample.label


def test_coordinates_and_market_names_are_typed_size_and_the_legend_is_complete() -> None:
    sample = next(s for s in samples(tables=(TABLES[1],)) if s.label == "4p-mid-private")
    drawn, _ = record(sample)
    typed = {item.text for item in drawn if item.typed}
    town = sample.view["towns"][sample.focus]
    xs = {int(cell["x"]) for cell in town["cells"]}
    assert {str(x) for x in xs} <= typed  # the axis labels of the focused town
    assert any("," in text for text in typed)  # free cells labelled x,y
    names = " ".join(item.text for item in drawn if item.typed and item.size >= theme.MIN_TYPED)
    row = [tile for tile in sample.view["market"]["row"] if tile]
    assert all(tile["name"].split()[0] in names for tile in row)  # names wrap, so their first word
    texts = {item.text for item in drawn}
    assert set(trolley_town.RESOURCE_LEGEND.values()) <= texts
    assert {label for _, label, _ in trolley_town.TIMINGS.values()} <= texts
    assert {label for _, label in trolley_town.MARKS} <= texts
    assert min(item.size for item in drawn) >= theme.MIN_TEXT


def test_the_png_is_the_board_with_the_market_encoded_once_per_market() -> None:
    from PIL import ImageChops, ImageStat

    found = list(samples(tables=(TABLES[1],)))
    trolley_town.clear_caches()
    for sample in found:
        drawn = trolley_town.board_image(sample.view, sample.focus)
        with Image.open(io.BytesIO(trolley_town.render_board(sample.view, sample.focus))) as png:
            decoded = png.convert("RGB")
        assert decoded.size == drawn.size, sample.label
        # Palette colours only: close to the drawing everywhere, never a wrong colour.
        difference = ImageChops.difference(drawn, decoded)
        assert sum(ImageStat.Stat(difference).mean) / 3 < 1.5, sample.label
        assert max(high for _, high in difference.getextrema()) < 60, sample.label
    markets = {trolley_town._market_key(sample.view) for sample in found}
    assert trolley_town._market_band.cache_info().misses == len(markets) < len(found)


def test_every_board_is_mapped_onto_one_fixed_palette() -> None:
    # One palette for every board (made once from the board's own drawings): mapping onto a palette
    # Pillow has already looked colours up in is about twice as fast as onto one made per board.
    palettes = set()
    for sample in samples():
        with Image.open(io.BytesIO(trolley_town.render_board(sample.view, sample.focus))) as png:
            palettes.add(bytes(png.getpalette("RGB") or []))
    assert len(palettes) == 1
