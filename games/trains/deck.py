"""Player card zones: drawing with reshuffle-on-demand, Waste, clean-up.

Deck lists keep the top card at the END (pop() draws). Reshuffling happens only when a
draw or reveal needs a card and the deck is empty, as the rulebook insists.
"""

from __future__ import annotations

from typing import Any

from games import cards
from games.base import Event, State
from games.trains.content import CARDS, RULES
from games.trains.shuffle import shuffled

ZONES = ("deck", "hand", "discard", "play", "gained")


def name_of(slug: str) -> str:
    return CARDS[slug].name


def list_names(slugs: list[str]) -> str:
    return ", ".join(name_of(s) for s in slugs) if slugs else "nothing"


def hand_text(slugs: list[str]) -> str:
    """'2x Normal Train, Lay Rails' (sorted, counted) or 'empty'."""
    return cards.counted_text(slugs, name_of)


def top_card(state: State, seat: int, events: list[Event]) -> str | None:
    """Reveal-ready top card (reshuffling if the deck is empty); None when no cards are left."""
    return cards.top_card(state, state["players"][seat], state["names"][seat], events)


def draw(state: State, seat: int, count: int, events: list[Event]) -> list[str]:
    """Draw up to ``count`` cards into the hand; stops when deck and discard are both empty.

    games/cards.draw's rule and events, written out for the two cases of nearly every draw (every
    turn ends with one): the deck holds the cards, or it runs out once and the discard pile is
    shuffled into a new deck part way. Anything else goes to games/cards.draw itself.

    The deck and discard pile are replaced by new lists, never changed in place (the new deck is
    the old one's slice, no dearer than a copy): an end of turn works on a copy that shares them
    with the old state (copying.fork_end). The hand is extended in place (every caller's copy owns it).
    """
    player = state["players"][seat]
    deck = player["deck"]
    have = len(deck)
    if count <= 0:
        return cards.draw(state, seat, player, count, events, name_of)  # draws nothing, changes nothing
    name = state["names"][seat]
    if count <= have:
        drawn = deck[: -count - 1 : -1]  # the top cards, top card first
        player["deck"] = deck[:-count]
    elif len(player["discard"]) >= count - have:
        drawn = deck[::-1]
        _reshuffle(state, player, name, events)  # a new deck and discard pile
        deck = player["deck"]
        rest = count - have
        drawn += deck[: -rest - 1 : -1]
        del deck[-rest:]  # the new deck, this state's own
    else:
        # games/cards.draw changes the zones in place: on copies of them.
        player["deck"] = list(deck)
        player["discard"] = list(player["discard"])
        return cards.draw(state, seat, player, count, events, name_of)
    player["hand"] += drawn
    said = _DRAWS.get((name, count))
    if said is None:
        said = f"{name} draws {count} card{'s' if count != 1 else ''}."
        if len(_DRAWS) >= 4096:
            _DRAWS.clear()
        _DRAWS[name, count] = said
    events.append({"text": said, "irreversible": True})
    key = tuple(drawn)
    text = _DREW.get(key)
    if text is None:
        text = f"You drew: {', '.join(map(_NAMES.__getitem__, drawn))}."
        if len(_DREW) >= 4096:
            _DREW.clear()
        _DREW[key] = text
    events.append({"private": {"seat": seat, "text": text}, "irreversible": True})
    return drawn


# The drawn cards (top first) -> the private "You drew: ..." line: pure data from the card names,
# and the same few hands come up again and again; bounded (cleared when full).
_DREW: dict[tuple[str, ...], str] = {}
# (name, count) -> the public "... draws N cards." line, kept the same way.
_DRAWS: dict[tuple[str, int], str] = {}


_NAMES = {slug: card.name for slug, card in CARDS.items()}


def _reshuffle(state: State, player: dict[str, Any], name: str, events: list[Event]) -> None:
    """games/cards.reshuffle of a non-empty discard pile, with the packed shuffle (shuffle.py)."""
    player["deck"], state["rng"] = shuffled(state["rng"], player["discard"])
    player["discard"] = []
    events.append({"text": f"{name} shuffles their discard pile into a new deck.", "irreversible": True})


def gain_waste(state: State, seat: int, count: int) -> int:
    """Take up to ``count`` Waste from the supply into the gained area; an empty pile gives none."""
    got = min(count, state["supply"]["waste"])
    state["supply"]["waste"] -= got
    state["players"][seat]["gained"].extend(["waste"] * got)
    return got


def remove_cards(zone: list[str], slugs: list[str]) -> bool:
    """Remove each listed card once from ``zone`` (latest copies first); False if any is missing."""
    if len(slugs) == 1:  # playing a card: the common case, without counting the zone
        slug = slugs[0]
        if slug not in zone:
            return False
        zone.reverse()  # the latest copy is the first one of the reversed zone
        zone.remove(slug)
        zone.reverse()
        return True
    return cards.remove_cards(zone, slugs)


def return_waste(state: State, zone: list[str], count: int) -> None:
    """Move ``count`` Waste from ``zone`` back to the supply (caller checked they are there)."""
    for _ in range(count):
        zone.remove("waste")
    state["supply"]["waste"] += count


def clean_up(state: State, seat: int, events: list[Event], draw_hand: bool = True) -> None:
    """Hand, play area and gained cards to the discard pile, then draw a fresh hand."""
    player = state["players"][seat]
    # Hand first so the public top of the discard pile is a played or gained card. Every zone is
    # replaced, none changed in place (copying.fork_end shares them with the old state).
    player["discard"] = [*player["discard"], *player["hand"], *player["play"], *player["gained"]]
    player["hand"], player["play"], player["gained"] = [], [], []
    if draw_hand:
        draw(state, seat, RULES["hand_size"], events)


def card_count(player: dict[str, Any]) -> int:
    return sum(len(player[z]) for z in ZONES)


def all_cards(player: dict[str, Any]) -> list[str]:
    return [c for z in ZONES for c in player[z]]
