"""The discord.py client: minimal intents, command tree, persistent components, timers."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import signal
import threading
import time
from typing import Any

import discord
from discord import app_commands

import rendering
from bot.core import Conductor
from bot.discord import clicks, components, delivery, endpoints
from bot.discord.bridge import view_for
from bot.discord.commands import build_tree
from bot.discord.dispatcher import TimerDispatcher
from bot.discord.stall import StallMonitor
from bot.replies import Reply
from bot.settings import Settings
from storage import Store

log = logging.getLogger(__name__)
RENDER_THREADS = int(os.environ.get("CONDUCTOR_RENDER_THREADS", "4"))
RENDER_PROCESSES = int(os.environ.get("CONDUCTOR_RENDER_PROCESSES", "2"))


def _warm_renderer(parent: int) -> None:
    """Import Pillow and every registered game's renderer once per worker, and exit when the bot
    process is gone (a SIGKILLed bot must not leave workers behind)."""
    rendering.warm()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def render_pool() -> concurrent.futures.Executor | None:
    """Worker processes for drawing boards (0 = threads of the default executor)."""
    if RENDER_PROCESSES <= 0:
        return None
    return concurrent.futures.ProcessPoolExecutor(
        max_workers=RENDER_PROCESSES,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_warm_renderer,
        initargs=(os.getpid(),),
    )


def intents() -> discord.Intents:
    """Guilds only: no message content, no members, no presences (nothing privileged)."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


class ConductorBot(discord.Client):
    """The client; it also serves as ``bridge.BotHost`` and ``components.ComponentHandler``."""

    store: Store
    conductor: Conductor
    dispatcher: TimerDispatcher

    def __init__(self, settings: Settings) -> None:
        super().__init__(
            intents=intents(), allowed_mentions=discord.AllowedMentions.none(), chunk_guilds_at_startup=False
        )
        self.settings = settings
        self.tree: app_commands.CommandTree[Any] = build_tree(self)
        self.tree.on_error = self._on_tree_error  # type: ignore[method-assign]
        self.stall = StallMonitor.from_env()

    async def setup_hook(self) -> None:
        """After login, before the gateway connects. Commands are not synced here (`conductor sync`)."""
        await endpoints.configure_gateway(self.settings, self.http)
        # Boards are rendered in worker threads (asyncio.to_thread). Rendering is CPU-bound, so a
        # small bounded pool is enough; more threads would only compete with the loop for the GIL.
        asyncio.get_running_loop().set_default_executor(
            concurrent.futures.ThreadPoolExecutor(max_workers=RENDER_THREADS, thread_name_prefix="render")
        )
        self.store = await Store.open(self.settings.database_path)
        self.render_pool = render_pool()
        self.conductor = Conductor(self.store, render_executor=self.render_pool)
        self.add_dynamic_items(*components.DYNAMIC_ITEMS)  # old buttons keep working after a restart
        self.dispatcher = TimerDispatcher(self.conductor, self.post_timer_reply)
        self.dispatcher.start()
        if self.stall is not None:
            self.stall.start()
        with contextlib.suppress(NotImplementedError, RuntimeError):
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, lambda: asyncio.ensure_future(self.close()))
        log.info(
            "database %s; commands: %s",
            self.settings.database_path,
            ", ".join("/" + c.name for c in self.tree.get_commands()),
        )

    async def on_ready(self) -> None:
        log.info("connected as %s (%s) to %d guilds", self.user, getattr(self.user, "id", "?"), len(self.guilds))

    async def close(self) -> None:
        await super().close()
        if hasattr(self, "dispatcher"):
            await self.dispatcher.stop()
        if self.stall is not None:
            self.stall.stop()
        if hasattr(self, "store"):
            with contextlib.suppress(Exception):
                await self.store.close()
        pool = getattr(self, "render_pool", None)  # absent if setup_hook never ran
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    async def on_game_button(
        self, interaction: discord.Interaction, game_id: int, version: int, action: str, arg: str
    ) -> None:
        """A game button was clicked (components.GameButton hands it over)."""
        await clicks.on_button(interaction, game_id, version, action, arg)

    async def on_game_select(self, interaction: discord.Interaction, game_id: int, version: int, value: str) -> None:
        """A move was chosen in a move menu (components.MoveSelect hands it over)."""
        await clicks.on_select(interaction, game_id, version, value)

    async def post_timer_reply(self, kind: str, guild: str, channel: str, reply: Reply) -> None:
        """A reminder or deadline (with moderator buttons) or an expired lobby, posted to its channel."""
        if not channel.isdigit():
            log.warning("timer %s for game %s: channel %r is not a Discord channel", kind, reply.game_id, channel)
            return
        target = self.get_channel(int(channel)) or self.get_partial_messageable(
            int(channel), guild_id=int(guild) if guild.isdigit() else None
        )
        view = _deadline_view(reply) if kind == "deadline" else view_for(reply)
        for message in delivery.public_messages(reply, view):
            await delivery.channel_send(target, message, f"(timer {kind}, game {reply.game_id})")  # type: ignore[arg-type]

    async def _on_tree_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        log.error(
            "slash command failed in channel %s: %s", interaction.channel_id, error, exc_info=error.__cause__ or error
        )
        await delivery.apologise(interaction)


def _deadline_view(reply: Reply) -> discord.ui.View | None:
    """Moderator buttons (skip, bot, kick) for each human the deadline waits for, as the core reported them."""
    if reply.game_id is None or reply.version is None or not reply.waiting:
        return None
    return components.deadline_view(reply.game_id, reply.version, reply.waiting)
