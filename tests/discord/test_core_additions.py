"""The two small additions the adapter needed in bot/core.py, and the timer dispatcher."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest

from bot import replies as R
from bot.core import Conductor
from bot.discord.dispatcher import TimerDispatcher
from bot.replies import Actor, Reply
from storage import Store

GUILD, CHANNEL = "g1", "c1"
ANN, BOB, MOD = Actor("1", "ann"), Actor("2", "bob"), Actor("9", "mod", is_moderator=True)


@pytest.fixture
async def store(tmp_path) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "test.db")
    yield s
    await s.close()


async def say(host: Conductor, actor: Actor, text: str) -> Reply:
    reply = await host.handle(GUILD, CHANNEL, actor, text)
    return reply


async def started(host: Conductor) -> None:
    for actor, text in [(ANN, "/game new tiny-towns buildings=first-game"), (BOB, "/game join"),
                        (ANN, "/game start seed=4")]:
        assert (await say(host, actor, text)).ok


async def test_replace_with_bot_hands_the_seat_to_the_ai_which_moves_at_once(store: Store) -> None:
    host = Conductor(store, render_images=False)
    await started(host)
    assert (await say(host, ANN, "/tt announce wood")).ok
    assert (await say(host, ANN, "/tt place A1")).ok  # now only bob must act
    refused = await host.replace_with_bot(GUILD, CHANNEL, ANN, BOB.user_id)
    assert refused.error == R.FORBIDDEN
    unknown = await host.replace_with_bot(GUILD, CHANNEL, MOD, "zed")
    assert unknown.error == R.BAD_COMMAND and "ann, bob" in unknown.private

    reply = await host.replace_with_bot(GUILD, CHANNEL, MOD, f"<@{BOB.user_id}>")
    assert reply.ok and "bob's seat to a bot" in reply.public
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None and reply.version == row.version
    seats = await store.seats(row.id)
    assert (seats[1].kind, seats[1].display_name, seats[1].bot_level) == ("bot", "bob", 1)
    assert seats[1].user_id != BOB.user_id
    moves = await store.moves(row.id)
    assert moves[-1].seat == 1 and moves[-1].user_id == seats[1].user_id  # the bot played bob's place
    assert "bob" in reply.public.split("\n", 1)[1]  # and the reply tells what it did

    gone = await say(host, BOB, "/tt place B1")
    assert gone.error == R.NOT_PLAYER  # the human no longer controls the seat
    again = await host.replace_with_bot(GUILD, CHANNEL, MOD, "bob")
    assert again.error == R.BAD_COMMAND and "already a bot" in again.private


async def test_replace_with_bot_needs_a_running_game(store: Store) -> None:
    host = Conductor(store, render_images=False)
    assert (await host.replace_with_bot(GUILD, CHANNEL, MOD, "ann")).error == R.NO_GAME
    assert (await say(host, ANN, "/game new tiny-towns")).ok
    lobby = await host.replace_with_bot(GUILD, CHANNEL, MOD, "ann")
    assert lobby.error == R.NOT_STARTED and "/game addbot" in lobby.private


async def test_fired_timers_carry_their_kind(store: Store) -> None:
    now = [1000.0]
    host = Conductor(store, render_images=False, clock=lambda: now[0])
    await started(host)
    assert (await say(host, MOD, "/game config reminder 1")).ok
    assert (await say(host, MOD, "/game config deadline 2")).ok
    assert (await say(host, ANN, "/tt announce wood")).ok
    now[0] += 3 * 3600
    events = await host.fire_due_timer_events()
    assert [(kind, guild, channel) for kind, guild, channel, _ in events] == [
        ("reminder", GUILD, CHANNEL), ("deadline", GUILD, CHANNEL)]
    assert "Deadline passed" in events[1][3].public
    assert await host.fire_due_timers() == []  # each timer fires once; the old API still answers


async def test_dispatcher_wakes_early_for_a_new_timer_and_survives_a_failing_post(store: Store) -> None:
    host = Conductor(store, render_images=False)
    posted: list[tuple[str, str]] = []

    async def post(kind: str, guild: str, channel: str, reply: Reply) -> None:
        posted.append((kind, reply.public))
        if len(posted) == 1:
            raise RuntimeError("Discord is down")  # must be logged, not kill the dispatcher

    dispatcher = TimerDispatcher(host, post, max_sleep=3600)
    dispatcher.start()
    try:
        await started(host)  # reminders 12 h away: the dispatcher sleeps (up to an hour)
        await asyncio.sleep(0.05)
        assert posted == []
        assert (await say(host, MOD, "/game config reminder 0.0001")).ok  # 0.36 s
        assert (await say(host, ANN, "/tt announce wood")).ok
        dispatcher.wake()
        started_at = time.monotonic()
        while len(posted) < 1 and time.monotonic() - started_at < 5:
            await asyncio.sleep(0.02)
        assert posted and posted[0][0] == "reminder"
        assert time.monotonic() - started_at < 3  # woke for it; did not sleep the hour
        assert (await say(host, ANN, "/tt place A1")).ok
        dispatcher.wake()
        while len(posted) < 2 and time.monotonic() - started_at < 8:
            await asyncio.sleep(0.02)
        assert len(posted) == 2 and dispatcher.fired == 2  # still alive after the failing post
    finally:
        await dispatcher.stop()
