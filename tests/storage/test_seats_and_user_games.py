"""Seat lists replaced under the version check, a user's games by status, and which process owns a guild."""

from __future__ import annotations

import pytest

from storage import AnyStore, SeatRow, Shards, StaleVersion
from tests.storage.conftest import Clock, rows

# Snowflakes whose shard of 2 is 0 and 1: (id >> 22) % 2.
GUILD_ON_0, GUILD_ON_1 = str(4 << 22), str(5 << 22)
SEATS = [SeatRow(0, "u1", "ann", "human", 0), SeatRow(1, "bot:level2", "Bot 2", "bot", 2)]


async def test_set_seats_replaces_the_list_bumps_the_version_and_stamps_the_time(clocked: AnyStore, clock: Clock):
    game = await clocked.create_game("g", "c", "tiny-towns", "u1", "ann", {}, "1")
    other = await clocked.create_game("g", "c2", "tiny-towns", "u9", "zed", {}, "1")
    clock.now = 2000.5
    assert await clocked.set_seats(game.id, 0, SEATS) == 1
    assert await clocked.seats(game.id) == SEATS
    row = await clocked.get_game(game.id)
    assert (row.version, row.updated_at, row.created_at) == (1, 2000.5, 1000.0)
    # Another game's seats and version are untouched.
    assert await clocked.seats(other.id) == [SeatRow(0, "u9", "zed", "human", 1)]
    assert (await clocked.get_game(other.id)).version == 0

    clock.now = 3000.0
    with pytest.raises(StaleVersion) as refused:
        await clocked.set_seats(game.id, 0, [SEATS[0]])
    assert refused.value.args == (game.id,)
    assert await clocked.seats(game.id) == SEATS  # nothing written
    assert (await clocked.get_game(game.id)).updated_at == 2000.5

    assert await clocked.set_seats(game.id, 1, [SeatRow(0, "u2", "bob", "human", 0)]) == 2
    assert await clocked.seats(game.id) == [SeatRow(0, "u2", "bob", "human", 0)]
    assert await clocked.set_seats(game.id, 2, []) == 3
    assert await clocked.seats(game.id) == []
    assert await rows(clocked, "SELECT game_id, seat, user_id FROM seats ORDER BY game_id, seat") == [
        (other.id, 0, "u9")
    ]
    assert await clocked.set_seats(game.id, 3, SEATS[::-1]) == 4
    assert await clocked.seats(game.id) == SEATS  # read back by seat number


async def test_games_of_user_lists_the_games_they_sit_in_by_status(clocked: AnyStore):
    lobby = await clocked.create_game("g", "c1", "tiny-towns", "u1", "ann", {"a": 1}, "1")
    active = await clocked.create_game("g", "c2", "trains", "u2", "bob", {}, "2")
    finished = await clocked.create_game("g", "c3", "tiny-towns", "u1", "ann", {}, "1")
    await clocked.set_seats(active.id, 0, [SeatRow(0, "u2", "bob", "human", 0), SeatRow(1, "u1", "ann", "human", 0)])
    await clocked.update_game(active.id, 1, status="active", state={"n": 1}, seed=5)
    await clocked.update_game(finished.id, 0, status="finished")

    mine = await clocked.games_of_user("u1")
    assert [g.id for g in mine] == [lobby.id, active.id]
    assert mine == [await clocked.get_game(lobby.id), await clocked.get_game(active.id)]
    assert (mine[1].state, mine[1].seed, mine[1].status, mine[1].game) == ({"n": 1}, 5, "active", "trains")
    assert [g.id for g in await clocked.games_of_user("u1", ("finished",))] == [finished.id]
    assert [g.id for g in await clocked.games_of_user("u1", ("active", "finished"))] == [active.id, finished.id]
    assert [g.id for g in await clocked.games_of_user("u2")] == [active.id]
    assert await clocked.games_of_user("u3") == []


def test_a_process_owns_the_guilds_of_its_shards():
    assert Shards(2, frozenset({1})).owns(GUILD_ON_1) and not Shards(2, frozenset({1})).owns(GUILD_ON_0)
    assert Shards(2, frozenset({0})).owns(GUILD_ON_0) and not Shards(2, frozenset({0})).owns(GUILD_ON_1)
    assert Shards(2, frozenset({0})).owns("g1") and not Shards(2, frozenset({1})).owns("g1")  # not a snowflake
    assert Shards(1, frozenset({0})).owns(GUILD_ON_1)
    assert Shards(2, frozenset({0, 1})).everything and not Shards(2, frozenset({1})).everything
