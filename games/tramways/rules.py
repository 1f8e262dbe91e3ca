"""Setup (with the optional parcel draft before round 1), the round structure (auction, auction
cards, actions, administration), apply, status, resignation and the hidden-information helper.

Turn order is ``state["order"]``; ``state["turn"]`` says which phase step and how many actions
the current seat has left. Everything random (board draw, tile positions, decks) goes through
the seeded RNG kept in the state.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from games import cards
from games.base import MOVE_KEY, Event, IllegalMove, Move, State, Status
from games.json_copy import deep_copy, fork, own_item, own_items, shared_items, sharing
from games.rng import Rng, seed_state
from games.tramways import actions, links
from games.tramways.board import place_tiles
from games.tramways.content import (
    BOARDS,
    BUILDING_TYPES,
    CARDS,
    DEVELOPMENT,
    LAYOUT,
    SETTINGS,
    card,
    card_name,
    parcel_card_slug,
)
from games.tramways.notation import VERB_NAMES

RULES_VERSION = "2"  # 2: icons within actions (at), the parcel draft, bids per seat in the state
MODULES = ("station", "exchange", "park", "master")
BY_PHASE = {
    "draft": ("draft",),
    "auction": ("bid", "pass"),
    "take": ("take",),
    "actions": ("rails", "upgrade-link", "build", "upgrade-building", "move", "master", "use", "done"),
    "admin": ("discard", "buy", "done"),
}


def clone(state: State) -> State:
    """A full copy (resign, kick, redeal); apply shares the other players instead (see apply)."""
    copy: State = deep_copy(state)
    return copy


def _modules(options: Mapping[str, Any]) -> dict[str, bool]:
    chosen = {name: bool(options.get(name, False)) for name in MODULES}
    # The Station Master requires the Station (Expansion #1), so asking for him brings it along.
    chosen["station"] = chosen["station"] or chosen["master"]
    return chosen


def _draw_map(players: int, modules: dict[str, bool], rng: Rng) -> tuple[list[str], list[Any]]:
    """Boards at random, then the expansion tiles; if the tiles cannot be placed legally, change
    the boards (the rulebook's remedy)."""
    cols, rows = LAYOUT[players]
    kinds = tuple(kind for kind in ("station", "exchange", "park") if modules[kind])
    for _ in range(100):
        boards = tuple(rng.shuffled(sorted(BOARDS, key=int))[: cols * rows])
        tiles = place_tiles(boards, players, kinds, rng)
        if tiles is not None:
            return list(boards), [[kind, list(cells)] for kind, cells in tiles]
    raise IllegalMove("No arrangement of the boards leaves room for the expansion tiles.")


def setup(players: Sequence[str], options: Mapping[str, Any], seed: int) -> State:
    if not 1 <= len(players) <= 5:
        raise IllegalMove("Tramways needs 1 to 5 players.")
    modules = _modules(options)
    drafting = str(options.get("parcels", "random")) == "draft"
    n = len(players)
    rng = Rng(seed_state(seed))
    boards, tiles = _draw_map(n, modules, rng)
    state: State = {
        "game": "tramways",
        "rules_version": RULES_VERSION,
        "names": list(players),
        "modules": modules,
        "boards": boards,
        "tiles": tiles,
        "rng": 0,
        "round": 0,
        "phase": "auction",
        "order": list(range(n)),
        "current": 0,
        "turn": {},
        "auction": {},
        "display": [],
        "auction_deck": [],
        "dev_deck": [],
        "dev_display": [],
        "players": [],
        "parcels": {},
        "built": {},
        "passengers": {},
        "links": [],
        "rails": {},
        "building_tiles": {t: SETTINGS["building_tiles"][str(n)] for t in BUILDING_TYPES},
        "building_cards": {t: n for t in BUILDING_TYPES},
        "station_cards": SETTINGS["station_cards"][str(n)] if modules["station"] else 0,
        "master": {"at": "STATION", "moved": False} if modules["master"] else None,
        "move_number": 0,
    }
    gmap = links.game_map(state)
    for endpoint in gmap.endpoints:
        if endpoint.kind == "building":
            state["passengers"][endpoint.label] = len(endpoint.cells)
        elif endpoint.kind == "station":
            state["passengers"][endpoint.label] = SETTINGS["station_passengers"]
    for _ in range(n):
        state["players"].append(
            {
                "money": SETTINGS["start_money"],
                "hp": 0,
                "stress": 0,
                "workers": SETTINGS["start_workers"],
                "rails_left": SETTINGS["rail_tiles"],
                "deck": [],
                "hand": [],
                "discard": [],
                "resigned": False,
                "station_link": False,
            }
        )
    labels = [e.label for e in gmap.endpoints if e.kind == "parcel"]
    if drafting:
        # The advanced rule the Grand Station rulebook recommends: the starting parcels are drafted.
        state["rng"] = rng.state
        state["phase"] = "draft"
        state["draft"] = {"pool": sorted(labels, key=lambda p: int(p[1:])), "picks": _draft_picks(n)}
        state["current"] = state["draft"]["picks"][0]
        return state
    parcels = rng.shuffled(labels)
    dealt = SETTINGS["parcels_per_player"]
    _deal(state, rng, [parcels[seat * dealt : (seat + 1) * dealt] for seat in range(n)], parcels[n * dealt :])
    return state


def _draft_picks(n: int) -> list[int]:
    """The seats in draft order: one pick each per pass, passes alternating direction for a snake."""
    picks: list[int] = []
    for step in range(SETTINGS["parcels_per_player"]):
        seats = list(range(n))
        picks += seats[::-1] if SETTINGS["draft_order"] == "snake" and step % 2 else seats
    return picks


def _deal(
    state: State, rng: Rng, mine_by_seat: list[list[str]], undealt: list[str], events: list[Event] | None = None
) -> None:
    """The starting parcels are settled: decks (each with its owner's parcel cards), the auction
    deck (with the other parcel cards), the development display, hands; then round 1."""
    start_deck = [slug for slug, c in CARDS.items() if c.group == "start" for _ in range(c.copies)]
    own_items(state["players"])  # every player's deck and hand
    for seat, player in enumerate(state["players"]):
        mine = sorted(mine_by_seat[seat], key=lambda p: int(p[1:]))
        for label in mine:
            state["parcels"][label] = seat
        # Each player's own parcel cards start in their deck: the parcel's destination icon.
        player["deck"] = rng.shuffled([*start_deck, *(parcel_card_slug(p) for p in mine)])
    auction_cards = [slug for slug, c in CARDS.items() if c.group == "auction" for _ in range(c.copies)]
    state["auction_deck"] = rng.shuffled([*auction_cards, *(parcel_card_slug(p) for p in undealt)])
    dev = [slug for slug in DEVELOPMENT for _ in range(CARDS[slug].copies)]
    state["dev_deck"] = rng.shuffled(dev)
    size = SETTINGS["development_display"]
    state["dev_display"] = [state["dev_deck"].pop() for _ in range(min(size, len(state["dev_deck"])))]
    state["rng"] = rng.state
    for seat, player in enumerate(state["players"]):
        cards.draw(state, seat, player, SETTINGS["hand_limit"], [] if events is None else events, card_name)
    _start_round(state, [] if events is None else events)


def _draft(state: State, seat: int, label: str, events: list[Event]) -> None:
    draft = state["draft"]
    if label not in draft["pool"]:
        raise IllegalMove(f"{label} is not a parcel left in the draft. Left: {', '.join(draft['pool'])}.")
    draft["pool"].remove(label)
    draft["picks"].pop(0)
    draft.setdefault("taken", {}).setdefault(str(seat), []).append(label)
    state["parcels"][label] = seat
    events.append({"text": f"{state['names'][seat]} drafts parcel {label}."})
    _next_drafter(state, events)


def _next_drafter(state: State, events: list[Event]) -> None:
    draft = state["draft"]
    while draft["picks"] and state["players"][draft["picks"][0]]["resigned"]:
        draft["picks"].pop(0)
    if draft["picks"]:
        state["current"] = draft["picks"][0]
        return
    taken = draft.get("taken", {})
    mine = [taken.get(str(seat), []) for seat in range(len(state["players"]))]
    state["parcels"] = {}
    events.append({"text": "The parcel draft is over.", "irreversible": True, "post_board": True})
    del state["draft"]
    rng = Rng(state["rng"])
    _deal(state, rng, mine, draft["pool"], events)


# ---------------------------------------------------------------- turn order and phases


def active(state: State) -> list[int]:
    return [s for s in state["order"] if not state["players"][s]["resigned"]]


def _start_round(state: State, events: list[Event]) -> None:
    state["round"] += 1
    if state["round"] > SETTINGS["rounds"]:
        _finish(state, events)
        return
    rnd = state["round"]
    events.append({"text": f"Round {rnd} of {SETTINGS['rounds']} begins.", "post_board": True})
    if rnd <= SETTINGS["auction_rounds"]:
        size = len(active(state)) + SETTINGS["auction_display_extra"]
        deck = state["auction_deck"]
        state["display"] = [deck.pop() for _ in range(min(size, len(deck)))]
        if state["display"]:
            shown = ", ".join(card_name(c) for c in state["display"])
            events.append({"text": f"Auction cards on display: {shown}.", "irreversible": True})
    else:
        state["display"] = []
    seats = active(state)
    if len(seats) <= 1:
        # Nobody to bid against: no auction, and no first-player stress.
        _after_auction(state, seats, events)
        return
    state["phase"] = "auction"
    state["auction"] = {"high": 0, "queue": seats, "passed": [], "paid": {}, "leader": None}
    state["current"] = seats[0]


def _after_auction(state: State, order: list[int], events: list[Event]) -> None:
    resigned = [s for s in state["order"] if s not in order]
    state["order"] = [*order, *resigned]
    state["auction"] = {}
    if state["display"] and order:
        state["phase"] = "take"
        state["turn"] = {"index": 0}
        state["current"] = order[0]
    else:
        _start_actions(state, events)


def _start_actions(state: State, events: list[Event]) -> None:
    state["phase"] = "actions"
    state["display"] = []
    state["turn"] = {"step": 1, "index": 0, "actions_left": 1}
    state["current"] = active(state)[0]
    events.append({"text": "Actions: one action each, then two each.", "post_board": True})
    _settle_turn(state, events)


def master_available(state: State, seat: int) -> bool:
    info = state["master"]
    if info is None or info["moved"] or state["phase"] != "actions" or seat != actions.last_player(state):
        return False
    gmap = links.game_map(state)
    for _, there in links.graph(state).get(info["at"], ()):
        endpoint = gmap.endpoint(there)
        if endpoint is not None and links.is_destination(state, endpoint):
            return True
    return False


def _settle_turn(state: State, events: list[Event]) -> None:
    """After an action: the seat keeps the turn while it has actions (or a Station Master move) left."""
    turn = state["turn"]
    if turn["actions_left"] > 0 or master_available(state, state["current"]):
        return
    _end_action_turn(state, events)


def _end_action_turn(state: State, events: list[Event]) -> None:
    turn = state["turn"]
    seat = state["current"]
    name = state["names"][seat]
    info = state["master"]
    if turn["step"] == 2 and info is not None and not info["moved"] and seat == actions.last_player(state):
        penalty = SETTINGS["master_unmoved_stress"]
        actions.add_stress(own_item(state["players"], seat), penalty)
        events.append({"text": f"{name} did not move the Station Master: +{penalty} stress."})
    seats = active(state)
    index = seats.index(seat) + 1 if seat in seats else turn["index"]
    if index < len(seats):
        state["turn"] = {"step": turn["step"], "index": index, "actions_left": turn["step"]}
        state["current"] = seats[index]
    elif turn["step"] == 1:
        state["turn"] = {"step": 2, "index": 0, "actions_left": 2}
        state["current"] = seats[0]
        events.append({"text": "Double-action round: two actions each."})
    else:
        _start_admin(state, events)
        return
    events.append({"text": f"{name} ends their turn. {state['names'][state['current']]} to act.", "post_board": True})
    _settle_turn(state, events)


def _start_admin(state: State, events: list[Event]) -> None:
    state["phase"] = "admin"
    state["turn"] = {"index": 0, "discarded": False, "bought": False}
    state["current"] = active(state)[0]
    events.append(
        {"text": "Administration: discard, buy a development card, draw up to your hand limit.", "post_board": True}
    )


def _end_admin_turn(state: State, events: list[Event]) -> None:
    seat = state["current"]
    player = own_item(state["players"], seat)
    missing = max(0, SETTINGS["hand_limit"] - len(player["hand"]))
    cards.draw(state, seat, player, missing, events, card_name)
    seats = active(state)
    index = seats.index(seat) + 1
    if index < len(seats):
        state["turn"] = {"index": index, "discarded": False, "bought": False}
        state["current"] = seats[index]
        events.append({"text": f"{state['names'][state['current']]} to do their administration.", "post_board": True})
        return
    _end_round(state, events)


def _end_round(state: State, events: list[Event]) -> None:
    gmap = links.game_map(state)
    for endpoint in gmap.endpoints:
        cap = links.capacity(state, endpoint)
        if cap or endpoint.label in state["passengers"]:
            state["passengers"][endpoint.label] = cap
    loss = SETTINGS["round_end_hp_loss"]
    own_items(state["players"])  # overstressed players lose HP
    for seat in active(state):
        player = state["players"][seat]
        if player["stress"] >= loss["from_stress"]:
            player["hp"] -= loss["hp"]
            events.append({"text": f"{state['names'][seat]} is overstressed: -{loss['hp']} HP."})
    if state["master"] is not None:
        state["master"]["moved"] = False
    events.append({"text": f"Round {state['round']} ends: buildings refill with passengers."})
    _start_round(state, events)


def _finish(state: State, events: list[Event]) -> None:
    from games.tramways.scoring import standings

    state["phase"] = "over"
    state["round"] = min(state["round"], SETTINGS["rounds"])
    table = standings(state)
    result = ", ".join(f"{row['player']} {row['score']}" for row in table)
    events.append({"text": f"Game over. Final scores: {result}.", "post_board": True})


# ---------------------------------------------------------------- auction


def _next_bidder(state: State, seat: int) -> int:
    auction = state["auction"]
    queue = [s for s in auction["queue"] if s not in auction["passed"] and not state["players"][s]["resigned"]]
    later = [s for s in queue if auction["queue"].index(s) > auction["queue"].index(seat)]
    return (later or queue)[0]


def _bid(state: State, seat: int, amount: int, events: list[Event]) -> None:
    auction, player = state["auction"], state["players"][seat]
    if amount <= auction["high"]:
        raise IllegalMove(f"Bid more than the high bid of ${auction['high']} (or pass).")
    if amount > player["money"]:
        raise IllegalMove(f"You have ${player['money']}; bids are paid in full when made.")
    player["money"] -= amount
    auction["high"] = amount
    auction["leader"] = seat
    auction["paid"][str(seat)] = auction["paid"].get(str(seat), 0) + amount  # bids add up
    events.append({"text": f"{state['names'][seat]} bids ${amount} (paid to the bank)."})
    state["current"] = _next_bidder(state, seat)


def _pass(state: State, seat: int, events: list[Event]) -> None:
    auction = state["auction"]
    auction["passed"].append(seat)
    events.append({"text": f"{state['names'][seat]} passes."})
    remaining = [s for s in auction["queue"] if s not in auction["passed"] and not state["players"][s]["resigned"]]
    if len(remaining) > 1:
        state["current"] = _next_bidder(state, seat)
        return
    passed = [s for s in auction["passed"] if not state["players"][s]["resigned"]]
    order = [*remaining, *reversed(passed)]
    first = order[0]
    stress = SETTINGS["first_player_stress"][state["round"] - 1]
    actions.add_stress(own_item(state["players"], first), stress)
    names = ", ".join(state["names"][s] for s in order)
    events.append(
        {"text": f"Turn order: {names}. {state['names'][first]} goes first: +{stress} stress.", "post_board": True}
    )
    _after_auction(state, order, events)


def _take(state: State, seat: int, slug: str, events: list[Event]) -> None:
    if slug not in state["display"]:
        shown = ", ".join(sorted(set(state["display"])))
        raise IllegalMove(f"{slug} is not on display. On display: {shown}.")
    state["display"].remove(slug)
    state["players"][seat]["hand"].append(slug)
    text = f"{state['names'][seat]} takes {card_name(slug)}"
    icon = card(slug).icons[0]
    if slug.startswith("parcel-"):
        state["parcels"][icon.upper()] = seat
        text += f" and now owns parcel {icon.upper()}"
    events.append({"text": text + "."})
    seats = active(state)
    index = seats.index(seat) + 1
    if index < len(seats) and state["display"]:
        state["turn"] = {"index": index}
        state["current"] = seats[index]
    else:
        _start_actions(state, events)


# ---------------------------------------------------------------- administration


def _discard(state: State, seat: int, slugs: list[str], events: list[Event]) -> None:
    turn, player = state["turn"], state["players"][seat]
    if turn["discarded"] or turn["bought"]:
        raise IllegalMove("Discard once, before buying.")
    if not slugs:
        raise IllegalMove("Name the cards to discard.")
    cost = max(0, len(slugs) - SETTINGS["free_discards"]) * SETTINGS["discard_cost"]
    if cost > player["money"]:
        raise IllegalMove(f"Discarding {len(slugs)} cards costs ${cost}; you have ${player['money']}.")
    if not cards.remove_cards(player["hand"], slugs):
        raise IllegalMove(f"You do not hold all of: {', '.join(slugs)}.")
    player["discard"].extend(sorted(slugs))
    player["money"] -= cost
    turn["discarded"] = True
    shown = ", ".join(card_name(s) for s in sorted(slugs))
    events.append({"text": f"{state['names'][seat]} discards {shown}" + (f" for ${cost}." if cost else ".")})


def _buy(state: State, seat: int, slug: str, events: list[Event]) -> None:
    turn, player = state["turn"], state["players"][seat]
    if turn["bought"]:
        raise IllegalMove("You may buy one development card per round.")
    if slug not in state["dev_display"]:
        raise IllegalMove(
            f"{slug} is not on display. Development cards: {', '.join(sorted(set(state['dev_display'])))}."
        )
    cost = CARDS[slug].cost
    if cost > player["money"]:
        raise IllegalMove(f"{card_name(slug)} costs ${cost}; you have ${player['money']}.")
    player["money"] -= cost
    state["dev_display"].remove(slug)
    player["discard"].append(slug)
    turn["bought"] = True
    events.append({"text": f"{state['names'][seat]} buys {card_name(slug)} for ${cost}."})
    if state["dev_deck"]:
        new = state["dev_deck"].pop()
        state["dev_display"].append(new)
        events.append({"text": f"New development card: {card_name(new)}.", "irreversible": True})


# ---------------------------------------------------------------- apply


def _check_turn(state: State, seat: int, verb: str) -> None:
    if state["phase"] == "over":
        raise IllegalMove("The game is over.")
    if not 0 <= seat < len(state["players"]) or state["players"][seat]["resigned"]:
        raise IllegalMove("You are not playing in this game.")
    if seat != state["current"]:
        raise IllegalMove(f"It is {state['names'][state['current']]}'s turn, not yours.")
    allowed = BY_PHASE[state["phase"]]
    if verb not in allowed:
        raise IllegalMove(f"Now ({state['phase']}) you can: {', '.join('/tram ' + v for v in allowed)}.")


ACTIONS = {
    "rails": actions.rails,
    "upgrade-link": actions.upgrade_link,
    "build": actions.build,
    "upgrade-building": actions.upgrade_building,
    "move": actions.move_passenger,
    "use": actions.use,
}


def apply(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    verb = move.get(MOVE_KEY) if isinstance(move, dict) else None
    if verb not in VERB_NAMES:
        raise IllegalMove(f"Unknown command {verb!r}; use one of: {', '.join(VERB_NAMES)}.")
    _check_turn(state, seat, str(verb))
    # Only the mover's player is copied; the rules copy another player's part (own_item /
    # own_items) before changing it: round ends, turn-order stress, link and building owners.
    new = fork(state, "players", seat)
    events: list[Event] = []
    try:
        with sharing(shared_items(state, "players", seat)):
            _dispatch(new, seat, str(verb), move, events)
    except (KeyError, ValueError, TypeError, IndexError) as exc:  # malformed move dicts are refused, not crashes
        raise IllegalMove(f"That move is malformed ({type(exc).__name__}).") from None
    new["move_number"] += 1
    return new, events


def _dispatch(state: State, seat: int, verb: str, move: Move, events: list[Event]) -> None:
    if verb == "draft":
        _draft(state, seat, str(move.get("parcel", "")).upper(), events)
    elif verb == "bid":
        _bid(state, seat, int(move.get("amount", 0)), events)
    elif verb == "pass":
        _pass(state, seat, events)
    elif verb == "take":
        _take(state, seat, str(move.get("card", "")), events)
    elif verb in ACTIONS:
        if state["turn"]["actions_left"] <= 0:
            raise IllegalMove("You have no actions left this turn; move the Station Master or /tram done.")
        ACTIONS[verb](state, seat, move, events)
        state["turn"]["actions_left"] -= 1
        _settle_turn(state, events)
    elif verb == "master":
        actions.master(state, seat, move, events)
        _settle_turn(state, events)
    elif verb == "discard":
        _discard(state, seat, list(move.get("cards", [])), events)
    elif verb == "buy":
        _buy(state, seat, str(move.get("card", "")), events)
    elif state["phase"] == "actions":  # done
        events.append({"text": f"{state['names'][seat]} is done."})
        _end_action_turn(state, events)
    else:
        _end_admin_turn(state, events)


# ---------------------------------------------------------------- status, resignation, undo, redeal


def status(state: State) -> Status:
    names = state["names"]
    if state["phase"] == "over":
        from games.tramways.scoring import standings

        table = standings(state)
        winners = [r["player"] for r in table if r["rank"] == 1 and r.get("title") != "resigned"]
        if len(winners) > 1:
            summary = f"Game over: {' and '.join(winners)} share the win with {table[0]['score']} HP."
        elif winners:
            summary = f"Game over: {winners[0]} wins with {table[0]['score']} HP."
        else:
            summary = "Game over."
        return Status(to_act=(), finished=True, summary=summary)
    seat = state["current"]
    phase = state["phase"]
    if phase == "draft":
        return Status(to_act=(seat,), finished=False, summary=f"Parcel draft: {names[seat]} to take a starting parcel")
    if phase == "auction":
        what = f"to bid more than ${state['auction']['high']} or pass"
    elif phase == "take":
        what = "to take an auction card"
    elif phase == "actions":
        left = state["turn"]["actions_left"]
        what = f"to act ({left} action{'s' if left != 1 else ''} left)"
        if master_available(state, seat):
            what += ", Station Master free move"
    else:
        what = "to do administration"
    return Status(to_act=(seat,), finished=False, summary=f"Round {state['round']}: {names[seat]} {what}")


def kick(state: State, seat: int) -> tuple[State, list[Event]]:
    """A moderator removes ``seat``: it leaves as a resignation does (see the decisions in
    data/settings.json), said as a kick and shown as kicked."""
    new, events = resign(state, seat)
    new["players"][seat]["kicked"] = True
    name = new["names"][seat]
    for event in events:
        if event.get("text") == f"{name} resigns.":
            event["text"] = f"{name} was kicked by a moderator."
    return new, events


def skip_move(state: State, seat: int) -> Move:
    """A moderator's /mod skip: the least that ends the seat's part, never a strategic choice."""
    phase = state["phase"]
    if phase == "auction":
        return {MOVE_KEY: "pass"}
    if phase in ("draft", "take"):
        from games.tramways.movegen import legal_moves  # movegen imports this module

        return legal_moves(state, seat)[0]
    return {MOVE_KEY: "done"}


def resign(state: State, seat: int) -> tuple[State, list[Event]]:
    if state["phase"] == "over":
        raise IllegalMove("The game is over.")
    if not 0 <= seat < len(state["players"]) or state["players"][seat]["resigned"]:
        raise IllegalMove("You are not playing in this game.")
    new = clone(state)
    events: list[Event] = [{"text": f"{new['names'][seat]} resigns.", "post_board": True}]
    seats_before = active(new)
    new["players"][seat]["resigned"] = True
    remaining = active(new)
    if len(remaining) < min(2, len(new["players"])):
        _finish(new, events)
    elif new["current"] == seat:
        phase = new["phase"]
        if phase == "draft":
            _next_drafter(new, events)
        elif phase == "auction":
            _pass_out(new, seat, events)
        else:
            index = seats_before.index(seat)
            if index < len(remaining):
                new["current"] = remaining[index]
                if phase == "actions":
                    new["turn"].update(index=index, actions_left=new["turn"]["step"])
                    _settle_turn(new, events)
                elif phase == "take":
                    new["turn"] = {"index": index}
                else:
                    new["turn"] = {"index": index, "discarded": False, "bought": False}
            else:
                _phase_over(new, phase, events)
    new["move_number"] += 1
    return new, events


def _pass_out(state: State, seat: int, events: list[Event]) -> None:
    auction = state["auction"]
    remaining = [s for s in auction["queue"] if s not in auction["passed"] and not state["players"][s]["resigned"]]
    if len(remaining) > 1:
        state["current"] = _next_bidder(state, seat)
        return
    passed = [s for s in auction["passed"] if not state["players"][s]["resigned"]]
    _after_auction(state, [*remaining, *reversed(passed)], events)


def _phase_over(state: State, phase: str, events: list[Event]) -> None:
    """The resigning seat was the last of its phase step: move on as its turn's end would."""
    if phase == "take":
        _start_actions(state, events)
    elif phase == "actions":
        if state["turn"]["step"] == 1:
            state["turn"] = {"step": 2, "index": 0, "actions_left": 2}
            state["current"] = active(state)[0]
            _settle_turn(state, events)
        else:
            _start_admin(state, events)
    else:
        _end_round(state, events)


def undo_scope(state: State) -> Hashable:
    """The open turn: a player may take back their own moves until the turn passes on."""
    turn = state["turn"]
    return (state["round"], state["phase"], turn.get("step", 0), turn.get("index", 0), state["current"])


def redeal(state: State, seat: int, seed: int) -> State:
    """``state`` with ``seat``'s hand and deck order dealt afresh (for the conformance suite)."""
    new = clone(state)
    cards.redeal_hidden(new["players"][seat], Rng(seed_state(seed)))
    return new
