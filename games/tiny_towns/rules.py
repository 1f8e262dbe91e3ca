"""Tiny Towns rules: setup, legal moves, applying moves, status and resigning.

Every handler works on a private copy of the state and raises IllegalMove before returning,
so a rejected move never changes anything the caller holds.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from games.base import MOVE_KEY, Event, IllegalMove, Move, State, Status
from games.rng import Rng, seed_state
from games.tiny_towns import flow
from games.tiny_towns.bitboard import board_after_cube
from games.tiny_towns.builds import apply_build, build_moves
from games.tiny_towns.content import CATALOGUE, MONUMENTS, RESOURCES, RULES
from games.tiny_towns.copying import copy_state, fork, fork_town
from games.tiny_towns.patterns import CELL_INDEX, CELL_NAMES
from games.tiny_towns.setup import setup_state
from games.tiny_towns.town import (
    bank_resources,
    describe,
    empty_cells,
    factory_resources,
    has_built,
    new_building,
)


def setup(players: Sequence[str], options: Mapping[str, Any], seed: int) -> State:
    state = setup_state(players, options, seed)
    if state["phase"] != "monuments":
        flow.begin_play(state, [])
    return state


# ---------------------------------------------------------------- helpers


def _name(state: State, seat: int) -> str:
    return state["names"][seat]


def _cell(move: Move, key: str = "cell") -> int:
    value = move.get(key)
    if not isinstance(value, str) or value.upper() not in CELL_INDEX:
        raise IllegalMove(f"{value!r} is not a square: use A1 to D4 (column letter, then row number).")
    return CELL_INDEX[value.upper()]


def _resource(value: Any) -> str:
    if value not in RESOURCES:
        raise IllegalMove(f"{value!r} is not a resource: choose {', '.join(RESOURCES)}.")
    return str(value)


def _require_town_in_play(state: State, seat: int) -> dict[str, Any]:
    if state["phase"] == "finished":
        raise IllegalMove("The game is over.")
    if not 0 <= seat < len(state["towns"]):
        raise IllegalMove("You are not playing in this game.")
    town = state["towns"][seat]
    if town["resigned"]:
        raise IllegalMove("You have left this game.")
    if town["complete"]:
        raise IllegalMove("Your town is complete: you have nothing more to do this game.")
    return town


def _waiting_phase_error(state: State, seat: int | None = None) -> IllegalMove:
    if state["phase"] == "monuments":
        return IllegalMove("First every player keeps one of their two monuments: /tt monument <name>.")
    if state["phase"] == "announce":
        if state["variant"] == "solo":
            return IllegalMove("First pick one of the revealed resources: /tt announce <resource>.")
        mb = state["master_builder"]
        if seat == mb:
            return IllegalMove(
                "You are the Master Builder: first name this round's resource with /tt announce <resource>."
            )
        return IllegalMove(f"Wait for the Master Builder ({_name(state, mb)}) to name a resource.")
    return IllegalMove("That is not possible now.")


def _require_place_phase(state: State, seat: int) -> None:
    if state["phase"] != "place":
        raise _waiting_phase_error(state, seat)


# ---------------------------------------------------------------- handlers


def _monument(state: State, seat: int, move: Move, events: list[Event]) -> None:
    town = _require_town_in_play(state, seat)
    if state["phase"] != "monuments":
        raise IllegalMove("Monuments were chosen at the start of the game.")
    options = town.get("monument_options") or []
    if town.get("monument"):
        raise IllegalMove(f"You already keep {CATALOGUE[town['monument']]['name']}.")
    slug = move.get("monument")
    if not isinstance(slug, str) or slug not in options:
        names = " or ".join(f"{s} ({CATALOGUE[s]['name']})" for s in options)
        shown = CATALOGUE[slug]["name"] if slug in CATALOGUE else repr(slug)
        raise IllegalMove(f"{shown} is not one of your monuments: keep {names}.")
    town["monument"] = slug
    events.append({"text": f"{_name(state, seat)} has chosen a monument."})
    events.append({"private": {"seat": seat, "text": f"You keep {CATALOGUE[slug]['name']}."}})
    waiting = [t for t in state["towns"] if not t["resigned"] and t.get("monument_options") and not t["monument"]]
    if not waiting:
        flow.begin_play(state, events)


def _announce(state: State, seat: int, move: Move, events: list[Event]) -> None:
    town = _require_town_in_play(state, seat)
    if state["variant"] == "town-hall":
        raise IllegalMove(
            "Town Hall has no Master Builder: the Mayor draws the resource, and every third round "
            "each player chooses with /tt place <square> <resource>."
        )
    if state["phase"] != "announce":
        if state["phase"] == "place":
            shown = state["resource"] or "free choice"
            waiting = ", ".join(_name(state, s) for s in _waiting(state))
            raise IllegalMove(
                f"Round {state['round']}'s resource is already named ({shown}); the next one is named "
                f"when everyone has placed and is done. Waiting for: {waiting}."
            )
        raise _waiting_phase_error(state, seat)
    resource = _resource(move.get("resource"))
    if state["variant"] == "solo":
        revealed = state["solo"]["revealed"]
        if resource not in revealed:
            raise IllegalMove(f"Pick one of the revealed resources: {', '.join(revealed)}.")
        index = revealed.index(resource)
        state["solo"]["deck"].append(resource)
        revealed[index] = state["solo"]["deck"].pop(0)
        state["source"] = "solo"
        events.append(
            {"text": f"{_name(state, seat)} picks {resource}; {revealed[index]} is revealed.", "irreversible": True}
        )
    else:
        mb = state["master_builder"]
        if seat != mb:
            raise IllegalMove(f"Only the Master Builder ({_name(state, mb)}) names the resource this round.")
        banked = bank_resources(town["cells"])
        if resource in banked and len(banked) < len(RESOURCES):
            allowed = [r for r in RESOURCES if r not in banked]
            raise IllegalMove(f"Your Bank holds {resource}, so you may not name it. Choose {', '.join(allowed)}.")
        town["times_master_builder"] += 1
        state["source"] = "master"
        events.append({"text": f"{_name(state, seat)} names {resource}."})
    state["resource"] = resource
    state["named_by"] = seat
    state["phase"] = "place"


def _before_placing(state: State, seat: int) -> dict[str, Any]:
    town = _require_town_in_play(state, seat)
    _require_place_phase(state, seat)
    if town["placed"]:
        what = "took no resource" if town["skipped"] else "have already placed"
        raise IllegalMove(f"You {what} this round; build with /tt build or finish with /tt done.")
    return town


def _place(state: State, seat: int, move: Move, events: list[Event]) -> None:
    # _before_placing's checks and _cell inlined for the usual case (a town in play, not placed yet,
    # a square named as listed); they give the refusals otherwise. This runs for most moves.
    towns = state["towns"]
    town = towns[seat] if 0 <= seat < len(towns) else None
    if town is None or state["phase"] != "place" or town["resigned"] or town["complete"] or town["placed"]:
        town = _before_placing(state, seat)
    cell = CELL_INDEX.get(move.get("cell")) if type(move.get("cell")) is str else None  # type: ignore[arg-type]
    if cell is None:
        cell = _cell(move)
    wanted = move.get("resource")
    if wanted is not None:
        wanted = _resource(wanted)
    named = state["resource"]
    if state["source"] == "free":
        if wanted is None:
            example = f"/tt place {CELL_NAMES[cell]} wood"
            raise IllegalMove(f"This is a free-choice round: say which resource, e.g. {example}.")
        banked = bank_resources(town["cells"])
        if wanted in banked and len(banked) < len(RESOURCES):
            allowed = ", ".join(r for r in RESOURCES if r not in banked)
            raise IllegalMove(f"Your Bank holds {wanted}, so you may not choose it. Choose {allowed}.")
        resource = wanted
    elif wanted is None or wanted == named:
        resource = named
    else:
        if not flow.named_by_other(state, seat) or named not in factory_resources(town["cells"]):
            raise IllegalMove(
                f"This round's resource is {named}. You may place another resource only when one of your "
                f"Factories holds {named} and another player named it."
            )
        resource = wanted
    content = town["cells"][cell]
    board = None
    if content is None:
        # The list of squares is copied here rather than by apply (copying.fork_town): the board
        # of the list before is usually remembered, and the readiness check below reads it plus one.
        before = town["cells"]
        town["cells"] = cells = before.copy()
        cells[cell] = {"resource": resource}
        board = board_after_cube(before, cells, cell)
        events.append({"text": f"{_name(state, seat)} places {resource} on {CELL_NAMES[cell]}."})
    elif (
        content.get("building") == "cottage"
        and has_built(town, "statue-of-the-bondmaker")
        and flow.named_by_other(state, seat)
        and state["source"] != "free"
    ):
        if content.get("bond"):
            raise IllegalMove(f"The Cottage on {CELL_NAMES[cell]} already holds a Statue of the Bondmaker cube.")
        # A new entry rather than a change in place: after copying.fork_town the Cottage is shared,
        # and so is the list of squares.
        town["cells"] = town["cells"].copy()
        town["cells"][cell] = {**content, "bond": [resource]}
        events.append(
            {
                "text": f"{_name(state, seat)} puts {resource} on the Cottage on {CELL_NAMES[cell]} "
                "(Statue of the Bondmaker)."
            }
        )
    else:
        free = ", ".join(CELL_NAMES[i] for i in empty_cells(town["cells"])) or "none"
        raise IllegalMove(f"{CELL_NAMES[cell]} already holds {describe(content)}. Empty squares: {free}.")
    town["placed"] = True
    flow.maybe_auto_done(state, seat, events, board)


def _store(state: State, seat: int, move: Move, events: list[Event]) -> None:
    town = _before_placing(state, seat)
    cell = _cell(move)
    if state["source"] == "free" or not flow.named_by_other(state, seat):
        raise IllegalMove("A Warehouse only takes a resource named by another player.")
    content = town["cells"][cell]
    if not content or content.get("building") != "warehouse":
        raise IllegalMove(f"{CELL_NAMES[cell]} holds {describe(content)}, not one of your Warehouses.")
    resource = state["resource"]
    stored = content["stored"]
    capacity = CATALOGUE["warehouse"]["capacity"]
    swap = move.get("swap")
    if swap is None:
        if len(stored) >= capacity:
            example = f"/tt store {CELL_NAMES[cell]} swap {stored[0]} to <empty square>"
            raise IllegalMove(
                f"The Warehouse on {CELL_NAMES[cell]} is full ({capacity} cubes); swap instead: {example}."
            )
        stored.append(resource)
        events.append({"text": f"{_name(state, seat)} stores {resource} on the Warehouse on {CELL_NAMES[cell]}."})
    else:
        swap = _resource(swap)
        if swap not in stored:
            raise IllegalMove(
                f"The Warehouse on {CELL_NAMES[cell]} holds {', '.join(stored) or 'nothing'}, not {swap}."
            )
        target = _cell(move, "to")
        if town["cells"][target] is not None:
            raise IllegalMove(f"{CELL_NAMES[target]} already holds {describe(town['cells'][target])}.")
        stored.remove(swap)
        stored.append(resource)
        town["cells"][target] = {"resource": swap}
        events.append(
            {
                "text": f"{_name(state, seat)} stores {resource} on the Warehouse on {CELL_NAMES[cell]} "
                f"and moves its {swap} to {CELL_NAMES[target]}."
            }
        )
    town["placed"] = True
    flow.maybe_auto_done(state, seat, events)


def _cave(state: State, seat: int, move: Move, events: list[Event]) -> None:
    town = _before_placing(state, seat)
    if not state["cave_rule"]:
        raise IllegalMove("The cave rule is not used in this game (setup option cave=on).")
    if state["source"] not in ("master", "mayor") or not flow.named_by_other(state, seat):
        raise IllegalMove("The cave only takes a resource named by another player.")
    limit = RULES["cave"]["max_uses"]
    if town["cave_used"] >= limit:
        raise IllegalMove(f"You have already used the cave {limit} times.")
    town["cave_used"] += 1
    town["cave"].append(state["resource"])
    town["placed"] = True
    events.append(
        {"text": f"{_name(state, seat)} puts {state['resource']} in the cave ({town['cave_used']} of {limit})."}
    )
    flow.maybe_auto_done(state, seat, events)


def _after_placing(state: State, seat: int) -> dict[str, Any]:
    town = _require_town_in_play(state, seat)
    _require_place_phase(state, seat)
    if not town["placed"]:
        raise IllegalMove("Place this round's resource first: /tt place <square>.")
    return town


def _build(state: State, seat: int, move: Move, events: list[Event]) -> None:
    town = _after_placing(state, seat)
    if town["done"]:
        # A player done automatically had no possible build, so checking the build on a scratch copy
        # names what is actually wrong (wrong shape, monument already built...) rather than "done".
        apply_build(copy_state(state), seat, move, [])
        raise IllegalMove("You said you are done this round; build again next round.")
    apply_build(state, seat, move, events)
    flow.maybe_auto_done(state, seat, events)


def _claim(state: State, seat: int, move: Move, events: list[Event]) -> None:
    town = _after_placing(state, seat)
    slug = move.get("building")
    pending = town.get("pending_claims") or []
    if not isinstance(slug, str) or slug not in pending:
        if not pending:
            raise IllegalMove("You have no Opaleye's Watch claim to use now.")
        names = ", ".join(pending)
        raise IllegalMove(f"You may claim {names}, not {slug}.")
    cell = _cell(move)
    if town["cells"][cell] is not None:
        raise IllegalMove(
            f"{CELL_NAMES[cell]} already holds {describe(town['cells'][cell])}; "
            "a claimed building goes on an empty square."
        )
    town["cells"][cell] = new_building(slug)
    pending.remove(slug)
    town["aside"].remove(slug)
    events.append(
        {
            "text": f"{_name(state, seat)} takes a {CATALOGUE[slug]['name']} from Opaleye's Watch "
            f"onto {CELL_NAMES[cell]}."
        }
    )
    flow.after_claim(state, seat, events)


def _late_done(state: State, seat: int) -> str | None:
    """Why a /tt done changes nothing and is simply accepted, or None when it must be checked.

    Players type /tt done after placing even when the engine already made them done, and often
    after the round has ended because they were the last to place; the game is also over when the
    last town completes on its final placement. None of that may fail (issue 3: /tt done after your
    placement is always accepted), so it is a no-op that only tells the player where things stand.
    """
    if state["phase"] == "finished":
        return "The game is over: nothing more to do."
    if state["phase"] not in ("announce", "place") or not 0 <= seat < len(state["towns"]):
        return None
    town = state["towns"][seat]
    if town["resigned"]:
        return None
    if town["complete"]:
        return "Your town is complete: nothing more to do."
    if town["placed"]:
        if town["done"] and not flow.claimable(town):
            return "You are already done this round."
        return None
    # Every round ends with every player done, so a /tt done before this round's placement is about the
    # round before: while the next resource is not named yet, or in Town Hall where the next round's card is
    # drawn at once. Once a Master Builder has named it, /tt done before placing is refused as usual.
    if state["round"] > 1 and (state["phase"] == "announce" or state["variant"] == "town-hall"):
        what = "/tt place <square>" if state["phase"] == "place" else "the next resource"
        return f"Round {state['round'] - 1} is already over; round {state['round']} waits for {what}."
    return None


def _done(state: State, seat: int, move: Move, events: list[Event]) -> None:
    late = _late_done(state, seat)
    if late is not None:
        events.append({"private": {"seat": seat, "text": late}})
        return
    town = _after_placing(state, seat)
    if flow.claimable(town):
        raise IllegalMove(
            "First take your Opaleye's Watch building: /tt claim <building> <square> "
            f"({', '.join(town['pending_claims'])})."
        )
    events.append({"text": f"{_name(state, seat)} is done."})
    flow.mark_done(state, seat, events, auto=False)


# Moves whose handler changes no building or list in place take the cheaper copy (copying.fork_town;
# the place handler copies the list of squares it changes).
_FLAG_MOVES = frozenset(("place", "announce", "done", "monument"))

_HANDLERS = {
    "monument": _monument,
    "announce": _announce,
    "place": _place,
    "store": _store,
    "cave": _cave,
    "build": _build,
    "claim": _claim,
    "done": _done,
}


def apply(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    # (type() first: isinstance against the Mapping ABC is slow, and moves are almost always dicts.)
    if type(move) is not dict and not isinstance(move, Mapping):
        raise IllegalMove("A move must be a command such as /tt place B2.")
    verb = move.get(MOVE_KEY)
    handler = _HANDLERS.get(verb)  # type: ignore[arg-type]
    if handler is None:
        raise IllegalMove(f"Unknown command {verb!r}: use {', '.join(_HANDLERS)}.")
    # Only the mover's town is copied; flow copies the others before a round ends or starts.
    new = fork_town(state, seat) if verb in _FLAG_MOVES else fork(state, seat)
    events: list[Event] = []
    handler(new, seat, dict(move), events)
    flow.check_round_end(new, events)
    return new, events


# ---------------------------------------------------------------- enumeration


def place_moves(state: State, seat: int) -> list[Move]:
    town = state["towns"][seat]
    cells = town["cells"]
    if state["source"] != "free" and not flow.named_by_other(state, seat):
        # The usual case, and the hottest loop of a playout: the named resource on an empty square.
        places = _PLACES
        return [places[i].copy() for i, cell in enumerate(cells) if cell is None]
    # One pass for the plain place moves and the buildings (a resource named by another player is
    # the common case in a game of 3 or more: Factories, Warehouses and the Statue react to it).
    places = _PLACES
    moves: list[Move] = []
    buildings: list[tuple[int, dict[str, Any]]] = []
    for i, cell in enumerate(cells):
        if cell is None:
            moves.append(places[i].copy())
        elif "building" in cell:
            buildings.append((i, cell))
    if state["source"] == "free":
        moves = []
        empties = empty_cells(cells)
        banked = bank_resources(cells)
        allowed = [r for r in RESOURCES if r not in banked] if len(banked) < len(RESOURCES) else list(RESOURCES)
        for i in empties:
            moves.extend({MOVE_KEY: "place", "cell": CELL_NAMES[i], "resource": r} for r in allowed)
        return moves
    named = state["resource"]
    factory = buildings and any(cell["building"] == "factory" and cell.get("holds") == named for _, cell in buildings)
    if factory:
        moves = []
        empties = empty_cells(cells)
        substitutes = [r for r in RESOURCES if r != named]
        for i in empties:
            moves.append({MOVE_KEY: "place", "cell": CELL_NAMES[i]})
            moves.extend({MOVE_KEY: "place", "cell": CELL_NAMES[i], "resource": r} for r in substitutes)
    if buildings and has_built(town, "statue-of-the-bondmaker"):
        for i, cell in buildings:
            if cell["building"] == "cottage" and not cell.get("bond"):
                moves.append({MOVE_KEY: "place", "cell": CELL_NAMES[i]})
    capacity = CATALOGUE["warehouse"]["capacity"]
    for i, cell in buildings:
        if cell["building"] == "warehouse":
            if len(cell["stored"]) < capacity:
                moves.append({MOVE_KEY: "store", "cell": CELL_NAMES[i]})
            for kind in sorted(set(cell["stored"]), key=RESOURCES.index):
                moves.extend(
                    {MOVE_KEY: "store", "cell": CELL_NAMES[i], "swap": kind, "to": CELL_NAMES[j]}
                    for j in empty_cells(cells)
                )
    if state["cave_rule"] and state["source"] in ("master", "mayor") and town["cave_used"] < RULES["cave"]["max_uses"]:
        moves.append({MOVE_KEY: "cave"})
    return moves


# Each square's plain place move, copied for each listing: copying a small dict is cheaper than
# building it key by key, and every listing still gets moves of its own.
_PLACES: tuple[Move, ...] = tuple({MOVE_KEY: "place", "cell": name} for name in CELL_NAMES)


def legal_moves(state: State, seat: int) -> list[Move]:
    if state["phase"] == "finished" or not 0 <= seat < len(state["towns"]):
        return []
    town = state["towns"][seat]
    # town.is_active inlined, with subscripts as _require_town_in_play (every town has both fields)
    if town["complete"] or town["resigned"]:
        return []
    phase = state["phase"]
    if phase == "monuments":
        if town.get("monument_options") and not town.get("monument"):
            return [{MOVE_KEY: "monument", "monument": slug} for slug in town["monument_options"]]
        return []
    if phase == "announce":
        if state["variant"] == "solo":
            return [{MOVE_KEY: "announce", "resource": r} for r in RESOURCES if r in state["solo"]["revealed"]]
        if seat != state["master_builder"]:
            return []
        banked = bank_resources(town["cells"])
        allowed = [r for r in RESOURCES if r not in banked] if len(banked) < len(RESOURCES) else list(RESOURCES)
        return [{MOVE_KEY: "announce", "resource": r} for r in allowed]
    if not town["placed"]:
        return place_moves(state, seat)
    moves: list[Move] = []
    if flow.claimable(town):
        for slug in town["pending_claims"]:
            moves.extend(
                {MOVE_KEY: "claim", "building": slug, "cell": CELL_NAMES[i]} for i in empty_cells(town["cells"])
            )
    if not town["done"]:
        moves.extend(build_moves(state, seat))
        if not flow.claimable(town):
            moves.append({MOVE_KEY: "done"})
    return moves


# ---------------------------------------------------------------- status / resign


def _waiting(state: State) -> tuple[int, ...]:
    phase = state["phase"]
    towns = state["towns"]
    if phase == "monuments":
        return tuple(
            s for s in flow.active_seats(state) if towns[s].get("monument_options") and not towns[s]["monument"]
        )
    if phase == "announce":
        if state["variant"] == "solo":
            return (0,)
        mb = state["master_builder"]
        return (mb,) if mb is not None else ()
    if phase == "place":
        # flow.active_seats and flow.claimable inlined, as a plain loop: status runs after every move.
        waiting = []
        for s, town in enumerate(towns):
            # (subscripts, as _require_town_in_play: every town has both fields, setup.new_town)
            if town["complete"] or town["resigned"]:
                continue
            if not town["done"] or (town.get("pending_claims") and None in town["cells"]):
                waiting.append(s)
        return tuple(waiting)
    return ()


def status(state: State) -> Status:
    phase = state["phase"]
    if phase == "finished":
        table = flow.final_standings(state)
        winners = " and ".join(row["player"] for row in table if row["rank"] == 1)
        return Status((), True, f"Game over: {winners} won with {table[0]['score']} points.")
    to_act = _waiting(state)
    # Everything the summary says, as a key: the same line for the same fields (formatting it and
    # naming the seats was most of status, which runs after every move).
    key = (phase, to_act, state["round"], state["resource"], state["variant"], *state["names"])
    found = _STATUS_BY_FIELDS.get(key)
    if found is not None:
        return found
    seat_names = state["names"]
    names = ", ".join([seat_names[s] for s in to_act])
    if phase == "monuments":
        summary = f"waiting for: {names} (choose a monument)"
    elif phase == "announce":
        verb = "pick a resource" if state["variant"] == "solo" else "name a resource"
        summary = f"{names} to {verb}"
    else:
        shown = state["resource"] or "free choice"
        summary = f"round {state['round']} ({shown}): waiting for: {names}"
    found = flow.open_status(to_act, summary)
    if len(_STATUS_BY_FIELDS) >= 4096:  # a long-lived worker sees every player name: keep it bounded
        _STATUS_BY_FIELDS.clear()
    _STATUS_BY_FIELDS[key] = found
    return found


_STATUS_BY_FIELDS: dict[tuple[Any, ...], Status] = {}


def undo_scope(state: State) -> Hashable:
    """The open phase of the open round: ``(phase, round)``.

    Rounds are simultaneous: once the resource is named everyone places, builds and says done in
    any order, and no player's move depends on another's, so a player may take back their own move
    while others move on. The scope closes when the Master Builder names the resource (announce ->
    place: placements made for the new resource must not outlive it), when the last player is done
    (round + 1, and a new resource is named or drawn), when the monuments phase ends and when the
    game ends. A Town Hall round opens straight in "place", so the round number alone separates it
    from the last. Seats are not part of it: every active seat acts in the same scope.
    """
    return (state["phase"], state["round"])


def resign(state: State, seat: int) -> tuple[State, list[Event]]:
    if state["phase"] == "finished":
        raise IllegalMove("The game is over.")
    if not 0 <= seat < len(state["towns"]):
        raise IllegalMove("You are not playing in this game.")
    new = copy_state(state)
    town = new["towns"][seat]
    if town["resigned"]:
        raise IllegalMove("You have already left this game.")
    town["resigned"] = True
    town["pending_claims"] = []
    events: list[Event] = [{"text": f"{_name(new, seat)} leaves the game."}]
    if not flow.active_seats(new):
        if new["town_hall"] and new["town_hall"]["revealed"]:
            new["town_hall"]["discards"].append(new["town_hall"]["revealed"])
            new["town_hall"]["revealed"] = None
        flow.finish(new, events)
        return new, events
    if new["phase"] == "monuments":
        waiting = [t for t in new["towns"] if not t["resigned"] and t.get("monument_options") and not t["monument"]]
        if not waiting:
            flow.begin_play(new, events)
    elif new["phase"] == "announce" and new["variant"] == "standard" and new["master_builder"] == seat:
        new["master_builder"] = flow.next_master_builder(new, seat)
        events.append({"text": f"The hammer passes to {_name(new, new['master_builder'])}."})
    flow.check_round_end(new, events)
    return new, events


def kick(state: State, seat: int) -> tuple[State, list[Event]]:
    """A moderator removes ``seat``: the town stops as a resigned one does (see the rules decisions),
    marked kicked so the texts and the board say so."""
    new, events = resign(state, seat)
    new["towns"][seat]["kicked"] = True
    for event in events:
        if event.get("text") == f"{_name(new, seat)} leaves the game.":
            event["text"] = f"{_name(new, seat)} was kicked by a moderator."
    return new, events


def skip_move(state: State, seat: int) -> Move:
    """A moderator's /mod skip: the least harmful legal move, never a strategic one. The first monument
    dealt; the first resource allowed; the named resource (no substitute) on the empty square with the
    fewest empty neighbours (a corner before an edge before the middle, then reading order), so it
    blocks as few future buildings as possible; after placing, done (nothing is built)."""
    legal = legal_moves(state, seat)
    if not legal:
        raise IllegalMove("There is nothing to skip for this player now.")
    cells = state["towns"][seat]["cells"]

    def harm(move: Move) -> tuple[int, int, int]:
        index = CELL_INDEX[move["cell"]]
        row, col = divmod(index, 4)
        around = [(row + dr, col + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))]
        empty = sum(1 for r, c in around if 0 <= r < 4 and 0 <= c < 4 and not cells[r * 4 + c])
        return (int(bool(cells[index])), int("resource" in move), empty * 100 + index)

    places = [m for m in legal if m[MOVE_KEY] == "place"]
    if places:
        return min(places, key=harm)
    return next((m for m in legal if m[MOVE_KEY] == "done"), legal[0])


# ---------------------------------------------------------------- redeal (conformance suite)


def _fresh_pair(rng: Rng, pool: list[str], old: list[str]) -> list[str]:
    """Two monuments from ``pool`` in a random order, unlike ``old`` whenever the pool allows it."""
    drawn = rng.shuffled(pool)
    if drawn[:2] == old and len(drawn) > 2:
        return drawn[1:3]
    return drawn[:2]


def _redeal_monuments(state: State, seat: int, rng: Rng) -> None:
    """Deal ``seat`` two other monuments (and keep another of them) where nobody else can tell.

    Secret: the two monuments dealt and, until it is built, the one kept; whether one is kept is
    public (the "has chosen a monument" event) and so is a built monument. The new cards come from
    the monuments this game could have dealt (solo leaves two out) minus every other seat's cards,
    so the deal stays one deck's worth with no card twice.
    """
    town = state["towns"][seat]
    old = list(town.get("monument_options") or [])
    if not state.get("monuments") or len(old) != RULES["monuments_dealt"]:
        return
    removed = set(RULES["solo"]["removed"]) if state["variant"] == "solo" else set()
    taken = {
        slug
        for other, t in enumerate(state["towns"])
        if other != seat
        for slug in [*(t.get("monument_options") or []), t.get("monument")]
        if slug
    }
    pool = [slug for slug in MONUMENTS if slug not in removed and slug not in taken]
    kept = town.get("monument")
    if kept and town.get("monument_built"):
        # Built is public; only the card let go stays secret.
        others = [slug for slug in rng.shuffled(pool) if slug != kept]
        spare = next((slug for slug in others if slug not in old), others[0] if others else None)
        if spare is not None:
            town["monument_options"] = [kept if slug == kept else spare for slug in old]
        return
    if len(pool) < len(old):
        return
    town["monument_options"] = _fresh_pair(rng, pool, old)
    if kept:
        town["monument"] = rng.choice(town["monument_options"])


def _redeal_decks(state: State, rng: Rng) -> None:
    """Shuffle what nobody has seen of the resource decks; sizes and seen cards stay where they are.

    Town Hall: the draw pile and the face-down discards (the first cards of the discard pile since
    the last shuffle); the cards revealed since then stay on the discard pile in order. Solo: the
    front of the deck still holds unseen cards until every card has been picked once (each pick
    goes to the bottom, one pick per round).
    """
    hall = state.get("town_hall")
    if hall:
        face_down = min(RULES["town_hall"]["discard_face_down"], len(hall["discards"]))
        unseen = rng.shuffled([*hall["draw_pile"], *hall["discards"][:face_down]])
        cut = len(hall["draw_pile"])
        hall["draw_pile"], hall["discards"] = unseen[:cut], [*unseen[cut:], *hall["discards"][face_down:]]
    solo = state.get("solo")
    if solo and state["phase"] in ("announce", "place"):
        picks = state["round"] - (1 if state["phase"] == "announce" else 0)
        unseen_count = max(0, len(solo["deck"]) - picks)
        solo["deck"] = [*rng.shuffled(solo["deck"][:unseen_count]), *solo["deck"][unseen_count:]]


def redeal(state: State, seat: int, seed: int) -> State:
    """``state`` with ``seat``'s secrets dealt afresh from ``seed`` (for the conformance suite).

    The seat's two dealt monuments are replaced, and the kept one too while it is not built; the
    order of resource cards nobody has seen (Town Hall deck, solo deck) is shuffled and the RNG
    cursor for later reshuffles is re-seeded. Everything
    public stays: whether a monument is kept or built, deck sizes, revealed cards. The suite uses
    this to prove that no other viewer's view (or image) depends on those secrets.
    """
    new = copy_state(state)
    if not 0 <= seat < len(new["towns"]) or new["phase"] == "finished":
        return new
    rng = Rng(seed_state(seed))
    _redeal_monuments(new, seat, rng)
    _redeal_decks(new, rng)
    # The RNG cursor (the order of every later reshuffle) is hidden from everyone too. It is the only
    # secret a game without monuments and without a resource deck has (standard variant).
    new["rng"] = rng.next_u64()
    return new
