"""Run by test_reliability: applies moves in a burst and prints "ack <version>" after each commit."""

from __future__ import annotations

import asyncio
import sys

from bot.core import Conductor
from bot.replies import Actor
from storage import Store

MOD = Actor("9", "mod", is_moderator=True)


async def main(path: str) -> None:
    store = await Store.open(path)
    host = Conductor(store, render_images=False, seed_source=lambda: 5)
    for actor, text in [
        (Actor("1", "ann"), "/game new tiny-towns"),
        (Actor("2", "bob"), "/game join"),
        (Actor("3", "cat"), "/game join"),
        (Actor("1", "ann"), "/game start"),
    ]:
        assert (await host.handle("g", "c", actor, text)).ok
    print("ready", flush=True)
    while True:
        reply = await host.handle("g", "c", MOD, "/game skip")
        if not reply.ok:
            break
        print(f"ack {reply.version}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
