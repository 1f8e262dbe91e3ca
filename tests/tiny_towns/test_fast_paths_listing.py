"""Issue 14's fourth pass: legal_moves copies each square's plain place move from one table
(rules._PLACES) rather than building it; every listing must still hand out moves of its own."""

from __future__ import annotations

from games.base import MOVE_KEY
from games.tiny_towns import GAME, rules
from games.tiny_towns.patterns import CELL_NAMES
from tests.tiny_towns.helpers import at_place_phase, game


def test_place_moves_are_new_dicts_each_time() -> None:
    state = at_place_phase(game(players=2, seed=3))
    # Both seats: the Master Builder's listing (its own resource) and the other's (named by another).
    assert len(GAME.status(state).to_act) == 2
    for seat in GAME.status(state).to_act:
        first = GAME.legal_moves(state, seat)
        assert first == [{MOVE_KEY: "place", "cell": name} for name in CELL_NAMES]
        for move in first:
            move["cell"] = "Z9"  # a caller may change what it was given
            move["resource"] = "stone"
        again = GAME.legal_moves(state, seat)
        assert again == [{MOVE_KEY: "place", "cell": name} for name in CELL_NAMES]
        assert all(a is not b for a, b in zip(first, again, strict=True))
    assert tuple({MOVE_KEY: "place", "cell": name} for name in CELL_NAMES) == rules._PLACES
