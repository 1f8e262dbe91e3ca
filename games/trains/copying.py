"""The Trains state copy ``apply`` works on: an explicit copy of the known layout.

Every list and dict is copied except the seat lists under ``rails``, which the engine replaces
rather than changes in place (board.lay_rail, rules.kick), so they are shared. Strings and
numbers are shared. Lists of card names are copied flat, anything else deeply
(games/json_copy.py), so the copy equals a JSON round trip at a fraction of its cost.
"""

from __future__ import annotations

from typing import Any

from games.base import State
from games.json_copy import deep_copy

# Player fields that hold card names only.
_CARD_LISTS = frozenset({"deck", "hand", "discard", "play", "gained"})
# Top-level fields that hold only names and numbers (card -> count, hex -> stations, ...).
_FLAT = frozenset({"names", "kingdom", "piles", "supply", "stations", "trash", "end_reasons"})


def _player(player: dict[str, Any]) -> dict[str, Any]:
    new = player.copy()
    for key, value in player.items():
        if key in _CARD_LISTS and type(value) is list:
            new[key] = value.copy()
        elif type(value) is list or type(value) is dict:
            new[key] = deep_copy(value)
    return new


def clone(state: State) -> State:
    new = state.copy()
    for key, value in state.items():
        if key == "players":
            new[key] = [_player(player) for player in value]
        elif key == "rails" or key in _FLAT:  # rails: hex -> seats (lists replaced, never changed)
            new[key] = value.copy()
        elif type(value) is list or type(value) is dict:
            new[key] = deep_copy(value)
    return new


def fork(state: State, seat: int) -> State:
    """The copy a move by ``seat`` works on: like ``clone``, but only what rules change in place
    is copied: the mover's card lists, the supply counts and the turn. The other players' parts
    are shared (a move changes only its own player's cards and rails: apply checks that ``seat``
    is the seat to act, and every rule takes that seat); so are "names", "kingdom" and "piles"
    (never changed after setup), "end_reasons" (replaced when the game ends) and "rails",
    "stations" and "trash" (replaced whenever a rule adds to them: board.lay_rail,
    board.place_station, effects._trash; most moves add nothing, and rails is the largest dict of
    a state). The purity test in tests/golden fails if a rule ever changes a shared part in place.
    """
    # Every move makes one, so the fields are named one by one rather than looped over.
    try:
        new = state.copy()
        players = state["players"].copy()
        player = players[seat]
        mine = player.copy()
        mine["deck"] = player["deck"].copy()
        mine["hand"] = player["hand"].copy()
        mine["discard"] = player["discard"].copy()
        mine["play"] = player["play"].copy()
        mine["gained"] = player["gained"].copy()
        players[seat] = mine
        new["players"] = players
        new["supply"] = state["supply"].copy()
        turn = new["turn"] = state["turn"].copy()
        turn["waive"] = turn["waive"].copy()
    except (KeyError, AttributeError):  # not the layout setup() makes: copy everything else
        return _fork_any(state, seat)
    return new


def fork_board(state: State, seat: int) -> State:
    """The copy a play that builds works on (laying rails, placing a station: effects._lay_rails,
    _station, _terminal): ``fork`` less the deck and discard pile, which such a play never reads
    or changes (it moves the card to the play area, pays from the turn, replaces the rails or
    stations dict and may gain Waste from the supply)."""
    try:
        new = state.copy()
        players = new["players"] = state["players"].copy()
        player = players[seat]
        mine = players[seat] = player.copy()
        mine["hand"] = player["hand"].copy()
        mine["play"] = player["play"].copy()
        mine["gained"] = player["gained"].copy()
        new["supply"] = state["supply"].copy()
        turn = new["turn"] = state["turn"].copy()
        turn["waive"] = turn["waive"].copy()
    except (KeyError, AttributeError):  # not the layout setup() makes: copy everything else
        return _fork_any(state, seat)
    return new


def fork_plain(state: State, seat: int) -> State:
    """The copy a play of a card without effect (or with its effect skipped) works on: such a play
    moves the card from the hand to the play area and adds to the turn's money (effects.play_card,
    _play_once), so only the hand, the play area and the turn are copied, besides the state, the
    player list and the mover's player. Normal trains are the most played cards."""
    try:
        new = state.copy()
        players = new["players"] = state["players"].copy()
        player = players[seat]
        mine = players[seat] = player.copy()
        mine["hand"] = player["hand"].copy()
        mine["play"] = player["play"].copy()
        new["turn"] = state["turn"].copy()  # its waive list is shared: such a play waives nothing
    except (KeyError, AttributeError):  # not the layout setup() makes: copy everything else
        return _fork_any(state, seat)
    return new


def fork_end(state: State, seat: int) -> State:
    """The copy an "end" move works on: ``fork`` less what ending a turn leaves alone. Clean-up
    (deck.clean_up, deck.draw) replaces every zone of the mover with a new list rather than
    changing one in place (the new deck is a slice of the old one; a reshuffle makes a new deck
    and discard pile); the turn is replaced (rules.new_turn) and the supply is not touched. So
    only the state, the player list and the mover's player are copied; an end of turn is the most
    frequent move after playing a card.
    """
    try:
        new = state.copy()
        players = new["players"] = state["players"].copy()
        players[seat] = players[seat].copy()
    except (KeyError, AttributeError):  # not the layout setup() makes: copy everything else
        return _fork_any(state, seat)
    return new


def _fork_any(state: State, seat: int) -> State:
    new = state.copy()
    for key, value in state.items():
        if key == "players":
            players = list(value)
            players[seat] = _player(players[seat])
            new[key] = players
        elif key == "rails" or key in _FLAT:
            new[key] = value.copy()
        elif type(value) is list or type(value) is dict:
            new[key] = deep_copy(value)
    return new
