"""Autocomplete: only what is legal for the caller right now, at most 25 choices, answered fast.

Move options are filled from ``Conductor.legal_commands``: each legal move text is split into
option values (``VerbSchema.split``) and the values for the focused option are offered,
narrowed by the options the caller has already filled in.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import discord
from discord import app_commands

import games
from bot.discord.bridge import bot_of, where
from bot.discord.schema import Slot, VerbSchema

log = logging.getLogger(__name__)
MAX_CHOICES = 25
Choices = list[app_commands.Choice[str]]
Autocomplete = Callable[[discord.Interaction, str], Awaitable[Choices]]


def choices(values: Iterable[tuple[str, str]], current: str) -> Choices:
    """Distinct (name, value) pairs whose name contains ``current``, best (prefix) matches first."""
    typed = current.strip().lower()
    seen: set[str] = set()
    starts, contains = [], []
    for name, value in values:
        if value in seen or not value or len(value) > 100:
            continue
        # Labels add words ("E5 (river)"): they may match as a prefix, but only the value matches inside.
        haystack = name.lower()
        prefix = haystack.startswith(typed) or value.lower().startswith(typed)
        if typed and not prefix and typed not in value.lower():
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


def move_option(schema: VerbSchema, slot: Slot) -> Autocomplete:
    """Autocomplete for one option of a move subcommand."""

    async def complete(interaction: discord.Interaction, current: str) -> Choices:
        guild, channel = where(interaction)
        moves = await bot_of(interaction).conductor.labelled_commands(guild, channel, str(interaction.user.id))
        filled = {k: v for k, v in filled_options(interaction).items() if v.strip() and k != slot.name}
        labels: dict[str, list[str]] = {}
        for move, label in moves:
            split = schema.split(move)
            if split is None or not split.get(slot.name):
                continue
            if all(_same(split.get(name, ""), value, schema, name) for name, value in filled.items()):
                labels.setdefault(split[slot.name], []).append(label)
        # A value that stands for exactly one move gets that move's label ("E5 (money 3 → 1)").
        values = [(f"{value} ({found[0]})" if len(found) == 1 and found[0] else value, value)
                  for value, found in labels.items()]
        return choices(values, current)

    return complete


async def game_slug(interaction: discord.Interaction, current: str) -> Choices:
    values = []
    for slug in games.available_slugs():
        spec = games.get_game(slug)
        values.append((f"{spec.name} ({slug}, /{spec.command_group})", slug))
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
    game = await bot_of(interaction).conductor.channel_game(guild, channel)
    if game is None:
        return []
    return choices(((f"{s.display_name}{' (bot)' if s.kind == 'bot' else ''}", s.user_id) for s in game.seats),
                   current)


async def rules_topic(interaction: discord.Interaction, current: str) -> Choices:
    slug = filled_options(interaction).get("game", "")
    if not slug:
        guild, channel = where(interaction)
        game = await bot_of(interaction).conductor.channel_game(guild, channel)
        slug = game.spec.slug if game else ""
    try:
        spec = games.get_game(slug)
    except Exception:
        return []
    return choices(((topic, topic) for topic in spec.rules_help), current)


def _same(a: str, b: str, schema: VerbSchema, name: str) -> bool:
    slot = next((s for s in schema.slots if s.name == name), None)
    if slot is not None and slot.many:
        return sorted(a.lower().split()) == sorted(b.lower().split())
    return a.strip().lower() == b.strip().lower()


def _clip(text: str, limit: int = 100) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
