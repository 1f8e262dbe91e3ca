"""Bot seats. Level 0: a uniformly random legal move. Level 1: a heuristic policy.

Level 1 plays draw and money cards first, lays rails along the cheapest path to the most
valuable city or remote location it does not reach yet, puts stations where its own rails
outnumber the others', and buys by a simple money / rails / stations / victory plan that
turns to victory cards when the end comes near. Each candidate is checked with apply()
and the first legal one is returned, so the bot can never send an illegal move.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterator
from functools import cache

from games.base import MOVE_KEY, IllegalMove, Move, State
from games.rng import Rng
from games.trains import board, movegen
from games.trains.content import CARDS, MAPS, RULES
from games.trains.rules import apply

# What each target hex is worth to a seat (level 1's ``_targets``, or level 2's own in ai_rails.py).
Targets = Callable[[State, int], dict[str, float]]

_PLAY_ORDER_TRAINS = ("limited-express-train", "early-train", "express-train", "commuter-rush", "normal-train")


def bot_move(state: State, seat: int, level: int) -> Move:
    moves = movegen.legal_moves(state, seat)
    if not moves:
        raise IllegalMove("This seat has nothing to do now.")
    if level <= 0:
        salt = ((seat + 1) * 0x9E3779B97F4A7C15) ^ (state["move_number"] * 0xBF58476D1CE4E5B9)
        rng = Rng(state["rng"] ^ salt)
        return rng.choice(moves)
    if level >= 2:
        from games.trains.ai_search import choose  # level 2: search over buys (ai_search.py)

        return choose(state, seat)
    if state["phase"] == "start":
        return {MOVE_KEY: "start", "hex": _best_start(state, seat)}
    for move in _candidates(state, seat):
        try:
            apply(state, seat, move)
        except IllegalMove:
            continue
        return move
    return {MOVE_KEY: "end"}


# ---------------------------------------------------------------- start


@cache
def _static_distances(map_slug: str) -> dict[str, dict[str, float]]:
    """All-pairs path costs on an empty board: entering a hex costs 1 + half its surcharge."""
    gmap = MAPS[map_slug]
    table = RULES["surcharge"]
    enter: dict[str, float] = {}
    for h in gmap.land:
        terrain = gmap.terrain[h]
        by_terrain = {"river": table["river"], "mountain": table["mountain"], "city": table["city_base"]}
        cost = by_terrain.get(terrain, 0)
        if terrain == "remote":
            cost = gmap.remotes[h].value
        enter[h] = 1 + 0.5 * cost
    result: dict[str, dict[str, float]] = {}
    for source in gmap.land:
        dist = {source: 0.0}
        heap = [(0.0, source)]
        while heap:
            d, h = heapq.heappop(heap)
            if d > dist[h]:
                continue
            for n in gmap.neighbours[h]:
                nd = d + enter[n]
                if nd < dist.get(n, 1e9):
                    dist[n] = nd
                    heapq.heappush(heap, (nd, n))
        result[source] = dist
    return result


def _city_worth(state: State, h: str) -> float:
    gmap = MAPS[state["map"]]
    bonus = RULES["station_bonus"]
    slots = gmap.cities[h].value
    return bonus[min(slots, 3)] * 0.6 + bonus[min(state["stations"].get(h, 0), 3)] + 1


def _best_start(state: State, seat: int) -> str:
    gmap = MAPS[state["map"]]
    others = [p["start"] for s, p in enumerate(state["players"]) if s != seat and p["start"]]
    table = _static_distances(state["map"])
    best, best_score = "", -1e9
    for h in board.start_hexes(state):
        dist = table[h]
        score = 0.0
        for c in gmap.cities:
            score += _city_worth(state, c) / (1 + dist.get(c, 99)) ** 1.5
        for r, place in gmap.remotes.items():
            score += place.value / (1 + dist.get(r, 99)) ** 1.5
        for o in others:
            if dist.get(o, 99) < 4:
                score -= 3
        if score > best_score:
            best, best_score = h, score
    return best


# ---------------------------------------------------------------- play phase


def _candidates(state: State, seat: int) -> Iterator[Move]:
    player = state["players"][seat]
    hand = player["hand"]
    turn = state["turn"]
    waste = hand.count("waste")
    cleaners = {"landfill", "freight-train", "recycling-plant", "scrapyard", "transfer", "mail-train"}
    if not turn["played"] and not turn["bought"] and waste >= 3 and not cleaners & set(hand):
        yield {MOVE_KEY: "pass"}

    def play(card: str, *args: str) -> Move:
        return {MOVE_KEY: "play", "card": card, "args": list(args)}

    # Card draw and hand fixing first: more cards means better choices later.
    if "timetable" in hand:
        yield play("timetable")
    if "night-train" in hand:
        yield play("night-train")
    if "command-central" in hand:
        yield play("command-central", "train")
    if "recycling-plant" in hand and waste:
        yield play("recycling-plant", str(min(3, waste)))
    if "landfill" in hand and waste + player["discard"].count("waste") >= 2:
        yield play("landfill")
    if "transfer" in hand:
        junk = [c for c in hand if CARDS[c].type in ("waste", "victory")][:2]
        if junk:
            yield play("transfer", *junk)
    if "lost-and-found" in hand and player["discard"]:
        best = max(player["discard"], key=lambda c: (_card_value(c), c))
        yield play("lost-and-found", best)
    if "scrapyard" in hand and waste:
        yield play("scrapyard", *["waste"] * min(2, waste))
    if "refurbishment" in hand:
        for old in ("normal-train", "commuter-rush", "express-train"):
            if old in hand:
                gain = _best_train_up_to(state, CARDS[old].cost + 3)
                if gain:
                    yield play("refurbishment", old, gain)
    if "freight-train" in hand:
        yield play("freight-train", str(waste))
    if "mail-train" in hand:
        junk = sorted(c for c in hand if CARDS[c].type in ("waste", "victory"))
        yield play("mail-train", *junk)
    if "tourist-train" in hand:
        yield play("tourist-train")
    if "coupling" in hand:
        for t in _PLAY_ORDER_TRAINS:
            if t in hand:
                yield play("coupling", t)
    if "dispatcher" in hand:
        for target, args in (
            ("timetable", ()),
            ("central-station", ("money",)),
            ("signal-box", ()),
            ("command-central", ("train",)),
        ):
            if target in hand:
                yield play("dispatcher", target, *args)
    for t in _PLAY_ORDER_TRAINS:
        if t in hand:
            yield play(t)
    if "signal-box" in hand:
        yield play("signal-box")
    if "amusement-park" in hand:
        played = [c for c in player["play"] if CARDS[c].type == "train"]
        if played:
            yield play("amusement-park", max(played, key=lambda c: (CARDS[c].money, c)))
    yield from _rail_moves(state, seat)
    yield from _station_moves(state, seat)
    if "rail-yard" in hand and turn["rails_laid"]:
        yield play("rail-yard")
    if "sightseeing-bus" in hand:
        gmap = MAPS[state["map"]]
        if any(seat in state["rails"].get(h, ()) for h in gmap.remotes):
            yield play("sightseeing-bus")
    if "central-station" in hand:
        yield play("central-station", "money")
    yield from _buys(state, seat)
    yield {MOVE_KEY: "end"}


def _card_value(slug: str) -> int:
    card = CARDS[slug]
    if card.type in ("waste", "victory"):
        return -1
    return card.money * 2 + (3 if card.type in ("rail", "station") else 0) + card.cost


def _best_train_up_to(state: State, limit: int) -> str | None:
    options = [
        s for s in state["piles"] if CARDS[s].type == "train" and state["supply"][s] > 0 and CARDS[s].cost <= limit
    ]
    if not options:
        return None
    return max(options, key=lambda s: (CARDS[s].money + (1 if s == "tourist-train" else 0), CARDS[s].cost, s))


def _targets(state: State, seat: int) -> dict[str, float]:
    gmap = MAPS[state["map"]]
    out: dict[str, float] = {}
    for h in gmap.cities:
        if seat not in state["rails"].get(h, ()):
            out[h] = _city_worth(state, h)
    for h, place in gmap.remotes.items():
        if seat not in state["rails"].get(h, ()):
            out[h] = float(place.value)
    return out


def _plan_rails(state: State, seat: int, waive: tuple[str, ...] = (), worth: Targets | None = None) -> list[str]:
    """Frontier hexes ordered by how well they lead to a valuable target (``worth``: what each target is
    worth to the seat; level 1's own by default, level 2 passes its own)."""
    options = movegen.rail_options(state, seat, waive)
    if not options:
        return []
    targets = (worth or _targets)(state, seat)
    table = _static_distances(state["map"])
    scored = []
    for h in options:
        dist = table[h]
        value = max((w / (1 + dist.get(t, 99)) for t, w in targets.items()), default=0.0)
        value -= 0.35 * board.rail_cost(state, seat, h, waive)
        scored.append((-value, h))
    scored.sort()
    return [h for _, h in scored]


def _rail_moves(state: State, seat: int, worth: Targets | None = None) -> Iterator[Move]:
    hand = state["players"][seat]["hand"]
    for slug in sorted(set(hand)):
        card = CARDS[slug]
        if card.kind != "lay_rails":
            continue
        waive = tuple(card.effect.get("waive", []))
        plan = _plan_rails(state, seat, waive, worth)
        if not plan:
            continue
        if card.effect["rails"] == 1:
            yield {MOVE_KEY: "play", "card": slug, "args": [plan[0]]}
        else:
            for second in plan[1:3]:
                yield {MOVE_KEY: "play", "card": slug, "args": [plan[0], second]}
    if "central-station" in hand:
        plan = _plan_rails(state, seat, ("river", "mountain"), worth)
        if plan:
            yield {MOVE_KEY: "play", "card": "central-station", "args": ["rail", plan[0]]}


def _station_moves(state: State, seat: int) -> Iterator[Move]:
    hand = state["players"][seat]["hand"]
    station_cards = [c for c in sorted(set(hand)) if CARDS[c].kind in ("station", "terminal")]
    if not station_cards:
        return
    bonus = RULES["station_bonus"]
    frontier = set(board.frontier(state, seat))
    best, best_value = None, 0.0
    for h in board.station_hexes(state):
        s = state["stations"].get(h, 0)
        gain = bonus[min(s + 1, 3)] - bonus[min(s, 3)]
        seats = state["rails"].get(h, [])
        mine = 1 if seat in seats else 0
        theirs = len(seats) - mine
        value = gain * (mine - 0.7 * theirs) + (0.5 if h in frontier and not theirs else 0)
        if value > best_value:
            best, best_value = h, value
    if best is None:
        return
    for slug in station_cards:
        if CARDS[slug].kind == "station":
            yield {MOVE_KEY: "play", "card": slug, "args": [best]}
    if "terminal" in station_cards:
        for h in board.station_hexes(state):
            if h in frontier:
                yield {MOVE_KEY: "play", "card": "terminal", "args": [h]}


def _buys(state: State, seat: int) -> Iterator[Move]:
    money = state["turn"]["money"]
    if money < 2:
        return
    early = state["turn"]["early"]
    for slug in wish_list(state, seat, money):
        if slug in state["piles"] and state["supply"][slug] > 0 and CARDS[slug].cost <= money:
            yield {MOVE_KEY: "buy", "card": slug, "top": early and CARDS[slug].type != "victory"}
            return


def wish_list(state: State, seat: int, money: int, stations_useful: Callable[[], bool] = lambda: True) -> list[str]:
    """Level 1's buying plan, best first: money while the deck is poor, rails while short of them,
    stations (when ``stations_useful``: level 2 asks whether a city would gain), points late."""
    player = state["players"][seat]
    cards = [c for z in ("deck", "hand", "discard", "play", "gained") for c in player[z]]
    total = len(cards)
    rail_cards = sum(1 for c in cards if CARDS[c].type == "rail")
    station_cards = sum(1 for c in cards if CARDS[c].type == "station")
    empty = sum(1 for s in state["piles"] if state["supply"][s] == 0)
    late = player["rails_left"] <= 6 or empty >= 2 or state["stations_left"] <= 8
    money_cards = [CARDS[c].money for c in cards if CARDS[c].type == "train"]
    density = sum(money_cards) / max(1, total)
    rails_wanted = rail_cards < 2 + total // 6 and player["rails_left"] > rail_cards + 2
    wish: list[str] = []
    if late:
        wish += ["skyscraper", "rail-magnate", "tower"]
    if money >= 6 and not late:
        wish += ["limited-express-train", "double-track"]
    if density < 1.1 and not late:
        wish += ["early-train", "express-train"] if money < 6 else []
    if rails_wanted:
        wish += [
            "double-track",
            "tunnel" if state["map"] == "osaka" else "track-crew",
            "steel-bridge",
            "track-crew",
            "lay-rails",
        ]
    if station_cards < 1 + total // 9 and stations_useful():
        wish += ["urban-planning", "station-expansion"]
    wish += ["timetable", "night-train", "tourist-train", "express-train"]
    if late:
        wish += ["apartment"]
    return wish
