"""Money, worker, new-passenger and calm icons "may be played as or within an action" (reference):
within an action they are further icons of the cards paying for it (+1 stress each), taking effect
when the cards are played; /tram use plays them as an action of their own. One command is one
complete action, so every such choice is part of it and every variant is a listed legal move."""

from __future__ import annotations

from itertools import combinations, product

import pytest

from games.base import IllegalMove
from games.tramways import GAME
from games.tramways.content import SETTINGS, card
from games.tramways.movegen import legal_moves
from storage.db import dumps
from tests.tramways.conftest import add_link, crafted, do, hand

BOARDS = ["t-res", "t-plain", "t-plain", "t-plain"]  # Residence R1 at A1, Commercial C1 at A5


def city(**kwargs: object) -> dict:
    return crafted(BOARDS, [], **kwargs)  # type: ignore[arg-type]


def test_investors_money_pays_for_the_building_it_builds():
    state = crafted(["t-park", "t-plain", "t-plain", "t-plain"], [], parcels={"P1": 0})
    state["players"][0]["money"] = 0
    hand(state, 0, "investor")
    with pytest.raises(IllegalMove, match="costs \\$2; you have \\$0"):
        do(state, 0, "/tram build P1 R with investor:build")
    state, events = do(state, 0, "/tram build P1 R with investor:$2+build")
    me = state["players"][0]
    assert state["built"]["P1"]["type"] == "R" and me["money"] == 0 and me["stress"] == 1
    assert "+$2" in events[-1]["text"]


def test_build_with_investors_money_is_listed_only_with_the_money():
    state = crafted(["t-park", "t-plain", "t-plain", "t-plain"], [], parcels={"P1": 0})
    state["players"][0]["money"] = 0
    hand(state, 0, "investor")
    builds = [m for m in legal_moves(state, 0) if m["verb"] == "build"]
    assert builds and all(m["cards"] == ["investor:$2+build"] for m in builds)
    state["players"][0]["money"] = 2
    cards = {tuple(m["cards"]) for m in legal_moves(state, 0) if m["verb"] == "build"}
    assert cards == {("investor:build",), ("investor:$2+build",)}


def test_a_worker_icon_of_the_rail_card_pays_the_completing_rail_worker():
    state = city()
    state["players"][0]["workers"] = 0
    hand(state, 0, "rail-union", "track-crew", "commuter")
    with pytest.raises(IllegalMove, match="rail worker"):
        do(state, 0, "/tram rails A1 A2 A3 A4 A5 dest C with rail-union:rail track-crew:rail+rail commuter:c")
    state, _ = do(
        state, 0, "/tram rails A1 A2 A3 A4 A5 dest C with rail-union:worker+rail track-crew:rail+rail commuter:c"
    )
    me = state["players"][0]
    assert state["links"][0]["ends"] == ["R1", "C1"]
    assert me["workers"] == 0 and me["stress"] == 2  # +1 worker, -1 for completing; two further icons


def test_calm_of_a_building_card_within_a_move():
    state = city()
    add_link(state, 1, ["A2", "A3", "A4"], ["R1", "C1"])
    state["players"][0]["stress"] = 3
    hand(state, 0, "residence-card", "commuter")
    state, _ = do(state, 0, "/tram move C1 R1 via 1 with commuter:ticket residence-card:r+calm")
    # +1 for the further icon, -1 calm, then the Residence bonus -1.
    assert state["players"][0]["stress"] == 2


def test_tourists_new_passenger_within_a_move_may_be_the_one_who_travels():
    state = city()
    add_link(state, 1, ["A2", "A3", "A4"], ["R1", "C1"])
    state["passengers"]["R1"] = 0
    hand(state, 0, "tourist", "high-street")
    with pytest.raises(IllegalMove, match="No passenger waits"):
        do(state, 0, "/tram move R1 C1 via 1 hp 0 with tourist:ticket high-street:c")
    with pytest.raises(IllegalMove, match="at <building>"):
        do(state, 0, "/tram move R1 C1 via 1 hp 0 with tourist:ticket+pax high-street:c")
    moves = legal_moves(state, 0)
    assert {
        "verb": "move",
        "from": "R1",
        "to": "C1",
        "via": [1],
        "hp": 0,
        "cards": ["high-street:c", "tourist:ticket+pax"],
        "at": "R1",
    } in moves
    assert all(m["at"] == "R1" for m in moves if m["verb"] == "move")  # the only passenger is the new one
    state, events = do(state, 0, "/tram move R1 C1 via 1 hp 0 with tourist:ticket+pax high-street:c at R1")
    assert state["passengers"]["R1"] == 0 and state["players"][0]["stress"] == 1
    assert "1 new passenger at R1" in events[-1]["text"]


def test_a_card_that_pays_nothing_the_action_needs_cannot_join_it():
    state = crafted(["t-park", "t-plain", "t-plain", "t-plain"], [], parcels={"P1": 0})
    hand(state, 0, "contractor", "petty-cash")
    with pytest.raises(IllegalMove, match="pays nothing"):
        do(state, 0, "/tram build P1 R with contractor:build petty-cash:$1")
    with pytest.raises(IllegalMove, match="at <building>|Only a new passenger"):
        do(state, 0, "/tram build P1 R with contractor:build at R1")


def test_use_still_plays_one_card_as_an_action():
    state = city()
    hand(state, 0, "petty-cash")
    state, events = do(state, 0, "/tram use petty-cash:$1")
    assert state["players"][0]["money"] == 4 and state["turn"]["actions_left"] == 1
    assert "+$1" in events[-1]["text"]


def test_within_action_icons_follow_the_setting(monkeypatch):
    monkeypatch.setitem(SETTINGS, "simple_icons_in_actions", False)
    state = crafted(["t-park", "t-plain", "t-plain", "t-plain"], [], parcels={"P1": 0})
    hand(state, 0, "investor")
    with pytest.raises(IllegalMove, match="exactly"):
        do(state, 0, "/tram build P1 R with investor:$2+build")
    from games.tramways import payment

    payment._ways.cache_clear()
    try:
        assert {tuple(m["cards"]) for m in legal_moves(state, 0) if m["verb"] == "build"} == {("investor:build",)}
    finally:
        payment._ways.cache_clear()


# ---------------------------------------------------------------- the lists are complete


def _spellings(hand_cards: list[str]) -> list[list[str]]:
    """Every list of card tokens a player could type from this hand (each card at most once,
    any non-empty choice of its icons)."""
    per_card = []
    for slug in hand_cards:
        icons = card(slug).icons
        options = sorted(
            {
                tuple(icons[i] for i in pick)
                for size in range(1, len(icons) + 1)
                for pick in combinations(range(len(icons)), size)
            }
        )
        per_card.append([None, *(f"{slug}:{'+'.join(o)}" for o in options)])
    out = []
    for combo in product(*per_card):
        tokens = [t for t in combo if t is not None]
        if tokens:
            out.append(tokens)
    return out


def _accepted_are_listed(state: dict, moves: list[dict]) -> None:
    listed = {dumps(GAME.apply(state, 0, m)[0]) for m in legal_moves(state, 0)}
    accepted = 0
    for move in moves:
        try:
            after, _ = GAME.apply(state, 0, move)
        except IllegalMove:
            continue
        accepted += 1
        assert dumps(after) in listed, GAME.format(move)
    assert accepted


def test_every_accepted_build_and_trip_is_listed():
    state = crafted(["t-park", "t-plain", "t-plain", "t-plain"], [], parcels={"P1": 0})
    add_link(state, 1, ["D3", "D4", "D5"], ["R1", "P1"])
    state["players"][0]["money"] = 1
    state["passengers"]["R1"] = 0
    hand(state, 0, "investor", "tourist", "builder", "parcel-p1")
    tries = []
    for tokens in _spellings(state["players"][0]["hand"]):
        for at in (None, "R1", "P1"):
            tries.append({"verb": "build", "parcel": "P1", "type": "L", "cards": tokens, "at": at})
            tries.append({"verb": "move", "from": "R1", "to": "P1", "via": [1], "hp": None, "cards": tokens, "at": at})
    _accepted_are_listed(state, tries)


def test_every_accepted_rails_move_is_listed():
    # t-near: a Residence at A1 and a Commercial at A4, two rail cells apart; a hill at B1.
    state = crafted(["t-near", "t-plain", "t-plain", "t-plain"], [])
    state["players"][0]["workers"] = 0
    state["players"][0]["money"] = 0
    hand(state, 0, "rail-union", "foreman", "commercial-card", "builder")
    tries = []
    for tokens in _spellings(state["players"][0]["hand"]):
        tries.append({"verb": "rails", "cells": ["A1", "B1"], "dest": None, "cards": tokens, "at": None})
        for dest in ("C", "R"):
            tries.append(
                {"verb": "rails", "cells": ["A4", "A3", "A2", "A1"], "dest": dest, "cards": tokens, "at": None}
            )
    _accepted_are_listed(state, tries)
