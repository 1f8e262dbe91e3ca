"""Tiny Towns engine benchmark: prints one JSON object.

    python bench/bench_tiny_towns.py [--games N]

- random_4p_games_per_second: complete 4-player games (monuments on) played by level-0 bots
- legal_moves_us_per_call: mean time of legal_moves over every call made in those games
- final_scoring_us_per_town: score_town on finished towns
- ai_decision_ms: level-1 decisions in 4-player games (max / median / mean)
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.options import parse_options  # noqa: E402
from games.tiny_towns import GAME  # noqa: E402
from games.tiny_towns.scoring import score_town  # noqa: E402


def _random_games(count: int) -> tuple[float, list[float], list[dict]]:
    options = parse_options("monuments=on", GAME.options)
    legal_times: list[float] = []
    finals: list[dict] = []
    start = time.perf_counter()
    for seed in range(count):
        state = GAME.setup(["a", "b", "c", "d"], options, seed)
        while not GAME.status(state).finished:
            seat = GAME.status(state).to_act[0]
            t0 = time.perf_counter()
            GAME.legal_moves(state, seat)
            legal_times.append(time.perf_counter() - t0)
            state, _ = GAME.apply(state, seat, GAME.bot_move(state, seat, 0))
        finals.append(state)
    elapsed = time.perf_counter() - start
    return count / elapsed, legal_times, finals


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
    parser.add_argument("--games", type=int, default=30)
    args = parser.parse_args()
    rate, legal, finals = _random_games(args.games)
    ai = _ai_times(max(3, args.games // 3))
    result = {
        "random_4p_games_per_second": round(rate, 2),
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
