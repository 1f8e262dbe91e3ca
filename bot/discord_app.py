"""Entry points used by `conductor run` and `conductor sync` (see bot/cli.py)."""

from __future__ import annotations

import asyncio
import sys

import aiohttp
import discord
from discord.http import Route

from bot.discord import endpoints
from bot.discord.app import intents, make_bot
from bot.discord.commands import build_tree, sync_tree
from bot.settings import Settings
from storage import StoreError


def run_bot(settings: Settings) -> int:
    """Connect to Discord (or the URLs in the settings) and serve until stopped."""
    assert settings.discord_token
    endpoints.configure_rest(settings)
    bot = make_bot(settings)
    try:
        # Returns after a clean shutdown (SIGTERM/SIGINT: see ConductorBot.shutdown).
        bot.run(settings.discord_token, log_handler=None)  # logging is configured by the CLI
    except discord.LoginFailure:
        print("Discord rejected DISCORD_TOKEN: check the bot token in .env.", file=sys.stderr)
        return 1
    except discord.PrivilegedIntentsRequired:
        print("Discord asks for a privileged intent; this bot should not need one.", file=sys.stderr)
        return 1
    except (endpoints.StartupError, StoreError) as exc:
        print(f"Cannot start: {exc}", file=sys.stderr)
        return 1
    except (aiohttp.ClientError, OSError, TimeoutError, discord.HTTPException, discord.GatewayNotFound) as exc:
        print(f"Cannot reach Discord at {Route.BASE}: {_one_line(exc)}", file=sys.stderr)
        return 1
    return 0


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def sync_commands(settings: Settings, guild_id: int | None) -> int:
    """Register the slash commands (globally, or in one guild for instant development use)."""
    assert settings.discord_token
    endpoints.configure_rest(settings)
    try:
        count = asyncio.run(_sync(settings.discord_token, guild_id))
    except discord.LoginFailure:
        print("Discord rejected DISCORD_TOKEN: check the bot token in .env.", file=sys.stderr)
        return 1
    except discord.HTTPException as exc:
        print(f"Discord refused the command list: {exc}", file=sys.stderr)
        return 1
    except (aiohttp.ClientError, OSError, TimeoutError) as exc:
        print(f"Cannot reach Discord at {Route.BASE}: {_one_line(exc)}", file=sys.stderr)
        return 1
    where = f"guild {guild_id}" if guild_id is not None else "globally (may take up to an hour to appear)"
    print(f"Registered {count} commands {where}.")
    return 0


async def _sync(token: str, guild_id: int | None) -> int:
    client = discord.Client(intents=intents())
    tree = build_tree(client)
    async with client:
        await client.login(token)
        return await sync_tree(tree, guild_id)
