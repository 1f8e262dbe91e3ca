"""Storage throughput and size. Prints JSON.

Throughput: stored moves per second through ``Store.commit`` (what the host writes per move: the
new state, the version check, one move row, the turn timers replaced and the announcement, in one
transaction) against raw ``sqlite3`` running the same statements, interleaved round by round on
mid-game Tiny Towns states (4 players, monuments on), so both see the same machine load.

Size: bytes per game and per move of a database holding finished 4-player Tiny Towns games played
through the host (after VACUUM). Run with ``PYTHONPATH`` pointing at an older checkout to measure it
before: ``PYTHONPATH=../main python bench/bench_storage.py`` (it only uses the host and the Store's
long-standing methods; ``--size-only`` skips the throughput part).

``--list``: /game list and /game mygames in a server with 2,000 active games (time, reply size).
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import games
from bot.core import Conductor
from bot.replies import Actor
from games.options import defaults
from storage import Announcement, MoveRecord, NewTimer, Store
from storage.db import dumps

ROUNDS = 8
MOVES_PER_ROUND = 300


def mid_game_states(count: int) -> list[dict[str, Any]]:
    """States from random 4-player games with monuments, taken from the middle third of each game."""
    spec = games.get_game("tiny-towns")
    options = {**defaults(spec.options), "monuments": "on"}
    states: list[dict[str, Any]] = []
    seed = 0
    while len(states) < count:
        state = spec.setup(["ann", "bob", "cat", "dan"], options, seed)
        trail = []
        while True:
            status = spec.status(state)
            if status.finished or not status.to_act:
                break
            seat = status.to_act[0]
            state, _ = spec.apply(state, seat, spec.bot_move(state, seat, 0))
            trail.append(state)
        states += trail[len(trail) // 3 : 2 * len(trail) // 3]
        seed += 1
    return states[:count]


async def store_round(store: Store, game: Any, states: list[dict[str, Any]]) -> tuple[Any, float, float]:
    """(game, moves per wall second, moves per CPU second of the whole process: the loop and the
    database thread)."""
    start, cpu = time.perf_counter(), time.process_time()
    for i, state in enumerate(states):
        game, _ = await store.commit(
            game,
            state=state,
            moves=[MoveRecord(0, "u", f"/tt place A{i % 4 + 1}")],
            cancel_timers=("reminder", "deadline"),
            add_timers=[NewTimer("reminder", 1e12, {"version": game.version + 1})],
            announce=Announcement("ann places wood on A1.\n**Round 3: bob to act**", ["2"], True),
        )
    return game, len(states) / (time.perf_counter() - start), len(states) / (time.process_time() - cpu)


def raw_round(
    db: sqlite3.Connection, version: int, seq: int, states: list[dict[str, Any]]
) -> tuple[int, int, float, float]:
    start, cpu = time.perf_counter(), time.process_time()
    for i, state in enumerate(states):
        now = time.time()
        db.execute("BEGIN IMMEDIATE")
        cur = db.execute(
            "UPDATE games SET state = ?, version = version + 1, updated_at = ? WHERE id = 1 AND version = ?",
            (dumps(state), now, version),
        )
        assert cur.rowcount == 1
        seq += 1
        db.execute("INSERT INTO moves VALUES (1, ?, 0, 'u', ?, 0, 0, ?)", (seq, f"/tt place A{i % 4 + 1}", now))
        db.execute("DELETE FROM timers WHERE game_id = 1 AND kind IN ('reminder', 'deadline')")
        db.execute(
            "INSERT INTO timers (game_id, kind, due_at, payload, created_at) VALUES (1, 'reminder', 1e12, ?, ?)",
            (dumps({"version": version + 1}), now),
        )
        db.execute(
            "INSERT INTO outbox (game_id, version, text, pings, board, created_at) VALUES (1, ?, ?, ?, 1, ?)",
            (version + 1, "ann places wood on A1.\n**Round 3: bob to act**", dumps(["2"]), now),
        )
        db.execute("COMMIT")
        version += 1
    return version, seq, len(states) / (time.perf_counter() - start), len(states) / (time.process_time() - cpu)


def raw_database(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, state TEXT, version INTEGER, updated_at REAL)")
    db.execute(
        "CREATE TABLE moves (game_id INTEGER, seq INTEGER, seat INTEGER, user_id TEXT, text TEXT, "
        "irreversible INTEGER, reverted INTEGER, created_at REAL, PRIMARY KEY (game_id, seq))"
    )
    db.execute(
        "CREATE TABLE timers (id INTEGER PRIMARY KEY, game_id INTEGER, kind TEXT, due_at REAL, payload TEXT, "
        "created_at REAL)"
    )
    db.execute(
        "CREATE TABLE outbox (id INTEGER PRIMARY KEY, game_id INTEGER, version INTEGER, text TEXT, pings TEXT, "
        "board INTEGER, created_at REAL, posted_at REAL)"
    )
    db.execute("INSERT INTO games (id, state, version, updated_at) VALUES (1, '{}', 0, 0)")
    return db


async def throughput(folder: Path) -> dict[str, Any]:
    import storage.db

    compress = getattr(storage.db, "compress", None)  # older checkouts store plain JSON

    states = mid_game_states(MOVES_PER_ROUND)
    store = await Store.open(folder / "store.db")
    game = await store.create_game("g", "c", "tiny-towns", "u", "ann", {}, "1")
    raw = raw_database(folder / "raw.db")
    version = seq = 0
    store_rates, raw_rates, store_cpu, raw_cpu, ratios = [], [], [], [], []
    for _ in range(ROUNDS):  # interleaved: the same load for both
        game, rate, cpu_rate = await store_round(store, game, states)
        store_rates.append(rate)
        store_cpu.append(cpu_rate)
        version, seq, raw_rate, cpu_rate = raw_round(raw, version, seq, states)
        raw_rates.append(raw_rate)
        raw_cpu.append(cpu_rate)
        ratios.append(rate / raw_rate)  # one round each, back to back: the least exposed to load swings
    await store.close()
    raw.close()
    store_rate, raw_rate = statistics.median(store_rates), statistics.median(raw_rates)
    store_cpu_rate, raw_cpu_rate = statistics.median(store_cpu), statistics.median(raw_cpu)
    return {
        "moves_per_round": MOVES_PER_ROUND,
        "rounds": ROUNDS,
        "state_json_bytes_median": round(statistics.median(len(dumps(s)) for s in states)),
        "state_stored_bytes_median": round(
            statistics.median(len(compress(s) if compress else dumps(s)) for s in states)
        ),
        "store_moves_per_s": round(store_rate),
        "raw_sqlite3_moves_per_s": round(raw_rate),
        "store_to_raw_ratio": round(store_rate / raw_rate, 3),
        "store_to_raw_ratio_per_round_median": round(statistics.median(ratios), 3),
        # Per CPU second (time.process_time: every thread of the process): what a loaded machine's
        # scheduling does not move. The Store's includes its database thread, where a commit goes only
        # when another process holds the write lock (and every 200th write checkpoints there first).
        "store_moves_per_cpu_s": round(store_cpu_rate),
        "raw_sqlite3_moves_per_cpu_s": round(raw_cpu_rate),
        "store_to_raw_cpu_ratio": round(store_cpu_rate / raw_cpu_rate, 3),
        "target_ratio": 0.5,
    }


async def size(folder: Path, games_count: int = 12) -> dict[str, Any]:
    """Finished 4-player Tiny Towns games (monuments on) played through the host; bytes after VACUUM."""
    path = folder / "size.db"
    store = await Store.open(path)
    host = Conductor(store, render_images=False, seed_source=lambda: 21)
    mod = Actor("mod", "mod", is_moderator=True)
    names = ["ann", "bob", "cat", "dan"]
    for g in range(games_count):
        channel = f"c{g}"
        await host.handle("g", channel, Actor("ann", "ann"), "/game new tiny-towns monuments=on")
        for name in names[1:]:
            await host.handle("g", channel, Actor(name, name), "/game join")
        await host.handle("g", channel, Actor("ann", "ann"), "/game start")
        while await store.open_game("g", channel) is not None:
            reply = await host.handle("g", channel, mod, "/game skip")
            if reply.outbox_id is not None:
                await host.announced(reply.outbox_id)
    rows = await store.all_games()
    moves = sum([len(await store.moves(row.id)) for row in rows])
    await store.close()
    db = sqlite3.connect(path)
    db.execute("VACUUM")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    total = db.execute("SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()").fetchone()[0]
    empty = folder / "empty.db"
    store = await Store.open(empty)
    await store.close()
    db.close()
    db = sqlite3.connect(empty)
    base = db.execute("SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()").fetchone()[0]
    db.close()
    return {
        "finished_games": len(rows),
        "moves": moves,
        "bytes_per_game": round((total - base) / len(rows)),
        "bytes_per_move": round((total - base) / moves, 1),
    }


async def game_list(folder: Path, games_count: int = 2000) -> dict[str, Any]:
    """``/game list`` (its first page, or everything on checkouts without pages) and ``/game mygames``
    in a server with ``games_count`` active 2-player Tiny Towns games."""
    store = await Store.open(folder / "list.db")
    host = Conductor(store, render_images=False, seed_source=lambda: 8)
    ann = Actor("ann", "ann")
    for g in range(games_count):
        channel = str(10**17 + g)
        await host.handle("g", channel, ann, "/game new tiny-towns buildings=first-game")
        await host.handle("g", channel, Actor(f"u{g}", f"player{g}"), "/game join")
        await host.handle("g", channel, ann, "/game start")
    timings: dict[str, list[float]] = {"list": [], "mygames": []}
    sizes: dict[str, int] = {}
    for _ in range(5):
        for verb in timings:
            start = time.perf_counter()
            reply = await host.handle("g", "elsewhere", ann, f"/game {verb}")
            timings[verb].append(time.perf_counter() - start)
            sizes[verb] = len(reply.private)
    await store.close()
    return {
        "active_games": games_count,
        "list_ms_median": round(statistics.median(timings["list"]) * 1000, 1),
        "list_reply_chars": sizes["list"],
        "mygames_ms_median": round(statistics.median(timings["mygames"]) * 1000, 1),
        "mygames_reply_chars": sizes["mygames"],
    }


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        report: dict[str, Any] = {}
        if "--list" in sys.argv:  # slow to set up (2,000 games): only when asked
            report["game_list"] = asyncio.run(game_list(folder))
        else:
            if "--size-only" not in sys.argv:
                report["throughput"] = asyncio.run(throughput(folder))
            report["size"] = asyncio.run(size(folder))
    print(json.dumps(report))


if __name__ == "__main__":
    main()
