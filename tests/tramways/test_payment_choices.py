"""Which icons of one card can go towards paying an action (payment._choices, the step of the payment
search that `ways` and the move list rest on). Called directly: `ways` reads it through an lru_cache, so
a test going through `ways` may be answered from a cache filled before (mutmut's fork server fills it
with the clean run, which hid every change to _choices from the tests).

The rule (module docstring of payment.py, reference "Icons"): a card joins a payment with a non-empty
set of its printed icons, each either an action icon still needed (no more copies than needed) or, while
the destination is still open, one destination icon of the allowed set (at most one per payment)."""

from __future__ import annotations

from itertools import product

import pytest

from games.tramways.content import ACTION_ICONS, CARDS, Card, card, parcel_card_slug
from games.tramways.payment import _choices

NONE: frozenset[str] = frozenset()


def plain_choices(slug: str, need: dict[str, int], dests: frozenset[str], dest_open: bool) -> list[tuple[str, ...]]:
    """The rule above, spelled out: every sub-multiset of the printed icons (in card order), kept when
    each icon pays something still due."""
    icons = card(slug).icons
    found = set()
    for keep in product((False, True), repeat=len(icons)):
        chosen = tuple(icon for icon, kept in zip(icons, keep, strict=True) if kept)
        destinations = [icon for icon in chosen if icon in dests]
        actions = [icon for icon in chosen if icon not in dests]
        if (
            chosen
            and len(destinations) <= (1 if dest_open else 0)
            and all(chosen.count(icon) <= need.get(icon, 0) for icon in actions)
        ):
            found.add(chosen)
    return sorted(found)


def test_worked_examples() -> None:
    # A trip to a Residence or Commercial with a Night Tram (ticket r c i l): its ticket, one of r/c, or both.
    assert _choices("night-tram", {"ticket": 1}, frozenset({"r", "c"}), True) == [
        ("c",),
        ("r",),
        ("ticket",),
        ("ticket", "c"),
        ("ticket", "r"),
    ]
    # The destination is already paid by another card: only the ticket.
    assert _choices("night-tram", {"ticket": 1}, frozenset({"r", "c"}), False) == [("ticket",)]
    # The ticket is paid too: the card has nothing left to give.
    assert _choices("night-tram", {"ticket": 0}, frozenset({"r", "c"}), False) == []
    # Builder (build build $1): one or both build icons, never the $1 (a further icon, added later).
    assert _choices("builder", {"build": 2}, NONE, False) == [("build",), ("build", "build")]
    assert _choices("builder", {"build": 1}, NONE, False) == [("build",)]
    # Express Line (rail rail rail) for 3 rails: any 1, 2 or all 3 of them.
    assert _choices("express-line", {"rail": 3}, NONE, False) == [("rail",), ("rail", "rail"), ("rail", "rail", "rail")]
    # Completing a link to a Residence with a Rail Union (worker rail r): the rail, the r, or both.
    assert _choices("rail-union", {"rail": 1}, frozenset({"r", "i"}), True) == [("r",), ("rail",), ("rail", "r")]
    # A Station card (s ticket $1) to the Station; a parcel card (p3 $1) to its parcel.
    assert _choices("station-card", {"ticket": 1}, frozenset({"s"}), True) == [("s",), ("s", "ticket"), ("ticket",)]
    assert _choices("parcel-p3", {"ticket": 0}, frozenset({"p3", "r"}), True) == [("p3",)]
    # A card with nothing the action needs: none.
    assert _choices("petty-cash", {"rail": 2}, frozenset({"r"}), True) == []


# Cards today's data does not print, in orders the data may (content.py loads any icon list; the
# reference: "some cards show a double destination"): destinations before the ticket, two rails and a
# destination. A combination refused there must not end the search among the others of its size.
TEST_CARDS = {
    "test-night-bus": Card("test-night-bus", "Night Bus", "auction", ("r", "c", "ticket")),
    "test-branch-line": Card("test-branch-line", "Branch Line", "auction", ("rail", "rail", "i")),
}


def test_cards_printing_icons_in_other_orders() -> None:
    with pytest.MonkeyPatch.context() as patch:
        for slug, test_card in TEST_CARDS.items():
            patch.setitem(CARDS, slug, test_card)
        # The pair r+c comes first and is refused (one destination); r+ticket and c+ticket follow.
        assert _choices("test-night-bus", {"ticket": 1}, frozenset({"r", "c"}), True) == [
            ("c",),
            ("c", "ticket"),
            ("r",),
            ("r", "ticket"),
            ("ticket",),
        ]
        # One rail to lay: rail+rail comes first and is refused (one rail needed); rail+i follows.
        assert _choices("test-branch-line", {"rail": 1}, frozenset({"i"}), True) == [("i",), ("rail",), ("rail", "i")]
        for slug in TEST_CARDS:
            for need, dests in (({"ticket": 1}, frozenset({"r", "c"})), ({"rail": 2}, frozenset({"i"}))):
                for dest_open in (False, True):
                    assert _choices(slug, need, dests, dest_open) == plain_choices(slug, need, dests, dest_open)


def test_every_card_against_the_plain_rule() -> None:
    slugs = [*CARDS, *(parcel_card_slug(f"P{n}") for n in (1, 4, 12))]
    # The destination sets an action can allow: none, one type, a parcel and its building, two link ends.
    dest_sets = [NONE, frozenset({"s"}), frozenset({"l"}), frozenset({"p4", "c"}), frozenset({"r", "i"})]
    checked = 0
    for slug, icon, count, dests, dest_open in product(slugs, ACTION_ICONS, range(4), dest_sets, (False, True)):
        need = {icon: count}
        expected = plain_choices(slug, need, dests, dest_open)
        assert _choices(slug, need, dests, dest_open) == expected, (slug, need, dests, dest_open)
        checked += 1
    assert checked == len(slugs) * 4 * 4 * 5 * 2
