"""Command text <-> move dicts for My Trolley Town.

/trolley build bakery 2,0 [rebuild] [pay wood 0,0 stone 1,0]
/trolley route curve 1,1 90 straight 2,1 0 [upgrade 0,1 90] [pay wood 0,0]
/trolley upgrade 1,1 0 [pay stone 1,0]
/trolley move wood 0,0 2,0 [coal 2,0 3,0 ...]
/trolley choose 2,0 stone
/trolley remove <tile> <tile> <tile>        (solo, end of round)
/trolley expert off
/trolley pass | /trolley done

Cells are ``x,y`` from the player's Forest at ``0,0`` (x right, y down); rotations are degrees
clockwise (0, 90, 180, 270). Payment is optional: without it the engine picks the pieces.
"""

from __future__ import annotations

import re
from typing import Any

from games.base import MOVE_KEY, IllegalMove, Move
from games.notation import expect_word, suggest, tokens
from games.schema import Slot, Verb, usage_lines
from games.trolley_town.content import BUILD_RESOURCES, RESOURCES, TILES
from games.trolley_town.town import ROTATIONS, ROUTE_KINDS, key_of

GROUP = "trolley"
CELL = re.compile(r"^(-?\d{1,3}),(-?\d{1,3})$")
PAY = Slot(
    "pay",
    "word",
    "Optional: which pieces pay, e.g. wood 0,0 stone 1,0 (default: the engine picks)",
    required=False,
    many=True,
    keyword="pay",
    label="<resource> <x,y>",
    autocomplete=False,
)

VERBS: tuple[Verb, ...] = (
    Verb(
        "build",
        "Build a face-up building next to your town, e.g. bakery 2,0",
        (
            Slot("tile", "building", "The building to build, e.g. bakery (only affordable ones are offered)"),
            Slot("cell", "cell", "Where: x,y next to your town (your Forest is 0,0)", label="<x,y>"),
            Slot(
                "rebuild",
                "choice",
                "4 players: type rebuild to use the Rebuild tile for a face-down basic building",
                required=False,
                label="[rebuild]",
                autocomplete=False,
            ),
            PAY,
        ),
    ),
    Verb(
        "route",
        "Lay routes (1 wood or stone each, junction 2): kind x,y rotation, several allowed",
        (
            Slot(
                "routes",
                "word",
                "kind x,y rotation ..., e.g. curve 1,1 90 straight 2,1 0 (upgrade x,y rotation too)",
                many=True,
                label="<straight|curve|junction> <x,y> <rotation>",
            ),
            PAY,
        ),
    ),
    Verb(
        "upgrade",
        "Turn routes into junctions (1 wood or stone each) without breaking their path",
        (
            Slot("cells", "word", "x,y rotation ..., e.g. 1,1 90", many=True, label="<x,y> <rotation>"),
            PAY,
        ),
    ),
    Verb(
        "move",
        "Transport: resource from x,y to x,y along routes, several allowed",
        (
            Slot(
                "moves",
                "word",
                "resource from to ..., e.g. wood 0,0 2,0 coal 2,0 3,1",
                many=True,
                label="<resource> <x,y> <x,y>",
            ),
        ),
    ),
    Verb(
        "choose",
        "Answer a production or building choice, e.g. 2,0 stone",
        (
            Slot("cell", "cell", "The tile asking (x,y)", label="<x,y>"),
            Slot("resources", "resource", "The resource(s) you take", many=True),
        ),
    ),
    Verb(
        "remove",
        "Solo, end of round: remove 1 V tile and 2 A/B tiles from those visible",
        (Slot("tiles", "building", "The tiles to remove, e.g. inn granary dairy", many=True),),
    ),
    Verb(
        "expert",
        "Drop the expert transport rule for the rest of the game (say off)",
        (Slot("switch", "choice", "Type off", label="off"),),
    ),
    Verb("pass", "Construction: pass for the rest of this round", ends_turn=True, skip=True),
    Verb(
        "done",
        "Finished transporting (processing follows) or, in round 4, finished for good",
        ends_turn=True,
        skip=True,
    ),
)
VERB_NAMES = tuple(verb.name for verb in VERBS)
USAGE = usage_lines(GROUP, VERBS)


def cell(word: str) -> str:
    match = CELL.match(word)
    if not match:
        raise IllegalMove(f'"{word}" is not a cell: write x,y like 1,0 or -1,2 (your Forest is 0,0).')
    return key_of(int(match.group(1)), int(match.group(2)))


def rotation(word: str) -> int:
    if not word.isdigit() or int(word) not in ROTATIONS:
        raise IllegalMove(f'"{word}" is not a rotation: use 0, 90, 180 or 270 (degrees clockwise).')
    return int(word)


def resource(word: str, allowed: tuple[str, ...] = RESOURCES) -> str:
    if word not in allowed:
        raise IllegalMove(f'"{word}" is not a resource here{suggest(word, allowed)}: use {", ".join(allowed)}.')
    return word


def tile_slug(word: str) -> str:
    if word not in TILES:
        raise IllegalMove(f'Unknown building "{word}"{suggest(word, TILES)}. Names use hyphens, e.g. charcoal-kiln.')
    return word


def _split_pay(rest: list[str]) -> tuple[list[str], list[list[str]] | None]:
    if "pay" not in rest:
        return rest, None
    at = rest.index("pay")
    words = rest[at + 1 :]
    if not words or len(words) % 2:
        raise IllegalMove("After pay, list pieces as resource x,y pairs, e.g. pay wood 0,0 stone 1,0.")
    pay = [[resource(words[i], BUILD_RESOURCES), cell(words[i + 1])] for i in range(0, len(words), 2)]
    return rest[:at], pay


def _groups(words: list[str], size: int, usage: str) -> list[list[str]]:
    if not words or len(words) % size:
        raise IllegalMove(f"Use: {usage}.")
    return [words[i : i + size] for i in range(0, len(words), size)]


def parse(text: str) -> Move:
    words = tokens(text, GROUP)
    if not words:
        raise IllegalMove(f"Say what to do: /{GROUP} {' | '.join(VERB_NAMES)}.")
    verb = expect_word(words[0], VERB_NAMES, "command")
    rest = words[1:]
    move: dict[str, Any] = {MOVE_KEY: verb}
    if verb in ("build", "route", "upgrade"):
        rest, pay = _split_pay(rest)
        if pay is not None:
            move["pay"] = pay
    if verb == "build":
        if len(rest) not in (2, 3) or (len(rest) == 3 and rest[2] != "rebuild"):
            raise IllegalMove(f"Use: {USAGE['build']} (for example /{GROUP} build bakery 2,0).")
        move.update(tile=tile_slug(rest[0]), cell=cell(rest[1]))
        if len(rest) == 3:
            move["rebuild"] = True
        return _ordered(move)
    if verb == "route":
        routes = []
        for kind, where, turn in _groups(rest, 3, f"{USAGE['route']}, e.g. /{GROUP} route curve 1,1 90"):
            routes.append([expect_word(kind, (*ROUTE_KINDS, "upgrade"), "route kind"), cell(where), rotation(turn)])
        move["routes"] = routes
        return _ordered(move)
    if verb == "upgrade":
        pairs = _groups(rest, 2, f"{USAGE['upgrade']}, e.g. /{GROUP} upgrade 1,1 90")
        move["cells"] = [[cell(where), rotation(turn)] for where, turn in pairs]
        return _ordered(move)
    if verb == "move":
        triples = _groups(rest, 3, f"{USAGE['move']}, e.g. /{GROUP} move wood 0,0 2,0")
        move["moves"] = [[resource(what), cell(source), cell(target)] for what, source, target in triples]
        return move
    if verb == "choose":
        if len(rest) < 2:
            raise IllegalMove(f"Use: {USAGE['choose']}, e.g. /{GROUP} choose 2,0 stone.")
        move.update(cell=cell(rest[0]), resources=[resource(w) for w in rest[1:]])
        return move
    if verb == "remove":
        if not rest:
            raise IllegalMove(f"Use: {USAGE['remove']}.")
        move["tiles"] = [tile_slug(w) for w in rest]
        return move
    if verb == "expert":
        if rest != ["off"]:
            raise IllegalMove(f"Use: /{GROUP} expert off (the expert rule can only be dropped).")
        return move
    if rest:
        raise IllegalMove(f"{USAGE[verb]} takes no further words.")
    return move


def _ordered(move: dict[str, Any]) -> Move:
    """Keys in one order, so parse(format(m)) == m compares equal as JSON text too."""
    order = ("verb", "tile", "cell", "rebuild", "routes", "cells", "pay")
    return {key: move[key] for key in order if key in move}


def format_move(move: Move) -> str:
    verb = move[MOVE_KEY]
    parts = [f"/{GROUP}", verb]
    if verb == "build":
        parts += [move["tile"], move["cell"]] + (["rebuild"] if move.get("rebuild") else [])
    elif verb == "route":
        for kind, where, turn in move["routes"]:
            parts += [kind, where, str(turn)]
    elif verb == "upgrade":
        for where, turn in move["cells"]:
            parts += [where, str(turn)]
    elif verb == "move":
        for what, source, target in move["moves"]:
            parts += [what, source, target]
    elif verb == "choose":
        parts += [move["cell"], *move["resources"]]
    elif verb == "remove":
        parts += move["tiles"]
    elif verb == "expert":
        parts.append("off")
    if move.get("pay"):
        parts.append("pay")
        for what, where in move["pay"]:
            parts += [what, where]
    return " ".join(parts)
