"""Every legal move of a seat, in a stable order (autocomplete, bots, the conformance suite).

The lists are complete: apply accepts nothing else except other spellings of a listed move
(the same cards paying with other icons for the same stress, or another cell of the same
building), which leave exactly the same state. Each way to pay comes with the further money,
worker, new-passenger and calm icons its cards may add (payment.ways); those are played before
the action's costs, so what a move can afford is checked per way (Way.money_after), and a way
with new passengers is listed once per building with room for them (``at``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from itertools import combinations
from typing import Any

from games.base import MOVE_KEY, Move, State
from games.tramways import links
from games.tramways.actions import SIMPLE, last_player
from games.tramways.board import CityMap, Endpoint
from games.tramways.content import BUILDING_TYPES, CARDS, SETTINGS, card
from games.tramways.payment import Need, Way, ways
from games.tramways.rules import master_available


def legal_moves(state: State, seat: int) -> list[Move]:
    if state["phase"] == "over" or seat != state["current"] or state["players"][seat]["resigned"]:
        return []
    phase = state["phase"]
    if phase == "auction":
        return auction_moves(state, seat)
    if phase == "take":
        return [{MOVE_KEY: "take", "card": slug} for slug in sorted(set(state["display"]))]
    if phase == "draft":
        return [{MOVE_KEY: "draft", "parcel": label} for label in state["draft"]["pool"]]
    if phase == "admin":
        return admin_moves(state, seat)
    moves: list[Move] = []
    if state["turn"]["actions_left"] > 0:
        moves += rail_moves(state, seat)
        moves += trip_moves(state, seat)
        moves += upgrade_link_moves(state, seat)
        moves += building_moves(state, seat)
        moves += use_moves(state, seat)
    moves += master_moves(state, seat)
    moves.append({MOVE_KEY: "done"})
    return moves


def auction_moves(state: State, seat: int) -> list[Move]:
    high, money = state["auction"]["high"], state["players"][seat]["money"]
    return [{MOVE_KEY: "pass"}, *({MOVE_KEY: "bid", "amount": a} for a in range(high + 1, money + 1))]


def admin_moves(state: State, seat: int) -> list[Move]:
    turn, player = state["turn"], state["players"][seat]
    moves: list[Move] = []
    if not turn["discarded"] and not turn["bought"]:
        hand = sorted(player["hand"])
        seen: set[tuple[str, ...]] = set()
        for size in range(1, len(hand) + 1):
            cost = max(0, size - SETTINGS["free_discards"]) * SETTINGS["discard_cost"]
            if cost > player["money"]:
                break
            for chosen in combinations(hand, size):
                if chosen not in seen:
                    seen.add(chosen)
                    moves.append({MOVE_KEY: "discard", "cards": list(chosen)})
    if not turn["bought"]:
        for slug in sorted(set(state["dev_display"])):
            if CARDS[slug].cost <= player["money"]:
                moves.append({MOVE_KEY: "buy", "card": slug})
    moves.append({MOVE_KEY: "done"})
    return moves


def _icon_count(hand: list[str], icon: str) -> int:
    return sum(card(slug).icons.count(icon) for slug in hand)


def _money_bound(hand: list[str]) -> int:
    """The most money the cards in ``hand`` could add when played (for pruning only)."""
    return sum(int(icon[1]) for slug in hand for icon in card(slug).icons if icon in ("$1", "$2"))


# A bot's filter of the ways to pay for one action (the lists stay legal, only shorter).
Prune = Callable[[tuple[Way, ...]], tuple[Way, ...]]


def _pay(
    hand: list[str], need: Need, cache: dict[Need, tuple[Way, ...]], prune: Prune | None = None
) -> tuple[Way, ...]:
    if need not in cache:
        found = ways(hand, need)
        cache[need] = prune(found) if prune is not None and found else found
    return cache[need]


class Rooms:
    """Buildings with room for new passengers, computed on first use."""

    def __init__(self, state: State) -> None:
        self.state = state
        self._rooms: list[tuple[str, int]] | None = None

    def targets(self, pax: int, only: str | None = None) -> list[str | None]:
        """Where ``pax`` new passengers may go ([None] when there are none); ``only`` limits it
        to that building."""
        if not pax:
            return [None]
        if self._rooms is None:
            state = self.state
            self._rooms = [
                (e.label, links.capacity(state, e) - state["passengers"].get(e.label, 0))
                for e in links.game_map(state).endpoints
            ]
        return [label for label, room in self._rooms if room >= pax and (only is None or label == only)]


def _card_move(move: Move, way: Way, rooms: Rooms) -> list[Move]:
    """``move`` paid by ``way``, once per place its new passengers may go."""
    return [{**move, "cards": list(way.texts), "at": at} for at in rooms.targets(way.gains.pax)]


def rail_starts(state: State, seat: int) -> list[tuple[int, str]]:
    """(cell the command starts on, start endpoint label): the open links' last rails, then one
    cell of each possible start endpoint per free neighbouring cell (another cell of the same
    building would be another spelling of the same move)."""
    player = state["players"][seat]
    if min(SETTINGS["max_rails_per_action"], player["rails_left"], _icon_count(player["hand"], "rail")) <= 0:
        return []
    gmap = links.game_map(state)
    starts: list[tuple[int, str]] = []
    mine = links.open_links(state, seat)
    for link in mine:
        cell = gmap.cell(link["cells"][-1])
        assert cell is not None
        if any(_free(state, gmap, n) for n in gmap.neighbours[cell]):
            starts.append((cell, link["ends"][0]))
    if len(links.blocking_links(state, seat)) < SETTINGS["max_open_links"]:
        rails = state["rails"]
        names = gmap.names
        for endpoint, cells in _start_cells(gmap):
            if endpoint.kind == "parcel" and endpoint.label not in state["parcels"]:
                continue  # links never start at an unowned parcel
            used: set[int] = set()
            for cell, near in cells:
                if any(n not in used and names[n] not in rails for n in near):
                    starts.append((cell, endpoint.label))
                    used.update(gmap.neighbours[cell])
    return starts


@lru_cache(maxsize=32)
def _start_cells(gmap: CityMap) -> tuple[tuple[Endpoint, tuple[tuple[int, tuple[int, ...]], ...]], ...]:
    """Each endpoint with its cells and their empty (rail-able) neighbours: fixed for a map."""
    return tuple(
        (endpoint, tuple((cell, tuple(n for n in gmap.neighbours[cell] if gmap.empty(n))) for cell in endpoint.cells))
        for endpoint in gmap.endpoints
    )


def rail_moves(state: State, seat: int, prune: Prune | None = None) -> list[Move]:
    cache: dict[Need, tuple[Way, ...]] = {}
    moves: list[Move] = []
    rooms = Rooms(state)
    for start in rail_starts(state, seat):
        moves += rail_moves_from(state, seat, start, cache, rooms, prune)
    return moves


def rail_moves_from(
    state: State,
    seat: int,
    start: tuple[int, str],
    cache: dict[Need, tuple[Way, ...]],
    rooms: Rooms | None = None,
    prune: Prune | None = None,
) -> list[Move]:
    """Every rails move from one start: 1-3 new cells, then optionally the completing end."""
    player = state["players"][seat]
    hand = player["hand"]
    rooms = rooms or Rooms(state)
    budget = min(SETTINGS["max_rails_per_action"], player["rails_left"], _icon_count(hand, "rail"))
    gmap = links.game_map(state)
    hill_cost = SETTINGS["hill_extra_cost"]
    money, workers = player["money"], player["workers"]
    money_bound = money + _money_bound(hand)
    may_complete = workers > 0 or _icon_count(hand, "worker") > 0
    moves: list[Move] = []
    start_cell, start_label = start
    start_ep = gmap.endpoint(start_label)
    assert start_ep is not None
    start_icons = links.dest_icons(state, start_ep)
    path: list[int] = []

    def walk(here: int, hills: int, taken: set[int]) -> None:
        for nxt in gmap.neighbours[here]:
            if nxt in taken or not _free(state, gmap, nxt):
                continue
            cost = hills + (hill_cost if gmap.terrain[nxt] == "hill" else 0)
            if cost > money_bound:
                continue
            path.append(nxt)
            taken.add(nxt)
            k = len(path)
            names = [gmap.name(start_cell), *(gmap.name(c) for c in path)]
            base = {MOVE_KEY: "rails", "cells": names, "dest": None}
            for way in _pay(hand, Need((("rail", k),)), cache, prune):
                if way.money_after(money) >= cost:
                    moves.extend(_card_move(base, way, rooms))
            if may_complete:
                ends_seen: set[str] = set()
                for end_cell in gmap.neighbours[nxt]:
                    end = gmap.endpoint_at(end_cell)
                    if end is None or end.label == start_label or end.label in ends_seen:
                        continue
                    if not links.can_be_end(state, end):
                        continue
                    ends_seen.add(end.label)
                    dests = start_icons | links.dest_icons(state, end)
                    for way in _pay(hand, Need((("rail", k),), True, dests), cache, prune):
                        if way.money_after(money) >= cost and workers + way.gains.workers >= 1:
                            moves.extend(_card_move(completing(names, gmap.name(end_cell), dests, way), way, rooms))
            if k < budget:
                walk(nxt, cost, taken)
            taken.discard(nxt)
            path.pop()

    walk(start_cell, 0, {start_cell})
    return moves


def _free(state: State, gmap: CityMap, cell: int) -> bool:
    return gmap.empty(cell) and gmap.name(cell) not in state["rails"]


def completing(names: list[str], end_cell: str, dests: frozenset[str], way: Way) -> Move:
    icon = next(i for w in way.texts for i in w.split(":")[1].split("+") if i in dests)
    return {MOVE_KEY: "rails", "cells": [*names, end_cell], "dest": icon.upper()}


def sample_rails(state: State, seat: int, start: tuple[int, str], pick: Callable[[int], int]) -> Move | None:
    """One rails move from ``start`` chosen with ``pick(n) -> index`` (a random walk, then a
    payment): the same dict rail_moves_from lists for it, without listing them all."""
    player = state["players"][seat]
    hand = player["hand"]
    money, workers = player["money"], player["workers"]
    budget = min(SETTINGS["max_rails_per_action"], player["rails_left"], _icon_count(hand, "rail"))
    gmap = links.game_map(state)
    start_cell, start_label = start
    length = 1 + pick(budget)
    path: list[int] = []
    hills, here, taken = 0, start_cell, {start_cell}
    while len(path) < length:
        options = []
        for n in gmap.neighbours[here]:
            if n in taken or not _free(state, gmap, n):
                continue
            cost = hills + (SETTINGS["hill_extra_cost"] if gmap.terrain[n] == "hill" else 0)
            if cost <= money:  # hills the cards' money alone could pay are left to the full list
                options.append((n, cost))
        if not options:
            break
        here, hills = options[pick(len(options))]
        path.append(here)
        taken.add(here)
    if not path:
        return None
    names = [gmap.name(start_cell), *(gmap.name(c) for c in path)]
    k = len(path)
    cache: dict[Need, tuple[Way, ...]] = {}
    rooms = Rooms(state)
    if (workers > 0 or _icon_count(hand, "worker") > 0) and pick(2):
        start_ep = gmap.endpoint(start_label)
        assert start_ep is not None
        ends: dict[str, int] = {}
        for end_cell in gmap.neighbours[path[-1]]:
            end = gmap.endpoint_at(end_cell)
            if end is not None and end.label != start_label and end.label not in ends and links.can_be_end(state, end):
                ends[end.label] = end_cell
        if ends:
            label = sorted(ends)[pick(len(ends))]
            end_ep = gmap.endpoint(label)
            assert end_ep is not None
            dests = links.dest_icons(state, start_ep) | links.dest_icons(state, end_ep)
            found = [
                way
                for way in _pay(hand, Need((("rail", k),), True, dests), cache)
                if way.money_after(money) >= hills and workers + way.gains.workers >= 1
            ]
            if found:
                way = found[pick(len(found))]
                spelled = _card_move(completing(names, gmap.name(ends[label]), dests, way), way, rooms)
                if spelled:
                    return spelled[pick(len(spelled))]
    found = [way for way in _pay(hand, Need((("rail", k),)), cache) if way.money_after(money) >= hills]
    if not found:
        return None
    way = found[pick(len(found))]
    spelled = _card_move({MOVE_KEY: "rails", "cells": names, "dest": None}, way, rooms)
    return spelled[pick(len(spelled))] if spelled else None


def upgrade_link_moves(state: State, seat: int, prune: Prune | None = None) -> list[Move]:
    player = state["players"][seat]
    if _icon_count(player["hand"], "up") == 0:
        return []
    gmap = links.game_map(state)
    cache: dict[Need, tuple[Way, ...]] = {}
    rooms = Rooms(state)
    cost = SETTINGS["upgrade_link_cost"]
    moves: list[Move] = []
    for link in state["links"]:
        if link["owner"] != seat or link["ends"][1] is None or link["upgraded"]:
            continue
        dests = frozenset().union(*(links.dest_icons(state, gmap.endpoints[gmap.by_label[e]]) for e in link["ends"]))
        base = {MOVE_KEY: "upgrade-link", "link": link["id"]}
        for way in _pay(player["hand"], Need((("up", 1),), True, dests), cache, prune):
            if way.money_after(player["money"]) >= cost:
                moves.extend(_card_move(base, way, rooms))
    return moves


def building_moves(state: State, seat: int, prune: Prune | None = None) -> list[Move]:
    player = state["players"][seat]
    if _icon_count(player["hand"], "build") == 0:
        return []
    found = _pay(player["hand"], Need((("build", 1),)), {}, prune)
    rooms = Rooms(state)
    moves: list[Move] = []
    build_cost, upgrade_cost = SETTINGS["build_cost"], SETTINGS["upgrade_building_cost"]
    for label in sorted((p for p, s in state["parcels"].items() if s == seat), key=lambda p: int(p[1:])):
        if label in state["built"]:
            continue
        for kind in BUILDING_TYPES:
            if state["building_tiles"][kind] > 0:
                base = {MOVE_KEY: "build", "parcel": label, "type": kind}
                for way in found:
                    if way.money_after(player["money"]) >= build_cost:
                        moves.extend(_card_move(base, way, rooms))
    for label, built in sorted(state["built"].items()):
        if built["owner"] == seat and not built["upgraded"]:
            base = {MOVE_KEY: "upgrade-building", "building": label}
            for way in found:
                if way.money_after(player["money"]) >= upgrade_cost:
                    moves.extend(_card_move(base, way, rooms))
    return moves


def use_moves(state: State, seat: int) -> list[Move]:
    hand = state["players"][seat]["hand"]
    gmap = links.game_map(state)
    moves: list[Move] = []
    rooms: list[tuple[str, int]] | None = None
    for slug in sorted(set(hand)):
        icons = [icon for icon in card(slug).icons if icon in SIMPLE]
        seen: set[tuple[str, ...]] = set()
        for size in range(1, len(icons) + 1):
            for chosen in combinations(icons, size):
                if chosen in seen:
                    continue
                seen.add(chosen)
                token = f"{slug}:{'+'.join(chosen)}"
                pax = chosen.count("pax")
                if not pax:
                    moves.append({MOVE_KEY: "use", "card": token, "at": None})
                    continue
                if rooms is None:
                    rooms = [
                        (e.label, links.capacity(state, e) - state["passengers"].get(e.label, 0))
                        for e in gmap.endpoints
                    ]
                moves += [{MOVE_KEY: "use", "card": token, "at": label} for label, room in rooms if room >= pax]
    return moves


def _hp_options(state: State, seat: int, end_label: str, money: int) -> list[int | None]:
    gmap = links.game_map(state)
    end = gmap.endpoint(end_label)
    assert end is not None
    if end.kind == "parcel" and end_label not in state["built"]:
        return [None]
    if links.kind_type(state, end) != "C":
        return [None]
    bonus = SETTINGS["destination_bonus"]["C"]
    return list(range(0, min(bonus["hp_max"], money // bonus["hp_price"]) + 1))


def trip_moves(state: State, seat: int, prune: Prune | None = None) -> list[Move]:
    player = state["players"][seat]
    if _icon_count(player["hand"], "ticket") == 0:
        return []
    gmap = links.game_map(state)
    adjacency = links.graph(state)
    cache: dict[Need, tuple[Way, ...]] = {}
    rooms = Rooms(state)
    # A new passenger played with the ticket may be the one who travels (placed before the trip).
    arrivals = SETTINGS["simple_icons_in_actions"] and _icon_count(player["hand"], "pax") > 0
    moves: list[Move] = []
    for label, count in sorted(state["passengers"].items()):
        if (count <= 0 and not arrivals) or label not in adjacency:
            continue
        for via, to in links.routes(state, label, adjacency):
            end = gmap.endpoints[gmap.by_label[to]]
            base = {MOVE_KEY: "move", "from": label, "to": to, "via": list(via)}
            for way in _pay(player["hand"], Need((("ticket", 1),), True, links.dest_icons(state, end)), cache, prune):
                if count <= 0 and not way.gains.pax:
                    continue
                targets = rooms.targets(way.gains.pax, None if count > 0 else label)
                for hp in _hp_options(state, seat, to, way.money_after(player["money"])):
                    for at in targets:
                        moves.append({**base, "hp": hp, "cards": list(way.texts), "at": at})
    return moves


def master_moves(state: State, seat: int) -> list[Move]:
    if not master_available(state, seat) or seat != last_player(state):
        return []
    gmap = links.game_map(state)
    at = state["master"]["at"]
    moves: list[Move] = []
    for link_id, there in links.graph(state).get(at, ()):
        end = gmap.endpoints[gmap.by_label[there]]
        if not links.is_destination(state, end):
            continue
        for hp in _hp_options(state, seat, there, state["players"][seat]["money"]):
            moves.append({MOVE_KEY: "master", "to": there, "via": [link_id], "hp": hp})
    return moves


def describe(move: Move) -> dict[str, Any]:  # pragma: no cover - debugging helper
    return dict(move)
