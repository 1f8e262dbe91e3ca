"""Tiny Towns (AEG): rules engine wiring."""

from __future__ import annotations

from games.base import GameManifest, GameSpec, GameType
from games.tiny_towns import ai, notation, rules, scoring, view
from games.tiny_towns.help import RULES_HELP
from games.tiny_towns.setup import MAX_PLAYERS, MIN_PLAYERS, OPTIONS, RULES_VERSION, SLUG

GAME = GameSpec(
    slug=SLUG,
    name="Tiny Towns",
    command_group=notation.GROUP,
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    rules_version=RULES_VERSION,
    options=OPTIONS,
    setup=rules.setup,
    legal_moves=rules.legal_moves,
    apply=rules.apply,
    view=view.view,
    status=rules.status,
    standings=scoring.standings,
    parse=notation.parse,
    format=notation.format,
    resign=rules.resign,
    bot_move=ai.bot_move,
    rules_help=RULES_HELP,
    private_summary=view.private_summary,
    hidden_move=lambda move: move.get("cmd") == "monument",  # which monument you keep is secret until built
)

MANIFEST = GameManifest(
    spec=GAME,
    game_type=GameType(turns="both", hidden=("private_hands", "secret_choices"), chance=True,
                       modules=("monuments", "cave", "variant")),
    renderer="rendering.tiny_towns",
    palette={"accent": (0, 114, 178)},
)

__all__ = ["GAME", "MANIFEST", "RULES_VERSION"]
