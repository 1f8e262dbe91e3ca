"""Data files: every card and map records its source; maps meet the reference's constraints."""

from __future__ import annotations

import copy
import json

import pytest

from games.trains import content
from games.trains.content import CARDS, DATA, MAPS, ContentError, load_cards, load_map


def test_cards_have_sources_and_reference_numbers():
    assert len(CARDS) == 39  # 8 basic + Waste + 30 kingdom
    assert len(content.KINGDOM) == 30
    for card in CARDS.values():
        assert card.source in content.SOURCES
        assert all(src in content.SOURCES for src in card.sources.values())
    assert {c.slug: c.cost for c in CARDS.values() if not c.kingdom} == {
        "normal-train": 1,
        "express-train": 3,
        "limited-express-train": 6,
        "lay-rails": 3,
        "station-expansion": 3,
        "apartment": 3,
        "tower": 5,
        "skyscraper": 8,
        "waste": 0,
    }
    assert [CARDS[s].vp for s in ("apartment", "tower", "skyscraper")] == [1, 2, 4]
    assert CARDS["lay-rails"].sources["cost"] == "project"
    assert CARDS["parallel-line"].source == "project" and CARDS["tunnel"].source == "published"
    assert all(CARDS[k].copies == 10 for k in content.KINGDOM)


def test_rules_constants():
    assert content.RULES["rails_per_player"] == 20
    assert content.RULES["stations_total"] == 30
    assert content.RULES["station_bonus"] == [0, 2, 4, 8]
    assert all(d["source"] in content.SOURCES for d in content.DECISIONS)
    assert sum(d["source"] == "project" for d in content.DECISIONS) >= 10


def _components(gmap):
    land = set(gmap.land)
    seen, stack = {gmap.land[0]}, [gmap.land[0]]
    while stack:
        for n in gmap.neighbours[stack.pop()]:
            if n not in seen:
                seen.add(n)
                stack.append(n)
    return seen == land


@pytest.mark.parametrize("name", ["tokyo", "osaka"])
def test_map_constraints(name):
    gmap = MAPS[name]
    assert gmap.source == "project"
    assert 110 <= len(gmap.land) <= 170
    assert len(gmap.cities) >= 10
    assert all(1 <= c.value <= 3 for c in gmap.cities.values())
    assert sum(c.value for c in gmap.cities.values()) >= 36
    assert len(gmap.remotes) >= 5 and all(2 <= r.value <= 6 for r in gmap.remotes.values())
    assert len(gmap.barriers) >= 1
    assert _components(gmap), "every land hex must be reachable across non-barrier edges"
    for a, b in gmap.barriers:
        assert b not in gmap.neighbours[a] and a not in gmap.neighbours[b]
    labels = set(gmap.terrain)
    assert "A1" in labels and f"{chr(ord('A') + gmap.columns - 1)}{gmap.rows}" in labels


def test_osaka_is_harder():
    tokyo, osaka = MAPS["tokyo"], MAPS["osaka"]

    def count(gmap, terrain):
        return sum(1 for t in gmap.terrain.values() if t == terrain)

    assert count(osaka, "mountain") > count(tokyo, "mountain")
    assert count(osaka, "river") > count(tokyo, "river")
    assert len(osaka.barriers) > len(tokyo.barriers)


def test_bad_card_data_is_named():
    raw = json.loads((DATA / "cards.json").read_text())
    bad = copy.deepcopy(raw)
    bad["cards"][3]["cost"] = -1
    with pytest.raises(ContentError, match="lay-rails.*cost"):
        load_cards(bad)
    bad = copy.deepcopy(raw)
    bad["cards"][5]["source"] = "rumour"
    with pytest.raises(ContentError, match="apartment.*source"):
        load_cards(bad)
    bad = copy.deepcopy(raw)
    bad["cards"][20]["effect"]["kind"] = "teleport"
    with pytest.raises(ContentError, match="effect.kind"):
        load_cards(bad)


def test_bad_map_data_is_named():
    raw = json.loads((DATA / "maps" / "tokyo.json").read_text())
    bad = copy.deepcopy(raw)
    bad["cities"]["A1"] = {"name": "Nowhere", "slots": 2}
    with pytest.raises(ContentError, match="Nowhere at A1"):
        load_map(bad, "tokyo.json")
    bad = copy.deepcopy(raw)
    bad["barriers"].append(["A1", "N11"])
    with pytest.raises(ContentError, match="A1-N11"):
        load_map(bad, "tokyo.json")
    bad = copy.deepcopy(raw)
    bad["grid"][2] = bad["grid"][2][:-1]
    with pytest.raises(ContentError, match="row 3"):
        load_map(bad, "tokyo.json")
