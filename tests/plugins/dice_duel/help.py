"""Texts for /game rules [topic]."""

from __future__ import annotations

from .content import HAND_SIZE, REROLLS, solo_par
from .notation import USAGE

RULES_HELP = {
    "overview": (
        f"Dice Duel: each player keeps a secret hand of dice, topped up to {HAND_SIZE} when their turn begins. "
        f"On your turn roll dice again (up to {REROLLS} times), bank one die face up (it scores), "
        "then end the turn. Once a game you may stash a die face down: it scores when the game ends. "
        "Highest total after the last round wins; equal totals share the place."
    ),
    "commands": "\n".join(USAGE.values()),
    "doubles": "With doubles=on, banking the same value as your previous banked die scores 2 more.",
    "solo": f"Alone you play against par: {solo_par(3)} points in 3 rounds, {solo_par(5)} in 5.",
}
