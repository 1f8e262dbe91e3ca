"""Registering the test game package (tests/plugins) the way an installed game registers.

``tests/plugins`` holds the ``dice_duel`` package and its committed dist-info, whose
``entry_points.txt`` declares it in the ``tabletop_conductor.games`` group. Putting the folder on
``sys.path`` is all "installing" takes: ``importlib.metadata`` finds the dist-info there, and
``games.refresh()`` makes the registry scan the entry points again.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib.metadata import entry_points
from pathlib import Path
from typing import cast

import games
from games.base import State

ROOT = Path(__file__).resolve().parents[2]
PLUGINS = ROOT / "tests" / "plugins"
PLUGIN_SLUG = "dice-duel"
PLUGIN_DIST = "conductor-dice-duel"


@contextmanager
def plugin_registered() -> Iterator[None]:
    """The test game is registered inside the block; afterwards ``sys.path`` and the registry are as
    they were, so tests elsewhere never see an extra game."""
    saved = list(sys.path)
    if str(PLUGINS) not in sys.path:
        sys.path.insert(0, str(PLUGINS))
    importlib.invalidate_caches()
    games.refresh()
    try:
        yield
    finally:
        sys.path[:] = saved
        importlib.invalidate_caches()
        games.refresh()


def find_redeal(slug: str) -> Callable[[State, int, int], State] | None:
    """The game's optional ``redeal(state, seat, seed) -> State``, from its rules or view module."""
    package = package_of(slug)
    for name in ("rules", "view"):
        helper = getattr(importlib.import_module(f"{package}.{name}"), "redeal", None)
        if callable(helper):
            return cast(Callable[[State, int, int], State], helper)
    return None


def package_of(slug: str) -> str:
    """The import name of the package that registered ``slug`` (``games.trains``, ``dice_duel``)."""
    for point in entry_points(group=games.ENTRY_POINT_GROUP):
        if point.name == slug:
            return point.module
    raise LookupError(f"{slug} has no entry point in {games.ENTRY_POINT_GROUP}")
