"""My Trolley Town rules: setup, the round's four phases, legal moves, applying moves.

Phases (``state["phase"]``): ``production`` (automatic; waits only for players with choices),
``construction`` (turns from the start player, hard passes), ``transport`` (simultaneous: each
player moves pieces, then says done and their processing runs at once; in the last round a
player may transport again after processing, and says done twice to finish), ``cleanup`` (solo:
remove tiles at the end of a round), ``finished``.

Every handler works on a private copy of the state and raises IllegalMove before returning,
so a rejected move never changes anything the caller holds. Validation runs in one fixed
order: phase and seat, pending choices, the move's own checks, then payment.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from itertools import combinations, combinations_with_replacement
from typing import Any

from games.base import MOVE_KEY, Event, IllegalMove, Move, State, Status
from games.json_copy import deep_copy, own_items, sharing
from games.rng import Rng, seed_state
from games.trolley_town import effects, market
from games.trolley_town.content import BASICS, RULES, TILES
from games.trolley_town.payment import (
    Need,
    building_need,
    check_payment,
    default_payment,
    discounted_need,
    route_need,
)
from games.trolley_town.town import (
    DISTINCT_ROTATIONS,
    ROUTE_KINDS,
    add_piece,
    canonical_rotation,
    frontier,
    holdings,
    is_route,
    reachable,
    room,
    take_piece,
    tile_of,
    touches,
    upgrade_rotations,
)

SLUG = "trolley-town"
RULES_VERSION = "1"
MIN_PLAYERS, MAX_PLAYERS = 1, 4


def copy_state(state: State) -> State:
    return deep_copy(state)


def _fork(state: State, seat: int) -> State:
    """The copy a move by ``seat`` works on: its own town copied, the other towns shared with
    ``state`` (apply marks them shared; a phase change copies them first with ``own_items``)."""
    new: State = {}
    for key, value in state.items():
        if key == "towns":
            towns = list(value)
            towns[seat] = deep_copy(towns[seat])
            new[key] = towns
        else:
            new[key] = deep_copy(value)
    return new


# ---------------------------------------------------------------- setup


def _expert_seats(value: Any, players: Sequence[str]) -> list[int]:
    words = [str(w).strip().lower() for w in (value or [])]
    if words == ["all"]:
        return list(range(len(players)))
    seats: list[int] = []
    lowered = [p.lower() for p in players]
    # The host checks options at /game new with one placeholder player (its dry run), before anyone
    # has joined: there a name or a seat number of a later player cannot be checked yet, so with a
    # single player only seat numbers beyond the game's maximum are refused.
    lenient = len(players) == 1
    for word in words:
        if word.isdigit() and 1 <= int(word) <= len(players):
            seats.append(int(word) - 1)
        elif word in lowered:
            seats.append(lowered.index(word))
        elif lenient and (not word.isdigit() or 1 <= int(word) <= MAX_PLAYERS):
            continue
        else:
            raise IllegalMove(f'expert: "{word}" is not a player here. Use names, seat numbers (1 = first) or all.')
    return sorted(set(seats))


def _solo_basics(value: Any, players: int) -> list[str]:
    chosen = [str(w).strip().lower() for w in (value or [])]
    if players > 1:
        if chosen:
            raise IllegalMove("basics= is for solo games; with 2-4 players every basic pile is used.")
        return []
    if not chosen:
        return list(RULES.solo_default)
    if len(chosen) != RULES.solo_basics or any(s not in BASICS for s in chosen):
        raise IllegalMove(
            f"basics= needs {RULES.solo_basics} basic buildings from {', '.join(BASICS)} separated by commas "
            f"(repeats allowed), e.g. basics={','.join(RULES.solo_default)}."
        )
    return chosen


def new_town(expert: bool) -> dict[str, Any]:
    cells = {}
    for order, (slug, (x, y)) in enumerate(RULES.start_cells.items()):
        cells[f"{x},{y}"] = {"t": slug, "r": {}, "n": order}
    return {
        "cells": cells,
        "placed": len(cells),
        "vp": 0,
        "scored": {},
        "expert": expert,
        "step": "",
        "pull": {},
        "pending": [],
    }


def setup(players: Sequence[str], options: Mapping[str, Any], seed: int) -> State:
    count = len(players)
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        raise IllegalMove(f"My Trolley Town is for {MIN_PLAYERS}-{MAX_PLAYERS} players.")
    experts = _expert_seats(options.get("expert"), players)
    basics = _solo_basics(options.get("basics"), count)
    rng = Rng(seed_state(seed))
    first_game = bool(options.get("first_game", False))
    state: State = {
        "game": SLUG,
        "rules_version": RULES_VERSION,
        "names": list(players),
        "options": {"first_game": first_game, "expert": experts, "basics": basics},
        "round": 1,
        "phase": "production",
        "start": 0,
        "turn": None,
        "turns": 0,
        "passed": [False] * count,
        "resigned": [False] * count,
        "kicked": [False] * count,
        "towns": [new_town(seat in experts) for seat in range(count)],
        "market": market.new_market(count, rng, first_game, basics),
        "move_number": 0,
    }
    state["rng"] = rng.state
    _begin_round(state, [])
    return state


# ---------------------------------------------------------------- flow


def _name(state: State, seat: int) -> str:
    return str(state["names"][seat])


def active(state: State) -> list[int]:
    return [seat for seat, gone in enumerate(state["resigned"]) if not gone]


def _begin_round(state: State, events: list[Event]) -> None:
    own_items(state["towns"])  # every town changes: copy those still shared with the old state
    state["phase"] = "production"
    events.append({"text": f"Round {state['round']}: production."})
    for seat in active(state):
        for line in effects.produce(state["towns"][seat], _name(state, seat)):
            events.append({"text": line})
    _after_production(state, events)


def _after_production(state: State, events: list[Event]) -> None:
    if any(state["towns"][s]["pending"] for s in active(state)):
        return
    state["phase"] = "construction"
    state["passed"] = list(state["resigned"])
    state["turn"] = None
    _next_turn(state, (state["start"] - 1) % len(state["names"]), events)


def _next_turn(state: State, after: int, events: list[Event]) -> None:
    """The next seat clockwise after ``after`` that has not passed; all passed: transport."""
    count = len(state["names"])
    for step in range(1, count + 1):
        seat = (after + step) % count
        if not state["passed"][seat]:
            state["turn"] = seat
            state["turns"] += 1
            events.append({"text": f"{_name(state, seat)} to build, lay routes or pass.", "post_board": True})
            return
    _begin_transport(state, events)


def _begin_transport(state: State, events: list[Event]) -> None:
    own_items(state["towns"])  # every town changes: copy those still shared with the old state
    state["phase"] = "transport"
    state["turn"] = None
    for seat in active(state):
        town = state["towns"][seat]
        _start_step(town)
    events.append({"text": f"Round {state['round']}: transport. Move goods along your routes, then /trolley done."})
    events[-1]["post_board"] = True


def _start_step(town: dict[str, Any]) -> None:
    town["step"] = "transport"
    town["pull"] = effects.pull_allowances(town)


def _last_round(state: State) -> bool:
    return int(state["round"]) >= RULES.rounds


def _check_transport_over(state: State, events: list[Event]) -> None:
    if any(state["towns"][s]["step"] in ("transport", "processed") for s in active(state)):
        return
    _end_round(state, events)


def _end_round(state: State, events: list[Event]) -> None:
    if _last_round(state):
        _finish(state, events)
        return
    if len(state["names"]) == 1 and not state["resigned"][0] and _removals_needed(state):
        state["phase"] = "cleanup"
        own_items(state["towns"])  # every town changes: copy those still shared with the old state
        for town in state["towns"]:
            town["step"] = ""
        events.append(
            {"text": "End of round: remove 1 V tile and 2 A/B tiles (/trolley remove ...).", "post_board": True}
        )
        return
    _prepare_next_round(state, events)


def _prepare_next_round(state: State, events: list[Event]) -> None:
    own_items(state["towns"])  # every town changes: copy those still shared with the old state
    count = len(state["names"])
    seats = active(state)
    start = state["start"]
    for step in range(1, count + 1):
        candidate = (start + step) % count
        if candidate in seats:
            start = candidate
            break
    state["start"] = start
    for town in state["towns"]:
        town["step"] = ""
        town["pull"] = {}
    revealed = market.next_round(state["market"])
    state["round"] += 1
    events.append(
        {
            "text": f"Round {state['round']} begins; {_name(state, start)} is the start player.",
            "irreversible": revealed,
        }
    )
    _begin_round(state, events)


def _finish(state: State, events: list[Event]) -> None:
    own_items(state["towns"])  # every town changes: copy those still shared with the old state
    state["phase"] = "finished"
    state["turn"] = None
    for seat in range(len(state["names"])):
        town = state["towns"][seat]
        town["step"] = ""
        town["pending"] = []
        if not state["resigned"][seat]:
            for line in effects.game_end(town, _name(state, seat)):
                events.append({"text": line})
    winners, best = _winners(state)
    if not winners:
        text = "Game over: everyone resigned, so no one wins."
    else:
        text = f"Game over: {' and '.join(winners)} {'win' if len(winners) > 1 else 'wins'} with {best} VP."
    events.append({"text": text, "post_board": True})


def _winners(state: State) -> tuple[list[str], int]:
    """The names with the best score among the players still in (none when everyone resigned)."""
    seats = active(state)
    best = max((state["towns"][s]["vp"] for s in seats), default=0)
    return [_name(state, s) for s in seats if state["towns"][s]["vp"] == best], best


# ---------------------------------------------------------------- status


def to_act(state: State) -> tuple[int, ...]:
    phase = state["phase"]
    seats = active(state)
    pending = [s for s in seats if state["towns"][s]["pending"]]
    if phase == "finished":
        return ()
    if pending:
        return tuple(pending)
    if phase == "construction":
        return (state["turn"],) if state["turn"] is not None else ()
    if phase == "transport":
        return tuple(s for s in seats if state["towns"][s]["step"] in ("transport", "processed"))
    if phase == "cleanup":
        return (0,)
    return ()


def status(state: State) -> Status:
    seats = to_act(state)
    names = ", ".join(_name(state, s) for s in seats)
    phase = state["phase"]
    head = f"Round {state['round']} · {phase.capitalize()}"
    if phase == "finished":
        winners, best = _winners(state)
        if not winners:
            return Status((), True, "Game over: everyone resigned")
        return Status((), True, f"Game over: {' and '.join(winners)} with {best} VP")
    if any(state["towns"][s]["pending"] for s in seats):
        return Status(seats, False, f"{head}: {names} to choose (/trolley choose)")
    if phase == "construction":
        return Status(seats, False, f"{head}: {names} to build, lay routes or pass")
    if phase == "transport":
        extra = " (round 4: transport again, or done to finish)" if _last_round(state) else ""
        return Status(seats, False, f"{head}: {names} to transport, then done{extra}")
    if phase == "cleanup":
        return Status(seats, False, f"Round {state['round']} · End of round: {names} to remove tiles")
    return Status(seats, False, head)


def undo_scope(state: State) -> Hashable:
    """Transport and choices are each player's own: take back your move while the phase is open.
    Construction turns share the market, so only within the same turn."""
    if state["phase"] == "construction":
        return (state["round"], "construction", state["turns"])
    return (state["round"], state["phase"])


# ---------------------------------------------------------------- legal moves


def _pending_moves(town: dict[str, Any]) -> list[Move]:
    choice = town["pending"][0]
    picks = combinations if choice["different"] else combinations_with_replacement
    return [
        {MOVE_KEY: "choose", "cell": choice["cell"], "resources": list(combo)}
        for combo in picks(choice["options"], choice["amount"])
    ]


def _build_targets(state: State) -> list[tuple[str, str, bool]]:
    """(slug, place, rebuild) for every building that can be taken from the market now."""
    found = [(slug, place, False) for slug, place in market.buildable(state["market"]).items()]
    found += [(slug, place, True) for slug, place in market.rebuild_targets(state["market"]).items()]
    return found


def construction_moves(state: State, seat: int) -> list[Move]:
    town = state["towns"][seat]
    cells = town["cells"]
    held = holdings(town)
    wood, stone = held.get("wood", 0), held.get("stone", 0)
    moves: list[Move] = [{MOVE_KEY: "pass"}]
    open_cells = frontier(cells)
    # A cell's discount does not depend on the tile, and most cells share one: work each
    # (tile, discount) cost out once (same result as building_need per cell, much faster).
    discounts = [effects.discount(town, key) for key in open_cells]
    for slug, _, rebuild in _build_targets(state):
        fits: dict[int, bool] = {}
        for key, off in zip(open_cells, discounts, strict=True):
            if off not in fits:
                fits[off] = discounted_need(slug, off, rebuild).affordable(wood, stone)
            if fits[off]:
                move: Move = {MOVE_KEY: "build", "tile": slug, "cell": key}
                if rebuild:
                    move["rebuild"] = True
                moves.append(move)
    if wood + stone >= RULES.route_cost:
        for key in open_cells:
            for kind in ROUTE_KINDS:
                cost = RULES.junction_cost if kind == "junction" else RULES.route_cost
                if wood + stone < cost:
                    continue
                for turn in DISTINCT_ROTATIONS[kind]:
                    moves.append({MOVE_KEY: "route", "routes": [[kind, key, turn]]})
    if wood + stone >= RULES.upgrade_cost:
        for key, cell in cells.items():
            if is_route(cell) and cell["route"] != "junction":
                for turn in upgrade_rotations(cell["route"], cell["rot"]):
                    moves.append({MOVE_KEY: "upgrade", "cells": [[key, turn]]})
    return moves


def transport_moves(state: State, seat: int) -> list[Move]:
    town = state["towns"][seat]
    cells = town["cells"]
    moves: list[Move] = []
    pulls = [k for k, n in town["pull"].items() if n > 0] if town["step"] == "transport" else []
    fresh = effects.pull_allowances(town) if town["step"] == "processed" else {}
    pulls += [k for k, n in fresh.items() if n > 0]
    for source, cell in sorted(cells.items(), key=lambda item: item[1]["n"]):
        held = cell.get("r")
        if not held:
            continue
        for resource in sorted(held):
            targets = reachable(cells, source, resource, town["expert"]) | set(pulls)
            for target in sorted(targets, key=lambda k: cells[k]["n"]):
                if target == source:
                    continue
                other = cells[target]
                if resource in tile_of(other).accepts and room(other) > 0:
                    moves.append({MOVE_KEY: "move", "moves": [[resource, source, target]]})
    return moves


def legal_moves(state: State, seat: int) -> list[Move]:
    if seat not in to_act(state):
        return []
    town = state["towns"][seat]
    expert = [{MOVE_KEY: "expert"}] if town["expert"] else []
    if town["pending"]:
        return _pending_moves(town) + expert
    phase = state["phase"]
    if phase == "construction":
        return construction_moves(state, seat) + expert
    if phase == "transport":
        return transport_moves(state, seat) + [{MOVE_KEY: "done"}] + expert
    if phase == "cleanup":
        return removal_moves(state)
    return []


# ---------------------------------------------------------------- solo cleanup


def _removals_needed(state: State) -> dict[str, int]:
    seen = market.visible(state["market"])
    v = sum(1 for place, _ in seen if place.startswith("v"))
    ab = sum(1 for place, _ in seen if not place.startswith("v"))
    need = {"V": min(RULES.solo_removals.get("V", 0), v), "AB": min(RULES.solo_removals.get("AB", 0), ab)}
    return {k: n for k, n in need.items() if n}


def removal_moves(state: State) -> list[Move]:
    """Every choice of removals from the tiles visible now (in a canonical order: V first)."""
    need = _removals_needed(state)
    seen = market.visible(state["market"])
    v_tiles = [slug for place, slug in seen if place.startswith("v")]
    ab_tiles = [slug for place, slug in seen if not place.startswith("v")]
    moves = []
    for v_pick in combinations(v_tiles, need.get("V", 0)):
        for ab_pick in combinations(ab_tiles, need.get("AB", 0)):
            moves.append({MOVE_KEY: "remove", "tiles": [*v_pick, *ab_pick]})
    return moves


def _apply_remove(state: State, move: Move, events: list[Event]) -> None:
    tiles = list(move.get("tiles") or [])
    need = _removals_needed(state)
    wanted = sum(need.values())
    if len(tiles) != wanted or len(set(tiles)) != len(tiles):
        raise IllegalMove(
            f"Remove exactly {need.get('V', 0)} V tile(s) and {need.get('AB', 0)} A/B tile(s) from the visible ones: "
            f"{', '.join(slug for _, slug in market.visible(state['market']))}."
        )
    seen = dict((slug, place) for place, slug in market.visible(state["market"]))
    taken = {"V": 0, "AB": 0}
    for slug in tiles:
        place = seen.get(slug)
        if place is None:
            raise IllegalMove(f"{TILES[slug].name} is not visible in the market now.")
        group = "V" if place.startswith("v") else "AB"
        taken[group] += 1
    if taken != {"V": need.get("V", 0), "AB": need.get("AB", 0)}:
        raise IllegalMove(f"Remove {need.get('V', 0)} V tile(s) and {need.get('AB', 0)} A/B tile(s).")
    # Removal happens all at once from what was visible, then the gaps refill (rulebook: "After
    # this, replenish"). Each tile is taken from where it is now: an earlier removal may have slid
    # it along the row (the A side slides away from slot 0) or refilled a slot with a pile's top,
    # so positions noted before the first removal can point at the wrong tile.
    revealed = False
    for slug in tiles:
        now = {s: p for p, s in market.visible(state["market"])}
        revealed = market.take(state["market"], now[slug]) or revealed
    names = ", ".join(TILES[slug].name for slug in tiles)
    events.append({"text": f"{_name(state, 0)} removes {names}.", "irreversible": revealed})
    _prepare_next_round(state, events)


# ---------------------------------------------------------------- apply


def apply(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    if not isinstance(move, dict) or MOVE_KEY not in move:
        raise IllegalMove("That is not a move.")
    verb = move[MOVE_KEY]
    if state["phase"] == "finished":
        raise IllegalMove("The game is over.")
    if not isinstance(seat, int) or not 0 <= seat < len(state["names"]) or state["resigned"][seat]:
        raise IllegalMove("You are not playing in this game.")
    if seat not in to_act(state):
        raise IllegalMove("It is not your move.")  # the host adds who is to act now
    new = _fork(state, seat)
    events: list[Event] = []
    town = new["towns"][seat]
    if town["pending"] and verb not in ("choose", "expert"):
        choice = town["pending"][0]
        raise IllegalMove(
            f"First choose for your {TILES[choice['tile']].name} at {choice['cell']}: "
            f"/trolley choose {choice['cell']} <{'|'.join(choice['options'])}> ({choice['amount']} piece(s))."
        )
    handler = HANDLERS.get(verb)
    if handler is None:
        raise IllegalMove(f"Unknown command {verb!r}.")
    with sharing(other for other in state["towns"] if other is not state["towns"][seat]):
        handler(new, seat, move, events)
    new["move_number"] += 1
    return new, events


def _apply_choose(state: State, seat: int, move: Move, events: list[Event]) -> None:
    town = state["towns"][seat]
    if not town["pending"]:
        raise IllegalMove("Nothing is waiting for your choice.")
    choice = town["pending"][0]
    if move.get("cell") != choice["cell"]:
        raise IllegalMove(f"Your next choice is for the {TILES[choice['tile']].name} at {choice['cell']}.")
    picked = move.get("resources")
    if not isinstance(picked, list) or len(picked) != choice["amount"]:
        raise IllegalMove(f"Name {choice['amount']} resource(s) from {', '.join(choice['options'])}.")
    if any(r not in choice["options"] for r in picked):
        raise IllegalMove(f"Choose from {', '.join(choice['options'])}.")
    if choice["different"] and len(set(picked)) != len(picked):
        raise IllegalMove("These must be different resources.")
    cell = town["cells"][choice["cell"]]
    for resource in picked:
        add_piece(cell, resource)
    town["pending"].pop(0)
    events.append({"text": f"{_name(state, seat)} takes {' + '.join(picked)} on the {TILES[choice['tile']].name}."})
    if any(state["towns"][s]["pending"] for s in active(state)):
        return
    if state["phase"] == "production":
        _after_production(state, events)
    elif state["phase"] == "construction" and state["turn"] == seat:
        _next_turn(state, seat, events)


def _apply_expert(state: State, seat: int, move: Move, events: list[Event]) -> None:
    town = state["towns"][seat]
    if not town["expert"]:
        raise IllegalMove("You are already playing with the basic transport rules.")
    town["expert"] = False
    events.append({"text": f"{_name(state, seat)} drops the expert rule and plays with the basic transport rules."})


def _apply_pass(state: State, seat: int, move: Move, events: list[Event]) -> None:
    if state["phase"] != "construction":
        raise IllegalMove("Pass is for the construction phase; in transport say /trolley done.")
    state["passed"][seat] = True
    events.append({"text": f"{_name(state, seat)} passes for this round."})
    _next_turn(state, seat, events)


def _construction_only(state: State, what: str) -> None:
    if state["phase"] != "construction":
        raise IllegalMove(f"You can {what} only on your construction turn (now: {state['phase']}).")


def _pay(state: State, seat: int, need: Need, move: Move) -> str:
    town = state["towns"][seat]
    given = move.get("pay")
    pieces = check_payment(town, need, given) if given is not None else default_payment(town, need)
    for resource, key in pieces:
        take_piece(town["cells"][key], resource)
    counts: dict[str, int] = {}
    for resource, _ in pieces:
        counts[resource] = counts.get(resource, 0) + 1
    return " + ".join(f"{n} {r}" for r, n in sorted(counts.items())) or "nothing"


def _open_cell(town: dict[str, Any], key: Any) -> str:
    if not isinstance(key, str) or key in town["cells"]:
        raise IllegalMove(f"{key} is already built on." if isinstance(key, str) else "Name a cell x,y.")
    if not touches(town["cells"], key):
        near = ", ".join(frontier(town["cells"])[:8])
        raise IllegalMove(f"{key} does not touch your town along an edge. Free cells next to it include {near}.")
    return key


def _place(town: dict[str, Any], key: str, cell: dict[str, Any]) -> None:
    cell["n"] = town["placed"]
    town["placed"] += 1
    town["cells"][key] = cell


def _apply_build(state: State, seat: int, move: Move, events: list[Event]) -> None:
    _construction_only(state, "build")
    slug = str(move.get("tile"))
    rebuild = bool(move.get("rebuild"))
    targets = {(s, r): place for s, place, r in _build_targets(state)}
    place = targets.get((slug, rebuild))
    if place is None:
        offered = sorted({s for s, _ in targets})
        if (slug, not rebuild) in targets:
            hint = " without rebuild" if rebuild else " with rebuild (it is face down: use the Rebuild tile)"
            raise IllegalMove(f"{TILES[slug].name} can only be built{hint}.")
        name = TILES[slug].name if slug in TILES else slug
        raise IllegalMove(f"{name} is not available to build now. Available: {', '.join(offered)}.")
    town = state["towns"][seat]
    key = _open_cell(town, move.get("cell"))
    need = building_need(town, slug, key, rebuild)
    paid = _pay(state, seat, need, move)
    revealed = market.take(state["market"], place)
    if rebuild:
        state["market"]["rebuild"]["up"] = False
    tile = TILES[slug]
    _place(town, key, {"t": slug, "r": {}})
    name = _name(state, seat)
    how = " with the Rebuild tile" if rebuild else ""
    events.append({"text": f"{name} builds {tile.name}{how} at {key}, paying {paid}.", "irreversible": revealed})
    for line in effects.immediate(town, key, name):
        events.append({"text": line})
    for line in effects.on_construction(town, key, name):
        events.append({"text": line})
    if not town["pending"]:
        _next_turn(state, seat, events)


def _apply_routes(state: State, seat: int, move: Move, events: list[Event]) -> None:
    _construction_only(state, "lay routes")
    entries = move.get("routes") if move[MOVE_KEY] == "route" else [["upgrade", *c] for c in move.get("cells") or []]
    if not isinstance(entries, list) or not entries:
        raise IllegalMove("Name at least one route: kind x,y rotation.")
    town = state["towns"][seat]
    cost = 0
    done: list[str] = []
    for entry in entries:
        if not isinstance(entry, list) or len(entry) != 3:
            raise IllegalMove("Each route is kind x,y rotation.")
        kind, key, turn = entry
        if kind == "upgrade":
            cell = town["cells"].get(key)
            if cell is None or not is_route(cell):
                raise IllegalMove(f"There is no route at {key} to upgrade.")
            if cell["route"] == "junction":
                raise IllegalMove(f"The route at {key} is already a junction.")
            allowed = upgrade_rotations(cell["route"], cell["rot"])
            if turn not in allowed:
                raise IllegalMove(
                    f"A junction at {key} must keep the {cell['route']}'s path: rotation "
                    f"{' or '.join(str(r) for r in allowed)}."
                )
            cell["route"], cell["rot"] = "junction", turn
            cost += RULES.upgrade_cost
            done.append(f"upgrades {key} to a junction")
            continue
        if kind not in ROUTE_KINDS or turn not in (0, 90, 180, 270):
            raise IllegalMove("Route kinds: straight, curve, junction (or upgrade); rotations 0, 90, 180, 270.")
        _open_cell(town, key)
        _place(town, key, {"route": kind, "rot": canonical_rotation(kind, turn)})
        cost += RULES.junction_cost if kind == "junction" else RULES.route_cost
        done.append(f"lays a {kind} at {key}")
    paid = _pay(state, seat, route_need(cost), move)
    events.append({"text": f"{_name(state, seat)} {', '.join(done)}, paying {paid}."})
    _next_turn(state, seat, events)


def _apply_move(state: State, seat: int, move: Move, events: list[Event]) -> None:
    if state["phase"] != "transport":
        raise IllegalMove("Goods move only in the transport phase.")
    town = state["towns"][seat]
    if town["step"] == "processed":
        _start_step(town)  # round 4: another transport step (its start effects again)
        events.append({"text": f"{_name(state, seat)} transports again."})
    if town["step"] != "transport":
        raise IllegalMove("You are done transporting this round.")
    triples = move.get("moves")
    if not isinstance(triples, list) or not triples:
        raise IllegalMove("Name at least one transport: resource from to.")
    cells = town["cells"]
    said = []
    for triple in triples:
        if not isinstance(triple, list) or len(triple) != 3:
            raise IllegalMove("Each transport is resource from to.")
        resource, source, target = triple
        _check_transport(town, resource, source, target)
        if target not in reachable(cells, source, resource, town["expert"]):
            town["pull"][target] -= 1  # _check_transport made sure an allowance is left
        take_piece(cells[source], resource)
        add_piece(cells[target], resource)
        said.append(f"{resource} {source}→{target}")
    events.append({"text": f"{_name(state, seat)} moves {', '.join(said)}."})


def _check_transport(town: dict[str, Any], resource: Any, source: Any, target: Any) -> None:
    cells = town["cells"]
    for key in (source, target):
        if key not in cells or is_route(cells[key]):
            raise IllegalMove(f"{key} is not one of your buildings.")
    if source == target:
        raise IllegalMove("Move goods to a different building.")
    if cells[source].get("r", {}).get(resource, 0) <= 0:
        raise IllegalMove(f"There is no {resource} on your {tile_of(cells[source]).name} at {source}.")
    tile = tile_of(cells[target])
    if resource not in tile.accepts:
        takes = ", ".join(sorted(tile.accepts)) or "nothing"
        raise IllegalMove(f"The {tile.name} at {target} takes only resources drawn on it: {takes}.")
    if room(cells[target]) <= 0:
        raise IllegalMove(f"The {tile.name} at {target} is full ({tile.spaces} spaces).")
    if target in reachable(cells, source, resource, town["expert"]):
        return
    if town["pull"].get(target, 0) > 0:
        return
    rule = " (expert rule: buildings pass only their own resources)" if town["expert"] else ""
    raise IllegalMove(f"No route carries {resource} from {source} to {target}{rule}. Lay routes between them first.")


def _apply_done(state: State, seat: int, move: Move, events: list[Event]) -> None:
    if state["phase"] != "transport":
        raise IllegalMove("Done ends your transport step; in construction say /trolley pass.")
    town = state["towns"][seat]
    name = _name(state, seat)
    if town["step"] == "processed":
        town["step"] = "finished"
        events.append({"text": f"{name} is finished for the game."})
    else:
        town["pull"] = {}
        lines = effects.convert_all(town, "processing", name)
        events.append({"text": f"{name} processes." + ("" if lines else " Nothing to convert.")})
        events += [{"text": line} for line in lines]
        town["step"] = "processed" if _last_round(state) else "done"
    _check_transport_over(state, events)
    if state["phase"] != "transport" or town["step"] != "transport":
        events[-1]["post_board"] = True


def _apply_remove_handler(state: State, seat: int, move: Move, events: list[Event]) -> None:
    if state["phase"] != "cleanup":
        raise IllegalMove("Tiles are removed only at the end of a solo round.")
    _apply_remove(state, move, events)


HANDLERS = {
    "choose": _apply_choose,
    "expert": _apply_expert,
    "pass": _apply_pass,
    "build": _apply_build,
    "route": _apply_routes,
    "upgrade": _apply_routes,
    "move": _apply_move,
    "done": _apply_done,
    "remove": _apply_remove_handler,
}


# ---------------------------------------------------------------- resign and defaults


def resign(state: State, seat: int) -> tuple[State, list[Event]]:
    if state["phase"] == "finished":
        raise IllegalMove("The game is over.")
    if not 0 <= seat < len(state["names"]) or state["resigned"][seat]:
        raise IllegalMove("You are not playing in this game.")
    new = copy_state(state)
    events: list[Event] = [{"text": f"{_name(new, seat)} resigns.", "post_board": True}]
    new["resigned"][seat] = True
    new["passed"][seat] = True
    town = new["towns"][seat]
    town["pending"] = []
    town["step"] = ""
    players = len(new["names"])
    if len(active(new)) < (1 if players == 1 else 2):
        _finish(new, events)
    elif new["phase"] == "production":
        _after_production(new, events)
    elif new["phase"] == "construction" and new["turn"] == seat:
        _next_turn(new, seat, events)
    elif new["phase"] == "transport":
        _check_transport_over(new, events)
    new["move_number"] += 1
    return new, events


def kick(state: State, seat: int) -> tuple[State, list[Event]]:
    """A moderator removes ``seat``: it leaves as a resignation does (its town stays as it is, keeps
    its points and ranks last; the ``kicked`` decision in data/rules.json), said as a kick."""
    new, events = resign(state, seat)
    new.setdefault("kicked", [False] * len(new["names"]))[seat] = True
    name = _name(new, seat)
    for event in events:
        if event.get("text") == f"{name} resigns.":
            event["text"] = f"{name} was kicked by a moderator."
    return new, events


def default_choice(state: State, seat: int) -> Move:
    """What a stuck production choice becomes (a moderator's skip after the deadline): the
    resources the town holds least of, ties in the data's order."""
    town = state["towns"][seat]
    choice = town["pending"][0]
    held = holdings(town)
    order = sorted(choice["options"], key=lambda r: (held.get(r, 0), RULES.default_order.index(r)))
    picked = order[: choice["amount"]] if choice["different"] else [order[0]] * choice["amount"]
    return {MOVE_KEY: "choose", "cell": choice["cell"], "resources": picked}


def skip_move(state: State, seat: int) -> Move:
    town = state["towns"][seat]
    if town["pending"]:
        return default_choice(state, seat)
    phase = state["phase"]
    if phase == "construction":
        return {MOVE_KEY: "pass"}
    if phase == "cleanup":
        return removal_moves(state)[0]
    return {MOVE_KEY: "done"}
