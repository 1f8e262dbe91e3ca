"""A small database (compressed states, archived move logs, pruned outbox), its maintenance
command, the paged one-query lists, and a timer loop that survives a corrupt timer (issue 14, 17)."""

from __future__ import annotations

import json
import logging
import zlib
from pathlib import Path

import games
from bot.check import check_store
from bot.cli import main as cli_main
from bot.core import Conductor
from bot.lobby import PAGE_SIZE
from bot.replies import Actor
from bot.transcript import export
from storage import Store, is_postgres, open_store
from storage.db import dumps
from tests.core.conftest import ANN, BOB, CHANNEL, GUILD, MOD, say, started_two_player


async def _raw(store: Store, sql: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    """Rows of one statement straight from the database, on either backend (``?`` placeholders)."""
    return [tuple(row) for row in await store._all(sql, params)]


async def _change(store: Store, sql: str, params: tuple[object, ...] = ()) -> None:
    """Change the database behind the store's back, on either backend."""
    await store._write(sql, params)


async def test_states_are_stored_compressed_and_rows_written_before_still_load(host: Conductor, store: Store):
    await started_two_player(host)
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None and row.state is not None
    [(text, packed)] = await _raw(store, "SELECT state, state_z FROM games WHERE id = ?", (row.id,))
    assert text is None and json.loads(zlib.decompress(packed)) == row.state
    assert len(packed) * 3 < len(dumps(row.state))  # compressed to well under a third
    # A row as written before migration 7: JSON text in state, nothing in state_z, no listing.
    await _change(
        store, "UPDATE games SET state = ?, state_z = NULL, listing = NULL WHERE id = ?", (dumps(row.state), row.id)
    )
    assert "ann to name a resource" in (await say(host, BOB, "/game list")).private  # listed the old way
    assert "your turn" in (await say(host, ANN, "/game mygames")).private
    assert (await say(host, ANN, "/tt announce wood")).ok  # loads, plays, and is written compressed again
    [(text, packed)] = await _raw(store, "SELECT state, state_z FROM games WHERE id = ?", (row.id,))
    assert text is None and packed is not None
    assert [f.kind for f in await check_store(store)] == ["ok"]


async def _finished_solo(host: Conductor, channel: str) -> int:
    cat = Actor("3", "cat")
    assert (await say(host, cat, "/game new tiny-towns buildings=first-game", channel=channel)).ok
    assert (await say(host, cat, "/game start solo", channel=channel)).ok
    for _ in range(3):
        legal = await host.legal_commands(GUILD, channel, cat.user_id)
        assert (await say(host, cat, legal[0], channel=channel)).ok
    assert (await say(host, cat, "/game resign confirm", channel=channel)).ok
    return (await host.store.all_games())[-1].id


async def test_a_finished_game_is_archived_in_place_and_still_replays_and_exports(host: Conductor, store: Store):
    game_id = await _finished_solo(host, "solo")
    assert await _raw(store, "SELECT COUNT(*) FROM moves WHERE game_id = ?", (game_id,)) == [(0,)]
    [(count,)] = await _raw(store, "SELECT count FROM moves_archive WHERE game_id = ?", (game_id,))
    moves = await store.moves(game_id)
    assert count == len(moves) == 4 and [m.seq for m in moves] == [1, 2, 3, 4]  # 3 moves and the resignation
    assert [f.kind for f in await check_store(store)] == ["ok"]  # re-plays from the archive
    row = await store.get_game(game_id)
    assert row is not None
    text = export(games.get_game(row.game), row, await store.seats(game_id), moves)
    assert all(m.text in text for m in moves)


async def test_posted_announcements_are_pruned_and_pending_ones_kept(host: Conductor, store: Store):
    await started_two_player(host)
    first = await say(host, ANN, "/tt announce wood")
    second = await say(host, ANN, "/tt place A1")
    assert first.outbox_id is not None and second.outbox_id is not None
    await host.announced(first.outbox_id)
    assert [r.id for r in await store.pending_announcements()] == [second.outbox_id]
    await host.announced(second.outbox_id)
    assert await _raw(store, "SELECT COUNT(*) FROM outbox") == [(0,)]  # nothing posted stays behind


async def test_a_corrupt_timer_is_logged_and_removed_and_the_timer_loop_goes_on(host: Conductor, store: Store, caplog):
    await started_two_player(host)
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None
    await _change(
        store,
        "INSERT INTO timers (game_id, kind, due_at, payload, created_at) VALUES (?, 'reminder', 0, '{broken', 0)",
        (row.id,),
    )
    await store.add_timer("reminder", 1.0, row.id, {"version": row.version})
    with caplog.at_level(logging.WARNING, logger="storage.db"):
        fired = await host.fire_due_timers()
    assert any("cannot be decoded" in r.getMessage() for r in caplog.records)
    assert len(fired) == 1 and fired[0][1] == CHANNEL  # the good timer still fired
    assert await _raw(store, "SELECT COUNT(*) FROM timers WHERE payload = '{broken'") == [(0,)]
    assert await host.fire_due_timers() == []  # and the loop's next round is clean


async def test_game_list_is_paged_within_discord_limits(host: Conductor, store: Store):
    long = Actor("7", "x" * 32)
    for i in range(PAGE_SIZE * 2 + 3):
        assert (await say(host, long, "/game new tiny-towns", channel=f"{10**17 + i}")).ok
    first = await say(host, BOB, "/game list")
    third = await say(host, BOB, "/game list 3")
    assert first.private.count("lobby (1 joined)") == PAGE_SIZE and len(first.private) <= 2000
    assert "Page 1 of 3 (33 games)" in first.private and "`/game list 2`" in first.private
    assert third.private.count("lobby (1 joined)") == 3 and "`/game list 2`" in third.private
    listed = [
        line.split(">")[0]
        for p in (1, 2, 3)
        for line in (await say(host, BOB, f"/game list {p}")).private.splitlines()[:-1]
    ]
    assert len(set(listed)) == PAGE_SIZE * 2 + 3  # every game exactly once over the pages
    assert "no page 4" in (await say(host, BOB, "/game list 4")).private
    assert not (await say(host, BOB, "/game list 0")).ok


async def test_mygames_lists_only_games_waiting_for_you_and_follows_the_turn(host: Conductor, store: Store):
    await started_two_player(host)
    assert "your turn" in (await say(host, ANN, "/game mygames")).private
    assert "not your turn" in (await say(host, BOB, "/game mygames")).private
    assert (await say(host, ANN, "/tt announce wood")).ok  # now both place
    assert "your turn" in (await say(host, BOB, "/game mygames")).private
    assert (await say(host, MOD, "/mod abort")).ok
    assert "not your turn" in (await say(host, ANN, "/game mygames")).private


def test_conductor_vacuum_compacts_an_old_database_and_check_stays_clean(
    store_target: str, tmp_path: Path, capsys, monkeypatch
):
    import asyncio

    async def build() -> None:
        store = await open_store(store_target)
        host = Conductor(store, render_images=False, seed_source=lambda: 4)
        await started_two_player(host)
        await _finished_solo(host, "solo")
        # As written before migration 7: text states, move rows of finished games, posted outbox rows.
        for gid, packed in await _raw(store, "SELECT id, state_z FROM games WHERE state_z IS NOT NULL"):
            assert isinstance(packed, bytes)
            text = zlib.decompress(packed).decode()
            await _change(store, "UPDATE games SET state = ?, state_z = NULL, listing = NULL WHERE id = ?", (text, gid))
        [(game_id, archived)] = await _raw(store, "SELECT game_id, moves FROM moves_archive")
        assert isinstance(archived, bytes)
        for m in json.loads(zlib.decompress(archived)):
            await _change(
                store,
                "INSERT INTO moves (game_id, seq, seat, user_id, text, irreversible, reverted, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, *m),
            )
        await _change(store, "DELETE FROM moves_archive")
        await _change(
            store, "INSERT INTO outbox (game_id, version, text, created_at, posted_at) VALUES (1, 1, 'old', 0, 1)"
        )
        await store.close()

    asyncio.run(build())
    monkeypatch.setenv("DATABASE_URL" if is_postgres(store_target) else "DATABASE_PATH", store_target)
    assert cli_main(["--env-file", str(tmp_path / "none.env"), "vacuum"]) == 0
    said = capsys.readouterr().out
    assert "Compressed 2 states" in said and "archived the move logs of 1 " in said and "1 posted" in said
    assert "listed 1 older games" in said

    async def after() -> None:
        store = await open_store(store_target)
        assert await _raw(store, "SELECT COUNT(*) FROM games WHERE state IS NOT NULL") == [(0,)]
        assert await _raw(store, "SELECT COUNT(*) FROM moves WHERE game_id = 2") == [(0,)]
        assert await _raw(store, "SELECT COUNT(*) FROM outbox WHERE posted_at IS NOT NULL") == [(0,)]
        assert [f.kind for f in await check_store(store)] == ["ok", "ok"]
        assert len(await store.moves(2)) == 4
        await store.close()

    asyncio.run(after())
    assert cli_main(["--env-file", str(tmp_path / "none.env"), "check"]) == 0


async def test_a_move_is_one_write_transaction_and_its_state_is_decoded_once(sqlite_store: Store):
    """What SQLite itself sees for one move: one BEGIN IMMEDIATE ... COMMIT holding the state, the
    move row, the timers and the announcement; the autocomplete read and the command's own read of
    the same version decode the state once between them. (SQLite's trace callback; on PostgreSQL a
    plain move is one statement, see test_postgres.)"""
    store = sqlite_store
    host = Conductor(store, render_images=False, seed_source=lambda: 42)
    await started_two_player(host)
    statements: list[str] = []
    connection = store.connection
    await connection._execute(lambda: connection._conn.set_trace_callback(statements.append))
    decodes = store.state_decodes
    legal = await host.legal_commands(GUILD, CHANNEL, ANN.user_id)
    reply = await say(host, ANN, legal[0])
    assert reply.ok
    await connection._execute(lambda: connection._conn.set_trace_callback(None))
    writes = [i for i, sql in enumerate(statements) if sql.startswith("BEGIN IMMEDIATE")]
    assert len(writes) == 1
    body = statements[writes[0] : statements.index("COMMIT", writes[0]) + 1]
    for table in ("UPDATE games", "INSERT INTO moves", "INSERT INTO timers", "INSERT INTO outbox"):
        assert any(sql.startswith(table) for sql in body), (table, body)
    assert store.state_decodes - decodes <= 1
