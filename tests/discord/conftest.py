from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.discord.botproc import BotProcess
from tests.discord.fake_discord import FakeDiscord


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord(extra_channels=2)
    await server.start()
    yield server
    await server.stop()


@pytest.fixture(params=["sqlite", "postgres"])
async def bot(request: pytest.FixtureRequest, fake: FakeDiscord, tmp_path) -> AsyncIterator[BotProcess]:
    """The real bot, commands synced to the fake guild, connected; on an SQLite file, and on PostgreSQL."""
    url = request.getfixturevalue("postgres_url") if request.param == "postgres" else None
    process = BotProcess(fake, tmp_path, database_url=url)
    code, out = await process.cli("sync", "--guild", str(fake.GUILD))
    assert code == 0, out
    await process.start()
    yield process
    await process.stop()
