"""`/trains play all-trains` and a moderator's kick, which no Trains test reached before
(bench/mutation.sh listed every mutant of rules._play_all_trains and rules.kick as "no tests").

Expected values are worked out by hand from the card texts (Normal Train +1, Express Train +2, Night
Train +1 and draw 1, Tourist Train +1 and 1 VP on the track).
"""

from __future__ import annotations

import pytest

from games.base import IllegalMove
from games.trains import rules


def test_all_trains_plays_every_train_without_choices_in_hand_order(tr):
    state = tr.scenario(["normal-train", "freight-train", "normal-train", "express-train", "lay-rails"])
    after, events = tr.do(state, 0, "/trains play all-trains")
    me = after["players"][0]
    assert after["turn"]["money"] == 1 + 1 + 2
    assert me["play"] == ["normal-train", "normal-train", "express-train"]
    assert me["hand"] == ["freight-train", "lay-rails"]  # Freight Train needs a choice; not a train at all
    assert [e.get("text") for e in events] == [
        "ann plays all trains: Normal Train (+1 money), Normal Train (+1 money), Express Train (+2 money); "
        "4 money to spend."
    ]


def test_all_trains_adds_each_effect_after_its_line_and_leaves_a_drawn_train_in_hand(tr):
    state = tr.scenario(
        ["night-train", "mail-train", "tourist-train"], deck=["express-train", "lay-rails"], rails={"E5": [0]}
    )
    after, events = tr.do(state, 0, "/trains play all-trains")
    me = after["players"][0]
    assert after["turn"]["money"] == 2
    assert me["play"] == ["night-train", "tourist-train"]
    assert me["hand"] == ["mail-train", "express-train"]  # the train Night Train drew is not played
    assert events[0] == {
        "text": "ann plays all trains: Night Train (+1 money; draws 1), Tourist Train (+1 money; +1 VP on the "
        "track); 2 money to spend."
    }
    assert events[1] == {"text": "ann draws 1 card.", "irreversible": True}
    assert events[2]["private"] == {"seat": 0, "text": "You drew: Express Train."}


def test_all_trains_with_no_plain_train_is_refused_and_changes_nothing(tr):
    state = tr.scenario(["freight-train", "mail-train", "lay-rails"], money=1)
    before = tr.roundtrip(state)
    with pytest.raises(IllegalMove) as refused:
        tr.do(state, 0, "/trains play all-trains")
    assert refused.value.message == (
        "You have no train card to play without choices (Freight and Mail Train need choices)."
    )
    assert state == before


def test_a_kicked_player_is_said_kicked_and_their_rails_stay_by_the_rules_file(tr):
    # data/rules.json: "kicked_rails": "stay" (the rails keep costing others, like a resigned player's).
    assert rules.RULES.get("kicked_rails") == "stay"
    state = tr.scenario(["lay-rails"], rails={"E5": [0], "E6": [1], "F6": [1, 2]}, players=3)
    after, events = rules.kick(state, 1)
    assert after["players"][1]["kicked"] is True
    assert after["rails"] == {"E5": [0], "E6": [1], "F6": [1, 2]}
    assert [e.get("text") for e in events] == ["bob was kicked by a moderator."]
    assert after["phase"] == "play" and after["current"] == 0
    assert "kicked" not in state["players"][1]  # the state passed in is not changed


def test_with_kicked_rails_set_to_lifted_the_kicked_players_rails_leave_the_board(tr, monkeypatch):
    # The documented switch in data/rules.json ("set kicked_rails to \"lifted\" to take them off instead").
    monkeypatch.setitem(rules.RULES, "kicked_rails", "lifted")
    state = tr.scenario(["lay-rails"], rails={"E5": [0], "E6": [1], "F6": [1, 2]}, players=3)
    after, _ = rules.kick(state, 1)
    assert after["rails"] == {"E5": [0], "F6": [2]}
    assert state["rails"] == {"E5": [0], "E6": [1], "F6": [1, 2]}
