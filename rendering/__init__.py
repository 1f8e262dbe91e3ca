"""View dict -> PNG bytes, for every game.

Pure functions (no I/O, no asyncio): the host calls them in a worker thread. Each game's
renderer lives in its own module, imported on first use so one broken renderer cannot
stop the others; it exposes ``render_board(view, focus) -> bytes``.
"""

from __future__ import annotations

import importlib
from typing import Any

from rendering.standings import render_standings

__all__ = ["RENDERERS", "render", "render_standings"]

# game slug -> module exposing render_board(view, focus) -> bytes
RENDERERS: dict[str, str] = {
    "tiny-towns": "rendering.tiny_towns",
    "trains": "rendering.trains",
}


def render(view: dict[str, Any], focus: int | None = None) -> bytes:
    """The board image for ``view`` (a game's view dict): all players, or seat ``focus`` in detail."""
    game = view.get("game")
    if game not in RENDERERS:
        raise ValueError(f"no renderer for game {game!r}; known: {', '.join(RENDERERS)}")
    module = importlib.import_module(RENDERERS[game])
    return module.render_board(view, focus)
