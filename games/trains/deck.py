"""Player card zones: drawing with reshuffle-on-demand, Waste, clean-up.

Deck lists keep the top card at the END (pop() draws). Reshuffling happens only when a
draw or reveal needs a card and the deck is empty, as the rulebook insists.
"""

from __future__ import annotations

from typing import Any

from games.base import Event, State
from games.rng import Rng
from games.trains.content import CARDS, RULES

ZONES = ("deck", "hand", "discard", "play", "gained")


def name_of(slug: str) -> str:
    return CARDS[slug].name


def list_names(slugs: list[str]) -> str:
    return ", ".join(name_of(s) for s in slugs) if slugs else "nothing"


def hand_text(cards: list[str]) -> str:
    """'2x Normal Train, Lay Rails' (sorted, counted) or 'empty'."""
    counts: dict[str, int] = {}
    for slug in sorted(cards):
        counts[slug] = counts.get(slug, 0) + 1
    return ", ".join(f"{n}x {name_of(s)}" if n > 1 else name_of(s) for s, n in counts.items()) or "empty"


def _reshuffle(state: State, seat: int, events: list[Event]) -> bool:
    player = state["players"][seat]
    if not player["discard"]:
        return False
    rng = Rng(state["rng"])
    player["deck"] = rng.shuffled(player["discard"])
    state["rng"] = rng.state
    player["discard"] = []
    events.append(
        {"text": f"{state['names'][seat]} shuffles their discard pile into a new deck.", "irreversible": True}
    )
    return True


def top_card(state: State, seat: int, events: list[Event]) -> str | None:
    """Reveal-ready top card (reshuffling if the deck is empty); None when no cards are left."""
    player = state["players"][seat]
    if not player["deck"] and not _reshuffle(state, seat, events):
        return None
    return player["deck"][-1]


def draw(state: State, seat: int, count: int, events: list[Event]) -> list[str]:
    """Draw up to ``count`` cards into the hand; stops when deck and discard are both empty."""
    player = state["players"][seat]
    drawn: list[str] = []
    for _ in range(count):
        if top_card(state, seat, events) is None:
            break
        drawn.append(player["deck"].pop())
    player["hand"].extend(drawn)
    if count:
        name = state["names"][seat]
        short = "" if len(drawn) == count else " (no cards left to draw)"
        events.append(
            {"text": f"{name} draws {len(drawn)} card{'s' if len(drawn) != 1 else ''}{short}.", "irreversible": True}
        )
        if drawn:
            events.append({"private": {"seat": seat, "text": f"You drew: {list_names(drawn)}."}, "irreversible": True})
    return drawn


def gain_waste(state: State, seat: int, count: int) -> int:
    """Take up to ``count`` Waste from the supply into the gained area; an empty pile gives none."""
    got = min(count, state["supply"]["waste"])
    state["supply"]["waste"] -= got
    state["players"][seat]["gained"].extend(["waste"] * got)
    return got


def remove_cards(zone: list[str], slugs: list[str]) -> bool:
    """Remove each listed card once from ``zone`` (latest copies first); False if any is missing."""
    needed: dict[str, int] = {}
    for s in slugs:
        needed[s] = needed.get(s, 0) + 1
    if any(zone.count(s) < n for s, n in needed.items()):
        return False
    for s in slugs:
        idx = len(zone) - 1 - zone[::-1].index(s)
        del zone[idx]
    return True


def return_waste(state: State, zone: list[str], count: int) -> None:
    """Move ``count`` Waste from ``zone`` back to the supply (caller checked they are there)."""
    for _ in range(count):
        zone.remove("waste")
    state["supply"]["waste"] += count


def clean_up(state: State, seat: int, events: list[Event], draw_hand: bool = True) -> None:
    """Hand, play area and gained cards to the discard pile, then draw a fresh hand."""
    player = state["players"][seat]
    # Hand first so the public top of the discard pile is a played or gained card.
    player["discard"].extend(player["hand"])
    player["discard"].extend(player["play"])
    player["discard"].extend(player["gained"])
    player["hand"], player["play"], player["gained"] = [], [], []
    if draw_hand:
        draw(state, seat, RULES["hand_size"], events)


def card_count(player: dict[str, Any]) -> int:
    return sum(len(player[z]) for z in ZONES)


def all_cards(player: dict[str, Any]) -> list[str]:
    return [c for z in ZONES for c in player[z]]
