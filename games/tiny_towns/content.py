"""Loads and validates the Tiny Towns data files once, at import.

Everything a group might want to correct (patterns, VP tables, project decisions) lives in
data/*.json; this module only checks it is well formed and exposes it in handy shapes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

_DATA = Path(__file__).with_name("data")
_PATTERN_CHARS = set("WHBGS.")


class ContentError(ValueError):
    """A data file is malformed; the message names the bad entry."""


def _load(name: str) -> dict[str, Any]:
    try:
        with (_DATA / name).open(encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, json.JSONDecodeError) as exc:
        raise ContentError(f"tiny_towns/data/{name}: {exc}") from exc
    if not isinstance(data, dict):
        raise ContentError(f"tiny_towns/data/{name}: top level must be an object")
    return data


def _check_pattern(where: str, pattern: Any) -> None:
    if not isinstance(pattern, list) or not pattern or not all(isinstance(r, str) for r in pattern):
        raise ContentError(f"{where}: pattern must be a non-empty list of row strings")
    if len({len(row) for row in pattern}) != 1:
        raise ContentError(f"{where}: pattern rows must have equal length")
    if any(ch not in _PATTERN_CHARS for row in pattern for ch in row):
        raise ContentError(f"{where}: pattern may only use W H B G S and '.'")
    if sum(ch != "." for row in pattern for ch in row) < 2:
        raise ContentError(f"{where}: pattern needs at least 2 resources")


def _check_entry(where: str, entry: Any, required: tuple[str, ...]) -> None:
    if not isinstance(entry, dict):
        raise ContentError(f"{where}: must be an object")
    missing = [key for key in required if key not in entry]
    if missing:
        raise ContentError(f"{where}: missing {', '.join(missing)}")
    _check_pattern(where, entry["pattern"])
    effect = entry["effect"]
    if not isinstance(effect, dict) or "kind" not in effect:
        raise ContentError(f"{where}: effect must be an object with a kind")


_KNOWN_EFFECTS = {
    "fed",
    "flat",
    "adjacent_cottages",
    "adjacent_colour",
    "not_adjacent_colour",
    "per_fed_cottage",
    "corner_count",
    "adjacent_fed_cottages",
    "count_table",
    "alone_in_lines",
    "feast_hall",
    "types_in_lines",
    "best_line_count",
    "centre_count",
    "per_stored",
    "distinct_types",
    "adjacent_types",
    "shrine",
    "largest_group",
    "missing_types",
    "completion_place",
}


def _validate() -> tuple[dict[str, Any], dict[str, dict[str, Any]], list[str], list[str], dict[str, Any]]:
    raw_buildings = _load("buildings.json")
    raw_monuments = _load("monuments.json")
    rules = _load("rules.json")
    colours = raw_buildings.get("colours")
    if colours != ["blue", "red", "gray", "orange", "green", "yellow", "black"]:
        raise ContentError("buildings.json: colours must list blue red gray orange green yellow black")
    catalogue: dict[str, dict[str, Any]] = {}
    base: list[str] = []
    per_colour: dict[str, int] = {colour: 0 for colour in colours}
    for i, entry in enumerate(raw_buildings.get("buildings", [])):
        where = f"buildings.json entry {i} ({entry.get('slug', '?') if isinstance(entry, dict) else '?'})"
        _check_entry(where, entry, ("slug", "name", "colour", "pattern", "effect", "text"))
        if entry["colour"] not in per_colour:
            raise ContentError(f"{where}: unknown colour {entry['colour']}")
        if entry["effect"]["kind"] not in _KNOWN_EFFECTS:
            raise ContentError(f"{where}: unknown effect kind {entry['effect']['kind']}")
        if entry["slug"] in catalogue:
            raise ContentError(f"{where}: duplicate slug")
        per_colour[entry["colour"]] += 1
        catalogue[entry["slug"]] = {**entry, "monument": False}
        base.append(entry["slug"])
    if per_colour["blue"] != 1 or catalogue.get("cottage", {}).get("colour") != "blue":
        raise ContentError("buildings.json: exactly one blue building, the cottage")
    for colour in colours[1:]:
        if per_colour[colour] != 4:
            raise ContentError(f"buildings.json: colour {colour} needs 4 buildings, has {per_colour[colour]}")
    monuments: list[str] = []
    for i, entry in enumerate(raw_monuments.get("monuments", [])):
        where = f"monuments.json entry {i} ({entry.get('slug', '?') if isinstance(entry, dict) else '?'})"
        _check_entry(where, entry, ("slug", "name", "pattern", "effect", "text"))
        if entry["effect"]["kind"] not in _KNOWN_EFFECTS:
            raise ContentError(f"{where}: unknown effect kind {entry['effect']['kind']}")
        if entry["slug"] in catalogue:
            raise ContentError(f"{where}: duplicate slug")
        catalogue[entry["slug"]] = {**entry, "colour": raw_monuments.get("colour", "pink"), "monument": True}
        monuments.append(entry["slug"])
    if len(monuments) != 15:
        raise ContentError(f"monuments.json: expected 15 monuments, found {len(monuments)}")
    resources = rules.get("resources")
    if not isinstance(resources, dict) or sorted(resources.values()) != sorted("WHBGS"):
        raise ContentError("rules.json: resources must map the 5 resource names to W H B G S")
    for key in ("first_game", "solo", "town_hall", "cave", "decisions", "tie_breaks"):
        if key not in rules:
            raise ContentError(f"rules.json: missing {key}")
    for slug in rules["first_game"]:
        if slug not in base:
            raise ContentError(f"rules.json first_game: unknown building {slug}")
    for slug in rules["solo"]["removed"]:
        if slug not in catalogue:
            raise ContentError(f"rules.json solo.removed: unknown card {slug}")
    return rules, catalogue, base, monuments, raw_buildings


RULES, CATALOGUE, BASE_BUILDINGS, MONUMENTS, _RAW = _validate()
COLOURS: list[str] = _RAW["colours"]
RESOURCES: list[str] = list(RULES["resources"])
LETTER: dict[str, str] = dict(RULES["resources"])
RESOURCE_OF: dict[str, str] = {letter: name for name, letter in LETTER.items()}
# Stable order used for canonical notation (e.g. Opaleye's set-aside list) and the catalog.
ORDER: dict[str, int] = {slug: i for i, slug in enumerate(CATALOGUE)}
BY_COLOUR: dict[str, list[str]] = {c: [s for s in BASE_BUILDINGS if CATALOGUE[s]["colour"] == c] for c in COLOURS}


def normalise_name(word: str) -> str:
    """Lower-case, drop apostrophes, underscores to hyphens: the key used for ALIASES."""
    return word.lower().replace("'", "").replace("\u2019", "").replace("_", "-")


def _aliases() -> dict[str, str]:
    table: dict[str, str] = {}
    for slug, entry in CATALOGUE.items():
        table[slug] = slug
        table[normalise_name(entry["name"]).replace(" ", "-")] = slug
        for alias in entry.get("aliases", []):
            table[normalise_name(alias)] = slug
    return table


ALIASES: dict[str, str] = _aliases()


def lookup(word: str) -> str | None:
    """The slug a player's word names (building or monument), or None."""
    return ALIASES.get(normalise_name(word))


def name(slug: str) -> str:
    return CATALOGUE[slug]["name"]


def pattern_text(slug: str) -> str:
    return " / ".join(" ".join(row) for row in CATALOGUE[slug]["pattern"])
