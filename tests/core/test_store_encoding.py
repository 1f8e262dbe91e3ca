"""How the Store encodes what it compresses (states, archived move logs): orjson, with the json module
for what orjson refuses; every value reads back as the json module would have stored it."""

from __future__ import annotations

import json
import zlib

import pytest

from storage.db import compress, dumps


@pytest.mark.parametrize(
    "value",
    [
        {"seed": 2**70, "round": 3},  # beyond 64 bits: orjson refuses, json writes it
        {"é": "ü ☃", "nested": {"b": [1, 2.5, None, True], "a": "x"}},
        {"z": 1, "a": {"y": [{"k": "v"}], "b": -3}},
        {"1": "text keys", "towns": [[None] * 4] * 4},
    ],
)
def test_a_compressed_value_reads_back_as_the_json_module_would_store_it(value):
    stored = zlib.decompress(compress(value))
    assert json.loads(stored) == json.loads(dumps(value))


def test_keys_that_are_not_text_fall_back_to_the_json_module():
    assert json.loads(zlib.decompress(compress({2: "two", 1: "one"}))) == {"1": "one", "2": "two"}


def test_keys_are_sorted_so_equal_values_compress_alike():
    assert compress({"b": 1, "a": {"d": 2, "c": 3}}) == compress({"a": {"c": 3, "d": 2}, "b": 1})
    assert zlib.decompress(compress({"b": 1, "a": 0})) == b'{"a":0,"b":1}'
