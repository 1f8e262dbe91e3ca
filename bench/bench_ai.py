"""Level-2 (search) bots for Tiny Towns and Trains: strength and decision time, as one JSON object.

    nice python bench/bench_ai.py [--games N] [--workers W] [--only tt-solo,tt-4p,trains]

- tiny_towns_solo: level-2 final scores over N seeded solo games on the first-game building set
  (average, distribution, rulebook titles, average points per scoring line; the target is an
  average of 32, "Town Planner")
- tiny_towns_4p: level 2 against three level-1 bots in N seeded 4-player games (first-game set;
  the level-2 seat rotates); a win is rank 1 (a shared first place counts as half)
- trains_<map>: level 2 against level 1 in N seeded 2-player games per map, half with level 2
  seated first; a shared first place counts as half
- decision_seconds: wall clock of every level-2 decision in all those games (median, p95, p99,
  max); CPU time alongside, since the machine is shared; each Tiny Towns part also has its own

Games run in worker processes (2 by default: the machine has 2 cores). Seeds are fixed, so a
run replays identically; the decisions are deterministic (no clock in them).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.base import GameSpec  # noqa: E402
from games.tiny_towns import GAME as TINY_TOWNS  # noqa: E402
from games.tiny_towns.scoring import solo_title  # noqa: E402
from games.trains import GAME as TRAINS  # noqa: E402

NAMES = ["ann", "bob", "cat", "dan"]
Result = tuple[dict[int, float], list[float], list[float], dict[int, int], dict[int, dict[str, int]]]


def _play(spec: GameSpec, players: int, options: dict[str, Any], seed: int, levels: list[int]) -> Result:
    """Points share of the win per seat, level-2 decision wall and CPU seconds, final scores and
    score breakdowns."""
    state = spec.setup(NAMES[:players], options, seed)
    wall: list[float] = []
    cpu: list[float] = []
    while not spec.status(state).finished:
        seat = spec.status(state).to_act[0]
        start, start_cpu = time.perf_counter(), time.process_time()
        move = spec.bot_move(state, seat, levels[seat])
        if levels[seat] == 2:
            wall.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        state, _ = spec.apply(state, seat, move)
    table = spec.standings(state)
    firsts = [row["seat"] for row in table if row["rank"] == 1]
    wins = {seat: 1.0 / len(firsts) for seat in firsts}
    breakdowns = {row["seat"]: row.get("breakdown", {}) for row in table}
    return wins, wall, cpu, {row["seat"]: row["score"] for row in table}, breakdowns


def tt_solo(seed: int) -> Result:
    return _play(TINY_TOWNS, 1, {"buildings": "first-game"}, seed, [2])


def tt_four(seed: int) -> Result:
    levels = [1, 1, 1, 1]
    levels[seed % 4] = 2
    return _play(TINY_TOWNS, 4, {"buildings": "first-game"}, seed, levels)


def trains_tokyo(seed: int) -> Result:
    return _play(TRAINS, 2, {"map": "tokyo"}, seed, [2, 1] if seed % 2 == 0 else [1, 2])


def trains_osaka(seed: int) -> Result:
    return _play(TRAINS, 2, {"map": "osaka"}, seed, [2, 1] if seed % 2 == 0 else [1, 2])


def _quantiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values) or [0.0]

    def at(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 3)

    return {
        "count": len(values),
        "median": round(statistics.median(ordered), 3),
        "p95": at(0.95),
        "p99": at(0.99),
        "max": round(ordered[-1], 3),
    }


def _mean_breakdown(breakdowns: list[dict[str, int]]) -> dict[str, float]:
    """Average points per scoring line (building type, empty squares) over games, to see where a
    bot's points come from (a line missing from a game counts 0 there)."""
    kinds = sorted({kind for b in breakdowns for kind in b})
    return {kind: round(sum(b.get(kind, 0) for b in breakdowns) / len(breakdowns), 2) for kind in kinds}


def _decisions(results: list[Result]) -> dict[str, dict[str, float]]:
    """Level-2 decision times of one part alone (wall clock and CPU)."""
    return {
        "wall": _quantiles([t for r in results for t in r[1]]),
        "cpu": _quantiles([t for r in results for t in r[2]]),
    }


def _run(pool: Any, job: Callable[[int], Result], seeds: range) -> list[Result]:
    return list(pool.map(job, seeds, chunksize=1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per figure (default 200)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", default="tt-solo,tt-4p,trains", help="comma list of tt-solo, tt-4p, trains")
    args = parser.parse_args()
    parts = set(args.only.split(","))
    seeds = range(args.games)
    out: dict[str, Any] = {"games": args.games}
    wall: list[float] = []
    cpu: list[float] = []
    started = time.perf_counter()
    with Pool(args.workers) as pool:
        if "tt-solo" in parts:
            results = _run(pool, tt_solo, seeds)
            scores = [r[3][0] for r in results]
            titles: dict[str, int] = {}
            for score in scores:
                titles[solo_title(score)] = titles.get(solo_title(score), 0) + 1
            out["tiny_towns_solo"] = {
                "average": round(statistics.mean(scores), 2),
                "median": statistics.median(scores),
                "min": min(scores),
                "max": max(scores),
                "at_least_32": sum(1 for s in scores if s >= 32),
                "titles": titles,
                "points_by_kind": _mean_breakdown([r[4][0] for r in results]),
                "target_average": 32,
                "decision_seconds": _decisions(results),
            }
            for r in results:
                wall += r[1]
                cpu += r[2]
        if "tt-4p" in parts:
            results = _run(pool, tt_four, seeds)
            wins = sum(r[0].get(seed % 4, 0.0) for seed, r in zip(seeds, results, strict=True))
            mine = [r[3][seed % 4] for seed, r in zip(seeds, results, strict=True)]
            others = [s for seed, r in zip(seeds, results, strict=True) for k, s in r[3].items() if k != seed % 4]
            out["tiny_towns_4p"] = {
                "level2_win_rate": round(wins / len(results), 3),
                "level2_average": round(statistics.mean(mine), 2),
                "level1_average": round(statistics.mean(others), 2),
                "target_win_rate": 0.7,
                "decision_seconds": _decisions(results),
            }
            for r in results:
                wall += r[1]
                cpu += r[2]
        if "trains" in parts:
            for name, job in (("tokyo", trains_tokyo), ("osaka", trains_osaka)):
                results = _run(pool, job, seeds)
                wins = sum(r[0].get(0 if seed % 2 == 0 else 1, 0.0) for seed, r in zip(seeds, results, strict=True))
                margin = [
                    r[3][0 if seed % 2 == 0 else 1] - r[3][1 if seed % 2 == 0 else 0]
                    for seed, r in zip(seeds, results, strict=True)
                ]
                out[f"trains_{name}"] = {
                    "level2_win_rate": round(wins / len(results), 3),
                    "average_margin": round(statistics.mean(margin), 2),
                    "target_win_rate": 0.75,
                }
                for r in results:
                    wall += r[1]
                    cpu += r[2]
    out["decision_seconds"] = {"wall": _quantiles(wall), "cpu": _quantiles(cpu), "target_p99": 2.0}
    out["elapsed_seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
