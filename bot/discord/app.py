"""The discord.py client: minimal intents, command tree, persistent components, timers, start-up
repair of unannounced moves, and a graceful shutdown on SIGTERM/SIGINT."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import gc
import logging
import multiprocessing
import os
import signal
import threading
import time
from typing import Any

import discord
from aiohttp.web import AppRunner
from discord import app_commands

import games
import rendering
from bot.core import Conductor
from bot.discord import clicks, components, delivery, endpoints, testhooks
from bot.discord.bridge import view_for
from bot.discord.commands import build_tree
from bot.discord.dispatcher import TimerDispatcher
from bot.discord.stall import StallMonitor
from bot.replies import Reply
from bot.settings import Settings
from bot.web import server as web_server
from storage import AnyStore, is_postgres, open_store

log = logging.getLogger(__name__)
RENDER_THREADS = int(os.environ.get("CONDUCTOR_RENDER_THREADS", "4"))
RENDER_PROCESSES = int(os.environ.get("CONDUCTOR_RENDER_PROCESSES", "2"))
DRAIN_SECONDS = 10.0  # at shutdown, how long interactions in flight may take to finish
WARM_UP_WAIT = 30.0  # at start-up, how long to wait for a warm render worker before connecting anyway
RESTARTING = "The bot is restarting; try again in a moment."


def _warm_renderer(parent: int) -> None:
    """Import Pillow and every registered game's renderer and draw each game's fresh boards once per
    worker (``rendering.warm``), and exit when the bot process is gone (a SIGKILLed bot must not
    leave workers behind)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    # Watching first: a bot killed while its workers warm up must not leave them drawing.
    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
    rendering.warm()


def render_pool() -> concurrent.futures.Executor | None:
    """Worker processes for drawing boards (0 = threads of the default executor)."""
    if RENDER_PROCESSES <= 0:
        return None
    pool = concurrent.futures.ProcessPoolExecutor(
        max_workers=RENDER_PROCESSES,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_warm_renderer,
        initargs=(os.getpid(),),
    )
    # Workers start on demand: one small job each starts (and warms) them all now, while the bot
    # connects, instead of on the first board a player asks for.
    for _ in range(RENDER_PROCESSES):
        pool.submit(os.getpid)
    return pool


# The garbage collector runs on whichever thread allocates, mostly the event loop's, and stops it while it
# runs. With Python's default first threshold (700 allocations) an interaction outlives several young
# collections, so its reference cycles (discord.py's interaction, response and view objects) reach the
# oldest generation and a burst's worth is freed in one full collection: the longest event-loop stall at
# 100 busy games was exactly that, 200 ms (bench/bench_discord.py). At 20,000 most of them die young, in
# collections of a few tens of milliseconds, and the collector's CPU per command fell by two thirds.
GC_THRESHOLDS = (20_000, 10, 10)


def tune_collector() -> None:
    """Once everything is loaded: what exists now (modules, the command tree, the games' data) lives as
    long as the process, so it is frozen out of every later collection's walk."""
    gc.set_threshold(*GC_THRESHOLDS)
    gc.collect()
    gc.freeze()


def intents() -> discord.Intents:
    """Guilds only: no message content, no members, no presences (nothing privileged)."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


class ConductorBot(discord.Client):
    """The client; it also serves as ``bridge.BotHost`` and ``components.ComponentHandler``."""

    store: AnyStore
    conductor: Conductor
    dispatcher: TimerDispatcher

    def __init__(self, settings: Settings, **client_options: Any) -> None:
        super().__init__(
            intents=intents(),
            allowed_mentions=discord.AllowedMentions.none(),
            chunk_guilds_at_startup=False,
            **client_options,
        )
        self.settings = settings
        self.tree: app_commands.CommandTree[Any] = build_tree(self)
        self.tree.on_error = self._on_tree_error  # type: ignore[method-assign]
        self.tree.interaction_check = self.admit  # type: ignore[method-assign]
        self.stall = StallMonitor.from_env()
        self.render_pool: concurrent.futures.Executor | None = None
        self.draining = False  # shutting down: new interactions are turned away
        self._in_flight: set[asyncio.Task[Any]] = set()
        self._shutdown: asyncio.Task[None] | None = None
        self._released = False
        self.web: AppRunner | None = None
        self._retake: asyncio.Task[None] | None = None

    async def setup_hook(self) -> None:
        """After login, before the gateway connects. Commands are not synced here (`conductor sync`)."""
        await endpoints.configure_gateway(self.settings, self.http)
        await endpoints.probe_gateway(endpoints.gateway())
        # Boards are rendered in worker threads (asyncio.to_thread). Rendering is CPU-bound, so a
        # small bounded pool is enough; more threads would only compete with the loop for the GIL.
        asyncio.get_running_loop().set_default_executor(
            concurrent.futures.ThreadPoolExecutor(max_workers=RENDER_THREADS, thread_name_prefix="render")
        )
        self.store = await open_store(self.settings.database)
        pool = render_pool()
        if pool is not None:
            await self._warm_up(pool)
        self.render_pool = testhooks.renderer(pool)
        self.conductor = Conductor(
            self.store,
            render_executor=self.render_pool,
            shards=self.settings.shards,
            web_url=self.settings.web_link_base,
            outbox_lease=self.settings.outbox_lease,
        )
        if self.settings.web_bind:  # the optional replay viewer (off unless WEB_BIND is set)
            self.web = await web_server.start(self.store, web_server.parse_bind(self.settings.web_bind))
        self.add_dynamic_items(*components.DYNAMIC_ITEMS)  # old buttons keep working after a restart
        await self._repair()
        # The engines' lookup tables (Tiny Towns: 0.2 s) are built here, in a thread, and not by the
        # first move after a restart, which settles on the event loop.
        await asyncio.to_thread(games.warm_engines)
        tune_collector()  # its one full collection runs before the gateway connects
        self.dispatcher = TimerDispatcher(self.conductor, self.post_timer_reply)
        self.dispatcher.start()
        if self.stall is not None:
            self.stall.start()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(signum, self.request_shutdown, signum)
        log.info(
            "database %s%s; commands: %s",
            _shown(self.settings.database),
            ""
            if self.settings.shards is None
            else f"; shards {sorted(self.settings.shards.ids)} of {self.settings.shard_count}",
            ", ".join("/" + c.name for c in self.tree.get_commands()),
        )

    async def _warm_up(self, pool: concurrent.futures.Executor) -> None:
        """Wait (before the gateway connects) until a render worker has drawn its warm-up boards, so
        the first board a player asks for after a restart does not queue behind them. A worker only
        takes a job once warm, so one no-op job answered means one warm worker."""
        started = time.monotonic()
        try:
            await asyncio.wait_for(asyncio.wrap_future(pool.submit(os.getpid)), WARM_UP_WAIT)
        except (TimeoutError, concurrent.futures.BrokenExecutor) as exc:
            log.warning("render workers not warm after %.1f s (%r); starting anyway", WARM_UP_WAIT, exc)
            return
        log.info("render workers warm in %.1f s", time.monotonic() - started)

    async def _repair(self) -> None:
        """After a crash: bot turns that are due are played, lost timers restored, and every channel
        with announcements not yet posted gets its latest state (posted in the background)."""
        self._retake = asyncio.create_task(self._retake_expired(), name="outbox-lease")
        try:
            pending = await self.conductor.repair()
        except Exception:
            log.exception("start-up repair failed; unannounced moves stay pending until the next try")
            return
        testhooks.after_claim(len(pending))
        if pending:
            log.info("posting %d pending announcements", len(pending))
            self._track(asyncio.create_task(self._post_pending(pending), name="outbox-repair"))

    async def _retake_expired(self) -> None:
        """Every lease period, claim and post the announcements whose claim ran out: those a process
        killed between claiming and posting left (this process's predecessor, or another shard process).
        Never this process's own claims (one may still be on its way; one whose post failed is taken
        by the next start). Not tracked as in flight: shutdown cancels it."""
        while not self.draining:
            await asyncio.sleep(self.settings.outbox_lease)
            try:
                pending = [] if self.draining else await self.conductor.pending_posts()
            except Exception:
                log.exception("claiming announcements whose lease ran out failed; trying again later")
                continue
            if pending:
                log.info("posting %d announcements whose claim ran out", len(pending))
                await self._post_pending(pending)

    async def _post_pending(self, pending: list[tuple[str, str, Reply]]) -> None:
        for guild, channel, reply in pending:
            try:
                await self.post_timer_reply("announcement", guild, channel, reply)
            except Exception:
                log.exception("posting the pending announcement of game %s failed", reply.game_id)

    async def on_ready(self) -> None:
        log.info("connected as %s (%s) to %d guilds", self.user, getattr(self.user, "id", "?"), len(self.guilds))

    # ----- graceful shutdown ---------------------------------------------------------------

    async def admit(self, interaction: discord.Interaction) -> bool:
        """Every interaction passes here first (the tree's check, and the click handlers): while
        shutting down it is turned away privately; otherwise its task is waited for at shutdown."""
        testhooks.report_when_handled(self.http, interaction.id)  # off unless the tests turn it on
        if self.draining:
            if interaction.type is discord.InteractionType.autocomplete:
                await delivery.attempt(interaction.response.autocomplete([]), "autocomplete while restarting")
            else:
                await delivery.attempt(
                    interaction.response.send_message(RESTARTING, ephemeral=True), "refused while restarting"
                )
            return False
        task = asyncio.current_task()
        if task is not None:
            self._track(task)
        return True

    def _track(self, task: asyncio.Task[Any]) -> None:
        self._in_flight.add(task)
        task.add_done_callback(self._in_flight.discard)

    def request_shutdown(self, signum: int = signal.SIGTERM) -> None:
        """SIGTERM/SIGINT: stop taking interactions, let those in flight finish, then close."""
        if self._shutdown is not None:
            log.info("%s again: already shutting down", signal.Signals(signum).name)
            return
        log.info("%s: shutting down", signal.Signals(signum).name)
        self._shutdown = asyncio.create_task(self.shutdown(), name="shutdown")

    async def shutdown(self, grace: float = DRAIN_SECONDS) -> None:
        self.draining = True
        waiting = {t for t in self._in_flight if t is not asyncio.current_task() and not t.done()}
        if waiting:
            log.info("waiting up to %.0f s for %d interactions in flight", grace, len(waiting))
            _, late = await asyncio.wait(waiting, timeout=grace)
            if late:
                log.warning("%d interactions still running after %.0f s; closing anyway", len(late), grace)
        await self.close()

    async def close(self) -> None:
        """Stop the timers (a round being posted may finish), release the database and the render
        pool, then close the gateway and HTTP session: discord.py's ``run`` returns as soon as the
        gateway is closed, so nothing after that point would be sure to run. Safe to call twice."""
        self.draining = True
        if not self._released:
            self._released = True
            if hasattr(self, "dispatcher"):
                await self.dispatcher.stop(grace=DRAIN_SECONDS)
            if self.stall is not None:
                self.stall.stop()
            if self._retake is not None:
                self._retake.cancel()
            if self.render_pool is not None:  # absent if setup_hook never ran
                self.render_pool.shutdown(wait=False, cancel_futures=True)
            if self.web is not None:
                with contextlib.suppress(Exception):
                    await self.web.cleanup()
            if hasattr(self, "store"):
                with contextlib.suppress(Exception):
                    await self.store.close()
                log.info("database closed; disconnecting")
        await super().close()

    # ----- clicks and timers ---------------------------------------------------------------

    async def on_game_button(
        self, interaction: discord.Interaction, game_id: int, version: int, action: str, arg: str
    ) -> None:
        """A game button was clicked (components.GameButton hands it over)."""
        if await self.admit(interaction):
            await clicks.on_button(interaction, game_id, version, action, arg)

    async def on_game_select(self, interaction: discord.Interaction, game_id: int, version: int, value: str) -> None:
        """A move was chosen in a move menu (components.MoveSelect hands it over)."""
        if await self.admit(interaction):
            await clicks.on_select(interaction, game_id, version, value)

    async def post_timer_reply(self, kind: str, guild: str, channel: str, reply: Reply) -> None:
        """A reminder or deadline (with moderator buttons), an expired lobby, or a pending announcement
        after a restart, posted to its channel; once its first message is posted, the outbox row (if
        any) is marked announced."""
        if not channel.isdigit():
            log.warning("%s for game %s: channel %r is not a Discord channel", kind, reply.game_id, channel)
            return
        target = self.get_channel(int(channel)) or self.get_partial_messageable(
            int(channel), guild_id=int(guild) if guild.isdigit() else None
        )
        view = _deadline_view(reply) if kind == "deadline" else view_for(reply)
        messages = delivery.public_messages(reply, view)
        context = f"({kind}, game {reply.game_id})"
        posted = not messages or await delivery.channel_send(target, messages[0], context)  # type: ignore[arg-type]
        for message in messages[1:] if posted else []:
            await delivery.channel_send(target, message, context)  # type: ignore[arg-type]
        if posted and reply.outbox_id is not None:
            await self.conductor.announced(reply.outbox_id)

    async def _on_tree_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        log.error(
            "slash command failed in channel %s: %s", interaction.channel_id, error, exc_info=error.__cause__ or error
        )
        await delivery.apologise(interaction)


class ShardedConductorBot(ConductorBot, discord.AutoShardedClient):
    """The same bot over shards ``SHARD_IDS`` of ``SHARD_COUNT`` (several processes share the bot's
    guilds: each gets the interactions of its shards' guilds from Discord, and fires only their timers)."""

    def __init__(self, settings: Settings) -> None:
        assert settings.shard_count is not None
        shard_ids = sorted(settings.shards.ids) if settings.shards is not None else None
        super().__init__(settings, shard_count=settings.shard_count, shard_ids=shard_ids)


def make_bot(settings: Settings) -> ConductorBot:
    """A sharded client when SHARD_COUNT is set, else the plain one (as before)."""
    return ShardedConductorBot(settings) if settings.shard_count is not None else ConductorBot(settings)


def _shown(database: str) -> str:
    if is_postgres(database):
        from storage.postgres import _safe

        return _safe(database)
    return database


def _deadline_view(reply: Reply) -> discord.ui.View | None:
    """Moderator buttons (skip, bot, kick) for each human the deadline waits for, as the core reported them."""
    if reply.game_id is None or reply.version is None or not reply.waiting:
        return None
    return components.deadline_view(reply.game_id, reply.version, reply.waiting)
