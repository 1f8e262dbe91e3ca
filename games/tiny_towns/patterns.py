"""The 4x4 grid and every placement of every building pattern, precomputed at import.

A placement is one rotation/mirror of a pattern at one offset on the grid: the cells it covers
and the resource letter each cell needs. legal_moves runs constantly during playouts, so all
geometry is worked out once here; the engine matches with the bitboard tables built from these
placements (bitboard.py). ``matches`` is the plain cell-by-cell test, kept as the reference.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from games.tiny_towns.content import CATALOGUE

SIZE = 4
CELLS = SIZE * SIZE
CELL_NAMES: list[str] = [f"{'ABCD'[i % SIZE]}{i // SIZE + 1}" for i in range(CELLS)]
CELL_INDEX: dict[str, int] = {name: i for i, name in enumerate(CELL_NAMES)}
_CELL_RE = re.compile(r"^[a-dA-D][1-4]$")
CORNERS = (0, 3, 12, 15)
CENTRE = (5, 6, 9, 10)


def is_cell(word: str) -> bool:
    return bool(_CELL_RE.match(word))


def cell_index(name: str) -> int:
    return CELL_INDEX[name.upper()]


def _neighbours(i: int) -> tuple[int, ...]:
    row, col = divmod(i, SIZE)
    out = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        r, c = row + dr, col + dc
        if 0 <= r < SIZE and 0 <= c < SIZE:
            out.append(r * SIZE + c)
    return tuple(out)


def _surrounding(i: int) -> tuple[int, ...]:
    row, col = divmod(i, SIZE)
    return tuple(
        r * SIZE + c
        for r in range(row - 1, row + 2)
        for c in range(col - 1, col + 2)
        if 0 <= r < SIZE and 0 <= c < SIZE and (r, c) != (row, col)
    )


ADJACENT: tuple[tuple[int, ...], ...] = tuple(_neighbours(i) for i in range(CELLS))
SURROUNDING: tuple[tuple[int, ...], ...] = tuple(_surrounding(i) for i in range(CELLS))
# Row and column squares of a cell, the cell itself excluded.
LINES: tuple[tuple[int, ...], ...] = tuple(
    tuple(j for j in range(CELLS) if j != i and (j // SIZE == i // SIZE or j % SIZE == i % SIZE)) for i in range(CELLS)
)
ROW_OF: tuple[tuple[int, ...], ...] = tuple(
    tuple(range(i // SIZE * SIZE, i // SIZE * SIZE + SIZE)) for i in range(CELLS)
)
COL_OF: tuple[tuple[int, ...], ...] = tuple(tuple(range(i % SIZE, CELLS, SIZE)) for i in range(CELLS))


@dataclass(frozen=True)
class Placement:
    cells: tuple[int, ...]
    need: tuple[str, ...]  # resource letter per cell
    mask: int


Shape = tuple[tuple[int, int, str], ...]


def orientations(pattern: list[str]) -> list[Shape]:
    """The distinct rotations and mirrors of a pattern, each normalised to start at (0, 0)."""
    base = [(r, c, ch) for r, row in enumerate(pattern) for c, ch in enumerate(row) if ch != "."]
    transforms = (
        lambda r, c: (r, c),
        lambda r, c: (c, -r),
        lambda r, c: (-r, -c),
        lambda r, c: (-c, r),
        lambda r, c: (r, -c),
        lambda r, c: (-c, -r),
        lambda r, c: (-r, c),
        lambda r, c: (c, r),
    )
    seen: list[Shape] = []
    for transform in transforms:
        moved = [(*transform(r, c), ch) for r, c, ch in base]
        min_r = min(r for r, _, _ in moved)
        min_c = min(c for _, c, _ in moved)
        shape = tuple(sorted((r - min_r, c - min_c, ch) for r, c, ch in moved))
        if shape not in seen:
            seen.append(shape)
    return seen


def _placements(pattern: list[str]) -> list[Placement]:
    out: list[Placement] = []
    for shape in orientations(pattern):
        height = max(r for r, _, _ in shape) + 1
        width = max(c for _, c, _ in shape) + 1
        for dr in range(SIZE - height + 1):
            for dc in range(SIZE - width + 1):
                cells = tuple((r + dr) * SIZE + c + dc for r, c, _ in shape)
                need = tuple(ch for _, _, ch in shape)
                order = sorted(range(len(cells)), key=lambda k: cells[k])
                cells = tuple(cells[k] for k in order)
                need = tuple(need[k] for k in order)
                mask = 0
                for cell in cells:
                    mask |= 1 << cell
                out.append(Placement(cells, need, mask))
    return out


PLACEMENTS: dict[str, list[Placement]] = {slug: _placements(e["pattern"]) for slug, e in CATALOGUE.items()}
BY_MASK: dict[str, dict[int, list[Placement]]] = {}
for _slug, _list in PLACEMENTS.items():
    table: dict[int, list[Placement]] = {}
    for _p in _list:
        table.setdefault(_p.mask, []).append(_p)
    BY_MASK[_slug] = table
# Resource letters a pattern needs, with multiplicity, for a quick "could it match at all" check.
NEEDS: dict[str, dict[str, int]] = {}
for _slug, _entry in CATALOGUE.items():
    counts: dict[str, int] = {}
    for _row in _entry["pattern"]:
        for _ch in _row:
            if _ch != ".":
                counts[_ch] = counts.get(_ch, 0) + 1
    NEEDS[_slug] = counts
SIZES: dict[str, int] = {slug: sum(n.values()) for slug, n in NEEDS.items()}


def matches(placement: Placement, letters: list[str]) -> bool:
    """True when the town's squares satisfy the placement ('*' = Trading Post wildcard).

    At least one square must be a real cube: a pattern made only of Trading Posts is not a build.
    """
    real = False
    for cell, need in zip(placement.cells, placement.need, strict=True):
        have = letters[cell]
        if have == need:
            real = True
        elif have != "*":
            return False
    return real


def could_match(slug: str, counts: dict[str, int], wild: int) -> bool:
    """Cheap pre-filter: enough cubes of each resource (Trading Posts fill gaps)."""
    short = 0
    for letter, n in NEEDS[slug].items():
        have = counts.get(letter, 0)
        if have < n:
            short += n - have
    return short <= wild and short < SIZES[slug]
