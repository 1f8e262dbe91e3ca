"""Loads and validates the Trains data files (cards, maps, rule constants) on import.

All card numbers, maps and project decisions live in data/*.json so a group that owns the
physical game can correct them; this module refuses bad data with a message naming the
entry, instead of letting a typo surface as a strange move later.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any, NoReturn

DATA = Path(__file__).parent / "data"
SOURCES = ("rulebook", "published", "project")
TYPES = ("train", "rail", "station", "action", "victory", "waste")
TERRAINS = ("plain", "river", "mountain", "sea", "city", "remote")
EFFECT_KINDS = {
    "none": (),
    "lay_rails": ("rails", "waste"),
    "station": ("waste",),
    "terminal": ("waste",),
    "draw": ("count",),
    "amusement_park": (),
    "command_central": ("draw",),
    "landfill": (),
    "early_train": (),
    "freight_train": ("money_per_waste",),
    "mail_train": ("money_per_card",),
    "track_vp": ("vp",),
    "rail_yard": ("money_per_rail",),
    "transfer": ("max",),
    "refurbishment": ("up_to",),
    "central_station": ("money", "draw", "waive", "waste"),
    "scrapyard": ("max",),
    "play_twice": ("target_type", "exclude"),
    "lost_and_found": (),
    "gain_waste": ("waste",),
    "sightseeing": ("vp_per_remote", "max"),
    "recycling": ("max",),
    "signal_box": ("money", "discount"),
}
WAIVABLE = ("river", "mountain", "city", "remote", "rails")


class ContentError(ValueError):
    """Bad data file content; the message names the file and entry."""


@dataclass(frozen=True)
class Card:
    slug: str
    name: str
    type: str
    cost: int
    money: int
    vp: int
    copies: int
    kingdom: bool
    text: str
    effect: dict[str, Any]
    optional: bool
    source: str
    sources: dict[str, str]
    on_buy_waste: int
    starting: int
    supply: bool
    buyable: bool
    copies_minus_starting: bool
    vp_per_rails: int

    # Cached: legal-move generation asks these for every card in hand on every call.
    @cached_property
    def kind(self) -> str:
        return str(self.effect["kind"])

    @cached_property
    def playable(self) -> bool:
        return self.type not in ("victory", "waste")


@dataclass(frozen=True)
class Place:
    hex: str
    name: str
    value: int  # station slots for a city, printed number for a remote location


@dataclass(frozen=True)
class GameMap:
    slug: str
    name: str
    source: str
    about: str
    columns: int
    rows: int
    terrain: dict[str, str]  # every hex label on the grid -> terrain
    cities: dict[str, Place]
    remotes: dict[str, Place]
    barriers: tuple[tuple[str, str], ...]
    neighbours: dict[str, tuple[str, ...]]  # land hexes only, barriers removed

    @property
    def land(self) -> list[str]:
        return [h for h, t in self.terrain.items() if t != "sea"]


def _fail(where: str, message: str) -> NoReturn:
    raise ContentError(f"{where}: {message}")


def _int(where: str, entry: dict[str, Any], key: str, low: int = 0, high: int = 10_000) -> int:
    value = entry.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        _fail(where, f'"{key}" must be a whole number from {low} to {high}, got {value!r}')
    return int(value)


def _source(where: str, value: Any) -> str:
    if value not in SOURCES:
        _fail(where, f"source must be one of {', '.join(SOURCES)}, got {value!r}")
    return str(value)


def load_cards(raw: dict[str, Any]) -> dict[str, Card]:
    cards: dict[str, Card] = {}
    for i, entry in enumerate(raw.get("cards", [])):
        where = f"cards.json entry {i} ({entry.get('slug', '?')})"
        slug = entry.get("slug")
        if not isinstance(slug, str) or not slug or slug != slug.lower() or " " in slug:
            _fail(where, "slug must be a lower-case hyphenated name")
        if slug in cards:
            _fail(where, "duplicate slug")
        if entry.get("type") not in TYPES:
            _fail(where, f"type must be one of {', '.join(TYPES)}")
        effect = entry.get("effect")
        if not isinstance(effect, dict) or effect.get("kind") not in EFFECT_KINDS:
            _fail(where, f"effect.kind must be one of {', '.join(EFFECT_KINDS)}")
        for key in EFFECT_KINDS[effect["kind"]]:
            if key not in effect:
                _fail(where, f'effect "{effect["kind"]}" needs "{key}"')
        for terrain in effect.get("waive", []):
            if terrain not in WAIVABLE:
                _fail(where, f"cannot waive {terrain!r}; choose from {', '.join(WAIVABLE)}")
        if effect["kind"] == "play_twice" and effect["target_type"] not in TYPES:
            _fail(where, "play_twice target_type must be a card type")
        sources = entry.get("sources", {})
        for field, src in sources.items():
            if field not in entry:
                _fail(where, f"sources names unknown field {field!r}")
            _source(where, src)
        cards[slug] = Card(
            slug=slug,
            name=str(entry.get("name") or slug),
            type=entry["type"],
            cost=_int(where, entry, "cost", 0, 20),
            money=_int(where, entry, "money", 0, 10),
            vp=_int(where, entry, "vp", 0, 20),
            copies=_int(where, entry, "copies", 0, 200),
            kingdom=bool(entry.get("kingdom", False)),
            text=str(entry.get("text", "")),
            effect=dict(effect),
            optional=bool(entry.get("optional", True)),
            source=_source(where, entry.get("source")),
            sources=dict(sources),
            on_buy_waste=int(entry.get("on_buy", {}).get("waste", 0)),
            starting=int(entry.get("starting", 0)),
            supply=bool(entry.get("supply", True)),
            buyable=bool(entry.get("buyable", True)),
            copies_minus_starting=bool(entry.get("copies_minus_starting", False)),
            vp_per_rails=int(entry.get("vp_per_rails", 0)),
        )
    if "waste" not in cards or cards["waste"].type != "waste":
        _fail("cards.json", 'a "waste" card of type waste is required')
    for slug, card in cards.items():
        for other in card.effect.get("exclude", []):
            if other not in cards:
                _fail(f"cards.json ({slug})", f"exclude names unknown card {other!r}")
    return cards


def hex_label(col: int, row: int) -> str:
    return f"{chr(ord('A') + col)}{row + 1}"


def parse_hex(label: str) -> tuple[int, int] | None:
    """(column, row) 0-based for a label such as ``E5``; None when malformed."""
    if len(label) < 2 or not label[0].isalpha() or not label[1:].isdigit():
        return None
    return ord(label[0].upper()) - ord("A"), int(label[1:]) - 1


def grid_neighbours(col: int, row: int) -> list[tuple[int, int]]:
    """Flat-topped hexes, odd columns (B, D, ...) half a hex lower ("odd-q")."""
    if col % 2 == 0:
        deltas = ((0, -1), (0, 1), (-1, -1), (-1, 0), (1, -1), (1, 0))
    else:
        deltas = ((0, -1), (0, 1), (-1, 0), (-1, 1), (1, 0), (1, 1))
    return [(col + dc, row + dr) for dc, dr in deltas]


def load_map(raw: dict[str, Any], file: str) -> GameMap:
    legend = raw.get("legend", {})
    grid = raw.get("grid")
    if not isinstance(grid, list) or not grid:
        _fail(file, "grid must be a list of rows")
    width = len(grid[0])
    terrain: dict[str, str] = {}
    for r, line in enumerate(grid):
        if len(line) != width:
            _fail(file, f"grid row {r + 1} has {len(line)} hexes, expected {width}")
        for c, ch in enumerate(line):
            if legend.get(ch) not in TERRAINS:
                _fail(file, f"hex {hex_label(c, r)}: unknown terrain symbol {ch!r}")
            terrain[hex_label(c, r)] = legend[ch]
    cities: dict[str, Place] = {}
    for h, entry in raw.get("cities", {}).items():
        if terrain.get(h) != "city":
            _fail(file, f"city {entry.get('name', h)} at {h}: that hex is not a city on the grid")
        cities[h] = Place(h, str(entry.get("name", h)), _int(f"{file} city {h}", entry, "slots", 1, 3))
    remotes: dict[str, Place] = {}
    for h, entry in raw.get("remotes", {}).items():
        if terrain.get(h) != "remote":
            _fail(file, f"remote location {entry.get('name', h)} at {h}: that hex is not remote on the grid")
        remotes[h] = Place(h, str(entry.get("name", h)), _int(f"{file} remote {h}", entry, "value", 1, 9))
    for h, t in terrain.items():
        if t == "city" and h not in cities:
            _fail(file, f"hex {h} is a city on the grid but has no entry in cities")
        if t == "remote" and h not in remotes:
            _fail(file, f"hex {h} is remote on the grid but has no entry in remotes")
    adjacency: dict[str, set[str]] = {}
    for h, t in terrain.items():
        if t == "sea":
            continue
        col, row = parse_hex(h)  # type: ignore[misc]
        adjacency[h] = {
            hex_label(c, r)
            for c, r in grid_neighbours(col, row)
            if 0 <= c < width and 0 <= r < len(grid) and terrain[hex_label(c, r)] != "sea"
        }
    barriers: list[tuple[str, str]] = []
    for pair in raw.get("barriers", []):
        if not isinstance(pair, list) or len(pair) != 2:
            _fail(file, f"barrier {pair!r} must be a pair of hexes")
        a, b = pair
        if a not in adjacency or b not in adjacency[a]:
            _fail(file, f"barrier {a}-{b} must join two adjacent land hexes")
        adjacency[a].discard(b)
        adjacency[b].discard(a)
        barriers.append((a, b))
    return GameMap(
        slug=str(raw.get("slug")),
        name=str(raw.get("name")),
        source=_source(file, raw.get("source")),
        about=str(raw.get("about", "")),
        columns=width,
        rows=len(grid),
        terrain=terrain,
        cities=cities,
        remotes=remotes,
        barriers=tuple(barriers),
        neighbours={h: tuple(sorted(n, key=hex_sort_key)) for h, n in adjacency.items()},
    )


def hex_sort_key(label: str) -> tuple[int, int]:
    parsed = parse_hex(label)
    return (parsed[0], parsed[1]) if parsed else (99, 99)


def _read(name: str) -> dict[str, Any]:
    path = DATA / name
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ContentError(f"{name}: not valid JSON ({exc})") from exc


def load_rules(raw: dict[str, Any]) -> dict[str, Any]:
    rules: dict[str, Any] = {}
    for key, entry in raw.items():
        if key in ("about", "decisions"):
            continue
        if not isinstance(entry, dict) or "value" not in entry:
            _fail(f"rules.json {key}", 'needs a "value"')
        _source(f"rules.json {key}", entry.get("source"))
        rules[key] = entry["value"]
    for i, decision in enumerate(raw.get("decisions", [])):
        _source(f"rules.json decision {i}", decision.get("source"))
    if rules.get("share_waste") not in ("once", "per_token"):
        _fail("rules.json share_waste", "must be once or per_token")
    if len(rules.get("station_bonus", [])) != 4:
        _fail("rules.json station_bonus", "needs the bonus for 0, 1, 2 and 3 stations")
    return rules


RULES: dict[str, Any] = load_rules(_read("rules.json"))
DECISIONS: list[dict[str, str]] = _read("rules.json").get("decisions", [])
CARDS: dict[str, Card] = load_cards(_read("cards.json"))
MAP_NAMES: tuple[str, ...] = ("tokyo", "osaka")
MAPS: dict[str, GameMap] = {name: load_map(_read(f"maps/{name}.json"), f"maps/{name}.json") for name in MAP_NAMES}
KINGDOM: tuple[str, ...] = tuple(slug for slug, c in CARDS.items() if c.kingdom)


def _check_cross_references() -> None:
    for slug in RULES["basic_supply"]:
        if slug not in CARDS or CARDS[slug].kingdom:
            _fail("rules.json basic_supply", f"{slug!r} is not a basic card in cards.json")
    for slug in RULES["starting_deck"]:
        if slug not in CARDS:
            _fail("rules.json starting_deck", f"unknown card {slug!r}")
    if len(KINGDOM) < RULES["kingdom_size"]:
        _fail("cards.json", f"needs at least {RULES['kingdom_size']} kingdom cards")


_check_cross_references()


def card(slug: str) -> Card:
    return CARDS[slug]


@cache
def station_slots_total(map_slug: str) -> int:
    return sum(p.value for p in MAPS[map_slug].cities.values())
