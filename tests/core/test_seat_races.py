"""Seat-list writes racing each other from separate processes (modelled by separate connections,
each host with its own in-process locks): every acknowledged seat change is kept, never silently
overwritten by another writer that read the same version (issue 17, item 1). On both backends."""

from __future__ import annotations

import asyncio

from bot import replies as R
from bot.core import Conductor
from bot.replies import Actor
from storage import open_store
from tests.core.conftest import ANN, BOB, CHANNEL, GUILD, MOD, say

PLAYERS = [Actor(str(10 + i), f"p{i}") for i in range(5)]


async def _hosts(target: str, count: int) -> list[Conductor]:
    """``count`` hosts, each with its own store (connection or pool) on one database, on each backend."""
    return [Conductor(await open_store(target), render_images=False, seed_source=lambda: 3) for _ in range(count)]


async def _close(hosts: list[Conductor]) -> None:
    for host in hosts:
        await host.store.close()


def _explicit(reply: R.Reply) -> bool:
    return not reply.ok and bool(reply.private) and reply.error in (R.STALE, R.BAD_COMMAND)


async def test_five_simultaneous_joins_are_all_seated_or_explicitly_refused(store_target: str) -> None:
    hosts = await _hosts(store_target, 5)
    try:
        assert (await say(hosts[0], ANN, "/game new tiny-towns")).ok
        replies = await asyncio.gather(
            *(h.handle(GUILD, CHANNEL, p, "/game join") for h, p in zip(hosts, PLAYERS, strict=True))
        )
        row = await hosts[0].store.open_game(GUILD, CHANNEL)
        assert row is not None
        seated = [s.user_id for s in await hosts[0].store.seats(row.id)]
        acknowledged = [p.user_id for p, reply in zip(PLAYERS, replies, strict=True) if reply.ok]
        assert all(reply.ok or _explicit(reply) for reply in replies), [r.private for r in replies]
        assert sorted(seated) == sorted([ANN.user_id, *acknowledged])  # nobody answered OK and lost
        assert sorted(s for s in seated) == sorted({*seated})  # and nobody seated twice
        assert [s.seat for s in await hosts[0].store.seats(row.id)] == list(range(len(seated)))
        # The version moved once per acknowledged join: no write went through unguarded.
        assert row.version == len(acknowledged)
        assert len(acknowledged) == 5  # a stale read is retried on the fresh seat list, not refused
    finally:
        await _close(hosts)


async def test_simultaneous_leave_join_addbot_and_kick_keep_every_acknowledged_change(store_target: str) -> None:
    hosts = await _hosts(store_target, 4)
    try:
        assert (await say(hosts[0], ANN, "/game new tiny-towns")).ok
        for p in (BOB, PLAYERS[0]):
            assert (await say(hosts[0], p, "/game join")).ok
        replies = await asyncio.gather(
            hosts[0].handle(GUILD, CHANNEL, BOB, "/game leave"),
            hosts[1].handle(GUILD, CHANNEL, PLAYERS[1], "/game join"),
            hosts[2].handle(GUILD, CHANNEL, ANN, "/game addbot"),
            hosts[3].handle(GUILD, CHANNEL, MOD, f"/mod kick {PLAYERS[0].name}"),
        )
        assert all(reply.ok for reply in replies), [r.private for r in replies]
        row = await hosts[0].store.open_game(GUILD, CHANNEL)
        assert row is not None
        seats = await hosts[0].store.seats(row.id)
        names = [s.display_name for s in seats]
        assert sorted(names) == sorted(["ann", "p1", "Bot 1"]), names
        assert [s.seat for s in seats] == [0, 1, 2]
    finally:
        await _close(hosts)


async def test_a_substitute_and_a_replacebot_at_once_both_land(store_target: str) -> None:
    hosts = await _hosts(store_target, 2)
    try:
        for actor, text in [(ANN, "/game new tiny-towns buildings=first-game"), (BOB, "/game join")]:
            assert (await say(hosts[0], actor, text)).ok
        assert (await say(hosts[0], PLAYERS[0], "/game join")).ok
        assert (await say(hosts[0], ANN, "/game start")).ok
        replies = await asyncio.gather(
            hosts[0].handle(
                GUILD, CHANNEL, MOD, f"/mod substitute {BOB.name} <@{PLAYERS[1].user_id}>", {PLAYERS[1].user_id: "p1"}
            ),
            hosts[1].handle(GUILD, CHANNEL, MOD, f"/mod replacebot {PLAYERS[0].name}"),
        )
        assert all(reply.ok for reply in replies), [r.private for r in replies]
        row = await hosts[0].store.open_game(GUILD, CHANNEL)
        assert row is not None
        seats = {s.seat: (s.user_id, s.kind) for s in await hosts[0].store.seats(row.id)}
        assert seats[1] == (PLAYERS[1].user_id, "human") and seats[2][1] == "bot"
    finally:
        await _close(hosts)
