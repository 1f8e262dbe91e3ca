"""What a refusal says an action must be paid with (``Need.describe``): repeated icons counted
("2x rail"), single ones bare, the destination icons that fit in alphabetical order, and "none fits"
when a trip has no destination a card could pay. Players read these in every payment refusal."""

from __future__ import annotations

import pytest

from games.base import IllegalMove
from games.tramways.payment import Need, check_pays


@pytest.mark.parametrize(
    ("need", "text"),
    [
        (Need((("rail", 1),)), "rail"),
        (Need((("rail", 2),)), "2x rail"),
        (Need((("rail", 3), ("up", 1))), "3x rail + up"),
        (Need((("ticket", 1),), dest=True, dests=frozenset({"r", "c", "l"})), "ticket + a destination icon: c/l/r"),
        (Need((("ticket", 1),), dest=True, dests=frozenset({"i"})), "ticket + a destination icon: i"),
        (Need((("ticket", 1),), dest=True), "ticket + a destination icon: none fits"),
        (Need((("build", 1),), dests=frozenset({"r"})), "build"),  # dests without dest: no icon asked for
    ],
)
def test_what_an_action_must_be_paid_with_is_said_exactly(need: Need, text: str) -> None:
    assert need.describe() == text


def test_paying_with_nothing_names_what_would_pay() -> None:
    with pytest.raises(IllegalMove) as refused:
        check_pays([], Need((("rail", 2), ("up", 1))))
    assert str(refused.value) == "Name the cards that pay for this: 2x rail + up."
