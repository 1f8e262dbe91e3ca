"""Declared verbs <-> slash options: every legal move can be entered through the typed options,
and a game's subcommands are exactly what it declares (no reflection, no private discord.py API)."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import discord
import pytest

import games
from bot.discord import commands, schema
from bot.discord.commands import build_tree, game_group
from games.base import GameManifest, GameSpec
from games.schema import Slot, Verb, verb_of

ADAPTER = Path(__file__).resolve().parents[2] / "bot" / "discord"


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


def verbs_by_name(slug: str) -> dict[str, Verb]:
    return {verb.name: verb for verb in games.get_game(slug).verbs}


@pytest.mark.parametrize(("slug", "players", "options", "seeds", "steps"), CASES)
def test_every_legal_move_round_trips_through_slash_options(
    slug: str, players: int, options: str, seeds: range, steps: int
) -> None:
    spec = games.get_game(slug)
    group = spec.command_group
    moves = set(playout_moves(spec, players, options, seeds, steps))
    assert len(moves) > 30
    for text in moves:
        verb = verb_of(spec.verbs, text)
        assert verb is not None, text
        values = verb.split(group, text)
        assert values is not None, f"{text} cannot be expressed with the options of /{slug} {verb.name}"
        names = {slot.name for slot in verb.slots}
        assert set(values) <= names
        assert all(values.get(s.name) for s in verb.slots if s.required), (text, values)
        assert all(1 <= len(v) <= 200 for v in values.values())
        assert all(
            re.fullmatch(r"-?\d+", values[s.name]) for s in verb.slots if schema.is_integer(s) and s.name in values
        ), (text, values)  # an integer option holds it
        assert spec.parse(verb.text(group, values)) == spec.parse(text)


def test_tiny_towns_options_come_from_its_declared_verbs() -> None:
    verbs = verbs_by_name("tiny-towns")
    build = verbs["build"]
    assert [(s.name, s.required, s.keyword, s.many) for s in build.slots] == [
        ("building", True, None, False),
        ("squares", True, None, True),
        ("at", False, "at", False),
        ("with", False, "with", False),
        ("more", False, None, True),
    ]
    assert not build.slots[-1].in_usage  # the catch-all for rare sections
    assert (
        build.text("tt", {"building": "cottage", "squares": "B1 A2 B2", "at": "B2", "with": None})
        == "/tt build cottage B1 A2 B2 at B2"
    )
    assert (
        build.text("tt", {"building": "cottage", "squares": "B1 A2", "at": "at B2"}) == "/tt build cottage B1 A2 at B2"
    )
    assert verbs["done"].slots == () and verbs["cave"].slots == ()
    assert [s.name for s in verbs["place"].slots] == ["square", "resource"]


def test_trains_options_come_from_its_declared_verbs() -> None:
    verbs = verbs_by_name("trains")
    assert [(s.name, s.required, s.many) for s in verbs["play"].slots] == [
        ("card", True, False),
        ("choices", False, True),
    ]
    assert verbs["pass"].slots == ()
    assert verbs["play"].split("trains", "/trains play lay-rails E5") == {"card": "lay-rails", "choices": "E5"}
    assert verbs["play"].split("trains", "/trains play mail-train waste apartment") == {
        "card": "mail-train",
        "choices": "waste apartment",
    }
    assert verbs["play"].text("trains", {"card": "lay-rails", "choices": "E5"}) == "/trains play lay-rails E5"
    assert verbs["start"].text("trains", {"hex": "E5"}) == "/trains start E5"


def test_split_refuses_what_the_options_cannot_hold() -> None:
    verb = Verb("go", "d", (Slot("where", "word", "where"),))
    assert verb.split("x", "/x go north") == {"where": "north"}
    assert verb.split("x", "/x go north fast") is None  # no catch-all option to hold "fast"
    assert verb.split("x", "/x stop") is None and verb.split("x", "/y go north") is None


@pytest.mark.parametrize(
    "text",
    [
        "/tt build cottage A1 B1 B2 at B1 with wood",
        "/tt build architects-guild A1 B1 C1 D1 replace A2 farm replace B3 well",
        "/tt build grove-university A1 B1 C1 add farm C3",
        "/tt build opaleyes-watch A1 B1 C1 D1 aside chapel farm well",
        "/tt store A1 swap wood to B2",
        "/tt store A1",
        "/tt place B2 wheat",
        "/tt claim farm C3",
    ],
)
def test_rare_tiny_towns_sections_round_trip(text: str) -> None:
    spec = games.get_game("tiny-towns")
    canonical = spec.format(spec.parse(text))
    verb = verb_of(spec.verbs, canonical)
    assert verb is not None
    values = verb.split("tt", canonical)
    assert values is not None, canonical
    assert spec.parse(verb.text("tt", values)) == spec.parse(canonical)


# ----- the group is generated from the declaration -------------------------------------------

EXTRA = Verb(
    "tally",
    "Count something (a test verb)",
    (
        Slot("amount", "number", "how many", autocomplete=False),
        Slot("what", "resource", "which resource", required=False),
        Slot("at", "square", "where", required=False, keyword="at"),
        Slot("with", "word", "a keyword slot named like a Python keyword", required=False, keyword="with"),
        Slot("rest", "word", "anything else", required=False, many=True, in_usage=False),
    ),
)


def group_payload(spec: GameSpec) -> dict[str, Any]:
    tree = discord.app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    group = game_group(spec)
    tree.add_command(group)
    return group.to_dict(tree)


def test_a_game_groups_options_come_from_its_declared_verbs() -> None:
    base = games.get_game("tiny-towns")
    spec = replace(base, verbs=(*base.verbs, EXTRA))
    payload = {o["name"]: o for o in group_payload(spec)["options"]}
    assert list(payload) == [verb.name for verb in spec.verbs]
    tally = payload["tally"]
    assert tally["type"] == 1 and tally["description"] == EXTRA.description
    options = tally["options"]
    assert [o["name"] for o in options] == ["amount", "what", "at", "with", "rest"]
    assert [o["description"] for o in options] == [s.description for s in EXTRA.slots]
    assert [o.get("required", False) for o in options] == [True, False, False, False, False]
    assert [o["type"] for o in options] == [4, 3, 3, 3, 3]  # a single number is an integer option
    assert [bool(o.get("autocomplete")) for o in options] == [False, True, True, True, True]
    text_options = [o for o in options if o["type"] == 3]
    assert all((o.get("min_length"), o.get("max_length")) == (1, 200) for o in text_options)


async def test_option_values_are_joined_into_the_declared_command_text(monkeypatch: pytest.MonkeyPatch) -> None:
    base = games.get_game("tiny-towns")
    spec = replace(base, verbs=(*base.verbs, EXTRA))
    sent: list[tuple[str, bool]] = []

    async def slash(interaction: Any, text: str, *, private: bool = False, **_: Any) -> None:
        sent.append((text, private))

    monkeypatch.setattr(commands.bridge, "slash", slash)
    command = commands.verb_command(spec, EXTRA)
    # The callback's keyword arguments are the Python parameter names discord.py passes (p0, p1 ...).
    await command.callback(object(), p0=3, p1="wood", p2="at B2", p4="x y")  # type: ignore[arg-type, call-arg]
    assert sent == [("/tt tally 3 wood at B2 x y", False)]


def test_a_game_without_declared_verbs_gets_no_group_and_the_others_still_load(monkeypatch: pytest.MonkeyPatch) -> None:
    odd = replace(games.get_game("tiny-towns"), slug="odd", command_group="odd", verbs=())
    with pytest.raises(ValueError, match="declares 0 verbs"):
        game_group(odd)
    real = games.manifests()
    fake = GameManifest(odd, real[0].game_type, real[0].renderer)
    monkeypatch.setattr(games, "manifests", lambda: [*real, fake])
    tree = build_tree(discord.Client(intents=discord.Intents.none()))
    names = {command.name for command in tree.get_commands()}
    assert "odd" not in names and {"game", *(m.spec.command_group for m in real)} <= names


def test_the_adapter_uses_no_private_discord_py_attribute() -> None:
    for path in [*ADAPTER.glob("*.py"), ADAPTER.parent / "discord_app.py"]:
        assert "__discord_app_commands" not in path.read_text(), path


def test_the_adapter_has_no_function_level_imports_of_its_own_modules() -> None:
    """Imports run one way (no circle held open by lazy imports)."""
    for path in ADAPTER.glob("*.py"):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            assert not re.match(r"^\s+(from bot|import bot)", line), f"{path.name}:{number}: {line.strip()}"


def test_components_do_not_import_the_click_handlers() -> None:
    text = (ADAPTER / "components.py").read_text()
    assert not re.search(r"^(from|import) bot\.discord(\.| import )(clicks|bridge|app)\b", text, re.M)
    assert not re.search(r"^from bot\.discord import .*\b(clicks|bridge|app)\b", text, re.M)
