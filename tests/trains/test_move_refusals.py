"""Every refusal of rules.apply, word for word, from the engine itself (a stored or replayed move reaches the
rules without the parser's checks): a finished game, a seat that is not playing (out of range or resigned),
another player's turn, an unknown verb, the wrong verb for the phase, malformed card choices, passing late.
Written against mutants bench/mutation.sh left alive in rules._check_turn and rules.apply.
"""

from __future__ import annotations

import pytest

from games.base import IllegalMove
from games.trains import rules


def _refusal(state, seat, move) -> str:
    with pytest.raises(IllegalMove) as refused:
        rules.apply(state, seat, move)
    return refused.value.message


def _three(tr):
    return tr.scenario(["normal-train", "lay-rails"], rails={"E5": [0], "E6": [1], "F6": [2]}, players=3)


def test_who_may_move_is_refused_in_its_own_words(tr):
    state = _three(tr)
    end = {"verb": "end"}
    for seat in (3, 4, -1):
        assert _refusal(state, seat, end) == "You are not playing in this game."
    resigned, _ = rules.resign(state, 2)
    assert _refusal(resigned, 2, end) == "You are not playing in this game."
    assert _refusal(state, 1, end) == "It is ann's turn, not yours."
    over, _ = rules.resign(resigned, 1)
    assert over["phase"] == "over"
    assert _refusal(over, 0, end) == "The game is over."


def test_verbs_and_phases_are_refused_in_their_own_words(tr):
    state = _three(tr)
    assert _refusal(state, 0, {"verb": "fly"}) == (
        "Unknown command 'fly'; use one of: " + ", ".join(rules.VERB_NAMES) + "."
    )
    assert _refusal(state, 0, ["end"]) == "Unknown command None; use one of: " + ", ".join(rules.VERB_NAMES) + "."
    assert _refusal(state, 0, {"verb": "start", "hex": "E7"}) == (
        "Starting rails are all placed; play, buy, pass or end your turn."
    )
    fresh = tr.new_game(3)
    assert _refusal(fresh, 0, {"verb": "end"}) == "First place your starting rail: /trains start HEX."


def test_card_choices_and_late_passes_are_refused_in_their_own_words(tr):
    state = _three(tr)
    assert _refusal(state, 0, {"verb": "play", "card": "lay-rail", "args": []}) == (
        "Unknown card 'lay-rail' (did you mean \"lay-rails\"?)."
    )
    for args in ("E7", ["E7", 7], None):
        assert _refusal(state, 0, {"verb": "play", "card": "lay-rails", "args": args}) == (
            "Card choices must be a list of words."
        )
    played, _ = tr.do(state, 0, "/trains play normal-train")
    assert _refusal(played, 0, {"verb": "pass"}) == (
        "You can only pass before playing or buying anything this turn; use /trains end."
    )
    played["turn"]["played"] = False
    played["turn"]["bought"] = True
    assert _refusal(played, 0, {"verb": "pass"}) == (
        "You can only pass before playing or buying anything this turn; use /trains end."
    )


def test_the_play_phase_begins_with_a_fresh_turn_and_no_stray_keys(tr):
    state = tr.new_game(2)
    keys = set(state)
    state, _ = tr.do(state, 0, "/trains start shinjuku")
    state, events = tr.do(state, 1, "/trains start " + tr.GAME.format(tr.GAME.legal_moves(state, 1)[0]).split()[-1])
    assert events[-1] == {"text": "All starting rails are placed. ann begins.", "post_board": True}
    assert state["phase"] == "play" and state["current"] == 0 and state["turn_number"] == 1
    assert state["turn"] == rules.new_turn() and set(state) == keys


def test_starting_rails_are_placed_and_refused_in_their_own_words(tr):
    state = tr.new_game(2)
    sea = tr.find_hexes("tokyo", "sea")[0]
    # A stored move without its hex reaches the map check as an empty label.
    assert _refusal(state, 0, {"verb": "start"}) == " is not on the Tokyo map."
    assert _refusal(state, 0, {"verb": "start", "hex": "Z9"}) == "Z9 is not on the Tokyo map."
    assert _refusal(state, 0, {"verb": "start", "hex": sea}) == f"{sea} is sea; start on land."
    assert _refusal(state, 0, {"verb": "start", "hex": "F1"}) == (
        "F1 is a remote location; starting rails cannot go there."
    )
    after, events = tr.do(state, 0, "/trains start E5")
    assert events == [{"text": "ann places their starting rail on E5.", "post_board": True}]
    assert after["rails"] == {"E5": [0]} and after["players"][0]["start"] == "E5"
    assert after["players"][0]["rails_left"] == state["players"][0]["rails_left"] - 1
    assert _refusal(after, 1, {"verb": "start", "hex": "E5"}) == "Another player started on E5."


def test_a_play_or_buy_without_its_card_is_refused_as_an_empty_name(tr):
    state = tr.scenario(["normal-train"], money=9)
    for verb in ("play", "buy"):
        assert _refusal(state, 0, {"verb": verb}) == "Unknown card ''."
    # Without "top" a buy goes with the gained cards, not on the deck.
    after, events = rules.apply(state, 0, {"verb": "buy", "card": "express-train"})
    assert events == [{"text": "ann buys Express Train."}] and after["players"][0]["gained"] == ["express-train"]


def test_a_place_name_in_a_cards_choices_stands_for_its_hex_on_this_map(tr):
    state = tr.scenario(["station-expansion", "normal-train"], rails={"E5": [0]})
    by_name, said = tr.do(state, 0, "/trains play station-expansion shinjuku")
    assert said == [{"text": "ann plays Station Expansion: station in Shinjuku (H6); gains 1 Waste."}]
    by_hex, _ = rules.apply(state, 0, {"verb": "play", "card": "station-expansion", "args": ["H6"]})
    assert by_name["stations"] == by_hex["stations"] == {"H6": 1}
    assert _refusal(state, 0, {"verb": "play", "card": "station-expansion", "args": ["umeda"]}) == (
        'There is no "umeda" on the Tokyo map.'
    )
    # A card without choices needs no "args" at all.
    after, said = rules.apply(state, 0, {"verb": "play", "card": "normal-train"})
    assert said == [{"text": "ann plays Normal Train: +1 money."}] and after["turn"]["money"] == 1


def test_the_play_line_comes_before_the_events_of_the_cards_effect(tr):
    state = tr.scenario(["timetable"], deck=["lay-rails", "express-train"], kingdom=["timetable"])
    after, said = tr.do(state, 0, "/trains play timetable")
    assert said[0] == {"text": "ann plays Timetable: draws 2."}
    assert said[1] == {"text": "ann draws 2 cards.", "irreversible": True}
    assert sorted(after["players"][0]["hand"]) == ["express-train", "lay-rails"]
