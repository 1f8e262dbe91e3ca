"""Move notation <-> slash options: every legal move can be entered through the typed options."""

from __future__ import annotations

from dataclasses import replace

import pytest

import games
from bot.discord.schema import ARGS, MORE, Slot, VerbSchema, cached_schemas, schema_for, verb_schemas
from games.base import GameSpec, IllegalMove


def playout_moves(spec: GameSpec, players: int, options: str, seeds: range, max_steps: int) -> list[str]:
    """Legal move texts seen along random playouts (level-0 bots)."""
    from games.options import parse_options

    seen: list[str] = []
    for seed in seeds:
        state = spec.setup([f"p{i}" for i in range(players)], parse_options(options, spec.options), seed)
        for _ in range(max_steps):
            status = spec.status(state)
            if status.finished:
                break
            seat = status.to_act[0]
            seen += [spec.format(m) for m in spec.legal_moves(state, seat)]
            state, _ = spec.apply(state, seat, spec.bot_move(state, seat, 0))
    return seen


CASES = [
    ("tiny-towns", 3, "monuments=on cave=on", range(3), 150),
    ("tiny-towns", 2, "buildings=first-game", range(2), 150),
    ("tiny-towns", 4, "variant=town-hall", range(4), 200),
    ("trains", 2, "", range(2), 120),
]


@pytest.mark.parametrize(("slug", "players", "options", "seeds", "steps"), CASES)
def test_every_legal_move_round_trips_through_slash_options(slug: str, players: int, options: str,
                                                            seeds: range, steps: int) -> None:
    spec = games.get_game(slug)
    schemas = cached_schemas(spec)
    moves = set(playout_moves(spec, players, options, seeds, steps))
    assert len(moves) > 30
    for text in moves:
        schema = schema_for(schemas, text)
        assert schema is not None, text
        values = schema.split(text)
        assert values is not None, f"{text} cannot be expressed with the options of /{slug} {schema.verb}"
        names = {slot.name for slot in schema.slots}
        assert set(values) <= names
        assert all(values.get(s.name) for s in schema.slots if s.required), (text, values)
        assert all(1 <= len(v) <= 200 for v in values.values())
        assert spec.parse(schema.text(values)) == spec.parse(text)


def test_tiny_towns_options_come_from_its_usage_lines() -> None:
    schemas = {s.verb: s for s in cached_schemas(games.get_game("tiny-towns"))}
    build = schemas["build"]
    assert [(s.name, s.required, s.keyword, s.many) for s in build.slots] == [
        ("building", True, None, False), ("squares", True, None, True), ("at", False, "at", False),
        ("with", False, "with", False), (MORE, False, None, True)]
    assert build.text({"building": "cottage", "squares": "B1 A2 B2", "at": "B2", "with": None}) == \
        "/tt build cottage B1 A2 B2 at B2"
    assert build.text({"building": "cottage", "squares": "B1 A2", "at": "at B2"}) == "/tt build cottage B1 A2 at B2"
    assert schemas["done"].slots == () and schemas["cave"].slots == ()
    assert [s.name for s in schemas["place"].slots] == ["square", "resource"]


def test_trains_options_come_from_its_usage_lines() -> None:
    schemas = {s.verb: s for s in cached_schemas(games.get_game("trains"))}
    assert [(s.name, s.required, s.many) for s in schemas["play"].slots] == [("card", True, False),
                                                                           ("choices", False, True)]
    assert schemas["pass"].slots == ()
    assert schemas["play"].split("/trains play lay-rails E5") == {"card": "lay-rails", "choices": "E5"}
    assert schemas["play"].split("/trains play mail-train waste apartment") == {
        "card": "mail-train", "choices": "waste apartment"}
    assert schemas["play"].text({"card": "lay-rails", "choices": "E5"}) == "/trains play lay-rails E5"
    assert schemas["start"].text({"hex": "E5"}) == "/trains start E5"


def test_verbs_without_usage_get_a_free_form_args_option() -> None:
    import types

    module = types.ModuleType("fake_moves")
    module.VERBS = ("go",)  # type: ignore[attr-defined]

    def parse(text: str) -> dict[str, str]:
        if text.split()[1:] == ["go"]:
            raise IllegalMove("go where?")
        return {"text": text}

    parse.__module__ = module.__name__
    module.parse = parse  # type: ignore[attr-defined]
    import sys

    sys.modules[module.__name__] = module
    try:
        spec = replace(games.get_game("tiny-towns"), command_group="fk", parse=parse)
        (go,) = verb_schemas(spec)
        assert [s.name for s in go.slots] == [ARGS]
        assert go.split("/fk go north fast") == {ARGS: "north fast"}
    finally:
        del sys.modules[module.__name__]


def test_split_refuses_what_the_options_cannot_hold() -> None:
    schema = VerbSchema("x", "go", "d", (Slot("where", "where", True),))
    assert schema.split("/x go north") == {"where": "north"}
    assert schema.split("/x go north fast") is None  # no "more" option to hold "fast"
    assert schema.split("/x stop") is None and schema.split("/y go north") is None


def test_a_game_without_a_verb_list_gets_one_catch_all_subcommand() -> None:
    import types

    module = types.ModuleType("fake_notation")

    def parse(text: str) -> dict[str, str]:
        return {"text": text}

    parse.__module__ = module.__name__
    import sys

    sys.modules[module.__name__] = module
    try:
        spec = games.get_game("tiny-towns")
        odd = GameSpec(**{**spec.__dict__, "slug": "odd", "command_group": "odd", "parse": parse})
        (only,) = verb_schemas(odd)
        assert only.verb == "move" and [s.name for s in only.slots] == [ARGS]
    finally:
        del sys.modules[module.__name__]


@pytest.mark.parametrize("text", [
    "/tt build cottage A1 B1 B2 at B1 with wood",
    "/tt build architects-guild A1 B1 C1 D1 replace A2 farm replace B3 well",
    "/tt build grove-university A1 B1 C1 add farm C3",
    "/tt build opaleyes-watch A1 B1 C1 D1 aside chapel farm well",
    "/tt store A1 swap wood to B2",
    "/tt store A1",
    "/tt place B2 wheat",
    "/tt claim farm C3",
])
def test_rare_tiny_towns_sections_round_trip(text: str) -> None:
    spec = games.get_game("tiny-towns")
    canonical = spec.format(spec.parse(text))
    schema = schema_for(cached_schemas(spec), canonical)
    assert schema is not None
    values = schema.split(canonical)
    assert values is not None, canonical
    assert spec.parse(schema.text(values)) == spec.parse(canonical)
