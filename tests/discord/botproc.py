"""Run the real bot (``python -m bot.cli run``) as a subprocess against a fake Discord."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from tests.discord.fake_discord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]


class BotProcess:
    def __init__(
        self,
        fake: FakeDiscord,
        workdir: Path,
        extra_env: dict[str, str] | None = None,
        database_url: str | None = None,
        shards: tuple[int, int] | None = None,
    ) -> None:
        """``database_url``: a PostgreSQL database instead of the SQLite file; ``shards``: (shard id,
        shard count) to run one shard of several."""
        self.fake = fake
        self.workdir = workdir
        self.db_path = workdir / "conductor.db"
        self.log_path = workdir / "bot.log"
        self.extra_env = dict(extra_env or {})
        self.shard = shards[0] if shards else None
        self.database = database_url or str(self.db_path)  # what tests read (tests.discord.helpers.query)
        if database_url is not None:
            self.extra_env["DATABASE_URL"] = database_url
        if shards is not None:
            self.extra_env.update(SHARD_IDS=str(shards[0]), SHARD_COUNT=str(shards[1]))
        self.process: asyncio.subprocess.Process | None = None
        self.starts = 0

    def env(self, gateway_setting: bool = True) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_", "OWNER_"))}
        env.update(
            PYTHONPATH=str(ROOT),
            DISCORD_TOKEN=self.fake.TOKEN,
            DISCORD_API_BASE=self.fake.api_base,
            DATABASE_PATH=str(self.db_path),
            LOG_LEVEL="INFO",
            PYTHONUNBUFFERED="1",
            # The bot says when it has finished each interaction (InteractionRecord.settle waits for it).
            CONDUCTOR_TEST_HOOKS="1",
            CONDUCTOR_TEST_REPORT_HANDLED="1",
        )
        env.update(self.extra_env)
        if gateway_setting:
            env["DISCORD_GATEWAY_URL"] = self.fake.gateway_url
        return env

    async def cli(self, *args: str) -> tuple[int, str]:
        """Run another `conductor` verb (e.g. sync) with the same settings; returns (exit code, output)."""
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot.cli",
            *args,
            cwd=self.workdir,
            env=self.env(),
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        out, _ = await asyncio.wait_for(process.communicate(), 60)
        return process.returncode or 0, out.decode()

    async def start(self, gateway_setting: bool = True) -> None:
        """Start `conductor run` and wait until it has identified on the fake gateway."""
        self.starts += 1
        before = len(self.fake.identifies)
        log = open(self.log_path, "a")  # noqa: SIM115 (the child owns it; closed when we stop it)
        log.write(f"\n----- start {self.starts} -----\n")
        log.flush()
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot.cli",
            "run",
            cwd=self.workdir,
            env=self.env(gateway_setting),
            stdout=log,
            stderr=log,
        )
        log.close()
        try:
            await self.fake.wait_until(lambda: len(self.fake.identifies) > before and self._connected(), 60)
        except TimeoutError:
            raise AssertionError(f"the bot did not connect; log:\n{self.log()}") from None

    async def kill(self) -> None:
        """SIGKILL: a crash, no clean shutdown."""
        if self.process is not None and self.process.returncode is None:
            self.process.kill()
            await self.process.wait()
        await self.fake.wait_until(lambda: not self._connected(), 10)

    def _connected(self) -> bool:
        return self.fake.connected if self.shard is None else self.fake.shard_connected(self.shard)

    async def stop(self) -> int | None:
        if self.process is None or self.process.returncode is not None:
            return self.process.returncode if self.process else None
        self.process.send_signal(signal.SIGTERM)
        try:
            return await asyncio.wait_for(self.process.wait(), 15)
        except TimeoutError:
            self.process.kill()
            return await self.process.wait()

    def log(self) -> str:
        return self.log_path.read_text() if self.log_path.exists() else ""
