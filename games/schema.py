"""A game's declared command schema: its verbs and their typed slots.

One declaration serves every front end: the notation's usage lines and error messages, the
Discord slash options (``bot/discord/schema.py``), autocomplete (which slots are offered from
the legal moves) and the turn-ending button. ``Verb.text`` joins option values back into the
command text the game's parser reads; ``Verb.split`` goes the other way, for autocomplete.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

SlotKind = Literal["square", "hex", "cell", "card", "building", "resource", "number", "choice", "word"]

# Discord's limits for option and command names.
MAX_NAME = 32
MAX_DESCRIPTION = 100


@dataclass(frozen=True)
class Slot:
    """One typed argument of a verb (one slash option).

    ``many``: several words ("A1 B1 C1"). ``keyword``: the value follows this word in the text
    ("at B1"). ``label``: how the usage line names the value (``<square>``), defaults to the kind.
    ``autocomplete``: offer the values found in the caller's legal moves. ``in_usage``: a
    catch-all for rare trailing sections is left out of the usage line.
    """

    name: str
    kind: SlotKind
    description: str
    required: bool = True
    many: bool = False
    keyword: str | None = None
    label: str = ""
    autocomplete: bool = True
    in_usage: bool = True

    @property
    def shown(self) -> str:
        return self.label or f"<{self.kind}>"

    def usage(self) -> str:
        value = f"{self.shown} {self.shown} ..." if self.many and self.required else self.shown
        if self.many and not self.required:
            value = f"{self.shown} ..."
        if self.keyword:
            value = f"{self.keyword} {value}"
        return value if self.required else f"[{value}]"


@dataclass(frozen=True)
class Verb:
    """One move verb (``/tt build``): its slots, and its role in the host.

    ``ends_turn``: a bare verb that ends the actor's turn or phase (the Done/Pass/End button).
    ``skip``: the verb a moderator's ``/mod skip`` plays for a stuck seat when it is legal.
    ``undoable``: whether its author may take it back (randomness and reveals are refused anyway,
    through the ``irreversible`` event flag). ``stop_words``: notation keywords that end a
    ``many`` slot.
    """

    name: str
    description: str
    slots: tuple[Slot, ...] = ()
    ends_turn: bool = False
    skip: bool = False
    undoable: bool = True
    stop_words: frozenset[str] = frozenset()

    def usage(self, group: str) -> str:
        shown = [slot.usage() for slot in self.slots if slot.in_usage]
        return " ".join([f"/{group}", self.name, *shown])

    @property
    def keywords(self) -> dict[str, Slot]:
        return {slot.keyword: slot for slot in self.slots if slot.keyword}

    def text(self, group: str, values: Mapping[str, str | None]) -> str:
        """The command text for these option values (the game's parser reads it)."""
        parts = [f"/{group}", self.name]
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

    def split(self, group: str, text: str) -> dict[str, str] | None:
        """Option values for a canonical move text of this verb; None if it cannot be expressed."""
        words = text.split()
        if len(words) < 2 or words[0].lower() != f"/{group}" or words[1].lower() != self.name:
            return None
        rest = words[2:]
        keywords = self.keywords
        stops = set(keywords) | self.stop_words
        catch_all = next((slot for slot in self.slots if not slot.in_usage), None)
        values: dict[str, str] = {}
        more: list[str] = []
        for slot in self.slots:
            if slot.keyword or slot is catch_all:
                continue
            if not rest or rest[0].lower() in keywords:
                if slot.required:
                    return None
                continue
            if slot.many:
                taken: list[str] = []
                while rest and (not taken or rest[0].lower() not in stops):
                    taken.append(rest.pop(0))
                values[slot.name] = " ".join(taken)
            else:
                values[slot.name] = rest.pop(0)
        while rest:
            word = rest.pop(0)
            section: list[str] = []
            while rest and rest[0].lower() not in keywords:
                section.append(rest.pop(0))
            keyword_slot = keywords.get(word.lower())
            if keyword_slot is not None and keyword_slot.name not in values and section:
                values[keyword_slot.name] = " ".join(section)
            else:
                more += [word, *section]
        if more:
            if catch_all is None:
                return None
            values[catch_all.name] = " ".join(more)
        return values


def verb_named(verbs: Iterable[Verb], name: str) -> Verb | None:
    return next((verb for verb in verbs if verb.name == name), None)


def verb_of(verbs: Iterable[Verb], text: str) -> Verb | None:
    """The verb a command text (``/tt build ...``) uses."""
    words = text.split()
    return verb_named(verbs, words[1].lower()) if len(words) > 1 else None


def usage_lines(group: str, verbs: Iterable[Verb]) -> dict[str, str]:
    return {verb.name: verb.usage(group) for verb in verbs}


def check_schema(group: str, verbs: Iterable[Verb]) -> list[str]:
    """Problems with a declaration against Discord's documented limits (empty when fine)."""
    problems = []
    verbs = list(verbs)
    if not 1 <= len(verbs) <= 25:
        problems.append(f"/{group} declares {len(verbs)} verbs (1 to 25)")
    for verb in verbs:
        names = [slot.name for slot in verb.slots]
        if len(set(names)) != len(names):
            problems.append(f"/{group} {verb.name}: duplicate slot names")
        if not 1 <= len(verb.description) <= MAX_DESCRIPTION:
            problems.append(f"/{group} {verb.name}: description must be 1-100 characters")
        seen_optional = False
        for slot in verb.slots:
            if not slot.name or len(slot.name) > MAX_NAME or slot.name != slot.name.lower():
                problems.append(f"/{group} {verb.name}: bad slot name {slot.name!r}")
            if not 1 <= len(slot.description) <= MAX_DESCRIPTION:
                problems.append(f"/{group} {verb.name} {slot.name}: description must be 1-100 characters")
            if slot.required and seen_optional:
                problems.append(f"/{group} {verb.name}: required slot {slot.name} after an optional one")
            seen_optional = seen_optional or not slot.required
        if len(verb.slots) > 25:
            problems.append(f"/{group} {verb.name}: more than 25 slots")
    return problems
