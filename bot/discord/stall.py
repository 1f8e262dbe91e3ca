"""Debug-only event-loop stall monitor (``CONDUCTOR_STALL_FILE=path`` enables it).

A task sleeps a few milliseconds at a time and measures how late it wakes up: that lateness
is how long something blocked the event loop. The maximum is written as JSON to the file
(for bench/bench_discord.py, which runs the bot in another process).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import time
from pathlib import Path

log = logging.getLogger(__name__)
ENV = "CONDUCTOR_STALL_FILE"
TICK = 0.005


class StallMonitor:
    def __init__(self, path: str, tick: float = TICK) -> None:
        self.path = Path(path)
        self.tick = tick
        self.max_stall = 0.0
        self.over_100ms = 0
        # The same lateness counted in the loop thread's own CPU time: the part spent running code on
        # the loop, not waiting for a core (a loaded machine) or for the GIL (another thread).
        self.max_stall_cpu = 0.0
        self._task: asyncio.Task[None] | None = None

    @classmethod
    def from_env(cls) -> StallMonitor | None:
        path = os.environ.get(ENV, "").strip()
        return cls(path) if path else None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="stall-monitor")

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()

    def reset(self) -> None:
        self.max_stall, self.over_100ms, self.max_stall_cpu = 0.0, 0, 0.0
        self._write()

    async def _run(self) -> None:
        last_write = 0.0
        reset = self.path.with_suffix(".reset")
        while True:
            before, before_cpu = time.perf_counter(), time.thread_time()
            await asyncio.sleep(self.tick)
            stall = time.perf_counter() - before - self.tick
            self.max_stall_cpu = max(self.max_stall_cpu, time.thread_time() - before_cpu)
            if stall > 0.1:
                self.over_100ms += 1
            if stall > self.max_stall:
                self.max_stall = stall
                log.debug("new max event-loop stall %.1f ms", stall * 1000)
            if time.perf_counter() - last_write > 0.25:
                # Checked with each write, not each tick: a file system call 200 times a second is load
                # the monitor would add to what it measures.
                if reset.exists():  # the bench asks for a fresh measurement
                    reset.unlink(missing_ok=True)
                    self.reset()
                self._write()
                last_write = time.perf_counter()

    def _write(self) -> None:
        try:
            # Written aside, then renamed over the file: a reader never sees it empty or half written.
            aside = self.path.with_suffix(".tmp")
            aside.write_text(
                json.dumps(
                    {
                        "max_stall_ms": round(self.max_stall * 1000, 1),
                        "stalls_over_100ms": self.over_100ms,
                        "max_stall_cpu_ms": round(self.max_stall_cpu * 1000, 1),
                    }
                )
            )
            os.replace(aside, self.path)
        except OSError as exc:
            log.warning("cannot write stall file %s: %s", self.path, exc)
