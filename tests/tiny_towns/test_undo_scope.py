"""Undo scope and skip: a player may take back their own move while the round's phase is still open."""

from __future__ import annotations

from typing import Any

from games.options import parse_options
from games.tiny_towns import GAME
from tests.tiny_towns.helpers import game, play, play_all, with_town

# Each town holds a wood on A1, so placing a stone beside it makes a Well possible: nobody is made
# done automatically and the round stays open while players act in any order.
WOOD_ON_A1 = "W . . . / . . . . / . . . . / . . . ."


def scope(state: dict[str, Any]) -> Any:
    assert GAME.undo_scope is not None
    value = GAME.undo_scope(state)
    hash(value)  # the host keeps and compares it
    return value


def open_round() -> dict[str, Any]:
    return with_town(with_town(game(2), 0, WOOD_ON_A1), 1, WOOD_ON_A1)


def test_scope_is_the_phase_and_round_across_a_standard_round() -> None:
    state = open_round()
    assert scope(state) == ("announce", 1)
    state, _ = play(state, 0, "/tt announce stone")  # naming the resource opens the placing phase
    assert scope(state) == ("place", 1)
    for seat, text in ((1, "/tt place B1"), (0, "/tt place B1"), (0, "/tt build well A1 B1 at A1")):
        state, _ = play(state, seat, text)
        assert scope(state) == ("place", 1), text  # simultaneous: every move of the round shares it
    state, events = play(state, 1, "/tt done")  # the last player done closes the round
    assert any(e.get("post_board") for e in events)
    assert state["round"] == 2 and scope(state) == ("announce", 2)
    state, _ = play(state, state["master_builder"], "/tt announce wood")
    assert scope(state) == ("place", 2)


def test_own_placement_can_be_taken_back_after_another_player_moved() -> None:
    start = open_round()
    log = [(0, "/tt announce stone"), (0, "/tt place B1"), (1, "/tt place C1")]
    states = [start]
    for seat, text in log:
        states.append(play(states[-1], seat, text)[0])
    # p0's placement (log[1]) was made in the scope that is still open after p1's move.
    assert scope(states[1]) == scope(states[2]) == scope(states[-1]) == ("place", 1)
    # What the host then checks: the log without that move still replays, keeps p1's move, and p0
    # is back to placing.
    replayed = play_all(start, [log[0], log[2]])
    assert replayed["towns"][1] == states[-1]["towns"][1]
    assert replayed["towns"][0] == states[1]["towns"][0]
    assert scope(replayed) == ("place", 1)
    again, _ = play(replayed, 0, "/tt place A2")
    assert again["towns"][0]["cells"][4] == {"resource": "stone"}


def test_closing_the_round_or_naming_the_resource_changes_the_scope() -> None:
    state = play_all(open_round(), [(0, "/tt announce stone"), (0, "/tt place B1")])
    placed_in = scope(state)
    state = play_all(state, [(1, "/tt place B1"), (0, "/tt done"), (1, "/tt done")])
    assert scope(state) != placed_in  # round 2: p0's round-1 placement is no longer theirs to take back
    named = scope(state)
    state, _ = play(state, state["master_builder"], "/tt announce glass")
    assert scope(state) != named  # naming the resource opens the placing phase: a scope of its own


def test_monuments_phase_is_one_scope_until_everyone_has_kept_one() -> None:
    state = GAME.setup(["ann", "bob"], parse_options("monuments=on buildings=first-game", GAME.options), 2)
    assert scope(state) == ("monuments", 1)
    state, _ = GAME.apply(state, 1, GAME.legal_moves(state, 1)[0])
    assert scope(state) == ("monuments", 1)
    state, _ = GAME.apply(state, 0, GAME.legal_moves(state, 0)[0])
    assert scope(state) == ("announce", 1)


def test_town_hall_rounds_open_in_place_and_differ_by_round() -> None:
    options = parse_options("variant=town-hall buildings=first-game", GAME.options)
    state = GAME.setup(["ann", "bob"], options, 4)
    assert scope(state) == ("place", 1)
    state, _ = play(state, 0, "/tt place A1")
    state, events = play(state, 1, "/tt place A1")
    # The next card is drawn at once: the scope changes, and the draw is flagged irreversible too.
    assert scope(state) == ("place", 2)
    assert any(e.get("irreversible") for e in events)


def test_the_end_of_the_game_closes_the_scope() -> None:
    state = GAME.setup(["ann", "bob"], parse_options("buildings=first-game", GAME.options), 5)
    while not GAME.status(state).finished:
        seat = GAME.status(state).to_act[0]
        state, _ = GAME.apply(state, seat, GAME.bot_move(state, seat, 1))
    assert scope(state) == ("finished", state["round"])


def test_skip_plays_the_least_harmful_legal_move_not_the_bot() -> None:
    """/mod skip: a corner or edge before the middle (fewest empty neighbours), the named resource, then done."""
    assert GAME.skip_move is not None
    state = open_round()
    for _ in range(12):
        for seat in GAME.status(state).to_act:
            move = GAME.skip_move(state, seat)
            assert move in GAME.legal_moves(state, seat)
            if move["verb"] == "place":
                assert "resource" not in move or state["source"] == "free"
        seat = GAME.status(state).to_act[0]
        state, _ = GAME.apply(state, seat, GAME.skip_move(state, seat))
