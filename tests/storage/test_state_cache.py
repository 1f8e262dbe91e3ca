"""SQLite's decoded-state cache: a state is parsed once per version (the command after a move, and the
autocomplete, read it again); the cache keeps the most recently stored 512 states; and ``state_decodes``,
which the store-cost tests and bench/store_counter.py read, counts exactly the real decodes."""

from __future__ import annotations

from typing import Any

import pytest

import storage.db
from storage import MoveRecord, Store
from storage.db import _remember
from tests.storage.conftest import rows


class Decodes:
    """The saved-state parses the store really does (storage.db._decode_object on a state)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        real = storage.db._decode_object

        def counting(text: Any, what: str) -> Any:
            if what == "saved state":
                self.count += 1
            return real(text, what)

        monkeypatch.setattr(storage.db, "_decode_object", counting)


async def test_state_decodes_counts_exactly_the_real_decodes(sqlite_store: Store, monkeypatch: pytest.MonkeyPatch):
    store = sqlite_store
    decodes = Decodes(monkeypatch)

    def both() -> tuple[int, int]:
        return decodes.count, store.state_decodes

    lobby = await store.create_game("g", "c", "tiny-towns", "1", "ann", {}, "1")
    start = both()
    assert (await store.get_game(lobby.id)).state is None  # no state: nothing to decode
    assert both() == start
    committed, _ = await store.commit(lobby, state={"round": 1}, moves=[MoveRecord(0, "1", "/tt place A1")])
    assert (await store.get_game(lobby.id)).state == {"round": 1}  # kept from the commit: not parsed again
    assert both() == start
    # Written by another process (a new version): inflated and parsed once, then kept.
    await store._write("UPDATE games SET version = version + 1 WHERE id = ?", (lobby.id,))
    for _ in range(2):
        assert (await store.get_game(lobby.id)).state == {"round": 1}
    assert both() == (start[0] + 1, start[1] + 1)
    # Plain JSON text in the state column (a row from before compression, or mended by hand) is parsed on
    # every read, even though a state of this very version is kept from the compressed column.
    await store._write("UPDATE games SET state = '{\"round\": 7}', state_z = NULL WHERE id = ?", (lobby.id,))
    for _ in range(2):
        assert (await store.get_game(lobby.id)).state == {"round": 7}
    assert both() == (start[0] + 3, start[1] + 3)
    assert committed.version == 1


def test_the_cache_keeps_the_most_recently_stored_states(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(storage.db, "STATE_CACHE_SIZE", 3)
    cache: dict[int, tuple[int, dict[str, Any]]] = {}
    for game_id in (1, 2, 3):
        _remember(cache, game_id, 1, {"g": game_id})
    assert list(cache) == [1, 2, 3]  # full, nothing dropped yet
    _remember(cache, 1, 2, {"g": 1, "v": 2})  # stored again: now the most recent
    assert list(cache) == [2, 3, 1] and cache[1] == (2, {"g": 1, "v": 2})
    _remember(cache, 4, 1, {"g": 4})  # one too many: the least recently stored goes
    assert list(cache) == [3, 1, 4]


async def test_json_text_in_the_state_column_wins_over_a_compressed_state(sqlite_store: Store):
    """A row mended by hand: JSON text written into ``state`` while an older compressed ``state_z`` is still
    there. The text is the state, as the schema's comment says; the compressed one is not read."""
    store = sqlite_store
    game = await store.create_game("g", "c", "tiny-towns", "1", "ann", {}, "1")
    await store.commit(game, state={"round": 1})
    await store._write("UPDATE games SET state = '{\"round\": 7}' WHERE id = ?", (game.id,))
    both = "SELECT state IS NOT NULL, state_z IS NOT NULL FROM games WHERE id = ?"
    assert await rows(store, both, (game.id,)) == [(1, 1)]
    assert (await store.get_game(game.id)).state == {"round": 7}
