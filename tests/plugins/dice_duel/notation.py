"""Command text <-> move dicts for the /dd group: ``/dd reroll 2``, ``/dd bank 6``, ``/dd stash 5``, ``/dd done``."""

from __future__ import annotations

from games.base import MOVE_KEY, IllegalMove, Move
from games.notation import expect_word, tokens
from games.schema import Slot, Verb, usage_lines

from .content import FACES

GROUP = "dd"


def _die(description: str) -> Slot:
    return Slot("die", "number", description, label="<die>")


VERBS: tuple[Verb, ...] = (
    # Rolling and banking draw or reveal dice, so neither can be taken back.
    Verb(
        "reroll",
        "Roll one die of your hand again (twice a turn)",
        (_die("The value of the die to roll again"),),
        undoable=False,
    ),
    Verb(
        "bank",
        "Score one die of your hand, face up (once a turn)",
        (_die("The value of the die to score"),),
        undoable=False,
    ),
    Verb(
        "stash", "Hide one die face down; it scores at the end (once a game)", (_die("The value of the die to hide"),)
    ),
    Verb("done", "End your turn (after banking a die)", ends_turn=True, skip=True, undoable=False),
)
VERB_NAMES = tuple(verb.name for verb in VERBS)
USAGE = usage_lines(GROUP, VERBS)


def parse(text: str) -> Move:
    words = tokens(text, GROUP)
    if not words:
        raise IllegalMove(f"Say what to do: {' | '.join(USAGE.values())}.")
    verb = expect_word(words[0], VERB_NAMES, "command")
    rest = words[1:]
    if verb == "done":
        if rest:
            raise IllegalMove(f"{USAGE['done']} takes no further words.")
        return {MOVE_KEY: "done"}
    if len(rest) != 1:
        raise IllegalMove(f"Use: {USAGE[verb]} (one die value, 1 to {FACES}).")
    return {MOVE_KEY: verb, "die": die_value(rest[0])}


def die_value(word: object) -> int:
    """A die face 1-6 from a word or number; IllegalMove otherwise."""
    text = str(word)
    if not text.isdigit() or not 1 <= int(text) <= FACES:
        raise IllegalMove(f'"{text}" is not a die value: use 1 to {FACES}.')
    return int(text)


def format_move(move: Move) -> str:
    verb = move[MOVE_KEY]
    return f"/{GROUP} {verb}" if verb == "done" else f"/{GROUP} {verb} {move['die']}"


def hidden_move(move: Move) -> bool:
    """Which die went into the stash is secret until the end."""
    return move.get(MOVE_KEY) == "stash"
