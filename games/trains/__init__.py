"""Trains: deck building plus rail laying on the Tokyo or Osaka map (2-4 players)."""

from __future__ import annotations

from games.base import GameManifest, GameSpec, GameType, OptionSpec
from games.trains.ai import bot_move
from games.trains.content import CARDS, KINGDOM, MAP_NAMES, MAPS, TYPES
from games.trains.help import RULES_HELP
from games.trains.movegen import legal_moves
from games.trains.notation import format_move, hidden_move, parse
from games.trains.rules import RULES_VERSION, apply, resign, setup, status
from games.trains.scoring import standings
from games.trains.view import move_label, private_summary, view


def vocabulary() -> dict[str, list[str]]:
    """Words for autocomplete: verbs, card slugs, hex labels, types."""
    hexes = sorted({h for m in MAPS.values() for h in m.land})
    return {
        "verb": ["start", "play", "buy", "pass", "end"],
        "card": list(CARDS),
        "kingdom": list(KINGDOM),
        "hex": hexes,
        "type": list(TYPES),
        "mode": ["money", "draw", "rail", "skip", "then", "top"],
    }


OPTIONS = (
    OptionSpec("map", "choice", "tokyo", "Board side: tokyo (easier) or osaka (harder).", MAP_NAMES),
    OptionSpec("kingdom", "list", [], "8 kingdom card slugs separated by commas; empty or fewer = random "
               "(e.g. kingdom=timetable,tunnel,...)."),
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
    parse=parse,
    format=format_move,
    resign=resign,
    bot_move=bot_move,
    rules_help=RULES_HELP,
    private_summary=private_summary,
    hidden_move=hidden_move,
    move_label=move_label,
)

MANIFEST = GameManifest(
    spec=GAME,
    game_type=GameType(turns="sequential", hidden=("private_hands", "secret_choices"), chance=True),
    renderer="rendering.trains",
    palette={"accent": (0, 158, 115)},
)

__all__ = ["GAME", "MANIFEST", "RULES_VERSION"]
