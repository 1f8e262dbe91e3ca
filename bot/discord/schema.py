"""A game's declared verbs (``GameSpec.verbs``, games/schema.py) as slash-command options.

Each verb becomes one subcommand of the game's group and each of its slots one option, in
declared order, with the declared name and description. Nothing is guessed from the notation:
a game that wants other options declares other slots.

The callback of a subcommand gets its options as Python parameters ``p0, p1 ...`` (slot names
may be Python keywords such as ``with``), renamed to the slot names with discord.py's public
``app_commands.rename``. ``Verb.text`` joins the values back into the command text the core
parses like any typed command; ``Verb.split`` goes the other way for autocomplete.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import Any, Optional

import discord
from discord import app_commands

from games.base import GameSpec
from games.schema import Slot, Verb, check_schema

# Discord allows 6000 characters per option; a move never needs more than a few words.
TEXT = app_commands.Range[str, 1, 200]


def is_integer(slot: Slot) -> bool:
    """A single number is an integer option, so Discord itself refuses "three"; several numbers
    ("1 2 3") stay one text option."""
    return slot.kind == "number" and not slot.many


def annotation(slot: Slot) -> Any:
    """The option type discord.py reads from the callback's signature."""
    base: Any = int if is_integer(slot) else TEXT
    return base if slot.required else Optional[base]  # noqa: UP045 (Range does not support |)


def parameter_names(verb: Verb) -> dict[str, Slot]:
    """Python parameter name -> slot, in declared order."""
    return {f"p{i}": slot for i, slot in enumerate(verb.slots)}


def signature(verb: Verb) -> inspect.Signature:
    """``(interaction, *, p0: ..., p1: ... = None)``: discord.py builds the options from it."""
    parameters = [
        inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction)
    ]
    for name, slot in parameter_names(verb).items():
        parameters.append(
            inspect.Parameter(
                name,
                inspect.Parameter.KEYWORD_ONLY,
                annotation=annotation(slot),
                default=inspect.Parameter.empty if slot.required else None,
            )
        )
    return inspect.Signature(parameters)


def command_text(spec: GameSpec, verb: Verb, values: Mapping[str, object]) -> str:
    """The move text for the callback's keyword arguments (``p0=...``); integers become words."""
    slots = parameter_names(verb)
    named = {slots[key].name: None if value is None else str(value) for key, value in values.items() if key in slots}
    return verb.text(spec.command_group, named)


def problems(spec: GameSpec) -> list[str]:
    """What Discord would refuse in the game's declaration (empty when it can be registered)."""
    return check_schema(spec.command_group, spec.verbs)
