"""Deep copies of JSON-shaped game data without a JSON round trip.

States hold only JSON types (dicts with string keys, lists, str, int, float, bool, None). A copy
made here is equal to ``json.loads(json.dumps(value))`` and serialises to the same text (key order
is kept); strings and numbers are immutable, so they are shared rather than copied. Engines use
``deep_copy`` for the parts of a state they do not know the layout of, and plain ``list.copy`` /
``dict.copy`` where they know a list holds only strings or numbers.
"""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")
_SCALARS = (str, int, float, bool, type(None))


def deep_copy(value: T) -> T:
    kind = type(value)
    if kind is dict:
        return {key: item if type(item) in _SCALARS else deep_copy(item) for key, item in value.items()}  # type: ignore[attr-defined,return-value]
    if kind is list:
        return [item if type(item) in _SCALARS else deep_copy(item) for item in value]  # type: ignore[attr-defined,return-value]
    return value


def copy_flat(value: Any) -> Any:
    """One level: a list or dict whose items are scalars (a deck of card names, seats on a hex)."""
    return value.copy() if type(value) in (list, dict) else value
