"""Command text <-> move dicts.

    /trains start E5
    /trains play lay-rails E5
    /trains play dispatcher central-station rail E5 then money
    /trains buy express-train [top]
    /trains pass
    /trains end
"""

from __future__ import annotations

from games.base import IllegalMove, Move
from games.notation import expect_word, suggest, tokens
from games.trains.content import CARDS
from games.trains.effects import HEX_PATTERN, normalize

GROUP = "trains"
VERBS = ("start", "play", "buy", "pass", "end")
# One line per verb; the Discord adapter turns these into typed slash-command options.
USAGE = {
    "start": "/trains start <hex>",
    "play": "/trains play <card> [<choices> ...]",
    "buy": "/trains buy <card> [<top>]",
    "pass": "/trains pass",
    "end": "/trains end",
}



def _card(word: str, what: str = "card") -> str:
    if word not in CARDS:
        raise IllegalMove(f'Unknown {what} "{word}"{suggest(word, CARDS)}. Card names use hyphens, '
                          "e.g. lay-rails, express-train.")
    return word


def parse(text: str) -> Move:
    words = tokens(text, GROUP)
    if not words:
        raise IllegalMove(f"Say what to do: /trains {' | '.join(VERBS)}.")
    verb = expect_word(words[0], VERBS, "command")
    rest = words[1:]
    if verb == "start":
        if len(rest) != 1:
            raise IllegalMove("Use: /trains start HEX (for example /trains start E5).")
        if not HEX_PATTERN.match(rest[0]):
            raise IllegalMove(f'"{rest[0]}" is not a hex label like E5.')
        return {"action": "start", "hex": rest[0].upper()}
    if verb == "play":
        if not rest:
            raise IllegalMove("Use: /trains play CARD [choices], for example /trains play lay-rails E5.")
        slug = _card(rest[0])
        return {"action": "play", "card": slug, "args": normalize(CARDS[slug], rest[1:])}
    if verb == "buy":
        if not rest or len(rest) > 2 or (len(rest) == 2 and rest[1] != "top"):
            raise IllegalMove("Use: /trains buy CARD (add 'top' to put it on your deck with Early Train).")
        return {"action": "buy", "card": _card(rest[0]), "top": len(rest) == 2}
    if rest:
        raise IllegalMove(f"/trains {verb} takes no further words.")
    return {"action": verb}


def format_move(move: Move) -> str:
    action = move["action"]
    if action == "start":
        return f"/{GROUP} start {move['hex']}"
    if action == "play":
        return " ".join([f"/{GROUP} play", move["card"], *move.get("args", [])])
    if action == "buy":
        return f"/{GROUP} buy {move['card']}" + (" top" if move.get("top") else "")
    return f"/{GROUP} {action}"


def hidden_move(move: Move) -> bool:
    """True when the command names a card taken secretly (Lost and Found's pick from the discard).

    Follows Coupling/Dispatcher to the card they play, since those echo its choices.
    """
    if move.get("action") != "play":
        return False
    slug, args = str(move.get("card", "")), list(move.get("args", []))
    while slug in CARDS and CARDS[slug].kind == "play_twice" and args:
        slug, args = args[0], args[1:]
    return slug in CARDS and CARDS[slug].kind == "lost_and_found" and args != ["skip"]
