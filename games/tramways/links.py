"""Links and trips: what an endpoint is, laying rails, and the routes a passenger can take.

A link is a run of one player's rail cells between two endpoints (buildings, parcels, the
expansion tiles). State keeps links as dicts {id, owner, cells, ends, upgraded} where ``ends``
is [start label, end label or None while unfinished], plus ``rails`` {cell name: link id}.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.base import IllegalMove, State
from games.tramways.board import CityMap, Endpoint, city_map
from games.tramways.content import SETTINGS

NOT_DESTINATIONS = ("exchange", "park")


def game_map(state: State) -> CityMap:
    return city_map(tuple(state["boards"]), len(state["names"]), tuple((k, tuple(v)) for k, v in state["tiles"]))


def kind_type(state: State, endpoint: Endpoint) -> str:
    """The endpoint's building type now: a built parcel has its building's type."""
    built = state["built"].get(endpoint.label)
    return built["type"] if built else endpoint.type


def can_be_end(state: State, endpoint: Endpoint) -> bool:
    """Links connect buildings, owned parcels and the expansion tiles (never an unowned parcel)."""
    return endpoint.kind != "parcel" or endpoint.label in state["parcels"]


def dest_icons(state: State, endpoint: Endpoint) -> frozenset[str]:
    """The destination icons that match this end of a link (none for the Park and Stock Exchange)."""
    if endpoint.kind in NOT_DESTINATIONS:
        return frozenset()
    if endpoint.kind == "station":
        return frozenset({"s"})
    if endpoint.kind == "parcel":
        parcel = endpoint.label.lower()
        built = state["built"].get(endpoint.label)
        return frozenset({parcel, built["type"].lower()}) if built else frozenset({parcel})
    return frozenset({endpoint.type.lower()})


def is_destination(state: State, endpoint: Endpoint) -> bool:
    return endpoint.kind not in NOT_DESTINATIONS and can_be_end(state, endpoint)


def capacity(state: State, endpoint: Endpoint) -> int:
    """Passengers the endpoint holds when full (refilled to this each round)."""
    if endpoint.kind == "station":
        return int(SETTINGS["station_passengers"])
    if endpoint.kind == "building":
        return len(endpoint.cells)
    built = state["built"].get(endpoint.label)
    if endpoint.kind == "parcel" and built:
        return 1 + (1 if built["upgraded"] else 0)
    return 0


# ---------------------------------------------------------------- rails


@dataclass(frozen=True)
class RailPlan:
    link: int | None  # the open link extended, or None for a new link
    start: str  # the start endpoint label (of the new or extended link)
    cells: tuple[int, ...]  # new rail cells
    end: str | None  # the endpoint reached, completing the link
    hills: int


def open_links(state: State, seat: int) -> list[dict[str, Any]]:
    return [link for link in state["links"] if link["owner"] == seat and link["ends"][1] is None]


def blocking_links(state: State, seat: int) -> list[dict[str, Any]]:
    """Unfinished links that count against max_open_links: those that can still grow. A link hemmed
    in by other rails, water or buildings is left as it is, so its owner is never stuck."""
    gmap = game_map(state)
    found = []
    for link in open_links(state, seat):
        tail = gmap.cell(link["cells"][-1])
        if tail is not None and any(
            gmap.empty(n) and gmap.name(n) not in state["rails"] for n in gmap.neighbours[tail]
        ):
            found.append(link)
    return found


def plan_rails(state: State, seat: int, names: list[str]) -> RailPlan:
    """Check a rails command's cells; the plan of what it lays, or IllegalMove saying why not."""
    gmap = game_map(state)
    cells = []
    for name in names:
        cell = gmap.cell(name)
        if cell is None:
            raise IllegalMove(f'"{name}" is not a cell of this map (A1 to {gmap.name(len(gmap.terrain) - 1)}).')
        cells.append(cell)
    if len(cells) < 2:
        raise IllegalMove(
            "Name where the link starts (a cell of a building or owned parcel, or your unfinished link's "
            "last rail) and then 1 to 3 new rail cells, ending on a building's cell to complete it."
        )
    first = cells[0]
    link_id: int | None = None
    owned = state["rails"].get(gmap.name(first))
    if owned is not None:
        link = state["links"][owned - 1]
        if link["owner"] != seat or link["ends"][1] is not None or link["cells"][-1] != gmap.name(first):
            raise IllegalMove(f"{gmap.name(first)} is not the last rail of an unfinished link of yours.")
        link_id, start = owned, link["ends"][0]
    else:
        endpoint = gmap.endpoint_at(first)
        if endpoint is None or not can_be_end(state, endpoint):
            raise IllegalMove(
                f"A new link starts on a cell of a building, an owned parcel or an expansion tile, not "
                f"{gmap.name(first)}."
            )
        if len(blocking_links(state, seat)) >= SETTINGS["max_open_links"]:
            raise IllegalMove(f"You already have {SETTINGS['max_open_links']} unfinished link(s): extend one first.")
        start = endpoint.label
    end: str | None = None
    rest = cells[1:]
    last = gmap.endpoint_at(rest[-1])
    if last is not None:
        if not can_be_end(state, last):
            raise IllegalMove(f"{last.label} is an unowned parcel: links cannot end there.")
        if last.label == start:
            raise IllegalMove(f"A link joins two different places; it starts at {start}.")
        end = last.label
        rest = rest[:-1]
    if not 1 <= len(rest) <= SETTINGS["max_rails_per_action"]:
        raise IllegalMove(f"Lay 1 to {SETTINGS['max_rails_per_action']} rail tiles in one action.")
    previous = first
    for cell in rest:
        name = gmap.name(cell)
        if cell not in gmap.neighbours[previous]:
            raise IllegalMove(f"{name} is not next to {gmap.name(previous)}: rails run orthogonally, cell by cell.")
        if not gmap.empty(cell):
            raise IllegalMove(
                f"{name} is {'water' if gmap.terrain[cell] == 'water' else 'built on'}: "
                "rails go on plain and hill cells."
            )
        if name in state["rails"] or rest.count(cell) > 1:
            raise IllegalMove(f"{name} already has rails; only one player's rails go on a cell.")
        previous = cell
    if end is not None and cells[-1] not in gmap.neighbours[previous]:
        raise IllegalMove(f"{end} is not next to {gmap.name(previous)}.")
    hills = sum(1 for cell in rest if gmap.terrain[cell] == "hill")
    return RailPlan(link_id, start, tuple(rest), end, hills)


# ---------------------------------------------------------------- trips


def graph(state: State) -> dict[str, list[tuple[int, str]]]:
    """Endpoint label -> [(link id, the label at its other end)] over complete links."""
    out: dict[str, list[tuple[int, str]]] = {}
    for link in state["links"]:
        a, b = link["ends"]
        if b is None:
            continue
        out.setdefault(a, []).append((link["id"], b))
        out.setdefault(b, []).append((link["id"], a))
    return out


def trip_stops(state: State, start: str, via: list[int]) -> list[str]:
    """The endpoints visited along links ``via`` from ``start`` (IllegalMove if they do not chain)."""
    stops = [start]
    for link_id in via:
        if not 1 <= link_id <= len(state["links"]):
            raise IllegalMove(f"There is no link {link_id}.")
        link = state["links"][link_id - 1]
        a, b = link["ends"]
        if b is None:
            raise IllegalMove(f"Link {link_id} is not complete yet.")
        if stops[-1] == a:
            stops.append(b)
        elif stops[-1] == b:
            stops.append(a)
        else:
            raise IllegalMove(f"Link {link_id} ({a}-{b}) does not leave {stops[-1]}.")
    if len(set(stops)) != len(stops):
        raise IllegalMove("A trip visits each place at most once.")
    return stops


def routes(
    state: State, start: str, adjacency: dict[str, list[tuple[int, str]]] | None = None
) -> list[tuple[tuple[int, ...], str]]:
    """Every trip from ``start``: (links, destination), at most max_trip_links links, visiting each
    place once, ending at a destination (not the Park or Stock Exchange)."""
    adjacency = graph(state) if adjacency is None else adjacency
    gmap = game_map(state)
    limit = SETTINGS["max_trip_links"]
    found: list[tuple[tuple[int, ...], str]] = []
    destination = {label: is_destination(state, gmap.endpoints[gmap.by_label[label]]) for label in adjacency}
    path: list[int] = []
    seen = {start}

    def walk(here: str) -> None:
        for link_id, there in adjacency.get(here, ()):
            if there in seen:
                continue
            path.append(link_id)
            if destination[there]:
                found.append((tuple(path), there))
            if len(path) < limit:
                seen.add(there)
                walk(there)
                seen.discard(there)
            path.pop()

    walk(start)
    return found
