"""Command text <-> move dicts for the /tt group.

Canonical form (what format() prints): lower-case words, upper-case squares, the squares of a
build sorted A1, B1, ... D4, then 'at', 'with', 'replace', 'add', 'aside' in that order.
parse() accepts any case, any square order and the keyword sections in any order.
"""

from __future__ import annotations

from dataclasses import replace

from games.base import MOVE_KEY, IllegalMove, Move
from games.notation import expect_word, suggest, tokens
from games.schema import Slot, Verb, usage_lines
from games.tiny_towns.content import BASE_BUILDINGS, MONUMENTS, ORDER, RESOURCES, lookup
from games.tiny_towns.patterns import CELL_INDEX, is_cell

GROUP = "tt"

_VERB_ALIASES = {"name": "announce", "pick": "announce", "keep": "monument", "pass": "done", "finish": "done"}
_BUILD_KEYWORDS = ("at", "with", "replace", "add", "aside")
# Every notation keyword: the build sections plus the words of the Warehouse swap. They end a
# many-word slot when a move text is split into options (autocomplete).
_KEYWORDS = (*_BUILD_KEYWORDS, "swap", "to")


def _verb(name: str, *slots: Slot, ends_turn: bool = False) -> Verb:
    """A verb whose description is its own usage line: that is what the slash command has always shown."""
    verb = Verb(name, name, slots, ends_turn=ends_turn, stop_words=frozenset(_KEYWORDS))
    return replace(verb, description=verb.usage(GROUP))


# The declared command schema. The usage lines, the parser's messages and the Discord options all
# come from here; slot names, flags and keywords reproduce the options the adapter used to derive
# from the usage strings, so existing slash commands keep their option names.
VERBS: tuple[Verb, ...] = (
    _verb("announce", Slot("resource", "resource", "The resource everyone places this round, e.g. wood")),
    _verb(
        "place",
        Slot("square", "square", "The square of your town that takes the cube, A1 to D4"),
        # Only needed in a free-choice round or when a Factory lets you swap the named resource.
        Slot("resource", "resource", "Which resource (free-choice rounds, or a Factory swap)", required=False),
    ),
    _verb(
        "build",
        Slot("building", "building", "The building to construct, e.g. cottage"),
        Slot("squares", "square", "The squares whose cubes form it, separated by spaces", many=True),
        Slot(
            "at",
            "square",
            "Where the building goes, when more than one square is possible",
            required=False,
            keyword="at",
        ),
        Slot("with", "resource", "The resource a new Factory or Bank holds", required=False, keyword="with"),
        # replace/add/aside sections of a few monuments are rare: one free-text option holds them,
        # and the usage line stays short.
        Slot(
            "more",
            "word",
            "Further sections, e.g. replace A1 farm, add tavern B2, aside a b c",
            required=False,
            many=True,
            in_usage=False,
        ),
    ),
    _verb(
        "store",
        Slot(
            "warehouse_square",
            "square",
            "The square of your Warehouse that takes the resource",
            label="<warehouse square>",
        ),
        # One option for the whole "wood to B2" section, as the slash command has always had it.
        Slot(
            "swap",
            "word",
            "A stored resource to swap out and the empty square it goes to, e.g. wood to B2",
            required=False,
            keyword="swap",
            label="<resource> to <square>",
        ),
        Slot("more", "word", "Further words of the move, rarely needed", required=False, many=True, in_usage=False),
    ),
    _verb("cave"),
    _verb("monument", Slot("name", "building", "The monument you keep, one of the two you were dealt", label="<name>")),
    _verb(
        "claim",
        Slot("building", "building", "The building your Opaleye's Watch lets you take"),
        Slot("square", "square", "An empty square of your town for it"),
    ),
    _verb("done", ends_turn=True),
)
VERB_NAMES = tuple(verb.name for verb in VERBS)
_USAGE = usage_lines(GROUP, VERBS)  # verb -> "/tt build <building> ...", for the parser's messages


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
    move: Move = {MOVE_KEY: "build", "building": _building(args[0])}
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
    verb = expect_word(verb, VERB_NAMES, "command")
    args = words[1:]
    if verb == "announce":
        move: Move = {MOVE_KEY: "announce", "resource": _resource(args[0] if args else None)}
        _no_more(args[1:], verb)
        return move
    if verb == "place":
        move = {MOVE_KEY: "place", "cell": _cell(args[0] if args else None)}
        if len(args) > 1:
            move["resource"] = _resource(args[1])
        _no_more(args[2:], verb)
        return move
    if verb == "build":
        return _parse_build(args)
    if verb == "store":
        move = {MOVE_KEY: "store", "cell": _cell(args[0] if args else None, "Warehouse square")}
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
        move = {MOVE_KEY: "monument", "monument": _building(args[0] if args else None, buildings=False)}
        _no_more(args[1:], verb)
        return move
    if verb == "claim":
        move = {
            MOVE_KEY: "claim",
            "building": _building(args[0] if args else None, monuments=False),
            "cell": _cell(args[1] if len(args) > 1 else None),
        }
        _no_more(args[2:], verb)
        return move
    _no_more(args, verb)
    return {MOVE_KEY: verb}


def format(move: Move) -> str:
    verb = move[MOVE_KEY]
    parts = [f"/{GROUP}", verb]
    if verb == "announce":
        parts.append(move["resource"])
    elif verb == "place":
        parts.append(move["cell"])
        if move.get("resource"):
            parts.append(move["resource"])
    elif verb == "build":
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
    elif verb == "store":
        parts.append(move["cell"])
        if move.get("swap"):
            parts += ["swap", move["swap"], "to", move["to"]]
    elif verb == "monument":
        parts.append(move["monument"])
    elif verb == "claim":
        parts += [move["building"], move["cell"]]
    return " ".join(parts)


def vocabulary() -> dict[str, list[str]]:
    return {
        "commands": list(VERB_NAMES),
        "resources": list(RESOURCES),
        "buildings": list(BASE_BUILDINGS),
        "monuments": list(MONUMENTS),
        "squares": list(CELL_INDEX),
        "keywords": list(_KEYWORDS),
    }
