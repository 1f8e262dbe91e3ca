"""What the adapter needs from bot/core.py (replace with bot, clicks checked for staleness by the
core, the move menu, players, rules topics, what a reply carries for buttons), and the timer dispatcher."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

import games
from bot import replies as R
from bot.core import Conductor
from bot.discord.dispatcher import TimerDispatcher
from bot.replies import Actor, Reply
from storage import Store, open_store

GUILD, CHANNEL = "g1", "c1"
ANN, BOB, MOD = Actor("1", "ann"), Actor("2", "bob"), Actor("9", "mod", is_moderator=True)


@pytest.fixture(params=["sqlite", "postgres"])
async def store(request: pytest.FixtureRequest, tmp_path) -> AsyncIterator[Store]:
    """On an SQLite file, and on a fresh PostgreSQL database."""
    target = request.getfixturevalue("postgres_url") if request.param == "postgres" else str(tmp_path / "test.db")
    s = await open_store(target)
    yield s
    await s.close()


async def say(host: Conductor, actor: Actor, text: str) -> Reply:
    reply = await host.handle(GUILD, CHANNEL, actor, text)
    return reply


async def replace_with_bot(host: Conductor, actor: Actor, player: str) -> Reply:
    """What the deadline's "Bot for ..." button sends (through ``Conductor.click`` in the adapter)."""
    return await say(host, actor, f"/game replacebot {player}")


async def started(host: Conductor) -> None:
    for actor, text in [
        (ANN, "/game new tiny-towns buildings=first-game"),
        (BOB, "/game join"),
        (ANN, "/game start"),
    ]:
        assert (await say(host, actor, text)).ok


async def test_replace_with_bot_hands_the_seat_to_the_ai_which_moves_at_once(store: Store) -> None:
    host = Conductor(store, seed_source=lambda: 4, render_images=False)
    await started(host)
    assert (await say(host, ANN, "/tt announce wood")).ok
    assert (await say(host, ANN, "/tt place A1")).ok  # now only bob must act
    refused = await replace_with_bot(host, ANN, BOB.user_id)
    assert refused.error == R.FORBIDDEN
    unknown = await replace_with_bot(host, MOD, "zed")
    assert unknown.error == R.BAD_COMMAND and "ann, bob" in unknown.private

    reply = await replace_with_bot(host, MOD, f"<@{BOB.user_id}>")
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
    again = await replace_with_bot(host, MOD, "bob")
    assert again.error == R.BAD_COMMAND and "already a bot" in again.private


async def test_replace_with_bot_needs_a_running_game(store: Store) -> None:
    host = Conductor(store, seed_source=lambda: 4, render_images=False)
    assert (await replace_with_bot(host, MOD, "ann")).error == R.NO_GAME
    assert (await say(host, ANN, "/game new tiny-towns")).ok
    lobby = await replace_with_bot(host, MOD, "ann")
    assert lobby.error == R.NOT_STARTED and "/game addbot" in lobby.private


async def test_a_click_is_refused_as_stale_by_the_core_unless_its_game_and_version_are_current(store: Store) -> None:
    host = Conductor(store, seed_source=lambda: 4, render_images=False)
    await started(host)
    drawn = await say(host, ANN, "/tt announce wood")
    assert drawn.ok and drawn.game_id is not None and drawn.version is not None
    game_id, version = drawn.game_id, drawn.version
    assert (await say(host, ANN, "/tt place A1")).ok  # the board the buttons were drawn on is now old
    old = await host.click(GUILD, CHANNEL, ANN, game_id, version, "/game undo")
    assert old.error == R.STALE and not old.ok
    current = await say(host, BOB, "/game status")
    assert current.version is not None and current.version > version
    other_game = await host.click(GUILD, CHANNEL, BOB, game_id + 1, current.version, "/tt place B1")
    assert other_game.error == R.STALE  # the channel's game is another one
    menu = await host.move_menu(GUILD, CHANNEL, BOB, game_id, version)
    assert menu.error == R.STALE and menu.legal == []
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None and row.version == current.version  # nothing changed


async def test_a_click_may_name_a_bare_verb_of_the_games_own_group(store: Store) -> None:
    host = Conductor(store, seed_source=lambda: 4, render_images=False)
    await started(host)
    reply = await say(host, ANN, "/tt announce wood")
    assert reply.ok and reply.game_id is not None and reply.version is not None
    placed = await host.click(GUILD, CHANNEL, ANN, reply.game_id, reply.version, "/tt place A1")
    assert placed.ok and placed.game_id == reply.game_id and placed.version is not None
    assert placed.status == "active" and placed.group == "tt" and "done" in placed.turn_enders
    done = await host.click(GUILD, CHANNEL, ANN, placed.game_id, placed.version, "done")
    assert done.error != R.BAD_COMMAND, done.private  # "done" was read as /tt done


async def test_the_move_menu_and_the_hand_carry_the_callers_legal_moves(store: Store) -> None:
    host = Conductor(store, seed_source=lambda: 4, render_images=False)
    await started(host)
    status = await say(host, ANN, "/game status")
    assert status.game_id is not None and status.version is not None
    menu = await host.move_menu(GUILD, CHANNEL, ANN, status.game_id, status.version)
    assert menu.ok and menu.legal
    assert sorted(text for text, _ in menu.legal) == sorted(await host.legal_commands(GUILD, CHANNEL, ANN.user_id))
    idle = await host.move_menu(GUILD, CHANNEL, BOB, status.game_id, status.version)
    assert idle.ok and idle.legal == [] and idle.private  # bob waits for ann's resource
    hand = await say(host, ANN, "/game hand")
    assert hand.ok and {text for text, _ in hand.legal} == {text for text, _ in menu.legal}


async def test_players_rules_topics_and_open_game_for_autocomplete(store: Store) -> None:
    host = Conductor(store, seed_source=lambda: 4, render_images=False)
    assert await host.players(GUILD, CHANNEL) == [] and not await host.has_open_game(GUILD, CHANNEL)
    assert await host.rules_topics(GUILD, CHANNEL, None) == []
    assert await host.rules_topics(GUILD, CHANNEL, "trains")  # a named game needs no channel game
    assert await host.rules_topics(GUILD, CHANNEL, "no-such-game") == []
    await started(host)
    assert await host.has_open_game(GUILD, CHANNEL)
    assert await host.players(GUILD, CHANNEL) == [(ANN.user_id, "ann", False), (BOB.user_id, "bob", False)]
    assert set(await host.rules_topics(GUILD, CHANNEL, "")) == set(games.get_game("tiny-towns").rules_help)


async def test_a_deadline_reply_carries_the_humans_it_waits_for(store: Store) -> None:
    now = [1000.0]
    host = Conductor(store, seed_source=lambda: 4, render_images=False, clock=lambda: now[0])
    await started(host)
    assert (await say(host, MOD, "/game config deadline 2")).ok
    assert (await say(host, ANN, "/tt announce wood")).ok
    now[0] += 3 * 3600
    (deadline,) = [reply for kind, _, _, reply in await host.fire_due_timer_events() if kind == "deadline"]
    assert sorted(deadline.waiting) == [(ANN.user_id, "ann"), (BOB.user_id, "bob")]
    assert deadline.game_id is not None and deadline.version is not None


async def test_fired_timers_carry_their_kind(store: Store) -> None:
    now = [1000.0]
    host = Conductor(store, seed_source=lambda: 4, render_images=False, clock=lambda: now[0])
    await started(host)
    assert (await say(host, MOD, "/game config reminder 1")).ok
    assert (await say(host, MOD, "/game config deadline 2")).ok
    assert (await say(host, ANN, "/tt announce wood")).ok
    now[0] += 3 * 3600
    events = await host.fire_due_timer_events()
    assert [(kind, guild, channel) for kind, guild, channel, _ in events] == [
        ("reminder", GUILD, CHANNEL),
        ("deadline", GUILD, CHANNEL),
    ]
    assert "Deadline passed" in events[1][3].public
    assert await host.fire_due_timers() == []  # each timer fires once; the old API still answers


async def test_dispatcher_wakes_early_for_a_new_timer_and_survives_a_failing_post(store: Store) -> None:
    """The host's clock is a test clock and the dispatcher may sleep an hour of real time: a reminder is
    posted only because ``wake()`` made the dispatcher re-read the next due time. Waits are on the posts
    themselves; the hang guard (60 s) is far below the hour the dispatcher would otherwise sleep."""
    now = [1_000_000.0]
    host = Conductor(store, seed_source=lambda: 4, render_images=False, clock=lambda: now[0])
    posted: list[tuple[str, str]] = []
    arrived = asyncio.Condition()

    async def post(kind: str, guild: str, channel: str, reply: Reply) -> None:
        async with arrived:
            posted.append((kind, reply.public))
            arrived.notify_all()
        if len(posted) == 1:
            raise RuntimeError("Discord is down")  # must be logged, not kill the dispatcher

    async def posts(count: int) -> None:
        async with arrived:
            await asyncio.wait_for(arrived.wait_for(lambda: len(posted) >= count), 60)

    dispatcher = TimerDispatcher(host, post, max_sleep=3600)
    dispatcher.start()
    try:
        await started(host)  # reminders 12 h away on the test clock: nothing is due
        assert await host.fire_due_timer_events() == [] and posted == []
        assert (await say(host, MOD, "/game config reminder 0.0001")).ok  # 0.36 s
        assert (await say(host, ANN, "/tt announce wood")).ok
        now[0] += 1
        dispatcher.wake()
        await posts(1)
        assert posted[0][0] == "reminder"
        assert (await say(host, ANN, "/tt place A1")).ok
        now[0] += 1
        dispatcher.wake()
        await posts(2)
        assert len(posted) == 2 and dispatcher.fired == 2  # still alive after the failing post
    finally:
        await dispatcher.stop()


async def test_a_burst_of_wakes_costs_one_read_of_the_next_due_time(store: Store) -> None:
    """Every command wakes the dispatcher; wakes that come within ``settle`` of the first share one
    re-read (it takes the store's lock, which the commands queue behind). Without the settle, each of
    these wakes, 10 ms apart, would be a read of its own."""
    host = Conductor(store, seed_source=lambda: 4, render_images=False)

    async def post(kind: str, guild: str, channel: str, reply: Reply) -> None:
        raise AssertionError("nothing is due")

    dispatcher = TimerDispatcher(host, post, max_sleep=3600, settle=0.5)

    async def reads(count: int) -> None:
        async def reached() -> None:
            while dispatcher.reads < count:
                await asyncio.sleep(0.01)

        await asyncio.wait_for(reached(), 10)

    dispatcher.start()
    try:
        await reads(1)  # the first read, at start
        for _ in range(20):
            dispatcher.wake()
            await asyncio.sleep(0.01)
        assert dispatcher.reads == 1  # still settling: 0.2 s of wakes, 0.5 s of settle
        await reads(2)
        await asyncio.sleep(0.1)
        assert dispatcher.reads == 2
    finally:
        await dispatcher.stop()
