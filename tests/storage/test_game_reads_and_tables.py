"""The game reads on each backend, row by row: by id, the channel's open game, its latest game, the lists
by guild and status, and a command's one read (``table``: the game with its seats, the channel's settings
over the guild's, its notes and which seated humans muted pings)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from storage import AnyStore, SeatRow, StaleVersion, TableRow
from storage.postgres import _affected
from storage.shared import WriteResult
from tests.storage.conftest import Clock, rows


async def test_games_are_found_by_id_channel_status_and_guild(clocked: AnyStore, clock: Clock):
    old = await clocked.create_game("g", "c", "trains", "1", "ann", {}, "1")
    await clocked.update_game(old.id, 0, status="finished")
    clock.now = 1100.0
    newer_closed = await clocked.create_game("g", "c", "trains", "1", "ann", {}, "1")
    await clocked.update_game(newer_closed.id, 0, status="aborted")
    assert (await clocked.latest_game("g", "c")).id == newer_closed.id  # the newest closed one
    assert await clocked.open_game("g", "c") is None
    lobby = await clocked.create_game("g", "c", "tiny-towns", "2", "bob", {"x": 1}, "1")
    other_guild = await clocked.create_game("h", "c", "tiny-towns", "2", "bob", {}, "1")
    active = await clocked.create_game("g", "d", "trains", "2", "bob", {}, "1")
    await clocked.update_game(active.id, 0, status="active", state={"s": 1})

    assert await clocked.get_game(lobby.id) == lobby
    assert await clocked.get_game(9999) is None
    assert await clocked.open_game("g", "c") == lobby
    assert await clocked.open_game("g", "x") is None and await clocked.open_game("h", "d") is None
    assert await clocked.latest_game("g", "c") == lobby  # an open game comes before a newer closed one
    await clocked.update_game(lobby.id, 0, status="aborted")
    assert (await clocked.latest_game("g", "c")).id == lobby.id  # then the newest (highest id)
    assert await clocked.latest_game("g", "nowhere") is None
    # An older game of the channel back in play (a finished game rolled back) comes before newer closed ones.
    await clocked.update_game(old.id, 1, status="active")
    assert (await clocked.latest_game("g", "c")).id == old.id
    assert (await clocked.table("g", "c")).game.id == old.id
    await clocked.update_game(old.id, 2, status="finished")

    assert [g.id for g in await clocked.list_games()] == [other_guild.id, active.id]
    assert [g.id for g in await clocked.list_games("g")] == [active.id]
    assert [g.id for g in await clocked.list_games("g", ("finished", "aborted"))] == [old.id, newer_closed.id, lobby.id]
    assert [g.id for g in await clocked.list_games(None, ("lobby",))] == [other_guild.id]
    assert (await clocked.list_games("g"))[0] == await clocked.get_game(active.id)
    assert [g.id for g in await clocked.all_games()] == [old.id, newer_closed.id, lobby.id, other_guild.id, active.id]


async def test_a_table_is_the_game_with_its_seats_settings_notes_and_muted_players(clocked: AnyStore):
    game = await clocked.create_game("g", "c", "tiny-towns", "1", "ann", {}, "1")
    seats = [
        SeatRow(0, "1", "ann", "human", 1),
        SeatRow(1, "2", "bob", "human", 1),
        SeatRow(2, "bot:level1", "Bot", "bot", 1),
    ]
    game, _ = await clocked.commit(game, seats=seats, notes={"a": "1", "b": "2"})
    game, _ = await clocked.commit(game, notes={"a": None, "c": "3"})
    await clocked.set_channel_setting("g", "*", "modrole", "55")
    await clocked.set_channel_setting("g", "*", "reminder", "7200")
    await clocked.set_channel_setting("g", "c", "reminder", "3600")  # the channel's own wins
    await clocked.set_channel_setting("g", "other", "lang", "fr")  # another channel's: not this table's
    await clocked.set_channel_setting("h", "*", "modrole", "66")  # another guild's
    await clocked.set_channel_setting("g", "c", "gone", "x")
    await clocked.set_channel_setting("g", "c", "gone", None)
    for user, value in (("2", "off"), ("3", "off"), ("1", "on")):
        await clocked.set_user_setting(user, "pings", value)
    await clocked.set_user_setting("1", "lang", "off")

    expected = TableRow(
        await clocked.get_game(game.id),
        seats,
        {"modrole": "55", "reminder": "3600"},
        frozenset({"2"}),  # only seated players who turned pings off
        {"b": "2", "c": "3"},
    )
    assert await clocked.table("g", "c") == expected
    assert await clocked.table_by_id(game.id) == expected
    assert await clocked.table("g", "nowhere") is None and await clocked.table_by_id(9999) is None
    assert await clocked.channel_setting("g", "c", "reminder") == "3600"
    assert await clocked.channel_setting("g", "d", "reminder") == "7200"
    assert await clocked.channel_setting("g", "c", "gone") is None
    assert await clocked.user_setting("1", "pings") == "on" and await clocked.user_setting("9", "pings") is None
    # A closed channel's table is its latest game; an open one comes first.
    await clocked.commit(game, status="aborted")
    again = await clocked.create_game("g", "c", "trains", "2", "bob", {}, "1")
    assert (await clocked.table("g", "c")).game.id == again.id
    assert (await clocked.table("g", "c")).seats == [SeatRow(0, "2", "bob", "human", 1)]


async def test_a_failed_transaction_is_rolled_back_and_the_next_one_runs(clocked: AnyStore):
    game = await clocked.create_game("g", "c", "tiny-towns", "1", "ann", {}, "1")
    for _ in range(2):
        with pytest.raises(StaleVersion):
            await clocked.commit(replace(game, version=5), state={"n": 1}, seats=[])
        with pytest.raises(StaleVersion):
            await clocked.set_seats(game.id, 3, [])
    assert await clocked.set_seats(game.id, 0, []) == 1
    assert await rows(clocked, "SELECT version FROM games") == [(1,)]


async def test_one_statement_writes_report_rows_changed_and_new_ids(clocked: AnyStore):
    first = await clocked._write(
        "INSERT INTO timers (game_id, kind, due_at, payload, created_at) VALUES (NULL, 'a', 1, '{}', 0) RETURNING id"
    )
    assert first == WriteResult(1, first.lastrowid) and first.lastrowid is not None and first.lastrowid > 0
    assert await clocked._write("DELETE FROM timers WHERE id = ? RETURNING id", (first.lastrowid + 1,)) == WriteResult(
        0
    )
    assert await clocked._write("UPDATE timers SET kind = 'b' WHERE id = ?", (first.lastrowid,)) == WriteResult(1)
    assert await clocked._write("DELETE FROM timers WHERE id = ? RETURNING id", (first.lastrowid,)) == WriteResult(
        1, first.lastrowid
    )


def test_postgresql_command_statuses_give_the_rows_changed():
    assert [_affected(s) for s in ("UPDATE 1", "INSERT 0 1", "DELETE 12", "SELECT 3", "CREATE TABLE", "")] == [
        1, 1, 12, 3, 0, 0
    ]  # fmt: skip


async def test_a_channels_own_setting_wins_whatever_order_the_rows_come_in(clocked: AnyStore):
    """The table reads the channel's and the guild-wide ('*') settings in one statement; the channel's own
    value wins because it is kept apart, not because its row happens to come last. A channel id that sorts
    before '*' (the store takes any text) reads its rows first."""
    for channel in ("!", "c"):
        await clocked.create_game("g", channel, "tiny-towns", "1", "ann", {}, "1")
        await clocked.set_channel_setting("g", channel, "reminder", "3600")
    await clocked.set_channel_setting("g", "*", "reminder", "7200")
    await clocked.set_channel_setting("g", "*", "modrole", "55")
    for channel in ("!", "c"):
        table = await clocked.table("g", channel)
        assert table is not None and table.settings == {"reminder": "3600", "modrole": "55"}, channel


def test_a_statement_returning_its_new_id_is_known_by_its_last_words():
    from storage.shared import returns_id

    assert returns_id("INSERT INTO t (a) VALUES (?) RETURNING id\n    ")  # trailing space and line breaks
    assert returns_id("insert into t (a) values (?) returning ID")
    assert not returns_id("INSERT INTO t (a) VALUES (?)") and not returns_id("  RETURNING id, a")


async def test_a_row_with_several_damaged_columns_names_each(clocked: AnyStore):
    game = await clocked.create_game("g", "c", "tiny-towns", "1", "ann", {}, "1")
    await clocked._write("UPDATE games SET state = '{broken', state_z = NULL, options = '[1]' WHERE id = ?", (game.id,))
    damaged = await clocked.get_game(game.id)
    assert damaged is not None and damaged.state is None and damaged.options == {}
    assert damaged.damaged == (
        "its saved state cannot be decoded (not valid JSON); its options cannot be decoded (not a JSON object)"
    )
