"""Fault injection for the tests that drive the real bot process (tests/discord), and nothing else.

Every hook is off unless ``CONDUCTOR_TEST_HOOKS=1`` is set as well, so a stray variable in a
production environment does nothing:

CONDUCTOR_TEST_RENDER_DELAY=<seconds>   every board drawing waits this long first (a slow renderer:
                                         commands are still in flight when a test sends SIGTERM, and
                                         the adapter's 3-second guard has to defer)
CONDUCTOR_TEST_KILL_AFTER=<text>        the bot process SIGKILLs itself as soon as the core has
                                         accepted a command whose text starts with <text>: the change
                                         is committed, nothing about it has been posted yet
CONDUCTOR_TEST_KILL_AFTER_CLAIM=1       the bot process SIGKILLs itself when start-up repair has
                                         claimed pending announcements, before posting any of them
CONDUCTOR_TEST_REPORT_HANDLED=1         when the task handling an interaction has ended (every answer,
                                         follow-up and channel post of it sent), the bot tells the
                                         fake Discord: POST /_test/interactions/<id>/handled. Tests
                                         wait for that instead of for a quiet period.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import os
import signal
import time
from collections.abc import Callable
from typing import Any, TypeVar

from discord.http import HTTPClient, Route

from bot.replies import Reply

log = logging.getLogger(__name__)
T = TypeVar("T")
GATE = "CONDUCTOR_TEST_HOOKS"
RENDER_DELAY = "CONDUCTOR_TEST_RENDER_DELAY"
KILL_AFTER = "CONDUCTOR_TEST_KILL_AFTER"
KILL_AFTER_CLAIM = "CONDUCTOR_TEST_KILL_AFTER_CLAIM"
REPORT_HANDLED = "CONDUCTOR_TEST_REPORT_HANDLED"
_reports: set[asyncio.Task[None]] = set()  # the loop keeps only weak references to tasks


def enabled() -> bool:
    return os.environ.get(GATE, "").strip() == "1"


def _setting(name: str) -> str:
    return os.environ.get(name, "").strip() if enabled() else ""


def render_delay() -> float:
    try:
        return max(0.0, float(_setting(RENDER_DELAY) or 0))
    except ValueError:
        return 0.0


class SlowRenderer(concurrent.futures.ThreadPoolExecutor):
    """Runs each drawing on ``inner`` (None: in this thread) after sleeping ``delay`` seconds."""

    def __init__(self, inner: concurrent.futures.Executor | None, delay: float) -> None:
        super().__init__(max_workers=4, thread_name_prefix="slow-render")
        self.inner, self.delay = inner, delay

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[T]:
        def slow() -> T:
            time.sleep(self.delay)
            if self.inner is None:
                return fn(*args, **kwargs)
            return self.inner.submit(fn, *args, **kwargs).result()

        return super().submit(slow)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        super().shutdown(wait=wait, cancel_futures=cancel_futures)
        if self.inner is not None:
            self.inner.shutdown(wait=wait, cancel_futures=cancel_futures)


def renderer(pool: concurrent.futures.Executor | None) -> concurrent.futures.Executor | None:
    """``pool``, slowed down when the render-delay hook is on."""
    delay = render_delay()
    if delay <= 0:
        return pool
    log.warning("test hook: every board drawing is delayed by %.1f s", delay)
    return SlowRenderer(pool, delay)


def after_core(text: str, reply: Reply) -> None:
    """Called when the core has answered ``text`` and before anything is posted."""
    prefix = _setting(KILL_AFTER)
    if prefix and reply.ok and text.startswith(prefix):
        _kill(f"right after {text!r} was committed")


def after_claim(claimed: int) -> None:
    """Called when start-up repair has claimed ``claimed`` announcements, before any is posted."""
    if claimed and _setting(KILL_AFTER_CLAIM) == "1":
        _kill(f"after claiming {claimed} pending announcements")


def _kill(when: str) -> None:
    log.warning("test hook: SIGKILL %s", when)
    for handler in logging.getLogger().handlers:
        handler.flush()
    os.kill(os.getpid(), signal.SIGKILL)


def report_when_handled(http: HTTPClient, interaction_id: int) -> None:
    """Called from inside the task that handles ``interaction_id``: when that task ends, however it
    ends, the fake Discord is told (the test's explicit "done" for the interaction)."""
    task = asyncio.current_task()
    if task is None or _setting(REPORT_HANDLED) != "1":
        return

    def ended(_: asyncio.Task[object]) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is closing: nobody waits any more
            report = asyncio.get_running_loop().create_task(_report(http, interaction_id))
            _reports.add(report)
            report.add_done_callback(_reports.discard)

    task.add_done_callback(ended)


async def _report(http: HTTPClient, interaction_id: int) -> None:
    route = Route("POST", "/_test/interactions/{interaction_id}/handled", interaction_id=interaction_id)
    try:
        await http.request(route)
    except Exception as exc:  # a report is best effort: shutting down, or not the fake Discord
        log.warning("test hook: could not report interaction %s handled: %s", interaction_id, exc)
