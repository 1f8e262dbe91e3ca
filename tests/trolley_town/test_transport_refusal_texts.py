"""Transport refusals word for word: a target that takes nothing drawn, a full target, and a target
no route reaches (the rulebook: goods move only along routes, onto tiles showing that resource)."""

from __future__ import annotations

import pytest

from tests.trolley_town.helpers import game, hold, put, rejected, to_transport


@pytest.mark.parametrize(
    ("move", "text"),
    [
        ("/trolley move wood 0,0 0,1", "The Builder's Yard at 0,1 takes only resources drawn on it: nothing."),
        ("/trolley move stone 1,0 -1,0", "The Wasteland at -1,0 is full (1 spaces)."),
        ("/trolley move wood 0,0 2,0", "No route carries wood from 0,0 to 2,0. Lay routes between them first."),
        ("/trolley move coal 0,0 2,0", "There is no coal on your Forest at 0,0."),
    ],
)
def test_transport_refusals(move: str, text: str) -> None:
    state = game(2)
    put(state, "0,1", "builders-yard")
    put(state, "-1,0", "wasteland", wood=1)
    put(state, "2,0", "charcoal-kiln")
    state = to_transport(state)
    hold(state, "-1,0", wood=1)
    assert rejected(state, 0, move) == text
