"""Where discord.py sends its requests: Discord itself, or a local fake Discord in tests.

discord.py builds every REST URL (including interaction callbacks and webhook follow-ups,
which go through the same ``discord.http.Route``) from ``Route.BASE``. The gateway URL of a
non-sharded client is ``DiscordWebSocket.DEFAULT_GATEWAY`` (also the fallback after an
invalidated session), so both are class attributes set once per process, and only when the
settings name another Discord: with ``DISCORD_API_BASE`` and ``DISCORD_GATEWAY_URL`` empty,
discord.py's own defaults are left exactly as they are.
"""

from __future__ import annotations

import asyncio
import logging

import aiohttp
import discord
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import HTTPClient, Route

from bot.settings import Settings

log = logging.getLogger(__name__)
DISCORD_API_BASE = "https://discord.com/api/v10"  # what bot/settings.py uses when DISCORD_API_BASE is empty
PROBE_TIMEOUT = 15.0


class StartupError(Exception):
    """Discord (or the configured stand-in) cannot be reached at start-up; the message is one line."""


def custom_api(settings: Settings) -> bool:
    return settings.discord_api_base.rstrip("/") != DISCORD_API_BASE


def configure_rest(settings: Settings) -> None:
    """Point every REST, webhook and interaction-callback URL at ``DISCORD_API_BASE``, if one is set."""
    if custom_api(settings):
        Route.BASE = settings.discord_api_base.rstrip("/")


def set_gateway(url: str) -> None:
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)


def gateway() -> yarl.URL:
    """The gateway the client will connect to."""
    return DiscordWebSocket.DEFAULT_GATEWAY


async def configure_gateway(settings: Settings, http: HTTPClient) -> None:
    """``DISCORD_GATEWAY_URL`` if set; else, with a custom API, the URL its ``GET /gateway/bot``
    names; else discord.py's default gateway, untouched.

    Called after login, before the websocket connects. A custom API without a gateway answer
    cannot work: ``StartupError``.
    """
    if settings.discord_gateway_url:
        set_gateway(settings.discord_gateway_url)
        return
    if not custom_api(settings):
        return
    try:
        _, url, _ = await http.get_bot_gateway()
    except (discord.HTTPException, discord.GatewayNotFound, aiohttp.ClientError, OSError, TimeoutError) as exc:
        raise StartupError(f"{Route.BASE}/gateway/bot did not name a gateway ({_describe(exc)})") from None
    set_gateway(url)


async def probe_gateway(url: yarl.URL, timeout: float = PROBE_TIMEOUT) -> None:
    """Open and close one websocket to ``url``: an unreachable gateway is a ``StartupError`` now,
    rather than discord.py retrying (and logging tracebacks) for ever."""
    target = url.with_query(v=10, encoding="json")
    try:
        async with asyncio.timeout(timeout), aiohttp.ClientSession() as session, session.ws_connect(target) as ws:
            await ws.receive()  # Discord says HELLO first
    except (aiohttp.ClientError, OSError, TimeoutError) as exc:
        raise StartupError(f"cannot reach the Discord gateway {url}: {_describe(exc)}") from None


def _describe(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
