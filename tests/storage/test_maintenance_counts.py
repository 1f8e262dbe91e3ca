"""``maintain`` (``conductor vacuum``) on each backend, figure by figure: which states it compresses (not a
damaged one), which move logs it archives (merged with an archive already there), which announcements and
timers it prunes (not pending ones, not an open game's), the sizes it reports, and the space it gives back."""

from __future__ import annotations

import json
import os

from storage import AnyStore, Maintenance, MoveRecord, Store, is_postgres
from storage.db import compress
from tests.storage.conftest import rows

BIG = {"cells": ["wood"] * 4000, "note": "x" * 20000}


async def test_maintain_compresses_archives_and_prunes_exactly_what_it_should(clocked: AnyStore, store_target: str):
    made = [await clocked.create_game("g", f"c{i}", "tiny-towns", "u1", "ann", {}, "1") for i in range(5)]
    text_state, damaged, finished, aborted, active = (g.id for g in made)
    for gid in made:
        await clocked.update_game(gid.id, 0, move=MoveRecord(0, "u1", f"/tt first {gid.id}"))
        await clocked.update_game(gid.id, 1, move=MoveRecord(0, "u1", f"/tt second {gid.id}"))
    # Written before migration 7: states as JSON text, closed games' moves still in rows.
    # The damaged state first: PostgreSQL scans rows in the order they were last written, so the damaged
    # one comes before the sound ones there too, and a stop at it would leave them uncompressed.
    await clocked._write("UPDATE games SET state = '{broken' WHERE id = ?", (damaged,))
    await clocked._write(
        "UPDATE games SET state = ?, status = 'active' WHERE id = ?", ('{"big": "' + "y" * 60000 + '"}', text_state)
    )
    await clocked._write("UPDATE games SET state = ? WHERE id = ?", ('{"n": 2}', active))
    await clocked._write("UPDATE games SET status = 'finished' WHERE id = ?", (finished,))
    await clocked._write("UPDATE games SET status = 'aborted' WHERE id = ?", (aborted,))
    # The aborted game already has an archive (its first move): the rows left are merged into it.
    archived_first = (await clocked.moves(aborted))[:1]
    await clocked._write("DELETE FROM moves WHERE game_id = ? AND seq = 1", (aborted,))
    await clocked._write(
        "INSERT INTO moves_archive (game_id, moves, count) VALUES (?, ?, 1)",
        (
            aborted,
            compress([[1, 0, "u1", f"/tt first {aborted}", 0, 0, 1000.0]]),
        ),
    )
    for gid, posted in ((finished, 5.0), (active, 6.0), (active, None), (aborted, None)):
        await clocked._write(
            "INSERT INTO outbox (game_id, version, text, created_at, posted_at) VALUES (?, 1, 'x', 0, ?)", (gid, posted)
        )
    for gid in (finished, aborted, aborted, active, None):
        await clocked.add_timer("reminder", 1.0, gid)
    logs = {gid: await clocked.moves(gid, include_reverted=True) for gid in (finished, aborted, active)}
    assert logs[aborted][:1] == archived_first

    before = await clocked.size()
    done = await clocked.maintain()
    assert done == Maintenance(2, 2, 2, 3, before, await clocked.size())
    assert await rows(clocked, "SELECT id, state IS NULL, state_z IS NULL FROM games ORDER BY id") == [
        (text_state, True, False), (damaged, False, True), (finished, True, True), (aborted, True, True),
        (active, True, False),
    ]  # fmt: skip
    assert (await clocked.get_game(text_state)).state == {"big": "y" * 60000}
    assert (await clocked.get_game(active)).state == {"n": 2}
    assert (await clocked.get_game(damaged)).damaged == "its saved state cannot be decoded (not valid JSON)"
    assert await rows(clocked, "SELECT game_id, count FROM moves_archive ORDER BY game_id") == [
        (finished, 2),
        (aborted, 2),
    ]
    assert await rows(clocked, "SELECT DISTINCT game_id FROM moves ORDER BY game_id") == [
        (text_state,),
        (damaged,),
        (active,),
    ]
    for gid, log in logs.items():
        assert await clocked.moves(gid, include_reverted=True) == log
    assert await rows(clocked, "SELECT game_id, posted_at FROM outbox ORDER BY id") == [(active, None), (aborted, None)]
    assert await rows(clocked, "SELECT game_id FROM timers ORDER BY id") == [(active,), (None,)]
    # Nothing left to do: a second run changes nothing.
    again = await clocked.maintain()
    assert (again.compressed_states, again.archived_games, again.pruned_outbox, again.pruned_timers) == (0, 0, 0, 0)
    if is_postgres(store_target):  # each changed table was vacuumed and analysed
        vacuumed = await rows(
            clocked,
            "SELECT relname FROM pg_stat_user_tables WHERE last_vacuum IS NOT NULL AND last_analyze IS NOT NULL "
            "ORDER BY relname",
        )
        assert vacuumed == [("games",), ("moves",), ("moves_archive",), ("outbox",), ("timers",)]


async def test_sqlite_maintenance_gives_the_space_back_and_empties_the_write_ahead_log(sqlite_store: Store, tmp_path):
    store = sqlite_store
    games = [await store.create_game("g", f"c{i}", "tiny-towns", "u1", "ann", {}, "1") for i in range(6)]
    for game in games:
        await store._write("UPDATE games SET state = ? WHERE id = ?", (json.dumps(BIG), game.id))
    assert (
        await store.size()
        == (await rows(store, "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()"))[0][0]
    )
    done = await store.maintain()
    assert done.compressed_states == 6 and done.bytes_after * 3 < done.bytes_before
    assert done.bytes_after == await store.size()
    assert os.path.getsize(tmp_path / "test.db-wal") == 0  # checkpointed and truncated
    assert (await store.get_game(games[0].id)).state == BIG
