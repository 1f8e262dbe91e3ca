"""Every card's effect as the table sees it: the public line of the play, word for word, and its amounts.

The line "ann plays <card>: ..." is the only account other players get of a play, so its amounts must
be the ones applied (money, Waste, cards drawn, VP); each case also checks the state it describes.
Card wording: /work/shared/rules/trains.reference.md (kingdom list) and the rulebook's terms.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from games.base import IllegalMove
from games.trains.content import CARDS, MAPS
from games.trains.effects import resolve

REMOTES = list(MAPS["tokyo"].remotes)[:4]  # four Tokyo remote locations (Sightseeing Bus counts at most 3)


def _state(tr: Any, hand: list[str], extra: dict[str, Any]) -> dict[str, Any]:
    """A scenario plus the turn counters a case starts from (money, discount, rails laid, track VP)."""
    extra = dict(extra)
    turn = {k: extra.pop(k) for k in ("discount", "rails_laid", "played") if k in extra}
    track_vp = extra.pop("track_vp", 0)
    play = extra.pop("play", [])
    waste_supply = extra.pop("waste_supply", None)
    trash = extra.pop("trash", {})
    state = tr.scenario(hand, **extra)
    state["turn"].update(turn)
    state["players"][0]["track_vp"] = track_vp
    state["players"][0]["play"] = list(play)
    state["trash"] = dict(trash)
    if waste_supply is not None:
        state["supply"]["waste"] = waste_supply
    return state


# (case, hand, scenario, command, the public line, expected values after: turn money, track VP, ...)
LINES = [
    ("a train", ["normal-train"], {}, "normal-train", "Normal Train: +1 money.", {"money": 1}),
    ("express train", ["express-train"], {"money": 1}, "express-train", "Express Train: +2 money.", {"money": 3}),
    (
        "limited express train",
        ["limited-express-train"],
        {},
        "limited-express-train",
        "Limited Express Train: +3 money.",
        {"money": 3},
    ),
    ("skipped, no value", ["lay-rails"], {}, "lay-rails skip", "Lay Rails: effect not used.", {"money": 0}),
    (
        "skipped, with value",
        ["tourist-train"],
        {"money": 2, "track_vp": 1},
        "tourist-train skip",
        "Tourist Train: +1 money; effect not used.",
        {"money": 3, "track_vp": 1},
    ),
    (
        "tourist train",
        ["tourist-train"],
        {"money": 2, "track_vp": 2},
        "tourist-train",
        "Tourist Train: +1 money; +1 VP on the track.",
        {"money": 3, "track_vp": 3},
    ),
    (
        "lay rails",
        ["lay-rails"],
        {"rails": {"E5": [0]}},
        "lay-rails E4",
        "Lay Rails: rail on E4; gains 1 Waste.",
        {"waste": 1},
    ),
    (
        "no Waste left to gain",
        ["lay-rails"],
        {"rails": {"E5": [0]}, "waste_supply": 0},
        "lay-rails E4",
        "Lay Rails: rail on E4; no Waste left to gain.",
        {"waste": 0},
    ),
    (
        "track crew gains no Waste",
        ["track-crew"],
        {"rails": {"E5": [0]}},
        "track-crew E4",
        "Track Crew: rail on E4.",
        {"waste": 0},
    ),
    (
        "double track",
        ["double-track"],
        {"rails": {"E5": [0]}},
        "double-track E4 D4",
        "Double Track: rail on E4; rail on D4; gains 1 Waste.",
        {"waste": 1, "rails_laid": 2},
    ),
    (
        "tunnel",
        ["tunnel"],
        {"rails": {"E5": [0]}},
        "tunnel E4",
        "Tunnel: rail on E4; gains 1 Waste; no extra money for mountain this turn.",
        {"waste": 1, "waive": ["mountain"]},
    ),
    (
        "steel bridge",
        ["steel-bridge"],
        {"rails": {"E5": [0]}},
        "steel-bridge E4",
        "Steel Bridge: rail on E4; gains 1 Waste; no extra money for river this turn.",
        {"waste": 1, "waive": ["river"]},
    ),
    (
        "viaduct",
        ["viaduct"],
        {"rails": {"E5": [0]}},
        "viaduct E4",
        "Viaduct: rail on E4; gains 1 Waste; no extra money for city this turn.",
        {"waste": 1, "waive": ["city"]},
    ),
    (
        "parallel line",
        ["parallel-line"],
        {"rails": {"E5": [0]}},
        "parallel-line E4",
        "Parallel Line: rail on E4; gains 1 Waste; no extra money for rails this turn.",
        {"waste": 1, "waive": ["rails"]},
    ),
    (
        "station expansion",
        ["station-expansion"],
        {},
        "station-expansion D5",
        "Station Expansion: station in Tokorozawa (D5); gains 1 Waste.",
        {"waste": 1},
    ),
    (
        "urban planning",
        ["urban-planning"],
        {},
        "urban-planning D5",
        "Urban Planning: station in Tokorozawa (D5).",
        {"waste": 0},
    ),
    (
        "terminal",
        ["terminal"],
        {"rails": {"E5": [0]}},
        "terminal D5",
        "Terminal: station in Tokorozawa (D5); rail on D5; gains 1 Waste.",
        {"waste": 1, "rails_laid": 1},
    ),
    (
        "timetable",
        ["timetable"],
        {"deck": ["tower", "waste", "tower"]},
        "timetable",
        "Timetable: draws 2.",
        {"hand": 2},
    ),
    (
        "night train",
        ["night-train"],
        {"deck": ["tower"]},
        "night-train",
        "Night Train: +1 money; draws 1.",
        {"hand": 1},
    ),
    (
        "amusement park",
        ["amusement-park"],
        {"money": 2, "play": ["express-train"]},
        "amusement-park express-train",
        "Amusement Park: copies Express Train: +2 money.",
        {"money": 4},
    ),
    (
        "landfill",
        ["landfill", "waste", "waste"],
        {"discard": ["waste", "tower"]},
        "landfill",
        "Landfill: returns 3 Waste.",
        {"hand": 0},
    ),
    (
        "early train",
        ["early-train"],
        {"money": 1},
        "early-train",
        "Early Train: +2 money; cards bought this turn may go on top of the deck.",
        {"money": 3},
    ),
    (
        "freight train",
        ["freight-train", "waste", "waste"],
        {"money": 1},
        "freight-train",
        "Freight Train: +1 money; returns 2 Waste for +2 money.",
        {"money": 4, "hand": 0},
    ),
    (
        "mail train",
        ["mail-train", "waste", "apartment", "tower"],
        {"money": 1},
        "mail-train waste apartment",
        "Mail Train: +1 money; discards Waste, Apartment for +2 money.",
        {"money": 4, "hand": 1},
    ),
    (
        "rail yard",
        ["rail-yard"],
        {"money": 1, "rails_laid": 2},
        "rail-yard",
        "Rail Yard: +2 money for rails laid this turn.",
        {"money": 3},
    ),
    (
        "transfer",
        ["transfer", "waste", "apartment"],
        {"deck": ["express-train", "tower"]},
        "transfer waste apartment",
        "Transfer: discards Waste, Apartment and draws 2.",
        {"hand": 2},
    ),
    (
        "refurbishment",
        ["refurbishment", "normal-train"],
        {},
        "refurbishment normal-train express-train",
        "Refurbishment: trashes Normal Train and gains Express Train into hand.",
        {"hand": 1},
    ),
    (
        "central station money",
        ["central-station"],
        {"money": 3},
        "central-station money",
        "Central Station: +2 money.",
        {"money": 5},
    ),
    (
        "central station draw",
        ["central-station"],
        {"deck": ["tower", "tower", "tower"]},
        "central-station draw",
        "Central Station: draws 2.",
        {"hand": 2},
    ),
    (
        "central station rail",
        ["central-station"],
        {"rails": {"E5": [0]}},
        "central-station rail E4",
        "Central Station: rail on E4; gains 1 Waste.",
        {"waste": 1},
    ),
    (
        "scrapyard",
        ["scrapyard", "normal-train", "waste"],
        {},
        "scrapyard normal-train waste",
        "Scrapyard: trashes Normal Train, Waste.",
        {"hand": 0},
    ),
    (
        "coupling",
        ["coupling", "express-train"],
        {"money": 1},
        "coupling express-train",
        "Coupling: plays Express Train twice (+2 money / +2 money).",
        {"money": 5},
    ),
    (
        "dispatcher",
        ["dispatcher", "timetable"],
        {"deck": ["tower", "tower", "tower"]},
        "dispatcher timetable then skip",
        "Dispatcher: plays Timetable twice (draws 2 / effect not used).",
        {"hand": 2},
    ),
    (
        "lost and found",
        ["lost-and-found"],
        {"discard": ["tower"]},
        "lost-and-found tower",
        "Lost and Found: takes a card from the discard pile into hand.",
        {"hand": 1},
    ),
    (
        "commuter rush",
        ["commuter-rush"],
        {},
        "commuter-rush",
        "Commuter Rush: +2 money; gains 1 Waste.",
        {"money": 2, "waste": 1},
    ),
    (
        "sightseeing bus, own remote rails only",
        ["sightseeing-bus"],
        {"rails": {REMOTES[0]: [0], REMOTES[1]: [1]}, "track_vp": 1},
        "sightseeing-bus",
        "Sightseeing Bus: +1 VP on the track.",
        {"track_vp": 2},
    ),
    (
        "sightseeing bus, at most 3",
        ["sightseeing-bus"],
        {"rails": {h: [0] for h in REMOTES}},
        "sightseeing-bus",
        "Sightseeing Bus: +3 VP on the track.",
        {"track_vp": 3},
    ),
    (
        "recycling plant",
        ["recycling-plant", "waste", "waste", "waste"],
        {"deck": ["tower", "tower", "tower", "tower"]},
        "recycling-plant 3",
        "Recycling Plant: returns 3 Waste and draws 3.",
        {"hand": 3},
    ),
    (
        "recycling plant, short of cards",
        ["recycling-plant", "waste", "waste"],
        {"deck": ["tower"]},
        "recycling-plant",
        "Recycling Plant: returns 2 Waste and draws 1.",
        {"hand": 1},
    ),
    (
        "signal box",
        ["signal-box"],
        {"money": 2, "discount": 1},
        "signal-box",
        "Signal Box: +1 money; next rail costs 1 less.",
        {"money": 3, "discount": 2},
    ),
]


@pytest.mark.parametrize("hand,setup,command,line,after", [c[1:] for c in LINES], ids=[c[0] for c in LINES])
def test_each_card_play_is_announced_with_what_it_did(tr, hand, setup, command, line, after):
    state = _state(tr, hand, setup)
    waste_before = state["supply"]["waste"]
    new, events = tr.do(state, 0, f"/trains play {command}")
    assert events[0]["text"] == f"ann plays {line}"
    me, turn = new["players"][0], new["turn"]
    seen = {
        "money": turn["money"],
        "track_vp": me["track_vp"],
        "waste": me["gained"].count("waste"),
        "rails_laid": turn["rails_laid"],
        "waive": turn["waive"],
        "discount": turn["discount"],
        "hand": len(me["hand"]),
    }
    assert {k: seen[k] for k in after} == after
    assert all(type(v) is int for v in (turn["money"], me["track_vp"])), "amounts stay whole numbers"
    if "waste" in after:
        assert new["supply"]["waste"] == waste_before - after["waste"]


def test_command_central_reveals_to_everyone_by_name(tr):
    state = tr.scenario(["command-central"], deck=["lay-rails", "express-train"])
    hit, events = tr.do(state, 0, "/trains play command-central train")
    assert events[0]["text"] == (
        "ann plays Command Central: names train, reveals Express Train and takes it into hand."
    )
    assert {"text": "ann reveals Express Train from their deck (named train).", "irreversible": True} in events
    assert hit["players"][0]["hand"] == ["lay-rails", "express-train"] and hit["players"][0]["deck"] == []
    miss, events = tr.do(state, 0, "/trains play command-central rail")
    assert events[0]["text"] == (
        "ann plays Command Central: names rail, reveals Express Train and leaves it on top of the deck."
    )
    assert {"text": "ann reveals Express Train from their deck (named rail).", "irreversible": True} in events
    assert miss["players"][0]["deck"] == ["express-train"]
    empty, events = tr.do(tr.scenario(["command-central"]), 0, "/trains play command-central rail")
    assert events[0]["text"] == "ann plays Command Central: names rail; no card to reveal."


def test_landfill_marks_the_move_irreversible_since_it_reveals_the_waste_count(tr):
    state = tr.scenario(["landfill", "waste", "waste"], discard=["waste", "tower"])
    _, events = tr.do(state, 0, "/trains play landfill")
    assert events[1:] == [{"irreversible": True}]


def test_lost_and_found_names_the_card_to_its_player_only(tr):
    state = tr.scenario(["lost-and-found"], discard=["tower", "express-train"])
    new, events = tr.do(state, 0, "/trains play lost-and-found tower")
    assert events[1:] == [{"private": {"seat": 0, "text": "You took Tower from your discard pile."}}]
    assert new["players"][0]["hand"] == ["tower"] and new["players"][0]["discard"] == ["express-train"]


def test_trashed_cards_add_up_in_the_trash(tr):
    state = tr.scenario(["scrapyard", "normal-train", "normal-train"])
    state["trash"] = {"normal-train": 1, "express-train": 2}
    new, _ = tr.do(state, 0, "/trains play scrapyard normal-train normal-train")
    assert new["trash"] == {"normal-train": 3, "express-train": 2}
    state = tr.scenario(["refurbishment", "normal-train"])
    state["trash"] = {"normal-train": 1}
    new, _ = tr.do(state, 0, "/trains play refurbishment normal-train express-train")
    assert new["trash"] == {"normal-train": 2}


def test_refurbishment_can_take_the_last_train_of_a_pile(tr):
    state = tr.scenario(["refurbishment", "normal-train"])
    state["supply"]["express-train"] = 1
    new, _ = tr.do(state, 0, "/trains play refurbishment normal-train express-train")
    assert new["supply"]["express-train"] == 0 and new["players"][0]["hand"] == ["express-train"]


def test_recycling_plant_returns_exactly_its_limit(tr):
    state = tr.scenario(["recycling-plant", "waste", "waste", "waste", "waste"], deck=["tower"] * 3)
    new, _ = tr.do(state, 0, "/trains play recycling-plant 3")
    assert new["players"][0]["hand"] == ["waste", "tower", "tower", "tower"]
    new, _ = tr.do(state, 0, "/trains play recycling-plant")  # no number: as many as allowed
    assert new["players"][0]["hand"] == ["waste", "tower", "tower", "tower"]


def _express(state: dict[str, Any]) -> None:
    state["supply"]["express-train"] = 0


def _rails_left(count: int):
    def setup(state: dict[str, Any]) -> None:
        state["players"][0]["rails_left"] = count

    return setup


# (case, hand, scenario, change to the state, command, the whole refusal)
REFUSALS = [
    (
        "card not in hand",
        ["normal-train"],
        {},
        None,
        "tower",
        "You have no Tower in your hand (your hand: Normal Train).",
    ),
    ("victory card", ["apartment"], {}, None, "apartment", "Apartment is a victory card; it cannot be played."),
    (
        "no rail tokens",
        ["lay-rails"],
        {"rails": {"E5": [0]}},
        _rails_left(0),
        "lay-rails E4",
        "You have no rail tokens left.",
    ),
    (
        "one rail token for two",
        ["double-track"],
        {"rails": {"E5": [0]}},
        _rails_left(1),
        "double-track E4 D4",
        "Double Track lays 2 rails; you have 1 left.",
    ),
    (
        "the same hex twice",
        ["double-track"],
        {"rails": {"E5": [0]}},
        None,
        "double-track E4 E4",
        "You can have only one rail per hex.",
    ),
    (
        "train not played",
        ["amusement-park", "express-train"],
        {},
        None,
        "amusement-park express-train",
        "You have not played Express Train this turn.",
    ),
    # Freight Train: "return any number of Waste from your hand" (no cap but the hand).
    (
        "more Waste than in hand",
        ["freight-train", "waste", "waste"],
        {},
        None,
        "freight-train 100",
        "You have only 2 Waste in your hand.",
    ),
    ("above the plant's limit", ["recycling-plant"] + ["waste"] * 4, {}, None, "recycling-plant 4", "At most 3 Waste."),
    (
        "recycle missing Waste",
        ["recycling-plant", "waste"],
        {},
        None,
        "recycling-plant 2",
        "You have only 1 Waste in your hand.",
    ),
    (
        "mail a card not held",
        ["mail-train", "waste"],
        {},
        None,
        "mail-train tower",
        "Your hand does not hold all of: Tower.",
    ),
    (
        "transfer a card not held",
        ["transfer", "waste"],
        {},
        None,
        "transfer waste waste",
        "Your hand does not hold all of: Waste, Waste.",
    ),
    (
        "scrap a card not held",
        ["scrapyard", "waste"],
        {},
        None,
        "scrapyard tower waste",
        "Your hand does not hold all of: Tower, Waste.",
    ),
    (
        "trash a train not held",
        ["refurbishment"],
        {},
        None,
        "refurbishment express-train limited-express-train",
        "You have no Express Train in your hand to trash.",
    ),
    (
        "gain from an empty pile",
        ["refurbishment", "normal-train"],
        {},
        _express,
        "refurbishment normal-train express-train",
        "There is no Express Train in the supply.",
    ),
    (
        "gain a kingdom train not in this game",
        ["refurbishment", "normal-train"],
        {},
        None,
        "refurbishment normal-train early-train",
        "There is no Early Train in the supply.",
    ),
    (
        "gain a train that is no supply pile",
        ["refurbishment", "normal-train"],
        {},
        None,
        "refurbishment normal-train normal-train",
        "There is no Normal Train in the supply.",
    ),
    (
        "gain a train costing more than 3 more",
        ["refurbishment", "normal-train"],
        {},
        None,
        "refurbishment normal-train limited-express-train",
        "Limited Express Train costs 6; trashing Normal Train allows up to 4.",
    ),
    (
        "take a card not discarded",
        ["lost-and-found"],
        {"discard": ["waste"]},
        None,
        "lost-and-found tower",
        "There is no Tower in your discard pile.",
    ),
    (
        "play twice a card not held",
        ["coupling", "normal-train", "normal-train"],
        {},
        None,
        "coupling express-train",
        "You have no Express Train in your hand for Coupling (your hand: 2x Normal Train).",
    ),
]


@pytest.mark.parametrize("hand,setup,change,command,message", [c[1:] for c in REFUSALS], ids=[c[0] for c in REFUSALS])
def test_each_effect_refusal_is_word_for_word_and_changes_nothing(tr, hand, setup, change, command, message):
    state = _state(tr, hand, setup)
    if change:
        change(state)
    before = tr.roundtrip(state)
    with pytest.raises(IllegalMove) as err:
        tr.do(state, 0, f"/trains play {command}")
    assert err.value.message == message
    assert state == before


def test_a_rail_card_waiving_two_terrains_names_both(tr):
    # No card of today's list waives two terrains with its rail; the card data may (Central Station's
    # rail waives river and mountain), and the line then lists them all.
    tunnel = replace(CARDS["tunnel"], effect={**CARDS["tunnel"].effect, "waive": ["mountain", "river"]})
    state = tr.scenario([], rails={"E5": [0]})
    parts = resolve(state, 0, tunnel, ["E4"], [])
    assert parts == ["rail on E4", "gains 1 Waste", "no extra money for mountain, river this turn"]
    assert state["turn"]["waive"] == ["mountain", "river"]
