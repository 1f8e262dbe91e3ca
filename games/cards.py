"""Card zones shared by the deck-building games (Trains, Tramways): draw with reshuffle on
demand, removing named cards from a zone, and counted hand text.

A player is a dict with ``deck``, ``hand`` and ``discard`` lists; decks keep the top card at
the END (``pop()`` draws). Reshuffles use the state's seeded RNG (``state["rng"]``), the only
randomness a game may use, and happen only when a draw needs a card and the deck is empty.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from games.base import Event, State
from games.rng import Rng


def counted(cards: Iterable[str]) -> dict[str, int]:
    """Card -> copies, sorted by card name."""
    out: dict[str, int] = {}
    for card in sorted(cards):
        out[card] = out.get(card, 0) + 1
    return out


def counted_text(cards: Iterable[str], name_of: Callable[[str], str]) -> str:
    """'2x Normal Train, Lay Rails' (sorted, counted) or 'empty'."""
    return ", ".join(f"{n}x {name_of(c)}" if n > 1 else name_of(c) for c, n in counted(cards).items()) or "empty"


def reshuffle(state: State, player: dict[str, Any], name: str, events: list[Event]) -> bool:
    """The discard pile becomes the new deck (shuffled); False when there is nothing to shuffle."""
    if not player["discard"]:
        return False
    rng = Rng(state["rng"])
    player["deck"] = rng.shuffled(player["discard"])
    state["rng"] = rng.state
    player["discard"] = []
    events.append({"text": f"{name} shuffles their discard pile into a new deck.", "irreversible": True})
    return True


def top_card(state: State, player: dict[str, Any], name: str, events: list[Event]) -> str | None:
    """The top card of the deck (reshuffling if the deck is empty); None when no cards are left."""
    if not player["deck"] and not reshuffle(state, player, name, events):
        return None
    card: str = player["deck"][-1]
    return card


def draw(
    state: State,
    seat: int,
    player: dict[str, Any],
    count: int,
    events: list[Event],
    name_of: Callable[[str], str],
) -> list[str]:
    """Draw up to ``count`` cards into the hand, reshuffling on demand; stops when deck and discard
    are both empty. The public event says how many; the private one, to ``seat``, says which."""
    name = state["names"][seat]
    deck = player["deck"]
    if 0 < count <= len(deck):  # no reshuffle can happen: the top cards at once, top card first
        drawn = deck[: -count - 1 : -1]
        del deck[-count:]
    else:
        drawn = []
        for _ in range(count):
            if top_card(state, player, name, events) is None:
                break
            drawn.append(player["deck"].pop())
    player["hand"].extend(drawn)
    if count:
        short = "" if len(drawn) == count else " (no cards left to draw)"
        events.append(
            {"text": f"{name} draws {len(drawn)} card{'s' if len(drawn) != 1 else ''}{short}.", "irreversible": True}
        )
        if drawn:
            listed = ", ".join(name_of(c) for c in drawn)
            events.append({"private": {"seat": seat, "text": f"You drew: {listed}."}, "irreversible": True})
    return drawn


def remove_cards(zone: list[str], cards: Iterable[str]) -> bool:
    """Remove each listed card once from ``zone`` (latest copies first); False (and ``zone``
    unchanged) if any is missing."""
    wanted = list(cards)
    needed = counted(wanted)
    if any(zone.count(c) < n for c, n in needed.items()):
        return False
    for c in wanted:
        index = len(zone) - 1 - zone[::-1].index(c)
        del zone[index]
    return True


def redeal_hidden(player: dict[str, Any], rng: Rng) -> None:
    """Deal the player's hand and deck afresh from their pooled cards (sizes kept): what a seat's
    secrets could have been, for the conformance suite's hidden-information check."""
    pool = rng.shuffled([*player["hand"], *player["deck"]])
    cut = len(player["hand"])
    player["hand"], player["deck"] = pool[:cut], pool[cut:]
