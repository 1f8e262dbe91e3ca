"""rendering.render finds the game's renderer through its manifest, importing it lazily."""

from __future__ import annotations

import dataclasses
import logging
import subprocess
import sys
import types
from pathlib import Path

import pytest

import games
import rendering
from games.base import PlannedGame
from rendering import tiny_towns
from tests.rendering import synthetic

ROOT = Path(__file__).resolve().parents[2]


def run(code: str) -> str:
    """``code`` in a fresh interpreter, so what an import pulls in is not hidden by this process's imports."""
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    return result.stdout.strip()


def test_render_dispatches_through_the_manifest() -> None:
    assert games.get_manifest("tiny-towns").renderer == "rendering.tiny_towns"
    assert rendering.renderer_for("tiny-towns") is tiny_towns
    view = synthetic.view(3, seed=2, viewer=1)
    assert rendering.render(view) == tiny_towns.render_board(view)
    assert rendering.render(view, focus=1) == tiny_towns.render_board(view, 1)


def test_unknown_planned_or_missing_game_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(games.PLANNED, "next-game", PlannedGame("next-game", "Next Game", "next", 1, 4))
    with pytest.raises(ValueError, match="chess"):
        rendering.render({"game": "chess"})
    with pytest.raises(ValueError, match="not available yet"):
        rendering.render({"game": "next-game"})  # planned: listed, but no engine and no renderer
    with pytest.raises(ValueError, match="game"):
        rendering.render({"players": []})


def fake_renderer(monkeypatch: pytest.MonkeyPatch, slug: str, module_name: str) -> None:
    """Register ``slug`` as Tiny Towns with another renderer module, the way a new game package would."""
    manifest = dataclasses.replace(games.get_manifest("tiny-towns"), renderer=module_name)
    real = games.get_manifest
    monkeypatch.setattr(games, "get_manifest", lambda wanted: manifest if wanted == slug else real(wanted))


def test_a_new_game_brings_its_own_renderer(monkeypatch: pytest.MonkeyPatch) -> None:
    module = types.ModuleType("fake_board")
    module.render_board = lambda view, focus: f"{view['game']}:{focus}".encode()  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "fake_board", module)
    fake_renderer(monkeypatch, "dominoes", "fake_board")
    assert rendering.render({"game": "dominoes"}, 2) == b"dominoes:2"


def test_no_renderer_is_imported_eagerly() -> None:
    code = (
        "import sys, rendering, games\n"
        "wanted = {m.renderer for m in games.manifests()}\n"
        "print(len(wanted), sorted(wanted & set(sys.modules)))"
    )
    count, imported = run(code).split(" ", 1)
    assert int(count) >= 2 and imported == "[]"


def test_warm_imports_every_registered_renderer() -> None:
    code = (
        "import sys, rendering, games\n"
        "warmed = rendering.warm()\n"
        "print(sorted(warmed) == sorted(m.renderer for m in games.manifests()), "
        "all(name in sys.modules for name in warmed), len(warmed))"
    )
    same, imported, count = run(code).split()
    assert same == "True" and imported == "True" and int(count) >= 2


def test_warm_skips_a_broken_renderer(monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    fake_renderer(monkeypatch, "broken", "rendering.no_such_renderer")
    with caplog.at_level(logging.ERROR, logger="rendering"):
        assert rendering.warm(["broken", "tiny-towns"]) == ["rendering.tiny_towns"]
    assert "broken" in caplog.text
