"""My Trolley Town (Studio GG): rules engine wiring."""

from __future__ import annotations

from games.base import GameManifest, GameSpec, GameType, OptionSpec
from games.trolley_town import ai, notation, rules, scoring, view
from games.trolley_town.help import RULES_HELP

OPTIONS = (
    OptionSpec("first_game", "bool", False, "First game: starred A and B tiles go to the bottom of their piles."),
    OptionSpec(
        "expert",
        "list",
        [],
        "Players on the expert transport rule: names or seat numbers (1 = first) separated by commas, or all.",
    ),
    OptionSpec(
        "basics",
        "list",
        [],
        "Solo only: the 7 basic buildings, e.g. basics=field,field,meadow,meadow,charcoal-kiln,bakery,ranch.",
    ),
)

GAME = GameSpec(
    slug=rules.SLUG,
    name="My Trolley Town",
    command_group=notation.GROUP,
    min_players=rules.MIN_PLAYERS,
    max_players=rules.MAX_PLAYERS,
    rules_version=rules.RULES_VERSION,
    options=OPTIONS,
    setup=rules.setup,
    legal_moves=rules.legal_moves,
    apply=rules.apply,
    view=view.view,
    status=rules.status,
    standings=scoring.standings,
    stats=scoring.stats,
    parse=notation.parse,
    format=notation.format_move,
    resign=rules.resign,
    bot_move=ai.bot_move,
    rules_help=RULES_HELP,
    move_label=view.move_label,
    verbs=notation.VERBS,
    undo_scope=rules.undo_scope,
    # A stuck seat gets the sensible default: its pending choice answered with what it holds
    # least of, a pass in construction, done in transport.
    skip_move=rules.skip_move,
    kick=rules.kick,
    quick_start=(
        "My Trolley Town: each round production runs by itself, then on your construction turn "
        "`/trolley build bakery 2,0`, `/trolley route curve 1,1 90` or `/trolley pass`; in transport "
        "`/trolley move wood 0,0 2,0`, then `/trolley done` (processing follows). Cells are x,y from your "
        "Forest at 0,0. More: `/game rules trolley-town`."
    ),
)

# Colours (RGB) read by rendering/trolley_town.py; "accent" colours the standings chart.
PALETTE: dict[str, tuple[int, int, int]] = {
    "accent": (170, 85, 40),  # trolley rust: the standings chart, the round marker
    "resource-wood": (0, 135, 85),
    "resource-stone": (150, 150, 150),
    "resource-wheat": (240, 200, 60),
    "resource-coal": (35, 35, 35),
    "resource-sheep": (252, 252, 252),
    "pile-start": (206, 230, 196),
    "pile-basic": (222, 222, 222),
    "pile-A": (250, 214, 160),
    "pile-B": (190, 218, 244),
    "pile-V": (228, 200, 232),
    "track": (84, 62, 46),
    "ground": (236, 228, 206),
}

MANIFEST = GameManifest(
    spec=GAME,
    game_type=GameType(turns="both", hidden=(), chance=True, modules=()),
    renderer="rendering.trolley_town",
    palette=PALETTE,
    tie_break="none: tied players share the place",
)

__all__ = ["GAME", "MANIFEST"]
