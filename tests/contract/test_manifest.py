"""What every game package declares: its layout, manifest, capabilities and command schema."""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path

import pytest

import games
from games.base import GameManifest, IllegalMove
from games.options import parse_options
from games.schema import check_schema
from tests.contract.cases import BUILTIN_SLUGS, NAMES, SLUGS, option_sets
from tests.contract.registry import PLUGIN_SLUG, PLUGINS, ROOT, package_of

pytestmark = pytest.mark.usefixtures("plugin_game")
MODULES = ("content", "rules", "notation", "view", "scoring", "ai", "help")


def manifest(slug: str) -> GameManifest:
    return games.get_manifest(slug)


def package_dir(slug: str) -> Path:
    spec = importlib.util.find_spec(package_of(slug))
    assert spec is not None and spec.submodule_search_locations, f"{slug}: its package cannot be found"
    return Path(next(iter(spec.submodule_search_locations))).resolve()


@pytest.mark.parametrize("slug", SLUGS)
def test_package_has_the_standard_modules(slug: str) -> None:
    """One game = one package with the same inner modules, so a reader finds the rules, the notation
    or the bot of any game in the same place. Built-ins live under games/, the test game under
    tests/plugins (like a separately installed package)."""
    where = package_dir(slug)
    if slug in BUILTIN_SLUGS and package_of(slug).startswith("games."):
        assert where.parent == ROOT / "games", where
    if slug == PLUGIN_SLUG:
        assert where.parent == PLUGINS, where
    missing = [
        name
        for name in MODULES
        if not (where / f"{name}.py").is_file() and not (where / name / "__init__.py").is_file()
    ]
    assert not missing, f"{slug} ({where}) lacks the modules {missing}"
    for name in MODULES:
        importlib.import_module(f"{package_of(slug)}.{name}")


@pytest.mark.parametrize("slug", SLUGS)
def test_declared_schema_is_valid(slug: str) -> None:
    """The verbs satisfy Discord's limits (games.schema.check_schema), and names are unique."""
    spec = manifest(slug).spec
    assert check_schema(spec.command_group, spec.verbs) == []
    names = [verb.name for verb in spec.verbs]
    assert len(set(names)) == len(names), names


@pytest.mark.parametrize("slug", SLUGS)
def test_a_bare_verb_ends_the_turn(slug: str) -> None:
    """At least one verb ends a turn or phase (it gets the Done/Pass button) and takes no required
    slot; a game without one must say why in its GameType (``no_turn_ender``, a reason)."""
    found = manifest(slug)
    enders = [verb for verb in found.spec.verbs if verb.ends_turn]
    if not enders:
        reason = getattr(found.game_type, "no_turn_ender", "")
        assert reason, f"{slug}: no verb has ends_turn=True and its GameType gives no reason"
        return
    for verb in enders:
        assert not any(slot.required for slot in verb.slots), f"{slug} {verb.name}: a button cannot fill slots"
        assert found.spec.parse(f"/{found.spec.command_group} {verb.name}")


@pytest.mark.parametrize("slug", SLUGS)
def test_capabilities_match_the_spec(slug: str) -> None:
    """The GameType says what the spec provides: modules are declared options, hidden hands come
    with a private summary (/game hand), secret choices with hidden_move (their text is kept from
    others), and the renderer and accent colour are usable."""
    found = manifest(slug)
    spec, kind = found.spec, found.game_type
    options = {option.name for option in spec.options}
    assert set(kind.modules) <= options, f"{slug}: modules {kind.modules} must be options ({sorted(options)})"
    if "private_hands" in kind.hidden:
        assert spec.private_summary is not None, f"{slug} has private hands but no private_summary"
    if "secret_choices" in kind.hidden:
        assert spec.hidden_move is not None, f"{slug} has secret choices but no hidden_move"
    assert kind.turns in ("sequential", "simultaneous", "both")
    renderer = importlib.import_module(found.renderer)
    assert callable(getattr(renderer, "render_board", None)), f"{found.renderer} has no render_board"
    accent = found.palette.get("accent")
    assert accent is None or (len(accent) == 3 and all(0 <= c <= 255 for c in accent)), accent
    assert spec.rules_help.get("overview"), f"{slug}: /game rules needs an overview topic"
    assert games.game_for_group(spec.command_group) == spec, f"/{spec.command_group} belongs to another game"


@pytest.mark.parametrize("slug", SLUGS)
def test_option_sets_set_up(slug: str) -> None:
    """The defaults set up for every player count, and each derived option set for at least one."""
    found = manifest(slug)
    spec = found.spec
    for players in range(spec.min_players, spec.max_players + 1):
        state = spec.setup(list(NAMES[:players]), parse_options("", spec.options), 1)
        assert not spec.status(state).finished
    for label, text in option_sets(found):
        accepted = 0
        for players in range(spec.min_players, spec.max_players + 1):
            try:
                spec.setup(list(NAMES[:players]), parse_options(text, spec.options), 1)
                accepted += 1
            except IllegalMove:
                pass
        assert accepted, f"{slug}: option set {label} ({text}) is refused for every player count"
