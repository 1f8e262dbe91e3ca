"""status: who must act and the status line, word for word, in every phase."""

from __future__ import annotations

from games.base import Status
from games.options import parse_options
from games.tiny_towns import GAME
from games.tiny_towns.rules import status
from tests.tiny_towns.helpers import game, play, play_all, with_town


def test_monuments_phase_waits_for_those_who_have_not_kept_one() -> None:
    options = parse_options("monuments=grove,starloom,fort,sky-baths,cathedral,silva-forum", GAME.options)
    state = GAME.setup(["ann", "bob", "cid"], options, 1)
    assert status(state) == Status((0, 1, 2), False, "waiting for: ann, bob, cid (choose a monument)")
    state, _ = play(state, 1, "/tt monument fort")
    assert status(state) == Status((0, 2), False, "waiting for: ann, cid (choose a monument)")
    state, _ = GAME.resign(state, 2)
    assert status(state) == Status((0,), False, "waiting for: ann (choose a monument)")


def test_announce_names_the_master_builder_or_the_solo_player() -> None:
    assert status(game(3)) == Status((0,), False, "p0 to name a resource")
    solo = GAME.setup(["sol"], parse_options("buildings=first-game", GAME.options), 4)
    assert status(solo) == Status((0,), False, "sol to pick a resource")
    state = play_all(game(2), [(0, "/tt announce wood"), (0, "/tt place A1"), (1, "/tt place A1")])
    assert status(state) == Status((1,), False, "p1 to name a resource")


def test_place_phase_lists_those_still_placing_building_or_claiming() -> None:
    state = with_town(game(3), 1, "W . . . / . . . . / . . . . / . . . .")
    state, _ = play(state, 0, "/tt announce stone")
    assert status(state) == Status((0, 1, 2), False, "round 1 (stone): waiting for: p0, p1, p2")
    state = play_all(state, [(0, "/tt place D4"), (1, "/tt place B1")])  # p0 done automatically, p1 may build
    assert status(state) == Status((1, 2), False, "round 1 (stone): waiting for: p1, p2")
    # Done, but an Opaleye's Watch claim with an empty square to take it keeps p0 in the round.
    state["towns"][0].update(pending_claims=["farm"], aside=["farm", "well", "chapel"])
    assert status(state).to_act == (0, 1, 2)
    full = with_town(state, 0, "S S S S / S S S S / S S S S / S S S S", done=True, pending_claims=["farm"])
    assert status(full).to_act == (1, 2)  # no empty square: the claim holds nobody up
    gone, _ = GAME.resign(state, 2)
    assert status(gone) == Status((0, 1), False, "round 1 (stone): waiting for: p0, p1")
    complete = with_town(state, 1, "S S S S / S S S S / S S S S / S S S S", complete=True)
    assert status(complete).to_act == (0, 2)


def test_a_free_choice_round_says_so() -> None:
    options = parse_options("variant=town-hall buildings=first-game", GAME.options)
    state = GAME.setup(["p0", "p1"], options, 4)
    card = state["resource"]
    assert status(state) == Status((0, 1), False, f"round 1 ({card}): waiting for: p0, p1")
    for square in ("A1", "B1"):
        for seat in (0, 1):
            state, _ = play(state, seat, f"/tt place {square}")
    assert state["source"] == "free"
    assert status(state) == Status((0, 1), False, "round 3 (free choice): waiting for: p0, p1")


def test_game_over_names_every_winner_and_the_score() -> None:
    state, _ = GAME.resign(game(2), 0)
    state, _ = GAME.resign(state, 1)
    # Two empty towns: -16 each, nobody was Master Builder, same empty squares and Cottages: a shared win.
    assert status(state) == Status((), True, "Game over: p0 and p1 won with -16 points.")
    one = with_town(game(2), 1, "well . . . / . . . . / . . . . / . . . .")
    one, _ = GAME.resign(one, 0)
    one, _ = GAME.resign(one, 1)
    # p1: a Well with no Cottage beside it scores 0, 15 empty squares -15; p0: -16.
    assert status(one) == Status((), True, "Game over: p1 won with -15 points.")
