"""Command parsing and formatting."""

from __future__ import annotations

import re

import pytest

from games.base import MOVE_KEY, IllegalMove
from games.schema import check_schema, usage_lines
from games.trains import GAME
from games.trains.content import CARDS, DECISIONS
from games.trains.notation import GROUP, USAGE, VERBS

EXAMPLES = [
    ("/trains start E5", {"verb": "start", "hex": "E5"}),
    ("/trains play lay-rails E5", {"verb": "play", "card": "lay-rails", "args": ["E5"]}),
    ("/trains play station-expansion F3", {"verb": "play", "card": "station-expansion", "args": ["F3"]}),
    ("/trains play double-track E5 E6", {"verb": "play", "card": "double-track", "args": ["E5", "E6"]}),
    (
        "/trains play amusement-park express-train",
        {"verb": "play", "card": "amusement-park", "args": ["express-train"]},
    ),
    ("/trains play command-central victory", {"verb": "play", "card": "command-central", "args": ["victory"]}),
    ("/trains play mail-train waste apartment", {"verb": "play", "card": "mail-train", "args": ["waste", "apartment"]}),
    ("/trains play freight-train", {"verb": "play", "card": "freight-train", "args": []}),
    ("/trains play freight-train 2", {"verb": "play", "card": "freight-train", "args": ["2"]}),
    ("/trains play central-station rail B7", {"verb": "play", "card": "central-station", "args": ["rail", "B7"]}),
    (
        "/trains play dispatcher central-station rail E5 then money",
        {"verb": "play", "card": "dispatcher", "args": ["central-station", "rail", "E5", "then", "money"]},
    ),
    ("/trains play coupling tourist-train", {"verb": "play", "card": "coupling", "args": ["tourist-train"]}),
    ("/trains play timetable skip", {"verb": "play", "card": "timetable", "args": ["skip"]}),
    ("/trains buy express-train", {"verb": "buy", "card": "express-train", "top": False}),
    ("/trains buy express-train top", {"verb": "buy", "card": "express-train", "top": True}),
    ("/trains pass", {"verb": "pass"}),
    ("/trains end", {"verb": "end"}),
]


@pytest.mark.parametrize("text,move", EXAMPLES)
def test_examples_round_trip(text, move):
    assert GAME.parse(text) == move
    assert GAME.format(move) == text
    assert GAME.parse(GAME.format(move)) == move


def test_case_insensitive_and_canonical():
    assert GAME.parse("/TRAINS Play LAY-RAILS e5") == {"verb": "play", "card": "lay-rails", "args": ["E5"]}
    assert GAME.parse("/trains play freight-train 02")["args"] == ["2"]
    same = GAME.parse("/trains play dispatcher timetable then")
    assert same == {"verb": "play", "card": "dispatcher", "args": ["timetable"]}


@pytest.mark.parametrize(
    "text,fragment",
    [
        ("/trains play lay-rail E5", 'did you mean "lay-rails"'),
        ("/trains bye express-train", 'did you mean "buy"'),
        ("/trains play lay-rails", "needs 1 hex"),
        ("/trains play lay-rails 5E", "not a hex"),
        ("/trains start", "/trains start <hex>"),
        ("/trains end now", "takes no further words"),
        ("/trains buy express-train bottom", "top"),
        ("/trains play central-station cash", "money, draw, or rail"),
        ("/tt place A1", "/trains"),
        ("/trains play timetable E5", "takes no choices"),
    ],
)
def test_errors_are_helpful(text, fragment):
    with pytest.raises(IllegalMove) as err:
        GAME.parse(text)
    assert fragment in err.value.message


def test_rules_help_covers_every_card_and_decision():
    assert {"overview", "commands", "cards", "kingdom", "maps", "decisions"} <= set(GAME.rules_help)
    assert "project" in GAME.rules_help["decisions"]
    everything = "\n".join(GAME.rules_help.values())
    for card in CARDS.values():
        assert card.name in everything
    for decision in DECISIONS:
        assert decision["text"] in everything


def test_every_rules_topic_fits_one_discord_message():
    overview = GAME.rules_help["overview"] + "\nTopics: " + ", ".join(GAME.rules_help)
    assert len(overview) + 40 <= 2000
    for topic, text in GAME.rules_help.items():
        assert len(text) <= 2000, topic
        # A split topic points to its continuation, and the continuation exists.
        for name in re.findall(r"/game rules ([a-z0-9-]+)`", text):
            assert name in GAME.rules_help


def test_private_summary_lists_hand_and_options():
    state = GAME.setup(["ann", "bob"], {}, 4)
    assert "starting rail" in GAME.private_summary(state, 0)
    state, _ = GAME.apply(state, 0, GAME.parse("/trains start E5"))
    state, _ = GAME.apply(state, 1, GAME.parse("/trains start J6"))
    text = GAME.private_summary(state, 0)
    hand = state["players"][0]["hand"]
    assert text.startswith("Your hand:") and "Normal Train" in text and "/trains play normal-train" in text
    if "lay-rails" in hand:
        assert "Rail hexes" in text
    assert "Play:" not in GAME.private_summary(state, 1)  # not bob's turn


def test_declared_verbs_fit_discord_and_keep_the_old_options():
    assert check_schema(GROUP, VERBS) == []
    assert GAME.verbs == VERBS and [v.name for v in VERBS] == ["start", "play", "buy", "pass", "end"]
    # The slash options the adapter used to derive from the usage strings (tests/discord pins them).
    slots = {v.name: [(s.name, s.required, s.many) for s in v.slots] for v in VERBS}
    assert slots == {
        "start": [("hex", True, False)],
        "play": [("card", True, False), ("choices", False, True)],
        "buy": [("card", True, False), ("top", False, False)],
        "pass": [],
        "end": [],
    }
    assert (
        USAGE
        == usage_lines(GROUP, VERBS)
        == {
            "start": "/trains start <hex>",
            "play": "/trains play <card> [<choices> ...]",
            "buy": "/trains buy <card> [<top>]",
            "pass": "/trains pass",
            "end": "/trains end",
        }
    )
    assert all(v.description == USAGE[v.name] for v in VERBS)  # the usage line stays the description
    assert GAME.turn_enders == ("pass", "end")


@pytest.mark.parametrize("text", [text for text, _ in EXAMPLES])
def test_schema_splits_and_rebuilds_every_example(text):
    verb = GAME.verb(GAME.parse(text)[MOVE_KEY])
    assert verb is not None
    values = verb.split(GROUP, text)
    assert values is not None and verb.text(GROUP, values) == text


def test_parser_messages_quote_the_usage_lines():
    for text, verb in [("/trains play", "play"), ("/trains buy", "buy"), ("/trains pass now", "pass")]:
        with pytest.raises(IllegalMove) as err:
            GAME.parse(text)
        assert USAGE[verb] in err.value.message
    with pytest.raises(IllegalMove) as err:
        GAME.parse("/trains")
    assert "start | play | buy | pass | end" in err.value.message
