"""Scoring a town (with the best feeding allocation) and ranking the players.

Numbers come from the data files (effect parameters on each card, rules.json); the code only
knows what each effect *kind* means.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from games.base import PlayStats, Standing, State
from games.tiny_towns.content import CATALOGUE, ORDER, RULES
from games.tiny_towns.patterns import ADJACENT, CELLS, CENTRE, COL_OF, CORNERS, LINES, ROW_OF, SURROUNDING

_FEEDABLE = {slug for slug, e in CATALOGUE.items() if e.get("feedable")}
_UNITS = {slug: CATALOGUE[slug].get("counts_as_cottages", 1) for slug in _FEEDABLE}
_MAX_SPECIALS = 14  # brute force bound for Temple-adjacent feeding choices (2^14 evaluations)


def cottage_units(slug: str | None) -> int:
    """How many Cottages a building counts as for scoring (Barrett Castle = 2)."""
    return _UNITS.get(slug, 0) if slug else 0


def type_key(slug: str) -> str:
    """Barrett Castle counts as the Cottage type wherever types are counted."""
    return "cottage" if CATALOGUE[slug].get("counts_as_cottages") else slug


def building_at(cells: list[Any], i: int) -> str | None:
    cell = cells[i]
    return cell.get("building") if cell else None


def _colour(slug: str | None) -> str | None:
    return CATALOGUE[slug]["colour"] if slug else None


# ---------------------------------------------------------------- feeding


class _Feeding:
    """The feeding-dependent part of a town's score, for choosing the best allocation."""

    def __init__(self, slugs: list[str | None], mausoleum: bool) -> None:
        self.slugs = slugs
        self.feedable = [i for i, s in enumerate(slugs) if s in _FEEDABLE]
        self.chapel_each = 0
        self.temples: list[tuple[int, int, int]] = []  # (cell, min units, vp)
        for i, slug in enumerate(slugs):
            if not slug:
                continue
            effect = CATALOGUE[slug]["effect"]
            if effect["kind"] == "per_fed_cottage":
                self.chapel_each += effect["vp_each"]
            elif effect["kind"] == "adjacent_fed_cottages":
                self.temples.append((i, effect["min"], effect["vp"]))
        self.gain = {}
        for i in self.feedable:
            slug = slugs[i]
            assert slug is not None
            fed_vp = CATALOGUE[slug]["effect"]["vp"]
            unfed_vp = _unfed_vp(slug, mausoleum)
            self.gain[i] = fed_vp - unfed_vp + self.chapel_each * _UNITS[slug]

    def value(self, fed: int) -> int:
        total = sum(g for i, g in self.gain.items() if fed >> i & 1)
        for cell, need, vp in self.temples:
            units = sum(_UNITS[self.slugs[j] or ""] for j in ADJACENT[cell] if fed >> j & 1)
            if units >= need:
                total += vp
        return total

    def best_slots(self, base: int, slots: int) -> int:
        cands = [i for i in self.feedable if not base >> i & 1]
        if slots >= len(cands):
            return base | sum(1 << i for i in cands)
        if slots <= 0:
            return base
        near_temple = {j for cell, _, _ in self.temples for j in ADJACENT[cell]}
        specials = [i for i in cands if i in near_temple][:_MAX_SPECIALS]
        plain = sorted((i for i in cands if i not in specials), key=lambda i: (-self.gain[i], i))
        best_mask, best_value = base, None
        for size in range(min(slots, len(specials)), -1, -1):
            for chosen in combinations(specials, size):
                mask = base | sum(1 << i for i in chosen)
                for i in plain[: slots - size]:
                    mask |= 1 << i
                value = self.value(mask)
                if best_value is None or value > best_value:
                    best_mask, best_value = mask, value
        return best_mask


def _unfed_vp(slug: str, mausoleum: bool) -> int:
    if slug == "cottage" and mausoleum:
        return _mausoleum_vp()
    return 0


def _mausoleum_vp() -> int:
    return CATALOGUE["grand-mausoleum-of-the-rodina"]["unfed_cottage_vp"]


def best_feeding(slugs: list[str | None], mausoleum: bool = False) -> int:
    """Bitmask of fed squares under the allocation that maximises the score."""
    feeding = _Feeding(slugs, mausoleum)
    if not feeding.feedable:
        return 0
    feedable_mask = sum(1 << i for i in feeding.feedable)
    fixed = 0
    slots = 0
    groups = 0
    for i, slug in enumerate(slugs):
        feeds = CATALOGUE[slug].get("feeds") if slug else None
        if not feeds:
            continue
        kind = feeds["kind"]
        if kind == "surrounding":
            fixed |= sum(1 << j for j in SURROUNDING[i]) & feedable_mask
        elif kind == "row_column":
            fixed |= sum(1 << j for j in set(ROW_OF[i]) | set(COL_OF[i])) & feedable_mask
        elif kind == "slots":
            slots += feeds["slots"]
        elif kind == "group":
            groups += 1
    if not groups:
        return feeding.best_slots(fixed, slots)
    components = _components(feeding.feedable)
    best_mask, best_value = fixed, None
    for chosen in combinations(components, min(groups, len(components))):
        mask = fixed
        for comp in chosen:
            mask |= comp
        mask = feeding.best_slots(mask, slots)
        value = feeding.value(mask)
        if best_value is None or value > best_value:
            best_mask, best_value = mask, value
    return best_mask


def _components(cells: list[int]) -> list[int]:
    remaining = set(cells)
    out = []
    while remaining:
        start = min(remaining)
        stack, mask = [start], 0
        remaining.discard(start)
        while stack:
            cell = stack.pop()
            mask |= 1 << cell
            for j in ADJACENT[cell]:
                if j in remaining:
                    remaining.discard(j)
                    stack.append(j)
        out.append(mask)
    return out


# ---------------------------------------------------------------- per-building effects


def _count_table(table: list[int], count: int) -> int:
    return table[min(count, len(table) - 1)]


def _largest_group(slugs: list[str | None]) -> int:
    seen = [False] * CELLS
    best = 0
    for start in range(CELLS):
        if seen[start] or not slugs[start]:
            continue
        kind = slugs[start]
        stack, size = [start], 0
        seen[start] = True
        while stack:
            cell = stack.pop()
            size += 1
            for j in ADJACENT[cell]:
                if not seen[j] and slugs[j] == kind:
                    seen[j] = True
                    stack.append(j)
        best = max(best, size)
    return best


def _place_in_completion(state: State, seat: int) -> int | None:
    """1-based finishing place of a completed town; same-round finishers share a place."""
    towns = state["towns"]
    mine = towns[seat].get("completed_round")
    if mine is None:
        return None
    earlier = [
        t["completed_round"] for t in towns if t.get("completed_round") is not None and t["completed_round"] < mine
    ]
    if RULES.get("starloom_shared_place", "competition") == "dense":
        return len(set(earlier)) + 1
    return len(earlier) + 1


def score_town(state: State, seat: int) -> dict[str, Any]:
    """Score of one town if the game ended now: total, breakdown by building name, fed mask."""
    town = state["towns"][seat]
    cells = town["cells"]
    slugs: list[str | None] = [building_at(cells, i) for i in range(CELLS)]
    monument = town.get("monument") if town.get("monument_built") else None
    mausoleum = monument == "grand-mausoleum-of-the-rodina"
    fed = best_feeding(slugs, mausoleum)
    counts: dict[str, int] = {}
    for slug in slugs:
        if slug:
            counts[slug] = counts.get(slug, 0) + 1
    points: dict[str, int] = {}
    for i, slug in enumerate(slugs):
        if not slug:
            continue
        vp = _building_vp(state, seat, i, slug, slugs, fed, counts, mausoleum)
        points[slug] = points.get(slug, 0) + vp
    # Effects scored once for all copies (Tavern, Almshouse) are handled per type.
    for slug, n in counts.items():
        effect = CATALOGUE[slug]["effect"]
        if effect["kind"] == "count_table":
            points[slug] = _count_table(effect["table"], n)
    empty = sum(1 for cell in cells if not cell or "building" not in cell)
    empty_vp = RULES["empty_square_vp"]
    if monument and "empty_square_vp" in CATALOGUE[monument]:
        empty_vp = CATALOGUE[monument]["empty_square_vp"]
    breakdown = {CATALOGUE[slug]["name"]: points[slug] for slug in sorted(points, key=ORDER.__getitem__)}
    breakdown["Empty squares"] = empty * empty_vp
    cottages = counts.get("cottage", 0)
    if RULES.get("barrett_castle_counts_for_cottage_tiebreak"):
        cottages = sum(cottage_units(slug) for slug in slugs)
    return {
        "total": sum(breakdown.values()),
        "breakdown": breakdown,
        "fed": fed,
        "empty": empty,
        "cottages": cottages,
    }


def _building_vp(
    state: State,
    seat: int,
    i: int,
    slug: str,
    slugs: list[str | None],
    fed: int,
    counts: dict[str, int],
    mausoleum: bool,
) -> int:
    entry = CATALOGUE[slug]
    effect = entry["effect"]
    kind = effect["kind"]
    town = state["towns"][seat]
    if kind == "flat":
        return effect["vp"]
    if kind == "fed":
        return effect["vp"] if fed >> i & 1 else _unfed_vp(slug, mausoleum)
    if kind == "adjacent_cottages":
        return effect["vp_each"] * sum(cottage_units(slugs[j]) for j in ADJACENT[i])
    if kind == "adjacent_colour":
        return effect["vp"] if any(_colour(slugs[j]) in effect["colours"] for j in ADJACENT[i]) else 0
    if kind == "not_adjacent_colour":
        return 0 if any(_colour(slugs[j]) in effect["colours"] for j in ADJACENT[i]) else effect["vp"]
    if kind == "per_fed_cottage":
        units = sum(cottage_units(slugs[j]) for j in range(CELLS) if fed >> j & 1)
        return effect["vp_each"] * units
    if kind == "adjacent_fed_cottages":
        units = sum(cottage_units(slugs[j]) for j in ADJACENT[i] if fed >> j & 1)
        return effect["vp"] if units >= effect["min"] else 0
    if kind == "corner_count":
        return min(effect["max"], effect["vp_each"] * sum(1 for c in CORNERS if slugs[c] == slug))
    if kind == "count_table":
        return 0  # scored once per type by the caller
    if kind == "alone_in_lines":
        return 0 if any(slugs[j] == slug for j in LINES[i]) else effect["vp"]
    if kind == "feast_hall":
        return _feast_hall_vp(state, seat, effect, counts.get(slug, 0))
    if kind == "types_in_lines":
        kinds = {type_key(s) for j in LINES[i] if (s := slugs[j])}
        if not RULES.get("theater_counts_other_theaters", False):
            kinds.discard(slug)
        return min(effect["max"], effect["vp_each"] * len(kinds))
    if kind == "best_line_count":
        row = sum(1 for j in ROW_OF[i] if slugs[j] == slug)
        col = sum(1 for j in COL_OF[i] if slugs[j] == slug)
        return min(effect["max"], effect["vp_each"] * max(row, col))
    if kind == "centre_count":
        inner = sum(1 for c in CENTRE if slugs[c] == slug)
        return min(effect["max"], effect["base"] + effect["vp_each"] * inner)
    if kind == "per_stored":
        return effect["vp_each"] * len(state["towns"][seat]["cells"][i].get("stored", []))
    if kind == "distinct_types":
        kinds = {type_key(s) for s in slugs if s and not CATALOGUE[s]["monument"]}
        return min(effect["max"], effect["vp_each"] * len(kinds))
    if kind == "adjacent_types":
        kinds = {type_key(s) for j in ADJACENT[i] if (s := slugs[j])}
        return min(effect["max"], effect["vp_each"] * len(kinds))
    if kind == "shrine":
        return int(town.get("shrine_vp") or 0)
    if kind == "largest_group":
        return effect["base"] + effect["vp_each"] * _largest_group(slugs)
    if kind == "missing_types":
        present = {type_key(s) for s in slugs if s}
        return effect["vp_each"] * sum(1 for b in state["buildings"] if b not in present)
    if kind == "completion_place":
        place = _place_in_completion(state, seat)
        if place is None:
            return 0
        table = effect["table"]
        return table[place - 1] if place <= len(table) else effect["later"]
    raise ValueError(f"unknown effect kind {kind}")


def shrine_value(building_count: int) -> int:
    table = CATALOGUE["shrine-of-the-elder-tree"]["effect"]["table"]
    return _count_table(table, building_count)


def _feast_hall_vp(state: State, seat: int, effect: dict[str, Any], mine: int) -> int:
    towns = state["towns"]
    if len(towns) == 1:
        return effect["solo_vp"]
    # The hammer passes left (to the next seat), so the player on your right is the previous seat.
    right = towns[(seat + RULES.get("feast_hall_right_neighbour_offset", -1)) % len(towns)]
    theirs = sum(1 for cell in right["cells"] if cell and cell.get("building") == "feast-hall")
    return effect["vp"] + (effect["bonus"] if mine > theirs else 0)


# ---------------------------------------------------------------- standings


def solo_title(score: int) -> str:
    for threshold, title in RULES["solo"]["titles"]:
        if score >= threshold:
            return title
    return RULES["solo"]["titles"][-1][1]


def standings(state: State) -> list[Standing]:
    """Players in rank order with the rulebook's tie-breaks; resigned players rank last."""
    keyed: list[tuple[tuple[Any, ...], Standing]] = []
    for seat, town in enumerate(state["towns"]):
        result = score_town(state, seat)
        key = (
            bool(town.get("resigned")),
            -result["total"],
            town.get("times_master_builder", 0),
            result["empty"],
            -result["cottages"],
        )
        row = Standing(
            seat=seat, player=state["names"][seat], score=result["total"], rank=0, breakdown=result["breakdown"]
        )
        if len(state["towns"]) == 1:
            row["title"] = solo_title(result["total"])
        keyed.append((key, row))
    keyed.sort(key=lambda item: (item[0], item[1]["seat"]))
    rank, previous = 0, None
    for position, (key, row) in enumerate(keyed, start=1):
        if key != previous:
            rank, previous = position, key
        row["rank"] = rank
    return [row for _, row in keyed]


def stats(state: State) -> PlayStats:
    """Buildings standing in each town at the end (monuments included: they are public by then)."""
    counts: list[dict[str, int]] = []
    for town in state["towns"]:
        built: dict[str, int] = {}
        for cell in town["cells"]:
            slug = cell.get("building") if isinstance(cell, dict) else None
            if slug:
                built[slug] = built.get(slug, 0) + 1
        counts.append(built)
    return {"map": None, "counted": "buildings built", "counts": counts}
