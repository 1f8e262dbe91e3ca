"""One background task that fires database timers (reminders, deadlines, lobby expiry).

It sleeps until the next timer is due (``Store.next_timer``), or until ``wake()`` says a
command may have added an earlier one (re-read after ``WAKE_SETTLE``, so a burst of commands
costs one read), then lets the core fire what is due and hands each resulting reply to ``post``.
Timers live in the database, so they survive restarts.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from bot.core import Conductor
from bot.replies import Reply

log = logging.getLogger(__name__)
Post = Callable[[str, str, str, Reply], Awaitable[None]]  # kind, guild, channel, reply
MAX_SLEEP = 3600.0
RETRY_AFTER_ERROR = 5.0
# After a wake, wait this long for more wakes before re-reading the next due time: every command
# wakes the dispatcher, and under a burst of commands one read (and one turn of the store's lock,
# which commands queue behind) then serves them all. Timers are minutes or hours away; firing one
# a quarter of a second late changes nothing.
WAKE_SETTLE = 0.25


class TimerDispatcher:
    def __init__(
        self, conductor: Conductor, post: Post, max_sleep: float = MAX_SLEEP, settle: float = WAKE_SETTLE
    ) -> None:
        self.conductor = conductor
        self.post = post
        self.max_sleep = max_sleep
        self.settle = settle
        self.reads = 0  # next-due-time reads (for tests: a burst of wakes costs one)
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self._firing = False
        self.fired = 0  # timers whose replies were handed to ``post`` (for tests and logs)

    def start(self) -> None:
        if self._task is None:
            self._stopping = False
            self._task = asyncio.create_task(self._run(), name="timer-dispatcher")

    def wake(self) -> None:
        """Re-read the next due time now (a command may have scheduled something sooner)."""
        self._wake.set()

    async def stop(self, grace: float = 0.0) -> None:
        """Stop firing timers. A round of timers being fired and posted may finish first (at most
        ``grace`` seconds); what is cut short stays in the database and the outbox for the next start."""
        task, self._task = self._task, None
        if task is None:
            return
        self._stopping = True
        self._wake.set()
        if self._firing and grace > 0:
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(task), grace)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    async def _run(self) -> None:
        while not self._stopping:
            try:
                await self._sleep_until_due()
                if self._stopping:
                    return
                self._firing = True
                try:
                    await self.fire_once()
                finally:
                    self._firing = False
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("timer dispatcher failed; retrying in %.0f s", RETRY_AFTER_ERROR)
                await asyncio.sleep(RETRY_AFTER_ERROR)

    async def _sleep_until_due(self) -> None:
        while not self._stopping:
            self._wake.clear()  # cleared before reading, so a timer added meanwhile still wakes us
            timer = await self.conductor.store.next_timer(self.conductor.shards)
            self.reads += 1
            delay = self.max_sleep if timer is None else timer.due_at - self.conductor.clock()
            if delay <= 0:
                return
            try:
                await asyncio.wait_for(self._wake.wait(), timeout=min(delay, self.max_sleep))
            except TimeoutError:
                if timer is not None and delay <= self.max_sleep:
                    return
            else:
                if not self._stopping:
                    await asyncio.sleep(self.settle)  # more wakes meanwhile share the next read

    async def fire_once(self) -> int:
        """Fire every due timer now; returns how many replies were posted."""
        events = await self.conductor.fire_due_timer_events()
        for kind, guild, channel, reply in events:
            try:
                await self.post(kind, guild, channel, reply)
            except Exception:
                log.exception("posting a %s for game %s failed", kind, reply.game_id)
            self.fired += 1
        return len(events)
