"""Run by test_postgres: one process of several committing moves on one game through its own store.

Each round reads the game, waits at a shared barrier (a file per round), then commits on the version it
read; a StaleVersion is counted and the round read again. Prints "won N stale M" at the end."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

from storage import MoveRecord, StaleVersion, open_store


async def main(target: str, game_id: int, me: int, rounds: int, barrier: str) -> None:
    store = await open_store(target)
    won = stale = 0
    try:
        for round_number in range(rounds):
            row = await store.get_game(game_id)
            assert row is not None and row.state is not None
            Path(barrier, f"{round_number}.{me}").touch()
            while len(list(Path(barrier).glob(f"{round_number}.*"))) < 2:  # both processes have read
                time.sleep(0.001)
            try:
                await store.commit(
                    row,
                    state={"n": row.state["n"] + 1, "by": me},
                    moves=[MoveRecord(me, str(me), f"move {row.state['n'] + 1} by {me}")],
                )
                won += 1
            except StaleVersion:
                stale += 1
    finally:
        await store.close()
    print(f"won {won} stale {stale}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]))
