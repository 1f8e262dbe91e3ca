"""A game's move notation as slash-command options, and back.

Each move verb of a game (``/tt build``) becomes one subcommand whose options are derived
from the game's own notation module: its ``VERBS`` list and, when it has one, its usage
strings (``"/tt build <building> <square> <square> ... [at <square>] [with <resource>]"``).
A verb without a usage string gets one free-form ``args`` option. Option values are joined
back into the canonical command text, which the host core parses like any typed command.

``VerbSchema.split`` goes the other way (canonical text -> option values); autocomplete uses
it to offer, for one option, the values that appear in the caller's legal moves.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from games.base import GameSpec, IllegalMove

MORE = "more"  # optional trailing words for sections the usage line does not list (e.g. "replace A1 farm")
ARGS = "args"  # the single free-form option of a verb without a usage line
PASS_VERBS = ("done", "pass", "end")  # bare verbs that get their own button
_NAME_OK = re.compile(r"^[a-z0-9_-]{1,32}$")
_USAGE_TOKEN = re.compile(r"\[[^\]]*\]|<[^>]*>|\.\.\.|\S+")


@dataclass(frozen=True)
class Slot:
    """One slash option of a move subcommand."""

    name: str  # Discord option name
    description: str
    required: bool
    keyword: str | None = None  # the value follows this word in the text ("at B1")
    many: bool = False  # several words ("A1 B1 C1")


@dataclass(frozen=True)
class VerbSchema:
    group: str
    verb: str
    description: str
    slots: tuple[Slot, ...]
    stop_words: frozenset[str] = frozenset()  # words that end a ``many`` slot (notation keywords)

    @property
    def keywords(self) -> dict[str, Slot]:
        return {slot.keyword: slot for slot in self.slots if slot.keyword}

    def text(self, values: Mapping[str, str | None]) -> str:
        """The canonical-enough command text for these option values (the core parses it)."""
        parts = [f"/{self.group}", self.verb]
        for slot in self.slots:
            value = (values.get(slot.name) or "").strip()
            if not value:
                continue
            if slot.keyword:
                if value.lower().split()[0] == slot.keyword:  # the player typed "at B1" into "at"
                    value = value.split(None, 1)[1] if " " in value else ""
                if not value:
                    continue
                parts.append(slot.keyword)
            parts.append(value)
        return " ".join(parts)

    def split(self, text: str) -> dict[str, str] | None:
        """Option values for a canonical move text of this verb; None if it cannot be expressed."""
        words = text.split()
        if len(words) < 2 or words[0].lower() != f"/{self.group}" or words[1].lower() != self.verb:
            return None
        rest = words[2:]
        keywords = self.keywords
        stops = set(keywords) | self.stop_words
        values: dict[str, str] = {}
        more: list[str] = []
        for slot in self.slots:
            if slot.keyword or slot.name == MORE:
                continue
            if not rest or rest[0].lower() in keywords:
                if slot.required:
                    return None
                continue
            if slot.many:
                taken = []
                while rest and (not taken or rest[0].lower() not in stops):
                    taken.append(rest.pop(0))
                values[slot.name] = " ".join(taken)
            else:
                values[slot.name] = rest.pop(0)
        while rest:
            word = rest.pop(0)
            section = []
            while rest and rest[0].lower() not in keywords:
                section.append(rest.pop(0))
            slot = keywords.get(word.lower())
            if slot is not None and slot.name not in values and section:
                values[slot.name] = " ".join(section)
            else:
                more += [word, *section]
        if more:
            if not any(slot.name == MORE for slot in self.slots):
                return None
            values[MORE] = " ".join(more)
        return values


def notation_module(spec: GameSpec) -> ModuleType:
    """The module that holds the game's ``parse`` (its notation)."""
    return importlib.import_module(spec.parse.__module__)


def verb_schemas(spec: GameSpec) -> list[VerbSchema]:
    """One schema per move verb, in the notation's order (at most 25: Discord's limit)."""
    module = notation_module(spec)
    verbs = [str(v).lower() for v in getattr(module, "VERBS", ())]
    usage: Mapping[str, str] = getattr(module, "USAGE", None) or getattr(module, "_USAGE", None) or {}
    stop_words = frozenset(_vocabulary_keywords(module))
    if not verbs:  # a notation without a verb list: one catch-all subcommand
        return [VerbSchema(spec.command_group, "move", f"Make a {spec.name} move (type the words after "
                           f"/{spec.command_group})"[:100], (_args_slot("the move, e.g. the words after "
                                                                          f"/{spec.command_group}"),))]
    schemas = []
    for verb in verbs[:25]:
        line = usage.get(verb)
        if line:
            slots = _slots_from_usage(line, spec.command_group, verb)
            description = line
        elif _parses_bare(spec, verb):
            slots, description = (), f"/{spec.command_group} {verb}"
        else:
            slots = (_args_slot(f"what follows /{spec.command_group} {verb} (suggestions list your legal moves)"),)
            description = f"/{spec.command_group} {verb} ..."
        schemas.append(VerbSchema(spec.command_group, verb, _clip(description), slots, stop_words))
    return schemas


_CACHE: dict[tuple[str, str], list[VerbSchema]] = {}


def cached_schemas(spec: GameSpec) -> list[VerbSchema]:
    """``verb_schemas`` once per game and rules version (buttons and autocomplete ask often)."""
    key = (spec.slug, spec.rules_version)
    if key not in _CACHE:
        _CACHE[key] = verb_schemas(spec)
    return _CACHE[key]


def pass_verbs(spec: GameSpec) -> list[str]:
    """Bare verbs such as done/pass/end that deserve a button of their own."""
    return [s.verb for s in cached_schemas(spec) if s.verb in PASS_VERBS and not s.slots]


def schema_for(schemas: Iterable[VerbSchema], text: str) -> VerbSchema | None:
    words = text.split()
    verb = words[1].lower() if len(words) > 1 else ""
    return next((s for s in schemas if s.verb == verb), None)


def _vocabulary_keywords(module: ModuleType) -> list[str]:
    vocabulary = getattr(module, "vocabulary", None)
    if not callable(vocabulary):
        return []
    try:
        words: Any = vocabulary()
    except Exception:  # a notation helper must never stop the command tree from loading
        return []
    return [str(w).lower() for w in words.get("keywords", [])] if isinstance(words, dict) else []


def _parses_bare(spec: GameSpec, verb: str) -> bool:
    try:
        spec.parse(f"/{spec.command_group} {verb}")
    except IllegalMove:
        return False
    except Exception:
        return False
    return True


def _args_slot(description: str) -> Slot:
    return Slot(ARGS, _clip(description), True, many=True)


def _clip(text: str, limit: int = 100) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _option_name(words: str, taken: set[str]) -> str:
    base = re.sub(r"[^a-z0-9]+", "_", words.lower()).strip("_")[:30] or "value"
    name, n = base, 2
    while name in taken or name in (MORE, ARGS):
        name, n = f"{base}{n}", n + 1
    assert _NAME_OK.match(name), name
    return name


def _slots_from_usage(line: str, group: str, verb: str) -> tuple[Slot, ...]:
    """``<x>`` required word, ``<x> <x> ...`` several words, ``[<x>]`` optional, ``[kw ...]`` keyword section."""
    words = line.split()
    if words[:2] == [f"/{group}", verb]:
        words = words[2:]
    tokens = _USAGE_TOKEN.findall(" ".join(words))
    slots: list[Slot] = []
    taken: set[str] = set()
    literal: str | None = None
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.startswith("<"):
            label = token[1:-1]
            many = False
            j = i + 1
            while j < len(tokens) and tokens[j] in (token, "..."):
                many = True
                j += 1
            name = _option_name(label + ("s" if many else ""), taken)
            description = f"{label}s, separated by spaces" if many else label
            slots.append(Slot(name, _clip(description), True, keyword=literal, many=many))
            literal = None
            i = j
        elif token.startswith("["):
            inner = token[1:-1].strip()
            first = inner.split()[0] if inner else ""
            if first.startswith("<"):
                name = _option_name(first[1:-1], taken)
                many = inner.endswith("...")  # "[<choice> ...]": optional, several words
                label = first[1:-1] + (", separated by spaces" if many else "")
                slots.append(Slot(name, _clip(f"{label} (optional)"), False, many=many))
            elif first:
                name = _option_name(first, taken)
                slots.append(Slot(name, _clip(f"{inner} (optional)"), False, keyword=first.lower()))
            i += 1
        elif token == "...":
            i += 1
        else:  # a fixed word in front of the next value ("to <square>")
            literal = token.lower()
            i += 1
        if slots:
            taken.add(slots[-1].name)
    if any(slot.keyword for slot in slots):
        slots.append(Slot(MORE, "further sections, e.g. replace A1 farm (optional)", False, many=True))
    # Discord lists required options first; a required slot after an optional one would be invalid.
    required = [s for s in slots if s.required]
    optional = [s for s in slots if not s.required]
    return tuple(required + optional)[:25]
