"""Issue 9 against the fake Discord and the real bot process: refusals never appear in the channel,
SIGTERM lets commands in flight finish, and after a SIGKILL right after a commit the restarted bot
announces the move exactly once, plays the turn of a game waiting on a bot and restores timers.

The slow renderer and the kill after a commit are test hooks of the bot process
(bot/discord/testhooks.py), honoured only with CONDUCTOR_TEST_HOOKS=1.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.discord.app import RESTARTING
from bot.discord.bridge import DEFER_AFTER
from tests.discord.botproc import BotProcess
from tests.discord.fake_discord import EPHEMERAL, LOADING, FakeDiscord, InteractionRecord, Message
from tests.discord.helpers import execute, pending_announcements, poll, query, read_game, timer_kinds

F = FakeDiscord
LOBBY = {"game": "tiny-towns", "options": "buildings=first-game"}


def every_message(record: InteractionRecord) -> list[Message]:
    """Everything ever created for the interaction, deleted messages included."""
    return [m for m in record.fake.messages.values() if m.interaction_id == record.id]


def assert_only_private(record: InteractionRecord, text: str) -> None:
    """Refused with one ephemeral first response: nothing public, no "thinking" ever, no later edits."""
    assert record.callback_type == 4 and record.callbacks == 1, record.callback_type
    messages = every_message(record)
    assert messages and all(m.flags & EPHEMERAL and not m.deleted for m in messages), [
        (m.content, m.flags) for m in messages
    ]
    assert text.lower() in messages[0].content.lower(), messages[0].content
    token = f"/{record.token}/"
    assert not [r for r in record.fake.requests if token in r.path and r.method in ("PATCH", "DELETE")]


def posts_containing(fake: FakeDiscord, channel: int, text: str) -> list[Message]:
    return [m for m in fake.public_messages(channel) if text in m.content]


async def start_bot(fake: FakeDiscord, workdir: Path, database_url: str | None = None, **env: str) -> BotProcess:
    process = BotProcess(fake, workdir, {"CONDUCTOR_TEST_HOOKS": "1", **env}, database_url=database_url)
    code, out = await process.cli("sync", "--guild", str(fake.GUILD))
    assert code == 0, out
    await process.start()
    return process


async def exit_code(process: BotProcess, timeout: float = 20.0) -> int:
    assert process.process is not None
    return await asyncio.wait_for(process.process.wait(), timeout)


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest) -> str | None:
    """The SQLite file (None), or a fresh PostgreSQL database."""
    return str(request.getfixturevalue("postgres_url")) if request.param == "postgres" else None


@pytest.fixture
async def processes() -> AsyncIterator[list[BotProcess]]:
    """Bot processes a test started; killed at the end if still running."""
    started: list[BotProcess] = []
    yield started
    for process in started:
        if process.process is not None and process.process.returncode is None:
            process.process.kill()
            await process.process.wait()


async def test_refusals_are_never_public_and_accepted_commands_answer_at_once(
    fake: FakeDiscord, bot: BotProcess
) -> None:
    no_game = await (await fake.slash(F.ANN, "game join")).settle()
    assert_only_private(no_game, "no game")

    opened = await (await fake.slash(F.ANN, "game new", LOBBY)).settle()
    assert opened.callback_type == 4 and opened.callbacks == 1  # the lobby itself is the first response
    (lobby,) = every_message(opened)
    assert not lobby.flags & (EPHEMERAL | LOADING) and "opened a Tiny Towns lobby" in lobby.content

    assert_only_private(await (await fake.slash(F.BOB, "game start")).settle(), "host")
    assert_only_private(await (await fake.slash(F.ANN, "game new", LOBBY)).settle(), "already")
    await (await fake.slash(F.BOB, "game join")).settle()
    started = await (await fake.slash(F.ANN, "game start")).settle()
    # The board is the first response, not "thinking", unless the core took longer than DEFER_AFTER (a loaded
    # machine): the rule is checked either way, so the test does not depend on how fast this machine is.
    if started.callback_type == 5:
        assert started.callback_at is not None and started.callback_at - started.dispatched_at >= DEFER_AFTER
    else:
        assert started.callback_type == 4 and started.callbacks == 1
    assert started.public[0].attachments and "Tiny Towns started" in started.public[0].content
    assert_only_private(await (await fake.slash(F.BOB, "tt announce", {"resource": "wood"})).settle(), "")
    assert_only_private(await (await fake.slash(F.ANN, "tt place", {"square": "Z9"})).settle(), "not a square")
    assert_only_private(await (await fake.slash(F.CAT, "mod skip")).settle(), "moderator")

    await poll(lambda: pending_announcements(bot.database, F.GAMES) == 0)  # everything accepted was posted
    assert fake.violations == [] and fake.unknown == []


async def test_a_slow_core_is_deferred_and_its_move_still_reaches_the_channel(
    fake: FakeDiscord, tmp_path: Path, processes: list[BotProcess]
) -> None:
    bot = await start_bot(fake, tmp_path, CONDUCTOR_TEST_RENDER_DELAY="3")
    processes.append(bot)
    await (await fake.slash(F.ANN, "game new", LOBBY)).settle()
    await (await fake.slash(F.BOB, "game join")).settle()
    started = await (await fake.slash(F.ANN, "game start")).settle(timeout=20)
    assert started.callback_type == 5 and started.callback_at is not None  # deferred publicly, in time
    assert started.callback_at - started.dispatched_at < 3.0
    (board,) = started.public
    assert board.attachments and "Tiny Towns started" in board.content and board.mentioned_users() == [F.ANN]
    refused = await (await fake.slash(F.BOB, "game start")).settle()
    assert_only_private(refused, "host")  # refusals draw nothing: still answered at once

    await (await fake.slash(F.ANN, "tt announce", {"resource": "wood"})).settle()
    await (await fake.slash(F.ANN, "tt place", {"square": "A1"})).settle()
    # The "thinking" message vanishes before the slow board is ready: the move is posted to the channel.
    fake.fail_next("PATCH", r"/messages/@original$", 404, 10008, "Unknown Message")
    lost = await fake.slash(F.BOB, "tt place", {"square": "B2"})
    await fake.wait_until(lambda: bool(posts_containing(fake, F.GAMES, "bob places wood on B2")), 20)
    # Marked posted only once the bot has posted it to the channel: nothing more is on its way.
    await poll(lambda: pending_announcements(bot.database, F.GAMES) == 0)
    (posted,) = posts_containing(fake, F.GAMES, "bob places wood on B2")
    assert posted.interaction_id is None and posted.attachments
    assert lost.public == []
    assert fake.violations == [] and fake.unknown == []


async def test_sigterm_lets_the_command_in_flight_finish_and_exits_cleanly(
    fake: FakeDiscord, tmp_path: Path, processes: list[BotProcess]
) -> None:
    bot = await start_bot(fake, tmp_path, CONDUCTOR_TEST_RENDER_DELAY="3")
    processes.append(bot)
    await (await fake.slash(F.ANN, "game new", LOBBY)).settle()
    await (await fake.slash(F.BOB, "game join")).settle()

    in_flight = await fake.slash(F.ANN, "game start")  # commits, then draws the board for 3 s
    await poll(lambda: read_game(bot.database).status == "active")  # committed; the board is being drawn
    assert bot.process is not None and not in_flight.public
    bot.process.send_signal(signal.SIGTERM)
    await poll(lambda: "SIGTERM: shutting down" in bot.log())  # draining from here on
    late = await (await fake.slash(F.BOB, "game status")).settle()  # arrives while shutting down
    assert_only_private(late, RESTARTING)

    assert await exit_code(bot) == 0
    assert in_flight.callback_type == 5  # deferred publicly after ~2 s, then filled
    (board,) = in_flight.public
    assert "Tiny Towns started" in board.content and board.attachments and board.mentioned_users() == [F.ANN]
    assert not [m for m in every_message(in_flight) if m.loading]
    assert read_game(bot.database).status == "active"
    assert pending_announcements(bot.database, F.GAMES) == 0
    log = bot.log()
    assert "SIGTERM: shutting down" in log and "database closed" in log, log[-3000:]
    assert "Traceback" not in log, log[-3000:]
    assert fake.violations == [] and fake.unknown == []


async def test_sigkill_right_after_a_commit_then_restart_announces_once_and_repairs(
    fake: FakeDiscord, tmp_path: Path, processes: list[BotProcess], database_url: str | None
) -> None:
    bot = await start_bot(fake, tmp_path, database_url, CONDUCTOR_TEST_KILL_AFTER="/tt announce")
    processes.append(bot)
    table = fake.extra_channels[0]
    for channel in (F.GAMES, table):
        await (await fake.slash(F.ANN, "game new", LOBBY, channel=channel)).settle()
        await (await fake.slash(F.BOB, "game join", channel=channel)).settle()
        await (await fake.slash(F.ANN, "game start", channel=channel)).settle()
    before = read_game(bot.database, F.GAMES)

    killed = await fake.slash(F.ANN, "tt announce", {"resource": "wood"})
    assert await exit_code(bot) == -signal.SIGKILL
    await fake.wait_until(lambda: not fake.connected, 10)
    assert killed.messages == [] and read_game(bot.database, F.GAMES).version == before.version + 1
    assert posts_containing(fake, F.GAMES, "ann names wood") == []  # committed, never posted
    assert pending_announcements(bot.database, F.GAMES) == 1

    # While the bot is down: the table's game waits on a bot (its first seat is handed to the AI
    # directly in the database), and both games lose their timers.
    waiting_on_bot = read_game(bot.database, table)
    execute(
        bot.database,
        "UPDATE seats SET kind = 'bot', bot_level = 0 WHERE game_id = ? AND seat = 0",
        (waiting_on_bot.id,),
    )
    execute(bot.database, "DELETE FROM timers")

    bot.extra_env.pop("CONDUCTOR_TEST_KILL_AFTER")
    await bot.start()
    await fake.wait_until(lambda: bool(posts_containing(fake, F.GAMES, "ann names wood")), 20)
    await poll(lambda: read_game(bot.database, table).version > waiting_on_bot.version)
    # The outbox drops an announcement when it is claimed for posting, so an empty outbox is not yet a
    # post: wait for the bot's turn to reach the table's channel.
    await fake.wait_until(lambda: any(m.interaction_id is None for m in fake.public_messages(table)), 20)
    await poll(lambda: pending_announcements(bot.database, table) == 0 == pending_announcements(bot.database, F.GAMES))

    (announced,) = posts_containing(fake, F.GAMES, "ann names wood")
    assert announced.interaction_id is None and announced.mentioned_users() == [F.BOB]
    assert pending_announcements(bot.database, F.GAMES) == 0
    played = read_game(bot.database, table)
    seats = [seat for (seat,) in query(bot.database, "SELECT seat FROM moves WHERE game_id = ?", (played.id,))]
    assert 0 in seats  # the bot has moved
    (bot_post,) = [m for m in fake.public_messages(table) if m.interaction_id is None]
    assert bot_post.mentioned_users() == [F.BOB]
    for game in (read_game(bot.database, F.GAMES), played):
        assert "reminder" in timer_kinds(bot.database, game.id), game.id

    # A clean restart posts nothing again.
    assert await bot.stop() == 0
    posts = len(fake.requests_to("POST", r"/channels/\d+/messages$"))
    await bot.start()
    # Start-up repair runs before the bot connects and logs any pending announcements it will post; with
    # none pending and none logged, nothing can be posted afterwards.
    this_start = bot.log().rsplit(f"----- start {bot.starts} -----", 1)[-1]
    assert "; commands: " in this_start and "pending announcements" not in this_start
    assert pending_announcements(bot.database, F.GAMES) == 0 == pending_announcements(bot.database, table)
    assert len(fake.requests_to("POST", r"/channels/\d+/messages$")) == posts
    assert len(posts_containing(fake, F.GAMES, "ann names wood")) == 1
    assert fake.violations == [] and fake.unknown == []
    assert "Traceback" not in bot.log(), bot.log()[-3000:]
    assert await bot.stop() == 0
