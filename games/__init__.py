"""Registry of games by slug.

Engines are imported lazily so a broken or slow game package cannot stop the others.
"""

from __future__ import annotations

import importlib

from games.base import GameSpec, IllegalMove, PlannedGame
from games.notation import suggest

# slug -> module exposing GAME: GameSpec
_ENGINES: dict[str, str] = {
    "tiny-towns": "games.tiny_towns",
    "trains": "games.trains",
}

# On the roadmap, no engine yet: listed so players get a clear answer, not "unknown game".
PLANNED: dict[str, PlannedGame] = {
    "trolley-town": PlannedGame("trolley-town", "My Trolley Town", "trolley", 1, 4),
    "tramways": PlannedGame("tramways", "Tramways", "tram", 1, 5),
}


def slugs() -> list[str]:
    return [*_ENGINES, *PLANNED]


def available_slugs() -> list[str]:
    return [slug for slug in _ENGINES if _importable(slug)]


def _importable(slug: str) -> bool:
    try:
        get_game(slug)
    except (IllegalMove, ImportError):
        return False
    return True


def get_game(slug: str) -> GameSpec:
    """The engine for ``slug``; IllegalMove with a suggestion for unknown or planned games."""
    slug = slug.lower()
    if slug in _ENGINES:
        module = importlib.import_module(_ENGINES[slug])
        return module.GAME
    if slug in PLANNED:
        raise IllegalMove(f"{PLANNED[slug].name} is not available yet. Available: {', '.join(_ENGINES)}.")
    raise IllegalMove(f'Unknown game "{slug}"{suggest(slug, slugs())}. Available: {", ".join(_ENGINES)}.')


def game_for_group(group: str) -> GameSpec | None:
    """The engine whose slash-command group is ``group`` (``tt`` → Tiny Towns)."""
    for slug in _ENGINES:
        game = get_game(slug)
        if game.command_group == group:
            return game
    return None
