"""rules.redeal's helpers at their edges: the fresh monument pair, and exactly which deck cards are unseen.

Solo: the deck holds 12 cards after 3 are revealed; every pick goes to the bottom, so after k picks the last k
cards have been seen and the first 12 - k have not (one pick per round, made in the announce phase). Town
Hall: the 5 cards discarded face down at the last shuffle are unseen, the cards discarded after them were
revealed. Only unseen cards may move.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.options import parse_options
from games.rng import Rng, seed_state
from games.tiny_towns import GAME
from games.tiny_towns.rules import _fresh_pair, redeal
from tests.tiny_towns.helpers import play

State = dict[str, Any]


def test_a_fresh_pair_differs_from_the_old_one_whenever_the_pool_allows() -> None:
    # Seed 8 shuffles a, b, c into a, b, c: the old pair first, so the next two are dealt.
    assert Rng(seed_state(8)).shuffled(["a", "b", "c"]) == ["a", "b", "c"]
    assert _fresh_pair(Rng(seed_state(8)), ["a", "b", "c"], ["a", "b"]) == ["b", "c"]
    # Seed 9 shuffles into a, c, b: the first two are already a new pair.
    assert _fresh_pair(Rng(seed_state(9)), ["a", "b", "c"], ["a", "b"]) == ["a", "c"]
    # A pool of two can only deal the same two again (seed 0 keeps their order, seed 8 swaps it).
    assert _fresh_pair(Rng(seed_state(0)), ["a", "b"], ["a", "b"]) == ["a", "b"]
    assert _fresh_pair(Rng(seed_state(8)), ["a", "b"], ["a", "b"]) == ["b", "a"]
    for seed in range(30):
        assert _fresh_pair(Rng(seed_state(seed)), ["a", "b", "c", "d"], ["c", "d"]) != ["c", "d"]


def solo_at(round_no: int, phase: str) -> State:
    state = GAME.setup(["sol"], parse_options("buildings=first-game", GAME.options), 4)
    squares = iter(f"{c}{r}" for r in "1234" for c in "ABCD")
    while (state["round"], state["phase"]) != (round_no, phase):
        if state["phase"] == "announce":
            state, _ = play(state, 0, f"/tt announce {state['solo']['revealed'][0]}")
        else:
            state, _ = play(state, 0, f"/tt place {next(squares)}")
            if state["phase"] == "place" and not state["towns"][0]["done"]:
                state, _ = play(state, 0, "/tt done")
    return state


def test_solo_redeal_moves_exactly_the_cards_not_picked_yet() -> None:
    for round_no, phase, picks in [(1, "announce", 0), (1, "place", 1), (3, "announce", 2), (3, "place", 3)]:
        state = solo_at(round_no, phase)
        deck = state["solo"]["deck"]
        assert len(deck) == 12
        unseen = 12 - picks
        moved_last_unseen = False
        for seed in range(40):
            new = redeal(state, 0, seed)["solo"]
            assert new["revealed"] == state["solo"]["revealed"]
            assert new["deck"][unseen:] == deck[unseen:], (round_no, phase, seed)
            assert Counter(new["deck"][:unseen]) == Counter(deck[:unseen])
            moved_last_unseen |= new["deck"][unseen - 1] != deck[unseen - 1]
        assert moved_last_unseen, (round_no, phase)  # the last unseen card is shuffled too


def test_town_hall_redeal_keeps_the_revealed_card_and_the_cards_revealed_since_the_shuffle() -> None:
    state = GAME.setup(["p0", "p1"], parse_options("variant=town-hall buildings=first-game", GAME.options), 4)
    hall = state["town_hall"]
    assert len(hall["discards"]) == 5 and len(hall["draw_pile"]) == 9  # round 1: nothing revealed is discarded
    seen_top = set()
    for seed in range(30):
        new = redeal(state, 1, seed)["town_hall"]
        assert new["revealed"] == hall["revealed"] and len(new["discards"]) == 5 and len(new["draw_pile"]) == 9
        assert Counter(new["draw_pile"] + new["discards"]) == Counter(hall["draw_pile"] + hall["discards"])
        seen_top.add(new["draw_pile"][0])
        seen_top.add(new["discards"][0])
    assert len(seen_top) == 5  # a face-down discard can come to the top of the draw pile and back


def test_only_solo_leaves_fort_ironweed_and_opaleyes_watch_out_of_the_redeal() -> None:
    options = parse_options("monuments=grove,starloom,cathedral,sky-baths", GAME.options)
    state = GAME.setup(["ann", "bob"], options, 1)
    dealt = {slug for seed in range(60) for slug in redeal(state, 0, seed)["towns"][0]["monument_options"]}
    # Every monument but bob's two can be dealt to ann in a game of two.
    assert dealt == {
        "architects-guild",
        "archive-of-the-second-age",
        "barrett-castle",
        "fort-ironweed",
        "grand-mausoleum-of-the-rodina",
        "grove-university",
        "mandras-palace",
        "obelisk-of-the-crescent",
        "opaleyes-watch",
        "shrine-of-the-elder-tree",
        "silva-forum",
        "statue-of-the-bondmaker",
        "starloom",
    }


def test_a_built_monument_keeps_its_place_among_the_two_cards() -> None:
    options = parse_options("monuments=grove,starloom,cathedral,sky-baths", GAME.options)
    state = GAME.setup(["ann", "bob"], options, 1)
    for seat, slug in ((0, "starloom"), (1, "cathedral")):  # ann keeps her second card, bob his first
        state, _ = play(state, seat, f"/tt monument {slug}")
    dealt_at_start = ("grove-university", "starloom", "cathedral-of-caterina", "sky-baths")
    for seat, slug, place in ((0, "starloom", 1), (1, "cathedral-of-caterina", 0)):
        state["towns"][seat].update(monument_built=True, monument_round=1)
        for seed in range(10):
            dealt = redeal(state, seat, seed)["towns"][seat]["monument_options"]
            # The card let go is new: none of the four dealt at the start (the other seat still holds two).
            assert dealt[place] == slug and dealt[1 - place] not in dealt_at_start


def test_the_rng_cursor_is_dealt_afresh_per_seed_and_a_seat_past_the_last_changes_nothing() -> None:
    state = GAME.setup(["ann", "bob"], parse_options("buildings=first-game", GAME.options), 1)
    cursors = [redeal(state, 0, seed)["rng"] for seed in range(5)]
    assert all(isinstance(c, int) for c in cursors) and len(set(cursors)) == 5 and state["rng"] not in cursors
    assert redeal(state, 0, 3)["rng"] == cursors[3]
    assert redeal(state, 2, 1) == state and redeal(state, -1, 1) == state
