"""Two bot processes, one shard each, against the fake Discord and one PostgreSQL database.

Games run in a guild on each shard. One process is SIGKILLed mid-game and restarted: its guild's
reminder waits for it (the other process does not take it), nothing accepted is lost, nothing is
posted twice, and every reminder goes out once.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from pathlib import Path

import pytest

from storage import Store, open_store
from tests.discord.botproc import BotProcess
from tests.discord.fake_discord import FakeDiscord, InteractionRecord
from tests.discord.helpers import poll, slash_for

F = FakeDiscord
SHARDS = 2
GUILD_ON_0 = F.GUILD + (1 << 22)  # (id >> 22) % 2 == 0; the fake's first guild, F.GUILD, is on shard 1
REMINDER_HOURS = "0.0015"  # 5.4 s: long enough to kill a process first, short enough to wait for


async def move(
    fake: FakeDiscord, user: int, text: str, channel: int, options: dict[str, str] | None = None
) -> InteractionRecord:
    """A game move by its text (``/tt place A1``), or a ``/game`` command with its options."""
    command, options = (text, options or {}) if text.startswith("game ") else slash_for(text)
    record = await (await fake.slash(user, command, options, channel=channel)).settle()
    assert record.public, f"{text} was refused: {record.text}"
    return record


def reminders(fake: FakeDiscord, channel: int) -> int:
    return sum("Reminder:" in m.content for m in fake.public_messages(channel))


async def settled(store: Store, game_id: int, timeout: float = 20.0) -> None:
    """Until every announcement of the game is marked posted (the bot marks it after posting)."""
    deadline = time.monotonic() + timeout
    while any(row.game_id == game_id for row in await store.pending_announcements()):
        assert time.monotonic() < deadline, "announcements still pending"
        await asyncio.sleep(0.1)


@pytest.fixture
async def fake() -> FakeDiscord:  # type: ignore[misc]
    server = FakeDiscord()
    await server.start()
    yield server
    await server.stop()


async def test_two_shard_processes_share_postgres_and_survive_a_sigkill(
    fake: FakeDiscord, tmp_path: Path, postgres_url: str
) -> None:
    [table_0] = fake.add_guild(GUILD_ON_0, channels=1)
    tables = {0: (GUILD_ON_0, table_0), 1: (F.GUILD, F.GAMES)}
    bots = {}
    for shard in (0, 1):
        folder = tmp_path / f"shard-{shard}"
        folder.mkdir()
        bots[shard] = BotProcess(fake, folder, database_url=postgres_url, shards=(shard, SHARDS))
    code, out = await bots[0].cli("sync")  # global commands: every guild
    assert code == 0, out
    store = await open_store(postgres_url)
    try:
        for bot in bots.values():
            await bot.start()
        assert {tuple(i["shard"]) for i in fake.identifies} == {(0, SHARDS), (1, SHARDS)}

        games = {}
        for shard, (guild, channel) in tables.items():
            await move(fake, F.ANN, "game new", channel, {"game": "tiny-towns", "options": "buildings=first-game"})
            await move(fake, F.BOB, "game join", channel)
            await move(fake, F.ANN, "game start", channel)
            await move(fake, F.ANN, "/tt announce wood", channel)
            game = await store.open_game(str(guild), str(channel))
            assert game is not None
            games[shard] = game.id
            # From the next move on, reminders come within seconds (timers are planned with each move).
            await store.set_channel_setting(str(guild), str(channel), "reminder_hours", REMINDER_HOURS)
            await move(fake, F.ANN, "/tt place A1", channel)
        # Every command went to the process of its guild's shard (the fake routes like Discord).
        assert {(r.channel_id, r.shard) for r in fake.interactions.values()} == {(table_0, 0), (F.GAMES, 1)}

        # ----- shard 1's process dies mid-game, once what it accepted is marked posted ------------
        await settled(store, games[1])
        await bots[1].kill()
        with pytest.raises(ConnectionError):  # nobody takes shard 1's commands meanwhile
            await fake.slash(F.BOB, "tt place", {"square": "D4"}, channel=F.GAMES)

        # Shard 0's reminder goes out; shard 1's, due at the same moment, waits for its own process.
        await poll(lambda: reminders(fake, table_0) == 1, 60)
        await move(fake, F.BOB, "/tt place D4", table_0)
        assert reminders(fake, F.GAMES) == 0
        assert [t.kind for t in await store.timers(games[1])] == ["reminder"]

        # ----- restarted: its reminder goes out once, the game plays on --------------------------
        await bots[1].start()
        await poll(lambda: reminders(fake, F.GAMES) == 1, 60)
        await move(fake, F.BOB, "/tt place D4", F.GAMES)

        # Both games idle after bob's move: one more reminder each, once.
        await poll(lambda: reminders(fake, table_0) == 2 and reminders(fake, F.GAMES) == 2, 60)
        for shard in (0, 1):
            moves = await store.moves(games[shard])
            assert [m.text for m in moves] == ["/tt announce wood", "/tt place A1", "/tt place D4"]
            assert await store.timers(games[shard]) == []  # reminders taken, none left over
        assert await store.pending_announcements() == []
        for _, channel in tables.values():
            posts = Counter(
                (m.content, tuple(m.custom_ids)) for m in fake.public_messages(channel) if "Reminder:" not in m.content
            )
            assert [post for post, n in posts.items() if n > 1] == []  # nothing posted twice
        assert fake.violations == [] and fake.unknown == []
    finally:
        await store.close()
        for bot in bots.values():
            await bot.stop()
