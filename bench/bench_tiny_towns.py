"""Tiny Towns engine benchmark: prints one JSON object.

    python bench/bench_tiny_towns.py [--games N]

- random_4p_games_per_second: complete 4-player games (monuments on), every move drawn at random
  from legal_moves by the bench itself (a seeded games.rng.Rng): the engine alone, the issue-14
  target (>= 200). ``_cpu`` variants divide by this process's CPU time instead of wall time, which
  stays meaningful when other processes share the cores. The loop asks status once per move, as a
  host does (until issue 14's second pass it asked twice, which cost about 6% of a game).
- bot0_4p_games_per_second: the same games played by the level-0 bot (games/tiny_towns/ai.py),
  whose seeded pick fingerprints the towns as JSON on every move (the figure this bench printed as
  random_4p_games_per_second before issue 14).
- legal_moves_us_median / _mean / _max: legal_moves over every call made in the random games
- final_scoring_us_per_town: score_town on finished towns
- ai_decision_ms: level-1 decisions in 4-player games (max / median / mean)
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.options import parse_options  # noqa: E402
from games.rng import Rng  # noqa: E402
from games.tiny_towns import GAME  # noqa: E402
from games.tiny_towns.bitboard import warm  # noqa: E402
from games.tiny_towns.scoring import score_town  # noqa: E402

Picker = Callable[[dict[str, Any], int, list[dict[str, Any]]], dict[str, Any]]


def _play(count: int, pick: Callable[[int], Picker]) -> tuple[float, float, list[float], list[dict]]:
    """(games per wall second, games per CPU second, legal_moves times, final states)."""
    options = parse_options("monuments=on", GAME.options)
    legal_times: list[float] = []
    finals: list[dict] = []
    wall, cpu = time.perf_counter(), time.process_time()
    for seed in range(count):
        chooser = pick(seed)
        state = GAME.setup(["a", "b", "c", "d"], options, seed)
        status = GAME.status(state)  # once per move, as a host asks it
        while not status.finished:
            seat = status.to_act[0]
            t0 = time.perf_counter()
            legal = GAME.legal_moves(state, seat)
            legal_times.append(time.perf_counter() - t0)
            state, _ = GAME.apply(state, seat, chooser(state, seat, legal))
            status = GAME.status(state)
        finals.append(state)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return count / wall, count / cpu, legal_times, finals


def _engine_picker(seed: int) -> Picker:
    rng = Rng(seed)
    return lambda state, seat, legal: legal[rng.below(len(legal))]


def _bot0_picker(seed: int) -> Picker:
    return lambda state, seat, legal: GAME.bot_move(state, seat, 0)


def _scoring_time(finals: list[dict]) -> float:
    calls = 0
    start = time.perf_counter()
    for _ in range(5):
        for state in finals:
            for seat in range(len(state["towns"])):
                score_town(state, seat)
                calls += 1
    return (time.perf_counter() - start) / calls


def _ai_times(count: int) -> list[float]:
    options = parse_options("monuments=on", GAME.options)
    times: list[float] = []
    for seed in range(count):
        state = GAME.setup(["a", "b", "c", "d"], options, 1000 + seed)
        while not GAME.status(state).finished:
            seat = GAME.status(state).to_act[0]
            t0 = time.perf_counter()
            move = GAME.bot_move(state, seat, 1)
            times.append(time.perf_counter() - t0)
            state, _ = GAME.apply(state, seat, move)
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=60)
    args = parser.parse_args()
    # The pattern tables are built once per process (a worker keeps them); not part of a game.
    warm()
    rate, rate_cpu, legal, finals = _play(args.games, _engine_picker)
    bot_rate, bot_rate_cpu, _, _ = _play(max(3, args.games // 2), _bot0_picker)
    ai = _ai_times(max(3, args.games // 10))
    result = {
        "random_4p_games_per_second": round(rate, 2),
        "random_4p_games_per_cpu_second": round(rate_cpu, 2),
        "bot0_4p_games_per_second": round(bot_rate, 2),
        "bot0_4p_games_per_cpu_second": round(bot_rate_cpu, 2),
        "legal_moves_us_median": round(statistics.median(legal) * 1e6, 2),
        "legal_moves_us_per_call": round(statistics.mean(legal) * 1e6, 1),
        "legal_moves_us_max": round(max(legal) * 1e6, 1),
        "final_scoring_us_per_town": round(_scoring_time(finals) * 1e6, 1),
        "ai_decision_ms_max": round(max(ai) * 1e3, 2),
        "ai_decision_ms_median": round(statistics.median(ai) * 1e3, 3),
        "ai_decision_ms_mean": round(statistics.mean(ai) * 1e3, 3),
        "ai_decisions": len(ai),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
