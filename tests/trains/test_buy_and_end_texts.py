"""What buying and ending a turn say and count, word for word: the bought card's line (onto the deck, with the
Waste a VP card brings, or none left to bring), the end-of-turn line, the turn counter and the seat that acts
next. Written against mutants bench/mutation.sh left alive in rules._buy and rules._end_turn (texts only
checked by substring or not at all, the counter's step).
"""

from __future__ import annotations

from games.trains import rules


def test_a_plain_buy_says_the_card_and_puts_it_with_the_gained_cards(tr):
    state = tr.scenario(["normal-train"], money=7)
    after, events = tr.do(state, 0, "/trains buy express-train")
    assert events == [{"text": "ann buys Express Train."}]
    me = after["players"][0]
    assert me["gained"] == ["express-train"] and after["turn"]["money"] == 4 and after["turn"]["buys"] == 1


def test_a_buy_onto_the_deck_after_early_train_says_so(tr):
    state = tr.scenario(["normal-train"], money=7)
    state["turn"]["early"] = True  # Early Train played this turn
    after, events = rules.apply(state, 0, {"verb": "buy", "card": "express-train", "top": True})
    assert events == [{"text": "ann buys Express Train onto their deck."}]
    assert after["players"][0]["deck"][-1] == "express-train" and after["players"][0]["gained"] == []


def test_a_vp_card_brings_its_waste_and_says_how_many(tr):
    state = tr.scenario(["normal-train"], money=3)
    after, events = tr.do(state, 0, "/trains buy apartment")
    assert events == [{"text": "ann buys Apartment and gains 1 Waste."}]
    assert after["players"][0]["gained"] == ["apartment", "waste"]
    assert after["supply"]["waste"] == state["supply"]["waste"] - 1


def test_a_vp_card_with_no_waste_left_says_none_was_gained(tr):
    state = tr.scenario(["normal-train"], money=3)
    state["supply"]["waste"] = 0
    after, events = tr.do(state, 0, "/trains buy apartment")
    assert events == [{"text": "ann buys Apartment (no Waste left to gain)."}]
    assert after["players"][0]["gained"] == ["apartment"] and after["supply"]["waste"] == 0


def test_ending_a_turn_says_who_is_next_and_counts_one_turn(tr):
    state = tr.scenario(["normal-train"], deck=["lay-rails"] * 5, rails={"E5": [0], "E6": [1], "F6": [2]}, players=3)
    state["turn_number"] = 6
    after, events = tr.do(state, 0, "/trains end")
    assert events[-1] == {"text": "ann ends their turn. bob's turn.", "post_board": True}
    assert after["current"] == 1 and after["turn_number"] == 7
    assert rules.undo_scope(after) == ("play", 7, 1)
    # bob resigns out of turn; ann's next end of turn skips him, and cat's wraps round to ann.
    after, _ = rules.resign(after, 1)
    after["current"] = 0
    after, events = tr.do(after, 0, "/trains end")
    assert events[-1] == {"text": "ann ends their turn. cat's turn.", "post_board": True}
    assert after["current"] == 2 and after["turn_number"] == 9
    after, events = tr.do(after, 2, "/trains end")
    assert events[-1] == {"text": "cat ends their turn. ann's turn.", "post_board": True}
    assert after["current"] == 0 and after["turn_number"] == 10


def test_passing_returns_the_waste_and_ends_the_turn(tr):
    state = tr.scenario(["waste", "normal-train", "waste"], deck=["lay-rails"] * 5, rails={"E5": [0], "E6": [1]})
    waste = state["supply"]["waste"]
    after, events = tr.do(state, 0, "/trains pass")
    assert events[0] == {"text": "ann passes and returns 2 Waste to the supply."}
    assert events[-1] == {"text": "ann ends their turn. bob's turn.", "post_board": True}
    assert after["supply"]["waste"] == waste + 2 and after["turn_number"] == state["turn_number"] + 1


def test_every_move_counts_one_move(tr):
    state = tr.scenario(["normal-train", "lay-rails"], deck=["lay-rails"] * 5, rails={"E5": [0], "E6": [1]})
    state["move_number"] = 11
    for seat, command in ((0, "/trains play normal-train"), (0, "/trains end"), (1, "/trains pass")):
        before = state["move_number"]
        state, _ = tr.do(state, seat, command)
        assert state["move_number"] == before + 1
    assert state["move_number"] == 14
    fresh = tr.new_game(2)
    assert fresh["move_number"] == 0
    fresh, _ = tr.do(fresh, 0, "/trains start E5")
    assert fresh["move_number"] == 1
