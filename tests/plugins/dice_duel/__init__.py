"""Dice Duel: a tiny dice game (1-3 players) with secret hands, installed like a separate package.

It lives outside ``games/`` and registers through the ``tabletop_conductor.games`` entry point of
its own dist-info (``conductor_dice_duel-0.1.dist-info``), proving a game needs no change to the host.
"""

from __future__ import annotations

from games.base import GameManifest, GameSpec, GameType

from . import ai, notation, rules, scoring, view
from .content import MAX_PLAYERS, MIN_PLAYERS, NAME, OPTIONS, RULES_VERSION, SLUG
from .help import RULES_HELP

GAME = GameSpec(
    slug=SLUG,
    name=NAME,
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
    format=notation.format_move,
    resign=rules.resign,
    bot_move=ai.bot_move,
    rules_help=RULES_HELP,
    private_summary=view.private_summary,
    hidden_move=notation.hidden_move,
    move_label=view.move_label,
    verbs=notation.VERBS,
    undo_scope=rules.undo_scope,
)

MANIFEST = GameManifest(
    spec=GAME,
    game_type=GameType(
        turns="sequential", hidden=("private_hands", "secret_choices"), chance=True, modules=("doubles",)
    ),
    renderer="dice_duel.renderer",
    palette={"accent": (213, 94, 0)},
)

__all__ = ["GAME", "MANIFEST", "RULES_VERSION"]
