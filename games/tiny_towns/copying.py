"""Cheap state copies for ``apply``: explicit copies of the known layout, no JSON round trip.

``apply`` must never change the state it was given. Most moves change only the acting seat's
town and a few top-level fields, so ``fork`` copies those and shares the other towns with the old
state; the few places that change other towns (a round ending, the round starting, Opaleye's
Watch claims) call ``own_all_towns`` or ``own_town`` first. Every value in a state is a plain JSON
type, and the copies keep key order, so a copy serialises to exactly the same JSON.
"""

from __future__ import annotations

from typing import Any

from games.base import State
from games.json_copy import deep_copy

Town = dict[str, Any]


def _copy_cell(cell: dict[str, Any] | None) -> dict[str, Any] | None:
    # A square's content is replaced, never changed in place, except a building's: a Warehouse
    # stores cubes and a Cottage takes a Statue cube. So cubes ({"resource": r}) are shared.
    if cell is None or "building" not in cell:
        return cell
    return {key: value if type(value) is str else deep_copy(value) for key, value in cell.items()}


# The town fields and top-level fields that hold lists or dicts (setup.new_town, setup_state); all
# others hold strings, numbers, booleans or None. The purity test (tests/golden) fails if a new
# nested field is missing here. The _FLAT ones are lists of strings (slugs, resources, names), so
# one C-level list copy is a deep copy; the others nest and go through deep_copy.
_TOWN_FLAT = ("cave", "aside", "pending_claims", "monument_options")
_TOP_FLAT = ("names", "buildings")
_TOP_NESTED = ("town_hall", "solo")  # (spelled out again in fork_town)


def copy_town(town: Town) -> Town:
    new = town.copy()
    # _copy_cell's test inlined: most squares are empty or cubes (shared).
    new["cells"] = [cell if cell is None or "building" not in cell else _copy_cell(cell) for cell in town["cells"]]
    for key in _TOWN_FLAT:
        value = town.get(key)
        if value is not None:
            new[key] = value.copy()
    return new


def _copy_top(state: State) -> State:
    """Everything but the towns (names, buildings, the Town Hall or solo deck: all small)."""
    new = state.copy()
    for key in _TOP_FLAT:
        new[key] = state[key].copy()
    for key in _TOP_NESTED:
        value = state.get(key)
        if value is not None:
            new[key] = deep_copy(value)
    return new


def copy_state(state: State) -> State:
    """A copy of everything a move may change (cubes, never changed in place, stay shared)."""
    new = _copy_top(state)
    new["towns"] = [copy_town(town) for town in state["towns"]]
    return new


def fork(state: State, seat: int) -> State:
    """A copy for a move by ``seat``: that seat's town is copied, the other towns are shared."""
    new = _copy_top(state)
    towns = list(state["towns"])
    if 0 <= seat < len(towns):
        towns[seat] = copy_town(towns[seat])
    new["towns"] = towns
    return new


def fork_town(state: State, seat: int) -> State:
    """A cheaper ``fork`` for the moves that only put a cube on an empty square or set the mover's
    own fields (place, announce, done, monument): the mover's town is new, but its list of squares,
    the buildings on them, its other lists and the names and buildings in play are shared with the
    old state. The handlers of those moves replace what they change: the place handler copies the
    list of squares before putting a cube on it (so that the board of the list before, remembered in
    bitboard.town_board, is found), and its Statue of the Bondmaker cube gets a new Cottage entry.
    Store, cave, build and claim change buildings and lists in place and take the full ``fork``.
    The purity test (tests/golden) plays every verb and fails on any leak."""
    new = state.copy()
    # (the _TOP_NESTED loop unrolled: both are None in a standard game)
    hall = state.get("town_hall")
    if hall is not None:
        new["town_hall"] = deep_copy(hall)
    solo = state.get("solo")
    if solo is not None:
        new["solo"] = deep_copy(solo)
    towns = list(state["towns"])
    if 0 <= seat < len(towns):
        towns[seat] = towns[seat].copy()
    new["towns"] = towns
    return new


def own_town(state: State, seat: int) -> Town:
    """Copy ``seat``'s town into ``state`` before changing it (it may be shared after ``fork``)."""
    town = copy_town(state["towns"][seat])
    state["towns"][seat] = town
    return town


def own_all_towns(state: State) -> None:
    """Give every town its own top level before a round ends or starts: those only set a town's
    own fields (placed, done, skipped, pending_claims, complete...), never change its squares or
    lists in place, so the squares and lists stay shared (the acting seat's are already copied)."""
    state["towns"] = [town.copy() for town in state["towns"]]
