"""First drawings made when a render worker starts, so the first board a player asks for finds fonts,
palettes, map layers and glyphs already made (a cold first board costs 5 to 20 times a warm one).

The views come from each game's own ``setup`` and ``view`` (any registered game works the same way):
the smallest and largest player counts with the default options, public and as seat 0's private
view, then each option choice and flipped switch at the largest count (public). A worker draws them
in about a second, while the bot connects.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import games
from games.options import parse_options

log = logging.getLogger(__name__)
NAMES = ("warm-a", "warm-b", "warm-c", "warm-d", "warm-e", "warm-f")
SEED = 1


def option_texts(slug: str) -> list[str]:
    """The defaults, then every non-default choice and flipped switch, one at a time."""
    texts = [""]
    for spec in games.get_manifest(slug).spec.options:
        if spec.kind == "choice":
            texts += [f"{spec.name}={choice}" for choice in spec.choices if choice != spec.default]
        elif spec.kind == "bool":
            texts.append(f"{spec.name}={'off' if spec.default else 'on'}")
    return texts


def sample_views(slug: str) -> Iterator[tuple[dict[str, Any], int | None]]:
    """(view, focus) pairs of fresh games of ``slug``; set-ups the game refuses are left out."""
    spec = games.get_game(slug)
    tables = [(players, "") for players in sorted({spec.min_players, spec.max_players})]
    tables += [(spec.max_players, text) for text in option_texts(slug)[1:]]
    for players, text in tables:
        try:
            state = spec.setup(list(NAMES[:players]), parse_options(text, spec.options), SEED)
        except Exception:  # an option set this player count refuses: nothing to draw
            continue
        yield spec.view(state, None), None
        if not text:  # the private view's layout once per player count is enough
            yield spec.view(state, 0), 0


def draw_samples(slug: str) -> int:
    """Draw every sample view of ``slug`` once and return how many were drawn (errors are logged:
    a warm-up never stops a worker)."""
    from rendering import render

    drawn = 0
    try:
        for view, focus in sample_views(slug):
            render(view, focus)
            drawn += 1
    except Exception:
        log.exception("warming the renderer of %s failed", slug)
    return drawn
