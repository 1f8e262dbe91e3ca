"""Storage throughput: moves/s through storage.Store vs a raw sqlite3 baseline in the same run.

Each move is what the host does: one transaction that writes the new state (a real Tiny Towns
state), bumps the version under a version check and appends one move row. Prints JSON.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import tempfile
import time
from pathlib import Path

import games
from storage import MoveRecord, Store
from storage.db import dumps

MOVES = 3000


def _state() -> dict:
    spec = games.get_game("tiny-towns")
    return spec.setup(["ann", "bob", "cat", "dan"], {o.name: o.default for o in spec.options}, 1)


async def through_store(path: Path, state: dict) -> float:
    store = await Store.open(path)
    game = await store.create_game("g", "c", "tiny-towns", "u", "ann", {}, "1")
    version = game.version
    start = time.perf_counter()
    for i in range(MOVES):
        state["round"] = i
        version = await store.update_game(game.id, version, state=state, move=MoveRecord(0, "u", f"/tt place A{i}"))
    elapsed = time.perf_counter() - start
    await store.close()
    return MOVES / elapsed


def raw_sqlite(path: Path, state: dict) -> float:
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, state TEXT, version INTEGER, updated_at REAL)")
    db.execute(
        "CREATE TABLE moves (game_id INTEGER, seq INTEGER, seat INTEGER, user_id TEXT, text TEXT, "
        "created_at REAL, PRIMARY KEY (game_id, seq))"
    )
    db.execute("INSERT INTO games (id, state, version, updated_at) VALUES (1, '{}', 0, 0)")
    start = time.perf_counter()
    for i in range(MOVES):
        state["round"] = i
        db.execute("BEGIN IMMEDIATE")
        cur = db.execute(
            "UPDATE games SET state = ?, version = version + 1, updated_at = ? WHERE id = 1 AND version = ?",
            (dumps(state), time.time(), i),
        )
        assert cur.rowcount == 1
        db.execute("INSERT INTO moves VALUES (1, ?, 0, 'u', ?, ?)", (i + 1, f"/tt place A{i}", time.time()))
        db.execute("COMMIT")
    elapsed = time.perf_counter() - start
    db.close()
    return MOVES / elapsed


def main() -> None:
    state = _state()
    with tempfile.TemporaryDirectory() as tmp:
        store_rate = asyncio.run(through_store(Path(tmp) / "store.db", state))
        raw_rate = raw_sqlite(Path(tmp) / "raw.db", state)
    print(
        json.dumps(
            {
                "moves": MOVES,
                "state_bytes": len(dumps(state)),
                "store_moves_per_s": round(store_rate),
                "raw_sqlite3_moves_per_s": round(raw_rate),
                "store_to_raw_ratio": round(store_rate / raw_rate, 3),
                "target_moves_per_s": 1000,
            }
        )
    )


if __name__ == "__main__":
    main()
