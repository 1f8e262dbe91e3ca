"""A second, independent Tiny Towns scorer written from the rulebook (tiny-towns.reference.md), for tests.

It shares no code and no numbers with games/tiny_towns/scoring.py or the data files: every VP value below
is typed in from the printed cards, and feeding is found by brute force over the allocations the feeders
allow. It reads only what the final state records: which building stands on each square, cubes stored on
Warehouses, the Shrine's VP fixed when it was built, the round each town was completed, and the seating
(for Feast Hall). Display names are the only thing taken from the engine, to compare breakdowns by name.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

SIDE = 4
SQUARES = range(SIDE * SIDE)
CORNERS = (0, 3, 12, 15)
CENTRE = (5, 6, 9, 10)

COLOUR = {
    "cottage": "blue",
    **dict.fromkeys(("farm", "granary", "greenhouse", "orchard"), "red"),
    **dict.fromkeys(("well", "fountain", "millstone", "shed"), "gray"),
    **dict.fromkeys(("chapel", "abbey", "cloister", "temple"), "orange"),
    **dict.fromkeys(("tavern", "almshouse", "inn", "feast-hall"), "green"),
    **dict.fromkeys(("theater", "bakery", "market", "tailor"), "yellow"),
    **dict.fromkeys(("factory", "bank", "trading-post", "warehouse"), "black"),
}
TAVERN = [0, 2, 5, 9, 14, 20]  # by count, 5 or more -> 20
ALMSHOUSE = [0, -1, 5, -3, 15, -5, 26]  # by count, 6 or more -> 26
STARLOOM = {1: 6, 2: 3, 3: 2}  # by completion place, later -> 0
FLAT = {
    "farm": 0,
    "granary": 0,
    "greenhouse": 0,
    "orchard": 0,
    "shed": 1,
    "factory": 0,
    "bank": 4,
    "trading-post": 1,
    "architects-guild": 1,
    "cathedral-of-caterina": 2,
    "fort-ironweed": 7,
    "grand-mausoleum-of-the-rodina": 0,
    "grove-university": 3,
    "obelisk-of-the-crescent": 0,
    "opaleyes-watch": 0,
    "statue-of-the-bondmaker": 0,
}
FEEDABLE = {"cottage": 1, "barrett-castle": 2}  # counts as this many Cottages
FED_VP = {"cottage": 3, "barrett-castle": 5}


def row_col(i: int) -> tuple[int, int]:
    return divmod(i, SIDE)


def adjacent(i: int) -> list[int]:
    r, c = row_col(i)
    return [
        rr * SIDE + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if 0 <= rr < 4 and 0 <= cc < 4
    ]


def around(i: int) -> list[int]:
    r, c = row_col(i)
    return [
        rr * SIDE + cc
        for rr in (r - 1, r, r + 1)
        for cc in (c - 1, c, c + 1)
        if (rr, cc) != (r, c) and 0 <= rr < 4 and 0 <= cc < 4
    ]


def row(i: int) -> list[int]:
    r, _ = row_col(i)
    return [r * SIDE + c for c in range(SIDE) if r * SIDE + c != i]


def column(i: int) -> list[int]:
    _, c = row_col(i)
    return [r * SIDE + c for r in range(SIDE) if r * SIDE + c != i]


def kind_for_types(slug: str) -> str:
    """Barrett Castle counts as Cottage wherever building types are counted."""
    return "cottage" if slug == "barrett-castle" else slug


def groups(cells: set[int]) -> list[frozenset[int]]:
    """Orthogonally connected groups of the given squares."""
    left, out = set(cells), []
    while left:
        stack, group = [left.pop()], set()
        while stack:
            i = stack.pop()
            group.add(i)
            for j in adjacent(i):
                if j in left:
                    left.remove(j)
                    stack.append(j)
        out.append(frozenset(group))
    return out


def fed_choices(town: list[str | None]) -> list[frozenset[int]]:
    """Every maximal set of fed squares the feeders allow (scores never drop when more is fed)."""
    feedable = {i for i in SQUARES if town[i] in FEEDABLE}
    always: set[int] = set()
    farm_slots = greenhouses = 0
    for i in SQUARES:
        if town[i] == "granary":
            always |= feedable & set(around(i))
        elif town[i] == "orchard":
            always |= feedable & set(row(i) + column(i))
        elif town[i] == "farm":
            farm_slots += 4
        elif town[i] == "greenhouse":
            greenhouses += 1
    options = []
    comps = groups(feedable)
    for chosen in combinations(comps, min(greenhouses, len(comps))):
        base = set(always).union(*chosen)
        rest = sorted(feedable - base)
        for extra in combinations(rest, min(farm_slots, len(rest))):
            options.append(frozenset(base | set(extra)))
    return options


def score(state: dict[str, Any], seat: int) -> dict[str, int]:
    """VP by building slug (plus 'empty') for the town at ``seat``, with the best feeding."""
    best: dict[str, int] | None = None
    cells = state["towns"][seat]["cells"]
    town = [cell.get("building") if cell else None for cell in cells]
    for fed in fed_choices(town):
        points = _score_with(state, seat, town, fed)
        if best is None or sum(points.values()) > sum(best.values()):
            best = points
    assert best is not None
    return best


def _score_with(state: dict[str, Any], seat: int, town: list[str | None], fed: frozenset[int]) -> dict[str, int]:
    me = state["towns"][seat]
    monument = me.get("monument") if me.get("monument_built") else None
    built = [i for i in SQUARES if town[i]]
    slugs = [s for s in town if s]
    fed_units = sum(FEEDABLE[town[i] or ""] for i in fed)
    points: dict[str, int] = {}

    def add(slug: str, vp: int) -> None:
        points[slug] = points.get(slug, 0) + vp

    for i in built:
        slug = town[i]
        assert slug is not None
        near = [town[j] for j in adjacent(i) if town[j]]
        near_colours = {COLOUR.get(s) for s in near}
        if slug in FLAT:
            add(slug, FLAT[slug])
        elif slug in FEEDABLE:
            unfed = 3 if slug == "cottage" and monument == "grand-mausoleum-of-the-rodina" else 0
            add(slug, FED_VP[slug] if i in fed else unfed)
        elif slug == "well":
            add(slug, sum(FEEDABLE.get(s, 0) for s in near))
        elif slug == "fountain":
            add(slug, 2 if "gray" in near_colours else 0)
        elif slug == "millstone":
            add(slug, 2 if near_colours & {"red", "yellow"} else 0)
        elif slug == "chapel":
            add(slug, fed_units)
        elif slug == "abbey":
            add(slug, 0 if near_colours & {"black", "green", "yellow"} else 3)
        elif slug == "cloister":
            add(slug, sum(1 for c in CORNERS if town[c] == "cloister"))
        elif slug == "temple":
            add(slug, 4 if sum(FEEDABLE[town[j] or ""] for j in adjacent(i) if j in fed) >= 2 else 0)
        elif slug in ("tavern", "almshouse"):
            table = TAVERN if slug == "tavern" else ALMSHOUSE
            points[slug] = table[min(slugs.count(slug), len(table) - 1)]
        elif slug == "inn":
            add(slug, 0 if any(town[j] == "inn" for j in row(i) + column(i)) else 3)
        elif slug == "feast-hall":
            add(slug, _feast_hall(state, seat, slugs.count("feast-hall")))
        elif slug == "theater":
            kinds = {kind_for_types(s) for j in row(i) + column(i) if (s := town[j])} - {"theater"}
            add(slug, min(6, len(kinds)))
        elif slug == "bakery":
            add(slug, 3 if near_colours & {"red", "black"} else 0)
        elif slug == "market":
            in_row = 1 + sum(1 for j in row(i) if town[j] == "market")
            in_col = 1 + sum(1 for j in column(i) if town[j] == "market")
            add(slug, min(4, max(in_row, in_col)))
        elif slug == "tailor":
            add(slug, min(5, 1 + sum(1 for c in CENTRE if town[c] == "tailor")))
        elif slug == "warehouse":
            add(slug, -len(me["cells"][i].get("stored", [])))
        elif slug == "archive-of-the-second-age":
            add(slug, min(7, len({kind_for_types(s) for s in slugs if s in COLOUR})))
        elif slug == "mandras-palace":
            add(slug, min(8, 2 * len({kind_for_types(s) for s in near})))
        elif slug == "shrine-of-the-elder-tree":
            add(slug, int(me.get("shrine_vp") or 0))  # fixed by the count when built (checked elsewhere)
        elif slug == "silva-forum":
            add(slug, 1 + max(len(g) for s in set(slugs) for g in groups({j for j in SQUARES if town[j] == s})))
        elif slug == "sky-baths":
            present = {kind_for_types(s) for s in slugs}
            add(slug, 2 * sum(1 for b in state["buildings"] if b not in present))
        elif slug == "starloom":
            add(slug, STARLOOM.get(_completion_place(state, seat), 0))
        else:
            raise AssertionError(f"the rulebook scorer does not know {slug}")
    empties = sum(1 for s in town if s is None)
    points["empty"] = 0 if monument == "cathedral-of-caterina" else -empties
    return points


def _feast_hall(state: dict[str, Any], seat: int, mine: int) -> int:
    towns = state["towns"]
    if len(towns) == 1:
        return 2  # decision 2: 2 VP each in solo
    right = towns[(seat - 1) % len(towns)]  # the hammer passes left, so the previous seat is on your right
    theirs = sum(1 for cell in right["cells"] if cell and cell.get("building") == "feast-hall")
    return 3 if mine > theirs else 2


def _completion_place(state: dict[str, Any], seat: int) -> int:
    mine = state["towns"][seat].get("completed_round")
    if mine is None:
        return 99
    return 1 + sum(1 for t in state["towns"] if t.get("completed_round") is not None and t["completed_round"] < mine)
