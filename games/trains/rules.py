"""Setup, move application, turn order, end of game, status and resignation."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from itertools import repeat
from typing import Any

from games import cards
from games.base import MOVE_KEY, Event, IllegalMove, Move, State, Status
from games.notation import suggest
from games.rng import Rng, seed_state
from games.trains import board
from games.trains.content import CARDS, KINGDOM, MAP_NAMES, MAPS, RULES
from games.trains.copying import clone, fork, fork_board, fork_end, fork_plain
from games.trains.deck import clean_up, draw, gain_waste, return_waste
from games.trains.effects import SKIP, known_play, play_card
from games.trains.notation import ALL_TRAINS, VERB_NAMES
from games.trains.shuffle import shuffled

RULES_VERSION = "1"


def new_turn() -> dict[str, Any]:
    turn = _NEW_TURN.copy()  # a copy of a dict is cheaper than building one key by key
    turn["waive"] = []
    return turn


_NEW_TURN: dict[str, Any] = {
    "money": 0,
    "played": False,
    "bought": False,
    "buys": 0,
    "rails_laid": 0,
    "waive": None,  # a new list per turn
    "discount": 0,
    "early": False,
}


def _kingdom(options: Mapping[str, Any], rng: Rng) -> list[str]:
    raw = options.get("kingdom") or []
    if isinstance(raw, str):
        raw = [w for w in raw.replace(" ", ",").split(",") if w]
    chosen: list[str] = []
    for word in raw:
        slug = str(word).lower()
        if slug not in KINGDOM:
            raise IllegalMove(
                f'"{slug}" is not a kingdom card{suggest(slug, KINGDOM)}. Kingdom cards: {", ".join(KINGDOM)}.'
            )
        if slug in chosen:
            raise IllegalMove(f"{slug} is listed twice in kingdom.")
        chosen.append(slug)
    size = RULES["kingdom_size"]
    if len(chosen) > size:
        raise IllegalMove(f"kingdom takes at most {size} cards; got {len(chosen)}.")
    # Fewer than 8 named: the rest are drawn at random, like the randomizer deck.
    rest, rng.state = shuffled(rng.state, [k for k in KINGDOM if k not in chosen])  # packed (shuffle.py)
    chosen.extend(rest[: size - len(chosen)])
    return sorted(chosen, key=lambda s: (CARDS[s].cost, s))


def setup(players: Sequence[str], options: Mapping[str, Any], seed: int) -> State:
    if not 2 <= len(players) <= 4:
        raise IllegalMove("Trains needs 2 to 4 players.")
    map_name = str(options.get("map") or "tokyo").lower()
    if map_name not in MAPS:
        raise IllegalMove(f"Unknown map {map_name}{suggest(map_name, MAP_NAMES)}. Maps: {', '.join(MAP_NAMES)}.")
    rng = Rng(seed_state(seed))
    kingdom = _kingdom(options, rng)
    start_deck: dict[str, int] = RULES["starting_deck"]
    supply: dict[str, int] = {}
    for slug in [*RULES["basic_supply"], *kingdom]:
        card = CARDS[slug]
        count = card.copies
        if card.copies_minus_starting:
            count -= start_deck.get(slug, 0) * len(players)
        supply[slug] = max(0, count)
    supply["waste"] = CARDS["waste"].copies
    state: State = {
        "game": "trains",
        "rules_version": RULES_VERSION,
        "map": map_name,
        "names": list(players),
        "kingdom": kingdom,
        "piles": [*RULES["basic_supply"], *kingdom],
        "supply": supply,
        "players": [],
        "rails": {},
        "stations": {},
        "stations_left": RULES["stations_total"],
        "trash": {},
        "phase": "start",
        "current": 0,
        "turn": new_turn(),
        "turn_number": 0,
        "move_number": 0,
        "end_reasons": [],
        "rng": 0,
    }
    ordered = [slug for slug, n in start_deck.items() for _ in range(n)]
    for _ in players:
        deck, rng.state = shuffled(rng.state, ordered)  # rng.shuffled's deck, packed (shuffle.py)
        state["players"].append(
            {
                "deck": deck,
                "hand": [],
                "discard": [],
                "play": [],
                "gained": [],
                "rails_left": RULES["rails_per_player"],
                "track_vp": 0,
                "resigned": False,
                "start": None,
            }
        )
    state["rng"] = rng.state
    for seat in range(len(players)):
        draw(state, seat, RULES["hand_size"], [])
    return state


# ---------------------------------------------------------------- turn order


def active_seats(state: State) -> list[int]:
    return [s for s, p in enumerate(state["players"]) if not p["resigned"]]


def _next_active(state: State, seat: int) -> int | None:
    n = len(state["players"])
    for step in range(1, n + 1):
        cand = (seat + step) % n
        if not state["players"][cand]["resigned"]:
            return cand
    return None


def _advance_start(state: State, events: list[Event]) -> None:
    waiting = [s for s in active_seats(state) if state["players"][s]["start"] is None]
    if waiting:
        later = [s for s in waiting if s > state["current"]]
        state["current"] = later[0] if later else waiting[0]
        return
    state["phase"] = "play"
    state["current"] = active_seats(state)[0]
    state["turn"] = new_turn()
    state["turn_number"] = 1
    events.append(
        {"text": f"All starting rails are placed. {state['names'][state['current']]} begins.", "post_board": True}
    )


def end_reasons(state: State) -> list[str]:
    supply = state["supply"]
    players = state["players"]
    # Checked at every end of turn, when mostly nothing has ended the game: no supply count is 0,
    # every player has rails left and stations remain; C-level looks say so at once.
    if all(supply.values()) and state["stations_left"] != 0 and RULES["end_empty_piles"] > 0:
        for player in players:  # a loop over the few players is cheaper than map(itemgetter)
            if not player["rails_left"]:
                break
        else:
            return []
    reasons = []
    # Checked at every end of turn, and on most turns no count in the supply is 0 (the piles are a
    # part of it); one C-level look at the counts says so without counting the piles one by one.
    empty = list(map(supply.__getitem__, state["piles"])).count(0) if 0 in supply.values() else 0
    if empty >= RULES["end_empty_piles"]:
        reasons.append(f"{empty} supply piles are empty")
    for seat, player in enumerate(state["players"]):
        if player["rails_left"] == 0:
            reasons.append(f"{state['names'][seat]} has placed all their rails")
    if state["stations_left"] == 0:
        reasons.append("all stations are on the board")
    return reasons


def _finish(state: State, events: list[Event], reasons: list[str]) -> None:
    from games.trains.scoring import standings

    state["phase"] = "over"
    state["end_reasons"] = reasons
    table = standings(state)
    result = ", ".join(f"{row['player']} {row['score']}" for row in table)
    events.append({"text": f"Game over ({'; '.join(reasons)}). Final scores: {result}.", "post_board": True})


def _end_turn(state: State, events: list[Event]) -> None:
    seat = state["current"]
    clean_up(state, seat, events)
    reasons = end_reasons(state)
    if reasons:
        _finish(state, events, reasons)
        return
    players = state["players"]
    nxt = seat + 1 if seat + 1 < len(players) else 0
    if players[nxt]["resigned"]:  # the next seat in order, unless it resigned
        found = _next_active(state, seat)
        nxt = seat if found is None else found
    state["current"] = nxt
    state["turn"] = new_turn()
    state["turn_number"] += 1
    names = state["names"]
    events.append({"text": f"{names[seat]} ends their turn. {names[state['current']]}'s turn.", "post_board": True})


def undo_scope(state: State) -> Hashable:
    """The open turn: (phase, turn counter, seat to act); it changes at every turn change.

    Turns are sequential, so a player may take back their own move while this is unchanged.
    ``turn_number`` stays 0 while starting rails go down and each placement is a whole turn, so
    that phase counts the placed starting rails instead. The phase is part of the scope so the
    last start and the end of the game close the open turn too.
    """
    if state["phase"] == "start":
        turn = sum(1 for player in state["players"] if player["start"] is not None)
    else:
        turn = state["turn_number"]
    return (state["phase"], turn, state["current"])


def redeal(state: State, seat: int, seed: int) -> State:
    """``state`` with ``seat``'s hand and deck dealt afresh from ``seed`` (for the conformance suite).

    Hand and deck order are that seat's secrets; their sizes and the cards they hold together are
    kept, so nothing another seat may see changes. The suite uses this to prove views hide them.
    """
    new = clone(state)
    cards.redeal_hidden(new["players"][seat], Rng(seed_state(seed)))
    return new


# ---------------------------------------------------------------- apply


def _check_turn(state: State, seat: int) -> None:
    if state["phase"] == "over":
        raise IllegalMove("The game is over.")
    if not 0 <= seat < len(state["players"]) or state["players"][seat]["resigned"]:
        raise IllegalMove("You are not playing in this game.")
    if seat != state["current"]:
        raise IllegalMove(f"It is {state['names'][state['current']]}'s turn, not yours.")


def apply(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    # _check_turn's conditions at once (every move passes them); it says what is wrong otherwise.
    # The seat to act is always one of the players, so a seat equal to it needs no range check.
    phase = state["phase"]
    if seat != state["current"] or phase == "over" or state["players"][seat]["resigned"]:
        _check_turn(state, seat)
    verb = move.get(MOVE_KEY) if isinstance(move, dict) else None
    if verb not in VERB_NAMES:
        raise IllegalMove(f"Unknown command {verb!r}; use one of: {', '.join(VERB_NAMES)}.")
    if phase == "start" and verb != "start":
        raise IllegalMove("First place your starting rail: /trains start HEX.")
    if phase == "play" and verb == "start":
        raise IllegalMove("Starting rails are all placed; play, buy, pass or end your turn.")
    events: list[Event] = []
    name = state["names"][seat]
    # The verbs by how often they come: playing a card, then ending the turn.
    if verb == "play":
        word = move.get("card", "")
        if word == ALL_TRAINS:
            new = fork(state, seat)  # only the mover's player is copied
            _play_all_trains(new, seat, events)
        else:
            slug = str(word)
            if slug not in CARDS:
                raise IllegalMove(f"Unknown card {slug!r}{suggest(slug, CARDS)}.")
            args = move.get("args", [])
            known = known_play(slug, args)  # a play seen before passes the checks below (effects.py)
            if not known:
                if not isinstance(args, list) or not all(map(isinstance, args, repeat(str))):
                    raise IllegalMove("Card choices must be a list of words.")
                # City and remote location names stand for their hex on this game's map.
                if not board.PLACE_WORDS.keys().isdisjoint(args):
                    args = [board.place_hex(state, a) if a in board.PLACE_WORDS else a for a in args]
            # A card without effect, or with its effect skipped, changes only the hand, the play
            # area and the turn (copying.fork_plain); the words of a known play are canonical.
            if known and (slug in _NO_EFFECT or args == _SKIPPED):
                new = fork_plain(state, seat)
            elif slug in _BUILDS:
                new = fork_board(state, seat)  # neither deck nor discard pile is touched
            else:
                new = fork(state, seat)
            text = play_card(new, seat, slug, args, events, checked=known)
            events.insert(0, {"text": f"{name} plays {CARDS[slug].name}" + (f": {text}." if text else ".")})
    elif verb == "end":
        new = fork_end(state, seat)  # ending a turn changes less than the other verbs
        _end_turn(new, events)
    elif verb == "start":
        new = fork(state, seat)
        hexname = board.place_hex(new, str(move.get("hex", "")))
        problem = board.start_problem(new, seat, hexname)
        if problem:
            raise IllegalMove(problem)
        new["rails"] = {**new["rails"], hexname: [seat]}  # replaced: fork shares the rails dict
        new["players"][seat]["rails_left"] -= 1
        new["players"][seat]["start"] = hexname
        events.append({"text": f"{name} places their starting rail on {hexname}.", "post_board": True})
        _advance_start(new, events)
    elif verb == "buy":
        new = fork(state, seat)
        _buy(new, seat, str(move.get("card", "")), bool(move.get("top", False)), events)
    else:  # pass
        new = fork(state, seat)
        turn = new["turn"]
        if turn["played"] or turn["bought"]:
            raise IllegalMove("You can only pass before playing or buying anything this turn; use /trains end.")
        hand = new["players"][seat]["hand"]
        count = hand.count("waste")
        return_waste(new, hand, count)
        events.append({"text": f"{name} passes and returns {count} Waste to the supply."})
        _end_turn(new, events)
    new["move_number"] += 1
    return new, events


# Cards whose play has no effect; [SKIP], the words of a skipped effect.
_NO_EFFECT = frozenset(slug for slug, card in CARDS.items() if card.kind == "none")
_SKIPPED = [SKIP]
# Cards whose effect only builds: rails, a station, or both (copying.fork_board).
_BUILDS = frozenset(slug for slug, card in CARDS.items() if card.kind in ("lay_rails", "station", "terminal"))


# Train cards that ``/trains play all-trains`` plays: those without choices or drawbacks (not Freight
# or Mail Train, which ask what to return, nor Commuter Rush, which brings Waste).
ALL_TRAIN_KINDS = ("none", "early_train", "track_vp", "draw")


def _play_all_trains(state: State, seat: int, events: list[Event]) -> None:
    hand = state["players"][seat]["hand"]
    slugs = [s for s in hand if CARDS[s].type == "train" and CARDS[s].kind in ALL_TRAIN_KINDS]
    if not slugs:
        raise IllegalMove("You have no train card to play without choices (Freight and Mail Train need choices).")
    effects: list[Event] = []
    played = []
    for slug in slugs:
        text = play_card(state, seat, slug, [], effects)
        played.append(CARDS[slug].name + (f" ({text})" if text else ""))
    money = state["turn"]["money"]
    line = f"{state['names'][seat]} plays all trains: {', '.join(played)}; {money} money to spend."
    events += [{"text": line}, *effects]


def _buy(state: State, seat: int, slug: str, top: bool, events: list[Event]) -> None:
    card = CARDS.get(slug)
    if card is None:
        raise IllegalMove(f"Unknown card {slug!r}{suggest(slug, CARDS)}.")
    if not card.buyable:
        raise IllegalMove(f"{card.name} can never be bought.")
    if slug not in state["piles"]:
        raise IllegalMove(f"{card.name} is not in this game's supply. Piles: {', '.join(state['piles'])}.")
    if state["supply"][slug] <= 0:
        raise IllegalMove(f"The {card.name} pile is empty; empty piles cannot be bought from.")
    turn = state["turn"]
    if card.cost > turn["money"]:
        raise IllegalMove(f"{card.name} costs {card.cost}; you have {turn['money']} money.")
    if top and not turn["early"]:
        raise IllegalMove("Only with Early Train's effect this turn can a bought card go on top of your deck.")
    turn["money"] -= card.cost
    turn["bought"] = True
    turn["buys"] += 1
    state["supply"][slug] -= 1
    player = state["players"][seat]
    (player["deck"] if top else player["gained"]).append(slug)
    text = f"{state['names'][seat]} buys {card.name}" + (" onto their deck" if top else "")
    if card.on_buy_waste:
        got = gain_waste(state, seat, card.on_buy_waste)
        text += f" and gains {got} Waste" if got else " (no Waste left to gain)"
    events.append({"text": text + "."})


# ---------------------------------------------------------------- status and resignation


def status(state: State) -> Status:
    phase = state["phase"]
    if phase == "play":  # nearly every call: a turn in play, its Status from the memo below
        seat = state["current"]
        turn = state["turn"]
        found = _TURN_STATUS.get((seat, state["names"][seat], turn["money"], turn["buys"]))
        if found is not None:
            return found
    names = state["names"]
    if phase == "over":
        from games.trains.scoring import standings

        table = standings(state)
        winners = [r["player"] for r in table if r["rank"] == 1 and r.get("title") not in ("resigned", "kicked")]
        if len(winners) > 1:
            summary = f"Game over: {' and '.join(winners)} share the win with {table[0]['score']} points."
        elif winners:
            summary = f"Game over: {winners[0]} wins with {table[0]['score']} points."
        else:
            summary = "Game over."
        return Status(to_act=(), finished=True, summary=summary)
    seat = state["current"]
    if phase == "start":
        return Status(to_act=(seat,), finished=False, summary=f"{names[seat]} to place a starting rail")
    turn = state["turn"]
    key = (seat, names[seat], turn["money"], turn["buys"])
    found = _TURN_STATUS.get(key)
    if found is None:
        seat, name, money, buys = key
        summary = f"{name}'s turn ({money} money, {buys} buy{'s' if buys != 1 else ''} made)"
        found = Status(to_act=(seat,), finished=False, summary=summary)
        if len(_TURN_STATUS) >= 4096:
            _TURN_STATUS.clear()
        _TURN_STATUS[key] = found
    return found


# (seat, name, money, buys) -> the Status of a turn in play. Status is frozen, so equal turns share
# one: hosts and bots ask for it around every move, and building it was a measurable part of a move.
_TURN_STATUS: dict[tuple[int, str, int, int], Status] = {}


def kick(state: State, seat: int) -> tuple[State, list[Event]]:
    """A moderator removes ``seat``: like a resignation, said as a kick; whether the seat's rails stay
    on the board (and keep costing others) is the ``kicked_rails`` rule in data/rules.json."""
    new, events = resign(state, seat)
    name = new["names"][seat]
    new["players"][seat]["kicked"] = True
    if RULES.get("kicked_rails") == "lifted":
        # A new dict, not the clone's changed in place: board.own_rails keeps answers per dict.
        lifted = {h: [s for s in seats if s != seat] if seat in seats else seats for h, seats in new["rails"].items()}
        new["rails"] = {h: seats for h, seats in lifted.items() if seats}
    for event in events:
        if event.get("text") == f"{name} resigns.":
            event["text"] = f"{name} was kicked by a moderator."
    return new, events


def skip_move(state: State, seat: int) -> Move:
    """A moderator's /mod skip: end the turn without playing or buying. In the start phase, where a
    starting rail must go down, the first free hex in label order (not a chosen one)."""
    if state["phase"] == "start":
        from games.trains.movegen import legal_moves  # movegen imports this module

        starts = legal_moves(state, seat)
        if starts:
            return starts[0]
    return {MOVE_KEY: "end"}


def resign(state: State, seat: int) -> tuple[State, list[Event]]:
    if state["phase"] == "over":
        raise IllegalMove("The game is over.")
    if not 0 <= seat < len(state["players"]) or state["players"][seat]["resigned"]:
        raise IllegalMove("You are not playing in this game.")
    new = clone(state)
    events: list[Event] = [{"text": f"{new['names'][seat]} resigns.", "post_board": True}]
    new["players"][seat]["resigned"] = True
    was_current = new["current"] == seat
    if was_current and new["phase"] == "play":
        clean_up(new, seat, events, draw_hand=False)
    if len(active_seats(new)) < 2:
        _finish(new, events, ["fewer than two players remain"])
    elif was_current:
        if new["phase"] == "start":
            _advance_start(new, events)
        else:
            new["current"] = _next_active(new, seat)
            new["turn"] = new_turn()
            new["turn_number"] += 1
            events.append({"text": f"{new['names'][new['current']]}'s turn."})
    new["move_number"] += 1
    return new, events
