"""Scenario tests: each action, each settlement step, the auction, administration and scoring."""

from __future__ import annotations

import pytest

from games.base import IllegalMove
from games.tramways import GAME
from games.tramways.content import SETTINGS, stress_penalty
from games.tramways.movegen import legal_moves
from games.tramways.scoring import standings
from tests.tramways.conftest import add_link, crafted, do, hand, new_game

BOARDS = ["t-res", "t-plain", "t-plain", "t-plain"]  # Residence R1 at A1, Commercial C1 at A5


def city() -> dict:
    return crafted(BOARDS, [], parcels={"P1": 0} if False else {})


# ---------------------------------------------------------------- rails


def test_rails_extend_then_complete_with_icon_and_worker():
    state = city()
    hand(state, 0, "track-crew", "foreman", "commuter")
    state, _ = do(state, 0, "/tram rails A1 A2 A3 with track-crew:rail+rail")
    link = state["links"][0]
    assert link["ends"] == ["R1", None] and link["cells"] == ["A2", "A3"]
    assert state["players"][0]["stress"] == 1  # the second icon of one card
    assert state["players"][0]["rails_left"] == SETTINGS["rail_tiles"] - 2
    state, _ = do(state, 0, "/tram rails A3 A4 A5 dest C with foreman:rail commuter:c")
    assert state["links"][0]["ends"] == ["R1", "C1"] and state["players"][0]["workers"] == 1


def test_rails_rules_refuse_water_taken_cells_and_missing_workers():
    state = city()
    add_link(state, 1, ["B1"], ["R1", "C1"])
    hand(state, 0, "track-crew", "commuter")
    with pytest.raises(IllegalMove, match="only one player's rails"):
        do(state, 0, "/tram rails A1 B1 with track-crew:rail")
    state["players"][0]["workers"] = 0
    with pytest.raises(IllegalMove, match="rail worker"):
        do(state, 0, "/tram rails A1 A2 A3 A4 A5 dest C with track-crew:rail+rail commuter:c")
    with pytest.raises(IllegalMove, match="1 to 3"):
        do(state, 0, "/tram rails A1 with track-crew:rail")


def test_hills_cost_a_dollar_each():
    state = crafted(["t-hill", "t-plain", "t-plain", "t-plain"], [])  # a hill at B1, next to R1
    hand(state, 0, "foreman")
    state, _ = do(state, 0, "/tram rails A1 B1 with foreman:rail")
    assert state["players"][0]["money"] == 3 - SETTINGS["hill_extra_cost"]


# ---------------------------------------------------------------- trips and settlement


def test_settlement_hp_bonus_then_money_in_order():
    state = city()
    add_link(state, 0, ["A2", "A3", "A4"], ["R1", "C1"])
    hand(state, 1, "commuter")
    state["current"], state["turn"] = 1, {"step": 2, "index": 1, "actions_left": 2}
    state["players"][1]["money"] = 6
    state, events = do(state, 1, "/tram move R1 C1 via 1 hp 1 with commuter:ticket+c")
    mover, owner = state["players"][1], state["players"][0]
    assert owner["hp"] == 1  # (1) the link's owner
    assert mover["hp"] == 1 and mover["stress"] == 1  # (2) one HP bought for $3; +1 stress for the 2nd icon
    assert mover["money"] == 6 - 3 - 3 and owner["money"] == 3 + 3  # (3) $1 per tile to the owner
    assert state["passengers"]["R1"] == 0


def test_own_upgraded_link_pays_double():
    state = city()
    add_link(state, 0, ["A2", "A3", "A4"], ["R1", "C1"], upgraded=True)
    hand(state, 0, "commuter", "suburb")
    state, _ = do(state, 0, "/tram move C1 R1 via 1 with commuter:ticket suburb:r")
    me = state["players"][0]
    assert me["hp"] == 2 and me["money"] == 3 + 6 and me["stress"] == 0


def test_unbuilt_parcel_gives_no_bonus_and_upgraded_building_pays_its_owner():
    state = crafted(["t-park", "t-plain", "t-plain", "t-plain"], [], parcels={"P1": 1})
    add_link(state, 0, ["D3", "D4", "D5"], ["R1", "P1"])
    hand(state, 0, "parcel-p1", "commuter")
    state, _ = do(state, 0, "/tram move R1 P1 via 1 with commuter:ticket parcel-p1:p1")
    assert state["players"][0]["stress"] == 0 and state["players"][0]["hp"] == 1
    state["built"]["P1"] = {"type": "R", "owner": 1, "upgraded": True}
    state["passengers"]["R1"] = 1
    hand(state, 0, "commuter")
    state["turn"]["actions_left"] = 1
    state, _ = do(state, 0, "/tram move R1 P1 via 1 with commuter:ticket+r")
    assert state["players"][1]["hp"] == SETTINGS["upgraded_building_bonus_hp"]


def test_trip_must_chain_links_and_use_complete_ones():
    state = city()
    add_link(state, 0, ["A2"], ["R1", None])
    hand(state, 0, "commuter")
    with pytest.raises(IllegalMove, match="not complete"):
        do(state, 0, "/tram move R1 C1 via 1 hp 0 with commuter:ticket+c")


# ---------------------------------------------------------------- buildings, upgrades, icons


def test_build_and_upgrade_a_building():
    state = crafted(["t-park", "t-plain", "t-plain", "t-plain"], [], parcels={"P1": 0})
    hand(state, 0, "contractor", "builder")
    state["players"][0]["money"] = 5
    state, _ = do(state, 0, "/tram build P1 I with contractor:build")
    assert state["built"]["P1"] == {"type": "I", "owner": 0, "upgraded": False}
    assert state["passengers"]["P1"] == 1 and "industry-card" in state["players"][0]["hand"]
    assert state["players"][0]["money"] == 5 - SETTINGS["build_cost"]
    state, _ = do(state, 0, "/tram upgrade-building P1 with builder:build")
    assert state["built"]["P1"]["upgraded"] and state["players"][0]["money"] == 0


def test_build_only_on_own_parcel():
    state = crafted(["t-park", "t-plain", "t-plain", "t-plain"], [], parcels={"P1": 1})
    hand(state, 0, "contractor")
    with pytest.raises(IllegalMove, match="not a parcel of yours"):
        do(state, 0, "/tram build P1 R with contractor:build")


def test_use_icons_and_new_passenger():
    state = city()
    hand(state, 0, "petty-cash", "new-arrivals")
    state["players"][0]["stress"] = 2
    state, _ = do(state, 0, "/tram use petty-cash:$1+calm")
    me = state["players"][0]
    assert me["money"] == 4 and me["stress"] == 2  # -1 calm, +1 for the second icon
    state["passengers"]["R1"] = 0
    state, _ = do(state, 0, "/tram use new-arrivals:pax at R1")
    assert state["passengers"]["R1"] == 1


def test_consequences_apply_when_played():
    state = city()
    hand(state, 0, "express-line")
    state, _ = do(state, 0, "/tram rails A1 A2 with express-line:rail")
    assert state["players"][0]["stress"] == 1


# ---------------------------------------------------------------- auction, administration, end


def test_auction_bids_add_up_and_pass_order_sets_turn_order():
    state = new_game(3)
    assert state["phase"] == "auction" and state["current"] == 0
    for p in state["players"]:
        p["money"] = 20
    state, _ = do(state, 0, "/tram bid 4")
    state, _ = do(state, 1, "/tram pass")  # first to pass: last
    state, _ = do(state, 2, "/tram bid 5")
    state, _ = do(state, 0, "/tram bid 6")  # bids add up: 4 + 6 = 10 paid
    state, _ = do(state, 2, "/tram pass")
    assert state["order"] == [0, 2, 1]
    assert state["players"][0]["money"] == 10 and state["players"][2]["money"] == 15
    assert state["players"][0]["stress"] == SETTINGS["first_player_stress"][0]
    assert state["phase"] == "take" and state["current"] == 0


def test_first_player_stress_doubles_in_round_six():
    assert SETTINGS["first_player_stress"][5] == 2


def test_discard_first_free_then_a_dollar_each_and_buy_one():
    state = city()
    state["phase"], state["turn"] = "admin", {"index": 0, "discarded": False, "bought": False}
    hand(state, 0, "suburb", "foreman", "high-street")
    state["dev_display"] = ["freight", "spa", "subsidy"]
    state, _ = do(state, 0, "/tram discard foreman suburb")
    assert state["players"][0]["money"] == 2
    state, _ = do(state, 0, "/tram buy freight")
    assert state["players"][0]["money"] == 0 and "freight" in state["players"][0]["discard"]
    with pytest.raises(IllegalMove):
        do(state, 0, "/tram buy spa")
    state["players"][0]["deck"] = ["a"] if False else state["players"][0]["deck"]
    state, _ = do(state, 0, "/tram done")
    assert len(state["players"][0]["hand"]) == SETTINGS["hand_limit"]


def test_scoring_and_ties():
    assert [stress_penalty(s) for s in (0, 2, 3, 5, 6, 9, 12, 15)] == [0, 0, 2, 2, 5, 9, 14, 14]
    state = new_game(3)
    for seat, (hp, money, stress) in enumerate([(10, 9, 3), (12, 0, 3), (9, 14, 0)]):
        p = state["players"][seat]
        p["hp"], p["money"], p["stress"] = hp, money, stress
    table = standings(state)
    # orange 10+1-2 = 9; green 12+0-2 = 10; cat 9+2-0 = 11
    assert [(r["player"], r["score"], r["rank"]) for r in table] == [("cat", 11, 1), ("green", 10, 2), ("orange", 9, 3)]
    state["players"][2]["hp"], state["players"][2]["stress"] = 8, 3  # cat 8+2-2 = 8
    state["players"][0]["hp"] = 11  # orange 10, ties green on score and stress: more money wins
    table = standings(state)
    assert [(r["player"], r["rank"]) for r in table][:2] == [("orange", 1), ("green", 2)]
    state["players"][0]["money"] = 4  # orange 11+0-2 = 9
    state["players"][1]["hp"], state["players"][1]["money"] = 11, 4  # green 11+0-2 = 9; equal stress and money: shared
    ranks = {r["player"]: r["rank"] for r in standings(state)}
    assert ranks["orange"] == ranks["green"]


def test_every_legal_move_round_trips_through_the_text():
    state = new_game(4, 3, station=True, exchange=True, park=True, master=True)
    for _ in range(60):
        seat = GAME.status(state).to_act[0]
        for move in legal_moves(state, seat)[:300]:
            assert GAME.parse(GAME.format(move)) == move
        state, _ = GAME.apply(state, seat, GAME.bot_move(state, seat, 0))


def test_help_says_the_base_game_is_a_reconstruction():
    assert "RECONSTRUCTION" in GAME.rules_help["overview"]
    assert "project" in GAME.rules_help["decisions"]


def test_one_unfinished_link_at_a_time_unless_it_is_hemmed_in():
    state = city()
    state["links"].append({"id": 1, "owner": 0, "cells": ["B2"], "ends": ["R1", None], "upgraded": False})
    state["rails"]["B2"] = 1
    hand(state, 0, "foreman")
    with pytest.raises(IllegalMove, match="unfinished"):
        do(state, 0, "/tram rails A5 A4 with foreman:rail")
    for c, link_id in (("B1", 2), ("C2", 3), ("B3", 4), ("A2", 5)):  # other rails all round B2
        state["links"].append({"id": link_id, "owner": 1, "cells": [c], "ends": ["R1", None], "upgraded": False})
        state["rails"][c] = link_id
    state, _ = do(state, 0, "/tram rails A5 A4 with foreman:rail")
    assert state["links"][-1]["ends"] == ["C1", None]
