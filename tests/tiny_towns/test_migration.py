"""Migration 0004: Tiny Towns states stored with the old "players" key load and play on as "names"."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import aiosqlite

from games.tiny_towns import GAME
from storage import Store
from storage.db import dumps
from storage.migrate import available, migrate
from tests.tiny_towns.helpers import at_place_phase, play

MIGRATION = 4


def mid_game_state() -> dict[str, Any]:
    """A real state a few moves into round 1 (resource named, one cube placed), in today's shape."""
    state = at_place_phase(GAME.setup(["ann", "bob", "cat"], {"buildings": "first-game", "cave": True}, 3))
    state, _ = play(state, 0, "/tt place B2")
    return state


def old_shape(state: dict[str, Any]) -> dict[str, Any]:
    """The same state as the engine wrote it before the rename: names under "players"."""
    old = {key: value for key, value in state.items() if key != "names"}
    old["players"] = list(state["names"])
    return old


async def insert_game(db: aiosqlite.Connection, channel: str, game: str, status: str, state: Any) -> int:
    cursor = await db.execute(
        "INSERT INTO games (guild_id, channel_id, game, status, host_id, rules_version, state, created_at, "
        "updated_at) VALUES ('g', ?, ?, ?, 'u', '1', ?, 0, 0)",
        (channel, game, status, None if state is None else dumps(state)),
    )
    return int(cursor.lastrowid or 0)


async def stored_state(store: Store, game_id: int) -> dict[str, Any] | None:
    row = await store.get_game(game_id)
    assert row is not None
    return row.state


async def test_old_tiny_towns_states_are_renamed_and_play_on(tmp_path: Path) -> None:
    assert MIGRATION in [number for number, _ in available()]
    fresh = mid_game_state()
    # Trains keeps per-player records under "players": another game's key must stay untouched.
    trains_state = {"names": ["ann", "bob"], "players": [{"hand": []}, {"hand": []}]}
    path = tmp_path / "old.db"
    async with aiosqlite.connect(path) as db:
        assert await migrate(db, target=MIGRATION - 1) == MIGRATION - 1
        active = await insert_game(db, "c1", "tiny-towns", "active", old_shape(fresh))
        finished = await insert_game(db, "c2", "tiny-towns", "finished", old_shape(fresh))
        lobby = await insert_game(db, "c3", "tiny-towns", "lobby", None)
        current = await insert_game(db, "c4", "tiny-towns", "active", fresh)  # already in the new shape
        trains = await insert_game(db, "c5", "trains", "active", trains_state)
        await db.commit()

    store = await Store.open(path)  # runs the remaining migrations, as the bot does at start
    try:
        states = {gid: await stored_state(store, gid) for gid in (active, finished, lobby, current, trains)}
        async with store.connection.execute(
            "SELECT json_type(state, '$.names') FROM games WHERE id = ?", (active,)
        ) as cursor:
            assert await cursor.fetchone() == ("array",)  # not the array's text stored as a string
    finally:
        await store.close()

    for gid in (active, finished, current):
        assert states[gid] == fresh, gid
    assert states[lobby] is None
    assert states[trains] == trains_state

    # The migrated state is the engine's own: the same legal moves, and moves apply exactly as on a fresh state.
    state = states[active]
    assert state is not None and "players" not in state and state["names"] == ["ann", "bob", "cat"]
    for seat in range(3):
        assert GAME.legal_moves(state, seat) == GAME.legal_moves(fresh, seat)
    for seat, text in ((1, "/tt place C3"), (2, "/tt place A1"), (0, "/tt done")):
        state, events = play(state, seat, text)
        fresh, expected = play(fresh, seat, text)
        assert json.dumps(state, sort_keys=True) == json.dumps(fresh, sort_keys=True)
        assert events == expected
    assert GAME.view(state, 0)["names"] == ["ann", "bob", "cat"]


async def test_a_corrupt_state_does_not_stop_the_migration(tmp_path: Path) -> None:
    path = tmp_path / "bad.db"
    async with aiosqlite.connect(path) as db:
        await migrate(db, target=MIGRATION - 1)
        await db.execute(
            "INSERT INTO games (guild_id, channel_id, game, status, host_id, rules_version, state, created_at, "
            "updated_at) VALUES ('g', 'c', 'tiny-towns', 'aborted', 'u', '1', '{not json', 0, 0)"
        )
        await db.commit()
        assert await migrate(db) >= MIGRATION
        async with db.execute("SELECT state FROM games") as cursor:
            assert await cursor.fetchone() == ("{not json",)
