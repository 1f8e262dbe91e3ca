"""rendering.render picks the game's module by the view's "game" slug, importing it lazily."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import rendering
from rendering import tiny_towns
from tests.rendering import synthetic

ROOT = Path(__file__).resolve().parents[2]


def test_render_dispatches_to_tiny_towns() -> None:
    view = synthetic.view(3, seed=2, viewer=1)
    assert rendering.render(view) == tiny_towns.render_board(view)
    assert rendering.render(view, focus=1) == tiny_towns.render_board(view, 1)


def test_unknown_game_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="chess"):
        rendering.render({"game": "chess"})


def test_every_game_has_a_module_and_none_is_imported_eagerly() -> None:
    assert rendering.RENDERERS == {"tiny-towns": "rendering.tiny_towns", "trains": "rendering.trains"}
    code = "import sys, rendering; print(sorted(m for m in sys.modules if m in rendering.RENDERERS.values()))"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"
