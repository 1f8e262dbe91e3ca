"""Resigning in Trains, case by case (current or not, start or play phase, the last opponent), and the
undo scope of the start phase. Each answer is pinned word for word: the mutants bench/mutation.sh left
alive in rules.resign changed texts, the turn hand-over and the move counter without failing a test.
"""

from __future__ import annotations

import pytest

from games.base import IllegalMove
from games.trains import rules


def _three(tr, **kw):
    state = tr.scenario(
        ["normal-train", "lay-rails"], deck=["express-train"], rails={"E5": [0], "E6": [1], "F6": [2]}, players=3, **kw
    )
    state["turn_number"] = 4
    state["move_number"] = 7
    return state


def test_the_current_player_resigning_hands_the_turn_on_with_a_fresh_turn(tr):
    state = _three(tr, money=3)
    after, events = rules.resign(state, 0)
    assert events == [{"text": "ann resigns.", "post_board": True}, {"text": "bob's turn."}]
    assert after["current"] == 1 and after["turn_number"] == 5
    fresh = {"money": 0, "played": False, "bought": False, "buys": 0, "rails_laid": 0, "waive": [], "discount": 0}
    assert after["turn"] == fresh | {"early": False}  # bob starts with no money, nothing played or waived
    assert after["move_number"] == state["move_number"] + 1
    me = after["players"][0]
    assert me["resigned"] and me["hand"] == [] and sorted(me["discard"]) == ["lay-rails", "normal-train"]


def test_another_player_resigning_leaves_the_turn_and_their_cards_alone(tr):
    state = _three(tr, money=3)
    after, events = rules.resign(state, 1)
    assert events == [{"text": "bob resigns.", "post_board": True}]
    assert after["current"] == 0 and after["turn"] == state["turn"] and after["turn_number"] == 4
    assert after["players"][1]["hand"] == state["players"][1]["hand"]
    assert after["move_number"] == state["move_number"] + 1


def test_the_last_opponent_resigning_ends_the_game_with_the_reason_and_scores(tr):
    state = tr.scenario(["normal-train"], rails={"E5": [0], "E6": [1]})
    after, events = rules.resign(state, 1)
    assert after["phase"] == "over" and after["end_reasons"] == ["fewer than two players remain"]
    assert events[-1] == {
        "text": "Game over (fewer than two players remain). Final scores: ann 0, bob 0.",
        "post_board": True,
    }


def test_resigning_in_the_start_phase_passes_the_start_to_the_next_waiting_player(tr):
    state = tr.new_game(3)
    state, _ = tr.do(state, 0, "/trains start shinjuku")
    assert state["current"] == 1
    after, events = rules.resign(state, 1)
    assert after["phase"] == "start" and after["current"] == 2
    assert events == [{"text": "bob resigns.", "post_board": True}]


def test_the_last_player_to_start_resigning_begins_the_play_phase(tr):
    state = tr.new_game(3)
    state, _ = tr.do(state, 0, "/trains start shinjuku")
    state, _ = tr.do(state, 1, f"/trains start {tr.GAME.format(tr.GAME.legal_moves(state, 1)[0]).split()[-1]}")
    assert state["current"] == 2 and state["phase"] == "start"
    after, events = rules.resign(state, 2)
    assert after["phase"] == "play" and after["current"] == 0 and after["turn_number"] == 1
    assert events == [
        {"text": "cat resigns.", "post_board": True},
        {"text": "All starting rails are placed. ann begins.", "post_board": True},
    ]


def test_resigning_is_refused_in_its_own_words(tr):
    state = tr.scenario(["normal-train"], rails={"E5": [0], "E6": [1]}, players=3)
    for seat in (3, -1):
        with pytest.raises(IllegalMove) as refused:
            rules.resign(state, seat)
        assert refused.value.message == "You are not playing in this game."
    once, _ = rules.resign(state, 2)
    with pytest.raises(IllegalMove) as refused:
        rules.resign(once, 2)
    assert refused.value.message == "You are not playing in this game."
    over, _ = rules.resign(once, 1)
    with pytest.raises(IllegalMove) as refused:
        rules.resign(over, 0)
    assert refused.value.message == "The game is over."


def test_the_start_phase_undo_scope_counts_the_starting_rails_placed(tr):
    state = tr.new_game(3)
    assert rules.undo_scope(state) == ("start", 0, 0)
    state, _ = tr.do(state, 0, "/trains start shinjuku")
    assert rules.undo_scope(state) == ("start", 1, 1)


def test_a_game_ended_for_two_reasons_names_both_and_every_score(tr):
    state = tr.scenario(["normal-train"], rails={"E5": [0], "E6": [1]})
    for pile in list(state["piles"])[:4]:  # the rulebook: the game ends when 4 supply piles are empty ...
        state["supply"][pile] = 0
    state["players"][0]["rails_left"] = 0  # ... or when a player has placed all their rails
    after, events = tr.do(state, 0, "/trains end")
    assert after["phase"] == "over"
    assert events[-1] == {
        "text": "Game over (4 supply piles are empty; ann has placed all their rails). Final scores: ann 0, bob 0.",
        "post_board": True,
    }


def test_standings_call_a_kicked_player_kicked_and_a_resigned_one_resigned(tr):
    state = tr.scenario(["normal-train"], rails={"E5": [0], "E6": [1], "F6": [2], "G6": [3]}, players=4)
    state, _ = rules.kick(state, 1)
    state, _ = rules.resign(state, 3)
    titles = {row["player"]: row.get("title") for row in tr.GAME.standings(state)}
    assert titles == {"ann": None, "bob": "kicked", "cat": None, "dan": "resigned"}


def test_play_statistics_count_the_cards_bought_beyond_the_starting_deck(tr):
    # The starting deck (rulebook): 7 Normal Train, 2 Lay Rails, 1 Station Expansion. Waste is never bought.
    start = ["normal-train"] * 7 + ["lay-rails"] * 2 + ["station-expansion"]
    state = tr.scenario(start[:5], deck=start[5:] + ["express-train", "normal-train"], discard=["waste", "waste"])
    assert tr.GAME.stats(state) == {
        "map": "tokyo",
        "counted": "cards bought",
        "counts": [{"express-train": 1, "normal-train": 1}, {}],
    }
