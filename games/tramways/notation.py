"""Command text <-> move dicts. The canonical text of every move is its slash command:

/tram bid 3                 /tram pass                  /tram take tram-pass
/tram rails B2 C2 D2 E2 dest R with track-crew:rail+rail suburb:r
/tram upgrade-link 4 with inspector:up+r
/tram build P3 C with contractor:build
/tram upgrade-building P3 with builder:build
/tram move R1 C2 via 3 5 hp 1 with commuter:ticket+c
/tram move R1 L2 via 3 with tourist:ticket+l+pax at R1
/tram master R2 via 4       /tram use petty-cash:$1+calm     /tram use new-arrivals:pax at R1
/tram discard suburb foreman                /tram buy night-tram      /tram done
/tram draft P4              (the parcel draft, option parcels=draft)

Card tokens name a card and the icons used from it (``slug:icon+icon``); ``at`` names the building
that the played cards' new passengers (pax icons) go to.
"""

from __future__ import annotations

from dataclasses import replace

from games.base import MOVE_KEY, IllegalMove, Move
from games.notation import expect_word, tokens
from games.schema import Slot, Verb, usage_lines

GROUP = "tram"
KEYWORDS = ("dest", "with", "via", "hp", "at")
_STOPS = frozenset(KEYWORDS)


def _verb(name: str, description: str, *slots: Slot, ends_turn: bool = False, skip: bool = False) -> Verb:
    return replace(Verb(name, description, slots, ends_turn=ends_turn, skip=skip), stop_words=_STOPS)


def _cards() -> Slot:
    # Optional in the schema (it follows optional slots, as Discord requires); the rules refuse an
    # action that names no cards, saying which icons would pay for it.
    return Slot(
        "cards",
        "card",
        "Cards and icons used, e.g. track-crew:rail+rail suburb:r",
        required=False,
        many=True,
        keyword="with",
        label="<card:icons>",
    )


def _at() -> Slot:
    return Slot("at", "building", "Where the cards' new passenger (pax icon) goes", required=False, keyword="at")


VERBS: tuple[Verb, ...] = (
    _verb("draft", "Parcel draft: take a starting parcel", Slot("parcel", "building", "The parcel, e.g. P4")),
    _verb("bid", "Bid more than the high bid (paid at once)", Slot("amount", "number", "Dollars to bid")),
    _verb("pass", "Pass in the auction: earlier passers go later", ends_turn=True),
    _verb("take", "Take a card from the auction display", Slot("card", "card", "The auction card to take")),
    _verb(
        "rails",
        "Lay 1-3 rail tiles on a link (end on a building's cell to complete it)",
        Slot("cells", "cell", "Start cell (building/parcel or your link's end), then new rail cells", many=True),
        Slot(
            "dest",
            "choice",
            "Destination icon played when completing: R C I L S or a parcel",
            required=False,
            keyword="dest",
        ),
        _cards(),
        _at(),
    ),
    _verb(
        "upgrade-link",
        "Upgrade one of your complete links",
        Slot("link", "number", "The link number shown on the map"),
        _cards(),
        _at(),
    ),
    _verb(
        "build",
        "Build on one of your parcels ($2)",
        Slot("parcel", "building", "Your parcel, e.g. P3"),
        Slot("type", "choice", "Building type: R C I or L"),
        _cards(),
        _at(),
    ),
    _verb(
        "upgrade-building",
        "Upgrade one of your buildings ($3)",
        Slot("building", "building", "Your building (a built parcel), e.g. P3"),
        _cards(),
        _at(),
    ),
    _verb(
        "move",
        "Move a passenger over complete links",
        Slot("from", "building", "Where the passenger waits, e.g. R1"),
        Slot("to", "building", "The destination, e.g. C2"),
        Slot("via", "number", "Link numbers in trip order", many=True, keyword="via"),
        Slot("hp", "number", "At a Commercial building: HP to buy (0-2)", required=False, keyword="hp"),
        _cards(),
        _at(),
    ),
    _verb(
        "master",
        "Free Station Master move along one link (last player)",
        Slot("to", "building", "Where he stops"),
        Slot("via", "number", "The link he travels", keyword="via"),
        Slot("hp", "number", "At a Commercial building: HP to buy (0-2)", required=False, keyword="hp"),
    ),
    _verb(
        "use",
        "Play money, worker, passenger or calm icons of one card",
        Slot("card", "card", "The card and icons, e.g. petty-cash:$1+calm", label="<card:icons>"),
        Slot("at", "building", "Where a new passenger goes", required=False, keyword="at"),
    ),
    _verb(
        "discard",
        "Administration: discard cards (first free, then $1 each)",
        Slot("cards", "card", "Cards to discard", many=True),
    ),
    _verb("buy", "Administration: buy a development card", Slot("card", "card", "The development card")),
    _verb("done", "End your action turn or your administration", ends_turn=True, skip=True),
)
VERB_NAMES = tuple(verb.name for verb in VERBS)
USAGE = usage_lines(GROUP, VERBS)


def _sections(words: list[str], verb: str) -> tuple[list[str], dict[str, list[str]]]:
    positional: list[str] = []
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for word in words:
        if word in KEYWORDS:
            if word in sections:
                raise IllegalMove(f'"{word}" appears twice. Use: {USAGE[verb]}')
            sections[word] = current = []
        elif current is None:
            positional.append(word)
        else:
            current.append(word)
    return positional, sections


def _number(word: str, what: str) -> int:
    if not word.isdigit() or len(word) > 6:
        raise IllegalMove(f'{what} is a whole number, not "{word}".')
    return int(word)


def _one(words: list[str], verb: str, what: str) -> str:
    if len(words) != 1:
        raise IllegalMove(f"Give one {what}. Use: {USAGE[verb]}")
    return words[0]


def _allowed(sections: dict[str, list[str]], verb: str, *names: str) -> None:
    extra = [key for key in sections if key not in names]
    if extra:
        raise IllegalMove(f'"{extra[0]}" does not belong here. Use: {USAGE[verb]}')


def _card_words(words: list[str], verb: str) -> list[str]:
    if not words:
        raise IllegalMove(f"Name the cards you play after 'with'. Use: {USAGE[verb]}")
    for word in words:
        slug, sep, icons = word.partition(":")
        if not sep or not slug or not icons:
            raise IllegalMove(f'"{word}" must be card:icons, like track-crew:rail+rail.')
    return words


def _hp(sections: dict[str, list[str]], verb: str) -> int | None:
    if "hp" not in sections:
        return None
    return _number(_one(sections["hp"], verb, "number of HP"), "hp")


def parse(text: str) -> Move:
    words = tokens(text, GROUP)
    if not words:
        raise IllegalMove(f"Say what to do: /{GROUP} {' | '.join(VERB_NAMES)}.")
    verb = expect_word(words[0], VERB_NAMES, "command")
    positional, sections = _sections(words[1:], verb)
    if verb in ("pass", "done"):
        if positional or sections:
            raise IllegalMove(f"{USAGE[verb]} takes no further words.")
        return {MOVE_KEY: verb}
    if verb == "bid":
        _allowed(sections, verb)
        return {MOVE_KEY: verb, "amount": _number(_one(positional, verb, "amount"), "A bid")}
    if verb in ("take", "buy"):
        _allowed(sections, verb)
        return {MOVE_KEY: verb, "card": _one(positional, verb, "card")}
    if verb == "draft":
        _allowed(sections, verb)
        return {MOVE_KEY: verb, "parcel": _one(positional, verb, "parcel").upper()}
    if verb == "discard":
        _allowed(sections, verb)
        if not positional:
            raise IllegalMove(f"Name the cards to discard. Use: {USAGE[verb]}")
        return {MOVE_KEY: verb, "cards": positional}
    if verb == "use":
        _allowed(sections, verb, "at")
        word = _one(positional, verb, "card:icons")
        _card_words([word], verb)
        at = _one(sections["at"], verb, "building").upper() if "at" in sections else None
        return {MOVE_KEY: verb, "card": word, "at": at}
    if verb == "master":
        _allowed(sections, verb, "via", "hp")
        via = [_number(w, "A link") for w in sections.get("via", [])]
        if len(via) != 1:
            raise IllegalMove(f"The Station Master travels one link. Use: {USAGE[verb]}")
        return {
            MOVE_KEY: verb,
            "to": _one(positional, verb, "destination").upper(),
            "via": via,
            "hp": _hp(sections, verb),
        }
    cards = _card_words(sections.get("with", []), verb)
    at = _one(sections["at"], verb, "building").upper() if "at" in sections else None
    if verb == "rails":
        _allowed(sections, verb, "dest", "with", "at")
        if not positional:
            raise IllegalMove(f"Name the cells. Use: {USAGE[verb]}")
        dest = _one(sections["dest"], verb, "destination icon").upper() if "dest" in sections else None
        return {MOVE_KEY: verb, "cells": [w.upper() for w in positional], "dest": dest, "cards": cards, "at": at}
    if verb == "upgrade-link":
        _allowed(sections, verb, "with", "at")
        link = _number(_one(positional, verb, "link"), "A link")
        return {MOVE_KEY: verb, "link": link, "cards": cards, "at": at}
    if verb == "build":
        _allowed(sections, verb, "with", "at")
        if len(positional) != 2:
            raise IllegalMove(f"Use: {USAGE[verb]} (for example /tram build P3 C with contractor:build).")
        return {
            MOVE_KEY: verb,
            "parcel": positional[0].upper(),
            "type": positional[1].upper(),
            "cards": cards,
            "at": at,
        }
    if verb == "upgrade-building":
        _allowed(sections, verb, "with", "at")
        return {MOVE_KEY: verb, "building": _one(positional, verb, "building").upper(), "cards": cards, "at": at}
    # move
    _allowed(sections, verb, "via", "hp", "with", "at")
    if len(positional) != 2:
        raise IllegalMove(f"Use: {USAGE[verb]} (for example /tram move R1 C2 via 3 hp 0 with commuter:ticket+c).")
    via = [_number(w, "A link") for w in sections.get("via", [])]
    if not via:
        raise IllegalMove(f"Say which links: via <link> ... Use: {USAGE[verb]}")
    return {
        MOVE_KEY: verb,
        "from": positional[0].upper(),
        "to": positional[1].upper(),
        "via": via,
        "hp": _hp(sections, verb),
        "cards": cards,
        "at": at,
    }


def format_move(move: Move) -> str:
    verb = move[MOVE_KEY]
    parts = [f"/{GROUP}", verb]
    if verb == "bid":
        parts.append(str(move["amount"]))
    elif verb in ("take", "buy"):
        parts.append(move["card"])
    elif verb == "draft":
        parts.append(move["parcel"])
    elif verb == "discard":
        parts += move["cards"]
    elif verb == "use":
        parts.append(move["card"])
        if move.get("at"):
            parts += ["at", move["at"]]
    elif verb == "master":
        parts += [move["to"], "via", *map(str, move["via"])]
        if move.get("hp") is not None:
            parts += ["hp", str(move["hp"])]
    elif verb == "rails":
        parts += move["cells"]
        if move.get("dest"):
            parts += ["dest", move["dest"]]
    elif verb == "upgrade-link":
        parts.append(str(move["link"]))
    elif verb == "build":
        parts += [move["parcel"], move["type"]]
    elif verb == "upgrade-building":
        parts.append(move["building"])
    elif verb == "move":
        parts += [move["from"], move["to"], "via", *map(str, move["via"])]
        if move.get("hp") is not None:
            parts += ["hp", str(move["hp"])]
    if verb in ("rails", "upgrade-link", "build", "upgrade-building", "move"):
        parts += ["with", *move["cards"]]
        if move.get("at"):
            parts += ["at", move["at"]]
    return " ".join(parts)
