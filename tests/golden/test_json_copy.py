"""games/json_copy.py: copies equal a JSON round trip, share nothing mutable, and copy on write."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from games.json_copy import deep_copy, fork, own_item, own_items, shared_items, sharing

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=4), children, max_size=4),
    max_leaves=30,
)


def _containers(value: Any) -> list[int]:
    """ids of every list and dict inside ``value``."""
    if isinstance(value, dict):
        return [id(value), *(i for item in value.values() for i in _containers(item))]
    if isinstance(value, list):
        return [id(value), *(i for item in value for i in _containers(item))]
    return []


@given(json_values)
def test_deep_copy_is_a_json_round_trip_sharing_nothing_mutable(value: Any) -> None:
    copy = deep_copy(value)
    assert json.dumps(copy) == json.dumps(value)
    assert copy == json.loads(json.dumps(value))
    assert not set(_containers(copy)) & set(_containers(value))


@given(st.lists(st.dictionaries(st.text(max_size=3), json_values, max_size=3), min_size=1, max_size=4), st.data())
def test_fork_copies_one_item_and_shares_the_others(items: list[dict[str, Any]], data: st.DataObject) -> None:
    state = {"a": [1, [2]], "players": items, "z": {"k": [3]}}
    index = data.draw(st.integers(0, len(items) - 1))
    new = fork(state, "players", index)
    assert json.dumps(new) == json.dumps(state)
    assert new["players"][index] is not items[index]
    assert all(new["players"][i] is items[i] for i in range(len(items)) if i != index)
    assert new["a"] is not state["a"] and new["a"][1] is not state["a"][1] and new["z"]["k"] is not state["z"]["k"]
    before = json.dumps(state)
    with sharing(shared_items(state, "players", index)):
        mine = new["players"][index]
        assert own_item(new["players"], index) is mine  # already its own: identity kept
        own_items(new["players"])
        for item in new["players"]:
            item["changed"] = True
    assert json.dumps(state) == before
    assert new["players"][index] is mine


def test_outside_sharing_nothing_is_copied() -> None:
    items = [{"x": 1}, {"y": [2]}]
    first = items[0]
    own_items(items)
    assert own_item(items, 1) is items[1] and items[0] is first
