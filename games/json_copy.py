"""Deep copies of JSON-shaped game data without a JSON round trip.

States hold only JSON types (dicts with string keys, lists, str, int, float, bool, None). A copy
made here is equal to ``json.loads(json.dumps(value))`` and serialises to the same text (key order
is kept); strings and numbers are immutable, so they are shared rather than copied. Engines use
``deep_copy`` for the parts of a state they do not know the layout of, and plain ``list.copy`` /
``dict.copy`` where they know a list holds only strings or numbers.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

T = TypeVar("T")


def deep_copy(value: T) -> T:
    # A C-level shallow copy first, then only the nested lists and dicts replaced: most items of
    # a state are strings and numbers, and this is the fastest pure-Python way to skip them.
    kind = type(value)
    if kind is dict:
        out: Any = value.copy()  # type: ignore[attr-defined]
        for key, item in value.items():  # type: ignore[attr-defined]
            sub = type(item)
            if sub is dict or sub is list:
                out[key] = deep_copy(item)
        return out
    if kind is list:
        out = value.copy()  # type: ignore[attr-defined]
        for i, item in enumerate(value):  # type: ignore[arg-type]
            sub = type(item)
            if sub is dict or sub is list:
                out[i] = deep_copy(item)
        return out
    return value


def copy_flat(value: Any) -> Any:
    """One level: a list or dict whose items are scalars (a deck of card names, seats on a hex)."""
    return value.copy() if type(value) in (list, dict) else value


# ---------------------------------------------------------------- copy on write for apply
#
# An engine's apply may share parts of the old state with the new one (most moves change one
# player's part) and copy a shared part only when a rule changes it. ``sharing`` lists, for the
# duration of one apply, the objects still shared with the old state; ``own_items`` copies those
# of a list in place (the objects the mover already holds keep their identity, so a handler that
# kept a reference to its own part still writes into the new state). Outside ``sharing`` nothing
# is shared and ``own_items`` does nothing. A ContextVar keeps concurrent applies apart.

_SHARED: ContextVar[set[int] | None] = ContextVar("json_copy_shared", default=None)


@contextmanager
def sharing(objects: Iterable[Any]) -> Iterator[None]:
    """Within the block, ``objects`` (kept alive by the old state) count as shared."""
    token = _SHARED.set({id(item) for item in objects})
    try:
        yield
    finally:
        _SHARED.reset(token)


def own_items(items: list[Any]) -> None:
    """Replace every item of ``items`` still shared with the old state by its own deep copy."""
    shared = _SHARED.get()
    if not shared:
        return
    for i, item in enumerate(items):
        if id(item) in shared:
            shared.discard(id(item))
            items[i] = deep_copy(item)


def own_item(items: list[Any], index: int) -> Any:
    """``items[index]``, first replaced by its own deep copy if still shared with the old state."""
    item = items[index]
    shared = _SHARED.get()
    if shared and id(item) in shared:
        shared.discard(id(item))
        item = items[index] = deep_copy(item)
    return item


def fork(state: dict[str, Any], key: str, index: int) -> dict[str, Any]:
    """A copy of ``state`` for a move that changes ``state[key][index]`` (a player's or a town's
    part): that item is copied, the other items of ``state[key]`` are shared (list them with
    ``sharing`` while the move runs), everything else is copied. Key order is kept."""
    new: dict[str, Any] = {}
    for name, value in state.items():
        if name == key:
            items = list(value)
            if 0 <= index < len(items):
                items[index] = deep_copy(items[index])
            new[name] = items
        else:
            new[name] = deep_copy(value)
    return new


def shared_items(state: dict[str, Any], key: str, index: int) -> Iterator[Any]:
    """The items of ``state[key]`` that ``fork(state, key, index)`` shares."""
    return (item for i, item in enumerate(state[key]) if i != index)
