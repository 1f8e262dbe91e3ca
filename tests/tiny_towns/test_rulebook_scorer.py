"""The engine's scoring against tests/tiny_towns/rulebook_scorer.py on many random towns.

Random towns reach what five generated games never do (Inns sharing a row, a Granary's diagonal Cottage,
three Markets in a column, Barrett Castle beside a Well, ...), so a change to how any building scores
fails here. The towns are dealt from a fixed seed: the same 400 towns every run.
"""

from __future__ import annotations

import random

import pytest

from games.tiny_towns import GAME
from games.tiny_towns.content import CATALOGUE
from tests.tiny_towns import rulebook_scorer
from tests.tiny_towns.helpers import game, with_town

BASE = [s for s in rulebook_scorer.COLOUR if s != "cottage"]
MONUMENTS = sorted(s for s, e in CATALOGUE.items() if e["monument"])
COLOURS = ["red", "gray", "orange", "green", "yellow", "black"]


def _random_state(rng: random.Random) -> dict:
    """A 2-4 player game with one random building per colour and random towns (a monument in some)."""
    chosen = [rng.choice([s for s in BASE if rulebook_scorer.COLOUR[s] == c]) for c in COLOURS]
    players = rng.randint(2, 4)
    state = game(players, buildings=",".join(chosen), seed=rng.randint(1, 10_000))
    for seat in range(players):
        kinds = ["cottage", "cottage", *state["buildings"]]
        monument = rng.choice(MONUMENTS) if rng.random() < 0.6 else None
        tokens = []
        for _ in range(16):
            roll = rng.random()
            if roll < 0.12:
                tokens.append(".")
            elif roll < 0.2:
                tokens.append(rng.choice("WHBGS"))
            else:
                slug = rng.choice(kinds)
                if slug == "warehouse":
                    slug += ":" + "+".join(rng.choice(["wood", "stone", "glass"]) for _ in range(rng.randint(0, 3)))
                tokens.append(slug)
        if monument:
            tokens[rng.randrange(16)] = monument
        text = " / ".join(" ".join(tokens[r * 4 : r * 4 + 4]) for r in range(4))
        fields = {}
        if monument == "shrine-of-the-elder-tree":
            fields["shrine_vp"] = rng.choice([1, 2, 3, 4, 5, 8])
        if rng.random() < 0.7:
            fields["completed_round"] = rng.randint(5, 9)
        state = with_town(state, seat, text, monument=monument, **fields)
    return state


@pytest.mark.parametrize("block", range(8))
def test_random_towns_score_as_the_rulebook_says(block: int) -> None:
    rng = random.Random(1700 + block)
    for _ in range(50):
        state = _random_state(rng)
        rows = {row["seat"]: row for row in GAME.standings(state)}
        for seat in range(len(state["towns"])):
            points = rulebook_scorer.score(state, seat)
            expected = {("Empty squares" if s == "empty" else CATALOGUE[s]["name"]): vp for s, vp in points.items()}
            assert rows[seat]["breakdown"] == expected, (state["buildings"], state["towns"][seat])
            assert rows[seat]["score"] == sum(points.values())


def test_the_random_towns_reach_every_building_and_monument() -> None:
    """The differential test above is only as good as what it reaches."""
    rng = random.Random(1700)
    seen: set[str] = set()
    for block in range(8):
        rng = random.Random(1700 + block)
        for _ in range(50):
            state = _random_state(rng)
            seen |= {c["building"] for t in state["towns"] for c in t["cells"] if c and "building" in c}
    assert seen == set(CATALOGUE)
