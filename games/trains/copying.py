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


# The layout setup() makes (rules.new_turn for "turn"); fork's fast path copies exactly these.
_STATE_KEYS = frozenset(
    {
        "game",
        "rules_version",
        "map",
        "names",
        "kingdom",
        "piles",
        "supply",
        "players",
        "rails",
        "stations",
        "stations_left",
        "trash",
        "phase",
        "current",
        "turn",
        "turn_number",
        "move_number",
        "end_reasons",
        "rng",
    }
)
_TURN_KEYS = frozenset({"money", "played", "bought", "buys", "rails_laid", "waive", "discount", "early"})
_PLAYER_SCALARS = frozenset({"rails_left", "track_vp", "resigned", "start", "kicked"})


def _own_player(player: dict[str, Any]) -> dict[str, Any]:
    # Card lists copied flat, the rest are scalars; any other layout goes the general way.
    if player.keys() - _PLAYER_SCALARS != _CARD_LISTS:
        return _player(player)
    new = player.copy()
    new["deck"] = player["deck"].copy()
    new["hand"] = player["hand"].copy()
    new["discard"] = player["discard"].copy()
    new["play"] = player["play"].copy()
    new["gained"] = player["gained"].copy()
    return new


def fork(state: State, seat: int) -> State:
    """The copy a move by ``seat`` works on: like ``clone``, but the other players' parts and the
    parts rules replace rather than change (see below) are shared with ``state``. A move changes only its own player's cards and rails (apply checks that
    ``seat`` is the seat to act; every rule takes that seat); the purity test in tests/golden
    fails if a rule ever changes another player's part in place."""
    turn = state["turn"]
    if state.keys() != _STATE_KEYS or type(turn) is not dict or turn.keys() != _TURN_KEYS:
        return _fork_any(state, seat)
    # Every move makes one, so the known layout is copied field by field (no loop over the keys).
    new = state.copy()
    players = state["players"].copy()
    players[seat] = _own_player(players[seat])
    new["players"] = players
    new["supply"] = state["supply"].copy()
    # Shared, not copied: "names", "kingdom" and "piles" never change after setup, "end_reasons"
    # is replaced when the game ends, and "rails", "stations" and "trash" are replaced whenever a
    # rule adds to them (board.lay_rail, board.place_station, effects._trash); most moves change
    # none of them, and rails is the largest dict of a state.
    turn = turn.copy()
    turn["waive"] = turn["waive"].copy()
    new["turn"] = turn
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
