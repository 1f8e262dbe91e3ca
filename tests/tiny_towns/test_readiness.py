"""Readiness as people type it: /tt done after every placement (also late), or never; clear refusals."""

from __future__ import annotations

from games.tiny_towns import GAME
from tests.tiny_towns.helpers import game, play, play_all, rejected, with_town

FULL_BUT_ONE = "well well well well / well well well well / well well well well / well well well ."
WELL_READY = "W S . . / . . . . / . . . . / . . . ."


def test_done_after_the_round_already_ended_is_accepted_and_changes_nothing() -> None:
    state = play_all(game(2), [(0, "/tt announce wood"), (0, "/tt place A1"), (1, "/tt place A1")])
    # Both were done automatically, so the round ended with p1's placement; p1 (and p0) now type /tt done.
    assert state["phase"] == "announce" and state["round"] == 2 and state["master_builder"] == 1
    for seat in (1, 0):
        again, events = play(state, seat, "/tt done")
        assert again == state
        assert any("private" in e and "already over" in e["private"]["text"] for e in events)
    state, _ = play(state, 1, "/tt announce stone")
    assert state["resource"] == "stone"


def test_done_before_the_first_placement_is_refused() -> None:
    state = game(2)
    assert "You are the Master Builder" in rejected(state, 0, "/tt done")
    assert "Wait for the Master Builder (p0)" in rejected(state, 1, "/tt done")
    state, _ = play(state, 0, "/tt announce wood")
    assert "Place this round's resource first" in rejected(state, 1, "/tt done")


def test_master_builder_placing_before_naming_is_told_to_name() -> None:
    state = game(2)
    assert "You are the Master Builder: first name" in rejected(state, 0, "/tt place A1")


def test_late_done_in_town_hall_where_the_next_round_starts_at_once() -> None:
    state = GAME.setup(["ann", "bob"], {"variant": "town-hall", "buildings": "first-game"}, 1)
    assert state["phase"] == "place" and state["round"] == 1
    state = play_all(state, [(0, "/tt place A1"), (0, "/tt done"), (1, "/tt place A1")])
    assert state["round"] == 2 and state["phase"] == "place" and not state["towns"][1]["placed"]
    again, _ = play(state, 1, "/tt done")  # bob's done was meant for round 1
    assert again == state
    state, _ = play(state, 1, "/tt place B1")
    assert state["towns"][1]["placed"]


def test_done_from_a_complete_town_is_a_no_op_but_other_moves_are_refused() -> None:
    state = with_town(game(3), 1, FULL_BUT_ONE)
    state = play_all(state, [(0, "/tt announce wood"), (1, "/tt place D4")])
    assert state["towns"][1]["complete"]
    state = play_all(state, [(0, "/tt place A1"), (2, "/tt place A1")])
    assert state["phase"] == "announce" and state["master_builder"] == 2  # the hammer skips p1
    again, _ = play(state, 1, "/tt done")
    assert again == state
    assert "Your town is complete" in rejected(state, 1, "/tt announce wood")
    state, _ = play(state, 2, "/tt announce wood")
    assert "Your town is complete" in rejected(state, 1, "/tt place A1")


def test_never_typing_done_works_when_nothing_can_be_built() -> None:
    state = game(2)
    for resource in ("wood", "brick", "glass", "wheat"):
        mb = state["master_builder"]
        state = play_all(
            state,
            [
                (mb, f"/tt announce {resource}"),
                (0, f"/tt place {'ABCD'[state['round'] - 1]}1"),
                (1, f"/tt place {'ABCD'[state['round'] - 1]}1"),
            ],
        )
    assert state["round"] == 5 and state["master_builder"] == 0


def test_next_announcement_waits_for_a_player_who_could_still_build() -> None:
    state = with_town(game(2), 1, WELL_READY)
    state = play_all(state, [(0, "/tt announce glass"), (0, "/tt place D1"), (1, "/tt place D4")])
    assert GAME.status(state).to_act == (1,)
    message = rejected(state, 1, "/tt announce wood")
    assert "already named (glass)" in message and "Waiting for: p1" in message
    state, _ = play(state, 1, "/tt done")
    assert state["phase"] == "announce" and state["master_builder"] == 1


def test_a_build_refused_while_done_names_the_real_problem() -> None:
    state = with_town(game(2), 0, WELL_READY)
    state = play_all(state, [(0, "/tt announce glass"), (0, "/tt place D4"), (0, "/tt build well A1 B1 at A1")])
    assert state["towns"][0]["done"]  # nothing else to build: done automatically
    assert "Tavern needs B B G" in rejected(state, 0, "/tt build tavern A2 B2 C2")
    assert "Well needs W S" in rejected(state, 0, "/tt build well C4 D4")
    # Said done while a build was still possible: then "done" is the reason.
    state = with_town(game(2), 0, WELL_READY)
    state = play_all(state, [(0, "/tt announce glass"), (0, "/tt place D4"), (0, "/tt done")])
    assert "You said you are done" in rejected(state, 0, "/tt build well A1 B1 at A1")


def test_trading_post_lets_at_be_left_out_when_one_square_is_freed() -> None:
    state = with_town(
        game(2, buildings="cottage,farm,well,chapel,tavern,theater,trading-post"),
        0,
        "trading-post . . . / . . . . / . . . . / . . . .",
    )
    state = play_all(state, [(0, "/tt announce wood"), (0, "/tt place B1")])
    assert "must go on a square just freed: B1" in rejected(state, 0, "/tt build well A1 B1 at A1")
    state, _ = play(state, 0, "/tt build well A1 B1")
    assert state["towns"][0]["cells"][1] == {"building": "well"}
    assert state["towns"][0]["cells"][0] == {"building": "trading-post"}


def test_shed_needs_at_unless_a_single_square_is_possible() -> None:
    shed_game = "cottage,farm,shed,chapel,tavern,theater,trading-post"
    state = with_town(game(2, buildings=shed_game), 0, "S . . . / . . . . / . . . . / . . . .")
    state = play_all(state, [(0, "/tt announce wood"), (0, "/tt place B1")])
    message = rejected(state, 0, "/tt build shed A1 B1")
    assert "Add 'at <square>'" in message and "D4" in message
    state, _ = play(state, 0, "/tt build shed A1 B1 at D4")
    assert state["towns"][0]["cells"][15] == {"building": "shed"}
    # A Trading Post and one cube, in a town with no other empty square: only one square is possible.
    full = (
        "trading-post . tavern tavern / tavern tavern tavern tavern / tavern tavern tavern tavern / "
        "tavern tavern tavern tavern"
    )
    state = with_town(game(2, buildings=shed_game), 0, full)
    state = play_all(state, [(0, "/tt announce wood"), (0, "/tt place B1"), (0, "/tt build shed A1 B1")])
    assert state["towns"][0]["cells"][1] == {"building": "shed"}


def test_done_before_placing_after_the_next_resource_was_named_is_refused() -> None:
    state = play_all(
        game(2), [(0, "/tt announce wood"), (0, "/tt place A1"), (1, "/tt place A1"), (1, "/tt announce stone")]
    )
    assert "Place this round's resource first" in rejected(state, 0, "/tt done")
