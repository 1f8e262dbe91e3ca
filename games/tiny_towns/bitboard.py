"""Bitboard pattern matching: a town as one 16-bit mask per resource plus one for Trading Posts.

A placement (one rotation/mirror of a pattern at one offset, see patterns.py) fits when, for every
resource letter it needs, the squares needing that letter hold that cube or a Trading Post, and
at least one of its squares holds a real cube. Rather than test the placements one by one, each
building gets, per letter, two 256-entry tables (low and high byte of the town's mask) whose
entries are bitsets of placement numbers: the placements whose squares for that letter lie inside
the given byte. ANDing the tables of every letter gives every fitting placement at once; a
placement made only of Trading Posts is removed the same way. Bit k stands for PLACEMENTS[slug][k],
so listing the bits from low to high keeps the placements' order (and so the legal moves' order).

Tables are built for a building the first time it is matched (a game uses only a dozen of them).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import itemgetter
from typing import Any, NamedTuple

from games.tiny_towns.content import CATALOGUE, LETTER
from games.tiny_towns.patterns import NEEDS, PLACEMENTS, SIZES

LETTERS: tuple[str, ...] = tuple(LETTER.values())
# board_of_cells spells the resources and letters out: it must follow LETTER's order.
assert tuple(LETTER.items()) == (("wood", "W"), ("wheat", "H"), ("brick", "B"), ("glass", "G"), ("stone", "S"))
_BY_LETTER = itemgetter(*LETTERS)  # a Board's cube masks in LETTERS order
_BYTE = 256


class Board(NamedTuple):
    """Squares holding each resource letter's cubes, and Trading Posts (wild).

    A NamedTuple rather than a frozen dataclass: one is built per readiness check, several times
    per move, and a tuple is built in C (a frozen dataclass's __init__ goes through
    object.__setattr__ per field)."""

    cubes: dict[str, int]
    wild: int

    @property
    def any(self) -> bool:
        return bool(self.wild) or any(self.cubes.values())


_BITS = tuple(1 << i for i in range(16))
# Board((cubes, wild)) without the NamedTuple's Python-level __new__: one per readiness check.
_new_board = tuple.__new__


def board_of_cells(cells: Sequence[Any]) -> Board:
    """The bitboard of a town's squares (same reading as town.letters)."""
    # Each resource's mask in a local (no dict lookup and store per cube), the dict built once at
    # the end: this runs once or twice per move. The resources are the five of LETTER, in order.
    wood = wheat = brick = glass = stone = wild = 0
    for bit, cell in zip(_BITS, cells, strict=True):
        if cell is None:
            continue
        # A square holds a cube ({"resource": r}) or a building ({"building": slug, ...}).
        resource = cell.get("resource")
        if resource is None:
            if cell.get("building") == "trading-post":
                wild |= bit
        elif resource == "wood":
            wood |= bit
        elif resource == "wheat":
            wheat |= bit
        elif resource == "brick":
            brick |= bit
        elif resource == "glass":
            glass |= bit
        elif resource == "stone":
            stone |= bit
        else:
            raise KeyError(resource)  # (as LETTER[resource] did)
    return _new_board(Board, ({"W": wood, "H": wheat, "B": brick, "G": glass, "S": stone}, wild))


# Boards of lists of squares seen lately: id(list) -> (the list, kept so that its id is not reused
# while remembered; its squares then; their board). A move copies the list it changes (rules.apply
# never changes the state it is given) and the towns it does not change keep theirs, so a town's
# list of squares is usually the one read last time: the readiness check after a placement reads
# the board before it plus one cube (board_after_cube), and the listing of builds after it reads
# the same list. The squares are compared (by identity, in C) before a board is reused, in case
# the list was changed since; a square's content is replaced, never changed in place, as far as
# the board can tell (a cube's resource, a building's slug: see copying.py; a Warehouse's cubes and
# a Statue cube change in place but are not on the board).
_BOARDS: dict[int, tuple[Sequence[Any], tuple[Any, ...], Board]] = {}
# The lists of a few rounds of one game, all let go when full: a town's list is read again within
# a round or two, and every list kept alive here is more work for the garbage collector.
_BOARDS_KEPT = 64


def town_board(cells: Sequence[Any]) -> Board:
    """``board_of_cells(cells)``, remembered (see _BOARDS)."""
    squares = tuple(cells)
    found = _BOARDS.get(id(cells))
    if found is not None and found[1] == squares:
        return found[2]
    board = board_of_cells(squares)
    _remember(cells, squares, board)
    return board


def board_after_cube(before: Sequence[Any], cells: Sequence[Any], index: int) -> Board:
    """Remember (and return) the board of ``cells``: the squares ``before`` with a cube put on
    square ``index`` (empty before), from the board of ``before`` when it is remembered."""
    squares = tuple(cells)
    found = _BOARDS.get(id(before))
    if found is not None and found[1] == tuple(before):
        board = found[2]
        cubes = board.cubes.copy()
        cubes[LETTER[squares[index]["resource"]]] |= 1 << index
        board = _new_board(Board, (cubes, board.wild))
    else:
        board = board_of_cells(squares)
    _remember(cells, squares, board)
    return board


def _remember(cells: Sequence[Any], squares: tuple[Any, ...], board: Board) -> None:
    if len(_BOARDS) >= _BOARDS_KEPT:
        # Emptied whole, not the oldest entry alone: the host runs engines on several threads at once
        # (bot seats settle in a worker, replays in another), and clear() is one step under the GIL,
        # where finding the oldest and deleting it are two (another thread may delete it between).
        _BOARDS.clear()
    _BOARDS[id(cells)] = (cells, squares, board)


def board_of_marks(marks: Sequence[str]) -> Board:
    """The bitboard of town.letters output ('' empty, '*' Trading Post, else a resource letter)."""
    cubes = dict.fromkeys(LETTERS, 0)
    wild = 0
    for i, mark in enumerate(marks):
        if mark == "*":
            wild |= 1 << i
        elif mark:
            cubes[mark] |= 1 << i
    return _new_board(Board, (cubes, wild))


def _subset_tables(masks: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per byte value c (low byte, high byte): bitset of the k with masks[k]'s byte inside c."""
    halves = []
    for shift in (0, 8):
        table = [0] * _BYTE
        for k, mask in enumerate(masks):
            table[(mask >> shift) & 0xFF] |= 1 << k
        # Superset sums (zeta transform): table[c] |= table[c without one bit], bit by bit, a block
        # of values sharing the higher bits at a time.
        for bit in range(8):
            step = 1 << bit
            for base in range(0, _BYTE, 2 * step):
                low = table[base : base + step]
                table[base + step : base + 2 * step] = [
                    a | b for a, b in zip(table[base + step : base + 2 * step], low, strict=True)
                ]
        halves.append(tuple(table))
    return halves[0], halves[1]


@dataclass(frozen=True)
class PatternIndex:
    """One building's placements as bitsets (see the module docstring)."""

    masks: tuple[int, ...]  # square mask of placement k
    letters: tuple[tuple[str, tuple[int, ...], tuple[int, ...]], ...]  # letter, low table, high table
    only_wild: tuple[tuple[int, ...], tuple[int, ...]]  # placements inside a given Trading Post mask
    by_mask: dict[int, int]  # square mask -> bitset of the placements covering exactly it
    everything: int


def _build_index(slug: str) -> PatternIndex:
    placements = PLACEMENTS[slug]
    masks = tuple(p.mask for p in placements)
    tables = []
    for letter in LETTERS:
        per = [sum(1 << cell for cell, need in zip(p.cells, p.need, strict=True) if need == letter) for p in placements]
        if any(per):
            low, high = _subset_tables(per)
            tables.append((letter, low, high))
    # The letter the pattern needs most often first: it fails most often, and fitting stops at the
    # first letter that leaves no placement (the answer does not depend on the order).
    tables.sort(key=lambda table: -NEEDS[slug][table[0]])
    by_mask: dict[int, int] = {}
    for k, mask in enumerate(masks):
        by_mask[mask] = by_mask.get(mask, 0) | 1 << k
    return PatternIndex(masks, tuple(tables), _subset_tables(masks), by_mask, (1 << len(masks)) - 1)


_INDEX: dict[str, PatternIndex] = {}


def index(slug: str) -> PatternIndex:
    found = _INDEX.get(slug)
    if found is None:
        found = _INDEX[slug] = _build_index(slug)
    return found


def warm() -> None:
    """Build every building's tables now (a long-lived worker pays this once, up front)."""
    for slug in CATALOGUE:
        index(slug)
    if not SPANS:
        _build_joint()


_NEEDS_ITEMS: dict[str, tuple[tuple[str, int], ...]] = {slug: tuple(NEEDS[slug].items()) for slug in NEEDS}


def could_fit(slug: str, board: Board) -> bool:
    """Cheap count test (patterns.could_match on a bitboard): enough cubes of each resource,
    Trading Posts filling gaps, and at least one real cube."""
    cubes = board.cubes
    short = 0
    for letter, n in _NEEDS_ITEMS[slug]:
        have = cubes[letter].bit_count()
        if have < n:
            short += n - have
    return short <= board.wild.bit_count() and short < SIZES[slug]


Counts = tuple[tuple[int, ...], int]  # cube counts per LETTERS, Trading Posts: both capped (below)


def counts_of(board: Board) -> Counts:
    """The board's cube counts for the count test (could_fit), capped: counts past the most any
    building needs answer alike, and capped they repeat far more often (cache hits below)."""
    raw = (*map(int.bit_count, _BY_LETTER(board.cubes)), board.wild.bit_count())
    found = _CAPPED.get(raw)
    if found is None:
        # Capping in Python cost three times the counting: each raw count is capped once.
        if len(_CAPPED) >= 1 << 14:
            _CAPPED.clear()
        have = tuple(map(min, raw, _COUNT_CAPS))
        found = _CAPPED[raw] = (have, min(raw[-1], _WILD_CAP))
    return found


def could_fit_any(slugs: Sequence[str], board: Board) -> bool:
    """``any(could_fit(slug, board) for slug in slugs)``, counting the cubes once."""
    if not slugs:
        return False
    return could_fit_any_counts(slugs, counts_of(board))


def could_fit_any_counts(slugs: Sequence[str], counts: Counts) -> bool:
    """could_fit_any on ``counts_of(board)``, for a caller asking about several lists of buildings."""
    if not slugs:
        return False
    return _could_fit_any_counts(tuple(slugs), *counts)


_COUNT_CAPS = tuple(max(needs.get(letter, 0) for needs in NEEDS.values()) for letter in LETTERS)
_WILD_CAP = max(SIZES.values())
_CAPPED: dict[tuple[int, ...], Counts] = {}  # raw counts (per LETTERS, then Trading Posts) -> counts_of


@lru_cache(maxsize=4096)
def _could_fit_any_counts(slugs: tuple[str, ...], have: tuple[int, ...], wild: int) -> bool:
    """could_fit_any on cube counts (per LETTERS), which repeat from town to town and game to game
    (unlike the squares): the readiness check asks this of the public buildings and of the unbuilt
    monuments after most placements."""
    count = dict(zip(LETTERS, have, strict=True))
    for slug in slugs:
        short = 0
        for letter, n in _NEEDS_ITEMS[slug]:
            if count[letter] < n:
                short += n - count[letter]
        if short <= wild and short < SIZES[slug]:
            return True
    return False


def fitting(slug: str, board: Board) -> int:
    """Bitset of the placements of ``slug`` that fit ``board`` (bit k = PLACEMENTS[slug][k])."""
    pattern = index(slug)
    wild = board.wild
    cubes = board.cubes
    fits = pattern.everything
    for letter, low, high in pattern.letters:
        cover = cubes[letter] | wild
        fits &= low[cover & 0xFF] & high[cover >> 8]
        if not fits:
            return 0
    if wild:
        low, high = pattern.only_wild
        fits &= ~(low[wild & 0xFF] & high[wild >> 8])
    return fits


def fits_anywhere(slug: str, board: Board) -> bool:
    return fitting(slug, board) != 0


def fitting_slugs(slugs: Sequence[str], board: Board) -> Iterator[str]:
    """The buildings of ``slugs`` (in order) that fit somewhere, found lazily: the readiness check
    stops at the first. ``fitting`` inlined, as this runs after almost every placement."""
    wild = board.wild
    cubes = board.cubes
    tables = _INDEX
    if not wild:
        # No Trading Post (most towns): a square needing a letter must hold that cube, and a
        # placement that fits holds real cubes only.
        flat = _LETTER_TABLES
        for slug in slugs:
            found = flat.get(slug) or _letter_tables(slug)
            fits = found[0]
            for letter, low, high in found[1]:
                cover = cubes[letter]
                fits &= low[cover & 0xFF] & high[cover >> 8]
                if not fits:
                    break
            else:
                yield slug
        return
    for slug in slugs:
        pattern = tables.get(slug) or index(slug)
        fits = pattern.everything
        for letter, low, high in pattern.letters:
            cover = cubes[letter] | wild
            fits &= low[cover & 0xFF] & high[cover >> 8]
            if not fits:
                break
        else:
            low, high = pattern.only_wild
            fits &= ~(low[wild & 0xFF] & high[wild >> 8])
            if fits:
                yield slug


# Per building: (every placement, its letter tables), as a plain tuple for fitting_slugs' loop.
_LETTER_TABLES: dict[str, tuple[int, tuple[tuple[str, tuple[int, ...], tuple[int, ...]], ...]]] = {}


def _letter_tables(slug: str) -> tuple[int, tuple[tuple[str, tuple[int, ...], tuple[int, ...]], ...]]:
    pattern = index(slug)
    found = _LETTER_TABLES[slug] = (pattern.everything, pattern.letters)
    return found


# ---------------------------------------------------------------- every building at once
# The readiness check after a placement asks whether any of the seven buildings in play, or the
# player's unbuilt monument, fits; matched one by one that was the hottest loop of a playout. Here
# every placement of every building gets one bit in a single numbering (building after building, in
# CATALOGUE order: SPANS[slug] holds its bits), and each letter has a low-byte and a high-byte table
# over that numbering (a building not needing the letter has all its bits set in every entry). Five
# letters' lookups then match every building at once, as fitting matches one.
SPANS: dict[str, int] = {}
OFFSETS: dict[str, int] = {}  # slug -> its first bit: (fits & SPANS[slug]) >> OFFSETS[slug] is its ``fitting``
_JOINT_LETTERS: tuple[tuple[str, tuple[int, ...], tuple[int, ...]], ...] = ()
_JOINT_ONLY_WILD: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
_JOINT_KEYS: dict[tuple[str, ...], int] = {}  # the buildings asked about -> their bits, OR'ed
# The letters in the order that leaves no placement soonest, on average over random 4-player games
# (4.2 letters looked up per readiness check, against 4.6 in LETTERS order; same answer in any order).
_JOINT_ORDER = ("W", "G", "S", "B", "H")


def _build_joint() -> None:
    """Fill SPANS and the joint tables (once per process: from every building's own tables)."""
    global _JOINT_LETTERS, _JOINT_ONLY_WILD
    offsets: dict[str, int] = {}
    offset = 0
    for slug in CATALOGUE:
        offsets[slug] = offset
        offset += len(PLACEMENTS[slug])
    letters = []
    for letter in _JOINT_ORDER:
        halves = []
        for half in (0, 1):
            table = [0] * _BYTE
            for slug, shift in offsets.items():
                pattern = index(slug)
                own = {entry[0]: (entry[1], entry[2]) for entry in pattern.letters}.get(letter)
                values = own[half] if own is not None else (pattern.everything,) * _BYTE
                table = [a | b << shift for a, b in zip(table, values, strict=True)]
            halves.append(tuple(table))
        letters.append((letter, halves[0], halves[1]))
    only_wild = []
    for half in (0, 1):
        table = [0] * _BYTE
        for slug, shift in offsets.items():
            values = index(slug).only_wild[half]
            table = [a | b << shift for a, b in zip(table, values, strict=True)]
        only_wild.append(tuple(table))
    # SPANS last (joint_fits builds when it is empty): another thread sees either no SPANS (and
    # builds the same tables again) or complete tables.
    _JOINT_ONLY_WILD = (only_wild[0], only_wild[1])
    _JOINT_LETTERS = tuple(letters)
    OFFSETS.update(offsets)
    # One update from a finished dict (a single C call under the GIL): filled from a generator,
    # another thread could see some buildings' spans and not the others.
    SPANS.update({slug: index(slug).everything << shift for slug, shift in offsets.items()})


def joint_fits(slugs: tuple[str, ...], board: Board) -> int:
    """The placements of the buildings ``slugs`` that fit ``board``, in the joint numbering above:
    ``slug`` fits when ``fits & SPANS[slug]`` (the answer of ``fitting`` for each, at once)."""
    fits = _JOINT_KEYS.get(slugs)
    if fits is None:
        fits = _joint_key(slugs)
    cubes = board.cubes
    wild = board.wild
    # Left to right: ANDed with the buildings asked about first, the numbers stay as short as them.
    for letter, low, high in _JOINT_LETTERS:
        cover = cubes[letter] | wild
        fits = fits & low[cover & 0xFF] & high[cover >> 8]
        if not fits:
            return 0
    if wild:
        low, high = _JOINT_ONLY_WILD
        fits &= ~(low[wild & 0xFF] & high[wild >> 8])
    return fits


def _joint_key(slugs: tuple[str, ...]) -> int:
    if not SPANS:
        _build_joint()
    bits = 0
    for slug in slugs:
        bits |= SPANS[slug]
    if len(_JOINT_KEYS) >= 1024:  # a few lists per game (buildings in play, plus each monument)
        _JOINT_KEYS.clear()
    _JOINT_KEYS[slugs] = bits
    return bits


def masks_of(slug: str, fits: int) -> list[int]:
    """Distinct square masks of the placements in the ``fitting`` bitset, in placement order."""
    masks = index(slug).masks
    out: list[int] = []
    while fits:
        low = fits & -fits
        mask = masks[low.bit_length() - 1]
        if mask not in out:
            out.append(mask)
        fits ^= low
    return out


def fitting_masks(slug: str, board: Board) -> list[int]:
    """Distinct square masks where ``slug`` fits, in the order of their first placement."""
    fits = fitting(slug, board)
    return masks_of(slug, fits) if fits else []


def fits_at(slug: str, board: Board, mask: int) -> bool:
    """Whether some placement of ``slug`` covering exactly ``mask`` fits."""
    group = index(slug).by_mask.get(mask, 0)
    return bool(group) and bool(fitting(slug, board) & group)
