"""Setup options and the initial state."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.base import IllegalMove, OptionSpec
from games.notation import suggest
from games.rng import Rng, seed_state
from games.tiny_towns.content import (
    BASE_BUILDINGS,
    BY_COLOUR,
    CATALOGUE,
    COLOURS,
    MONUMENTS,
    RESOURCES,
    RULES,
    lookup,
)

RULES_VERSION = "1"
SLUG = "tiny-towns"
MIN_PLAYERS = 1
MAX_PLAYERS = 6

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "buildings",
        "text",
        "random",
        "random (one card per colour), first-game, or a comma list of 6 buildings, one per colour "
        "(cottage is always in play)",
    ),
    OptionSpec(
        "monuments",
        "text",
        "off",
        "off, on (each player is dealt 2 and secretly keeps 1), or a comma list of monuments dealt "
        "2 per seat in seat order",
    ),
    OptionSpec("cave", "bool", False, "cave rule: twice per game set aside a resource named by another player"),
    OptionSpec(
        "variant",
        "choice",
        "standard",
        "standard or town-hall (resource deck); 1 player plays solo",
        ("standard", "town-hall"),
    ),
)
_DEFAULTS = {spec.name: spec.default for spec in OPTIONS}


def _as_words(value: Any) -> list[str]:
    words = [str(v) for v in value] if isinstance(value, (list, tuple)) else str(value).split(",")
    return [w.strip().lower() for w in words if w.strip()]


def _choose_buildings(value: Any, solo: bool, rng: Rng) -> list[str]:
    words = _as_words(value)
    removed = set(RULES["solo"]["removed"]) if solo else set()
    if words in ([], ["random"]):
        return ["cottage"] + [rng.choice([s for s in BY_COLOUR[c] if s not in removed]) for c in COLOURS[1:]]
    if words == ["first-game"]:
        return list(RULES["first_game"])
    chosen: dict[str, str] = {"blue": "cottage"}
    for word in words:
        slug = lookup(word)
        if slug is None or CATALOGUE[slug]["monument"]:
            raise IllegalMove(
                f'buildings: unknown building "{word}"{suggest(word, BASE_BUILDINGS)}. '
                "Use random, first-game, or one building per colour."
            )
        colour = CATALOGUE[slug]["colour"]
        if colour in chosen and chosen[colour] != slug:
            raise IllegalMove(
                f"buildings: {CATALOGUE[chosen[colour]]['name']} and {CATALOGUE[slug]['name']} are both "
                f"{colour}; choose one building per colour."
            )
        chosen[colour] = slug
    missing = [c for c in COLOURS if c not in chosen]
    if missing:
        options = "; ".join(f"{c}: {', '.join(BY_COLOUR[c])}" for c in missing)
        raise IllegalMove(f"buildings: no {', '.join(missing)} building chosen ({options}).")
    # Solo removes some cards: a listed one is swapped for the first other card of its colour.
    for colour, slug in chosen.items():
        if slug in removed:
            chosen[colour] = next(s for s in BY_COLOUR[colour] if s not in removed)
    return [chosen[c] for c in COLOURS]


_NO_MONUMENTS: tuple[list[str], ...] = ([], ["off"], ["no"], ["false"])
_RANDOM_MONUMENTS: tuple[list[str], ...] = (["on"], ["yes"], ["true"], ["random"])


def _deal_monuments(value: Any, players: int, solo: bool, rng: Rng) -> list[list[str]] | None:
    words = _as_words(value)
    if words in _NO_MONUMENTS:
        return None
    removed = set(RULES["solo"]["removed"]) if solo else set()
    per_seat = RULES["monuments_dealt"]
    if words in _RANDOM_MONUMENTS:
        deck = rng.shuffled([m for m in MONUMENTS if m not in removed])
    else:
        deck = []
        for word in words:
            slug = lookup(word)
            if slug is None or not CATALOGUE[slug]["monument"]:
                raise IllegalMove(
                    f'monuments: unknown monument "{word}"{suggest(word, MONUMENTS)}. '
                    "Use off, on, or a comma list of monuments."
                )
            if slug in deck:
                raise IllegalMove(f"monuments: {CATALOGUE[slug]['name']} is listed twice.")
            deck.append(slug)
        # Solo skips the monuments it does not use; names beyond 2 per player are not dealt.
        deck = [slug for slug in deck if slug not in removed]
        if len(deck) < per_seat * players:
            raise IllegalMove(
                f"monuments: list at least {per_seat * players} monuments ({per_seat} per player"
                + (", not counting Fort Ironweed and Opaleye's Watch in solo" if solo else "")
                + f"), not {len(deck)}."
            )
    return [deck[per_seat * s : per_seat * (s + 1)] for s in range(players)]


def new_town() -> dict[str, Any]:
    return {
        "cells": [None] * 16,
        "placed": False,
        "done": False,
        "skipped": False,
        "complete": False,
        "completed_round": None,
        "resigned": False,
        "monument": None,
        "monument_options": None,
        "monument_built": False,
        "monument_round": None,
        "times_master_builder": 0,
        "cave_used": 0,
        "cave": [],
        "shrine_vp": None,
        "aside": [],
        "pending_claims": [],
    }


def setup_state(players: Sequence[str], options: Mapping[str, Any], seed: int) -> dict[str, Any]:
    """Initial state before the first round starts (rules.setup starts it)."""
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise IllegalMove(f"Tiny Towns is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}.")
    unknown = [key for key in options if key not in _DEFAULTS]
    if unknown:
        raise IllegalMove(f'Unknown option "{unknown[0]}"{suggest(unknown[0], _DEFAULTS)}.')
    opts = {**_DEFAULTS, **dict(options)}
    variant = str(opts["variant"]).lower()
    if variant not in ("standard", "town-hall"):
        raise IllegalMove(f"Option variant must be standard or town-hall, not {opts['variant']}.")
    cave = opts["cave"]
    if isinstance(cave, str):
        cave = cave.lower() in ("on", "yes", "true", "1")
    solo = len(players) == 1
    # One player always plays the solo variant, which has no Town Hall and no cave rule. (The host
    # also dry-runs setup with one player to check options, so these must not be errors.)
    if solo:
        cave = False
    rng = Rng(seed_state(seed))
    buildings = _choose_buildings(opts["buildings"], solo, rng)
    dealt = _deal_monuments(opts["monuments"], len(players), solo, rng)
    towns = [new_town() for _ in players]
    if dealt:
        for town, hand in zip(towns, dealt, strict=True):
            town["monument_options"] = hand
    state: dict[str, Any] = {
        "game": SLUG,
        "rules_version": RULES_VERSION,
        "names": list(players),  # display names by seat (games.base.NAMES_KEY)
        "variant": "solo" if solo else variant,
        "cave_rule": bool(cave),
        "monuments": dealt is not None,
        "buildings": buildings,
        "phase": "monuments" if dealt else "announce",
        "round": 1,
        "master_builder": None,
        "resource": None,
        "source": None,
        "named_by": None,
        "towns": towns,
        "town_hall": None,
        "solo": None,
        "rng": 0,
    }
    per = RULES["town_hall"]["cards_per_resource"]
    if state["variant"] == "town-hall":
        deck = rng.shuffled([r for r in RESOURCES for _ in range(per)])
        discard = RULES["town_hall"]["discard_face_down"]
        state["town_hall"] = {
            "mayor": RULES["town_hall"]["mayor_seat"],
            "draw_pile": deck[discard:],
            "discards": deck[:discard],
            "revealed": None,
        }
    elif solo:
        deck = rng.shuffled([r for r in RESOURCES for _ in range(RULES["solo"]["cards_per_resource"])])
        shown = RULES["solo"]["revealed"]
        state["solo"] = {"revealed": deck[:shown], "deck": deck[shown:]}
    state["rng"] = rng.state
    return state
