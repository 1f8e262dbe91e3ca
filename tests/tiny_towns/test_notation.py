"""Command parsing and canonical formatting."""

from __future__ import annotations

import pytest

from games.base import IllegalMove
from games.tiny_towns import GAME
from games.tiny_towns.notation import vocabulary

CANONICAL = [
    "/tt announce wood",
    "/tt place B2",
    "/tt place D4 glass",
    "/tt build cottage B1 A2 B2 at B2",
    "/tt build factory A1 A2 B2 C2 D2 at A1 with wheat",
    "/tt build architects-guild C1 B2 C2 A3 B3 at C1 replace D2 farm replace A4 tavern",
    "/tt build grove-university B1 A2 B2 C2 at B2 add tavern A2",
    "/tt build opaleyes-watch A1 A2 B2 C2 D2 A3 at A2 aside cottage well tavern",
    "/tt store C3",
    "/tt store C3 swap wood to A1",
    "/tt cave",
    "/tt monument fort-ironweed",
    "/tt claim feast-hall C4",
    "/tt done",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_canonical_round_trip(text: str) -> None:
    assert GAME.format(GAME.parse(text)) == text


def test_parse_is_case_insensitive_and_sorts_squares() -> None:
    move = GAME.parse("/TT Build Cottage b2 a2 B1 AT b2")
    assert move == {"cmd": "build", "building": "cottage", "cells": ["B1", "A2", "B2"], "at": "B2"}
    assert GAME.format(move) == "/tt build cottage B1 A2 B2 at B2"


def test_sections_in_any_order_and_aliases() -> None:
    a = GAME.parse("/tt build opaleye A1 A2 B2 C2 D2 A3 aside tavern Well cottage at a2")
    b = GAME.parse("/tt build opaleyes-watch A1 A2 B2 C2 D2 A3 at A2 aside cottage well tavern")
    assert a == b
    assert GAME.parse("/tt build Architect's-Guild C1 B2 C2 A3 B3 replace a4 tavern at c1 replace d2 farm") == \
        GAME.parse(CANONICAL[5])
    assert GAME.parse("/tt monument The-Starloom") == {"cmd": "monument", "monument": "starloom"}
    assert GAME.parse("/tt keep cathedral") == {"cmd": "monument", "monument": "cathedral-of-caterina"}


@pytest.mark.parametrize("text, message", [
    ("/tt plase A1", 'did you mean "place"'),
    ("/tt place E5", "not a square"),
    ("/tt place A1 woood", 'did you mean "wood"'),
    ("/tt build cotage A1 B1 A2", 'did you mean "cottage"'),
    ("/tt build cottage A1 A1 B1", "listed twice"),
    ("/tt build cottage", "Name the squares"),
    ("/tt build cottage A1 B1 A2 at", "Missing square"),
    ("/tt announce", "Missing resource"),
    ("/tt store C3 swap wood A1", "Say where"),
    ("/tt done now", "Unexpected"),
    ("/tt build opaleyes-watch A1 aside well well cottage", "3 different"),
    ("/tt monument farm", "Unknown monument"),
    ("/game place A1", "start with /tt"),
    ("/tt", "Say what to do"),
])
def test_bad_commands_explain(text: str, message: str) -> None:
    with pytest.raises(IllegalMove) as info:
        GAME.parse(text)
    assert message in info.value.message


def test_vocabulary_lists_words() -> None:
    vocab = vocabulary()
    assert "announce" in vocab["commands"] and "D4" in vocab["squares"] and "feast-hall" in vocab["buildings"]
