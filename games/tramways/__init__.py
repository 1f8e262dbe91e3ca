"""Tramways with the Grand Station expansion (1-5 players): a reconstruction of the base game
plus the expansion's four modules, each a game option."""

from __future__ import annotations

from games.base import GameManifest, GameSpec, GameType, OptionSpec
from games.tramways.ai import bot_move
from games.tramways.help import RULES_HELP
from games.tramways.movegen import legal_moves
from games.tramways.notation import VERBS, format_move, parse
from games.tramways.rules import RULES_VERSION, apply, kick, resign, setup, skip_move, status, undo_scope
from games.tramways.scoring import standings, stats
from games.tramways.view import move_label, private_summary, view

OPTIONS = (
    OptionSpec("station", "bool", False, "Grand Station: the Tramways Station (S building, Station cards)."),
    OptionSpec("exchange", "bool", False, "Grand Station: the Stock Exchange ($5 when a passenger passes through)."),
    OptionSpec("park", "bool", False, "Grand Station: the Park (passing through: stress -1)."),
    OptionSpec(
        "master", "bool", False, "Grand Station: the Station Master (requires the Station, so it turns station on too)."
    ),
    OptionSpec(
        "parcels",
        "choice",
        "random",
        "Starting parcels: dealt at random, or drafted (the advanced rule the Grand Station rulebook recommends).",
        choices=("random", "draft"),
    ),
)

GAME = GameSpec(
    slug="tramways",
    name="Tramways",
    command_group="tram",
    min_players=1,
    max_players=5,
    rules_version=RULES_VERSION,
    options=OPTIONS,
    setup=setup,
    legal_moves=legal_moves,
    apply=apply,
    view=view,
    status=status,
    standings=standings,
    stats=stats,
    parse=parse,
    format=format_move,
    resign=resign,
    bot_move=bot_move,
    rules_help=RULES_HELP,
    private_summary=private_summary,
    move_label=move_label,
    verbs=VERBS,
    undo_scope=undo_scope,
    skip_move=skip_move,
    kick=kick,
    quick_start=(
        "Each round: bid for turn order (`/tram bid 2` or `/tram pass`), `/tram take <card>` from the auction "
        "display, then act with the icons of your cards, e.g. `/tram rails E3 F3 dest R with foreman:rail`, "
        "`/tram build P3 R with investor:build`, `/tram move R1 C2 via 3 4`, and `/tram done`.\n"
        "`/game hand` shows your hand; autocomplete offers only legal moves with their cost. "
        "More: `/game rules tramways`."
    ),
)

# Map and marker colours (RGB) read by rendering/tramways.py; "accent" colours the standings chart.
PALETTE: dict[str, tuple[int, int, int]] = {
    "accent": (0, 114, 178),
    "plain": (236, 232, 218),
    "hill": (200, 184, 150),
    "water": (150, 190, 225),
    "R": (120, 190, 110),
    "C": (120, 160, 220),
    "I": (235, 205, 90),
    "L": (225, 120, 110),
    "P": (190, 190, 190),
    "S": (90, 90, 110),
    "X": (200, 170, 60),
    "K": (70, 150, 80),
}

MANIFEST = GameManifest(
    spec=GAME,
    game_type=GameType(
        turns="sequential", hidden=("private_hands",), chance=True, modules=("station", "exchange", "park", "master")
    ),
    renderer="rendering.tramways",
    palette=PALETTE,
    tie_break="lower stress, then more money",
)

__all__ = ["GAME", "MANIFEST", "RULES_VERSION"]
