"""My Trolley Town engine and bot benchmark: prints one JSON object.

    python bench/bench_trolley_town.py [--quick] [--workers N]

- random_4p_games_per_second: complete 4-player games played by level-0 (random) bots, one
  process (the engine's legal_moves and apply are most of it)
- legal_moves_ms: rules.legal_moves on a 40-tile town (buildings, routes, pieces on the tiles),
  in a construction turn and in a transport step (median, p95)
- reachable_ms: town.reachable from every building of that town for every resource, basic and
  expert rules (median, p95)
- ai_decision_ms: every level-1 decision (construction, transport, choices, solo removals) in
  complete 1-4 player games (median, p95, max; wall clock and CPU time), and construction
  turns alone (the planning ones)
- ai_vs_random: level 1 against level 0 in seeded 2-player games, half with the bot seated first
- solo: level-1 final scores over seeded solo games, against the rulebook's titles

Games run in worker processes (2 by default, the machine has 2 cores).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.rng import Rng  # noqa: E402
from games.trolley_town import GAME, rules  # noqa: E402
from games.trolley_town.content import RESOURCES, RULES, TILES  # noqa: E402
from games.trolley_town.town import edge_neighbours, reachable  # noqa: E402

NAMES = ["ann", "bob", "cat", "dan"]


def _quantiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return {"median": round(statistics.median(ordered), 3), "p95": round(p95, 3), "max": round(ordered[-1], 3)}


# ---------------------------------------------------------------- random games


def random_games(count: int) -> float:
    start = time.perf_counter()
    for seed in range(count):
        state = GAME.setup(NAMES, {}, seed)
        while not GAME.status(state).finished:
            seat = GAME.status(state).to_act[0]
            state, _ = GAME.apply(state, seat, GAME.bot_move(state, seat, 0))
    return count / (time.perf_counter() - start)


# ---------------------------------------------------------------- a 40-tile town


def big_town_state(tiles: int = 40) -> dict[str, Any]:
    """A round-3 construction state whose first town has ``tiles`` tiles, all on one route
    network (a big, well-run town: the worst case for the searches): from a random building
    with a free side, a straight route and a new building beyond it, about half the buildings
    then sharing a junction; pieces on the tiles that take them; 3 wood and 3 stone in hand."""
    state = GAME.setup(NAMES[:2], {}, 4)
    while not (state["round"] == 3 and state["phase"] == "construction" and state["turn"] == 0):
        seat = GAME.status(state).to_act[0]
        state, _ = GAME.apply(state, seat, GAME.bot_move(state, seat, 1))
    town = rules.new_town(False)
    state["towns"][0] = town
    cells = town["cells"]
    rng = Rng(2024)
    buildings = sorted(slug for slug, tile in TILES.items() if tile.is_building and tile.pile != "start")

    def place(key: str, cell: dict[str, Any]) -> None:
        cell["n"] = town["placed"]
        town["placed"] += 1
        cells[key] = cell

    while len(cells) < tiles - 1:
        stems = [
            (key, edge)
            for key, cell in sorted(cells.items())
            if "t" in cell
            for edge, beyond in edge_neighbours(key)
            if beyond not in cells and _step(_step(key, edge), edge) not in cells
        ]
        key, edge = rng.choice(stems)
        route, far = _step(key, edge), _step(_step(key, edge), edge)
        place(route, {"route": "straight", "rot": 0 if edge in ("E", "W") else 90})
        slug = rng.choice(buildings)
        held: dict[str, int] = {}
        accepts = sorted(TILES[slug].accepts)
        for _ in range(rng.below(TILES[slug].spaces + 1) if accepts else 0):
            resource = rng.choice(accepts)
            held[resource] = held.get(resource, 0) + 1
        place(far, {"t": slug, "r": held})
    cells["0,0"]["r"] = {"wood": 3}
    cells["1,0"]["r"] = {"stone": 3}
    return state


def _step(key: str, edge: str) -> str:
    return dict(edge_neighbours(key))[edge]


def legal_move_times(state: dict[str, Any], repeats: int) -> dict[str, Any]:
    construction: list[float] = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        listed = rules.legal_moves(state, 0)
        construction.append((time.perf_counter() - t0) * 1e3)
    transport_state = json.loads(json.dumps(state))
    transport_state["phase"] = "transport"
    transport_state["turn"] = None
    for town in transport_state["towns"]:
        town["step"] = "transport"
        town["pull"] = {}
    transport: list[float] = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        moved = rules.legal_moves(transport_state, 0)
        transport.append((time.perf_counter() - t0) * 1e3)
    return {
        "construction": {**_quantiles(construction), "moves": len(listed)},
        "transport": {**_quantiles(transport), "moves": len(moved)},
    }


def reachable_times(state: dict[str, Any], repeats: int) -> dict[str, Any]:
    cells = state["towns"][0]["cells"]
    sources = [key for key, cell in cells.items() if "t" in cell]
    times: list[float] = []
    for _ in range(repeats):
        for key in sources:
            for resource in RESOURCES:
                for expert in (False, True):
                    t0 = time.perf_counter()
                    reachable(cells, key, resource, expert)
                    times.append((time.perf_counter() - t0) * 1e3)
    sizes = [len(reachable(cells, key, None, False)) for key in sources]
    return {**_quantiles(times), "calls": len(times), "buildings_reached_median": statistics.median(sizes)}


# ---------------------------------------------------------------- bot games (worker processes)


def _bot_game(job: tuple[int, int, list[int]]) -> dict[str, Any]:
    players, seed, levels = job
    state = GAME.setup(NAMES[:players], {}, seed)
    wall: list[float] = []
    cpu: list[float] = []
    building: list[float] = []  # construction turns only (the expensive kind)
    kinds: dict[str, int] = {}
    while not GAME.status(state).finished:
        seat = GAME.status(state).to_act[0]
        phase = state["phase"]
        t0, c0 = time.perf_counter(), time.thread_time()
        move = GAME.bot_move(state, seat, levels[seat])
        if levels[seat] >= 1:
            wall.append((time.perf_counter() - t0) * 1e3)
            cpu.append((time.thread_time() - c0) * 1e3)
            if phase == "construction" and move["verb"] != "choose":
                building.append(wall[-1])
            kinds[move["verb"]] = kinds.get(move["verb"], 0) + 1
        state, _ = GAME.apply(state, seat, move)
    return {
        "vp": [town["vp"] for town in state["towns"]],
        "wall": wall,
        "cpu": cpu,
        "construction": building,
        "kinds": kinds,
    }


def decision_times(pool: Any, games: int) -> dict[str, Any]:
    jobs = [(1 + index % 4, 500 + index, [1, 1, 1, 1]) for index in range(games)]
    wall: list[float] = []
    cpu: list[float] = []
    building: list[float] = []
    kinds: dict[str, int] = {}
    for result in pool.map(_bot_game, jobs):
        wall += result["wall"]
        cpu += result["cpu"]
        building += result["construction"]
        for verb, count in result["kinds"].items():
            kinds[verb] = kinds.get(verb, 0) + count
    return {
        "wall": _quantiles(wall),
        "cpu": _quantiles(cpu),
        "construction_turns_wall": _quantiles(building),
        "decisions": len(wall),
        "by_kind": kinds,
    }


def versus_random(pool: Any, games: int) -> dict[str, Any]:
    jobs = [(2, 1000 + seed, [1, 0] if seed % 2 == 0 else [0, 1]) for seed in range(games)]
    wins = ties = 0
    margins: list[int] = []
    for seed, result in enumerate(pool.map(_bot_game, jobs)):
        bot = 0 if seed % 2 == 0 else 1
        mine, theirs = result["vp"][bot], result["vp"][1 - bot]
        wins += mine > theirs
        ties += mine == theirs
        margins.append(mine - theirs)
    return {
        "games": games,
        "wins": wins,
        "ties": ties,
        "win_rate": round(wins / games, 3),
        "median_margin": statistics.median(margins),
    }


def solo(pool: Any, games: int) -> dict[str, Any]:
    scores = [result["vp"][0] for result in pool.map(_bot_game, [(1, seed, [1]) for seed in range(games)])]
    titles = {title: 0 for _, title in RULES.titles}
    titles["none"] = 0
    for score in scores:
        earned = [title for threshold, title in RULES.titles if score >= threshold]
        titles[earned[-1] if earned else "none"] += 1
    mean = statistics.mean(scores)
    reached = [title for threshold, title in RULES.titles if mean >= threshold]
    return {
        "games": games,
        "mean": round(mean, 1),
        "median": statistics.median(scores),
        "min": min(scores),
        "max": max(scores),
        "title_of_mean": reached[-1] if reached else "none",
        "titles": titles,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="fewer games (for a smoke run)")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    scale = 0.2 if args.quick else 1.0
    state = big_town_state()
    result: dict[str, Any] = {
        "random_4p_games_per_second": round(random_games(max(5, int(30 * scale))), 2),
        "town_tiles": len(state["towns"][0]["cells"]),
        "legal_moves_ms": legal_move_times(state, max(20, int(200 * scale))),
        "reachable_ms": reachable_times(state, max(2, int(10 * scale))),
    }
    with Pool(args.workers) as pool:
        result["ai_decision_ms"] = decision_times(pool, max(4, int(24 * scale)))
        result["ai_vs_random"] = versus_random(pool, max(20, int(200 * scale)))
        result["solo"] = solo(pool, max(20, int(100 * scale)))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
