"""rules.redeal: one seat's secrets dealt afresh, nothing another viewer sees changed."""

from __future__ import annotations

import json
from collections import Counter

from games.tiny_towns import GAME
from games.tiny_towns.content import MONUMENTS, RULES
from games.tiny_towns.rules import redeal
from tests.tiny_towns.helpers import game, play, with_town

State = dict


def dump(value: object) -> str:
    return json.dumps(value, sort_keys=True)


def kept_all(state: State) -> State:
    """Every seat keeps the first of its two monuments (the play phase starts)."""
    for seat, town in enumerate(state["towns"]):
        state, _ = play(state, seat, f"/tt monument {town['monument_options'][0]}")
    return state


def others_see_the_same(state: State, new: State, seat: int) -> None:
    for viewer in [None, *(v for v in range(len(state["towns"])) if v != seat)]:
        assert dump(GAME.view(new, viewer)) == dump(GAME.view(state, viewer)), viewer
    assert GAME.status(new) == GAME.status(state)


def test_monuments_phase_deals_other_cards_from_what_others_do_not_hold() -> None:
    state = game(6, monuments="on")
    before = dump(state)
    held = {s for t in state["towns"][1:] for s in t["monument_options"]}
    changed = 0
    for seed in range(40):
        new = redeal(state, 0, seed)
        assert dump(state) == before  # the input is left alone
        options = new["towns"][0]["monument_options"]
        assert len(options) == 2 and len(set(options)) == 2
        assert set(options) <= set(MONUMENTS) - held  # never a card another seat was dealt
        assert new["towns"][0]["monument"] is None
        assert [t["monument_options"] for t in new["towns"][1:]] == [t["monument_options"] for t in state["towns"][1:]]
        others_see_the_same(state, new, 0)
        changed += options != state["towns"][0]["monument_options"]
        # Still a valid state: the seat keeps one of its new cards.
        assert GAME.legal_moves(new, 0) == [{"verb": "monument", "monument": slug} for slug in options]
        GAME.apply(new, 0, GAME.legal_moves(new, 0)[0])
    assert changed == 40  # redeal picks a different pair whenever the pool allows it
    assert redeal(state, 0, 7) == redeal(state, 0, 7)  # seeded


def test_a_kept_unbuilt_monument_is_redealt_too() -> None:
    state = kept_all(game(3, monuments="on"))
    assert state["phase"] == "announce"
    kept: Counter[bool] = Counter()
    for seed in range(30):
        new = redeal(state, 1, seed)
        town = new["towns"][1]
        assert town["monument"] in town["monument_options"] and not town["monument_built"]
        others_see_the_same(state, new, 1)
        kept[town["monument"] != state["towns"][1]["monument"]] += 1
        assert GAME.view(new, 1)["towns"][1]["monument"] == town["monument"]  # the owner sees the new card
        mb = new["master_builder"]
        assert GAME.legal_moves(new, mb) == GAME.legal_moves(state, mb)
    assert kept[True] > 0


def test_a_built_monument_stays_and_only_the_card_let_go_changes() -> None:
    state = kept_all(game(2, monuments="on"))
    slug = state["towns"][0]["monument"]
    state = with_town(state, 0, f"{slug} . . . / . . . . / . . . . / . . . .", monument=slug)
    assert state["towns"][0]["monument_built"]
    spare = [s for s in state["towns"][0]["monument_options"] if s != slug]
    changed = False
    for seed in range(20):
        new = redeal(state, 0, seed)
        town = new["towns"][0]
        assert town["monument"] == slug and town["monument_built"] and town["cells"] == state["towns"][0]["cells"]
        assert slug in town["monument_options"] and len(set(town["monument_options"])) == 2
        assert not set(town["monument_options"]) & set(new["towns"][1]["monument_options"])
        others_see_the_same(state, new, 0)
        changed |= [s for s in town["monument_options"] if s != slug] != spare
    assert changed


def test_no_monuments_and_no_deck_only_the_rng_cursor_changes() -> None:
    state = game(2)
    new = redeal(state, 0, 3)
    assert new["rng"] != state["rng"]
    assert {**new, "rng": 0} == {**state, "rng": 0}
    others_see_the_same(state, new, 0)


def test_town_hall_shuffles_only_unseen_cards() -> None:
    state = game(3, variant="town-hall")
    for seat in range(3):  # round 1: the Mayor's card is revealed, everyone places and is done
        state, _ = play(state, seat, "/tt place A1")
        if not state["towns"][seat]["done"]:
            state, _ = play(state, seat, "/tt done")
    hall = state["town_hall"]
    face_down = RULES["town_hall"]["discard_face_down"]
    assert state["round"] == 2 and len(hall["discards"]) == face_down + 1
    shuffled = 0
    for seed in range(10):
        new = redeal(state, 2, seed)["town_hall"]
        assert len(new["draw_pile"]) == len(hall["draw_pile"]) and len(new["discards"]) == len(hall["discards"])
        assert new["discards"][face_down:] == hall["discards"][face_down:]  # revealed cards stay put
        assert new["revealed"] == hall["revealed"]
        assert Counter(new["draw_pile"]) + Counter(new["discards"][:face_down]) == Counter(hall["draw_pile"]) + Counter(
            hall["discards"][:face_down]
        )
        shuffled += new["draw_pile"] != hall["draw_pile"]
        others_see_the_same(state, redeal(state, 2, seed), 2)
    assert shuffled > 0


def test_solo_keeps_seen_cards_and_never_deals_the_solo_exclusions() -> None:
    state = game(1, monuments="on")
    for seed in range(30):
        assert not set(redeal(state, 0, seed)["towns"][0]["monument_options"]) & set(RULES["solo"]["removed"])
    state = kept_all(state)
    picked = state["solo"]["revealed"][0]
    state, _ = play(state, 0, f"/tt announce {picked}")  # round 1: one pick, now at the bottom of the deck
    deck = state["solo"]["deck"]
    for seed in range(10):
        new = redeal(state, 0, seed)
        assert new["solo"]["revealed"] == state["solo"]["revealed"]
        assert new["solo"]["deck"][-1] == deck[-1] == picked
        assert Counter(new["solo"]["deck"]) == Counter(deck)
        assert dump(GAME.view(new, None)) == dump(GAME.view(state, None))


def test_finished_or_unknown_seats_change_nothing() -> None:
    state = game(2, monuments="on")
    assert redeal(state, 5, 1) == state
    finished, _ = GAME.resign(state, 0)
    finished, _ = GAME.resign(finished, 1)
    assert finished["phase"] == "finished"
    assert redeal(finished, 0, 1) == finished
