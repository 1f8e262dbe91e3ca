"""Dice Duel's fixed numbers and setup options."""

from __future__ import annotations

from games.base import OptionSpec

SLUG = "dice-duel"
NAME = "Dice Duel"
RULES_VERSION = "1"
MIN_PLAYERS = 1
MAX_PLAYERS = 3
FACES = 6
HAND_SIZE = 3  # a hand is topped up to this many dice when its owner's turn begins
REROLLS = 2  # per turn
DOUBLES_BONUS = 2
ROUND_CHOICES = ("3", "5")

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("rounds", "choice", "3", "How many rounds: 3 (quick) or 5.", ROUND_CHOICES),
    OptionSpec("doubles", "bool", False, "Doubles module: banking the value you banked last scores 2 more."),
)


def solo_par(rounds: int) -> int:
    """The score a solo player aims for (about five a bank plus a good stash)."""
    return 5 * rounds + 4
