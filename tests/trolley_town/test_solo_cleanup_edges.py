"""The solo end-of-round removals when one side of the market is empty or thin (rulebook, solo
game: remove 1 V tile and 2 A/B tiles, "After this, replenish"): what is asked, the refusals word
for word, and the removal's event (irreversible only when a hidden tile turns up)."""

from __future__ import annotations

from typing import Any

from games.trolley_town import GAME
from tests.trolley_town.helpers import done_all, game, pass_all, play, rejected

State = dict[str, Any]


def cleanup() -> State:
    state = done_all(pass_all(game(1)))
    assert state["phase"] == "cleanup"
    return state


def without_v() -> State:
    state = cleanup()
    state["market"]["v"] = [[], []]
    return state


def without_ab(v_pile: int = 6) -> State:
    """No A/B tile visible; V pile 0 keeps its top ``v_pile`` tiles."""
    state = cleanup()
    market = state["market"]
    market["row"], market["a"], market["b"] = [None] * len(market["row"]), [], []
    market["v"][0] = market["v"][0][:v_pile]
    return state


def test_the_first_refusal_names_what_is_needed_when_a_side_is_empty() -> None:
    state = without_v()
    visible = (
        "stonecutters-lodge, builders-yard, spinning-shop, dairy, market-stall, repair-shop, fairground, wasteland"
    )
    assert rejected(state, 0, "/trolley remove dairy") == (
        f"Remove exactly 0 V tile(s) and 2 A/B tile(s) from the visible ones: {visible}."
    )
    assert rejected(without_ab(), 0, "/trolley remove central-station wool-exchange") == (
        "Remove exactly 1 V tile(s) and 0 A/B tile(s) from the visible ones: central-station, wool-exchange."
    )


def test_removing_from_a_market_with_an_empty_side() -> None:
    state, events = play(without_v(), 0, "/trolley remove dairy wasteland")
    assert events[0] == {"text": "ann removes Dairy, Wasteland.", "irreversible": True}
    assert state["round"] == 2
    state, events = play(without_ab(), 0, "/trolley remove wool-exchange")
    assert events[0] == {"text": "ann removes Wool Exchange.", "irreversible": True}  # Town Square turns up
    assert state["market"]["v"][1][0] == "town-square"


def test_a_removal_that_turns_nothing_up_is_not_irreversible() -> None:
    """The last tile of a V pile: nothing hidden under it."""
    state, events = play(without_ab(v_pile=1), 0, "/trolley remove central-station")
    assert events[0] == {"text": "ann removes Central Station.", "irreversible": False}
    assert state["market"]["v"][0] == []


def test_three_removals_in_one_move_are_named_in_the_order_given() -> None:
    state, events = play(cleanup(), 0, "/trolley remove central-station stonecutters-lodge builders-yard")
    assert events[0] == {
        "text": "ann removes Central Station, Stonecutter's Lodge, Builder's Yard.",
        "irreversible": True,
    }


def test_with_one_a_b_tile_visible_only_that_one_is_removed_beside_a_v_tile() -> None:
    state = cleanup()
    market = state["market"]
    market["row"], market["a"], market["b"] = [None, None, None, None, None, "dairy"], [], []
    assert GAME.legal_moves(state, 0) == [
        {"verb": "remove", "tiles": ["central-station", "dairy"]},
        {"verb": "remove", "tiles": ["wool-exchange", "dairy"]},
    ]
    assert rejected(state, 0, "/trolley remove central-station") == (
        "Remove exactly 1 V tile(s) and 1 A/B tile(s) from the visible ones: dairy, central-station, wool-exchange."
    )
