"""The conformance suite sees every registered game plus the test game from tests/plugins."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import games
from games.base import GameManifest
from tests.contract.registry import PLUGIN_SLUG, plugin_registered


@pytest.fixture(scope="module")
def plugin_game() -> Iterator[GameManifest]:
    """Dice Duel registered through its entry point for one test module, then unregistered again.

    Module scope: registering costs an entry-point scan, and a module's tests run together; the
    teardown runs before the next module, so other test directories never see the game.
    """
    with plugin_registered():
        yield games.get_manifest(PLUGIN_SLUG)
