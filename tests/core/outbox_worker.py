"""Run by test_outbox_lease: one bot process's start-up against a database, posting what start-up
repair hands it, with a real kill at a chosen point.

``outbox_worker.py TARGET setup N``     opens N two-player games (channels c0..c<N-1>) and plays a
                                        move in each whose announcement is committed, never posted.
``outbox_worker.py TARGET post LEASE K`` start-up repair with an outbox lease of LEASE seconds, then
                                        "posts" each announcement (prints ``post <channel> <text>``)
                                        and marks it posted, as the Discord front end does; with
                                        K >= 0 the process ends itself (os._exit, no cleanup, like
                                        SIGKILL) after K posts (if there are more): K = 0 is a kill
                                        between the claim and the first post.
Prints ``claimed <n>`` once the claim is committed, ``done`` at the end.
"""

from __future__ import annotations

import asyncio
import os
import sys

from bot.core import Conductor
from bot.replies import Actor
from storage import open_store

ANN, BOB = Actor("1", "ann"), Actor("2", "bob")


async def setup(target: str, count: int) -> None:
    store = await open_store(target)
    host = Conductor(store, render_images=False, seed_source=lambda: 7)
    for n in range(count):
        channel = f"c{n}"
        for actor, text in [(ANN, "/game new tiny-towns buildings=first-game"), (BOB, "/game join")]:
            await host.handle("g", channel, actor, text)
        start = await host.handle("g", channel, ANN, "/game start")
        assert start.outbox_id is not None
        await host.announced(start.outbox_id)  # the start was posted; the move below never is
        move = await host.handle("g", channel, ANN, f"/tt announce {('wood', 'brick', 'glass')[n % 3]}")
        assert move.ok and move.outbox_id is not None, move.private
    await store.close()


async def post(target: str, lease: float, kill_after: int) -> None:
    store = await open_store(target)
    host = Conductor(store, render_images=False, outbox_lease=lease)
    pending = await host.repair()
    print(f"claimed {len(pending)}", flush=True)
    for posted, (_, channel, reply) in enumerate(pending):
        if posted == kill_after:
            os._exit(70)
        print(f"post {channel} {' | '.join(reply.public.splitlines())}", flush=True)
        assert reply.outbox_id is not None
        await host.announced(reply.outbox_id)
    print("done", flush=True)
    await store.close()


if __name__ == "__main__":
    target, mode = sys.argv[1], sys.argv[2]
    if mode == "setup":
        asyncio.run(setup(target, int(sys.argv[3])))
    else:
        asyncio.run(post(target, float(sys.argv[3]), int(sys.argv[4])))
