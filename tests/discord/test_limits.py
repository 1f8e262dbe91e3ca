"""Static checks: the command tree and every component factory stay within Discord's limits."""

from __future__ import annotations

import re
from typing import Any

import discord

import games
from bot.discord import components
from bot.discord.commands import build_tree, playable_games
from tests.discord.limits import command_problems, component_problems

BIG_ID = 10**19 - 1  # 19-digit snowflake-sized ids
BIG_VERSION = 10**9 - 1


def tree_payload() -> list[dict[str, Any]]:
    client = discord.Client(intents=discord.Intents.none())
    tree = build_tree(client)
    return [command.to_dict(tree) for command in tree.get_commands()]


def test_command_tree_is_within_discord_limits() -> None:
    payload = tree_payload()
    assert command_problems(payload) == []
    names = {c["name"] for c in payload}
    assert names == {"game", "mod", "owner", *(spec.command_group for spec in playable_games())}


def test_limits_checker_catches_violations() -> None:
    """The checker itself must fail on what Discord refuses (else the test above proves nothing)."""
    bad = [
        {
            "name": "Game",
            "description": "x" * 101,
            "options": [{"type": 3, "name": f"o{i}", "description": "d", "required": i == 3} for i in range(26)],
        }
    ]
    bad[0]["dm_permission"] = False
    bad[0]["options"][0]["description"] = "…"
    bad[0]["options"][1]["choices"] = [{"name": "on", "value": "on"}, {"name": "off", "value": "off"}]
    problems = " ".join(command_problems(bad))
    for expected in (
        "bad name",
        "description must be",
        "26 options",
        "required option after an optional",
        "dm_permission is deprecated",
        "placeholder description",
        "must be a boolean",
    ):
        assert expected in problems
    rows = [
        {"type": 1, "components": [{"type": 2, "style": 1, "label": "b", "custom_id": f"{i}" * 101} for i in range(6)]}
        for _ in range(6)
    ]
    problems = " ".join(component_problems(rows))
    for expected in ("6 action rows", "6 buttons", "custom_id must be 1-100"):
        assert expected in problems


def test_every_game_group_has_one_subcommand_per_verb() -> None:
    payload = {c["name"]: c for c in tree_payload()}
    for spec in playable_games():
        group = payload[spec.command_group]
        verbs = [o["name"] for o in group["options"]]
        assert all(o["type"] == 1 for o in group["options"])
        assert len(verbs) == len(set(verbs)) and 1 <= len(verbs) <= 25
        assert verbs == [verb.name for verb in spec.verbs]  # exactly the declared verbs
        for verb in spec.verbs:  # autocomplete exactly where the declaration asks for it
            options = {o["name"]: o for o in group["options"]}[verb.name].get("options", [])
            assert [bool(o.get("autocomplete")) for o in options] == [s.autocomplete for s in verb.slots]
    tt = {o["name"]: o for o in payload["tt"]["options"]}
    assert [o["name"] for o in tt["build"]["options"]] == ["building", "squares", "at", "with", "more"]


def _components(view: discord.ui.View) -> list[dict[str, Any]]:
    return view.to_components()


async def test_view_factories_are_within_limits() -> None:
    views: list[discord.ui.View | None] = [components.game_view(BIG_ID, BIG_VERSION, "lobby")]
    for spec in playable_games():
        views.append(components.game_view(BIG_ID, BIG_VERSION, "active", spec.turn_enders))
    views.append(components.game_view(BIG_ID, BIG_VERSION, "active", ["done", "pass", "end", "stop", "wait"]))
    waiting = [(str(10**18 + i), "a very long display name " * 4) for i in range(7)]
    waiting.append(("bot:123:seat4", "Bot 1"))
    views.append(components.deadline_view(BIG_ID, BIG_VERSION, waiting))
    assert components.game_view(BIG_ID, BIG_VERSION, "finished") is None
    for view in views:
        assert view is not None
        rows = _components(view)
        assert component_problems(rows) == [], rows
        for custom_id in (c["custom_id"] for row in rows for c in row["components"]):
            assert len(custom_id) <= 100
            assert re.fullmatch(components.BUTTON_TEMPLATE, custom_id) or re.fullmatch(
                components.SELECT_TEMPLATE, custom_id
            )


def _chooser_views(moves: list[str]) -> list[list[dict[str, Any]]]:
    """Every page and group reachable from the top of the move menu."""
    seen, out, todo = set(), [], [("", 0)]
    while todo:
        prefix, offset = todo.pop()
        if (prefix, offset) in seen:
            continue
        seen.add((prefix, offset))
        page = components.chooser_page(moves, prefix, offset)
        out.append(_components(components.chooser_view(BIG_ID, BIG_VERSION, page)))
        for _, value in page.options:
            if value.startswith(">"):
                off, _, pre = value[1:].partition(":")
                todo.append((pre, int(off)))
    return out


async def test_move_menus_stay_within_limits_and_reach_every_move() -> None:
    trains = games.get_game("trains")
    state = trains.setup(["ann", "bob"], {"map": "tokyo", "kingdom": []}, 3)
    start_moves = [trains.format(m) for m in trains.legal_moves(state, 0)]
    assert len(start_moves) > 100
    long_moves = [f"/x play card{i} " + "word " * 30 for i in range(3)]
    many = [f"/x build b{i % 30} A{i % 4 + 1} C{i // 4}" for i in range(400)]
    for moves in (start_moves, ["/tt done"], many, long_moves + many[:10]):
        pages = _chooser_views(moves)
        reachable = set()
        for rows in pages:
            assert component_problems(rows) == [], rows
            reachable |= {o["value"] for o in rows[0]["components"][0]["options"] if o["value"].startswith("/")}
        offerable = {m for m in moves if len(m) <= 100}
        assert reachable == offerable


def _tree_paths(payload: list[dict[str, Any]], groups: set[str]) -> set[str]:
    paths = set()
    for command in payload:
        if command["name"] not in groups:
            continue
        for option in command.get("options", []):
            if option["type"] == 2:
                paths |= {f"/{command['name']} {option['name']} {sub['name']}" for sub in option["options"]}
            elif option["type"] == 1:
                paths.add(f"/{command['name']} {option['name']}")
    return paths


def test_readme_command_list_matches_the_command_tree() -> None:
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    section = readme.split("## Commands", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"`(/(?:game|mod|owner)(?: [a-z]+)+)`", section))
    assert listed == _tree_paths(tree_payload(), {"game", "mod", "owner"})


def test_moderator_and_owner_commands_are_hidden_by_default_and_game_has_room() -> None:
    payload = {c["name"]: c for c in tree_payload()}
    assert payload["mod"]["default_member_permissions"] == discord.Permissions(manage_channels=True).value
    assert payload["owner"]["default_member_permissions"] == 0  # administrators only
    assert payload["game"]["default_member_permissions"] is None
    assert {"kick", "skip", "substitute", "pause", "config", "rollback", "replacebot", "abort"} <= {
        o["name"] for o in payload["mod"]["options"]
    }
    assert not {"kick", "skip", "substitute", "pause", "config", "sync"} & {
        o["name"] for o in payload["game"]["options"]
    }
    assert len(payload["game"]["options"]) <= 22  # room for stats and leaderboard (Discord allows 25)
    for command in payload.values():
        assert "dm_permission" not in command and command["contexts"] == [0]
