"""View dict -> PNG bytes, for every game.

Pure functions (no I/O, no asyncio): the host calls them in a worker thread or process. Each
game names its renderer module in its manifest (``GameManifest.renderer``, a module exposing
``render_board(view, focus) -> bytes``); it is imported on first use so one broken renderer
cannot stop the others, and a game installed as a separate package brings its own.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Iterable
from types import ModuleType
from typing import Any

import games
from games.base import IllegalMove
from rendering.standings import render_standings

__all__ = ["render", "render_aborted", "render_standings", "renderer_for", "warm"]
log = logging.getLogger(__name__)


def renderer_for(game: str) -> ModuleType:
    """The renderer module of the registered game ``game`` (imported now if it was not yet)."""
    try:
        manifest = games.get_manifest(game)
    except IllegalMove as exc:
        raise ValueError(f"no renderer for game {game!r}: {exc.message}") from None
    return importlib.import_module(manifest.renderer)


def render(view: dict[str, Any], focus: int | None = None) -> bytes:
    """The board image for ``view`` (a game's view dict): all players, or seat ``focus`` in detail."""
    game = view.get("game")
    if not isinstance(game, str) or not game:
        raise ValueError(f'a view names its game under "game", got {game!r}')
    return renderer_for(game).render_board(view, focus)


def render_aborted(view: dict[str, Any], focus: int | None = None) -> bytes:
    """The last board of an aborted game with a band across its top saying so, for every game."""
    import io

    from PIL import Image

    from rendering.theme import draw_text, to_png_fast

    with Image.open(io.BytesIO(render(view, focus))) as drawn:
        board = drawn.convert("RGB")
    band = max(28, board.height // 14)
    image = Image.new("RGB", (board.width, board.height + band), (150, 30, 30))
    image.paste(board, (0, band))
    # A tall narrow board would make the band's text wider than the board: draw_text shrinks it to fit.
    draw_text(image, (0, 0, board.width, band), "GAME ABORTED", min(48, int(band * 0.6)), (255, 255, 255), max_lines=1)
    return to_png_fast(image)


def warm(slugs: Iterable[str] | None = None, draw: bool = True) -> list[str]:
    """Import the renderers of ``slugs`` (default: every registered game) ahead of the first board,
    and (``draw``) draw each game's fresh boards once (``rendering.warmup``) so fonts, palettes and
    map layers are made before any player waits for them.

    Render worker processes call this once when they start. A renderer that fails to import is
    logged and skipped: the other games still draw. Returns the module names that imported.
    """
    from rendering import warmup

    warmed = []
    for slug in games.available_slugs() if slugs is None else slugs:
        try:
            warmed.append(renderer_for(slug).__name__)
        except Exception:
            log.exception("the renderer of %s failed to import", slug)
            continue
        if draw:
            warmup.draw_samples(slug)
    return warmed
