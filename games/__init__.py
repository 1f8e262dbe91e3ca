"""The registry: every game package that declares a manifest in the ``tabletop_conductor.games``
entry-point group (pyproject.toml), built-in or installed separately.

Entry points are loaded lazily, one at a time, so a broken or slow game package cannot stop
the others. ``refresh()`` forgets what was found (tests add a game package at run time).
"""

from __future__ import annotations

import logging
from importlib.metadata import EntryPoint, entry_points

from games.base import GameManifest, GameSpec, IllegalMove, PlannedGame
from games.notation import suggest

ENTRY_POINT_GROUP = "tabletop_conductor.games"
log = logging.getLogger(__name__)

# On the roadmap, no engine yet: listed so players get a clear answer, not "unknown game".
PLANNED: dict[str, PlannedGame] = {}

_points: dict[str, EntryPoint] | None = None
_loaded: dict[str, GameManifest] = {}


def refresh() -> None:
    """Forget the registered games; the next lookup scans the entry points again."""
    global _points
    _points = None
    _loaded.clear()


def _entry_points() -> dict[str, EntryPoint]:
    global _points
    if _points is None:
        found = {point.name: point for point in entry_points(group=ENTRY_POINT_GROUP)}
        _points = dict(sorted(found.items()))
    return _points


def slugs() -> list[str]:
    return [*_entry_points(), *(slug for slug in PLANNED if slug not in _entry_points())]


def available_slugs() -> list[str]:
    return [slug for slug in _entry_points() if _importable(slug)]


def _importable(slug: str) -> bool:
    try:
        get_manifest(slug)
    except IllegalMove:
        return False
    return True


def get_manifest(slug: str) -> GameManifest:
    """The manifest for ``slug``; IllegalMove with a suggestion for unknown, planned or broken games."""
    slug = slug.lower()
    if slug in _loaded:
        return _loaded[slug]
    points = _entry_points()
    if slug in points:
        try:
            manifest = points[slug].load()
        except Exception:
            log.exception("game package %s failed to load", slug)
            raise IllegalMove(f"{slug} cannot be played right now (its package failed to load).") from None
        if not isinstance(manifest, GameManifest) or manifest.slug != slug:
            raise IllegalMove(f"{slug} is not registered correctly (its entry point must name its GameManifest).")
        _loaded[slug] = manifest
        return manifest
    known = list(points)
    if slug in PLANNED:
        raise IllegalMove(f"{PLANNED[slug].name} is not available yet. Available: {', '.join(known)}.")
    raise IllegalMove(f'Unknown game "{slug}"{suggest(slug, slugs())}. Available: {", ".join(known)}.')


def get_game(slug: str) -> GameSpec:
    """The engine for ``slug`` (see ``get_manifest``)."""
    return get_manifest(slug).spec


def manifests() -> list[GameManifest]:
    """Every registered game that loads."""
    return [get_manifest(slug) for slug in available_slugs()]


def warm_engines() -> None:
    """Build every registered engine's lookup tables (``GameSpec.warm``) in this process."""
    for manifest in manifests():
        if manifest.spec.warm is not None:
            manifest.spec.warm()


def game_for_group(group: str) -> GameSpec | None:
    """The engine whose slash-command group is ``group`` (``tt`` → Tiny Towns)."""
    for manifest in manifests():
        if manifest.spec.command_group == group:
            return manifest.spec
    return None
