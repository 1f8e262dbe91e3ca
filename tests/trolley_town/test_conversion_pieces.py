"""Which pieces a conversion of "any different" or "any" resources takes when the tile holds more than it
needs: the most plentiful kinds first, ties in the resource order (wood, stone, wheat, coal, sheep)."""

from __future__ import annotations

import pytest

from tests.trolley_town.helpers import do, game, put, res, to_transport, vp


@pytest.mark.parametrize(
    ("held", "left", "points"),
    [
        # sheep (3) first, then wood and stone before wheat (ties in resource order); then 2 kinds are left: stop
        ({"wood": 1, "stone": 1, "wheat": 1, "sheep": 3}, {"wheat": 1, "sheep": 2}, 7),
        # coal (2) and wheat (2) first, then wood; the second time wheat, coal and stone
        ({"wood": 1, "stone": 1, "wheat": 2, "coal": 2}, {}, 14),
        # sheep (2) and coal (2) first, then wood before stone; again sheep, coal, stone
        ({"wood": 1, "stone": 1, "coal": 2, "sheep": 2}, {}, 14),
        # wheat (3), stone (2) and coal (1); then only 2 kinds are left: once
        ({"stone": 2, "wheat": 3, "coal": 1}, {"stone": 1, "wheat": 2}, 7),
    ],
)
def test_a_general_store_takes_the_most_plentiful_kinds_first(
    held: dict[str, int], left: dict[str, int], points: int
) -> None:
    state = game(2)
    put(state, "0,1", "general-store", **held)
    state = do(to_transport(state), 0, "/trolley done")
    assert res(state, "0,1") == left
    assert vp(state) == points


def test_a_market_stall_takes_any_two_pieces_ties_in_resource_order() -> None:
    """One wood, one wheat, one sheep: the wood and the wheat go, the sheep stays."""
    state = game(2)
    put(state, "0,1", "market-stall", wood=1, wheat=1, sheep=1)
    state = do(to_transport(state), 0, "/trolley done")
    assert res(state, "0,1") == {"sheep": 1}
    assert vp(state) == 3
