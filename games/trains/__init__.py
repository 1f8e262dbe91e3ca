"""Trains: deck building plus rail laying on the Tokyo or Osaka map (2-4 players)."""

from __future__ import annotations

from games.base import GameManifest, GameSpec, GameType, OptionSpec
from games.trains.ai import bot_move
from games.trains.content import MAP_NAMES
from games.trains.help import RULES_HELP
from games.trains.movegen import legal_moves
from games.trains.notation import VERBS, format_move, hidden_move, parse
from games.trains.rules import RULES_VERSION, apply, kick, resign, setup, skip_move, status, undo_scope
from games.trains.scoring import standings, stats
from games.trains.view import move_label, private_summary, view

OPTIONS = (
    OptionSpec("map", "choice", "tokyo", "Board side: tokyo (easier) or osaka (harder).", MAP_NAMES),
    OptionSpec(
        "kingdom",
        "list",
        [],
        "8 kingdom card slugs separated by commas; empty or fewer = random (e.g. kingdom=timetable,tunnel,...).",
    ),
)

GAME = GameSpec(
    slug="trains",
    name="Trains",
    command_group="trains",
    min_players=2,
    max_players=4,
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
    hidden_move=hidden_move,
    move_label=move_label,
    verbs=VERBS,
    undo_scope=undo_scope,
    # A moderator's /mod skip ends the turn without playing or buying (never the bot's strategy).
    skip_move=skip_move,
    kick=kick,
    quick_moves=(("Play all trains", "play all-trains"),),
    quick_start=(
        "Each player first places a free starting rail: `/trains start E5` (or a city: `/trains start shinjuku`).\n"
        "On your turn play cards and buy, in any order, then end: `/trains play all-trains` (or the Play all "
        "trains button), `/trains play lay-rails E6`, `/trains buy express-train`, `/trains end`.\n"
        "`/game hand` shows your hand with your legal moves as a menu; autocomplete offers only legal moves."
    ),
)

# The Trains board colours (RGB), read by rendering/trains.py; "accent" colours the standings chart.
PALETTE: dict[str, tuple[int, int, int]] = {
    "accent": (0, 158, 115),
    # Hex fills by terrain.
    "terrain_plain": (222, 234, 196),
    "terrain_river": (176, 212, 238),
    "terrain_mountain": (196, 170, 132),
    "terrain_sea": (112, 160, 206),
    "terrain_city": (238, 236, 232),
    "terrain_remote": (214, 192, 232),
    # Terrain glyphs drawn on top of the fills.
    "river_waves": (60, 120, 190),
    "mountain_outline": (110, 80, 50),
    "sea_wave": (225, 235, 250),
    "remote_badge": (120, 70, 150),
    "remote_value": (255, 255, 255),
    # Board and panel markings.
    "barrier": (170, 30, 30),
    "station_free": (255, 255, 255),
    "empty_pile": (180, 40, 40),
}

MANIFEST = GameManifest(
    spec=GAME,
    game_type=GameType(turns="sequential", hidden=("private_hands", "secret_choices"), chance=True),
    renderer="rendering.trains",
    palette=PALETTE,
    tie_break="more rails on the board",
)

__all__ = ["GAME", "MANIFEST", "RULES_VERSION"]
