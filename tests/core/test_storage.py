from __future__ import annotations

import asyncio

import aiosqlite
import pytest

from storage import ChannelBusy, MoveRecord, StaleVersion, Store, StoreError, open_store
from storage.migrate import available, migrate


async def _schema(path) -> list[tuple[str, str]]:
    async with (
        aiosqlite.connect(path) as db,
        db.execute("SELECT name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name") as cursor,
    ):
        return [tuple(row) for row in await cursor.fetchall()]


async def test_fresh_and_old_database_end_on_the_same_schema(tmp_path):
    assert len(available()) >= 2, "the upgrade path needs at least two migrations to mean anything"
    old = tmp_path / "old.db"
    async with aiosqlite.connect(old) as db:
        assert await migrate(db, target=1) == 1
        await db.execute(
            "INSERT INTO games (guild_id, channel_id, game, status, host_id, rules_version, "
            "created_at, updated_at) VALUES ('g', 'c', 'tiny-towns', 'lobby', 'u', '1', 0, 0)"
        )
        await db.commit()
    assert "channel_settings" not in {name for name, _ in await _schema(old)}
    upgraded = await Store.open(old)
    await upgraded.close()
    fresh = await Store.open(tmp_path / "fresh.db")
    await fresh.close()
    assert await _schema(old) == await _schema(tmp_path / "fresh.db")
    reopened = await Store.open(old)  # migrating twice is a no-op and keeps data
    assert [g.game for g in await reopened.all_games()] == ["tiny-towns"]
    await reopened.close()


async def test_pragmas(sqlite_store: Store):
    store = sqlite_store
    async with store.connection.execute("PRAGMA journal_mode") as c:
        assert (await c.fetchone())[0] == "wal"
    async with store.connection.execute("PRAGMA foreign_keys") as c:
        assert (await c.fetchone())[0] == 1
    async with store.connection.execute("PRAGMA busy_timeout") as c:
        assert (await c.fetchone())[0] >= 1000


async def test_one_open_game_per_channel_and_history_is_kept(store: Store):
    game = await store.create_game("g", "c", "tiny-towns", "u1", "ann", {}, "1")
    with pytest.raises(ChannelBusy) as busy:
        await store.create_game("g", "c", "tiny-towns", "u2", "bob", {}, "1")
    assert busy.value.args == ("c",)  # names the channel
    other_channel = await store.create_game("g", "thread-7", "tiny-towns", "u2", "bob", {}, "1")
    assert other_channel.id != game.id
    await store.update_game(game.id, 0, status="finished")
    again = await store.create_game("g", "c", "tiny-towns", "u1", "ann", {}, "1")
    statuses = {row.id: row.status for row in await store.all_games()}
    assert statuses[game.id] == "finished" and statuses[again.id] == "lobby"


async def test_version_check_rejects_stale_writes_and_writes_nothing(store: Store):
    game = await store.create_game("g", "c", "tiny-towns", "u1", "ann", {}, "1")
    v1 = await store.update_game(game.id, 0, state={"n": 1}, move=MoveRecord(0, "u1", "/tt announce wood"))
    with pytest.raises(StaleVersion):
        await store.update_game(game.id, 0, state={"n": 2}, move=MoveRecord(0, "u1", "/tt announce stone"))
    row = await store.get_game(game.id)
    assert row.state == {"n": 1} and row.version == v1 == 1
    assert [m.text for m in await store.moves(game.id)] == ["/tt announce wood"]


async def test_concurrent_writers_on_one_version_only_one_wins(store_target: str):
    stores = [await open_store(store_target) for _ in range(4)]
    game = await stores[0].create_game("g", "c", "tiny-towns", "u1", "ann", {}, "1")

    async def attempt(i: int) -> bool:
        try:
            await stores[i].update_game(game.id, 0, state={"by": i}, move=MoveRecord(0, "u1", f"/tt x{i}"))
            return True
        except StaleVersion:
            return False

    results = await asyncio.gather(*(attempt(i) for i in range(4)))
    assert sum(results) == 1
    moves = await stores[0].moves(game.id)
    assert len(moves) == 1 and moves[0].text == f"/tt x{results.index(True)}"
    for s in stores:
        await s.close()


async def test_revert_marks_moves_but_never_deletes_them(store: Store):
    game = await store.create_game("g", "c", "tiny-towns", "u1", "ann", {}, "1")
    version = 0
    for i in range(3):
        version = await store.update_game(game.id, version, state={"i": i}, move=MoveRecord(0, "u1", f"/tt m{i}"))
    await store.update_game(game.id, version, state={"i": 1}, revert_from_seq=3)
    assert [m.text for m in await store.moves(game.id)] == ["/tt m0", "/tt m1"]
    everything = await store.moves(game.id, include_reverted=True)
    assert [(m.text, m.reverted) for m in everything] == [("/tt m0", False), ("/tt m1", False), ("/tt m2", True)]
    version = await store.update_game(game.id, version + 1, state={"i": 2}, move=MoveRecord(0, "u1", "/tt m3"))
    assert [m.seq for m in await store.moves(game.id)] == [1, 2, 4]


async def test_timers_and_settings(store: Store):
    game = await store.create_game("g", "c", "tiny-towns", "u1", "ann", {}, "1")
    late = await store.add_timer("reminder", 200.0, game.id, {"v": 1})
    early = await store.add_timer("deadline", 100.0, game.id)
    assert (await store.next_timer()).id == early
    assert [t.id for t in await store.due_timers(150.0)] == [early]
    assert await store.delete_timer(early) and not await store.delete_timer(early)
    await store.cancel_timers(game.id, ["reminder"])
    assert await store.timers(game.id) == [] and late
    await store.set_channel_setting("g", "*", "modrole", "55")
    await store.set_channel_setting("g", "c", "reminder_hours", "3")
    assert await store.channel_setting("g", "c", "modrole") == "55"
    assert await store.channel_setting("g", "c", "reminder_hours") == "3"
    assert await store.channel_setting("g", "other", "reminder_hours") is None
    await store.set_user_setting("u1", "pings", "off")
    assert await store.user_setting("u1", "pings") == "off"


async def test_one_connection_serves_many_concurrent_commands(store: Store):
    """Under Discord many commands run at once in one process on one connection."""
    rows = [await store.create_game("g", f"c{i}", "tiny-towns", "u", "ann", {}, "1") for i in range(30)]

    async def play(game_id: int) -> int:
        version = 0
        for i in range(10):
            version = await store.update_game(game_id, version, state={"i": i}, move=MoveRecord(0, "u", f"/tt m{i}"))
            await store.add_timer("reminder", float(i), game_id)
            await store.cancel_timers(game_id, ["reminder"])
        return version

    versions = await asyncio.gather(*(play(row.id) for row in rows))
    assert versions == [10] * 30
    for row in rows:
        assert len(await store.moves(row.id)) == 10
        assert (await store.get_game(row.id)).state == {"i": 9}


@pytest.mark.parametrize(
    ("column", "stored", "damage"),
    [
        ("state", "'{\"round\": 3,'", "its saved state cannot be decoded (not valid JSON)"),
        ("state", "'[1, 2]'", "its saved state cannot be decoded (not a JSON object)"),
        ("state", "CAST(X'7B2261223AFF7D' AS TEXT)", "its saved state cannot be decoded (not UTF-8 text)"),
        ("state", "X'00FF10'", "its saved state cannot be decoded (not UTF-8 text)"),
        ("state", "'[' || printf('%.*c', 100000, '[')", "its saved state cannot be decoded"),
        ("options", "'not json'", "its options cannot be decoded (not valid JSON)"),
        ("seed", "'forty-two'", "its seed is not a whole number"),
    ],
)
async def test_every_read_of_a_row_that_cannot_be_decoded_returns_it_damaged(
    sqlite_store: Store, column, stored, damage
):
    # SQLite holds anything in any column (bytes, text in an integer column); PostgreSQL's typed columns
    # refuse most of these at write time, so its damage cases are the text ones, below.
    store = sqlite_store
    healthy = await store.create_game("g", "c1", "tiny-towns", "u1", "ann", {"buildings": "random"}, "1")
    bad = await store.create_game("g", "c2", "tiny-towns", "u1", "ann", {"buildings": "random"}, "1")
    await store.connection.execute(
        "UPDATE games SET state = '{\"n\": 1}', seed = 7, status = 'active' WHERE id = ?", (bad.id,)
    )
    await store.connection.execute(f"UPDATE games SET {column} = {stored} WHERE id = ?", (bad.id,))
    reads = [
        await store.get_game(bad.id),
        await store.open_game("g", "c2"),
        await store.latest_game("g", "c2"),
        *await store.list_games("g"),
        *await store.all_games(),
        *await store.games_of_user("u1"),
    ]
    damaged = [row for row in reads if row is not None and row.id == bad.id]
    assert len(damaged) == 6
    for row in damaged:
        assert row.damaged is not None and row.damaged.startswith(damage), row.damaged
        assert (row.state, row.options, row.seed) == (
            None if column == "state" else {"n": 1},
            {} if column == "options" else {"buildings": "random"},
            None if column == "seed" else 7,
        )
        assert (row.game, row.status, row.channel_id) == ("tiny-towns", "active", "c2")  # enough to list and abort
    others = [row for row in reads if row is not None and row.id == healthy.id]
    assert len(others) == 3 and all(row.damaged is None and row.options == {"buildings": "random"} for row in others)


async def test_text_that_is_not_utf8_reads_with_replacement_characters(sqlite_store: Store):
    store = sqlite_store
    game = await store.create_game("g", "c", "tiny-towns", "u1", "ann", {}, "1")
    await store.connection.execute(
        "UPDATE seats SET display_name = CAST(X'616EFF6E' AS TEXT) WHERE game_id = ?", (game.id,)
    )
    assert [seat.display_name for seat in await store.seats(game.id)] == ["an\ufffdn"]


async def test_open_refuses_a_file_that_is_not_a_database(tmp_path):
    path = tmp_path / "notes.db"
    path.write_text("not a database\n" * 100)
    with pytest.raises(StoreError, match=r"^cannot open the database .*notes\.db: it is not an SQLite database"):
        await Store.open(path)
    with pytest.raises(StoreError, match="it is a directory"):
        await Store.open(tmp_path)
