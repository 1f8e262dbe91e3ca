"""The level-1 bot: a greedy player that keeps stress low and money in hand.

- Auction: never bids (bids are lost money); taking the last seat also brings the Station
  Master's free move when that module is on.
- Auction cards and development cards: the card whose icons are worth most to a tram network.
- Actions: every non-rails move is tried with apply() and the resulting position scored
  (``worth``: HP, money, stress, passengers' prospects); rails moves are scored without
  applying them: completing a link between busy places first, otherwise heading for the
  nearest place the link could end at. Done when nothing beats standing still.
- Administration: buys one development card in the first rounds while it can spare the money.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache
from typing import Any

from games.base import MOVE_KEY, Move, State
from games.tramways import links, movegen
from games.tramways.content import SETTINGS, card, stress_penalty
from games.tramways.payment import Way, gains, parse_token
from games.tramways.rules import apply

# What an upgraded link, a building of one's own and an upgraded building are worth per round
# still to play (their HP, money and passengers come later than the bot can see).
FUTURE: dict[str, Any] = {"upgraded_link": 0.25, "building": (0.4, 0.3), "upgraded_building": 0.2}
WAYS_KEPT = 2  # the cheapest ways to pay for each action that the bot looks at (plus the richest)
TARGETS_KEPT = 3  # buildings considered for a new passenger: the best connected ones

ICON_WORTH = {
    "ticket": 3.0,
    "rail": 1.6,
    "r": 1.0,
    "c": 1.0,
    "i": 0.8,
    "l": 1.0,
    "s": 1.0,
    "up": 1.0,
    "build": 0.6,
    "$1": 0.5,
    "$2": 0.9,
    "worker": 0.8,
    "pax": 0.4,
    "calm": 0.9,
}


@lru_cache(maxsize=512)
def card_worth(slug: str) -> float:
    c = card(slug)
    icons = sorted((ICON_WORTH.get(i, 1.0 if i.startswith("p") else 0.5) for i in c.icons), reverse=True)
    worth = icons[0] + 0.5 * sum(icons[1:])
    return worth - (1.0 if c.consequence else 0.0)


def worth(state: State, seat: int) -> float:
    """How good the position is for ``seat``: the final score with smooth stress and money, and
    a little for rail workers and links that can still earn."""
    player = state["players"][seat]
    rounds_left = SETTINGS["rounds"] - state["round"]
    value = player["hp"] + player["money"] / SETTINGS["money_per_hp"]
    value -= stress_penalty(player["stress"]) + 0.35 * player["stress"]
    value += 0.6 * min(player["workers"], 2) if rounds_left else 0.0
    if not rounds_left:
        return value
    mine = [link for link in state["links"] if link["owner"] == seat and link["ends"][1] is not None]
    complete = len(mine)
    value += (1.5 + 0.4 * rounds_left) * complete / (1 + 0.1 * complete)
    value += FUTURE["upgraded_link"] * rounds_left * sum(1 for link in mine if link["upgraded"])
    for built in state["built"].values():
        if built["owner"] == seat:
            value += FUTURE["building"][0] + FUTURE["building"][1] * rounds_left
            value += FUTURE["upgraded_building"] * rounds_left if built["upgraded"] else 0.0
    return value


def _others(state: State, seat: int) -> float:
    return max(
        (worth(state, s) for s, p in enumerate(state["players"]) if s != seat and not p["resigned"]), default=0.0
    )


def _score_applied(state: State, seat: int, move: Move, base: float, base_others: float) -> float:
    after, _ = apply(state, seat, move)
    gain = worth(after, seat) - base
    gain -= 0.3 * (_others(after, seat) - base_others)
    return gain


def _distance_to_ends(state: State, seat: int, start_label: str) -> dict[int, int]:
    """Steps from each free cell to a cell next to a place a link could end at (not the start)."""
    gmap = links.game_map(state)
    dist: dict[int, int] = {}
    queue: deque[int] = deque()
    for endpoint in gmap.endpoints:
        if endpoint.label == start_label or not links.can_be_end(state, endpoint):
            continue
        for cell in endpoint.cells:
            for n in gmap.neighbours[cell]:
                if gmap.empty(n) and gmap.name(n) not in state["rails"] and n not in dist:
                    dist[n] = 0
                    queue.append(n)
    while queue:
        cell = queue.popleft()
        for n in gmap.neighbours[cell]:
            if n not in dist and gmap.empty(n) and gmap.name(n) not in state["rails"]:
                dist[n] = dist[cell] + 1
                queue.append(n)
    return dist


def cards_cost(player: dict[str, object], texts: list[str] | tuple[str, ...]) -> float:
    """What playing these card tokens costs the bot, in HP-like units: stress for further icons
    and consequences, a little for spending good cards, less what their $, worker, passenger and
    calm icons bring."""
    tokens = [parse_token(text) for text in texts]
    stress = sum(len(icons) - 1 for _, icons in tokens)
    stress += sum(1 for slug, _ in tokens if card(slug).consequence)
    got = gains(tokens)
    workers = int(player["workers"])  # type: ignore[call-overload]
    calm_worth = 0.45 if int(player["stress"]) > got.calm - 1 else 0.0  # type: ignore[call-overload]
    value = 0.2 * got.money + (0.7 if workers < 2 else 0.2) * got.workers + calm_worth * got.calm + 0.1 * got.pax
    return 0.9 * stress + 0.05 * sum(card_worth(slug) for slug, _ in tokens) - value


def _pruner(state: State, seat: int) -> movegen.Prune:
    player = state["players"][seat]
    costs: dict[tuple[str, ...], float] = {}

    def prune(found: tuple[Way, ...]) -> tuple[Way, ...]:
        for way in found:
            if way.texts not in costs:
                costs[way.texts] = cards_cost(player, way.texts)
        cheapest = sorted(range(len(found)), key=lambda i: (costs[found[i].texts], i))[:WAYS_KEPT]
        richest = max(range(len(found)), key=lambda i: (found[i].gains.money - found[i].pay, -i))
        return tuple(found[i] for i in sorted({*cheapest, richest}))

    return prune


class _RailsScorer:
    """Scores rails moves without applying them: completing a link between busy places first,
    otherwise heading for the nearest place the link could end at. Caches per decision."""

    def __init__(self, state: State, seat: int) -> None:
        self.state, self.seat = state, seat
        self.gmap = links.game_map(state)
        self.cells = {name: index for index, name in enumerate(self.gmap.names)}
        self.player = state["players"][seat]
        self.rounds_left = SETTINGS["rounds"] - state["round"]
        self.costs: dict[tuple[str, ...], float] = {}
        self.dist: dict[str, dict[int, int]] = {}
        self.starts: dict[str, str] = {}

    def cost(self, texts: list[str]) -> float:
        key = tuple(texts)
        if key not in self.costs:
            self.costs[key] = cards_cost(self.player, key)
        return self.costs[key]

    def start_label(self, cell_name: str) -> str:
        if cell_name not in self.starts:
            self.starts[cell_name] = _start_label(self.state, cell_name)
        return self.starts[cell_name]

    def score(self, move: Move) -> float:
        if self.rounds_left <= 0:
            return -1.0
        state, gmap, cells = self.state, self.gmap, move["cells"]
        first = self.cells[cells[0]]
        cost = self.cost(move["cards"])
        start_label = self.start_label(cells[0])
        if move["dest"] is not None:
            end = gmap.endpoint_at(self.cells[cells[-1]])
            busy = state["passengers"].get(start_label, 0) + (state["passengers"].get(end.label, 0) if end else 0)
            return 3.0 + 0.7 * busy + 0.3 * self.rounds_left - cost - 0.4 * (len(cells) - 2) / 3
        if start_label not in self.dist:
            self.dist[start_label] = _distance_to_ends(state, self.seat, start_label)
        dist = self.dist[start_label]
        before = dist.get(first, 1) if gmap.at[first] < 0 else 3
        after = dist.get(self.cells[cells[-1]], 99)
        if after > 4:
            return -1.0
        return 0.6 * (before - after) + 0.4 * (len(cells) - 1) - cost - 1.2 * after / 4 + 0.3


def _start_label(state: State, cell_name: str) -> str:
    gmap = links.game_map(state)
    link_id = state["rails"].get(cell_name)
    if link_id is not None:
        label: str = state["links"][link_id - 1]["ends"][0]
        return label
    cell = gmap.cell(cell_name)
    endpoint = gmap.endpoint_at(cell if cell is not None else 0)
    return endpoint.label if endpoint else ""


def _action(state: State, seat: int) -> Move:
    best: tuple[float, int, Move] = (0.05, 0, {MOVE_KEY: "done"})
    base, base_others = worth(state, seat), _others(state, seat)
    index = 0
    candidates: list[Move] = []
    prune = _pruner(state, seat)
    if state["turn"]["actions_left"] > 0:
        candidates += movegen.trip_moves(state, seat, prune)
        candidates += movegen.upgrade_link_moves(state, seat, prune)
        candidates += movegen.building_moves(state, seat, prune)
        candidates += [m for m in movegen.use_moves(state, seat) if _useful_use(state, seat, m)]
        targets = _passenger_targets(state)
        candidates = [m for m in candidates if m.get("at") is None or m["at"] in targets]
    candidates += movegen.master_moves(state, seat)
    for move in candidates:
        index += 1
        value = _score_applied(state, seat, move, base, base_others)
        if move[MOVE_KEY] == "master":
            value += 2.0  # an unmoved Station Master costs 2 stress at the end of the turn
        if value > best[0]:
            best = (value, index, move)
    if state["turn"]["actions_left"] > 0 and state["players"][seat]["rails_left"] > 0:
        scorer = _RailsScorer(state, seat)
        for move in movegen.rail_moves(state, seat, prune):
            index += 1
            value = scorer.score(move)
            if value > best[0]:
                best = (value, index, move)
    return best[2]


def _passenger_targets(state: State) -> set[str]:
    """Where a new passenger helps most: the places with the most complete links."""
    adjacency = links.graph(state)
    ranked = sorted(adjacency, key=lambda label: (-len(adjacency[label]), label))
    return set(ranked[:TARGETS_KEPT])


def _useful_use(state: State, seat: int, move: Move) -> bool:
    icons = move["card"].split(":")[1].split("+")
    player = state["players"][seat]
    if "calm" in icons and player["stress"] == 0:
        return False
    return not ("pax" in icons and len(icons) > 1)


def _admin(state: State, seat: int) -> Move:
    player = state["players"][seat]
    turn = state["turn"]
    if not turn["bought"] and state["round"] <= SETTINGS["rounds"] - 2:
        options = [slug for slug in state["dev_display"] if card(slug).cost <= player["money"] - 1]
        if options:
            best = max(sorted(options), key=lambda s: card_worth(s) - 0.4 * card(s).cost)
            if card_worth(best) - 0.4 * card(best).cost > 0.8:
                return {MOVE_KEY: "buy", "card": best}
    if not turn["discarded"] and not turn["bought"]:
        weak = sorted(s for s in player["hand"] if card_worth(s) < 1.2)[:1]
        if weak and len(player["deck"]) + len(player["discard"]) > 2:
            return {MOVE_KEY: "discard", "cards": weak}
    return {MOVE_KEY: "done"}


def parcel_value(state: State, label: str) -> float:
    """How promising a parcel is to own: busy places (passengers) a short link away."""
    gmap = links.game_map(state)
    here = gmap.endpoint(label)
    assert here is not None
    (cell,) = here.cells[:1]
    row, col = divmod(cell, gmap.width)
    value = 0.0
    for endpoint in gmap.endpoints:
        if endpoint is here or endpoint.kind == "parcel":
            continue
        distance = min(abs(c // gmap.width - row) + abs(c % gmap.width - col) for c in endpoint.cells)
        if distance <= 5:
            weight = state["passengers"].get(endpoint.label, 0) + (1.0 if endpoint.kind == "park" else 0.0)
            value += weight / distance
    return value


def choose(state: State, seat: int) -> Move:
    phase = state["phase"]
    if phase == "draft":
        pool = state["draft"]["pool"]
        return {MOVE_KEY: "draft", "parcel": max(pool, key=lambda label: parcel_value(state, label))}
    if phase == "auction":
        return {MOVE_KEY: "pass"}
    if phase == "take":
        return {MOVE_KEY: "take", "card": max(sorted(set(state["display"])), key=card_worth)}
    if phase == "admin":
        return _admin(state, seat)
    return _action(state, seat)
