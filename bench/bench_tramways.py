"""Tramways benchmark: random 4-player games per second with every module, passenger-route
generation on a full 5-player map, board render time and size at 5 players, the level-1 bot's
decision time and its win rate against a random player over 200 seeded games. Prints JSON.

Run from the repo root: python bench/bench_tramways.py  (add --quick for fewer games)
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.tramways import (
    GAME,  # noqa: E402
    links,  # noqa: E402
)
from games.tramways.scoring import standings  # noqa: E402
from rendering.tramways import render_board  # noqa: E402

ALL = {"station": True, "exchange": True, "park": True, "master": True}
QUICK = "--quick" in sys.argv
RANDOM_GAMES = 10 if QUICK else 40
DUELS = 40 if QUICK else 200


def _ms(values: list[float], cpu: list[float] | None = None) -> dict[str, float]:
    """Wall-clock figures, and the median CPU time of this process (the machine is shared: a busy
    neighbour stretches wall time, not CPU time)."""
    values = sorted(values)
    out = {
        "median_ms": round(1000 * statistics.median(values), 3),
        "p95_ms": round(1000 * values[int(0.95 * (len(values) - 1))], 3),
        "max_ms": round(1000 * values[-1], 3),
        "samples": len(values),
    }
    if cpu:
        out["cpu_median_ms"] = round(1000 * statistics.median(cpu), 3)
    return out


def _play(
    state: dict[str, Any], levels: dict[int, int], timing: list[float] | None = None, cpu: list[float] | None = None
) -> dict[str, Any]:
    while not GAME.status(state).finished:
        seat = GAME.status(state).to_act[0]
        start, used = time.perf_counter(), time.process_time()
        move = GAME.bot_move(state, seat, levels.get(seat, 0))
        if timing is not None and levels.get(seat, 0) > 0:
            timing.append(time.perf_counter() - start)
            if cpu is not None:
                cpu.append(time.process_time() - used)
        state, _ = GAME.apply(state, seat, move)
    return state


def random_games() -> dict[str, Any]:
    start, cpu = time.perf_counter(), time.process_time()
    for seed in range(RANDOM_GAMES):
        _play(GAME.setup(["a", "b", "c", "d"], ALL, seed), {})
    elapsed, used = time.perf_counter() - start, time.process_time() - cpu
    # Wall clock and this process's CPU time: the machine is shared, so the two can differ a lot.
    return {
        "games": RANDOM_GAMES,
        "games_per_s": round(RANDOM_GAMES / elapsed, 2),
        "games_per_cpu_s": round(RANDOM_GAMES / used, 2),
        "target": ">= 20",
    }


def full_map() -> dict[str, Any]:
    """A late-game 5-player map (bots built it) for route generation and rendering."""
    state = GAME.setup(["a", "b", "c", "d", "e"], ALL, 7)
    while not GAME.status(state).finished and state["round"] < 6:
        seat = GAME.status(state).to_act[0]
        state, _ = GAME.apply(state, seat, GAME.bot_move(state, seat, 1))
    return state


def routes(state: dict[str, Any]) -> dict[str, Any]:
    times, cpu = [], []
    found = 0
    for _ in range(50):
        start, used = time.perf_counter(), time.process_time()
        adjacency = links.graph(state)
        found = sum(len(links.routes(state, label, adjacency)) for label, n in state["passengers"].items() if n)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - used)
    return {"links": len(state["links"]), "routes": found, **_ms(times, cpu), "target_median_ms": 2}


def render(state: dict[str, Any]) -> dict[str, Any]:
    view = GAME.view(state, 0)
    times, cpu, size = [], [], 0
    render_board(view, 0)  # the terrain layer and the PNG palette are made once per map / process
    for _ in range(20):
        start, used = time.perf_counter(), time.process_time()
        size = len(render_board(view, 0))
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - used)
    return {**_ms(times, cpu), "png_kb": round(size / 1024, 1), "target": "median <= 40 ms, <= 300 KB"}


def duels() -> dict[str, Any]:
    wins, timing, cpu = 0, [], []
    for seed in range(DUELS):
        ai = seed % 2
        final = _play(GAME.setup(["a", "b"], ALL if seed % 2 else {}, 10_000 + seed), {ai: 1}, timing, cpu)
        table = standings(final)
        wins += table[0]["seat"] == ai and table[1]["rank"] > 1
    return {
        "games": DUELS,
        "ai_wins": wins,
        "win_rate": round(wins / DUELS, 3),
        "target": ">= 0.95",
        "decision": _ms(timing, cpu),
    }


def ai_four_players() -> dict[str, Any]:
    """Level-1 decisions in 4-player games with every module (the busiest positions); the action
    phase's decisions (where the bot weighs every legal move) also on their own."""
    timing, cpu, action_timing, action_cpu = [], [], [], []
    games = 4 if QUICK else 10
    for seed in range(games):
        state = GAME.setup(["a", "b", "c", "d"], ALL, 20_000 + seed)
        while not GAME.status(state).finished:
            seat = GAME.status(state).to_act[0]
            start, used = time.perf_counter(), time.process_time()
            move = GAME.bot_move(state, seat, 1)
            wall, spent = time.perf_counter() - start, time.process_time() - used
            timing.append(wall)
            cpu.append(spent)
            if state["phase"] == "actions":
                action_timing.append(wall)
                action_cpu.append(spent)
            state, _ = GAME.apply(state, seat, move)
    return {
        "games": games,
        "decision": _ms(timing, cpu),
        "action_phase_decision": _ms(action_timing, action_cpu),
        "target_median_ms": 200,
    }


def main() -> None:
    state = full_map()
    result = {
        "random_4p_all_modules": random_games(),
        "routes_5p_full_map": routes(state),
        "render_5p": render(state),
        "ai_vs_random_2p": duels(),
        "ai_4p_all_modules": ai_four_players(),
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
