"""``commit`` (one command's whole change) on each backend, row by row: every column, the seats, the moves
appended and reverted, the timers cancelled and added, the announcement, the notes, the listing; the row it
returns is the row stored; a stale commit writes nothing; a closing commit archives, and a commit with moves
on a closed game brings its log back first."""

from __future__ import annotations

from dataclasses import replace

import pytest

from storage import Announcement, AnyStore, MoveRecord, MoveRow, NewTimer, OutboxRow, SeatRow, StaleVersion
from tests.storage.conftest import Clock, rows

COLUMNS = "status, seed, host_id, paused, salt, commitment, listing, waiting, version, updated_at, state IS NULL"


async def test_a_commit_writes_every_part_and_returns_the_row_it_stored(clocked: AnyStore, clock: Clock):
    game = await clocked.create_game("g", "c", "tiny-towns", "1", "ann", {"o": 1}, "1")
    other = await clocked.create_game("g", "c2", "tiny-towns", "1", "ann", {}, "1")
    await clocked.add_timer("reminder", 5.0, other.id)
    await clocked._write("UPDATE games SET state = ? WHERE id = ?", ('{"old": true}', game.id))
    clock.now = 1100.0
    seats = [SeatRow(0, "1", "ann", "human", 1), SeatRow(1, "2", "bob", "human", 1)]
    committed, outbox = await clocked.commit(
        game,
        state={"round": 1},
        status="active",
        seed=77,
        host_id="2",
        paused=True,
        seats=seats,
        moves=[MoveRecord(0, "1", "/tt announce wood"), MoveRecord(1, "2", "/tt place A1", True)],
        add_timers=[NewTimer("reminder", 50.0, {"seat": 1}), NewTimer("deadline", 60.0, {})],
        salt="pepper",
        commitment="abc123",
        announce=Announcement("ann names wood", ["2", "3"], True),
        notes={"k": "v"},
        listing="bob to place",
        waiting=[1, 3],
    )
    stored = await clocked.get_game(game.id)
    assert committed == replace(stored, listing="bob to place") and stored.listing == "bob to place"
    assert (committed.version, committed.updated_at, committed.state, committed.paused) == (
        1,
        1100.0,
        {"round": 1},
        True,
    )
    assert await rows(clocked, f"SELECT {COLUMNS} FROM games WHERE id = ?", (game.id,)) == [
        ("active", 77, "2", 1, "pepper", "abc123", "bob to place", ",1,3,", 1, 1100.0, True)
    ]
    assert await clocked.seats(game.id) == seats
    assert await clocked.moves(game.id) == [
        MoveRow(1, 0, "1", "/tt announce wood", False, False, 1100.0),
        MoveRow(2, 1, "2", "/tt place A1", True, False, 1100.0),
    ]
    assert [(t.kind, t.due_at, t.payload) for t in await clocked.timers(game.id)] == [
        ("reminder", 50.0, {"seat": 1}), ("deadline", 60.0, {})
    ]  # fmt: skip
    assert await clocked.pending_announcements() == [
        OutboxRow(outbox, game.id, 1, Announcement("ann names wood", ["2", "3"], True))
    ]
    assert await rows(clocked, "SELECT game_id, version, created_at, posted_at FROM outbox") == [
        (game.id, 1, 1100.0, None)
    ]
    assert (await clocked.table_by_id(game.id)).notes == {"k": "v"}

    # A plain move: appended after the others, timers of some kinds cancelled, others kept, nothing else.
    clock.now = 1200.0
    committed, outbox2 = await clocked.commit(
        committed,
        state={"round": 2},
        moves=[MoveRecord(1, "2", "/tt done")],
        cancel_timers=["reminder", "expire"],
        add_timers=[NewTimer("reminder", 70.0, {})],
        announce=Announcement("bob is done", [], False),
    )
    assert outbox2 is not None and outbox2 > outbox
    assert await clocked.get_game(game.id) == replace(committed, listing="bob to place")
    assert await rows(clocked, f"SELECT {COLUMNS} FROM games WHERE id = ?", (game.id,)) == [
        ("active", 77, "2", 1, "pepper", "abc123", "bob to place", ",1,3,", 2, 1200.0, True)
    ]
    assert [m.seq for m in await clocked.moves(game.id)] == [1, 2, 3]
    assert [(t.kind, t.due_at) for t in await clocked.timers(game.id)] == [("deadline", 60.0), ("reminder", 70.0)]
    assert [t.game_id for t in await clocked.due_timers(1e9)] == [other.id, game.id, game.id]
    assert [r.announcement.text for r in await clocked.pending_announcements()] == ["ann names wood", "bob is done"]

    # Undo-style: some moves reverted by seq, others from a seq on; every timer cancelled; a note dropped.
    committed, none = await clocked.commit(
        committed, revert_seqs=[1], revert_from_seq=3, cancel_timers="all", notes={"k": None, "n": "2"}
    )
    assert none is None
    assert [(m.seq, m.reverted) for m in await clocked.moves(game.id, include_reverted=True)] == [
        (1, True), (2, False), (3, True)
    ]  # fmt: skip
    assert await clocked.timers(game.id) == [] and len(await clocked.timers(other.id)) == 1
    assert (await clocked.table_by_id(game.id)).notes == {"n": "2"}
    committed, _ = await clocked.commit(committed, paused=False, waiting=[], listing="x")
    assert await rows(clocked, "SELECT paused, waiting, listing FROM games WHERE id = ?", (game.id,)) == [(0, "", "x")]

    with pytest.raises(StaleVersion) as refused:
        await clocked.commit(replace(committed, version=1), state={"stale": 1}, moves=[MoveRecord(0, "1", "/x")])
    assert refused.value.args == (game.id,)
    with pytest.raises(StaleVersion):
        await clocked.commit(replace(committed, version=1), seats=[], status="aborted")
    assert await clocked.get_game(game.id) == replace(committed, listing="x")
    assert len(await clocked.moves(game.id, include_reverted=True)) == 3 and await clocked.seats(game.id) == seats


async def test_closing_archives_the_log_and_moves_on_a_closed_game_bring_it_back(clocked: AnyStore, clock: Clock):
    game = await clocked.create_game("g", "c", "tiny-towns", "1", "ann", {}, "1")
    game, _ = await clocked.commit(game, status="active", moves=[MoveRecord(0, "1", "/a"), MoveRecord(0, "1", "/b")])
    game, _ = await clocked.commit(game, status="finished", moves=[MoveRecord(0, "1", "/c")])
    assert await rows(clocked, "SELECT game_id, count FROM moves_archive") == [(game.id, 3)]
    assert await rows(clocked, "SELECT COUNT(*) FROM moves") == [(0,)]
    # A moderator's rollback of the finished game: the log is rows again, marked, and the game plays on.
    game, _ = await clocked.commit(game, status="active", revert_from_seq=3)
    assert await rows(clocked, "SELECT COUNT(*) FROM moves_archive") == [(0,)]
    assert await rows(clocked, "SELECT seq, reverted FROM moves ORDER BY seq") == [(1, 0), (2, 0), (3, 1)]
    game, _ = await clocked.commit(game, status="aborted")
    assert await rows(clocked, "SELECT game_id, count FROM moves_archive") == [(game.id, 3)]
    # A move written on a closed game (the bot's last words after an abort): into rows, then archived again.
    game, _ = await clocked.commit(game, moves=[MoveRecord(0, "1", "/d")])
    assert await rows(clocked, "SELECT COUNT(*) FROM moves_archive") == [(0,)]
    assert [m.text for m in await clocked.moves(game.id)] == ["/a", "/b", "/d"]
    game, _ = await clocked.commit(game, revert_seqs=[4])
    assert [m.text for m in await clocked.moves(game.id)] == ["/a", "/b"]
    # A closed game's commit without moves or reverts leaves its archive alone.
    game, _ = await clocked.commit(game, status="finished")
    game, _ = await clocked.commit(game, notes={"x": "y"})
    assert await rows(clocked, "SELECT game_id, count FROM moves_archive") == [(game.id, 4)]
    assert await rows(clocked, "SELECT COUNT(*) FROM moves") == [(0,)]
