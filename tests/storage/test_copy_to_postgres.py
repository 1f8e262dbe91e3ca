"""``conductor migrate-db``'s copy, in this process: every table of an SQLite database into an empty
PostgreSQL one, in order, with its ids, its values coerced to the column types, the id sequences moved on,
and its refusals word for word."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from storage import (
    Announcement,
    GameResults,
    MoveRecord,
    NewTimer,
    SeatResult,
    SeatRow,
    Store,
    StoreError,
    open_store,
)
from storage.copy import Copied, _coerce, copy_sqlite_to_postgres
from storage.postgres import PostgresStore

TABLES = [  # games first (the others refer to it), then by name; schema_migrations is not copied
    "games", "channel_settings", "game_notes", "game_results", "moves", "moves_archive", "outbox", "ratings",
    "seats", "timers", "user_settings", "web_links",
]  # fmt: skip


async def _source(path: Path) -> Store:
    """A database holding a row in every table: a lobby, a game in play, a finished and rated one."""
    store = await Store.open(path)
    await store.create_game(
        "g1", "lobby", "trains", "3", "cat", {"map": "osaka"}, "1", [NewTimer("expire", 9.5, {"a": 1})]
    )
    playing = await store.create_game("g1", "c1", "tiny-towns", "1", "ann", {}, "1")
    playing, _ = await store.commit(
        playing,
        state={"round": 1, "names": ["ann", "bob"]},
        status="active",
        seed=2**40,
        seats=[SeatRow(0, "1", "ann", "human", 1), SeatRow(1, "2", "bob", "human", 1)],
        moves=[MoveRecord(0, "1", "/tt announce wood"), MoveRecord(1, "2", "/tt place D4", True)],
        add_timers=[NewTimer("reminder", 100.25, {"seat": 1})],
        announce=Announcement("ann names wood", ["2"], True),
        notes={"last": "wood"},
        listing="bob to place",
        waiting=[1],
    )
    done = await store.create_game("g1", "c2", "trains", "1", "ann", {}, "1")
    done, _ = await store.commit(
        done, status="active", seats=[SeatRow(0, "1", "ann", "human", 1), SeatRow(1, "2", "bob", "human", 1)]
    )
    done, _ = await store.commit(done, moves=[MoveRecord(1, "2", "/game resign")])
    seats = (SeatResult(0, "1", "ann", "human", 1, 12, None, {"rails": 3}), SeatResult(1, "2", "bob", "human", 2, 7))
    await store.commit(done, status="finished", results=GameResults(seats, "tokyo", "score", "tok-game", "tok-guild"))
    await store.set_channel_setting("g1", "*", "modrole", "55")
    await store.set_user_setting("2", "pings", "off")
    return store


async def _everything(store: object, tables: list[str]) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table, ordered by all its columns, values as Python compares them."""
    out = {}
    for table in tables:
        found = await store._all(f'SELECT * FROM "{table}" ORDER BY 1, 2, 3')  # type: ignore[attr-defined]
        out[table] = sorted(
            tuple(
                bytes(v) if isinstance(v, memoryview) else v for v in (row.values() if hasattr(row, "values") else row)
            )
            for row in found
        )
    return out


async def test_every_table_is_copied_with_its_ids_and_the_sequences_move_on(tmp_path: Path, postgres_url: str):
    source = await _source(tmp_path / "c.db")
    target = await open_store(postgres_url)
    assert isinstance(target, PostgresStore)
    try:
        copied = await copy_sqlite_to_postgres(source, target)
        assert copied == [
            Copied("games", 3), Copied("channel_settings", 1), Copied("game_notes", 1), Copied("game_results", 2),
            Copied("moves", 2), Copied("moves_archive", 1), Copied("outbox", 1), Copied("ratings", 2),
            Copied("seats", 5), Copied("timers", 2), Copied("user_settings", 1), Copied("web_links", 2),
        ]  # fmt: skip
        assert await _everything(target, TABLES) == await _everything(source, TABLES)
        for game in await source.all_games():
            assert await target.get_game(game.id) == game
            assert await target.moves(game.id, include_reverted=True) == await source.moves(game.id, True)
        assert await target.ratings("g1", "trains") == await source.ratings("g1", "trains")
        # The id sequences continue after the copied ids.
        assert (await target.create_game("g1", "c9", "trains", "1", "ann", {}, "1")).id == 4
        assert await target.add_timer("reminder", 1.0) == 3
        _, outbox = await target.commit(await target.get_game(4), announce=Announcement("x", [], False))
        assert outbox == 2
        with pytest.raises(StoreError) as refused:
            await copy_sqlite_to_postgres(source, target)
        assert str(refused.value) == (
            "the target database already holds games; migrate-db copies into an empty database only"
        )
    finally:
        await source.close()
        await target.close()


async def test_a_target_without_a_table_is_refused_and_extra_source_columns_are_left_out(
    tmp_path: Path, postgres_url: str
):
    source = await _source(tmp_path / "c.db")
    await source._write("ALTER TABLE games ADD COLUMN scratch TEXT")
    await source._write("UPDATE games SET scratch = 'local only'")
    target = await open_store(postgres_url)
    try:
        await target._write("DROP TABLE web_links")
        with pytest.raises(StoreError) as refused:
            await copy_sqlite_to_postgres(source, target)
        assert str(refused.value) == "the target database has no table web_links; are both on the same version?"
        assert await target._all("SELECT id FROM games") == []  # nothing half-copied
        await source._write("DROP TABLE web_links")
        await target._write("ALTER TABLE user_settings ADD COLUMN note TEXT")  # a column only the target has
        assert [c.table for c in await copy_sqlite_to_postgres(source, target)] == TABLES[:-1]
        assert await target._all("SELECT user_id, key, value, note FROM user_settings") == [("2", "pings", "off", None)]
        assert [g.id for g in await target.all_games()] == [1, 2, 3]
    finally:
        await source.close()
        await target.close()


def test_sqlite_values_are_coerced_to_the_postgresql_column_types():
    assert _coerce(None, "bigint") is None and _coerce(None, "text") is None
    assert _coerce("42", "bigint") == 42 and _coerce(7.0, "bigint") == 7
    assert _coerce("1.5", "double precision") == 1.5 and _coerce(3, "double precision") == 3.0
    assert isinstance(_coerce(3, "double precision"), float)
    assert _coerce(b"\x00\xff", "bytea") == b"\x00\xff" and _coerce("text", "bytea") == b"text"
    assert _coerce(b"an\xffn", "text") == "an\ufffdn" and _coerce(5, "text") == "5"
    assert _coerce(json.dumps({"a": 1}), "text") == '{"a": 1}'
