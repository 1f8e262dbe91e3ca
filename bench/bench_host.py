"""Engine apply latency per game, store calls and SQL round trips per move through the host core, and
replay of a long transcript. Prints JSON."""

from __future__ import annotations

import asyncio
import json
import statistics
import time

from store_counter import StoreCounter  # bench/ is on sys.path when run as a script

import games
from bot.core import Conductor
from bot.replies import Actor
from bot.transcript import export, parse_transcript, replay
from games.options import defaults
from storage import Store


def _percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def apply_latency(slug: str, players: int, games_count: int = 5) -> dict[str, float]:
    spec = games.get_game(slug)
    samples: list[float] = []
    for seed in range(games_count):
        state = spec.setup([f"p{i}" for i in range(players)], defaults(spec.options), seed)
        for _ in range(5000):
            status = spec.status(state)
            if status.finished or not status.to_act:
                break
            seat = status.to_act[0]
            move = spec.bot_move(state, seat, 0)
            start = time.perf_counter()
            state, _ = spec.apply(state, seat, move)
            samples.append((time.perf_counter() - start) * 1000)
    return {
        "apply_ms_median": round(statistics.median(samples), 3),
        "apply_ms_p99": round(_percentile(samples, 0.99), 3),
        "moves": len(samples),
    }


async def long_transcript() -> str:
    store = await Store.open(":memory:")
    host = Conductor(store, render_images=False, seed_source=lambda: 99)
    names = ["ann", "bob", "cat", "dan"]
    mod = Actor("mod", "mod", is_moderator=True)
    await host.handle("g", "c", Actor("ann", "ann"), "/game new tiny-towns monuments=on")
    for name in names[1:]:
        await host.handle("g", "c", Actor(name, name), "/game join")
    await host.handle("g", "c", Actor("ann", "ann"), "/game start")
    while await store.open_game("g", "c") is not None:
        await host.handle("g", "c", mod, "/game skip")
    row = (await store.all_games())[-1]
    text = export(games.get_game(row.game), row, await store.seats(row.id), await store.moves(row.id))
    await store.close()
    return text


async def replay_timing() -> dict[str, float]:
    text = await long_transcript()
    transcript = parse_transcript(text)
    start = time.perf_counter()
    result = await replay(transcript)
    elapsed = time.perf_counter() - start
    return {
        "transcript_lines": len(transcript.lines),
        "replay_s": round(elapsed, 3),
        "replay_moves_per_s": round(result.moves / elapsed),
        "status": result.status,
    }


async def store_per_move(rounds: int = 40) -> dict[str, float | None]:
    """Two humans alternate Tiny Towns moves (no bots): what one plain move asks of the store, as a
    front end does it: the legal moves (autocomplete), the command, then marking its post announced."""
    store = await Store.open(":memory:")
    host = Conductor(store, render_images=False, seed_source=lambda: 7)
    ann, bob = Actor("1", "ann"), Actor("2", "bob")
    for actor, text in [(ann, "/game new tiny-towns buildings=first-game"), (bob, "/game join"), (ann, "/game start")]:
        assert (await host.handle("g", "c", actor, text)).ok
    counter = StoreCounter(store)
    await counter.attach()
    moves = reads = writes = statements = transactions = hops = decodes = 0
    for _ in range(rounds):
        for actor in (ann, bob):
            counter.reset()
            legal = await host.legal_commands("g", "c", actor.user_id)
            if not legal:
                continue
            reply = await host.handle("g", "c", actor, legal[0])
            assert reply.ok
            if reply.outbox_id is not None:
                await host.announced(reply.outbox_id)
            moves, reads, writes = moves + 1, reads + counter.reads, writes + counter.writes
            statements, transactions, hops = (
                statements + counter.statements,
                transactions + counter.transactions,
                hops + counter.hops,
            )
            decodes += counter.decodes or 0
    counted = counter.decodes is not None
    await store.close()
    return {
        "moves": moves,
        "store_calls": round((reads + writes) / moves, 2),
        "reads": round(reads / moves, 2),
        "writes": round(writes / moves, 2),
        "sql_statements": round(statements / moves, 2),
        "write_transactions": round(transactions / moves, 2),
        "thread_hops": round(hops / moves, 2),
        "state_decodes": round(decodes / moves, 2) if counted else None,
    }


def main() -> None:
    report: dict[str, object] = {}
    for slug, players in (("tiny-towns", 4), ("trains", 4)):
        try:
            report[f"{slug}_apply"] = apply_latency(slug, players)
        except Exception as exc:  # a game still under construction must not hide the others' figures
            report[f"{slug}_apply"] = {"error": repr(exc)}
    report["store_per_plain_move"] = asyncio.run(store_per_move())
    report["tiny_towns_long_transcript"] = asyncio.run(replay_timing())
    print(json.dumps(report))


if __name__ == "__main__":
    main()
