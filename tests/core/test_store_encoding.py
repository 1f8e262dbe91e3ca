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


def _seeded_texts() -> list[bytes]:
    """The JSON of states along seeded level-0 bot games of every game (2 to 4 players), and of
    move logs of growing length (archived logs reach tens of KB): what ``compress`` is given."""
    import orjson

    import games
    from games.options import defaults

    texts: list[bytes] = []
    for slug in ("tiny-towns", "trains", "tramways", "trolley-town"):
        spec = games.get_game(slug)
        for seed in range(3):
            players = ["ann", "bob", "cat", "dan"][: 2 + seed]
            state = spec.setup(players, defaults(spec.options), seed)
            for step in range(120):
                status = spec.status(state)
                if status.finished or not status.to_act:
                    break
                seat = status.to_act[0]
                state, _ = spec.apply(state, seat, spec.bot_move(state, seat, 0))
                if step % 7 == 0:
                    texts.append(orjson.dumps(state, option=orjson.OPT_SORT_KEYS))
    log = [[seq, seq % 4, f"u{seq % 4}", f"/tt place A{seq % 4 + 1}", 0, 0, 1.7e9 + seq] for seq in range(2000)]
    texts += [orjson.dumps(log[:count]) for count in (1, 10, 100, 400, 2000)]
    return texts


def test_deflate_is_zlib_compress_at_least_as_small_on_seeded_states_and_logs():
    """``deflate`` (tables sized to the text) against its plain definition, zlib.compress at
    COMPRESSION_LEVEL: the same text back through zlib.decompress, never a longer output."""
    from storage.db import COMPRESSION_LEVEL, deflate

    texts = _seeded_texts()
    assert len(texts) > 100 and min(map(len, texts)) < 200 and max(map(len, texts)) > 32_768
    for text in texts:
        fast, plain = deflate(text), zlib.compress(text, COMPRESSION_LEVEL)
        assert zlib.decompress(fast) == text
        assert len(fast) <= len(plain), (len(text), len(fast), len(plain))


def test_updated_builds_what_dataclasses_replace_builds_on_seeded_rows_and_changes():
    """``storage.db.updated`` (the row Store.commit returns) against its plain definition,
    dataclasses.replace: equal rows, field for field, for seeded rows and every subset of changes
    commit makes; the row changed from is left as it was; an unknown field is refused like replace."""
    import dataclasses
    import random

    from storage.db import GameRow, updated

    rng = random.Random(7)
    for _ in range(300):
        row = GameRow(
            id=rng.randrange(1, 10**6),
            guild_id=str(rng.randrange(10**17)),
            channel_id=str(rng.randrange(10**17)),
            game=rng.choice(["tiny-towns", "trains", "tramways", "trolley-town"]),
            status=rng.choice(["lobby", "active", "finished", "aborted"]),
            host_id=str(rng.randrange(100)),
            options={"monuments": rng.choice(["on", "off"])},
            seed=rng.choice([None, rng.randrange(2**62)]),
            rules_version="1",
            state=rng.choice([None, {"round": rng.randrange(20)}]),
            version=rng.randrange(500),
            created_at=rng.random() * 1e9,
            updated_at=rng.random() * 1e9,
            paused=rng.random() < 0.5,
            damaged=rng.choice([None, "its seed is not a whole number"]),
            salt=rng.choice([None, "s"]),
            commitment=rng.choice([None, "c"]),
            listing=rng.choice([None, "a line"]),
        )
        before = dataclasses.asdict(row)
        candidates = {
            "version": row.version + 1,
            "updated_at": rng.random() * 1e9,
            "state": {"round": rng.randrange(20)},
            "status": rng.choice(["active", "finished", "aborted"]),
            "seed": rng.randrange(2**62),
            "host_id": str(rng.randrange(100)),
            "paused": rng.random() < 0.5,
            "salt": "t",
            "commitment": "d",
            "listing": "another line",
        }
        changes = {k: v for k, v in candidates.items() if rng.random() < 0.5}
        fast, plain = updated(row, changes), dataclasses.replace(row, **changes)
        assert fast == plain and dataclasses.asdict(fast) == dataclasses.asdict(plain)
        assert dataclasses.asdict(row) == before
    with pytest.raises(TypeError) as refused:
        updated(row, {"colour": "red", "size": 1, "state": {}})
    assert str(refused.value) == "GameRow has no field 'colour'"  # the first unknown one by name
