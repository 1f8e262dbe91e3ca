"""Moves per second and p99 move latency on PostgreSQL and on SQLite, with 1 and 2 bot processes,
the same workload in the same run. Prints JSON.

A move is what the host does per command: one read of the table (``Store.table``: game, seats,
settings) and one write (``Store.commit``: the new state under the version check, one move row, the
turn timers replaced, one outbox announcement, the game's one-line listing and waiting seats), then
the announcement marked posted (its outbox row deleted). Each process
plays its own games (as a shard owns its guilds) with several commands in flight at once; the
processes share one database. PostgreSQL is a throwaway cluster (tests/pgcluster.py) with fsync on
and synchronous_commit off, the durability SQLite's WAL with synchronous=NORMAL has.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import games  # noqa: E402
from storage import Announcement, MoveRecord, NewTimer, open_store  # noqa: E402
from tests.pgcluster import start  # noqa: E402

MOVES_PER_PROCESS = 1200
GAMES_PER_PROCESS = 8  # commands in flight at once in one process
WARMUP_MOVES = 40


def _state() -> dict[str, Any]:
    spec = games.get_game("tiny-towns")
    return spec.setup(["ann", "bob", "cat", "dan"], {o.name: o.default for o in spec.options}, 1)


async def _prepare(target: str, process: int) -> list[tuple[str, str]]:
    store = await open_store(target)
    try:
        channels = [(f"guild-{process}", f"c{i}") for i in range(GAMES_PER_PROCESS)]
        for guild, channel in channels:
            row = await store.create_game(guild, channel, "tiny-towns", "u", "ann", {}, "1")
            await store.commit(row, state=_state(), status="active", seed=1)
        return channels
    finally:
        await store.close()


async def _play(target: str, channels: list[tuple[str, str]], moves: int) -> list[float]:
    """Play ``moves`` moves spread over the channels, all channels at once; returns each move's seconds."""
    store = await open_store(target)
    latencies: list[float] = []

    async def channel_loop(guild: str, channel: str, count: int) -> None:
        for i in range(count):
            began = time.perf_counter()
            table = await store.table(guild, channel)
            assert table is not None and table.game.state is not None
            state = dict(table.game.state, round=i)
            _, outbox = await store.commit(
                table.game,
                state=state,
                moves=[MoveRecord(0, "u", f"/tt place A{i % 4 + 1}")],
                cancel_timers=("reminder", "deadline"),
                add_timers=[NewTimer("reminder", time.time() + 43200, {"version": table.game.version + 1})],
                announce=Announcement(f"ann places wood ({i})", ["u"], True),
                listing=f"Round {i}: ann to act",
                waiting=(0,),
            )
            if outbox is not None:
                await store.mark_announced(outbox)
            latencies.append(time.perf_counter() - began)

    try:
        per_channel = moves // len(channels)
        await asyncio.gather(*(channel_loop(g, c, per_channel) for g, c in channels))
    finally:
        await store.close()
    return latencies


def _worker(target: str, channels: list[tuple[str, str]], moves: int, go: Any, out: Any) -> None:
    asyncio.run(_play(target, channels, WARMUP_MOVES))  # connections and caches warm, not measured
    go.wait()
    out.put(asyncio.run(_play(target, channels, moves)))


def _run(target: str, processes: int) -> dict[str, float]:
    context = multiprocessing.get_context("spawn")
    channel_sets = [asyncio.run(_prepare(target, p)) for p in range(processes)]
    go, out = context.Event(), context.Queue()
    workers = [
        context.Process(target=_worker, args=(target, channels, MOVES_PER_PROCESS, go, out))
        for channels in channel_sets
    ]
    for worker in workers:
        worker.start()
    time.sleep(3.0)  # every worker has warmed up and waits at the start line
    began = time.perf_counter()
    go.set()
    latencies = sorted(x for _ in workers for x in out.get())
    elapsed = time.perf_counter() - began
    for worker in workers:
        worker.join()
    return {
        "moves": len(latencies),
        "moves_per_s": round(len(latencies) / elapsed, 1),
        "p50_ms": round(latencies[len(latencies) // 2] * 1000, 2),
        "p99_ms": round(latencies[int(len(latencies) * 0.99) - 1] * 1000, 2),
    }


def main() -> None:
    results: dict[str, Any] = {
        "workload": f"{MOVES_PER_PROCESS} moves per process over {GAMES_PER_PROCESS} games in flight, "
        "each one table read + one commit (compressed state, move, timers, outbox, listing) + mark posted",
    }
    cluster = start(durable=True)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for processes in (1, 2):
                sqlite_target = str(Path(tmp) / f"bench-{processes}.db")
                name = f"bench{processes}"
                cluster.create_database(name)
                results[f"sqlite_{processes}_process"] = _run(sqlite_target, processes)
                results[f"postgres_{processes}_process"] = _run(cluster.database_url(name), processes)
    finally:
        cluster.stop()
    print(json.dumps(results))


if __name__ == "__main__":
    main()
