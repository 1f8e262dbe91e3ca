"""Seeded bot playouts in a fresh interpreter, for the games' AI determinism tests.

Set and dict orders differ between interpreters with different ``PYTHONHASHSEED`` values, so a bot
that leans on them gives different moves in different processes; replays and `conductor check`
need the same move everywhere."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def bot_line(
    game_module: str,
    players: Sequence[str],
    hash_seed: str,
    levels: Sequence[int] = (0, 1),
    steps: int = 12,
    seed: int = 5,
) -> str:
    """The bot moves of each of ``levels`` at each of the first ``steps`` positions of a game (seed
    ``seed``) that advances by level-1 bot moves, as printed by an interpreter with ``hash_seed``."""
    script = (
        f"from {game_module} import GAME\n"
        f"state = GAME.setup({list(players)!r}, {{}}, {seed})\n"
        "out = []\n"
        f"for step in range({steps}):\n"
        "    status = GAME.status(state)\n"
        "    if status.finished: break\n"
        "    seat = status.to_act[0]\n"
        f"    out += [GAME.format(GAME.bot_move(state, seat, level)) for level in {tuple(levels)!r}]\n"
        "    state, _ = GAME.apply(state, seat, GAME.bot_move(state, seat, 1))\n"
        "print(repr(out))\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True).stdout
