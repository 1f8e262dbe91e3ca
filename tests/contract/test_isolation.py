"""The test game is registered only while a contract module asks for it.

This module does not use the ``plugin_game`` fixture: the modules before it did, and their
teardown must have put ``sys.path`` and the registry back, as other test directories expect.
"""

from __future__ import annotations

import sys

import games
from tests.contract.registry import PLUGIN_SLUG, PLUGINS, plugin_registered


def test_other_modules_do_not_see_the_test_game() -> None:
    assert str(PLUGINS) not in sys.path
    assert PLUGIN_SLUG not in games.available_slugs()
    assert PLUGIN_SLUG not in games.slugs()


def test_registering_is_undone() -> None:
    before = list(sys.path)
    with plugin_registered():
        assert PLUGIN_SLUG in games.available_slugs()
        assert games.game_for_group("dd") is not None
    assert sys.path == before
    assert PLUGIN_SLUG not in games.available_slugs()
    assert games.game_for_group("dd") is None
