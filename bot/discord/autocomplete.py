"""Autocomplete: only what is legal for the caller right now, at most 25 choices, answered fast.

Move options are filled from ``Conductor.labelled_commands``: each legal move text is split into
option values (``Verb.split``, from the game's declared verbs) and the values for the focused
option are offered, narrowed by the options the caller has already filled in. Everything about
the channel's game comes from the core (players, rules topics), never from the store directly.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Coroutine, Iterable
from typing import Any

import discord
from discord import app_commands

import games
from bot.discord.bridge import bot_of, where
from bot.discord.schema import is_integer
from games.schema import Slot, Verb

log = logging.getLogger(__name__)
MAX_CHOICES = 25
Choices = list[app_commands.Choice[str]]
# An integer option's suggestions must be integers; every other option's are text.
MoveChoices = list[app_commands.Choice[str | int | float]]
Autocomplete = Callable[[discord.Interaction, str], Coroutine[Any, Any, MoveChoices]]


def choices(values: Iterable[tuple[str, str]], current: str) -> Choices:
    """Distinct (name, value) pairs whose name contains ``current``, best (prefix) matches first."""
    typed = current.strip().lower()
    seen: set[str] = set()
    starts: Choices = []
    contains: Choices = []
    for name, value in values:
        if value in seen or not value or len(value) > 100:
            continue
        # Labels add words ("H6 (Shinjuku, city)"): typing the start of one of them finds the value
        # (a city name finds its hex), but only the value matches inside a word.
        haystack = name.lower()
        prefix = haystack.startswith(typed) or value.lower().startswith(typed)
        in_label = any(word.startswith(typed) for word in re.findall(r"[\w-]+", haystack))
        if typed and not prefix and not in_label and typed not in value.lower():
            continue
        seen.add(value)
        choice = app_commands.Choice(name=_clip(name or value), value=value)
        (starts if prefix else contains).append(choice)
    return (starts + contains)[:MAX_CHOICES]


def filled_options(interaction: discord.Interaction) -> dict[str, str]:
    """Values already typed in the other options of the invoked subcommand (raw interaction data)."""
    data: Any = interaction.data or {}
    options = data.get("options", [])
    while options and options[0].get("type") in (1, 2):  # descend through groups and subcommands
        options = options[0].get("options", [])
    return {o["name"]: str(o.get("value", "")) for o in options if not o.get("focused")}


def move_option(group: str, verb: Verb, slot: Slot) -> Autocomplete:
    """Autocomplete for one option (``slot``) of the subcommand ``/group verb``."""

    async def complete(interaction: discord.Interaction, current: str) -> MoveChoices:
        guild, channel = where(interaction)
        moves = await bot_of(interaction).conductor.labelled_commands(guild, channel, str(interaction.user.id))
        filled = {k: v for k, v in filled_options(interaction).items() if v.strip() and k != slot.name}
        labels: dict[str, list[str]] = {}
        for move, label in moves:
            split = verb.split(group, move)
            if split is None or not split.get(slot.name):
                continue
            if all(_same(split.get(name, ""), value, verb, name) for name, value in filled.items()):
                labels.setdefault(split[slot.name], []).append(label)
        # A value that stands for exactly one move gets that move's label ("E5 (money 3 → 1)").
        values = [
            (f"{value} ({found[0]})" if len(found) == 1 and found[0] else value, value)
            for value, found in labels.items()
        ]
        offered = choices(values, current)
        if is_integer(slot):
            return [app_commands.Choice(name=c.name, value=int(c.value)) for c in offered if _is_int(c.value)]
        return [app_commands.Choice(name=c.name, value=c.value) for c in offered]

    return complete


async def game_slug(interaction: discord.Interaction, current: str) -> Choices:
    """Every registered game that loads (the registry, not any channel's game)."""
    values = [(f"{m.spec.name} ({m.slug}, /{m.spec.command_group})", m.slug) for m in games.manifests()]
    return choices(values, current)


async def new_options(interaction: discord.Interaction, current: str) -> Choices:
    """``name=value`` words for /game new: completes the last word against the game's options."""
    slug = filled_options(interaction).get("game", "")
    try:
        spec = games.get_game(slug)
    except Exception:
        return []
    head, _, last = current.rpartition(" ")
    head = f"{head} " if head else ""
    values = []
    for option in spec.options:
        if f"{option.name}=" in head:
            continue
        suggestions = list(option.choices) or (["on", "off"] if option.kind == "bool" else [])
        default = option.default if not isinstance(option.default, list) else ",".join(option.default)
        if isinstance(default, bool):
            default = "on" if default else "off"
        for value in suggestions or [str(default)]:
            word = f"{option.name}={value}"
            values.append((_clip(f"{head}{word} — {option.help}"), (head + word)[:100]))
    return [c for c in choices(values, "") if last.lower() in c.value.lower()][:MAX_CHOICES]


async def players(interaction: discord.Interaction, current: str) -> Choices:
    """Seats of the channel's game: name shown, user id (or bot id) sent."""
    guild, channel = where(interaction)
    seats = await bot_of(interaction).conductor.players(guild, channel)
    return choices(((f"{name}{' (bot)' if is_bot else ''}", user_id) for user_id, name, is_bot in seats), current)


async def rules_topic(interaction: discord.Interaction, current: str) -> Choices:
    """Topics of the game named in the ``game`` option, else of the channel's game (the core decides which)."""
    guild, channel = where(interaction)
    slug = filled_options(interaction).get("game", "").strip()
    topics = await bot_of(interaction).conductor.rules_topics(guild, channel, slug or None)
    return choices(((topic, topic) for topic in topics), current)


def _same(a: str, b: str, verb: Verb, name: str) -> bool:
    slot = next((s for s in verb.slots if s.name == name), None)
    if slot is not None and slot.many:
        return sorted(a.lower().split()) == sorted(b.lower().split())
    return a.strip().lower() == b.strip().lower()


def _is_int(text: str) -> bool:
    return text.removeprefix("-").isdigit()


def _clip(text: str, limit: int = 100) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
