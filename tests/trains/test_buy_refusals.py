"""Buying refused in the engine's own words (a stored or replayed move reaches the rules without the parser's
check), and remote locations adding up at the end. Written against mutants bench/mutation.sh left alive in
rules._buy and scoring.breakdown (see bench/mutation_report.md).
"""

from __future__ import annotations

import pytest

from games.base import IllegalMove
from games.trains import scoring


def _refusal(tr, state, move) -> str:
    with pytest.raises(IllegalMove) as refused:
        tr.GAME.apply(state, 0, move)
    return refused.value.message


def test_buy_refusals_word_for_word(tr):
    state = tr.scenario(["normal-train"], money=9)
    assert (
        _refusal(tr, state, {"verb": "buy", "card": "expres-train", "top": False})
        == "Unknown card 'expres-train' (did you mean \"express-train\"?)."
    )
    assert _refusal(tr, state, {"verb": "buy", "card": "parallel-line", "top": False}) == (
        "Parallel Line is not in this game's supply. Piles: " + ", ".join(state["piles"]) + "."
    )
    assert ", ".join(state["piles"]).startswith("express-train, limited-express-train, lay-rails")
    assert _refusal(tr, state, {"verb": "buy", "card": "express-train", "top": True}) == (
        "Only with Early Train's effect this turn can a bought card go on top of your deck."
    )


def test_rails_on_two_remote_locations_score_both_values(tr):
    gmap = tr.MAPS["tokyo"]
    (a, first), (b, second) = list(gmap.remotes.items())[:2]
    state = tr.scenario(["normal-train"], rails={a: [0], b: [0], "E5": [1]})
    assert scoring.breakdown(state, 0)["remote locations"] == first.value + second.value
