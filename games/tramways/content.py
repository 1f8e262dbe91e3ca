"""Loads and validates the Tramways data files (boards, cards, settings) on import.

Every board, card and rule constant lives in data/*.json, each project decision tagged there,
so a group owning the physical game can correct them without touching the engine. Bad data is
refused here with a message naming the entry, rather than surfacing later as a strange move.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"
DEST_ICONS = ("r", "c", "i", "l", "s")
# Played as an action of their own (/tram use) or within one, as further icons of the cards paying for it.
SIMPLE_ICONS = ("$1", "$2", "worker", "pax", "calm")
ACTION_ICONS = ("rail", "up", "build", "ticket")
ICONS = (*ACTION_ICONS, *DEST_ICONS, *SIMPLE_ICONS)
GROUPS = ("start", "auction", "development", "building", "station")
CONSEQUENCES = ("stress", "pay")
BUILDING_TYPES = ("R", "C", "I", "L")
# What players read for each building letter (the letters are what they type).
BUILDING_NAMES = {"R": "Residence", "C": "Commercial", "I": "Industry", "L": "Leisure", "S": "Station"}
BOARD_CHARS = set(".^~RCILP=|")


class ContentError(ValueError):
    """Bad data file content; the message names the file and entry."""


@dataclass(frozen=True)
class Card:
    slug: str
    name: str
    group: str
    icons: tuple[str, ...]
    copies: int = 1
    cost: int = 0
    consequence: str | None = None
    building: str | None = None  # the building type whose card this is (R, C, I, L, S)


def _load(name: str) -> Any:
    return json.loads((DATA / name).read_text())


def is_parcel_icon(icon: str) -> bool:
    return len(icon) > 1 and icon[0] == "p" and icon[1:].isdigit()


def _cards(raw: dict[str, Any]) -> dict[str, Card]:
    cards: dict[str, Card] = {}
    for slug, entry in raw["cards"].items():
        where = f"cards.json {slug}"
        icons = tuple(entry.get("icons", ()))
        if not icons or any(icon not in ICONS for icon in icons):
            raise ContentError(f"{where}: icons must be a non-empty list of {ICONS}, got {icons}")
        group = entry.get("group")
        if group not in GROUPS:
            raise ContentError(f"{where}: group must be one of {GROUPS}")
        consequence = entry.get("consequence")
        if consequence is not None and consequence not in CONSEQUENCES:
            raise ContentError(f"{where}: consequence must be one of {CONSEQUENCES}")
        if group == "development" and int(entry.get("cost", 0)) <= 0:
            raise ContentError(f"{where}: development cards need a cost")
        if ":" in slug or "+" in slug or slug != slug.lower():
            raise ContentError(f"{where}: card slugs are lower case without ':' or '+'")
        cards[slug] = Card(
            slug=slug,
            name=str(entry["name"]),
            group=group,
            icons=icons,
            copies=int(entry.get("copies", 1)),
            cost=int(entry.get("cost", 0)),
            consequence=consequence,
            building=entry.get("building"),
        )
    types = {card.building for card in cards.values() if card.group == "building"}
    if types != set(BUILDING_TYPES):
        raise ContentError(
            f"cards.json: one building card per type {BUILDING_TYPES} is needed, got {sorted(str(t) for t in types)}"
        )
    if not any(card.group == "station" and "s" in card.icons for card in cards.values()):
        raise ContentError("cards.json: the Station building card (with the s icon) is missing")
    return cards


def _boards(raw: dict[str, Any]) -> tuple[dict[str, tuple[str, ...]], dict[int, tuple[int, int]]]:
    boards: dict[str, tuple[str, ...]] = {}
    for key, rows in raw["boards"].items():
        if len(rows) != 5 or any(len(row) != 5 or set(row) - BOARD_CHARS for row in rows):
            raise ContentError(f"boards.json board {key}: 5 rows of 5 cells from {''.join(sorted(BOARD_CHARS))}")
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                if ch == "=" and (c == 0 or row[c - 1] not in "RCIL"):
                    raise ContentError(f"boards.json board {key}: '=' at row {r + 1} follows no building")
                if ch == "|" and (r == 0 or rows[r - 1][c] not in "RCIL"):
                    raise ContentError(f"boards.json board {key}: '|' at row {r + 1} is under no building")
        boards[key] = tuple(rows)
    if len(boards) < 8:
        raise ContentError("boards.json: at least 8 different boards are needed")
    layout: dict[int, tuple[int, int]] = {}
    for key, value in raw["layout"].items():
        if key.startswith("_"):
            continue
        cols, rows_ = int(value[0]), int(value[1])
        if cols * rows_ > len(boards) or cols * 5 > 26:
            raise ContentError(f"boards.json layout {key}: {cols}x{rows_} boards do not fit")
        layout[int(key)] = (cols, rows_)
    if sorted(layout) != [1, 2, 3, 4, 5]:
        raise ContentError("boards.json layout: one entry for each player count 1-5")
    return boards, layout


def _settings(raw: dict[str, Any]) -> dict[str, Any]:
    needed = (
        "rounds",
        "start_money",
        "start_workers",
        "rail_tiles",
        "stress_max",
        "hand_limit",
        "parcels_per_player",
        "auction_display_extra",
        "auction_rounds",
        "first_player_stress",
        "development_display",
        "free_discards",
        "discard_cost",
        "max_rails_per_action",
        "hill_extra_cost",
        "build_cost",
        "upgrade_building_cost",
        "upgrade_link_cost",
        "upgraded_link_factor",
        "upgraded_building_bonus_hp",
        "extra_icon_stress",
        "unpaid_stress_per_dollar",
        "max_open_links",
        "max_trip_links",
        "simple_icons_in_actions",
        "draft_order",
        "destination_bonus",
        "building_tiles",
        "station_cards",
        "station_passengers",
        "exchange_money",
        "park_stress",
        "master_unmoved_stress",
        "stress_penalty",
        "round_end_hp_loss",
        "money_per_hp",
        "decisions",
    )
    missing = [key for key in needed if key not in raw]
    if missing:
        raise ContentError(f"settings.json lacks {missing}")
    if len(raw["first_player_stress"]) != raw["rounds"]:
        raise ContentError("settings.json first_player_stress: one entry per round")
    if set(raw["destination_bonus"]) != {*BUILDING_TYPES, "S"}:
        raise ContentError("settings.json destination_bonus: one entry for each of R, C, I, L, S")
    if raw["draft_order"] not in ("snake", "same"):
        raise ContentError("settings.json draft_order: snake or same")
    for tag, _ in raw["decisions"]:
        if tag not in ("published", "expansion", "project"):
            raise ContentError(f"settings.json decisions: unknown source {tag}")
    return dict(raw)


CARDS: dict[str, Card] = _cards(_load("cards.json"))
PARCEL_EXTRA: tuple[str, ...] = tuple(_load("cards.json").get("parcel_card_extra", []))
BOARDS, LAYOUT = _boards(_load("boards.json"))
SETTINGS: dict[str, Any] = _settings(_load("settings.json"))
DEVELOPMENT = tuple(slug for slug, card in CARDS.items() if card.group == "development")
BUILDING_CARD = {card.building: slug for slug, card in CARDS.items() if card.building}


def parcel_card_slug(label: str) -> str:
    return f"parcel-{label.lower()}"


@lru_cache(maxsize=1024)
def card(slug: str) -> Card:
    """The card named ``slug``; parcel cards ("parcel-p3") are made from their label."""
    found = CARDS.get(slug)
    if found is not None:
        return found
    if slug.startswith("parcel-") and is_parcel_icon(slug[7:]):
        label = slug[7:].upper()
        return Card(slug, f"Parcel {label}", "auction", (slug[7:], *PARCEL_EXTRA))
    raise KeyError(slug)


def card_name(slug: str) -> str:
    return card(slug).name


def stress_penalty(stress: int) -> int:
    """HP lost at the end for this much stress (settings stress_penalty: [from, hp] steps)."""
    lost = 0
    for start, hp in SETTINGS["stress_penalty"]:
        if stress >= start:
            lost = hp
    return lost


def with_article(word: str) -> str:
    """``"an Industry"``, ``"a Residence"``: every building and card name here starts with its sound's letter."""
    return f"{'an' if word[:1].upper() in 'AEIOU' else 'a'} {word}"
