"""What the engine lists and picks by itself: the expert player's "drop the expert rule" move in
every listing, rebuild moves only when the Rebuild tile's extra wood is there too, the town's links
for the board image in grid order, a stuck solo clean-up's default removal, and built-building counts."""

from __future__ import annotations

from games.trolley_town import GAME
from games.trolley_town.town import all_links
from tests.trolley_town.helpers import do, done_all, game, lay, offer, pass_all, put, to_transport

EXPERT = {"verb": "expert"}


def test_only_an_expert_player_is_offered_dropping_the_expert_rule_in_each_listing() -> None:
    state = game(2, expert=["ann"])
    construction = GAME.legal_moves(state, 0)
    assert construction[0] == {"verb": "pass"} and construction[-1] == EXPERT
    assert construction.count(EXPERT) == 1
    assert EXPERT not in GAME.legal_moves(game(2, expert=["bob"]), 0)
    transport = to_transport(state)
    assert GAME.legal_moves(transport, 0)[-2:] == [{"verb": "done"}, EXPERT]
    assert GAME.legal_moves(transport, 1)[-1] == {"verb": "done"} and EXPERT not in GAME.legal_moves(transport, 1)


def test_an_expert_player_with_a_pending_choice_may_still_drop_the_rule() -> None:
    state = offer(game(2, expert=["all"]), "supply-cart")
    state = do(state, 0, "/trolley build supply-cart -1,0")  # 2 different resources to choose
    moves = GAME.legal_moves(state, 0)
    assert moves[0] == {"verb": "choose", "cell": "-1,0", "resources": ["wood", "stone"]}
    assert moves[-1] == EXPERT and [m["verb"] for m in moves] == ["choose"] * 10 + ["expert"]


def test_a_rebuild_is_listed_only_when_the_rebuild_tiles_wood_is_there_too() -> None:
    """Meadow 1 wood + 1 stone, with the Rebuild tile 1 wood more (bob holds 3 stone)."""
    state = do(game(4), 0, "/trolley build meadow 0,1")  # ann takes the last face-up Meadow
    state["towns"][1]["cells"]["0,0"]["r"] = {"wood": 1}
    assert [m for m in GAME.legal_moves(state, 1) if m.get("rebuild")] == []
    state["towns"][1]["cells"]["0,0"]["r"] = {"wood": 2}
    assert [m["cell"] for m in GAME.legal_moves(state, 1) if m.get("rebuild")] == [
        "0,-1",
        "1,-1",
        "-1,0",
        "2,0",
        "0,1",
        "1,1",
    ]


def test_the_links_of_a_town_are_listed_once_each_in_grid_order() -> None:
    """Grid order (x, then y), not text order: "-3,0" comes before "-1,0"."""
    state = game(2)
    lay(state, "-1,0", "straight", 0)
    lay(state, "-2,0", "straight", 0)
    put(state, "-3,0", "field")
    lay(state, "0,1", "curve", 0)  # open W and S: linked to the Field below, not to the Forest above
    put(state, "0,2", "field")
    assert all_links(state["towns"][0]["cells"]) == [
        ("-3,0", "-2,0"),
        ("-2,0", "-1,0"),
        ("-1,0", "0,0"),
        ("0,1", "0,2"),
    ]
    assert GAME.view(state, 0)["towns"][0]["links"] == [
        [[-3, 0], [-2, 0]],
        [[-2, 0], [-1, 0]],
        [[-1, 0], [0, 0]],
        [[0, 1], [0, 2]],
    ]


def test_a_stuck_solo_clean_up_removes_the_first_listed_tiles() -> None:
    state = done_all(pass_all(game(1)))
    first = GAME.legal_moves(state, 0)[0]
    market = state["market"]
    assert first == {"verb": "remove", "tiles": [market["v"][0][0], market["row"][0], market["row"][1]]}
    assert GAME.skip_move(state, 0) == first


def test_built_counts_leave_out_the_starting_tiles_and_routes() -> None:
    state = game(3)
    put(state, "0,1", "field")
    put(state, "0,-1", "field")
    put(state, "-1,0", "bakery")
    lay(state, "2,0", "straight")
    put(state, "0,1", "wasteland", seat=1)
    assert GAME.stats(state) == {
        "map": None,
        "counted": "buildings built",
        "counts": [{"field": 2, "bakery": 1}, {"wasteland": 1}, {}],
    }
