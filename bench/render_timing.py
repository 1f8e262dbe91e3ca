"""Timing helpers shared by the render benches (bench_render.py, bench_render_games.py).

Wall-clock times suffer on a shared machine, so the CPU time of each render (time.process_time) is
reported beside them.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any


def measure(jobs: list[Callable[[], bytes]], before: Callable[[], None] | None = None) -> dict[str, Any]:
    """Run each job once (``before`` first, untimed): wall and CPU milliseconds and PNG sizes."""
    times: list[float] = []
    cpu: list[float] = []
    sizes: list[int] = []
    for job in jobs:
        if before:
            before()
        start, start_cpu = time.perf_counter(), time.process_time()
        data = job()
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
        sizes.append(len(data))
    times.sort()
    return {
        "n": len(times),
        "ms_median": round(statistics.median(times), 2),
        "cpu_ms_median": round(statistics.median(cpu), 2),
        "ms_p95": round(times[min(len(times) - 1, int(len(times) * 0.95))], 2),
        "ms_max": round(times[-1], 2),
        "bytes_median": int(statistics.median(sizes)),
        "bytes_max": max(sizes),
    }
