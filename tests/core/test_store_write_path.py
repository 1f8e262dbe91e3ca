"""Where a SQLite write runs: a small one on the event loop's thread (no hop to the database thread),
but nothing that can wait there: a write lock held by another process is waited for on the database
thread, and the WAL is checkpointed there (SQLite's automatic checkpoint would run inside a COMMIT)."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from pathlib import Path

from storage import Announcement, MoveRecord, NewTimer, Store
from storage.db import CHECKPOINT_EVERY


async def test_a_write_waits_for_another_processs_write_lock_without_stopping_the_event_loop(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "c.db")
    try:
        game = await store.create_game("g", "c", "tiny-towns", "u", "ann", {}, "1")
        other = sqlite3.connect(tmp_path / "c.db", isolation_level=None)  # another process's connection
        other.execute("BEGIN IMMEDIATE")
        write = asyncio.create_task(store.commit(game, state={"round": 2}, moves=[MoveRecord(0, "u", "/tt place A1")]))
        start = time.perf_counter()
        for _ in range(10):  # the loop keeps serving other commands meanwhile
            await asyncio.sleep(0.01)
        assert time.perf_counter() - start < 1.0  # not stopped behind the write (busy timeout: 5 s)
        assert not write.done()  # waiting for the lock, not failed
        other.execute("COMMIT")
        other.close()
        written, _ = await asyncio.wait_for(write, 5)
        assert written.version == game.version + 1
        reread = await store.get_game(game.id)
        assert reread is not None and reread.state == {"round": 2} and reread.version == written.version
        assert [m.text for m in await store.moves(game.id)] == ["/tt place A1"]
    finally:
        await store.close()


async def test_moves_are_written_on_the_loop_and_the_wal_is_checkpointed_on_the_database_thread(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "w.db")
    try:
        seen: list[tuple[int, str]] = []
        await store.connection.set_trace_callback(lambda sql: seen.append((threading.get_ident(), sql)))
        game = await store.create_game("g", "c", "tiny-towns", "u", "ann", {}, "1")
        loop_thread = threading.get_ident()
        writes = 3 * CHECKPOINT_EVERY + 1  # the 201st, 401st and 601st check first
        for i in range(writes - 1):  # and create_game
            game, _ = await store.commit(
                game,
                state={"board": [i] * 200},
                moves=[MoveRecord(0, "u", f"/tt place A{i % 4 + 1}")],
                cancel_timers=("reminder",),
                add_timers=[NewTimer("reminder", 1e12, {"version": game.version + 1})],
                announce=Announcement("ann places wood on A1.", [], True),
            )
        begins = [thread for thread, sql in seen if sql == "BEGIN IMMEDIATE"]
        assert begins == [loop_thread] * writes
        checkpoints = [thread for thread, sql in seen if "wal_checkpoint" in sql]
        assert len(checkpoints) == 3 and loop_thread not in checkpoints
        # Without them the WAL would hold every write's pages: about 15 MB here.
        assert (tmp_path / "w.db-wal").stat().st_size < 8_000_000
    finally:
        await store.close()


async def test_a_move_replaces_its_turn_timers_without_reading_every_games_timers(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "p.db")
    try:
        statement = "DELETE FROM timers WHERE game_id = ? AND kind IN (?, ?)"  # as Store.commit cancels them
        async with store.connection.execute(f"EXPLAIN QUERY PLAN {statement}", (1, "reminder", "deadline")) as c:
            plan = " ".join(str(row[-1]) for row in await c.fetchall())
        assert "USING INDEX timers_by_game" in plan, plan
    finally:
        await store.close()
