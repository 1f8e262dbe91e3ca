"""Tiny Towns (AEG): rules engine wiring."""

from __future__ import annotations

from games.base import MOVE_KEY, GameManifest, GameSpec, GameType
from games.tiny_towns import ai, bitboard, notation, rules, scoring, view
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
    stats=scoring.stats,
    parse=notation.parse,
    format=notation.format,
    resign=rules.resign,
    bot_move=ai.bot_move,
    rules_help=RULES_HELP,
    private_summary=view.private_summary,
    hidden_move=lambda move: move.get(MOVE_KEY) == "monument",  # which monument you keep is secret until built
    verbs=notation.VERBS,
    undo_scope=rules.undo_scope,
    # A moderator's /mod skip plays the least harmful legal move (never the bot's strategy).
    skip_move=rules.skip_move,
    kick=rules.kick,
    warm=bitboard.warm,  # the joint placement tables: about 0.2 s, once per process
    quick_start=(
        "Every round one resource is named (`/tt announce wood`) and everyone places it in their 4x4 town: "
        "`/tt place B2`. Build when a pattern is complete: `/tt build cottage A1 A2 B2`, then `/tt done` (or "
        "the Done button). Most points when the towns are full wins.\n"
        "`/game hand` shows your town and your legal moves as a menu; autocomplete offers only legal moves."
    ),
)

MANIFEST = GameManifest(
    spec=GAME,
    game_type=GameType(
        turns="both", hidden=("private_hands", "secret_choices"), chance=True, modules=("monuments", "cave", "variant")
    ),
    renderer="rendering.tiny_towns",
    # The board's colours by name (RGB), read by rendering/tiny_towns.py: resources and building
    # families keep the tints players know from the board; "accent" (the Cottage blue) colours the
    # standings chart.
    palette={
        "accent": (0, 114, 178),
        "resource-wood": (140, 90, 50),
        "resource-wheat": (240, 200, 60),
        "resource-brick": (200, 70, 40),
        "resource-glass": (90, 190, 230),
        "resource-stone": (150, 150, 150),
        "building-blue": (0, 114, 178),
        "building-red": (190, 50, 35),
        "building-gray": (125, 125, 125),
        "building-orange": (225, 120, 0),
        "building-green": (0, 140, 95),
        "building-yellow": (200, 160, 0),
        "building-black": (45, 45, 45),
        "building-pink": (190, 70, 150),  # monuments
    },
    tie_break="fewer turns as Master Builder, then fewer empty squares, then more Cottages",
)

__all__ = ["GAME", "MANIFEST", "RULES_VERSION"]
