"""A light model of one town for the level-2 search bot.

The search looks at thousands of hypothetical towns per decision, so it does not go through
``rules.apply`` (a full state copy per move): a town is a tuple of 16 tokens, ``""`` for an empty
square, a resource letter for a cube and a building's slug otherwise (a Trading Post,
``"trading-post"``, stands in for any letter of a pattern; ``mark`` shows it as ``"*"``).
Only the bot's own town is modelled; the real moves it sends are always the engine's legal moves.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from games.tiny_towns.content import CATALOGUE, LETTER
from games.tiny_towns.patterns import PLACEMENTS, SIZES

Cells = tuple[str, ...]
EMPTY = ""
LETTERS = tuple(LETTER.values())


def from_engine(cells: list[Any]) -> Cells:
    out = []
    for cell in cells:
        if not cell:
            out.append(EMPTY)
        elif "resource" in cell:
            out.append(LETTER[cell["resource"]])
        else:
            out.append(cell["building"])
    return tuple(out)


def mark(token: str) -> str:
    """The letter a square offers to a pattern: its cube, '*' for a Trading Post, else nothing."""
    if len(token) == 1 or token == EMPTY:
        return token
    return "*" if token == "trading-post" else "#"


@dataclass(frozen=True)
class Pattern:
    """One placement of one building type, with the letter each square needs."""

    slug: str
    cells: tuple[int, ...]
    need: tuple[str, ...]
    size: int
    mask: int


def _pattern(slug: str, cells: tuple[int, ...], need: tuple[str, ...]) -> Pattern:
    return Pattern(slug, cells, need, SIZES[slug], sum(1 << c for c in cells))


def patterns_for(slugs: list[str]) -> list[Pattern]:
    return list(_patterns(tuple(slugs)))


@lru_cache(maxsize=64)
def _patterns(slugs: tuple[str, ...]) -> tuple[Pattern, ...]:
    # Built once per building set: a decision asks for them every time.
    return tuple(_pattern(slug, p.cells, p.need) for slug in slugs for p in PLACEMENTS[slug])


def build(cells: Cells, pattern: Pattern, at: int) -> Cells:
    out = list(cells)
    for c in pattern.cells:
        if out[c] != "trading-post":
            out[c] = EMPTY
    out[at] = pattern.slug
    return tuple(out)


def place(cells: Cells, cell: int, letter: str) -> Cells:
    out = list(cells)
    out[cell] = letter
    return tuple(out)


def to_engine(cells: Cells, monument: str | None) -> list[Any]:
    """Engine cells for scoring (a Factory or Bank holds nothing; a Warehouse is empty)."""
    out: list[Any] = []
    for token in cells:
        if token == EMPTY:
            out.append(None)
        elif len(token) == 1:
            out.append({"resource": next(r for r, letter in LETTER.items() if letter == token)})
        else:
            entry: dict[str, Any] = {"building": token}
            ability = CATALOGUE[token].get("ability")
            if ability in ("factory", "bank"):
                entry["holds"] = None
            elif ability == "warehouse":
                entry["stored"] = []
            if token == monument:
                entry["monument"] = True
            out.append(entry)
    return out


__all__ = [
    "EMPTY",
    "LETTERS",
    "Cells",
    "Pattern",
    "build",
    "from_engine",
    "mark",
    "patterns_for",
    "place",
    "to_engine",
]
