"""Command parsing and canonical formatting."""

from __future__ import annotations

import pytest

from games.base import MOVE_KEY, IllegalMove
from games.options import parse_options
from games.schema import check_schema, usage_lines, verb_of
from games.tiny_towns import GAME, notation
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
    assert move == {"verb": "build", "building": "cottage", "cells": ["B1", "A2", "B2"], "at": "B2"}
    assert GAME.format(move) == "/tt build cottage B1 A2 B2 at B2"


def test_sections_in_any_order_and_aliases() -> None:
    a = GAME.parse("/tt build opaleye A1 A2 B2 C2 D2 A3 aside tavern Well cottage at a2")
    b = GAME.parse("/tt build opaleyes-watch A1 A2 B2 C2 D2 A3 at A2 aside cottage well tavern")
    assert a == b
    assert GAME.parse(
        "/tt build Architect's-Guild C1 B2 C2 A3 B3 replace a4 tavern at c1 replace d2 farm"
    ) == GAME.parse(CANONICAL[5])
    assert GAME.parse("/tt monument The-Starloom") == {"verb": "monument", "monument": "starloom"}
    assert GAME.parse("/tt keep cathedral") == {"verb": "monument", "monument": "cathedral-of-caterina"}


@pytest.mark.parametrize(
    "text, message",
    [
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
    ],
)
def test_bad_commands_explain(text: str, message: str) -> None:
    with pytest.raises(IllegalMove) as info:
        GAME.parse(text)
    assert message in info.value.message


def test_vocabulary_lists_words() -> None:
    vocab = vocabulary()
    assert "announce" in vocab["commands"] and "D4" in vocab["squares"] and "feast-hall" in vocab["buildings"]


def test_declared_verbs_fit_discord_and_read_as_before() -> None:
    assert GAME.verbs == notation.VERBS
    assert check_schema(GAME.command_group, GAME.verbs) == []
    assert usage_lines("tt", GAME.verbs) == {
        "announce": "/tt announce <resource>",
        "place": "/tt place <square> [<resource>]",
        "build": "/tt build <building> <square> <square> ... [at <square>] [with <resource>]",
        "store": "/tt store <warehouse square> [swap <resource> to <square>]",
        "cave": "/tt cave",
        "monument": "/tt monument <name>",
        "claim": "/tt claim <building> <square>",
        "done": "/tt done",
    }
    assert all(verb.description == verb.usage("tt") for verb in GAME.verbs)
    assert GAME.turn_enders == ("done",)
    build = GAME.verb("build")
    assert build is not None
    assert [(s.name, s.required, s.keyword, s.many, s.in_usage) for s in build.slots] == [
        ("building", True, None, False, True),
        ("squares", True, None, True, True),
        ("at", False, "at", False, True),
        ("with", False, "with", False, True),
        ("more", False, None, True, False),
    ]
    assert vocabulary()["commands"] == [verb.name for verb in GAME.verbs]
    assert all(verb.stop_words == frozenset(vocabulary()["keywords"]) for verb in GAME.verbs)


def test_usage_messages_come_from_the_declaration() -> None:
    with pytest.raises(IllegalMove) as info:
        GAME.parse("/tt store C3 trade wood")
    assert GAME.verb("store").usage("tt") in info.value.message  # type: ignore[union-attr]
    with pytest.raises(IllegalMove) as info:
        GAME.parse("/tt")
    assert all(verb.usage("tt") in info.value.message for verb in GAME.verbs)


@pytest.mark.parametrize(
    ("alias", "verb"),
    [
        ("name wood", "announce"),
        ("pick wood", "announce"),
        ("keep starloom", "monument"),
        ("pass", "done"),
        ("finish", "done"),
    ],
)
def test_aliases_are_still_accepted(alias: str, verb: str) -> None:
    assert GAME.parse(f"/tt {alias}")[MOVE_KEY] == verb


def test_every_canonical_and_legal_move_goes_through_the_declared_slots() -> None:
    """Verb.split then Verb.text gives back a text that parses to the same move (slash options round trip)."""
    texts = set(CANONICAL)
    for seed, options in ((1, "monuments=on cave=on"), (2, "variant=town-hall")):
        state = GAME.setup(["a", "b", "c"], parse_options(options, GAME.options), seed)
        for _ in range(120):
            status = GAME.status(state)
            if status.finished:
                break
            seat = status.to_act[0]
            texts.update(GAME.format(move) for move in GAME.legal_moves(state, seat))
            state, _ = GAME.apply(state, seat, GAME.bot_move(state, seat, 0))
    assert len(texts) > 50
    for text in texts:
        verb = verb_of(GAME.verbs, text)
        assert verb is not None, text
        values = verb.split("tt", text)
        assert values is not None, text
        assert all(values.get(slot.name) for slot in verb.slots if slot.required), (text, values)
        assert GAME.parse(verb.text("tt", values)) == GAME.parse(text)


def test_the_kept_monument_is_the_hidden_move() -> None:
    assert GAME.hidden_move is not None
    assert GAME.hidden_move(GAME.parse("/tt monument starloom"))
    assert not GAME.hidden_move(GAME.parse("/tt place A1"))
