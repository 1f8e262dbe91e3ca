"""A plain move's ``commit`` (no seats, notes or reverts, not closing): PostgreSQL writes it with one
statement instead of a transaction, and builds the row it returns without reading it back. On each
backend the row returned is the row stored, for every column such a commit may set; ``cancel_timers="all"``
drops every timer of the game and no other game's; a stale commit on the transaction path names its game."""

from __future__ import annotations

from dataclasses import replace

import pytest

from storage import AnyStore, MoveRecord, NewTimer, SeatRow, StaleVersion, Store
from tests.storage.conftest import Clock, rows


async def test_a_plain_commit_returns_every_column_it_stored(clocked: AnyStore, clock: Clock):
    lobby = await clocked.create_game("g", "c", "tiny-towns", "1", "ann", {"o": 1}, "1")
    clock.now = 1300.0
    committed, _ = await clocked.commit(
        lobby,
        state={"round": 1},
        status="active",
        seed=4242,
        host_id="2",
        paused=True,
        salt="pepper",
        commitment="c0ffee",
        listing="ann to announce",
        waiting=[2],
        moves=[MoveRecord(0, "1", "/game start")],
    )
    stored = await clocked.get_game(lobby.id)
    assert committed == stored
    assert (stored.status, stored.seed, stored.host_id, stored.paused) == ("active", 4242, "2", True)
    assert (stored.salt, stored.commitment, stored.listing) == ("pepper", "c0ffee", "ann to announce")
    assert (stored.version, stored.updated_at, stored.state) == (1, 1300.0, {"round": 1})


async def test_a_plain_commit_can_cancel_every_timer_of_its_game(clocked: AnyStore, clock: Clock):
    game = await clocked.create_game("g", "c", "tiny-towns", "1", "ann", {}, "1")
    other = await clocked.create_game("g", "c2", "tiny-towns", "1", "ann", {}, "1")
    for kind, due in (("reminder", 5.0), ("deadline", 6.0), ("expire", 7.0)):
        await clocked.add_timer(kind, due, game.id)
    await clocked.add_timer("reminder", 8.0, other.id)
    committed, _ = await clocked.commit(
        game, state={"round": 2}, moves=[MoveRecord(0, "1", "/tt place A1")], cancel_timers="all"
    )
    assert await clocked.timers(game.id) == []
    assert [(t.kind, t.due_at) for t in await clocked.timers(other.id)] == [("reminder", 8.0)]
    # ... and add new ones in the same commit: the cancelled ones are gone, the new one stays.
    await clocked.add_timer("deadline", 9.0, game.id)
    await clocked.commit(committed, moves=[MoveRecord(1, "2", "/tt place B1")], cancel_timers="all",
                         add_timers=[NewTimer("reminder", 10.0, {"seat": 0})])  # fmt: skip
    assert [(t.kind, t.due_at, t.payload) for t in await clocked.timers(game.id)] == [("reminder", 10.0, {"seat": 0})]
    assert await rows(clocked, "SELECT COUNT(*) FROM moves WHERE game_id = ?", (game.id,)) == [(2,)]


async def test_a_stale_commit_with_seats_names_its_game(clocked: AnyStore):
    game = await clocked.create_game("g", "c", "tiny-towns", "1", "ann", {}, "1")
    current, _ = await clocked.commit(game, status="active")
    seats = await clocked.seats(game.id)
    with pytest.raises(StaleVersion) as refused:
        await clocked.commit(replace(current, version=0), seats=[*seats, SeatRow(1, "2", "bob", "human", 1)])
    assert refused.value.args == (game.id,)
    assert await clocked.seats(game.id) == seats and (await clocked.get_game(game.id)) == current


async def test_a_state_just_written_is_read_back_without_decoding_it(sqlite_store: Store):
    """SQLite keeps the state a commit (or update_game) wrote, at its new version: the next read of the game
    (the command after it, the autocomplete) does not inflate and parse it again."""
    store = sqlite_store
    game = await store.create_game("g", "c", "tiny-towns", "1", "ann", {}, "1")
    committed, _ = await store.commit(game, state={"round": 1}, moves=[MoveRecord(0, "1", "/tt place A1")])
    decodes = store.state_decodes
    again = await store.get_game(game.id)
    assert again is not None and (again.version, again.state) == (1, {"round": 1})
    assert store.state_decodes == decodes
    version = await store.update_game(game.id, committed.version, state={"round": 2})
    assert (await store.get_game(game.id)).state == {"round": 2} and store.state_decodes == decodes
    # A version written elsewhere (another process) is decoded: the kept state is of an older version.
    await store._write("UPDATE games SET version = version + 1 WHERE id = ?", (game.id,))
    assert (await store.get_game(game.id)).version == version + 1 and store.state_decodes == decodes + 1
