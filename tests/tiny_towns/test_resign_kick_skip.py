"""resign, kick and /mod skip: exact texts, who holds the hammer after, and which move a skip plays.

The hand-worked expectations: a resigned town stops and leaves the round (reference section 5, the rules
decisions); the hammer passes left only while a resource is still to be named; skip's square is the empty one
with the fewest empty neighbours, then the lowest in reading order (rules.skip_move's documented order).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.base import IllegalMove
from games.options import parse_options
from games.tiny_towns import GAME
from games.tiny_towns.rules import kick, resign, skip_move
from tests.tiny_towns.helpers import game, play, play_all, with_town

State = dict[str, Any]


def texts(events: list[dict[str, Any]]) -> list[str]:
    return [e["text"] for e in events]


def refused(call: Any, *args: Any) -> str:
    with pytest.raises(IllegalMove) as caught:
        call(*args)
    return caught.value.message


def test_resign_refusals_word_for_word() -> None:
    state = game(2)
    assert refused(resign, state, 2) == "You are not playing in this game."
    assert refused(resign, state, -1) == "You are not playing in this game."
    gone, _ = resign(state, 0)
    assert refused(resign, gone, 0) == "You have already left this game."
    over, _ = resign(gone, 1)
    assert over["phase"] == "finished"
    assert refused(resign, over, 1) == "The game is over."
    assert refused(kick, over, 0) == "The game is over."


def test_the_master_builder_resigning_before_naming_passes_the_hammer() -> None:
    state = game(3)
    before = json.dumps(state, sort_keys=True)
    new, events = resign(state, 0)
    assert json.dumps(state, sort_keys=True) == before  # the caller's state is left alone
    assert texts(events) == ["p0 leaves the game.", "The hammer passes to p1."]
    assert new["master_builder"] == 1 and new["towns"][0]["resigned"] and new["phase"] == "announce"
    assert "kicked" not in new["towns"][0]
    # Another player resigning in the announce phase changes nobody's hammer.
    other, events = resign(state, 2)
    assert texts(events) == ["p2 leaves the game."] and other["master_builder"] == 0


def test_the_master_builder_resigning_after_naming_keeps_the_round_going() -> None:
    state = play_all(game(3), [(0, "/tt announce wood"), (1, "/tt place A1")])
    new, events = resign(state, 0)
    assert texts(events) == ["p0 leaves the game."]
    assert new["master_builder"] == 0 and new["round"] == 1 and GAME.status(new).to_act == (2,)
    new, events = play(new, 2, "/tt place A1")  # the round ends: the hammer goes on from the resigned seat
    assert new["round"] == 2 and new["master_builder"] == 1


def test_the_last_player_to_act_resigning_ends_the_round() -> None:
    state = play_all(game(2), [(0, "/tt announce wood"), (0, "/tt place A1")])
    new, events = resign(state, 1)
    assert events == [{"text": "p1 leaves the game."}, {"text": "Round 1 is over.", "post_board": True}]
    assert new["round"] == 2 and new["phase"] == "announce" and new["master_builder"] == 0


def test_a_resigned_town_drops_its_claims() -> None:
    state = play_all(game(3), [(0, "/tt announce wood"), (1, "/tt place A1")])
    state["towns"][1].update(pending_claims=["farm"], aside=["farm", "well", "chapel"])
    new, _ = resign(state, 1)
    assert new["towns"][1]["pending_claims"] == [] and new["towns"][1]["aside"] == ["farm", "well", "chapel"]


def test_resigning_in_the_monuments_phase_starts_play_once_the_others_have_kept_one() -> None:
    options = parse_options("monuments=grove,starloom,fort,sky-baths,cathedral,silva-forum", GAME.options)
    state = GAME.setup(["ann", "bob", "cid"], options, 1)
    state, _ = play(state, 0, "/tt monument starloom")
    waiting, events = resign(state, 1)  # cid still chooses
    assert texts(events) == ["bob leaves the game."] and waiting["phase"] == "monuments"
    assert GAME.status(waiting).to_act == (2,)
    state, _ = play(state, 2, "/tt monument cathedral")
    started, events = resign(state, 1)  # bob was the last to choose: play begins with ann's hammer
    assert texts(events) == ["bob leaves the game."]
    assert started["phase"] == "announce" and started["master_builder"] == 0 and started["round"] == 1


def test_the_last_town_resigning_in_town_hall_discards_the_revealed_card_and_ends_the_game() -> None:
    state = GAME.setup(["p0", "p1"], parse_options("variant=town-hall buildings=first-game", GAME.options), 4)
    hall = state["town_hall"]
    card, discards = hall["revealed"], list(hall["discards"])
    assert card is not None
    state, events = resign(state, 1)
    assert texts(events) == ["p1 leaves the game."] and state["town_hall"]["revealed"] == card
    state, events = resign(state, 0)
    assert state["phase"] == "finished"
    assert state["town_hall"]["revealed"] is None and state["town_hall"]["discards"] == [*discards, card]
    assert texts(events)[0] == "p0 leaves the game." and texts(events)[1].startswith("Game over. Winner: ")
    assert len(events) == 2


def test_solo_resign_ends_the_game() -> None:
    state = GAME.setup(["sol"], parse_options("buildings=first-game", GAME.options), 4)
    state, events = resign(state, 0)
    assert state["phase"] == "finished" and texts(events)[0] == "sol leaves the game." and len(events) == 2


def test_kick_marks_the_town_and_renames_only_the_leaving_line() -> None:
    state = game(3)
    new, events = kick(state, 0)
    assert texts(events) == ["p0 was kicked by a moderator.", "The hammer passes to p1."]
    assert new["towns"][0]["kicked"] is True and new["towns"][0]["resigned"] is True
    assert "kicked" not in new["towns"][1] and "kicked" not in state["towns"][0]
    state = play_all(game(2), [(0, "/tt announce wood"), (0, "/tt place A1")])
    new, events = kick(state, 1)
    assert events == [{"text": "p1 was kicked by a moderator."}, {"text": "Round 1 is over.", "post_board": True}]


@pytest.mark.parametrize(
    ("town", "square"),
    [
        # A1 has one empty neighbour (B1); B1 has two (A1, B2); B2 has one (B1): A1 before B2 by reading order.
        (". . S S / S . S S / S S S S / S S S S", "A1"),
        # C1, C2, A3, A4 each have one empty neighbour: C1 is first (a row-0 neighbour counts for C2).
        ("S S . S / S S . S / . S S S / . S S S", "C1"),
        # D1 and A2 have no empty neighbour (the square after D1 in reading order is not beside it).
        ("S S S . / . S S S / S S S S / S S S S", "D1"),
        # A1 and B1 are each other's only empty neighbour: A1 comes first.
        (". . S S / S S S S / S S S S / S S S S", "A1"),
        # D1 and D2 are each other's empty neighbour; A4 has none, so it goes first despite reading order.
        ("S S S . / S S S . / S S S S / . S S S", "A4"),
        # A4 (row 3) has no empty neighbour; B3 has one (C3).
        ("S S S S / S S S S / S . . S / . S S S", "A4"),
    ],
)
def test_skip_places_on_the_square_with_the_fewest_empty_neighbours(town: str, square: str) -> None:
    state = with_town(game(2), 1, town)
    state, _ = play(state, 0, "/tt announce wood")
    assert skip_move(state, 1) == {"verb": "place", "cell": square}


def test_skip_prefers_the_named_resource_on_an_empty_square_over_a_substitute_or_a_statue_cube() -> None:
    town = "factory:wood S cottage S / statue-of-the-bondmaker! S S S / S S S S / S S S ."
    state = with_town(game(2), 1, town, monument="statue-of-the-bondmaker")
    state, _ = play(state, 0, "/tt announce wood")
    listed = GAME.legal_moves(state, 1)
    assert {"verb": "place", "cell": "C1"} in listed and {"verb": "place", "cell": "D4", "resource": "wheat"} in listed
    # The Cottage on C1 and the empty D4 both have no empty neighbour and C1 comes first in reading order,
    # but it is occupied: the named resource goes on D4.
    assert skip_move(state, 1) == {"verb": "place", "cell": "D4"}


def test_skip_outside_placing() -> None:
    options = parse_options("monuments=grove,starloom,fort,sky-baths", GAME.options)
    monuments = GAME.setup(["a", "b"], options, 1)
    assert skip_move(monuments, 1) == {"verb": "monument", "monument": "fort-ironweed"}
    state = with_town(game(2), 0, "bank:wood . . . / . . . . / . . . . / . . . .")
    assert skip_move(state, 0) == {"verb": "announce", "resource": "wheat"}
    assert refused(skip_move, state, 1) == "There is nothing to skip for this player now."
    # After placing with a possible build: done, not the build.
    state = with_town(game(2), 1, "W . . . / . . . . / . . . . / . . . .")
    state = play_all(state, [(0, "/tt announce stone"), (1, "/tt place B1")])
    assert skip_move(state, 1) == {"verb": "done"}
    # An open Opaleye's Watch claim holds back done: the first claim.
    state["towns"][1].update(pending_claims=["farm"], aside=["farm", "well", "chapel"])
    assert skip_move(state, 1) == {"verb": "claim", "building": "farm", "cell": "C1"}


def test_resigning_the_last_monument_choice_in_town_hall_draws_the_first_card() -> None:
    options = parse_options(
        "variant=town-hall buildings=first-game monuments=grove,starloom,fort,sky-baths", GAME.options
    )
    state = GAME.setup(["ann", "bob"], options, 4)
    state, _ = play(state, 0, "/tt monument starloom")
    state, events = resign(state, 1)
    card = state["town_hall"]["revealed"]
    assert card is not None and state["phase"] == "place" and state["resource"] == card
    assert events == [
        {"text": "bob leaves the game."},
        {"text": f"Round 1: the Mayor (ann) draws {card}.", "irreversible": True},
    ]
