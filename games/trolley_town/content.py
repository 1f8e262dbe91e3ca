"""Loads and validates the My Trolley Town tile data (data/tiles.json, data/rules.json).

Every tile is data composed from one effect vocabulary (the rulebook's icon reference), which
the engine implements once in ``effects.py``. The published building list is not available, so
most special tiles are our own design (``source = "project"``); a group that owns the physical
game can replace them by editing the JSON. This module refuses bad data with a message naming
the tile, so a typo never surfaces as a strange move later.

Effect shapes (``when`` is one of TIMINGS):
- ``gain``: put resources on this tile, never beyond its spaces. ``resource`` is a resource or
  ``"choice"`` (then ``options``: resources or ``["any"]``, and ``different``); ``amount`` is a
  number or ``"fill"`` (every empty space); optional ``per`` counter multiplies the amount.
- ``convert``: pay ``from`` (resources, ``any``, ``any_different``) from this tile, get ``to``
  (resources onto this tile, or ``vp``); at processing as many times as possible.
- ``score``: ``vp`` points, times the optional ``per`` counter, plus ``bonus`` {at, vp} when the
  counter reaches ``at``.
- ``pull`` (transport start): up to ``amount`` pieces may be moved onto this tile from any tile,
  without a route, during this transport step.
- ``trigger`` (production): run the production effects of the surrounding buildings again
  (except those producing wood or stone).
- ``neighbour_bonus`` (processing): ``vp`` more each time a surrounding building's processing
  scores victory points.
- ``discount`` (construction): buildings built in the surroundings cost one wood or stone less
  (a cost never drops below one piece).
Construction-timed ``gain``/``score`` fire when you later build a building ``where`` =
``"surrounding"`` (the 8 cells around this tile) or ``"town"`` (anywhere).

Counters (``per``): ``here`` (pieces of ``resource`` on this tile), ``surrounding_tiles``,
``surrounding_buildings``, ``surrounding_buildings_with`` (``resource`` drawn in their effects),
``surrounding_processors``, ``surrounding_distinct_resources`` (different resources drawn in the
surrounding buildings' effects; "any" icons not counted), ``connected_buildings`` (buildings
joined to this one by a route path).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, NoReturn

DATA = Path(__file__).parent / "data"

RESOURCES = ("wood", "stone", "wheat", "coal", "sheep")
BUILD_RESOURCES = ("wood", "stone")
SOURCES = ("rulebook", "published", "project")
PILES = ("start", "basic", "rebuild", "A", "B", "V")
TIMINGS = ("immediate", "production", "construction", "transport", "processing", "end")
COUNTERS = (
    "here",
    "surrounding_tiles",
    "surrounding_buildings",
    "surrounding_buildings_with",
    "surrounding_processors",
    "surrounding_distinct_resources",
    "connected_buildings",
)
COUNTERS_WITH_RESOURCE = ("here", "surrounding_buildings_with")
# Which timings each effect kind may use: anything else is a data error.
KINDS: dict[str, tuple[str, ...]] = {
    "gain": ("immediate", "production", "construction"),
    "convert": ("processing", "end"),
    "score": ("immediate", "production", "construction", "end"),
    "pull": ("transport",),
    "trigger": ("production",),
    "neighbour_bonus": ("processing",),
    "discount": ("construction",),
}
# Fields each kind may carry beyond "when" and "do".
FIELDS: dict[str, set[str]] = {
    "gain": {"resource", "options", "different", "amount", "per", "where"},
    "convert": {"from", "to"},
    "score": {"vp", "per", "bonus", "where"},
    "pull": {"amount"},
    "trigger": set(),
    "neighbour_bonus": {"vp"},
    "discount": {"amount"},
}
# Every vocabulary term must be used by at least this many tiles (the reference asks for two).
TERM_MIN_USES = 2

Timing = Literal["immediate", "production", "construction", "transport", "processing", "end"]


class ContentError(ValueError):
    """Bad data file content; the message names the file and tile."""


@dataclass(frozen=True)
class Effect:
    when: str
    do: str
    data: dict[str, Any]

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)


@dataclass(frozen=True)
class Tile:
    slug: str
    name: str
    pile: str
    cost: dict[str, int]
    spaces: int
    effects: tuple[Effect, ...]
    source: str
    star: bool = False
    copies: int = 1
    note: str = ""
    abbrev: str = ""
    # Derived once on load (see _derive): resources drawn in the effects, and what may be placed.
    drawn: frozenset[str] = field(default=frozenset())
    accepts: frozenset[str] = field(default=frozenset())

    @property
    def is_building(self) -> bool:
        return self.pile != "rebuild"

    @property
    def cost_total(self) -> int:
        return sum(self.cost.values())

    def effects_at(self, when: str) -> tuple[Effect, ...]:
        return tuple(e for e in self.effects if e.when == when)

    @property
    def processes(self) -> bool:
        return any(e.when == "processing" and e.do == "convert" for e in self.effects)

    @property
    def makes_wood_or_stone(self) -> bool:
        """Excluded from ``trigger``: a production that can put wood or stone on a tile."""
        for effect in self.effects_at("production"):
            if effect.do != "gain":
                continue
            options = _gain_options(effect)
            if set(options) & set(BUILD_RESOURCES):
                return True
        return False


@dataclass(frozen=True)
class Rules:
    """Numbers that are decisions, kept in data/rules.json."""

    rounds: int
    row_slots: int
    route_cost: int
    junction_cost: int
    upgrade_cost: int
    solo_basics: int
    solo_default: tuple[str, ...]
    solo_removals: dict[str, int]
    titles: tuple[tuple[int, str], ...]
    start_cells: dict[str, tuple[int, int]]
    basic_piles: tuple[tuple[str, int], ...]
    rebuild_players: int
    v_piles: int
    default_order: tuple[str, ...]
    decisions: tuple[str, ...]


def _fail(where: str, message: str) -> NoReturn:
    raise ContentError(f"{where}: {message}")


def _gain_options(effect: Effect) -> tuple[str, ...]:
    resource = effect.get("resource")
    if resource == "choice":
        options = tuple(effect.get("options", ()))
        return RESOURCES if "any" in options else options
    return (resource,) if resource else ()


def _resource_map(where: str, value: Any, extra: tuple[str, ...] = ()) -> dict[str, int]:
    if not isinstance(value, dict) or not value:
        _fail(where, "must be a non-empty object of resource counts")
    for key, count in value.items():
        if key not in (*RESOURCES, *extra):
            _fail(where, f"unknown key {key!r} (use {', '.join((*RESOURCES, *extra))})")
        if not isinstance(count, int) or count < 1:
            _fail(where, f"count for {key!r} must be a positive integer")
    return dict(value)


def _counter(where: str, value: Any) -> None:
    if not isinstance(value, dict) or value.get("count") not in COUNTERS:
        _fail(where, f"per must be an object with count in {', '.join(COUNTERS)}")
    if value["count"] in COUNTERS_WITH_RESOURCE:
        if value.get("resource") not in RESOURCES:
            _fail(where, f"counter {value['count']} needs a resource")
    elif set(value) != {"count"}:
        _fail(where, f"counter {value['count']} takes no other keys")


def _effect(where: str, raw: Any) -> Effect:
    if not isinstance(raw, dict):
        _fail(where, "each effect must be an object")
    when, do = raw.get("when"), raw.get("do")
    if do not in KINDS:
        _fail(where, f"unknown effect {do!r} (use {', '.join(KINDS)})")
    if when not in KINDS[do]:
        _fail(where, f"{do} cannot happen {when!r} (allowed: {', '.join(KINDS[do])})")
    data = {k: v for k, v in raw.items() if k not in ("when", "do")}
    extra = set(data) - FIELDS[do]
    if extra:
        _fail(where, f"{do} does not take {', '.join(sorted(extra))}")
    if when == "construction" and do in ("gain", "score"):
        if data.get("where") not in ("surrounding", "town"):
            _fail(where, 'a construction-timed effect needs where = "surrounding" or "town"')
    elif "where" in data:
        _fail(where, "where is only for construction-timed gain and score")
    if "per" in data:
        _counter(where, data["per"])
    if do == "gain":
        resource = data.get("resource")
        if resource == "choice":
            options = data.get("options")
            if not isinstance(options, list) or not options:
                _fail(where, "a choice needs options")
            if options != ["any"] and any(o not in RESOURCES for o in options):
                _fail(where, f"options must be resources or ['any'], not {options}")
            if options != ["any"] and len(options) < 2:
                _fail(where, "a choice needs at least two options")
        elif resource not in RESOURCES:
            _fail(where, f"gain needs a resource or 'choice', not {resource!r}")
        elif "options" in data or "different" in data:
            _fail(where, "options/different only go with resource = 'choice'")
        amount = data.get("amount")
        if amount != "fill" and (not isinstance(amount, int) or amount < 1):
            _fail(where, "amount must be a positive integer or 'fill'")
        if amount == "fill" and "per" in data:
            _fail(where, "a fill cannot be multiplied")
        if data.get("different") and (amount == "fill" or resource != "choice"):
            _fail(where, "different needs a choice of a fixed amount")
    elif do == "convert":
        _resource_map(f"{where} from", data.get("from"), ("any", "any_different"))
        _resource_map(f"{where} to", data.get("to"), ("vp",))
    elif do == "score":
        if not isinstance(data.get("vp"), int) or data["vp"] < 1:
            _fail(where, "score needs vp >= 1")
        bonus = data.get("bonus")
        if bonus is not None and ("per" not in data or not isinstance(bonus, dict) or set(bonus) != {"at", "vp"}):
            _fail(where, "bonus needs a per counter and {at, vp}")
    elif do in ("pull", "discount"):
        if not isinstance(data.get("amount"), int) or data["amount"] < 1:
            _fail(where, f"{do} needs amount >= 1")
    elif do == "neighbour_bonus" and (not isinstance(data.get("vp"), int) or data["vp"] < 1):
        _fail(where, "neighbour_bonus needs vp >= 1")
    return Effect(when, do, data)


def _drawn(effects: tuple[Effect, ...]) -> frozenset[str]:
    """Resources drawn in a tile's effects: what the icons show (counters of others excluded)."""
    found: set[str] = set()
    for effect in effects:
        if effect.do == "gain" and effect.get("resource") != "choice":
            found.add(effect.get("resource"))
        if effect.do == "gain" and effect.get("resource") == "choice" and effect.get("options") != ["any"]:
            found |= set(effect.get("options"))
        if effect.do == "convert":
            found |= {k for k in effect.get("from") if k in RESOURCES}
            found |= {k for k in effect.get("to") if k in RESOURCES}
        per = effect.get("per")
        if isinstance(per, dict) and per.get("count") == "here":
            found.add(per["resource"])
    return frozenset(found)


def _accepts(effects: tuple[Effect, ...], drawn: frozenset[str]) -> frozenset[str]:
    """What may be transported onto the tile: its drawn resources, everything for an "any" icon."""
    for effect in effects:
        if effect.do == "convert" and ({"any", "any_different"} & set(effect.get("from"))):
            return frozenset(RESOURCES)
        if effect.do == "gain" and effect.get("options") == ["any"]:
            return frozenset(RESOURCES)
    return drawn


def _tile(raw: Any) -> Tile:
    if not isinstance(raw, dict) or not isinstance(raw.get("slug"), str):
        _fail("tiles.json", f"every tile needs a slug: {raw!r}")
    where = f"tiles.json {raw['slug']}"
    known = {"slug", "name", "pile", "cost", "spaces", "effects", "source", "star", "copies", "note", "abbrev"}
    if set(raw) - known:
        _fail(where, f"unknown keys {sorted(set(raw) - known)}")
    if raw.get("pile") not in PILES:
        _fail(where, f"pile must be one of {PILES}")
    if raw.get("source") not in SOURCES:
        _fail(where, f"source must be one of {SOURCES}")
    cost = raw.get("cost", {})
    if not isinstance(cost, dict) or set(cost) - set(BUILD_RESOURCES):
        _fail(where, "cost takes wood and stone only")
    if any(not isinstance(v, int) or v < 0 for v in cost.values()):
        _fail(where, "cost counts must be integers >= 0")
    cost = {k: v for k, v in cost.items() if v}
    total = sum(cost.values())
    if raw["pile"] == "start" and total:
        _fail(where, "starting tiles cost nothing")
    if raw["pile"] != "start" and not 1 <= total <= 6:
        _fail(where, "costs run from 1 to 6 pieces")
    spaces = raw.get("spaces")
    if not isinstance(spaces, int) or not 0 <= spaces <= 8:
        _fail(where, "spaces must be 0-8")
    effects = tuple(_effect(f"{where} effect {i + 1}", e) for i, e in enumerate(raw.get("effects", [])))
    if raw["pile"] not in ("rebuild",) and not effects:
        _fail(where, "a building needs at least one effect")
    star = bool(raw.get("star", False))
    if star and raw["pile"] not in ("A", "B"):
        _fail(where, "only A and B tiles carry a star")
    copies = raw.get("copies", 1)
    if not isinstance(copies, int) or copies < 1:
        _fail(where, "copies must be a positive integer")
    drawn = _drawn(effects)
    places = any(e.do in ("gain",) or (e.do == "convert" and set(e.get("to")) - {"vp"}) for e in effects)
    if places and spaces == 0:
        _fail(where, "a tile that gains resources needs spaces")
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        _fail(where, "needs a name")
    abbrev = raw.get("abbrev") or "".join(w[0] for w in name.split())[:3].upper()
    return Tile(
        slug=raw["slug"],
        name=name,
        pile=raw["pile"],
        cost=cost,
        spaces=spaces,
        effects=effects,
        source=raw["source"],
        star=star,
        copies=copies,
        note=str(raw.get("note", "")),
        abbrev=abbrev,
        drawn=drawn,
        accepts=_accepts(effects, drawn),
    )


def term_uses(tiles: dict[str, Tile]) -> dict[str, int]:
    """How many tiles use each vocabulary term (effect kinds, timings, counters, any icons)."""
    uses: dict[str, int] = {}

    def bump(term: str, seen: set[str]) -> None:
        if term not in seen:
            seen.add(term)
            uses[term] = uses.get(term, 0) + 1

    for tile in tiles.values():
        seen: set[str] = set()
        for effect in tile.effects:
            bump(f"timing:{effect.when}", seen)
            bump(f"effect:{effect.do}", seen)
            per = effect.get("per")
            if isinstance(per, dict):
                bump(f"counter:{per['count']}", seen)
            if effect.do == "gain" and effect.get("options") == ["any"]:
                bump("icon:any" + ("_different" if effect.get("different") else ""), seen)
            if effect.do == "convert":
                for key in ("any", "any_different"):
                    if key in effect.get("from"):
                        bump(f"icon:{key}", seen)
    return uses


VOCABULARY = (
    *(f"timing:{t}" for t in TIMINGS),
    *(f"effect:{k}" for k in KINDS),
    *(f"counter:{c}" for c in COUNTERS),
    "icon:any",
    "icon:any_different",
)


def load_tiles(path: Path = DATA / "tiles.json") -> dict[str, Tile]:
    raw = json.loads(path.read_text(encoding="utf-8"))
    tiles: dict[str, Tile] = {}
    for entry in raw["tiles"]:
        tile = _tile(entry)
        if tile.slug in tiles:
            _fail("tiles.json", f"duplicate slug {tile.slug}")
        tiles[tile.slug] = tile
    return tiles


def load_rules(path: Path = DATA / "rules.json") -> Rules:
    raw = json.loads(path.read_text(encoding="utf-8"))
    titles = tuple((int(vp), str(title)) for vp, title in raw["solo_titles"])
    return Rules(
        rounds=int(raw["rounds"]),
        row_slots=int(raw["row_slots"]),
        route_cost=int(raw["route_cost"]),
        junction_cost=int(raw["junction_cost"]),
        upgrade_cost=int(raw["upgrade_cost"]),
        solo_basics=int(raw["solo_basics"]),
        solo_default=tuple(raw["solo_default"]),
        solo_removals={str(k): int(v) for k, v in raw["solo_removals"].items()},
        titles=tuple(sorted(titles)),
        start_cells={k: (int(v[0]), int(v[1])) for k, v in raw["start_cells"].items()},
        basic_piles=tuple((str(slug), int(n)) for slug, n in raw["basic_piles"]),
        rebuild_players=int(raw["rebuild_players"]),
        v_piles=int(raw["v_piles"]),
        default_order=tuple(raw["default_choice"]["order"]),
        decisions=tuple(str(line) for line in raw["decisions"]),
    )


def check_set(tiles: dict[str, Tile], rules: Rules) -> None:
    """Whole-set checks: pile sizes, starting tiles, solo defaults, vocabulary coverage."""
    by_pile: dict[str, int] = {}
    for tile in tiles.values():
        by_pile[tile.pile] = by_pile.get(tile.pile, 0) + tile.copies
    expected = {"A": 22, "B": 24, "V": 12}
    for pile, count in expected.items():
        if by_pile.get(pile, 0) != count:
            _fail("tiles.json", f"pile {pile} has {by_pile.get(pile, 0)} tiles, the game has {count}")
    for slug in rules.start_cells:
        if slug not in tiles or tiles[slug].pile != "start":
            _fail("rules.json", f"start tile {slug} is not a starting tile")
    if "rebuild" not in tiles or tiles["rebuild"].pile != "rebuild":
        _fail("tiles.json", "the Rebuild tile (slug rebuild) is missing")
    for slug in rules.solo_default:
        if slug not in tiles or tiles[slug].pile != "basic":
            _fail("rules.json", f"solo default {slug} is not a basic building")
    piled: dict[str, int] = {}
    for slug, count in rules.basic_piles:
        if slug not in tiles or tiles[slug].pile != "basic":
            _fail("rules.json", f"basic pile {slug} is not a basic building")
        piled[slug] = piled.get(slug, 0) + count
    for slug, tile in tiles.items():
        if tile.pile == "basic" and piled.get(slug, 0) != tile.copies:
            _fail("rules.json", f"basic piles hold {piled.get(slug, 0)} {slug}, tiles.json says {tile.copies}")
    if sorted(rules.default_order) != sorted(RESOURCES):
        _fail("rules.json", "default_choice order must list every resource once")
    if len(rules.solo_default) != rules.solo_basics:
        _fail("rules.json", f"solo_default must list {rules.solo_basics} buildings")
    uses = term_uses(tiles)
    missing = [term for term in VOCABULARY if uses.get(term, 0) < TERM_MIN_USES]
    if missing:
        _fail("tiles.json", f"vocabulary terms used by fewer than {TERM_MIN_USES} tiles: {', '.join(missing)}")


TILES: dict[str, Tile] = load_tiles()
RULES: Rules = load_rules()
check_set(TILES, RULES)

BASICS = tuple(slug for slug, t in TILES.items() if t.pile == "basic")
SPECIALS = {pile: tuple(s for s, t in TILES.items() if t.pile == pile) for pile in ("A", "B", "V")}
