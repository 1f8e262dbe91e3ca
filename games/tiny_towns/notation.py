"""Command text <-> move dicts for the /tt group.

Canonical form (what format() prints): lower-case words, upper-case squares, the squares of a
build sorted A1, B1, ... D4, then 'at', 'with', 'replace', 'add', 'aside' in that order.
parse() accepts any case, any square order and the keyword sections in any order.
"""

from __future__ import annotations

from games.base import IllegalMove, Move
from games.notation import expect_word, suggest, tokens
from games.tiny_towns.content import BASE_BUILDINGS, MONUMENTS, ORDER, RESOURCES, lookup
from games.tiny_towns.patterns import CELL_INDEX, is_cell

GROUP = "tt"

VERBS = ["announce", "place", "build", "store", "cave", "monument", "claim", "done"]
_VERB_ALIASES = {"name": "announce", "pick": "announce", "keep": "monument", "pass": "done", "finish": "done"}
_BUILD_KEYWORDS = ("at", "with", "replace", "add", "aside")
_USAGE = {
    "announce": "/tt announce <resource>",
    "place": "/tt place <square> [<resource>]",
    "build": "/tt build <building> <square> <square> ... [at <square>] [with <resource>]",
    "store": "/tt store <warehouse square> [swap <resource> to <square>]",
    "cave": "/tt cave",
    "monument": "/tt monument <name>",
    "claim": "/tt claim <building> <square>",
    "done": "/tt done",
}


def _cell(word: str | None, what: str = "square") -> str:
    if word is None:
        raise IllegalMove(f"Missing {what} (A1 to D4: column letter, then row number).")
    if not is_cell(word):
        raise IllegalMove(f'"{word}" is not a square: use A1 to D4 (column letter A-D, then row number 1-4).')
    return word.upper()


def _resource(word: str | None) -> str:
    if word is None:
        raise IllegalMove(f"Missing resource: choose {', '.join(RESOURCES)}.")
    return expect_word(word, RESOURCES, "resource")


def _building(word: str | None, monuments: bool = True, buildings: bool = True) -> str:
    known = (BASE_BUILDINGS if buildings else []) + (MONUMENTS if monuments else [])
    if word is None:
        raise IllegalMove("Missing building name (e.g. cottage, feast-hall).")
    slug = lookup(word)
    if slug is None or slug not in known:
        what = "monument" if not buildings else "building"
        raise IllegalMove(f'Unknown {what} "{word}"{suggest(word, known)}.')
    return slug


def _no_more(words: list[str], verb: str) -> None:
    if words:
        raise IllegalMove(f'Unexpected "{" ".join(words)}". Usage: {_USAGE[verb]}.')


def _parse_build(args: list[str]) -> Move:
    if not args:
        raise IllegalMove(f"Usage: {_USAGE['build']}.")
    move: Move = {"cmd": "build", "building": _building(args[0])}
    rest = args[1:]
    cells: list[str] = []
    while rest and rest[0] not in _BUILD_KEYWORDS:
        cell = _cell(rest.pop(0))
        if cell in cells:
            raise IllegalMove(f"{cell} is listed twice.")
        cells.append(cell)
    if not cells:
        raise IllegalMove("Name the squares whose cubes form the building, e.g. /tt build cottage B1 A2 B2.")
    move["cells"] = sorted(cells, key=CELL_INDEX.__getitem__)
    replace: list[list[str]] = []
    while rest:
        key = rest.pop(0)
        if key in ("at", "with", "add", "aside") and key in move:
            raise IllegalMove(f"'{key}' is given twice.")
        if key == "at":
            move["at"] = _cell(rest.pop(0) if rest else None, "square after 'at'")
        elif key == "with":
            move["with"] = _resource(rest.pop(0) if rest else None)
        elif key == "replace":
            cell = _cell(rest.pop(0) if rest else None, "square after 'replace'")
            replace.append([cell, _building(rest.pop(0) if rest else None, monuments=False)])
        elif key == "add":
            slug = _building(rest.pop(0) if rest else None, monuments=False)
            move["add"] = [slug, _cell(rest.pop(0) if rest else None, "square after 'add <building>'")]
        elif key == "aside":
            names = []
            while rest and rest[0] not in _BUILD_KEYWORDS:
                names.append(_building(rest.pop(0), monuments=False))
            if len(names) != 3 or len(set(names)) != 3:
                raise IllegalMove(
                    "Opaleye's Watch sets aside 3 different buildings: aside <building> <building> <building>."
                )
            move["aside"] = sorted(names, key=ORDER.__getitem__)
        else:
            raise IllegalMove(f'Unexpected "{key}"{suggest(key, _BUILD_KEYWORDS)}. Usage: {_USAGE["build"]}.')
    if replace:
        if len({c for c, _ in replace}) != len(replace):
            raise IllegalMove("Each square can be replaced only once.")
        move["replace"] = sorted(replace, key=lambda item: CELL_INDEX[item[0]])
    return move


def parse(text: str) -> Move:
    words = tokens(text, GROUP)
    if not words:
        raise IllegalMove("Say what to do: " + "; ".join(_USAGE.values()) + ".")
    verb = _VERB_ALIASES.get(words[0], words[0])
    verb = expect_word(verb, VERBS, "command")
    args = words[1:]
    if verb == "announce":
        move: Move = {"cmd": "announce", "resource": _resource(args[0] if args else None)}
        _no_more(args[1:], verb)
        return move
    if verb == "place":
        move = {"cmd": "place", "cell": _cell(args[0] if args else None)}
        if len(args) > 1:
            move["resource"] = _resource(args[1])
        _no_more(args[2:], verb)
        return move
    if verb == "build":
        return _parse_build(args)
    if verb == "store":
        move = {"cmd": "store", "cell": _cell(args[0] if args else None, "Warehouse square")}
        rest = args[1:]
        if rest:
            if rest[0] != "swap":
                raise IllegalMove(f'Unexpected "{rest[0]}". Usage: {_USAGE["store"]}.')
            move["swap"] = _resource(rest[1] if len(rest) > 1 else None)
            if len(rest) < 3 or rest[2] != "to":
                raise IllegalMove(f"Say where the swapped cube goes. Usage: {_USAGE['store']}.")
            move["to"] = _cell(rest[3] if len(rest) > 3 else None)
            _no_more(rest[4:], verb)
        return move
    if verb == "monument":
        move = {"cmd": "monument", "monument": _building(args[0] if args else None, buildings=False)}
        _no_more(args[1:], verb)
        return move
    if verb == "claim":
        move = {"cmd": "claim", "building": _building(args[0] if args else None, monuments=False),
                "cell": _cell(args[1] if len(args) > 1 else None)}
        _no_more(args[2:], verb)
        return move
    _no_more(args, verb)
    return {"cmd": verb}


def format(move: Move) -> str:
    cmd = move["cmd"]
    parts = ["/tt", cmd]
    if cmd == "announce":
        parts.append(move["resource"])
    elif cmd == "place":
        parts.append(move["cell"])
        if move.get("resource"):
            parts.append(move["resource"])
    elif cmd == "build":
        parts.append(move["building"])
        parts.extend(move["cells"])
        if move.get("at"):
            parts += ["at", move["at"]]
        if move.get("with"):
            parts += ["with", move["with"]]
        for cell, slug in move.get("replace") or []:
            parts += ["replace", cell, slug]
        if move.get("add"):
            parts += ["add", move["add"][0], move["add"][1]]
        if move.get("aside"):
            parts += ["aside", *move["aside"]]
    elif cmd == "store":
        parts.append(move["cell"])
        if move.get("swap"):
            parts += ["swap", move["swap"], "to", move["to"]]
    elif cmd == "monument":
        parts.append(move["monument"])
    elif cmd == "claim":
        parts += [move["building"], move["cell"]]
    return " ".join(parts)


def vocabulary() -> dict[str, list[str]]:
    return {
        "commands": list(VERBS),
        "resources": list(RESOURCES),
        "buildings": list(BASE_BUILDINGS),
        "monuments": list(MONUMENTS),
        "squares": list(CELL_INDEX),
        "keywords": list(_BUILD_KEYWORDS) + ["swap", "to"],
    }

