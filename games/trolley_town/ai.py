"""Bot players.

Level 0 plays random legal moves, leaning toward ending its turn so random tables finish.
Level 1+ plans: every construction option is scored by a rollout of the town to the end of
the game (production, greedy transport, processing; no further building), plus a little for
wood and stone kept and for open route ends where the next building would connect at once.
Transport is greedy: each piece moves to the reachable tile that values it most.
"""

from __future__ import annotations

import json
from typing import Any

from games.base import MOVE_KEY, IllegalMove, Move, State
from games.rng import Rng
from games.trolley_town import effects, market, rules
from games.trolley_town.content import RESOURCES, RULES, TILES
from games.trolley_town.payment import building_need, default_payment, route_need
from games.trolley_town.town import (
    DISTINCT_ROTATIONS,
    OPPOSITE,
    ROUTE_KINDS,
    Town,
    add_piece,
    canonical_rotation,
    cell_openings,
    edge_neighbours,
    frontier,
    holdings,
    is_route,
    reachable,
    room,
    take_piece,
    tile_of,
    upgrade_rotations,
)

KEEP_VALUE = 0.6  # a wood or stone still in hand, before the last construction phase
PORT_VALUE = 0.4  # an open route end facing an empty cell (up to PORTS_COUNTED)
PORTS_COUNTED = 3
MIN_GAIN = 0.05


def copy_town(town: Town) -> Town:
    return json.loads(json.dumps(town))


# ---------------------------------------------------------------- piece values


def _value(tile_slug: str, resource: str) -> float:
    """How much a piece of ``resource`` is worth sitting on this tile (what the tile does with it)."""
    return _VALUES.get((tile_slug, resource), 0.0)


def _tile_values() -> dict[tuple[str, str], float]:
    found: dict[tuple[str, str], float] = {}
    for slug, tile in TILES.items():
        for effect in tile.effects:
            if effect.do == "convert":
                need = effect.get("from")
                pieces_in = sum(need.values())
                out = effect.get("to")
                worth = out.get("vp", 0) + 1.5 * sum(v for k, v in out.items() if k != "vp")
                per_piece = worth / max(1, pieces_in)
                for resource in need:
                    targets = RESOURCES if resource in ("any", "any_different") else (resource,)
                    for r in targets:
                        found[(slug, r)] = max(found.get((slug, r), 0.0), per_piece * (0.6 if r != resource else 1))
            per = effect.get("per")
            if effect.do == "score" and isinstance(per, dict) and per.get("count") == "here":
                r = per["resource"]
                found[(slug, r)] = max(found.get((slug, r), 0.0), float(effect.get("vp")))
    return found


_VALUES = _tile_values()


def plan_transport(town: Town) -> list[list[str]]:
    """Greedy transport on ``town`` (mutated): move pieces to tiles that value them more."""
    moves: list[list[str]] = []
    cells = town["cells"]
    pull = dict(town.get("pull", {}))
    for _ in range(60):
        best: tuple[float, str, str, str] | None = None
        for source, cell in cells.items():
            held = cell.get("r")
            if not held:
                continue
            for resource in held:
                here = _value(cell["t"], resource)
                targets = reachable(cells, source, resource, town["expert"])
                targets |= {k for k, n in pull.items() if n > 0}
                for target in targets:
                    if target == source:
                        continue
                    other = cells[target]
                    if resource not in tile_of(other).accepts or room(other) <= 0:
                        continue
                    gain = _value(other["t"], resource) - here
                    if gain > MIN_GAIN and (best is None or gain > best[0]):
                        best = (gain, resource, source, target)
        if best is None:
            break
        _, resource, source, target = best
        if target not in reachable(cells, source, resource, town["expert"]):
            pull[target] -= 1
        take_piece(cells[source], resource)
        add_piece(cells[target], resource)
        moves.append([resource, source, target])
    town["pull"] = pull
    return moves


# ---------------------------------------------------------------- rollouts


def _resolve_pending(town: Town) -> None:
    held = holdings(town)
    for choice in town["pending"]:
        order = sorted(choice["options"], key=lambda r: (held.get(r, 0), RULES.default_order.index(r)))
        picks = order[: choice["amount"]] if choice["different"] else [order[0]] * choice["amount"]
        for resource in picks:
            add_piece(town["cells"][choice["cell"]], resource)
    town["pending"] = []


def _transport_and_process(town: Town, last: bool) -> None:
    for _ in range(4 if last else 1):
        town["pull"] = effects.pull_allowances(town)
        moved = plan_transport(town)
        before = town["vp"]
        effects.convert_all(town, "processing", "")
        if not moved and town["vp"] == before:
            break


def rollout(town: Town, round_now: int, include_this_round: bool = True) -> float:
    """VP the town ends with if it builds nothing more (mutates ``town``)."""
    if include_this_round:
        _transport_and_process(town, round_now >= RULES.rounds)
    for _ in range(round_now + 1, RULES.rounds + 1):
        effects.produce(town, "")
        _resolve_pending(town)
        _transport_and_process(town, _ == RULES.rounds)
    effects.game_end(town, "")
    return float(town["vp"])


def ports(town: Town) -> int:
    """Open route ends facing an empty cell: where a new building would connect at once."""
    cells = town["cells"]
    found = 0
    for key, cell in cells.items():
        if not is_route(cell):
            continue
        opens = cell_openings(cell)
        for edge, other in edge_neighbours(key):
            if edge in opens and other not in cells:
                found += 1
    return found


def evaluate(town: Town, round_now: int) -> float:
    held = holdings(town)
    keep = (held.get("wood", 0) + held.get("stone", 0)) * (KEEP_VALUE if round_now < RULES.rounds else 0.0)
    port_bonus = min(ports(town), PORTS_COUNTED) * PORT_VALUE * (RULES.rounds - round_now) / RULES.rounds
    return rollout(copy_town(town), round_now) + keep + port_bonus


# ---------------------------------------------------------------- construction


def _pay_on(town: Town, need: Any) -> bool:
    try:
        pieces = default_payment(town, need)
    except IllegalMove:
        return False
    for resource, key in pieces:
        take_piece(town["cells"][key], resource)
    return True


def _with_building(town: Town, slug: str, key: str, rebuild: bool) -> Town | None:
    trial = copy_town(town)
    if not _pay_on(trial, building_need(trial, slug, key, rebuild)):
        return None
    trial["cells"][key] = {"t": slug, "r": {}, "n": trial["placed"]}
    trial["placed"] += 1
    effects.immediate(trial, key, "")
    effects.on_construction(trial, key, "")
    _resolve_pending(trial)
    return trial


def _with_route(town: Town, kind: str, key: str, turn: int) -> Town | None:
    trial = copy_town(town)
    cost = RULES.junction_cost if kind == "junction" else RULES.route_cost
    if not _pay_on(trial, route_need(cost)):
        return None
    trial["cells"][key] = {"route": kind, "rot": canonical_rotation(kind, turn), "n": trial["placed"]}
    trial["placed"] += 1
    return trial


def _with_upgrade(town: Town, key: str, turn: int) -> Town | None:
    trial = copy_town(town)
    if not _pay_on(trial, route_need(RULES.upgrade_cost)):
        return None
    trial["cells"][key]["route"] = "junction"
    trial["cells"][key]["rot"] = turn
    return trial


def _port_cells(town: Town) -> list[str]:
    cells = town["cells"]
    found = []
    for key, cell in cells.items():
        if is_route(cell):
            opens = cell_openings(cell)
            found += [other for edge, other in edge_neighbours(key) if edge in opens and other not in cells]
    return sorted(set(found))


def _route_cells(town: Town) -> list[str]:
    """Where a new route could join the network: next to a building or an open route end."""
    cells = town["cells"]
    found = []
    for key in frontier(cells):
        for edge, other in edge_neighbours(key):
            cell = cells.get(other)
            if cell is not None and (not is_route(cell) or OPPOSITE[edge] in cell_openings(cell)):
                found.append(key)
                break
    return found


def construction_choice(state: State, seat: int) -> Move:
    town = state["towns"][seat]
    round_now = int(state["round"])
    baseline = evaluate(town, round_now)
    best: tuple[float, Move] = (baseline + MIN_GAIN, {MOVE_KEY: "pass"})
    held = holdings(town)
    wood, stone = held.get("wood", 0), held.get("stone", 0)
    ports_now = _port_cells(town)
    cells_for_buildings = ports_now or frontier(town["cells"])
    targets = [(s, False) for s in market.buildable(state["market"])]
    targets += [(s, True) for s in market.rebuild_targets(state["market"])]
    for slug, rebuild in targets:
        for key in cells_for_buildings:
            if not building_need(town, slug, key, rebuild).affordable(wood, stone):
                continue
            trial = _with_building(town, slug, key, rebuild)
            if trial is None:
                continue
            score = evaluate(trial, round_now)
            if score > best[0]:
                move: Move = {MOVE_KEY: "build", "tile": slug, "cell": key}
                if rebuild:
                    move["rebuild"] = True
                best = (score, move)
    if round_now < RULES.rounds or best[1][MOVE_KEY] == "pass":
        for key in _route_cells(town):
            for kind in ROUTE_KINDS:
                for turn in DISTINCT_ROTATIONS[kind]:
                    trial = _with_route(town, kind, key, turn)
                    if trial is None:
                        continue
                    score = evaluate(trial, round_now)
                    if score > best[0]:
                        best = (score, {MOVE_KEY: "route", "routes": [[kind, key, turn]]})
        for key, cell in town["cells"].items():
            if is_route(cell) and cell["route"] != "junction":
                for turn in upgrade_rotations(cell["route"], cell["rot"]):
                    trial = _with_upgrade(town, key, turn)
                    if trial is not None:
                        score = evaluate(trial, round_now)
                        if score > best[0]:
                            best = (score, {MOVE_KEY: "upgrade", "cells": [[key, turn]]})
    return best[1]


# ---------------------------------------------------------------- entry point


def _random_move(state: State, seat: int) -> Move:
    moves = rules.legal_moves(state, seat)
    if not moves:
        raise IllegalMove("This seat has nothing to do now.")
    salt = ((seat + 1) * 0x9E3779B97F4A7C15) ^ (state["move_number"] * 0xBF58476D1CE4E5B9)
    rng = Rng(state["rng"] ^ salt)
    enders = [m for m in moves if m[MOVE_KEY] in ("pass", "done")]
    others = [m for m in moves if m[MOVE_KEY] not in ("pass", "done", "expert")]
    # End the turn now and then, so a random table finishes: transport could go on forever.
    if enders and (not others or rng.below(100) < (20 if enders[0][MOVE_KEY] == "pass" else 35)):
        return enders[0]
    if not others:
        return moves[0]
    kinds = sorted({m[MOVE_KEY] for m in others})
    kind = kinds[rng.below(len(kinds))]
    return rng.choice([m for m in others if m[MOVE_KEY] == kind])


def _removal(state: State) -> Move:
    """Solo: keep the tiles worth most to this town, remove the others."""
    town = state["towns"][0]
    best: tuple[float, Move] | None = None
    for move in rules.removal_moves(state):
        lost = sum(_tile_worth(town, slug, int(state["round"])) for slug in move["tiles"])
        if best is None or -lost > best[0]:
            best = (-lost, move)
    assert best is not None
    return best[1]


def _tile_worth(town: Town, slug: str, round_now: int) -> float:
    cells = _port_cells(town) or frontier(town["cells"])
    trial = copy_town(town)
    trial["cells"][cells[0]] = {"t": slug, "r": {}, "n": trial["placed"]}
    trial["placed"] += 1
    effects.immediate(trial, cells[0], "")
    _resolve_pending(trial)
    return rollout(trial, round_now, include_this_round=False) - TILES[slug].cost_total


def bot_move(state: State, seat: int, level: int) -> Move:
    if seat not in rules.to_act(state):
        raise IllegalMove("This seat has nothing to do now.")
    if level <= 0:
        return _random_move(state, seat)
    town = state["towns"][seat]
    if town["pending"]:
        return rules.default_choice(state, seat)
    phase = state["phase"]
    if phase == "construction":
        return construction_choice(state, seat)
    if phase == "cleanup":
        return _removal(state)
    trial = copy_town(town)
    if town["step"] == "processed":
        trial["pull"] = effects.pull_allowances(trial)
    moves = plan_transport(trial)
    if moves:  # one piece per command: bots play listed moves, one at a time
        return {MOVE_KEY: "move", "moves": moves[:1]}
    return {MOVE_KEY: "done"}
