"""Building: validating a /tt build command, applying it, and enumerating every legal build."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from games.base import MOVE_KEY, Event, IllegalMove, Move, State
from games.tiny_towns.bitboard import board_of_marks, fits_at
from games.tiny_towns.content import CATALOGUE, ORDER, RESOURCES
from games.tiny_towns.copying import own_town
from games.tiny_towns.patterns import CELL_INDEX, CELL_NAMES, SIZES
from games.tiny_towns.scoring import shrine_value
from games.tiny_towns.town import (
    at_choices,
    available_buildings,
    bank_resources,
    describe,
    empty_cells,
    is_active,
    iter_builds,
    letters,
    mask_squares,
    new_building,
)

_EXTRAS = {"replace": "architects-guild", "add": "grove-university", "aside": "opaleyes-watch"}


def _pattern_hint(slug: str) -> str:
    rows = " / ".join(" ".join(row) for row in CATALOGUE[slug]["pattern"])
    legend = "W wood, H wheat, B brick, G glass, S stone; rotations and mirrors allowed"
    return f"{CATALOGUE[slug]['name']} needs {rows} ({legend})"


def _cells_of(move: Move) -> list[int]:
    raw = move.get("cells")
    if not isinstance(raw, list) or not raw:
        raise IllegalMove("Name the squares whose cubes form the building, e.g. /tt build cottage B1 A2 B2.")
    out = []
    for name in raw:
        if not isinstance(name, str) or name.upper() not in CELL_INDEX:
            raise IllegalMove(f"{name!r} is not a square: use A1 to D4.")
        index = CELL_INDEX[name.upper()]
        if index in out:
            raise IllegalMove(f"{CELL_NAMES[index]} is listed twice.")
        out.append(index)
    return out


def _in_play_building(state: State, slug: Any, what: str) -> str:
    if slug not in CATALOGUE or CATALOGUE[slug]["monument"] or slug not in state["buildings"]:
        shown = CATALOGUE[slug]["name"] if slug in CATALOGUE else repr(slug)
        raise IllegalMove(f"{what}: {shown} is not a building in play (choose {', '.join(state['buildings'])}).")
    return str(slug)


def _check_available(state: State, seat: int, slug: Any) -> str:
    if slug not in CATALOGUE:
        raise IllegalMove(f"Unknown building {slug!r}. In play: {', '.join(state['buildings'])}.")
    town = state["towns"][seat]
    entry = CATALOGUE[slug]
    if entry["monument"]:
        if town.get("monument") != slug:
            raise IllegalMove(f"{entry['name']} is not your monument: you may only build your own monument.")
        if town.get("monument_built"):
            raise IllegalMove(f"You have already built {entry['name']}; a monument is built once.")
        return str(slug)
    if slug not in available_buildings(state, seat):
        raise IllegalMove(f"{entry['name']} is not in play this game. In play: {', '.join(state['buildings'])}.")
    return str(slug)


def _check_pattern(state: State, seat: int, slug: str, cells: list[int], marks: list[str]) -> int:
    size = SIZES[slug]
    if len(cells) != size:
        raise IllegalMove(f"You named {len(cells)} squares; {_pattern_hint(slug)}, which is {size} squares.")
    town = state["towns"][seat]
    for i in cells:
        if not marks[i]:
            raise IllegalMove(f"{CELL_NAMES[i]} holds {describe(town['cells'][i])}, not a cube. {_pattern_hint(slug)}.")
    if all(marks[i] == "*" for i in cells):
        raise IllegalMove("A building needs at least one real cube; Trading Posts alone cannot form it.")
    mask = sum(1 << i for i in cells)
    if not fits_at(slug, board_of_marks(marks), mask):
        raise IllegalMove(f"Those squares do not form a {CATALOGUE[slug]['name']}: {_pattern_hint(slug)}.")
    return mask


def _check_with(state: State, seat: int, slug: str, move: Move) -> str | None:
    ability = CATALOGUE[slug].get("ability")
    value = move.get("with")
    if ability not in ("factory", "bank"):
        if value is not None:
            raise IllegalMove(f"Only a Factory or a Bank holds a resource; drop 'with {value}'.")
        return None
    if value is None:
        raise IllegalMove(f"Say which resource the {CATALOGUE[slug]['name']} holds: add 'with <resource>'.")
    if value not in RESOURCES:
        raise IllegalMove(f"{value!r} is not a resource: choose {', '.join(RESOURCES)}.")
    if ability == "bank" and value in bank_resources(state["towns"][seat]["cells"]):
        allowed = [r for r in RESOURCES if r not in bank_resources(state["towns"][seat]["cells"])]
        raise IllegalMove(f"Another Bank of yours already holds {value}; choose {', '.join(allowed) or 'nothing'}.")
    return str(value)


def _check_extras(state: State, seat: int, slug: str, move: Move, at: int, freed: list[int]) -> None:
    for key, owner in _EXTRAS.items():
        if move.get(key) is not None and slug != owner:
            raise IllegalMove(f"'{key}' only goes with building {CATALOGUE[owner]['name']}.")
    cells = state["towns"][seat]["cells"]
    if slug == "architects-guild":
        replace = move.get("replace") or []
        limit = CATALOGUE[slug]["max_replacements"]
        if not isinstance(replace, list) or len(replace) > limit:
            raise IllegalMove(f"Architect's Guild replaces at most {limit} of your buildings.")
        seen: list[int] = []
        for item in replace:
            if not isinstance(item, list) or len(item) != 2 or item[0] not in CELL_INDEX:
                raise IllegalMove("Write each replacement as: replace <square> <building>.")
            i = CELL_INDEX[item[0]]
            if i in seen:
                raise IllegalMove(f"{CELL_NAMES[i]} is replaced twice.")
            seen.append(i)
            content = cells[i]
            if i == at or not content or "building" not in content or content.get("monument"):
                raise IllegalMove(
                    f"{CELL_NAMES[i]} holds {describe(content)}: Architect's Guild replaces one of "
                    "your other (non-monument) buildings."
                )
            new = _in_play_building(state, item[1], "replace")
            if new == content["building"]:
                raise IllegalMove(f"{CELL_NAMES[i]} already is a {CATALOGUE[new]['name']}: choose another type.")
    if slug == "grove-university":
        add = move.get("add")
        if not isinstance(add, list) or len(add) != 2:
            raise IllegalMove(
                "Grove University puts a building on an empty square at once: add 'add <building> <square>'."
            )
        _in_play_building(state, add[0], "add")
        if add[1] not in CELL_INDEX:
            raise IllegalMove(f"{add[1]!r} is not a square: use A1 to D4.")
        target = CELL_INDEX[add[1]]
        empty_after = (set(empty_cells(cells)) | set(freed)) - {at}
        if target not in empty_after:
            raise IllegalMove(
                f"{CELL_NAMES[target]} will not be empty: Grove University's building goes on an empty square."
            )
    if slug == "opaleyes-watch":
        aside = move.get("aside")
        if not isinstance(aside, list) or len(aside) != CATALOGUE[slug]["aside"]:
            raise IllegalMove("Opaleye's Watch sets 3 buildings aside: add 'aside <building> <building> <building>'.")
        if len(set(aside)) != len(aside):
            raise IllegalMove("Opaleye's Watch sets aside 3 different building types.")
        for item in aside:
            _in_play_building(state, item, "aside")


def apply_build(state: State, seat: int, move: Move, events: list[Event]) -> None:
    slug = _check_available(state, seat, move.get("building"))
    town = state["towns"][seat]
    cells = _cells_of(move)
    marks = letters(town["cells"])
    mask = _check_pattern(state, seat, slug, cells, marks)
    holds = _check_with(state, seat, slug, move)
    options = at_choices(town, slug, mask, marks, state["round"])
    freed = [i for i in sorted(cells) if marks[i] != "*"]
    at_name = move.get("at")
    if at_name is None:
        if len(options) != 1:
            where = ", ".join(CELL_NAMES[i] for i in options)
            raise IllegalMove(f"Where does the {CATALOGUE[slug]['name']} go? Add 'at <square>': one of {where}.")
        at = options[0]
    else:
        if not isinstance(at_name, str) or at_name.upper() not in CELL_INDEX:
            raise IllegalMove(f"{at_name!r} is not a square: use A1 to D4.")
        at = CELL_INDEX[at_name.upper()]
        if at not in options:
            where = ", ".join(CELL_NAMES[i] for i in options)
            kind = "an empty square or a square just freed" if len(options) > len(freed) else "a square just freed"
            raise IllegalMove(f"The {CATALOGUE[slug]['name']} must go on {kind}: {where}.")
    _check_extras(state, seat, slug, move, at, freed)

    for i in freed:
        town["cells"][i] = None
    monument = CATALOGUE[slug]["monument"]
    town["cells"][at] = new_building(slug, monument=monument, holds=holds)
    player = state["names"][seat]
    used = " ".join(CELL_NAMES[i] for i in sorted(cells))
    held = f" holding {holds}" if holds else ""
    event: Event = {"text": f"{player} builds {CATALOGUE[slug]['name']} on {CELL_NAMES[at]}{held} (from {used})."}
    if monument:
        town["monument_built"] = True
        town["monument_round"] = state["round"]
        event["irreversible"] = True  # the secret monument is revealed
        event["text"] += f" Monument revealed: {CATALOGUE[slug]['text']}"
    events.append(event)
    if slug == "shrine-of-the-elder-tree":
        count = sum(1 for c in town["cells"] if c and "building" in c)
        town["shrine_vp"] = shrine_value(count)
    for cell_name, new in move.get("replace") or []:
        i = CELL_INDEX[cell_name]
        old = town["cells"][i]["building"]
        bond = town["cells"][i].get("bond")
        town["cells"][i] = new_building(new)
        events.append(
            {
                "text": f"{player}'s Architect's Guild turns the {CATALOGUE[old]['name']} on {cell_name} "
                f"into a {CATALOGUE[new]['name']}" + (" (its cube returns to the supply)." if bond else ".")
            }
        )
    if move.get("add"):
        new, cell_name = move["add"]
        town["cells"][CELL_INDEX[cell_name]] = new_building(new)
        events.append({"text": f"{player}'s Grove University adds a {CATALOGUE[new]['name']} on {cell_name}."})
    if move.get("aside"):
        town["aside"] = sorted(move["aside"], key=ORDER.__getitem__)
        names = ", ".join(CATALOGUE[s]["name"] for s in town["aside"])
        events.append({"text": f"{player} sets aside on Opaleye's Watch: {names}."})
    if not monument:
        _trigger_opaleye(state, seat, slug, events)


def _trigger_opaleye(state: State, seat: int, slug: str, events: list[Event]) -> None:
    n = len(state["towns"])
    for other in sorted({(seat + 1) % n, (seat - 1) % n} - {seat}):
        town = state["towns"][other]
        if not (town.get("monument") == "opaleyes-watch" and town.get("monument_built")):
            continue
        if town["monument_round"] >= state["round"] or not is_active(town):
            continue
        if slug in town["aside"] and slug not in town["pending_claims"]:
            town = own_town(state, other)  # a neighbour's town, shared with the old state until now
            town["pending_claims"].append(slug)
            events.append(
                {
                    "text": f"{state['names'][other]} may take a {CATALOGUE[slug]['name']} from "
                    f"Opaleye's Watch: /tt claim {slug} <square>."
                }
            )


# ---------------------------------------------------------------- enumeration


def _guild_replacements(state: State, seat: int, at: int) -> list[list[list[str]]]:
    cells = state["towns"][seat]["cells"]
    limit = CATALOGUE["architects-guild"]["max_replacements"]
    targets = [i for i, c in enumerate(cells) if c and "building" in c and not c.get("monument") and i != at]
    singles: dict[int, list[list[str]]] = {
        i: [[CELL_NAMES[i], b] for b in state["buildings"] if b != cells[i]["building"]] for i in targets
    }
    out: list[list[list[str]]] = [[]]
    for i in targets:
        out.extend([item] for item in singles[i])
    if limit >= 2:
        for i, j in combinations(targets, 2):
            out.extend([a, b] for a in singles[i] for b in singles[j])
    return out


def build_moves(state: State, seat: int, guild_replacements: bool = True) -> list[Move]:
    """Every legal build for a seat (canonical move dicts). guild_replacements=False keeps only
    Architect's Guild builds without replacements (the AI chooses those itself)."""
    town = state["towns"][seat]
    moves: list[Move] = []
    builds = list(iter_builds(state, seat))
    if not builds:
        return moves
    for slug, mask, ats, withs in builds:
        squares = mask_squares(mask)
        cells = [CELL_NAMES[i] for i in squares]
        for at in ats:
            for held in withs:
                base: Move = {MOVE_KEY: "build", "building": slug, "cells": cells, "at": CELL_NAMES[at]}
                if held is not None:
                    base["with"] = held
                if slug == "architects-guild":
                    options = _guild_replacements(state, seat, at) if guild_replacements else [[]]
                    for replace in options:
                        moves.append({**base, "replace": replace} if replace else dict(base))
                elif slug == "grove-university":
                    # (the town's squares read here only: Grove University is rarely buildable)
                    marks = letters(town["cells"])
                    freed = {i for i in squares if marks[i] != "*"}
                    spots = sorted((set(empty_cells(town["cells"])) | freed) - {at})
                    for b in state["buildings"]:
                        moves.extend({**base, "add": [b, CELL_NAMES[i]]} for i in spots)
                elif slug == "opaleyes-watch":
                    for trio in combinations(state["buildings"], CATALOGUE[slug]["aside"]):
                        moves.append({**base, "aside": sorted(trio, key=ORDER.__getitem__)})
                else:
                    moves.append(base)
    return moves
