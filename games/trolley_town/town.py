"""A player's town: an unbounded square grid of building and route tiles.

Cells are keyed ``"x,y"`` (x to the right, y downward, the starting Forest at ``0,0``). A cell
holds a building ``{"t": slug, "r": {resource: pieces}, "n": order}`` or a route
``{"route": kind, "rot": degrees, "n": order}``; ``n`` is the order tiles were placed, which is
the order their effects run in.

Connectivity follows the reference: two edge neighbours are linked when both are open on the
shared edge and at least one of them is a route (two buildings side by side are not linked);
a building is open on all four edges.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from functools import cache
from typing import Any

from games.trolley_town.content import TILES, Tile

Cell = dict[str, Any]
Town = dict[str, Any]
Key = str

EDGES = ("N", "E", "S", "W")
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
ROUTE_KINDS = ("straight", "curve", "junction")
ROTATIONS = (0, 90, 180, 270)
# Openings at rotation 0 (reference): each 90 degrees turns every opening one edge clockwise.
BASE_OPENINGS = {"straight": ("W", "E"), "curve": ("W", "S"), "junction": ("W", "E", "S")}
# The rotations that give distinct tiles (a straight at 180 is the straight at 0).
DISTINCT_ROTATIONS = {"straight": (0, 90), "curve": ROTATIONS, "junction": ROTATIONS}
ALL_OPEN = frozenset(EDGES)
AROUND = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))


@cache
def openings(kind: str, rot: int) -> frozenset[str]:
    turns = (rot // 90) % 4
    return frozenset(EDGES[(EDGES.index(edge) + turns) % 4] for edge in BASE_OPENINGS[kind])


@cache
def canonical_rotation(kind: str, rot: int) -> int:
    """The rotation stored for a route: the first distinct rotation with the same openings."""
    wanted = openings(kind, rot)
    return next(r for r in DISTINCT_ROTATIONS[kind] if openings(kind, r) == wanted)


@cache
def upgrade_rotations(kind: str, rot: int) -> tuple[int, ...]:
    """Junction rotations that keep every opening of the route (the no-disconnect rule)."""
    old = openings(kind, rot)
    return tuple(r for r in ROTATIONS if old <= openings("junction", r))


@cache
def xy(key: Key) -> tuple[int, int]:
    x, y = key.split(",")
    return int(x), int(y)


@cache
def key_of(x: int, y: int) -> Key:
    return f"{x},{y}"


@cache
def edge_neighbours(key: Key) -> tuple[tuple[str, Key], ...]:
    x, y = xy(key)
    return tuple((edge, key_of(x + dx, y + dy)) for edge, (dx, dy) in STEP.items())


@cache
def surroundings(key: Key) -> tuple[Key, ...]:
    """The 8 cells around (diagonals included), as the rulebook's "surrounding" icon means."""
    x, y = xy(key)
    return tuple(key_of(x + dx, y + dy) for dx, dy in AROUND)


def is_route(cell: Cell) -> bool:
    return "route" in cell


def tile_of(cell: Cell) -> Tile:
    return TILES[cell["t"]]


def cell_openings(cell: Cell) -> frozenset[str]:
    return openings(cell["route"], cell["rot"]) if "route" in cell else ALL_OPEN


def links(cells: dict[Key, Cell], key: Key) -> Iterator[Key]:
    """Edge neighbours joined to ``key`` by a route."""
    cell = cells[key]
    mine = cell_openings(cell)
    route_here = "route" in cell
    for edge, other in edge_neighbours(key):
        if edge not in mine:
            continue
        neighbour = cells.get(other)
        if neighbour is None:
            continue
        if not route_here and "route" not in neighbour:
            continue  # two buildings side by side are not connected
        if OPPOSITE[edge] in cell_openings(neighbour):
            yield other


def all_links(cells: dict[Key, Cell]) -> list[tuple[Key, Key]]:
    """Every linked pair once (for images)."""
    found = []
    for key in sorted(cells, key=xy):
        for other in links(cells, key):
            if xy(key) < xy(other):
                found.append((key, other))
    return found


def frontier(cells: dict[Key, Cell]) -> list[Key]:
    """Empty cells sharing an edge with the town, in a stable order."""
    empty: set[Key] = set()
    for key in cells:
        for _, other in edge_neighbours(key):
            if other not in cells:
                empty.add(other)
    return sorted(empty, key=lambda k: (xy(k)[1], xy(k)[0]))


def touches(cells: dict[Key, Cell], key: Key) -> bool:
    return any(other in cells for _, other in edge_neighbours(key))


def pieces(cell: Cell) -> int:
    return sum(cell.get("r", {}).values())


def room(cell: Cell) -> int:
    return tile_of(cell).spaces - pieces(cell)


def buildings(cells: dict[Key, Cell]) -> Iterator[tuple[Key, Cell]]:
    """Buildings in placement order (the order their effects run)."""
    for key, cell in sorted(cells.items(), key=lambda item: item[1]["n"]):
        if "t" in cell:
            yield key, cell


def reachable(cells: dict[Key, Cell], start: Key, resource: str | None, expert: bool) -> set[Key]:
    """Buildings a piece can travel to from ``start`` along routes.

    Routes and buildings carry it on; with the expert rule a building passes only the resources
    drawn on it. ``resource`` None: any piece (used for "connected" counters via routes only).
    """
    seen = {start}
    queue = deque([start])
    found: set[Key] = set()
    while queue:
        key = queue.popleft()
        for other in links(cells, key):
            if other in seen:
                continue
            seen.add(other)
            cell = cells[other]
            if "t" in cell:
                found.add(other)
                if expert and resource is not None and resource not in tile_of(cell).accepts:
                    continue  # it may end here if accepted, but not pass through
            queue.append(other)
    return found


def connected_buildings(cells: dict[Key, Cell], start: Key) -> set[Key]:
    """Buildings joined to ``start`` by routes alone (not through other buildings)."""
    seen = {start}
    queue = deque([start])
    found: set[Key] = set()
    while queue:
        key = queue.popleft()
        for other in links(cells, key):
            if other in seen:
                continue
            seen.add(other)
            if "t" in cells[other]:
                found.add(other)
            else:
                queue.append(other)
    return found


def around_buildings(cells: dict[Key, Cell], key: Key) -> Iterable[Cell]:
    for other in surroundings(key):
        cell = cells.get(other)
        if cell is not None and "t" in cell:
            yield cell


def holdings(town: Town) -> dict[str, int]:
    """Pieces of each resource across the town."""
    total: dict[str, int] = {}
    for cell in town["cells"].values():
        for resource, count in cell.get("r", {}).items():
            total[resource] = total.get(resource, 0) + count
    return total


def add_piece(cell: Cell, resource: str, count: int = 1) -> None:
    held = cell.setdefault("r", {})
    held[resource] = held.get(resource, 0) + count


def take_piece(cell: Cell, resource: str, count: int = 1) -> None:
    held = cell["r"]
    held[resource] -= count
    if not held[resource]:
        del held[resource]
