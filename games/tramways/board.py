"""The city map: modular boards laid out in a grid, their buildings and parcels, and the
expansion tiles (Station, Stock Exchange, Park) placed under the rulebook's constraints.

The map never changes after setup, so it is built once per (boards, tiles) key and cached;
the state only keeps the board numbers and the tiles' cells. Cells are indices row*width+col
and are named like A1 (column letter, row number).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from games.rng import Rng
from games.tramways.content import BOARDS, LAYOUT

SPECIALS = ("station", "exchange", "park")
# Boards that setup never draws, for crafted positions (tests, rule examples): looked up after the data.
EXTRA_BOARDS: dict[str, tuple[str, ...]] = {}
# Endpoint kinds: a pre-printed building, a parcel, or one of the expansion tiles.
SPECIAL_LABEL = {"station": "STATION", "exchange": "EXCHANGE", "park": "PARK"}
SPECIAL_TYPE = {"station": "S", "exchange": "X", "park": "K"}


@dataclass(frozen=True)
class Endpoint:
    label: str  # R1, C2, P3, STATION, EXCHANGE, PARK
    kind: str  # building | parcel | station | exchange | park
    type: str  # R C I L (buildings), P (parcels), S X K (tiles)
    cells: tuple[int, ...]


@dataclass(frozen=True, eq=False)  # one cached object per map: hashed by identity
class CityMap:
    width: int
    height: int
    terrain: tuple[str, ...]  # plain | hill | water | object
    at: tuple[int, ...]  # endpoint index on the cell, -1 for none
    endpoints: tuple[Endpoint, ...]
    by_label: dict[str, int]
    neighbours: tuple[tuple[int, ...], ...]
    names: tuple[str, ...]  # cell index -> name, precomputed: names are looked up constantly

    def name(self, cell: int) -> str:
        return self.names[cell]

    def cell(self, name: str) -> int | None:
        """The cell index for a name like B7 (any case); None when it is not on this map."""
        name = name.strip().upper()
        if len(name) < 2 or not ("A" <= name[0] <= "Z") or not name[1:].isdigit():
            return None
        col, row = ord(name[0]) - 65, int(name[1:]) - 1
        if not (0 <= col < self.width and 0 <= row < self.height) or name[1] == "0":
            return None
        return row * self.width + col

    def endpoint(self, label: str) -> Endpoint | None:
        index = self.by_label.get(label.upper())
        return None if index is None else self.endpoints[index]

    def endpoint_at(self, cell: int) -> Endpoint | None:
        index = self.at[cell]
        return None if index < 0 else self.endpoints[index]

    def empty(self, cell: int) -> bool:
        """A cell rails may go on (ignoring rails already there)."""
        return self.terrain[cell] in ("plain", "hill")


def _raw_grid(boards: tuple[str, ...], players: int) -> tuple[int, int, list[str]]:
    cols, rows = LAYOUT[players]
    width, height = cols * 5, rows * 5
    grid = ["."] * (width * height)
    for index, board in enumerate(boards):
        bx, by = index % cols, index // cols
        for r, line in enumerate(BOARDS.get(board) or EXTRA_BOARDS[board]):
            for c, ch in enumerate(line):
                grid[(by * 5 + r) * width + bx * 5 + c] = ch
    return width, height, grid


@lru_cache(maxsize=16)
def _neighbours(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    out = []
    for cell in range(width * height):
        r, c = divmod(cell, width)
        found = []
        for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < height and 0 <= cc < width:
                found.append(rr * width + cc)
        out.append(tuple(found))
    return tuple(out)


@lru_cache(maxsize=64)
def city_map(boards: tuple[str, ...], players: int, tiles: tuple[tuple[str, tuple[int, ...]], ...]) -> CityMap:
    width, height, grid = _raw_grid(boards, players)
    owner = [-1] * len(grid)
    groups: list[tuple[str, list[int]]] = []
    for cell, ch in enumerate(grid):
        if ch in "RCILP":
            owner[cell] = len(groups)
            groups.append((ch, [cell]))
        elif ch == "=":
            owner[cell] = owner[cell - 1]
            groups[owner[cell]][1].append(cell)
        elif ch == "|":
            owner[cell] = owner[cell - width]
            groups[owner[cell]][1].append(cell)
    counters: dict[str, int] = {}
    endpoints: list[Endpoint] = []
    for kind, cells in groups:  # already in reading order of their first cell
        counters[kind] = counters.get(kind, 0) + 1
        label = f"{kind}{counters[kind]}"
        endpoints.append(Endpoint(label, "parcel" if kind == "P" else "building", kind, tuple(cells)))
    terrain = []
    for ch in grid:
        terrain.append({".": "plain", "^": "hill", "~": "water"}.get(ch, "object"))
    for kind, tile_cells in tiles:
        for cell in tile_cells:
            owner[cell] = len(endpoints)
            terrain[cell] = "object"
        endpoints.append(Endpoint(SPECIAL_LABEL[kind], kind, SPECIAL_TYPE[kind], tuple(tile_cells)))
    return CityMap(
        width=width,
        height=height,
        terrain=tuple(terrain),
        at=tuple(owner),
        endpoints=tuple(endpoints),
        by_label={e.label: i for i, e in enumerate(endpoints)},
        neighbours=_neighbours(width, height),
        names=tuple(f"{chr(65 + cell % width)}{cell // width + 1}" for cell in range(width * height)),
    )


# ---------------------------------------------------------------- placing the expansion tiles


def _candidates(kind: str, grid: list[str], width: int, height: int, taken: set[int]) -> list[tuple[int, ...]]:
    """Every legal position for one tile, in cell order, under the Grand Station rulebook."""
    neighbours = _neighbours(width, height)
    # Empty spaces (plain or hill) not yet taken.
    dry = [ch in ".^" and cell not in taken for cell, ch in enumerate(grid)]
    if kind == "park":
        # All 4 orthogonal neighbours must be empty spaces (hills allowed) so links reach all sides.
        return [
            (cell,)
            for cell, near in enumerate(neighbours)
            if dry[cell] and len(near) == 4 and dry[near[0]] and dry[near[1]] and dry[near[2]] and dry[near[3]]
        ]
    ok = dry
    if kind == "exchange":  # the Stock Exchange may also stand on water
        ok = [d or (ch == "~" and cell not in taken) for cell, (d, ch) in enumerate(zip(dry, grid, strict=True))]
    # Not adjacent to a parcel (a pre-printed building is fine).
    near_parcel = {n for cell, ch in enumerate(grid) if ch == "P" for n in neighbours[cell]}
    usable = [ok[cell] and cell not in near_parcel for cell in range(len(grid))]
    found: list[tuple[int, ...]] = []
    size = len(grid)
    for cell in range(size):
        if not usable[cell]:
            continue
        right, below = cell + 1, cell + width
        if right % width and usable[right]:
            found.append((cell, right))
        if below < size and usable[below]:
            found.append((cell, below))
    return found


def place_tiles(
    boards: tuple[str, ...], players: int, kinds: tuple[str, ...], rng: Rng
) -> tuple[tuple[str, tuple[int, ...]], ...] | None:
    """Positions for the chosen tiles, picked with the seeded RNG; None when these boards leave no
    legal position (the caller then changes the boards, as the rulebook says)."""
    width, height, grid = _raw_grid(boards, players)
    taken: set[int] = set()
    placed: list[tuple[str, tuple[int, ...]]] = []
    neighbours = _neighbours(width, height)
    for kind in SPECIALS:
        if kind not in kinds:
            continue
        options = _candidates(kind, grid, width, height, taken)
        if not options:
            return None
        chosen = rng.choice(options)
        placed.append((kind, chosen))
        taken.update(chosen)
        if kind == "park":
            taken.update(neighbours[chosen[0]])
    return tuple(placed)
