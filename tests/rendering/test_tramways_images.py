"""Tramways images follow the theme's rules (issue 13) on views of seeded bot games: the start,
an auction, mid-game, late and final boards and private views (hand), at 1 and 5 players and every
option set (each Grand Station module, the parcel draft, and all of them together). Every text is at
least MIN_TEXT px (cell letters and numbers, building labels, link numbers and card names players
type: MIN_TYPED) and inside its box, the image is at most MAX_WIDTH wide and under 300 KB, every
player has a shape as well as a colour, and the legend lists every mark the board uses."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from games.tramways.content import card_name
from rendering import theme, tramways
from tests.rendering.samples import Table, record
from tests.tramways.samples import TABLES, samples


@pytest.mark.parametrize("table", TABLES, ids=[table.label for table in TABLES])
def test_every_sample_view_follows_the_text_rules(table: Table) -> None:
    found = list(samples(tables=(table,)))
    moments = [s.label.removeprefix(table.label + "-") for s in found]
    assert moments == ["start", "auction", "mid", "late", "end", "mid-private", "start-private"]
    assert found[4].view["finished"] and not found[0].view["finished"]
    for sample in found:
        drawn, png = record(sample)
        assert theme.text_problems(drawn) == [], sample.label
        image = Image.open(io.BytesIO(png))
        assert image.width <= theme.MAX_WIDTH and len(png) <= 300_000, sample.label
        typed = {item.text for item in drawn if item.typed}
        assert {str(link["id"]) for link in sample.view["links"]} <= typed, sample.label
        if sample.focus is not None:  # the private view shows the hand as cards, names typed
            assert {card_name(slug) for slug in sample.view["hand"]} <= typed, sample.label


def test_every_player_has_a_shape_and_the_legend_covers_the_modules() -> None:
    assert len(set(tramways.SHAPES)) == 5  # 5 players at most, one shape each
    five = next(s for s in samples(tables=(TABLES[1],)) if s.label.endswith("-mid-private"))
    kinds = {kind for kind, _ in tramways._legend_entries(five.view)}
    assert {"station", "exchange", "park", "master", "type-R", "type-C", "type-I", "type-L", "parcel"} <= kinds
    links = five.view["links"]
    endpoints = five.view["endpoints"]
    assert {"tag", "pax"} <= kinds and links
    assert ("room" in kinds) == any(ep["capacity"] > ep["passengers"] for ep in endpoints)
    assert ("complete" in kinds) == any(link["complete"] for link in links)
    assert ("open" in kinds) == any(not link["complete"] for link in links)
    assert ("upgraded" in kinds) == any(link["upgraded"] for link in links)
    start = next(s for s in samples(tables=(TABLES[1],)) if s.label.endswith("-start"))
    assert not start.view["links"] and "tag" not in {kind for kind, _ in tramways._legend_entries(start.view)}
    drawn, _ = record(five)
    texts = {item.text for item in drawn}
    assert {label for _, label in tramways._legend_entries(five.view)} <= texts
    assert {"pts", "$", "HP", "stress", "workers", "rails", "hand", "deck"} <= texts  # the player table
