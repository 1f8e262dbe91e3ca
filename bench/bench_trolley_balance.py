"""My Trolley Town tile balance check by bot self-play: prints one JSON object.

    python bench/bench_trolley_balance.py [--games 500] [--workers 2]

Seeded games between level-1 bots (the strongest level), 2, 3 and 4 players in turn, default
options. For every special tile (piles A, B, V) and, separately, every basic building: in how
many towns it was built ("appearances"), in how many winning towns (a tie makes every tied town
a winner), and its share of the winning towns. The design rule (issue 10): no tile in more than
60% of winning towns; the basic buildings (every town's staples, from the rulebook) are listed
apart and not held to it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.trolley_town import GAME  # noqa: E402
from games.trolley_town.content import TILES  # noqa: E402

NAMES = ["ann", "bob", "cat", "dan"]
LIMIT = 0.60


def play(job: tuple[int, int]) -> list[tuple[list[str], bool, int]]:
    """One game: for each town, (tiles built, won, VP)."""
    players, seed = job
    state = GAME.setup(NAMES[:players], {}, seed)
    while not GAME.status(state).finished:
        seat = GAME.status(state).to_act[0]
        state, _ = GAME.apply(state, seat, GAME.bot_move(state, seat, 1))
    best = max(town["vp"] for town in state["towns"])
    found = []
    for town in state["towns"]:
        tiles = sorted({cell["t"] for cell in town["cells"].values() if "t" in cell})
        found.append((tiles, town["vp"] == best, int(town["vp"])))
    return found


def table(results: list[list[tuple[list[str], bool, int]]], piles: tuple[str, ...]) -> list[dict[str, Any]]:
    towns = [town for game in results for town in game]
    winners = sum(1 for _, won, _ in towns if won)
    rows: list[dict[str, Any]] = []
    for slug, tile in TILES.items():
        if tile.pile not in piles:
            continue
        built = [won for tiles, won, _ in towns if slug in tiles]
        wins = sum(built)
        rows.append(
            {
                "tile": slug,
                "pile": tile.pile,
                "appearances": len(built),
                "in_winning_towns": wins,
                "share": round(wins / winners, 3) if winners else 0.0,
                "win_rate_when_built": round(wins / len(built), 3) if built else None,
            }
        )
    rows.sort(key=lambda row: (-row["share"], row["tile"]))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    jobs = [(2 + index % 3, 7000 + index) for index in range(args.games)]
    start = time.perf_counter()
    with Pool(args.workers) as pool:
        results = pool.map(play, jobs, chunksize=4)
    towns = [town for game in results for town in game]
    special = table(results, ("A", "B", "V"))
    basic = table(results, ("basic",))
    top = special[0] if special else None
    print(
        json.dumps(
            {
                "games": len(results),
                "players": {str(p): sum(1 for q, _ in jobs if q == p) for p in (2, 3, 4)},
                "towns": len(towns),
                "winning_towns": sum(1 for _, won, _ in towns if won),
                "mean_vp": round(sum(vp for _, _, vp in towns) / len(towns), 1),
                "limit": LIMIT,
                "max_special_share": top["share"] if top else 0.0,
                "over_limit": [row["tile"] for row in special if row["share"] > LIMIT],
                "basic_over_limit": [row["tile"] for row in basic if row["share"] > LIMIT],
                "special": special,
                "basic": basic,
                "seconds": round(time.perf_counter() - start, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
