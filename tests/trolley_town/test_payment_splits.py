"""Every (wood, stone) payment a cost allows: the discount taken off wood or stone (never more than
the fixed part holds), the flexible route pieces split either way, each split once, in order."""

from __future__ import annotations

import pytest

from games.trolley_town.payment import Need
from tests.trolley_town.helpers import empty_start, game, hold, put, rejected

SPLITS = [
    (Need(2, 1), ((2, 1),)),
    (Need(2, 2, 0, 1), ((1, 2), (2, 1))),
    (Need(1, 3, 0, 2), ((0, 2), (1, 1))),  # at most 1 off wood: the rest comes off stone
    (Need(0, 3, 0, 2), ((0, 1),)),
    (Need(3, 0, 0, 2), ((1, 0),)),  # no stone to take anything off
    (Need(3, 1, 0, 2), ((1, 1), (2, 0))),
    (Need(1, 1, 0, 1), ((0, 1), (1, 0))),  # 1 off stone leaves no stone to pay
    (Need(2, 2, 0, 3), ((0, 1), (1, 0))),
    (Need(0, 0, 2, 0), ((0, 2), (1, 1), (2, 0))),  # two route pieces, wood or stone each
    (Need(0, 0, 1, 0), ((0, 1), (1, 0))),
    (Need(1, 1, 1, 1), ((0, 2), (1, 1), (2, 0))),
    (Need(0, 0, 0, 0), ((0, 0),)),
]


@pytest.mark.parametrize(("need", "splits"), SPLITS)
def test_the_payments_that_settle_a_cost(need: Need, splits: tuple[tuple[int, int], ...]) -> None:
    # _all_splits itself: splits() reads it through a cache shared by the whole process.
    assert need._all_splits() == splits
    assert need.splits() == list(splits)


def test_a_payment_refusal_lists_every_split_of_a_discounted_cost() -> None:
    """A Bakery (1 wood + 1 stone) beside a Builder's Yard (1 off): pay 1 wood or 1 stone."""
    state = empty_start(game(2))
    hold(state, "0,0", wood=2)
    put(state, "0,1", "builders-yard")
    assert rejected(state, 0, "/trolley build bakery -1,1 pay wood 0,0 wood 0,0") == (
        "That payment (2 wood + 0 stone) does not match the cost: pay 0 wood + 1 stone or 1 wood + 0 stone."
    )
