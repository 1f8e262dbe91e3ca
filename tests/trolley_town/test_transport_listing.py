"""The legal transports listed to a player (autocomplete, the hand menu, the bots): pulls while an
allowance is left, a fresh allowance after round 4's processing, sources in the order the tiles
were placed."""

from __future__ import annotations

from games.trolley_town import GAME
from tests.trolley_town.helpers import do, game, next_round, put, to_transport, town

DONE = {"verb": "done"}


def move(resource: str, source: str, target: str) -> dict:
    return {"verb": "move", "moves": [[resource, source, target]]}


def test_sources_are_listed_in_the_order_their_tiles_were_placed() -> None:
    state = game(2)
    put(state, "0,1", "field", wheat=1)  # placed after the Forest (0,0) and Mountain (1,0)
    put(state, "2,0", "freight-depot")  # pulls 2 pieces of any resource, no route
    state = to_transport(state)
    assert town(state)["pull"] == {"2,0": 2}
    assert GAME.legal_moves(state, 0) == [
        move("wood", "0,0", "2,0"),
        move("stone", "1,0", "2,0"),
        move("wheat", "0,1", "2,0"),
        DONE,
    ]


def test_a_spent_allowance_is_not_listed_and_round_four_brings_a_fresh_one() -> None:
    state = game(1)
    put(state, "0,1", "field", wheat=2)
    put(state, "2,0", "goods-hoist", coal=2)  # pulls 1 (wheat or coal)
    while state["round"] < 4:
        state = next_round(state)
    state = to_transport(state)
    assert GAME.legal_moves(state, 0) == [move("wheat", "0,1", "2,0"), DONE]
    state = do(state, 0, "/trolley move wheat 0,1 2,0")
    assert town(state)["pull"] == {"2,0": 0}
    assert GAME.legal_moves(state, 0) == [DONE]
    state = do(state, 0, "/trolley done")  # processes; round 4: transport again
    assert town(state)["step"] == "processed" and town(state)["pull"] == {}
    assert GAME.legal_moves(state, 0) == [move("wheat", "0,1", "2,0"), DONE]


def test_targets_in_placement_order_the_source_itself_skipped_and_one_space_is_room() -> None:
    state = game(2)
    put(state, "2,0", "freight-depot", wheat=3)  # 4 spaces: room for 1 more
    put(state, "-1,0", "freight-depot")  # placed later, though "-1,0" sorts first as text
    state = to_transport(state)
    assert GAME.legal_moves(state, 0) == [
        move("wood", "0,0", "2,0"),
        move("wood", "0,0", "-1,0"),
        move("stone", "1,0", "2,0"),
        move("stone", "1,0", "-1,0"),
        move("wheat", "2,0", "-1,0"),
        DONE,
    ]


def test_a_spent_allowance_with_room_left_is_not_listed() -> None:
    state = game(2)
    put(state, "0,1", "field", wheat=1)
    put(state, "2,0", "freight-depot")  # 4 spaces, pulls 2
    state = do(to_transport(state), 0, "/trolley move wood 0,0 2,0 stone 1,0 2,0")
    assert town(state)["pull"] == {"2,0": 0} and town(state)["cells"]["2,0"]["r"] == {"wood": 1, "stone": 1}
    assert GAME.legal_moves(state, 0) == [DONE]
