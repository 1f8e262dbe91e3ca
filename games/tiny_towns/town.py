"""Questions about one town's board: what is where, what could be built, where it may go."""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import Any, Literal

from games.base import State
from games.tiny_towns.bitboard import (
    OFFSETS,
    SPANS,
    Board,
    board_of_cells,
    board_of_marks,
    could_fit_any,
    fits_anywhere,
    fits_at,
    fitting_masks,
    fitting_slugs,
    joint_fits,
    masks_of,
    town_board,
)
from games.tiny_towns.content import CATALOGUE, LETTER, MONUMENTS, RESOURCES, RULES
from games.tiny_towns.patterns import CELL_NAMES, CELLS

Town = dict[str, Any]


def letters(cells: list[Any]) -> list[str]:
    """Per square: the cube's resource letter, '*' for a Trading Post, '' otherwise."""
    out = []
    for cell in cells:
        if not cell:
            out.append("")
        elif "resource" in cell:
            out.append(LETTER[cell["resource"]])
        elif cell.get("building") == "trading-post":
            out.append("*")
        else:
            out.append("")
    return out


def empty_cells(cells: list[Any]) -> list[int]:
    return [i for i, cell in enumerate(cells) if cell is None]


def is_full(cells: list[Any]) -> bool:
    return None not in cells


def describe(cell: Any) -> str:
    """Player-facing description of what occupies a square."""
    if cell is None:
        return "nothing"
    if "resource" in cell:
        return f"a {cell['resource']} cube"
    return f"a {CATALOGUE[cell['building']]['name']}"


def is_active(town: Town) -> bool:
    return not town.get("complete") and not town.get("resigned")


def has_built(town: Town, monument: str) -> bool:
    return bool(town.get("monument_built")) and town.get("monument") == monument


# Only Factories and Banks have "holds": a cube or an empty square fails the first test.
def bank_resources(cells: list[Any]) -> set[str]:
    # ("in" before any method call: the Master Builder's listing and announce ask this of squares
    # that are mostly empty or cubes)
    return {c["holds"] for c in cells if c is not None and "holds" in c and c["holds"] and c.get("building") == "bank"}


def factory_resources(cells: list[Any]) -> set[str]:
    return {c["holds"] for c in cells if c and c.get("holds") and c.get("building") == "factory"}


def new_building(slug: str, monument: bool = False, holds: str | None = None) -> dict[str, Any]:
    """A fresh building entry for a square (Factory/Bank hold a resource, Warehouse stores cubes)."""
    entry: dict[str, Any] = {"building": slug}
    ability = CATALOGUE[slug].get("ability")
    if ability in ("factory", "bank"):
        entry["holds"] = holds
    elif ability == "warehouse":
        entry["stored"] = []
    if monument:
        entry["monument"] = True
    return entry


def available_buildings(state: State, seat: int) -> list[str]:
    """Types this seat may build now: the buildings in play plus its own unbuilt monument."""
    town = state["towns"][seat]
    out = list(state["buildings"])
    if town.get("monument") and not town.get("monument_built") and state["phase"] != "monuments":
        out.append(town["monument"])
    return out


def possible_monuments(state: State, seat: int) -> tuple[str, ...]:
    """The monuments ``seat`` might still build, as far as the other players can tell.

    Which monument a player kept is secret until it is built; that they kept one and whether it
    is built are public. Before it is built it could be any monument no town has built (solo
    leaves some out): a superset when the options listed the deal, which only makes the reveal
    check below more cautious.
    """
    town = state["towns"][seat]
    if not town.get("monument") or town.get("monument_built") or state["phase"] == "monuments":
        return ()
    gone = tuple([t["monument"] for t in state["towns"] if t.get("monument_built") and t.get("monument")])
    if state["variant"] == "solo":
        gone += _SOLO_REMOVED
    found = _POSSIBLE.get(gone)
    if found is None:
        # The readiness check asks this after almost every placement; a few dozen distinct answers.
        if len(_POSSIBLE) >= 4096:
            _POSSIBLE.clear()
        found = _POSSIBLE[gone] = tuple(slug for slug in MONUMENTS if slug not in gone)
    return found


_SOLO_REMOVED: tuple[str, ...] = tuple(RULES["solo"]["removed"])
_POSSIBLE: dict[tuple[str, ...], tuple[str, ...]] = {}


def with_choices(state: State, seat: int, slug: str) -> list[str | None]:
    """Resources a Factory or Bank may hold when built ([None] for other buildings; [] = cannot build)."""
    ability = CATALOGUE[slug].get("ability")
    if ability == "factory":
        return list(RESOURCES)
    if ability == "bank":
        held = bank_resources(state["towns"][seat]["cells"])
        return [r for r in RESOURCES if r not in held]
    return [None]


def places_anywhere(town: Town, slug: str, round_no: int) -> bool:
    """A Shed always, and every building from the round after its owner's Obelisk (building
    effects start once the round's building is over), may go on any empty square."""
    if CATALOGUE[slug].get("place_anywhere"):
        return True
    return has_built(town, "obelisk-of-the-crescent") and (town.get("monument_round") or 0) < round_no


def cube_counts(marks: list[str]) -> tuple[dict[str, int], int]:
    """Cubes per resource letter, and wild squares ("*"), for the quick could-match filter."""
    counts: dict[str, int] = {}
    wild = 0
    for mark in marks:
        if mark == "*":
            wild += 1
        elif mark:
            counts[mark] = counts.get(mark, 0) + 1
    return counts, wild


def matching_masks(state: State, seat: int, slug: str, marks: list[str] | None = None) -> list[int]:
    """Distinct square sets (bitmasks) where this building's pattern can be built now."""
    board = board_of_marks(marks) if marks is not None else board_of_cells(state["towns"][seat]["cells"])
    return fitting_masks(slug, board)


def any_match(slug: str, marks: list[str]) -> bool:
    """Whether the building's pattern fits anywhere (only existence matters)."""
    return fits_anywhere(slug, board_of_marks(marks))


def mask_matches(state: State, seat: int, slug: str, mask: int) -> bool:
    return fits_at(slug, board_of_cells(state["towns"][seat]["cells"]), mask)


def mask_cells(mask: int) -> list[int]:
    return list(mask_squares(mask))


@lru_cache(maxsize=1 << 12)
def mask_squares(mask: int) -> tuple[int, ...]:
    """mask_cells as a shared tuple."""
    # A building's squares: a few hundred distinct masks in all, asked for on every build listed.
    return tuple(i for i in range(CELLS) if mask >> i & 1)


def at_choices(town: Town, slug: str, mask: int, marks: list[str], round_no: int) -> list[int]:
    """Squares the new building may go on: freed squares (Trading Posts stay), or any empty one."""
    freed = [i for i in mask_squares(mask) if marks[i] != "*"]
    if places_anywhere(town, slug, round_no):
        empties = set(empty_cells(town["cells"])) | set(freed)
        return sorted(empties)
    return freed


def has_any_build(
    state: State, seat: int, seen_by: Literal["owner", "others", "public"] = "owner", board: Board | None = None
) -> bool:
    """Fast check used for 'done automatically': is any build possible right now?

    ``owner``: with the seat's own (secret) monument. ``others``: the secret monument counts as
    every monument it could be (``possible_monuments``). ``public``: the public buildings only.
    """
    if board is None:
        board = board_of_cells(state["towns"][seat]["cells"])
    # (An empty board needs no special case: no placement fits it.)
    if seen_by == "owner":
        slugs = available_buildings(state, seat)
    elif seen_by == "public":
        slugs = state["buildings"]
    else:
        slugs = [*state["buildings"], *possible_monuments(state, seat)]
    # Pattern first: it is the cheap test now, and most buildings fail it.
    return any(with_choices(state, seat, slug) for slug in fitting_slugs(slugs, board))


def might_fit_a_monument(state: State, seat: int, board: Board | None = None) -> bool:
    """Cheap and cautious: whether some monument the seat might hold has the cubes for its pattern
    (counts only, so it may say yes where no placement fits; never no where one does)."""
    if board is None:
        board = board_of_cells(state["towns"][seat]["cells"])
    return could_fit_any(possible_monuments(state, seat), board)


def monument_fits(state: State, seat: int, board: Board | None = None) -> bool:
    """Whether the seat's own unbuilt monument can be built right now."""
    town = state["towns"][seat]
    slug = town.get("monument")
    if not slug or town.get("monument_built"):
        return False
    if board is None:
        board = board_of_cells(town["cells"])
    return bool(with_choices(state, seat, slug)) and fits_anywhere(slug, board)


def iter_builds(state: State, seat: int) -> Iterator[tuple[str, int, list[int], list[str | None]]]:
    """(building, square mask, allowed 'at' squares, allowed 'with' resources) for every possible build."""
    town = state["towns"][seat]
    cells = town["cells"]
    board = town_board(cells)  # (usually remembered from the readiness check after the placement)
    if not board.any:
        return
    wild = board.wild  # Trading Posts: the squares a build does not free (at_choices' '*')
    empties: set[int] | None = None
    round_no = state["round"]
    # Every building matched at once (bitboard.joint_fits, as the readiness check just did), each
    # one's placements then read from its bits; at_choices inlined, with what does not depend on
    # the squares (may it go anywhere, the empty squares) read once.
    slugs = available_buildings(state, seat)
    every = joint_fits(tuple(slugs), board)
    if not every:
        return
    for slug in slugs:
        fits = (every & SPANS[slug]) >> OFFSETS[slug]
        if not fits:
            continue
        withs = with_choices(state, seat, slug)
        if not withs:
            continue
        anywhere = places_anywhere(town, slug, round_no)
        for mask in masks_of(slug, fits):
            freed = [i for i in mask_squares(mask) if not wild >> i & 1]
            if anywhere:
                if empties is None:
                    empties = set(empty_cells(cells))
                yield slug, mask, sorted(empties | set(freed)), withs
            else:
                yield slug, mask, freed, withs


def cell_names(indices: list[int]) -> list[str]:
    return [CELL_NAMES[i] for i in sorted(indices)]
