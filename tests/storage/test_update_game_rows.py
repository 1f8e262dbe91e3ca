"""``update_game`` on each backend, row by row: every column it can set, the move it appends, the moves it
marks reverted, the log it archives when a game closes and brings back when a closed game is rolled back,
and nothing of another game or of a stale write."""

from __future__ import annotations

import pytest

from storage import AnyStore, MoveRecord, MoveRow, StaleVersion, Store
from tests.storage.conftest import Clock, rows

GAME_ROW = (
    "SELECT state, state_z IS NULL, status, seed, options, host_id, paused, version, updated_at FROM games WHERE id = ?"
)


async def test_every_column_is_written_and_nothing_else(clocked: AnyStore, clock: Clock):
    game = await clocked.create_game("g", "c", "tiny-towns", "u1", "ann", {"buildings": "random"}, "1")
    bystander = await clocked.create_game("g", "c2", "tiny-towns", "u1", "ann", {}, "1")
    # A state written as JSON text (before migration 7): a new state must replace it, not hide behind it.
    await clocked._write("UPDATE games SET state = ? WHERE id = ?", ('{"old": 1}', game.id))
    clock.now = 1500.0
    assert await clocked.update_game(game.id, 0, state={"n": 1}) == 1
    assert (await rows(clocked, GAME_ROW, (game.id,)))[0] == (
        None, False, "lobby", None, '{"buildings":"random"}', "u1", 0, 1, 1500.0
    )  # fmt: skip
    assert (await clocked.get_game(game.id)).state == {"n": 1}

    clock.now = 1600.0
    assert await clocked.update_game(game.id, 1, status="active", seed=42, options={"b": 2}, host_id="u2") == 2
    assert (await rows(clocked, GAME_ROW, (game.id,)))[0] == (None, False, "active", 42, '{"b":2}', "u2", 0, 2, 1600.0)
    row = await clocked.get_game(game.id)
    assert (row.state, row.status, row.seed, row.options, row.host_id, row.paused, row.version) == (
        {"n": 1}, "active", 42, {"b": 2}, "u2", False, 2
    )  # fmt: skip
    assert await clocked.update_game(game.id, 2, paused=True) == 3
    assert (await clocked.get_game(game.id)).paused is True
    assert await clocked.update_game(game.id, 3, paused=False) == 4
    row = await clocked.get_game(game.id)
    assert (row.paused, row.seed, row.host_id, row.options) == (False, 42, "u2", {"b": 2})

    with pytest.raises(StaleVersion) as refused:
        await clocked.update_game(game.id, 3, state={"n": 9}, status="finished", move=MoveRecord(0, "u1", "x"))
    assert refused.value.args == (game.id,)
    assert (await clocked.get_game(game.id)).state == {"n": 1} and await clocked.moves(game.id) == []
    assert (await rows(clocked, GAME_ROW, (bystander.id,)))[0] == (None, True, "lobby", None, "{}", "u1", 0, 0, 1000.0)


async def test_moves_are_appended_reverted_archived_and_brought_back(clocked: AnyStore, clock: Clock):
    game = await clocked.create_game("g", "c", "tiny-towns", "u1", "ann", {}, "1")
    other = await clocked.create_game("g", "c2", "tiny-towns", "u1", "ann", {}, "1")
    await clocked.update_game(other.id, 0, move=MoveRecord(0, "u1", "/tt other"))
    version = 0
    for i, (seat, user, irreversible) in enumerate([(0, "u1", False), (1, "u2", True), (0, "u1", False)]):
        clock.now = 2000.0 + i
        version = await clocked.update_game(
            game.id, version, state={"i": i}, move=MoveRecord(seat, user, f"/tt m{i}", irreversible)
        )
    played = [
        MoveRow(1, 0, "u1", "/tt m0", False, False, 2000.0),
        MoveRow(2, 1, "u2", "/tt m1", True, False, 2001.0),
        MoveRow(3, 0, "u1", "/tt m2", False, False, 2002.0),
    ]
    assert await clocked.moves(game.id, include_reverted=True) == played

    version = await clocked.update_game(game.id, version, revert_from_seq=2)
    reverted = [played[0], *(m.__class__(**{**m.__dict__, "reverted": True}) for m in played[1:])]
    assert await clocked.moves(game.id, include_reverted=True) == reverted
    assert await clocked.moves(game.id) == [played[0]]

    clock.now = 2100.0
    version = await clocked.update_game(game.id, version, move=MoveRecord(1, "u2", "/tt m3"), status="finished")
    last = MoveRow(4, 1, "u2", "/tt m3", False, False, 2100.0)
    assert await clocked.moves(game.id, include_reverted=True) == [*reverted, last]
    # Archived: one compressed row of four moves, no move rows left; the other game's log is untouched.
    assert await rows(clocked, "SELECT game_id, count FROM moves_archive") == [(game.id, 4)]
    assert await rows(clocked, "SELECT game_id, seq FROM moves ORDER BY game_id, seq") == [(other.id, 1)]

    # Rolled back into play: the log is move rows again, the reverted moves marked, the next seq follows.
    version = await clocked.update_game(game.id, version, status="active", revert_from_seq=4)
    assert await rows(clocked, "SELECT game_id, count FROM moves_archive") == []
    assert await rows(clocked, "SELECT game_id, seq, reverted FROM moves ORDER BY game_id, seq") == [
        (game.id, 1, 0), (game.id, 2, 1), (game.id, 3, 1), (game.id, 4, 1), (other.id, 1, 0)
    ]  # fmt: skip
    clock.now = 2200.0
    version = await clocked.update_game(game.id, version, move=MoveRecord(0, "u1", "/tt m5"))
    assert [m.seq for m in await clocked.moves(game.id)] == [1, 5]
    version = await clocked.update_game(game.id, version, status="aborted")
    assert await rows(clocked, "SELECT game_id, count FROM moves_archive") == [(game.id, 5)]
    assert await clocked.moves(game.id, include_reverted=True) == [
        *reverted,
        MoveRow(4, 1, "u2", "/tt m3", False, True, 2100.0),
        MoveRow(5, 0, "u1", "/tt m5", False, False, 2200.0),
    ]
    # A revert of a game with no archive (never closed) only marks its rows.
    await clocked.update_game(other.id, 1, revert_from_seq=1)
    assert await clocked.moves(other.id) == [] and len(await clocked.moves(other.id, include_reverted=True)) == 1


async def test_a_written_state_is_read_back_without_decoding_it_again(sqlite_store: Store):
    game = await sqlite_store.create_game("g", "c", "tiny-towns", "u1", "ann", {}, "1")
    await sqlite_store.update_game(game.id, 0, state={"n": 1})
    before = sqlite_store.state_decodes
    assert (await sqlite_store.get_game(game.id)).state == {"n": 1}
    assert sqlite_store.state_decodes == before  # the state this process wrote, at its new version
