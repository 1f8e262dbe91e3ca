"""Start-up (issue 9, item 10): discord.py's defaults stay untouched unless the settings name another
Discord, and a Discord that cannot be reached gives one line on stderr and a non-zero exit, at once."""

from __future__ import annotations

import asyncio
import socket
import sys
from pathlib import Path
from typing import Any

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.discord import endpoints
from bot.settings import Settings
from tests.discord.botproc import ROOT, BotProcess
from tests.discord.fake_discord import FakeDiscord


def settings(api: str = "", gateway: str | None = None) -> Settings:
    return Settings("token", "db", "INFO", api or endpoints.DISCORD_API_BASE, gateway, ())


class NoHTTP:
    async def get_bot_gateway(self) -> Any:
        raise AssertionError("GET /gateway/bot must not be asked when nothing is configured")


async def test_empty_settings_leave_discord_py_defaults_untouched(monkeypatch) -> None:
    sentinel_api, sentinel_gateway = "sentinel://api", yarl.URL("sentinel://gateway")
    monkeypatch.setattr(Route, "BASE", sentinel_api)
    monkeypatch.setattr(DiscordWebSocket, "DEFAULT_GATEWAY", sentinel_gateway)
    endpoints.configure_rest(settings())
    await endpoints.configure_gateway(settings(), NoHTTP())  # type: ignore[arg-type]
    api, gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    assert api == sentinel_api and gateway is sentinel_gateway

    endpoints.configure_rest(settings("http://127.0.0.1:9/api/v10/"))
    await endpoints.configure_gateway(settings(gateway="ws://127.0.0.1:9/gateway"), NoHTTP())  # type: ignore[arg-type]
    api, gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    assert api == "http://127.0.0.1:9/api/v10" and gateway == yarl.URL("ws://127.0.0.1:9/gateway")


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def run_bot(env: dict[str, str], cwd: Path) -> tuple[int, str, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.cli",
        "run",
        cwd=cwd,
        env={**env, "PYTHONPATH": str(ROOT), "LOG_LEVEL": "CRITICAL"},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), 60)
    return process.returncode or 0, out.decode(), err.decode()


async def test_unreachable_api_or_gateway_is_one_line_and_exit_1(fake: FakeDiscord, tmp_path: Path) -> None:
    bot = BotProcess(fake, tmp_path)
    port = closed_port()

    env = bot.env()
    env["DISCORD_API_BASE"] = f"http://127.0.0.1:{port}/api/v10"
    code, out, err = await run_bot(env, tmp_path)
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith(f"Cannot reach Discord at http://127.0.0.1:{port}/api/v10"), err

    env = bot.env()  # the API answers, the gateway does not
    env["DISCORD_GATEWAY_URL"] = f"ws://127.0.0.1:{port}/gateway"
    code, out, err = await run_bot(env, tmp_path)
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith(f"Cannot start: cannot reach the Discord gateway ws://127.0.0.1:{port}/gateway"), err
    assert fake.identifies == []
