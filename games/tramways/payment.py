"""Paying for an action with cards: which icons of which cards.

A card token in a command is ``slug:icon+icon`` (the icons used from that card). The first
icon of a card is free; each further one costs stress (settings extra_icon_stress). The action
and destination icons paid must be exactly what the action needs: its action icons and, when it
needs one, a single destination icon from the allowed set. The cards that pay may also use their
money, worker, new-passenger and calm icons within the action (settings simple_icons_in_actions),
each a further icon of its card; a card that pays nothing the action needs cannot join it.
Several ways to pay with the same cards for the same stress leave the same state, so the move
list keeps one of them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, product

from games.base import IllegalMove
from games.cards import counted
from games.tramways.content import SETTINGS, SIMPLE_ICONS, card, is_parcel_icon

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
    extras_ok = SETTINGS["simple_icons_in_actions"]
    for slug, icons in tokens:
        pays = False
        for icon in icons:
            if icon in ("r", "c", "i", "l", "s") or is_parcel_icon(icon):
                dests.append(icon)
                pays = True
            elif not (extras_ok and icon in SIMPLE_ICONS):
                used[icon] = used.get(icon, 0) + 1
                pays = True
        if not pays:
            raise IllegalMove(
                f"{card(slug).name} pays nothing this action needs ({need.describe()}): play its "
                f"{'+'.join(icons)} with /tram use, or as further icons of a card that pays."
            )
    if used != dict(need.icons) or len(dests) != (1 if need.dest else 0) or (dests and dests[0] not in need.dests):
        extra = " (and, as further icons of those cards, $1 $2 worker pax calm)" if extras_ok else ""
        raise IllegalMove(f"This action is paid with exactly {need.describe()}{extra}.")
    return dests[0] if dests else None


@dataclass(frozen=True)
class Gains:
    """What the money, worker, new-passenger and calm icons of played cards bring."""

    money: int = 0
    workers: int = 0
    pax: int = 0
    calm: int = 0


def gains(tokens: Iterable[Token]) -> Gains:
    money = workers = pax = calm = 0
    for _, icons in tokens:
        for icon in icons:
            if icon in ("$1", "$2"):
                money += int(icon[1])
            elif icon == "worker":
                workers += 1
            elif icon == "pax":
                pax += 1
            elif icon == "calm":
                calm += 1
    return Gains(money, workers, pax, calm)


@dataclass(frozen=True)
class Way:
    """One listed way to pay for an action: the card tokens as text, their stress (extra icons
    and consequences), what their simple icons bring and how many cards make you pay $1."""

    texts: tuple[str, ...]
    gains: Gains
    pay: int

    def money_after(self, money: int) -> int:
        """Money once the cards are played: their $ icons, then $1 per pay consequence (if any is left)."""
        after = money + self.gains.money
        return after - min(self.pay, after)


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


def ways(hand: list[str], need: Need) -> tuple[Way, ...]:
    """Every distinct way to pay ``need`` from ``hand``, each also with every choice of the paying
    cards' further simple icons (when the settings allow them within an action)."""
    if need.dest and not need.dests:
        return ()
    return _ways(tuple(sorted(hand)), need)


def in_card_order(slug: str, icons: Iterable[str]) -> tuple[str, ...]:
    """``icons`` (a multiset of the card's icons) in the order the card prints them."""
    left = list(icons)
    ordered = []
    for icon in card(slug).icons:
        if icon in left:
            left.remove(icon)
            ordered.append(icon)
    return tuple(ordered)


def with_extras(way: tuple[Token, ...]) -> list[tuple[Token, ...]]:
    """``way`` and every variant adding further simple icons of its own cards (canonical order:
    tokens sorted, icons in card order), the plain way first."""
    if not SETTINGS["simple_icons_in_actions"]:
        return [way]
    options: list[list[Token]] = []
    for slug, icons in way:
        left = list(card(slug).icons)
        for icon in icons:
            left.remove(icon)
        simple = [icon for icon in left if icon in SIMPLE_ICONS]
        subsets = sorted({tuple(sorted(c)) for size in range(len(simple) + 1) for c in combinations(simple, size)})
        options.append([(slug, in_card_order(slug, (*icons, *sub))) if sub else (slug, icons) for sub in subsets])
    found: dict[tuple[Token, ...], None] = {}
    for combo in product(*options):
        found.setdefault(tuple(sorted(combo)), None)
    return list(found)


@lru_cache(maxsize=8192)
def _ways(copies: tuple[str, ...], need: Need) -> tuple[Way, ...]:
    out: list[Way] = []
    for way in _payments(copies, need):
        for variant in with_extras(way):
            pay = sum(1 for slug, _ in variant if card(slug).consequence == "pay")
            out.append(Way(tuple(token_text(t) for t in variant), gains(variant), pay))
    return tuple(out)


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
