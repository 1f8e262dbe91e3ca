"""Paying for an action with cards: which icons of which cards.

A card token in a command is ``slug:icon+icon`` (the icons used from that card). The first
icon of a card is free; each further one costs stress (settings extra_icon_stress). The icons
paid must be exactly what the action needs: its action icons and, when it needs one, a single
destination icon from the allowed set. Several ways to pay with the same cards for the same
stress leave the same state, so the move list keeps one of them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from games.base import IllegalMove
from games.cards import counted
from games.tramways.content import SETTINGS, card, is_parcel_icon

Token = tuple[str, tuple[str, ...]]  # (card slug, icons used)


@dataclass(frozen=True)
class Need:
    """What an action must be paid with: action icons by name, and optionally one destination
    icon among ``dests`` (empty ``dests`` with ``dest`` True: no icon can pay, so it is illegal)."""

    icons: tuple[tuple[str, int], ...]
    dest: bool = False
    dests: frozenset[str] = frozenset()

    def describe(self) -> str:
        parts = [f"{n}x {icon}" if n > 1 else icon for icon, n in self.icons]
        if self.dest:
            parts.append("a destination icon: " + ("/".join(sorted(self.dests)) or "none fits"))
        return " + ".join(parts)


def token_text(token: Token) -> str:
    return f"{token[0]}:{'+'.join(token[1])}"


def parse_token(word: str) -> Token:
    slug, sep, icons = word.partition(":")
    if not sep or not icons:
        raise IllegalMove(f'"{word}" must name a card and the icons used from it, like track-crew:rail+rail.')
    return slug, tuple(icons.split("+"))


def stress_of(tokens: Iterable[Token]) -> int:
    return sum(len(icons) - 1 for _, icons in tokens) * SETTINGS["extra_icon_stress"]


def check_tokens(hand: list[str], tokens: list[Token]) -> None:
    """Each card is in hand (as many copies as named) and each icon is on its card."""
    for slug, n in counted(slug for slug, _ in tokens).items():
        if hand.count(slug) < n:
            raise IllegalMove(f"You do not hold {'that many copies of ' if n > 1 else ''}{slug}.")
    for slug, icons in tokens:
        printed = list(card(slug).icons)
        for icon in icons:
            if icon not in printed:
                raise IllegalMove(f"{card(slug).name} shows {'+'.join(card(slug).icons)}, not {icon}.")
            printed.remove(icon)


def check_pays(tokens: list[Token], need: Need) -> str | None:
    """The destination icon paid (or None); IllegalMove unless the icons are exactly ``need``."""
    if not tokens:
        raise IllegalMove(f"Name the cards that pay for this: {need.describe()}.")
    used: dict[str, int] = {}
    dests: list[str] = []
    for _, icons in tokens:
        for icon in icons:
            if icon in ("r", "c", "i", "l", "s") or is_parcel_icon(icon):
                dests.append(icon)
            else:
                used[icon] = used.get(icon, 0) + 1
    if used != dict(need.icons) or len(dests) != (1 if need.dest else 0) or (dests and dests[0] not in need.dests):
        raise IllegalMove(f"This action is paid with exactly {need.describe()}.")
    return dests[0] if dests else None


def _choices(slug: str, need: dict[str, int], dests: frozenset[str], dest_open: bool) -> list[tuple[str, ...]]:
    """Non-empty sets of this card's icons that could go towards ``need``."""
    icons = card(slug).icons
    useful = [i for i, icon in enumerate(icons) if need.get(icon, 0) > 0 or (dest_open and icon in dests)]
    found: set[tuple[str, ...]] = set()
    for size in range(1, len(useful) + 1):
        for picked in combinations(useful, size):
            chosen = tuple(icons[i] for i in picked)
            if sum(1 for icon in chosen if icon in dests) > (1 if dest_open else 0):
                continue
            if any(chosen.count(icon) > need.get(icon, 0) for icon in chosen if icon not in dests):
                continue
            found.add(chosen)
    return sorted(found)


def payments(hand: list[str], need: Need) -> list[tuple[Token, ...]]:
    """Every distinct way to pay ``need`` from ``hand`` (one per cards + stress), canonical order."""
    if need.dest and not need.dests:
        return []
    return list(_payments(tuple(sorted(hand)), need))


@lru_cache(maxsize=8192)
def _payments(copies: tuple[str, ...], need: Need) -> tuple[tuple[Token, ...], ...]:
    # Hands repeat a lot (the same few cards over a game), so each (hand, need) is searched once.
    wanted = {icon for icon, _ in need.icons} | need.dests
    copies = tuple(slug for slug in copies if wanted.intersection(card(slug).icons))  # the rest cannot help
    results: dict[tuple[tuple[str, ...], int], tuple[Token, ...]] = {}
    remaining = dict(need.icons)

    def walk(index: int, dest_open: bool, chosen: list[Token]) -> None:
        if all(n == 0 for n in remaining.values()) and not dest_open:
            key = (tuple(slug for slug, _ in chosen), stress_of(chosen))
            results.setdefault(key, tuple(chosen))
            return
        if index >= len(copies):
            return
        slug = copies[index]
        # Copies of one card are interchangeable: keep their icon choices in sorted order.
        previous_used = index > 0 and copies[index - 1] == slug and bool(chosen) and chosen[-1][0] == slug
        for icons in _choices(slug, remaining, need.dests, dest_open):
            if previous_used and chosen[-1][1] > icons:
                continue
            for icon in icons:
                if icon not in need.dests:
                    remaining[icon] -= 1
            chosen.append((slug, icons))
            walk(index + 1, dest_open and not any(icon in need.dests for icon in icons), chosen)
            chosen.pop()
            for icon in icons:
                if icon not in need.dests:
                    remaining[icon] += 1
        walk(index + 1, dest_open, chosen)

    walk(0, need.dest, [])
    return tuple(results[key] for key in sorted(results))
