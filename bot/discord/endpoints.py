"""Where discord.py sends its requests: Discord itself, or a local fake Discord in tests.

discord.py builds every REST URL (including interaction callbacks and webhook follow-ups,
which go through the same ``discord.http.Route``) from ``Route.BASE``. The gateway URL of a
non-sharded client is ``DiscordWebSocket.DEFAULT_GATEWAY`` (also the fallback after an
invalidated session), so both are class attributes set once per process.
"""

from __future__ import annotations

import logging

import discord
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import HTTPClient, Route

from bot.settings import Settings

log = logging.getLogger(__name__)
DISCORD_API_BASE = "https://discord.com/api/v10"


def configure_rest(settings: Settings) -> None:
    """Point every REST, webhook and interaction-callback URL at ``DISCORD_API_BASE``."""
    Route.BASE = settings.discord_api_base.rstrip("/")


def set_gateway(url: str) -> None:
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)


async def configure_gateway(settings: Settings, http: HTTPClient) -> None:
    """``DISCORD_GATEWAY_URL`` if set, else the URL that ``GET /gateway/bot`` names.

    Called after login, before the websocket connects. With Discord's own API and no explicit
    URL, a failed lookup keeps discord.py's default gateway.
    """
    if settings.discord_gateway_url:
        set_gateway(settings.discord_gateway_url)
        return
    try:
        _, url, _ = await http.get_bot_gateway()
    except (discord.HTTPException, discord.GatewayNotFound) as exc:
        if Route.BASE != DISCORD_API_BASE:
            raise  # a custom API without a gateway answer cannot work; say so at start-up
        log.warning("GET /gateway/bot failed (%s); using discord.py's default gateway", exc)
        return
    set_gateway(url)
