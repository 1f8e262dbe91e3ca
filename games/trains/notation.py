"""Command text <-> move dicts.

/trains start E5
/trains play lay-rails E5      (or a city: /trains play lay-rails shinjuku)
/trains play all-trains
/trains play dispatcher central-station rail E5 then money
/trains buy express-train [top]
/trains pass
/trains end
"""

from __future__ import annotations

from dataclasses import replace

from games.base import MOVE_KEY, IllegalMove, Move
from games.notation import expect_word, suggest, tokens
from games.schema import Slot, Verb, usage_lines
from games.trains.board import PLACE_WORDS
from games.trains.content import CARDS
from games.trains.effects import HEX_PATTERN, normalize

# ``/trains play all-trains``: every train card in hand that needs no choices, in one move.
ALL_TRAINS = "all-trains"

GROUP = "trains"


def _verb(name: str, *slots: Slot, ends_turn: bool = False) -> Verb:
    """A verb whose description is its own usage line (what the slash command shows today)."""
    verb = Verb(name, name, slots, ends_turn=ends_turn)
    return replace(verb, description=verb.usage(GROUP))


# The declared command schema: usage lines, parser messages and the Discord options all come
# from here. Slot names, flags and labels reproduce the options the adapter derived from the old
# usage strings, so the slash commands and their option names stay as they were.
VERBS: tuple[Verb, ...] = (
    _verb("start", Slot("hex", "hex", "Hex for your starting rail, e.g. E5 (land, not a remote location or taken)")),
    _verb(
        "play",
        Slot("card", "card", "The card from your hand to play, e.g. lay-rails"),
        Slot(
            "choices",
            "word",
            "The card's choices, separated by spaces (hexes, cards, modes)",
            required=False,
            many=True,
            label="<choices>",
        ),
    ),
    _verb(
        "buy",
        Slot("card", "card", "The supply pile to buy from, e.g. express-train"),
        # The literal word "top"; labelled <top> to keep the usage line players already know.
        Slot(
            "top",
            "choice",
            "Type top to put the card on your deck (only after Early Train)",
            required=False,
            label="<top>",
        ),
    ),
    # Pass (only before playing or buying: return all Waste) and end both close the turn, so each
    # is a bare turn ender that gets its own button.
    _verb("pass", ends_turn=True),
    _verb("end", ends_turn=True),
)
VERB_NAMES = tuple(verb.name for verb in VERBS)
USAGE = usage_lines(GROUP, VERBS)  # verb -> "/trains buy <card> [<top>]", for the parser's messages


def _card(word: str, what: str = "card") -> str:
    if word not in CARDS:
        raise IllegalMove(
            f'Unknown {what} "{word}"{suggest(word, CARDS)}. Card names use hyphens, e.g. lay-rails, express-train.'
        )
    return word


def parse(text: str) -> Move:
    words = tokens(text, GROUP)
    if not words:
        raise IllegalMove(f"Say what to do: /{GROUP} {' | '.join(VERB_NAMES)}.")
    verb = expect_word(words[0], VERB_NAMES, "command")
    rest = words[1:]
    if verb == "start":
        if len(rest) != 1:
            raise IllegalMove(f"Use: {USAGE['start']} (for example /trains start E5).")
        if rest[0].lower() in PLACE_WORDS:
            return {MOVE_KEY: "start", "hex": rest[0].lower()}
        if not HEX_PATTERN.match(rest[0]):
            raise IllegalMove(f'"{rest[0]}" is not a hex label like E5 or a city name like shinjuku.')
        return {MOVE_KEY: "start", "hex": rest[0].upper()}
    if verb == "play":
        if not rest:
            raise IllegalMove(f"Use: {USAGE['play']}, for example /trains play lay-rails E5.")
        if rest[0] == ALL_TRAINS:
            if rest[1:]:
                raise IllegalMove(f"/trains play {ALL_TRAINS} takes no further words.")
            return {MOVE_KEY: "play", "card": ALL_TRAINS, "args": []}
        slug = _card(rest[0])
        return {MOVE_KEY: "play", "card": slug, "args": normalize(CARDS[slug], rest[1:])}
    if verb == "buy":
        if not rest or len(rest) > 2 or (len(rest) == 2 and rest[1] != "top"):
            raise IllegalMove(f"Use: {USAGE['buy']} (add 'top' to put it on your deck with Early Train).")
        return {MOVE_KEY: "buy", "card": _card(rest[0]), "top": len(rest) == 2}
    if rest:
        raise IllegalMove(f"{USAGE[verb]} takes no further words.")
    return {MOVE_KEY: verb}


def format_move(move: Move) -> str:
    verb = move[MOVE_KEY]
    if verb == "start":
        return f"/{GROUP} start {move['hex']}"
    if verb == "play":
        return " ".join([f"/{GROUP} play", move["card"], *move.get("args", [])])
    if verb == "buy":
        return f"/{GROUP} buy {move['card']}" + (" top" if move.get("top") else "")
    return f"/{GROUP} {verb}"


def hidden_move(move: Move) -> bool:
    """True when the command names a card taken secretly (Lost and Found's pick from the discard).

    Follows Coupling/Dispatcher to the card they play, since those echo its choices.
    """
    if move.get(MOVE_KEY) != "play":
        return False
    slug, args = str(move.get("card", "")), list(move.get("args", []))
    while slug in CARDS and CARDS[slug].kind == "play_twice" and args:
        slug, args = args[0], args[1:]
    return slug in CARDS and CARDS[slug].kind == "lost_and_found" and args != ["skip"]
