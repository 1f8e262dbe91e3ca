"""The start-up post lease against the fake Discord and the real bot process: a bot killed after start-up
repair claimed a pending announcement and before it posted it loses nothing; the next process posts it
once the lease has run out, exactly once. On SQLite and PostgreSQL.

The kills are test hooks of the bot process (bot/discord/testhooks.py), honoured only with
CONDUCTOR_TEST_HOOKS=1.
"""

from __future__ import annotations

import asyncio
import signal
import sys

from tests.discord import test_lifecycle
from tests.discord.botproc import BotProcess
from tests.discord.fake_discord import FakeDiscord
from tests.discord.helpers import pending_announcements, poll, query
from tests.discord.test_lifecycle import LOBBY, exit_code, posts_containing, start_bot

F = FakeDiscord
LEASE = 5.0
# The lifecycle tests' fixtures: each backend's database, and the bot processes to kill at the end.
database_url = test_lifecycle.database_url
processes = test_lifecycle.processes


async def run_until_killed(bot: BotProcess) -> None:
    """Start the bot process and wait for it to kill itself (before it ever connects)."""
    bot.starts += 1
    with open(bot.log_path, "a") as log:
        log.write(f"\n----- start {bot.starts} -----\n")
        log.flush()
        bot.process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.cli", "run", cwd=bot.workdir, env=bot.env(), stdout=log, stderr=log
        )
    assert await exit_code(bot, 120) == -signal.SIGKILL, bot.log()[-3000:]


async def test_a_kill_between_claiming_and_posting_loses_nothing_and_posts_once(
    fake: FakeDiscord, tmp_path, processes: list[BotProcess], database_url: str | None
) -> None:
    bot = await start_bot(
        fake, tmp_path, database_url, CONDUCTOR_TEST_KILL_AFTER="/tt announce", OUTBOX_LEASE_SECONDS=str(LEASE)
    )
    processes.append(bot)
    await (await fake.slash(F.ANN, "game new", LOBBY)).settle(timeout=60)
    await (await fake.slash(F.BOB, "game join")).settle(timeout=60)
    await (await fake.slash(F.ANN, "game start")).settle(timeout=60)
    await fake.slash(F.ANN, "tt announce", {"resource": "wood"})
    assert await exit_code(bot) == -signal.SIGKILL  # committed, never posted
    await fake.wait_until(lambda: not fake.connected, 10)
    assert pending_announcements(bot.database, F.GAMES) == 1

    # Start-up repair claims it, and the process dies before posting: the row stays, leased.
    bot.extra_env.pop("CONDUCTOR_TEST_KILL_AFTER")
    bot.extra_env["CONDUCTOR_TEST_KILL_AFTER_CLAIM"] = "1"
    await run_until_killed(bot)
    assert "SIGKILL after claiming 1 pending announcements" in bot.log()
    assert posts_containing(fake, F.GAMES, "ann names wood") == []
    assert pending_announcements(bot.database, F.GAMES) == 1
    ((claimed_by,),) = query(bot.database, "SELECT claimed_by FROM outbox")
    assert claimed_by

    # The next process posts it once the dead one's lease has run out (at start-up, or a lease later).
    bot.extra_env.pop("CONDUCTOR_TEST_KILL_AFTER_CLAIM")
    await bot.start()
    await fake.wait_until(lambda: bool(posts_containing(fake, F.GAMES, "ann names wood")), 30)
    await poll(lambda: pending_announcements(bot.database, F.GAMES) == 0)
    await asyncio.sleep(2 * LEASE)  # two more lease periods: nothing is posted again
    (announced,) = posts_containing(fake, F.GAMES, "ann names wood")
    assert announced.interaction_id is None and announced.mentioned_users() == [F.BOB]
    assert await bot.stop() == 0
    assert fake.violations == [] and fake.unknown == []
    assert "Traceback" not in bot.log(), bot.log()[-3000:]
