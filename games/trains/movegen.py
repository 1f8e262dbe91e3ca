"""legal_moves: every move the seat may make now.

Cards with free-form choices (Mail Train, Transfer, Scrapyard, Coupling, Dispatcher)
have too many equivalent argument lists to list them all; for those a canonical subset
is generated (every returned move is legal). Everything else is enumerated in full.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

from games.base import MOVE_KEY, IllegalMove, Move, State
from games.trains import board
from games.trains.content import CARDS, KINGDOM, RULES, TYPES, Card
from games.trains.copying import fork
from games.trains.effects import NO_CHOICE_KINDS, SKIP, THEN


def legal_moves(state: State, seat: int) -> list[Move]:
    if state["phase"] == "over" or seat != state["current"] or state["players"][seat]["resigned"]:
        return []
    # Every move is a copy of a template dict with its own "args" list: copying a small dict is a
    # quarter cheaper than building it key by key, and a listing makes a dozen moves or more.
    if state["phase"] == "start":
        starts: list[Move] = []
        add = starts.append
        for h in board.start_hexes(state):
            move = _START.copy()
            move["hex"] = h
            add(move)
        return starts
    moves: list[Move] = []
    add = moves.append
    player = state["players"][seat]
    hand = player["hand"]
    plan = _HAND_PLANS.get(frozenset(hand))
    if plan is None:
        plan = _hand_plan(hand)
    # Rail options per waiver set, worked out once for every rail-laying card in the hand; the
    # _RailOptions that card_choices takes is made only for a card listed there (it shares them).
    opened: dict[tuple[str, ...], list[str]] = {}
    rails: _RailOptions | None = None
    # The common kinds are listed here directly (the same lists card_choices makes); this runs
    # for every move of every game, so it avoids a call per card and per choice.
    for slug, how, waive, skippable in plan:
        template = _PLAY_MOVE[slug]
        if how == _PLAIN:
            move = template.copy()
            move["args"] = []
            add(move)
        else:
            if how == _ONE_RAIL:
                options = opened.get(waive)
                if options is None:
                    options = opened[waive] = board.open_rails(state, seat, waive) if player["rails_left"] > 0 else []
            elif how == _STATION:
                options = board.station_hexes(state)
            else:
                if rails is None:
                    rails = _RailOptions(state, seat, opened)
                for args in card_choices(state, seat, CARDS[slug], in_hand_already=True, rails=rails):
                    move = template.copy()
                    move["args"] = args
                    add(move)
                continue  # card_choices adds the skip itself
            for h in options:
                move = template.copy()
                move["args"] = [h]
                add(move)
        if skippable:
            move = template.copy()
            move["args"] = [SKIP]
            add(move)
    turn = state["turn"]
    money = turn["money"]
    if money >= _CHEAPEST:
        supply = state["supply"]
        early = turn["early"]
        for slug in state["piles"]:
            if supply[slug] > 0 and _COST[slug] <= money:
                add(_BUY_MOVE[slug].copy())
                if early:
                    add(_BUY_TOP_MOVE[slug].copy())
    if not turn["played"] and not turn["bought"]:
        add(_PASS.copy())
    add(_END.copy())
    return moves


# The templates legal_moves copies (key order as the moves always had: verb first).
_START: Move = {MOVE_KEY: "start", "hex": None}
_PLAY_MOVE: dict[str, Move] = {slug: {MOVE_KEY: "play", "card": slug, "args": None} for slug in CARDS}
_BUY_MOVE: dict[str, Move] = {slug: {MOVE_KEY: "buy", "card": slug, "top": False} for slug in CARDS}
_BUY_TOP_MOVE: dict[str, Move] = {slug: {MOVE_KEY: "buy", "card": slug, "top": True} for slug in CARDS}
_PASS: Move = {MOVE_KEY: "pass"}
_END: Move = {MOVE_KEY: "end"}


_COST = {slug: card.cost for slug, card in CARDS.items()}
# The cheapest card a pile can hold (setup makes the piles from these two lists): with less money
# nothing can be bought, so the piles need not be looked at (most listings come before any money).
_CHEAPEST = min(_COST[slug] for slug in [*RULES["basic_supply"], *KINGDOM])
_UNPLAYABLE, _PLAIN, _ONE_RAIL, _STATION, _OTHER = range(5)


def _play_plan(card: Card) -> tuple[int, tuple[str, ...], bool]:
    """How legal_moves lists a card's plays: (which way, waived terrains, whether 'skip' follows)."""
    skippable = card.optional and card.kind != "none"
    waive = tuple(card.effect.get("waive", []))
    if not card.playable:
        return _UNPLAYABLE, waive, skippable
    if card.kind in NO_CHOICE_KINDS:
        return _PLAIN, waive, skippable
    if card.kind == "lay_rails" and card.effect["rails"] == 1:
        return _ONE_RAIL, waive, skippable
    if card.kind == "station":
        return _STATION, waive, skippable
    return _OTHER, waive, skippable


_PLAY = {slug: _play_plan(card) for slug, card in CARDS.items()}


def _hand_plan(hand: list[str]) -> tuple[tuple[str, int, tuple[str, ...], bool], ...]:
    """The playable cards of ``hand``, each once in name order, with its ``_play_plan``."""
    cards = frozenset(hand)
    plan = tuple((slug, *_PLAY[slug]) for slug in sorted(cards) if _PLAY[slug][0] != _UNPLAYABLE)
    if len(_HAND_PLANS) >= 4096:
        _HAND_PLANS.clear()
    _HAND_PLANS[cards] = plan
    return plan


# The set of cards in a hand -> _hand_plan: pure data (card slugs to their content), asked for on
# every listing. The plan reads only which cards the hand holds, not their order or copies, so
# the set is the key: keyed by the hand as a tuple, one listing in three missed (the same cards
# come in another order), by its set nearly none do. Bounded (cleared when full).
_HAND_PLANS: dict[frozenset[str], tuple[tuple[str, int, tuple[str, ...], bool], ...]] = {}


def _distinct(cards: list[str]) -> list[str]:
    return sorted(set(cards))


def rail_options(state: State, seat: int, waive: list[str] | tuple[str, ...] = (), free: bool = False) -> list[str]:
    """Hexes where one rail can be laid right now (adjacency, money, rails left)."""
    if state["players"][seat]["rails_left"] <= 0:
        return []
    if free:
        return board.affordable_rails(state, seat, board.frontier(state, seat), waive, free)
    return board.open_rails(state, seat, tuple(waive))


class _RailOptions:
    """``rail_options`` and the frontier for one state, each worked out at most once (per waiver
    set): a hand may hold several rail-laying cards, and their choices read the same board."""

    def __init__(self, state: State, seat: int, options: dict[tuple[str, ...], list[str]] | None = None) -> None:
        self.state = state
        self.seat = seat
        self._frontier: list[str] | None = None
        # ``options``: answers already worked out for this state and seat (legal_moves passes its own).
        self._options: dict[tuple[str, ...], list[str]] = {} if options is None else options

    def frontier(self) -> list[str]:
        if self._frontier is None:
            self._frontier = board.frontier(self.state, self.seat)
        return self._frontier

    def options(self, waive: tuple[str, ...]) -> list[str]:
        found = self._options.get(waive)
        if found is None:
            state, seat = self.state, self.seat
            found = [] if state["players"][seat]["rails_left"] <= 0 else board.open_rails(state, seat, waive)
            self._options[waive] = found
        return found


def card_choices(
    state: State, seat: int, card: Card, in_hand_already: bool, rails: _RailOptions | None = None
) -> list[list[str]]:
    """Argument lists for playing ``card`` now (the card is assumed to leave the hand first)."""
    hand = state["players"][seat]["hand"]
    if in_hand_already and card.slug in hand and card.kind in _HAND_KINDS:
        hand = list(hand)
        hand.remove(card.slug)
    choices = _effect_choices(state, seat, card, hand, rails or _RailOptions(state, seat))
    if card.optional and card.kind != "none":
        choices.append([SKIP])
    return choices


# Card kinds whose choices read the rest of the hand (the others never look at it).
_HAND_KINDS = frozenset(
    {"freight_train", "recycling", "mail_train", "transfer", "scrapyard", "refurbishment", "play_twice"}
)


def _effect_choices(state: State, seat: int, card: Card, hand: list[str], rails: _RailOptions) -> list[list[str]]:
    kind = card.kind
    effect = card.effect
    player = state["players"][seat]
    if kind in NO_CHOICE_KINDS:
        return [[]]
    if kind == "lay_rails":
        waive = tuple(effect.get("waive", []))
        if effect["rails"] == 1:
            return [[h] for h in rails.options(waive)]
        return _double_rails(state, seat, waive, int(effect["rails"]))
    if kind == "station":
        return [[h] for h in board.station_hexes(state)]
    if kind == "terminal":
        if player["rails_left"] <= 0:
            return []
        reachable = set(rails.frontier())
        return [[h] for h in board.station_hexes(state) if h in reachable]
    if kind == "amusement_park":
        return [[t] for t in _distinct(player["play"]) if CARDS[t].type == "train"]
    if kind == "command_central":
        return [[t] for t in TYPES]
    if kind == "freight_train":
        return [[str(k)] for k in range(hand.count("waste") + 1)]
    if kind == "recycling":
        return [[str(k)] for k in range(min(int(effect["max"]), hand.count("waste")) + 1)]
    if kind == "mail_train":
        return _mail_choices(hand)
    if kind in ("transfer", "scrapyard"):
        return _up_to(hand, int(effect["max"]))
    if kind == "refurbishment":
        out = []
        for old in _distinct(hand):
            if CARDS[old].type != "train":
                continue
            for new in state["piles"]:
                c = CARDS[new]
                limit = CARDS[old].cost + effect["up_to"]
                if c.type == "train" and state["supply"][new] > 0 and c.cost <= limit:
                    out.append([old, new])
        return out
    if kind == "central_station":
        out = [["money"], ["draw"]]
        out.extend(["rail", h] for h in rails.options(tuple(effect["waive"])))
        return out
    if kind == "lost_and_found":
        return [[c] for c in _distinct(player["discard"])]
    if kind == "play_twice":
        return _twice_choices(state, seat, card, hand)
    return []


def _double_rails(state: State, seat: int, waive: tuple[str, ...], count: int) -> list[list[str]]:
    if state["players"][seat]["rails_left"] < count:
        return []
    out: list[list[str]] = []
    for first in rail_options(state, seat, waive):
        trial = _trial(state)
        trial["turn"]["waive"] = sorted(set(trial["turn"]["waive"]) | set(waive))
        try:
            board.lay_rail(trial, seat, first)
        except IllegalMove:
            continue
        out.extend([first, second] for second in rail_options(trial, seat, waive))
    return out


def _trial(state: State) -> State:
    """A cheap copy of the parts a rail trial changes."""
    trial = dict(state)
    trial["turn"] = dict(state["turn"], waive=list(state["turn"]["waive"]))
    trial["players"] = [dict(p, gained=list(p["gained"])) for p in state["players"]]
    trial["supply"] = dict(state["supply"])
    return trial


def _mail_choices(hand: list[str]) -> list[list[str]]:
    """Discard nothing, any one card, k Waste, and all Waste plus Victory cards."""
    options: list[list[str]] = [[]]
    options.extend([c] for c in _distinct(hand))
    waste = hand.count("waste")
    options.extend(["waste"] * k for k in range(2, waste + 1))
    junk = sorted(c for c in hand if CARDS[c].type in ("waste", "victory"))
    options.append(junk)
    seen: set[tuple[str, ...]] = set()
    unique = []
    for opt in options:
        key = tuple(opt)
        if key not in seen:
            seen.add(key)
            unique.append(opt)
    return unique


def _up_to(hand: list[str], limit: int) -> list[list[str]]:
    out: list[list[str]] = [[]]
    kinds = _distinct(hand)
    for size in range(1, limit + 1):
        for combo in combinations_with_replacement(kinds, size):
            if all(hand.count(c) >= combo.count(c) for c in set(combo)):
                out.append(list(combo))
    return out


def _twice_choices(state: State, seat: int, card: Card, hand: list[str]) -> list[list[str]]:
    """Same choices for both plays, or the choice then 'skip'; each candidate is checked by trial."""
    from games.trains.effects import play_card

    out: list[list[str]] = []
    for args in _twice_candidates(state, seat, card, hand, nested=False):
        trial = fork(state, seat)  # the copy apply plays on: what a card changes in place is copied
        try:
            play_card(trial, seat, card.slug, args, [])
        except IllegalMove:
            continue
        out.append(args)
    return out


def _twice_candidates(state: State, seat: int, card: Card, hand: list[str], nested: bool) -> list[list[str]]:
    """Unchecked argument lists for a play-twice card; ``nested`` ones never use 'then'.

    Inside Dispatcher the first 'then' belongs to Dispatcher, so a nested Coupling or
    Dispatcher is offered with one set of choices only.
    """
    out: list[list[str]] = []
    for slug in _distinct(hand):
        target = CARDS[slug]
        if target.type != card.effect["target_type"] or slug in card.effect["exclude"]:
            continue
        if not target.playable:
            continue
        rest = list(hand)
        rest.remove(slug)
        if target.kind == "play_twice":
            inner = _twice_candidates(state, seat, target, rest, nested=True)
        else:
            fake = dict(state)
            fake["players"] = list(state["players"])
            fake["players"][seat] = dict(state["players"][seat], hand=rest)
            inner = _effect_choices(fake, seat, target, rest, _RailOptions(fake, seat))
        skippable = target.optional and target.kind != "none"
        if skippable:
            out.append([slug, SKIP])
        for choice in inner:
            out.append([slug, *choice])
            if skippable and not nested:
                out.append([slug, *choice, THEN, SKIP])
    return out
