"""Run by test_reliability: a scripted game (lobby, joins, start, moves, an undo, a finish) where each
acknowledged command prints "ack <n> <version> <channel>".

``crash_worker.py DB`` plays moves until killed from outside (the SIGKILL test).
``crash_worker.py DB BOUNDARY N`` ends the process (os._exit, no cleanup, like SIGKILL) the N-th time
a write transaction reaches ``BOUNDARY`` (e.g. "commit:before_commit"; see storage.db.FaultHook).
"""

from __future__ import annotations

import asyncio
import os
import sys

from bot.core import Conductor
from bot.replies import Actor
from storage import Store

MOD = Actor("9", "mod", is_moderator=True)
ANN, BOB, CAT = Actor("1", "ann"), Actor("2", "bob"), Actor("3", "cat")
LEGAL = "<the first legal move>"
# Every kind of write: a lobby, seat changes, the start, moves, an undo, a solo game that ends
# (its move log archived in the same transaction) and a lobby closed by its host.
SCRIPT = [
    ("c", ANN, "/game new tiny-towns buildings=first-game"),
    ("c", BOB, "/game join"),
    ("c", CAT, "/game join"),
    ("c", CAT, "/game leave"),
    ("c", ANN, "/game start"),
    ("c", ANN, "/tt announce wood"),
    ("c", ANN, "/tt place A1"),
    ("c", BOB, "/tt place A1"),
    ("c", BOB, "/game undo"),
    ("c", BOB, "/tt place B2"),
    ("solo", CAT, "/game new tiny-towns buildings=first-game"),
    ("solo", CAT, "/game start solo"),
    ("solo", CAT, LEGAL),
    ("solo", CAT, "/game resign confirm"),
    ("lobby", BOB, "/game new trains"),
    ("lobby", BOB, "/game abort"),
]


def crash_at(boundary: str, nth: int) -> None:
    seen = 0

    def hook(point: str) -> None:
        nonlocal seen
        if point == boundary:
            seen += 1
            if seen == nth:
                os._exit(70)

    return hook  # type: ignore[return-value]


async def main(path: str, boundary: str | None, nth: int) -> None:
    store = await Store.open(path)
    if boundary is not None:
        store.fault_hook = crash_at(boundary, nth)  # type: ignore[func-returns-value]
    host = Conductor(store, render_images=False, seed_source=lambda: 5)
    for n, (channel, actor, text) in enumerate(SCRIPT):
        if text == LEGAL:
            text = (await host.legal_commands("g", channel, actor.user_id))[0]
        reply = await host.handle("g", channel, actor, text)
        if not reply.ok:
            print(f"refused {text}: {reply.private}", flush=True)
            os._exit(1)
        print(f"ack {n} {reply.version} {channel}", flush=True)
        if reply.outbox_id is not None:
            await host.announced(reply.outbox_id)  # as a front end does once it has posted
    print("ready", flush=True)
    if boundary is not None:
        print("done", flush=True)  # the script passed the boundary fewer than N times
        await store.close()
        return
    n = len(SCRIPT)
    while True:
        reply = await host.handle("g", "c", MOD, "/game skip")
        if not reply.ok:
            break
        print(f"ack {n} {reply.version} c", flush=True)
        if reply.outbox_id is not None:
            await host.announced(reply.outbox_id)
        n += 1
    print("done", flush=True)
    await store.close()


if __name__ == "__main__":
    asyncio.run(
        main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None, int(sys.argv[3]) if len(sys.argv) > 3 else 0)
    )
