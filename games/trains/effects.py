"""Card effects: the argument grammar of every card and how its effect resolves.

One command is one complete action, so every choice a card needs is an argument of
``/trains play``. ``normalize`` checks the words without looking at the game (so the
parser can reject typos early) and returns the canonical argument list; ``resolve``
applies the effect to a copied state and raises IllegalMove when any part cannot be
applied (the caller throws the copy away, so nothing is half-applied).
"""

from __future__ import annotations

import re

from games.base import Event, IllegalMove, State
from games.notation import suggest
from games.trains import board
from games.trains.content import CARDS, MAPS, TYPES, Card
from games.trains.deck import (
    draw,
    gain_waste,
    hand_text,
    list_names,
    name_of,
    remove_cards,
    return_waste,
    top_card,
)

SKIP = "skip"
THEN = "then"
HEX_PATTERN = re.compile(r"^[a-z][1-9][0-9]?$")
CENTRAL_MODES = ("money", "draw", "rail")
# Card kinds whose play takes no choices (one spelling for the grammar and the move generator).
NO_CHOICE_KINDS = frozenset(
    {
        "none",
        "draw",
        "landfill",
        "early_train",
        "track_vp",
        "rail_yard",
        "gain_waste",
        "sightseeing",
        "signal_box",
    }
)


# ---------------------------------------------------------------- grammar


def usage(card: Card) -> str:
    """The argument pattern shown in help and error messages."""
    effect = card.effect
    kind = card.kind
    patterns = {
        "none": "",
        "station": " HEX",
        "terminal": " HEX",
        "amusement_park": " TRAIN-PLAYED-THIS-TURN",
        "command_central": f" TYPE ({'|'.join(TYPES)})",
        "freight_train": " [NUMBER-OF-WASTE]",
        "recycling": f" [NUMBER-OF-WASTE, at most {effect.get('max')}]",
        "mail_train": " [CARD ...]",
        "transfer": f" [up to {effect.get('max')} CARDS]",
        "scrapyard": f" [up to {effect.get('max')} CARDS]",
        "refurbishment": " TRAIN-TO-TRASH TRAIN-TO-GAIN",
        "central_station": " money | draw | rail HEX",
        "play_twice": f" {effect.get('target_type', '').upper()}-CARD [ITS CHOICES] [then SECOND-CHOICES]",
        "lost_and_found": " CARD-FROM-DISCARD",
    }
    text = " HEX" * int(effect["rails"]) if kind == "lay_rails" else patterns.get(kind, "")
    skip = " (or 'skip')" if card.optional and kind != "none" else ""
    return f"/trains play {card.slug}{text}{skip}"


def _bad(card: Card, problem: str) -> IllegalMove:
    return IllegalMove(f"{problem} Use: {usage(card)}")


def norm_hex(card: Card, word: str) -> str:
    """A hex label (E5) or a city or remote location name (shinjuku), resolved on the game's map."""
    known = _HEX_WORDS.get(word)
    if known is not None:
        return known
    if word.lower() in board.PLACE_WORDS:
        return word.lower()
    if not HEX_PATTERN.match(word):
        raise _bad(card, f'"{word}" is not a hex label like E5 or a city name like shinjuku.')
    return word.upper()


# The answers of norm_hex for every lower-case hex label of the maps and every place word, looked
# up before the pattern is tried (every rail and station played goes through here).
_HEX_WORDS: dict[str, str] = {
    **{h.lower(): h for gmap in MAPS.values() for h in gmap.terrain if HEX_PATTERN.match(h.lower())},
    **{word: word for word in board.PLACE_WORDS},
}


def norm_card(card: Card, word: str, what: str = "card") -> str:
    if word not in CARDS:
        raise _bad(card, f'Unknown {what} "{word}"{suggest(word, CARDS)}.')
    return word


def _norm_count(card: Card, word: str) -> str:
    # ASCII digits only ("²" and "٣" pass str.isdigit) and a count no card could need more of.
    if not (word.isascii() and word.isdigit()) or len(word) > 3:
        raise _bad(card, f'"{word[:20]}" is not a number (write it with the digits 0-9).')
    return str(int(word))


def normalize(card: Card, words: list[str]) -> list[str]:
    """Canonical argument list for playing ``card`` with ``words`` (lower-case tokens)."""
    words = [w.lower() for w in words]
    kind = card.kind
    effect = card.effect
    if words == [SKIP]:
        if kind == "none":
            raise _bad(card, f"{card.name} has no effect to skip.")
        if not card.optional:
            raise _bad(card, f"{card.name}'s effect is not optional.")
        return [SKIP]
    if kind in NO_CHOICE_KINDS:
        if words:
            raise _bad(card, f"{card.name} takes no choices.")
        return []
    if kind == "lay_rails":
        if len(words) != int(effect["rails"]):
            raise _bad(card, f"{card.name} needs {effect['rails']} hex{'es' if effect['rails'] > 1 else ''}.")
        return [norm_hex(card, w) for w in words]
    if kind in ("station", "terminal"):
        if len(words) != 1:
            raise _bad(card, f"{card.name} needs the city hex.")
        return [norm_hex(card, words[0])]
    if kind == "amusement_park":
        if len(words) != 1:
            raise _bad(card, "Name the Train you played this turn whose value you copy.")
        slug = norm_card(card, words[0], "train")
        if CARDS[slug].type != "train":
            raise _bad(card, f"{CARDS[slug].name} is not a Train.")
        return [slug]
    if kind == "command_central":
        if len(words) != 1 or words[0] not in TYPES:
            hint = suggest(words[0], TYPES) if words else ""
            raise _bad(card, f"Name one card type{hint}.")
        return list(words)
    if kind in ("freight_train", "recycling"):
        if len(words) > 1:
            raise _bad(card, "Give at most one number.")
        return [_norm_count(card, words[0])] if words else []
    if kind in ("mail_train", "transfer", "scrapyard"):
        limit = int(effect.get("max", 99))
        if len(words) > limit:
            raise _bad(card, f"{card.name} handles at most {limit} cards.")
        return [norm_card(card, w) for w in words]
    if kind == "refurbishment":
        if len(words) != 2:
            raise _bad(card, "Name the Train to trash and the Train to gain.")
        slugs = [norm_card(card, w, "train") for w in words]
        for slug in slugs:
            if CARDS[slug].type != "train":
                raise _bad(card, f"{CARDS[slug].name} is not a Train.")
        return slugs
    if kind == "central_station":
        if words == ["money"] or words == ["draw"]:
            return list(words)
        if len(words) == 2 and words[0] == "rail":
            return ["rail", norm_hex(card, words[1])]
        raise _bad(card, "Choose money, draw, or rail HEX.")
    if kind == "lost_and_found":
        if len(words) != 1:
            raise _bad(card, "Name the card to take from your discard pile.")
        return [norm_card(card, words[0])]
    if kind == "play_twice":
        return _normalize_twice(card, words)
    raise _bad(card, f"{card.name} cannot be played.")


def _normalize_twice(card: Card, words: list[str]) -> list[str]:
    if not words:
        raise _bad(card, f"Name the {card.effect['target_type']} card to play twice.")
    target = CARDS[norm_card(card, words[0])]
    if target.type != card.effect["target_type"] or not target.playable:
        kind = card.effect["target_type"]
        raise _bad(card, f"{target.name} is not {'an' if kind[0] in 'aeiou' else 'a'} {kind} card.")
    if target.slug in card.effect["exclude"]:
        raise _bad(card, f"{card.name} cannot play {target.name}.")
    rest = words[1:]
    # The first 'then' always splits this card's two plays; a nested Coupling or Dispatcher
    # therefore takes one set of choices in its first play (a 'then' may follow in the second).
    if THEN in rest:
        i = rest.index(THEN)
        first, second = normalize(target, rest[:i]), normalize(target, rest[i + 1 :])
    else:
        first = second = normalize(target, rest)
    if first == second:
        return [target.slug, *first]
    return [target.slug, *first, THEN, *second]


def split_twice(args: list[str]) -> tuple[str, list[str], list[str]]:
    target, rest = args[0], args[1:]
    if THEN in rest:
        i = rest.index(THEN)
        return target, rest[:i], rest[i + 1 :]
    return target, rest, list(rest)


# ---------------------------------------------------------------- resolution


def play_card(state: State, seat: int, slug: str, args: list[str], events: list[Event], checked: bool = False) -> str:
    """Move ``slug`` from hand to the play area and resolve it; returns the public description.

    ``checked``: the caller found ``known_play(slug, args)`` true already (rules.apply asks it
    first), so the words need no second look."""
    card = CARDS[slug]
    player = state["players"][seat]
    hand = player["hand"]
    if slug not in hand:
        raise IllegalMove(f"You have no {card.name} in your hand (your hand: {hand_text(hand)}).")
    if not card.playable:
        raise IllegalMove(f"{card.name} is a {card.type} card; it cannot be played.")
    if not checked and not known_play(slug, args):
        canonical = normalize(card, args)
        if canonical != list(args):
            raise IllegalMove(f"Arguments for {card.name} are not canonical; use: {usage(card)}")
        _remember_play(slug, args)
    # deck.remove_cards of one card, written out: the latest copy, the first of the reversed hand.
    hand.reverse()
    hand.remove(slug)
    hand.reverse()
    player["play"].append(slug)
    state["turn"]["played"] = True
    return _play_once(state, seat, card, list(args), events)


def known_play(slug: str, args: object) -> bool:
    """Whether ``args`` are a list of words already found canonical for card ``slug`` (normalize
    returned them unchanged) that names no city or remote location (those stand for a hex, which
    rules.apply puts in their place first). False says nothing: the words are to be checked."""
    if type(args) is not list:
        return False
    try:
        return (slug, *args) in _KNOWN_PLAYS
    except TypeError:  # an unhashable word (a list, ...) is no word: the plain checks refuse it
        return False


def _remember_play(slug: str, args: list[str]) -> None:
    if board.PLACE_WORDS.keys().isdisjoint(args):
        if len(_KNOWN_PLAYS) >= 4096:
            _KNOWN_PLAYS.clear()
        _KNOWN_PLAYS.add((slug, *args))


# (card slug, *words) of plays whose words normalize returned unchanged and that name no place:
# normalize reads nothing but the card and the words, and every play of a game checks its words
# (a third of a move's work when done each time), while the same few plays recur all game long.
# Pure data, bounded (cleared when full).
_KNOWN_PLAYS: set[tuple[str, ...]] = set()


def _play_once(state: State, seat: int, card: Card, args: list[str], events: list[Event]) -> str:
    money = card.money
    if not money:
        parts = []
    else:
        state["turn"]["money"] += money
        parts = [_MONEY_TEXT[card.slug]]
    if args == _SKIPPED:
        parts.append("effect not used")
    elif card.kind != "none":
        parts += filter(None, _HANDLERS[card.kind](state, seat, card, args, events))
    return "; ".join(parts)


# Card slug -> the "+N money" part of its play's text; [SKIP], the words of a skipped effect.
_MONEY_TEXT = {slug: f"+{card.money} money" for slug, card in CARDS.items()}
_SKIPPED = [SKIP]


def resolve(state: State, seat: int, card: Card, args: list[str], events: list[Event]) -> list[str]:
    handler = _HANDLERS[card.kind]
    return handler(state, seat, card, args, events)


def _waste(state: State, seat: int, count: int) -> str:
    if not count:
        return ""
    got = gain_waste(state, seat, count)
    return f"gains {got} Waste" if got else "no Waste left to gain"


def _lay_rails(state: State, seat: int, card: Card, args: list[str], events: list[Event]) -> list[str]:
    left = state["players"][seat]["rails_left"]
    if left < len(args):
        raise IllegalMove(
            "You have no rail tokens left."
            if not left
            else f"{card.name} lays {len(args)} rails; you have {left} left."
        )
    if len(set(args)) != len(args):
        raise IllegalMove("You can have only one rail per hex.")
    for terrain in card.effect.get("waive", []):
        if terrain not in state["turn"]["waive"]:
            state["turn"]["waive"].append(terrain)
    parts = [board.lay_rail(state, seat, h) for h in args]
    parts.append(_waste(state, seat, int(card.effect["waste"])))
    waived = card.effect.get("waive", [])
    if waived:
        parts.append(f"no extra money for {', '.join(waived)} this turn")
    return parts


def _station(state: State, seat: int, card: Card, args: list[str], events: list[Event]) -> list[str]:
    return [board.place_station(state, args[0]), _waste(state, seat, int(card.effect["waste"]))]


def _terminal(state: State, seat: int, card: Card, args: list[str], events: list[Event]) -> list[str]:
    station = board.place_station(state, args[0])
    rail = board.lay_rail(state, seat, args[0], free=True)
    return [station, rail, _waste(state, seat, int(card.effect["waste"]))]


def _draw(state: State, seat: int, card: Card, args: list[str], events: list[Event]) -> list[str]:
    got = draw(state, seat, int(card.effect["count"]), events)
    return [f"draws {len(got)}"]


def _amusement_park(state: State, seat: int, card: Card, args: list[str], events: list[Event]) -> list[str]:
    train = CARDS[args[0]]
    if train.slug not in state["players"][seat]["play"]:
        raise IllegalMove(f"You have not played {train.name} this turn.")
    state["turn"]["money"] += train.money
    return [f"copies {train.name}: +{train.money} money"]


def _command_central(state: State, seat: int, card: Card, args: list[str], events: list[Event]) -> list[str]:
    draw(state, seat, int(card.effect["draw"]), events)
    named = args[0]
    top = top_card(state, seat, events)
    name = state["names"][seat]
    if top is None:
        return [f"names {named}; no card to reveal"]
    player = state["players"][seat]
    if CARDS[top].type == named:
        player["hand"].append(player["deck"].pop())
        outcome = "takes it into hand"
    else:
        outcome = "leaves it on top of the deck"
    events.append({"text": f"{name} reveals {name_of(top)} from their deck (named {named}).", "irreversible": True})
    return [f"names {named}, reveals {name_of(top)} and {outcome}"]


def _landfill(state: State, seat: int, card: Card, args: list[str], events: list[Event]) -> list[str]:
    player = state["players"][seat]
    in_hand, in_discard = player["hand"].count("waste"), player["discard"].count("waste")
    return_waste(state, player["hand"], in_hand)
    return_waste(state, player["discard"], in_discard)
    # The count says how many Waste were in the hand and the discard pile: hidden until now, so the
    # move reveals something (no undo across it, and others' views may differ by it).
    events.append({"irreversible": True})
    return [f"returns {in_hand + in_discard} Waste"]


def _early_train(state: State, seat: int, card: Card, args: list[str], events: list[Event]) -> list[str]:
    state["turn"]["early"] = True
    return ["cards bought this turn may go on top of the deck"]


def _return_from_hand(state: State, seat: int, args: list[str], limit: int | None) -> int:
    """Return the named number of Waste (default: all, up to ``limit``; None: the card says any number)."""
    hand = state["players"][seat]["hand"]
    have = hand.count("waste")
    count = (have if limit is None else min(have, limit)) if not args else int(args[0])
    if limit is not None and count > limit:
        raise IllegalMove(f"At most {limit} Waste.")
    if count > have:
        raise IllegalMove(f"You have only {have} Waste in your hand.")
    return_waste(state, hand, count)
    return count


def _freight_train(state: State, seat: int, card: Card, args: list[str], events: list[Event]) -> list[str]:
    count = _return_from_hand(state, seat, args, None)
    gain = count * int(card.effect["money_per_waste"])
    state["turn"]["money"] += gain
    return [f"returns {count} Waste for +{gain} money"]


def _discard_from_hand(state: State, seat: int, slugs: list[str]) -> None:
    player = state["players"][seat]
    if not remove_cards(player["hand"], slugs):
        raise IllegalMove(f"Your hand does not hold all of: {list_names(slugs)}.")
    player["discard"].extend(slugs)


def _mail_train(state: State, seat: int, card: Card, args: list[str], events: list[Event]) -> list[str]:
    _discard_from_hand(state, seat, args)
    gain = len(args) * int(card.effect["money_per_card"])
    state["turn"]["money"] += gain
    return [f"discards {list_names(args)} for +{gain} money"]


def _track_vp(state: State, seat: int, card: Card, args: list[str], events: list[Event]) -> list[str]:
    state["players"][seat]["track_vp"] += int(card.effect["vp"])
    return [f"+{card.effect['vp']} VP on the track"]


def _rail_yard(state: State, seat: int, card: Card, args: list[str], events: list[Event]) -> list[str]:
    gain = state["turn"]["rails_laid"] * int(card.effect["money_per_rail"])
    state["turn"]["money"] += gain
    return [f"+{gain} money for rails laid this turn"]


def _transfer(state: State, seat: int, card: Card, args: list[str], events: list[Event]) -> list[str]:
    _discard_from_hand(state, seat, args)
    draw(state, seat, len(args), events)
    return [f"discards {list_names(args)} and draws {len(args)}"]


def _refurbishment(state: State, seat: int, card: Card, args: list[str], events: list[Event]) -> list[str]:
    old, new = CARDS[args[0]], CARDS[args[1]]
    player = state["players"][seat]
    if old.slug not in player["hand"]:
        raise IllegalMove(f"You have no {old.name} in your hand to trash.")
    if state["supply"].get(new.slug, 0) <= 0:
        raise IllegalMove(f"There is no {new.name} in the supply.")
    limit = old.cost + int(card.effect["up_to"])
    if new.cost > limit:
        raise IllegalMove(f"{new.name} costs {new.cost}; trashing {old.name} allows up to {limit}.")
    remove_cards(player["hand"], [old.slug])
    _trash(state, old.slug)
    state["supply"][new.slug] -= 1
    player["hand"].append(new.slug)
    return [f"trashes {old.name} and gains {new.name} into hand"]


def _central_station(state: State, seat: int, card: Card, args: list[str], events: list[Event]) -> list[str]:
    mode = args[0]
    if mode == "money":
        state["turn"]["money"] += int(card.effect["money"])
        return [f"+{card.effect['money']} money"]
    if mode == "draw":
        got = draw(state, seat, int(card.effect["draw"]), events)
        return [f"draws {len(got)}"]
    rail = board.lay_rail(state, seat, args[1], waive=card.effect["waive"])
    return [rail, _waste(state, seat, int(card.effect["waste"]))]


def _trash(state: State, slug: str) -> None:
    trash = state["trash"]  # replaced, not changed: apply's copy shares it (copying.fork)
    state["trash"] = {**trash, slug: trash.get(slug, 0) + 1}


def _scrapyard(state: State, seat: int, card: Card, args: list[str], events: list[Event]) -> list[str]:
    player = state["players"][seat]
    if not remove_cards(player["hand"], args):
        raise IllegalMove(f"Your hand does not hold all of: {list_names(args)}.")
    for slug in args:
        if slug == "waste":
            state["supply"]["waste"] += 1
        else:
            _trash(state, slug)
    return [f"trashes {list_names(args)}"]


def _play_twice(state: State, seat: int, card: Card, args: list[str], events: list[Event]) -> list[str]:
    slug, first, second = split_twice(args)
    target = CARDS[slug]
    player = state["players"][seat]
    if slug not in player["hand"]:
        raise IllegalMove(
            f"You have no {target.name} in your hand for {card.name} (your hand: {hand_text(player['hand'])})."
        )
    remove_cards(player["hand"], [slug])
    player["play"].append(slug)
    one = _play_once(state, seat, target, first, events)
    two = _play_once(state, seat, target, second, events)
    return [f"plays {target.name} twice ({one or 'nothing'} / {two or 'nothing'})"]


def _lost_and_found(state: State, seat: int, card: Card, args: list[str], events: list[Event]) -> list[str]:
    player = state["players"][seat]
    if not remove_cards(player["discard"], args):
        raise IllegalMove(f"There is no {name_of(args[0])} in your discard pile.")
    player["hand"].append(args[0])
    events.append({"private": {"seat": seat, "text": f"You took {name_of(args[0])} from your discard pile."}})
    return ["takes a card from the discard pile into hand"]


def _gain_waste(state: State, seat: int, card: Card, args: list[str], events: list[Event]) -> list[str]:
    return [_waste(state, seat, int(card.effect["waste"]))]


def _sightseeing(state: State, seat: int, card: Card, args: list[str], events: list[Event]) -> list[str]:
    gmap = board.game_map(state)
    remotes = sum(1 for h in gmap.remotes if seat in state["rails"].get(h, ()))
    gain = min(int(card.effect["max"]), remotes) * int(card.effect["vp_per_remote"])
    state["players"][seat]["track_vp"] += gain
    return [f"+{gain} VP on the track"]


def _recycling(state: State, seat: int, card: Card, args: list[str], events: list[Event]) -> list[str]:
    count = _return_from_hand(state, seat, args, int(card.effect["max"]))
    # The returned Waste goes to the supply, not the discard pile, so the draw can come up short.
    got = draw(state, seat, count, events)
    return [f"returns {count} Waste and draws {len(got)}"]


def _signal_box(state: State, seat: int, card: Card, args: list[str], events: list[Event]) -> list[str]:
    state["turn"]["money"] += int(card.effect["money"])
    state["turn"]["discount"] += int(card.effect["discount"])
    return [f"+{card.effect['money']} money; next rail costs {card.effect['discount']} less"]


_HANDLERS = {
    "lay_rails": _lay_rails,
    "station": _station,
    "terminal": _terminal,
    "draw": _draw,
    "amusement_park": _amusement_park,
    "command_central": _command_central,
    "landfill": _landfill,
    "early_train": _early_train,
    "freight_train": _freight_train,
    "mail_train": _mail_train,
    "track_vp": _track_vp,
    "rail_yard": _rail_yard,
    "transfer": _transfer,
    "refurbishment": _refurbishment,
    "central_station": _central_station,
    "scrapyard": _scrapyard,
    "play_twice": _play_twice,
    "lost_and_found": _lost_and_found,
    "gain_waste": _gain_waste,
    "sightseeing": _sightseeing,
    "recycling": _recycling,
    "signal_box": _signal_box,
}
