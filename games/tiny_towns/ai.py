"""Bots. Level 0 plays a uniformly random legal move; level 1 is a greedy heuristic player.

Level 1 in short. At the end every square holds a building worth v or scores -1, so a building
is worth about v + 1; but each square can hold only one building, so early on a building must
beat an "opportunity cost" (what the square could hold instead), which falls as the town fills.
  - placing: put the cube where it best advances a compatible pattern of a worthwhile building
    (a cube that fits no pattern is a lost square); avoid spoiling nearly complete patterns;
  - naming: the resource whose best placement is best for its own town;
  - building: the build (and square) that most raises real score + cube potential - opportunity
    cost; otherwise done;
  - Factory/Warehouse/Statue/cave only when the cube would otherwise be nearly useless.
Randomness (level 0, tie-breaks) comes from the state's RNG value and a fingerprint of the
towns, without changing the state.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

from games.base import MOVE_KEY, IllegalMove, Move, State
from games.rng import Rng
from games.tiny_towns import flow, rules
from games.tiny_towns.builds import build_moves
from games.tiny_towns.content import CATALOGUE, LETTER, RESOURCE_OF, RESOURCES
from games.tiny_towns.patterns import (
    ADJACENT,
    CELL_INDEX,
    CELL_NAMES,
    CENTRE,
    COL_OF,
    CORNERS,
    LINES,
    PLACEMENTS,
    ROW_OF,
    SIZES,
    SURROUNDING,
    Placement,
)
from games.tiny_towns.scoring import cottage_units, score_town, shrine_value, type_key
from games.tiny_towns.town import letters, new_building

# Rough points of one more building when the town gives no better estimate (bot tuning, not rules).
_POINTS = {
    "cottage": 3.0,
    "shed": 1.0,
    "abbey": 2.5,
    "cloister": 1.5,
    "temple": 2.5,
    "inn": 2.5,
    "feast-hall": 2.2,
    "tailor": 2.0,
    "factory": 0.6,
    "bank": 4.0,
    "trading-post": 1.8,
    "warehouse": 0.3,
    "architects-guild": 3.0,
    "archive-of-the-second-age": 4.0,
    "barrett-castle": 6.0,
    "cathedral-of-caterina": 5.0,
    "fort-ironweed": 7.0,
    "grand-mausoleum-of-the-rodina": 5.0,
    "grove-university": 5.0,
    "mandras-palace": 4.0,
    "obelisk-of-the-crescent": 2.0,
    "opaleyes-watch": 2.5,
    "shrine-of-the-elder-tree": 6.0,
    "silva-forum": 4.0,
    "statue-of-the-bondmaker": 2.0,
    "sky-baths": 5.0,
    "starloom": 4.0,
}
_MONUMENT_PREFERENCE = [
    "cathedral-of-caterina",
    "grand-mausoleum-of-the-rodina",
    "fort-ironweed",
    "starloom",
    "archive-of-the-second-age",
    "mandras-palace",
    "shrine-of-the-elder-tree",
    "grove-university",
    "barrett-castle",
    "sky-baths",
    "silva-forum",
    "architects-guild",
    "statue-of-the-bondmaker",
    "obelisk-of-the-crescent",
    "opaleyes-watch",
]
_DEAD = -1.0
_UNFED_HOPE = 1.5  # credit for an unfed Cottage while a feeder can still come
_OPPORTUNITY = 0.8  # value of an empty square to a future building, in a roomy town
_SIZE_PENALTY = 0.0  # per pattern square beyond 3: big patterns are harder to complete
_BLOCK = 0.5  # weight of the best partial pattern a cube would spoil
_KEEP = 0.25  # weight of what a cube could still do for another building type

# slug -> cell -> (placement, letter it needs on that cell) for every placement covering the cell.
_THROUGH: dict[str, list[list[tuple[Placement, str]]]] = {}
for _slug, _placements in PLACEMENTS.items():
    _table: list[list[tuple[Placement, str]]] = [[] for _ in range(16)]
    for _p in _placements:
        for _cell, _need in zip(_p.cells, _p.need, strict=True):
            _table[_cell].append((_p, _need))
    _THROUGH[_slug] = _table


def _rng(state: State, seat: int) -> Rng:
    towns = [[t["cells"], t["placed"], t["done"]] for t in state["towns"]]
    fingerprint = json.dumps([towns, state["round"], state["phase"], seat], separators=(",", ":"))
    return Rng(state["rng"] ^ zlib.crc32(fingerprint.encode()) ^ (seat << 40))


def bot_move(state: State, seat: int, level: int) -> Move:
    if level <= 0:
        moves = rules.legal_moves(state, seat)
        if not moves:
            raise IllegalMove("The bot has nothing to do now.")
        return moves[_rng(state, seat).below(len(moves))]
    if level >= 2:
        from games.tiny_towns.ai_search import choose  # level 2: search (ai_search.py)

        town = state["towns"][seat] if 0 <= seat < len(state["towns"]) else None
        if town is not None and state["phase"] != "finished" and not town["resigned"] and not town["complete"]:
            move = choose(state, seat)
            if move is not None:
                return move
    return _Policy(state, seat).choose()


# ---------------------------------------------------------------- shared with the level-2 search


def estimated_points(state: State, seat: int, slug: str) -> float:
    """Level 1's estimate of one more ``slug`` in this town."""
    return _Policy(state, seat)._points(slug)


def named_resource(state: State, seat: int) -> str:
    """The resource level 1 would name as master builder for this town (its best single cube)."""
    policy = _Policy(state, seat)
    return max(RESOURCES, key=lambda r: (policy._best_cell_value(r), -RESOURCES.index(r)))


def candidate_builds(state: State, seat: int, moves: list[Move]) -> list[Move]:
    """The builds worth considering (one good choice per monument option list)."""
    return _Policy(state, seat)._candidates(moves)


def after_build_cells(state: State, seat: int, move: Move) -> list[Any]:
    """The seat's squares after ``move`` (a legal build), without applying it."""
    return _Policy(state, seat)._after_build(move)


class _Policy:
    def __init__(self, state: State, seat: int, focus: dict[str, float] | None = None) -> None:
        self.focus = focus or {}
        self.state = state
        self.seat = seat
        self.town = state["towns"][seat]
        self.cells: list[Any] = list(self.town["cells"])
        self.marks = letters(self.cells)
        empties = sum(1 for c in self.cells if c is None)
        # What a square is worth to a future building: high while the town is roomy.
        self.opportunity = _OPPORTUNITY * min(1.0, empties / 8)
        self._targets_cache: list[tuple[str, float, list[float] | None]] | None = None

    # ---------------------------------------------------------- top level

    def choose(self) -> Move:
        state, town = self.state, self.town
        phase = state["phase"]
        if phase == "finished" or town["resigned"] or town["complete"]:
            raise IllegalMove("The bot has nothing to do now.")
        if phase in ("monuments", "announce"):
            moves = rules.legal_moves(state, self.seat)
            if not moves:
                raise IllegalMove("The bot has nothing to do now.")
            if phase == "monuments":
                return min(moves, key=lambda m: _MONUMENT_PREFERENCE.index(m["monument"]))
            return max(moves, key=lambda m: (self._best_cell_value(m["resource"]), -RESOURCES.index(m["resource"])))
        if not town["placed"]:
            return self._choose_placement()
        return self._choose_after_placing()

    # ---------------------------------------------------------- estimates

    def _points(self, slug: str) -> float:
        """Estimated points of one more `slug` in this town."""
        counts: dict[str, int] = {}
        colours: set[str] = set()
        for c in self.cells:
            if c and "building" in c:
                counts[c["building"]] = counts.get(c["building"], 0) + 1
                colours.add(CATALOGUE[c["building"]]["colour"])
        entry = CATALOGUE[slug]
        effect = entry["effect"]
        kind = effect["kind"]
        cottages = counts.get("cottage", 0)
        if entry.get("feeds"):
            feeders = sum(n for b, n in counts.items() if CATALOGUE[b].get("feeds"))
            if not feeders:
                return 2.5 + (3.0 - _UNFED_HOPE) * min(4, cottages)
            return (3.0 - _UNFED_HOPE) * min(4, max(0, cottages - 4 * feeders))
        if kind == "count_table":
            table = effect["table"]
            n = counts.get(slug, 0)
            last = len(table) - 1
            return max(
                table[min(n + 1, last)] - table[min(n, last)], (table[min(n + 2, last)] - table[min(n, last)]) / 2
            )
        if kind == "adjacent_colour":
            return effect["vp"] if colours & set(effect["colours"]) else 0.5
        if kind == "per_fed_cottage":
            return 0.5 + 0.8 * cottages
        if kind == "adjacent_cottages":
            return 0.5 + 0.6 * min(cottages, 3)
        if kind == "types_in_lines":
            return 1.0 + 0.5 * min(len(counts), 5)
        if kind in ("best_line_count", "corner_count"):
            return 1.0 + 1.2 * counts.get(slug, 0)
        if kind == "fed":
            return 3.0 if slug == "cottage" else 6.0
        return _POINTS.get(slug, 2.0)

    def _points_at(self, slug: str) -> list[float] | None:
        """Points of one more `slug` standing on each square, for effects that depend on
        position (None when position hardly matters)."""
        kind = CATALOGUE[slug]["effect"]["kind"]
        effect = CATALOGUE[slug]["effect"]
        here = [c.get("building") if c and "building" in c else None for c in self.cells]
        colour = [CATALOGUE[b]["colour"] if b else None for b in here]
        out = [0.0] * 16
        for i in range(16):
            near = ADJACENT[i]
            if kind == "adjacent_colour":
                out[i] = effect["vp"] if any(colour[j] in effect["colours"] for j in near) else 0.3
            elif kind == "not_adjacent_colour":
                out[i] = 0.0 if any(colour[j] in effect["colours"] for j in near) else effect["vp"]
            elif kind == "adjacent_cottages":
                out[i] = 0.3 + sum(cottage_units(here[j]) for j in near)
            elif kind == "adjacent_fed_cottages":
                out[i] = effect["vp"] if sum(cottage_units(here[j]) for j in near) >= effect["min"] else 1.0
            elif kind == "alone_in_lines":
                out[i] = 0.0 if any(here[j] == slug for j in LINES[i]) else effect["vp"]
            elif kind == "corner_count":
                corners = sum(1 for c in CORNERS if here[c] == slug)
                out[i] = 1.0 + corners * 2 if i in CORNERS else 0.5 + corners
            elif kind == "centre_count":
                inner = sum(1 for c in CENTRE if here[c] == slug)
                out[i] = 1.0 + inner + (1.0 + inner if i in CENTRE else 0.0)
            elif kind == "best_line_count":
                row = sum(1 for j in ROW_OF[i] if here[j] == slug)
                col = sum(1 for j in COL_OF[i] if here[j] == slug)
                out[i] = 1.0 + 2 * max(row, col)
            elif kind == "types_in_lines":
                out[i] = 0.5 + len({type_key(b) for j in LINES[i] if (b := here[j]) and b != slug})
            elif CATALOGUE[slug].get("feeds", {}).get("kind") in ("surrounding", "row_column"):
                area = SURROUNDING[i] if CATALOGUE[slug]["feeds"]["kind"] == "surrounding" else LINES[i]
                out[i] = (
                    0.5
                    + 2.0 * sum(1 for j in area if here[j] == "cottage")
                    + 0.6 * sum(1 for j in area if self.cells[j] is None)
                )
            elif slug == "cottage":
                out[i] = self._cottage_at(i, here)
            else:
                return None
        return out

    def _cottage_at(self, i: int, here: list[str | None]) -> float:
        """A Cottage is worth 3 only if it will be fed: guess that from the feeders in town."""
        if self.town.get("monument") == "grand-mausoleum-of-the-rodina" and self.town.get("monument_built"):
            return 3.0
        feeders = [(j, b) for j, b in enumerate(here) if b and CATALOGUE[b].get("feeds")]
        red = next((b for b in self.state["buildings"] if CATALOGUE[b].get("feeds")), None)
        kind = CATALOGUE[red]["feeds"]["kind"] if red else "slots"
        cottages = sum(1 for b in here if b == "cottage")
        if kind == "slots":
            room = 4 * len(feeders) - cottages
            return 3.0 if room > 0 or (not feeders and cottages < 4) else 1.5
        if kind == "group":
            return 2.5 if feeders else 2.2
        if not feeders:
            return 2.3 if cottages < 5 else 1.2
        for j, _ in feeders:
            area = SURROUNDING[j] if kind == "surrounding" else LINES[j]
            if i in area:
                return 3.0
        return 1.2

    def _targets(self) -> list[tuple[str, float, list[float] | None]]:
        """Building types worth aiming for: (slug, value of completing one, per-square values)."""
        if self._targets_cache is not None:
            return self._targets_cache
        out = []
        kinds = list(self.state["buildings"])
        mine = self.town.get("monument")
        if mine and not self.town.get("monument_built") and self.state["phase"] != "monuments":
            kinds.append(mine)
        for slug in kinds:
            bonus = 1.0 - self.opportunity - _SIZE_PENALTY * max(0, SIZES[slug] - 3) + (1.0 if slug == mine else 0.0)
            bonus += self.focus.get(slug, 0.0)
            local = self._points_at(slug)
            if local is not None:
                squares = [v + bonus for v in local]
                weight = max(squares)
            else:
                squares = None
                weight = self._points(slug) + bonus
            if weight > 0.05:
                out.append((slug, weight, squares))
        self._targets_cache = out
        return out

    def _cell_value(self, cell: int, resource: str, exclude: str | None = None) -> float:
        """Progress this cube adds to the best compatible pattern, minus the best pattern it spoils."""
        letter = LETTER[resource]
        marks = self.marks
        cells = self.cells
        gain = _DEAD
        blocked = 0.0
        for slug, top, squares in self._targets():
            if slug == exclude:
                continue
            size = SIZES[slug]
            for placement, need0 in _THROUGH[slug][cell]:
                weight = top if squares is None else max(squares[c] for c in placement.cells)
                if weight <= 0.05:
                    continue
                matched = 0
                ok = True
                for c, need in zip(placement.cells, placement.need, strict=True):
                    if c == cell:
                        continue
                    have = marks[c]
                    if have == need or have == "*":
                        matched += 1
                    elif cells[c] is not None:
                        ok = False
                        break
                if not ok:
                    continue
                share = weight / size  # a building's value spread over the cubes it needs
                if need0 == letter:
                    value = share * (0.5 + (matched + 1) / size)
                    if value > gain:
                        gain = value
                else:
                    spoiled = share * matched * 0.5
                    if spoiled > blocked:
                        blocked = spoiled
        return gain - _BLOCK * blocked

    def _best_cell_value(self, resource: str) -> float:
        empties = [i for i, c in enumerate(self.cells) if c is None]
        return max((self._cell_value(i, resource) for i in empties), default=_DEAD)

    # ---------------------------------------------------------- placement

    def _choose_placement(self) -> Move:
        moves = rules.place_moves(self.state, self.seat)
        if not moves:
            raise IllegalMove("The bot has nothing to do now.")
        named = self.state["resource"]
        cache: dict[tuple[int, str], float] = {}

        def value(cell: int, resource: str) -> float:
            key = (cell, resource)
            if key not in cache:
                cache[key] = self._cell_value(cell, resource)
            return cache[key]

        plain = [
            value(CELL_INDEX[m["cell"]], m.get("resource") or named)
            for m in moves
            if m[MOVE_KEY] == "place" and self.cells[CELL_INDEX[m["cell"]]] is None
        ]
        best_plain = max(plain, default=_DEAD)
        empties = sum(1 for c in self.cells if c is None)

        def score(move: Move) -> float:
            if move[MOVE_KEY] == "place":
                cell = CELL_INDEX[move["cell"]]
                if self.cells[cell] is not None:  # Statue of the Bondmaker: the cube costs nothing
                    return 0.4
                return value(cell, move.get("resource") or named)
            if move[MOVE_KEY] == "store":
                if move.get("swap"):
                    return value(CELL_INDEX[move["to"]], move["swap"]) - 0.1
                return -0.7
            if move[MOVE_KEY] == "cave":
                return 0.3 if best_plain <= 0 and empties <= 8 else -2.0
            return -5.0

        rng = _rng(self.state, self.seat)
        best_move, best_score = moves[0], None
        for move in moves:
            total = score(move) + rng.below(1000) / 1e6
            if best_score is None or total > best_score:
                best_move, best_score = move, total
        return best_move

    # ---------------------------------------------------------- building

    def _eval(self, cells: list[Any], extra: dict[str, Any] | None = None) -> float:
        """Real score, hope for unfed Cottages, credit for useful cubes, minus used squares."""
        town = {**self.town, "cells": cells, **(extra or {})}
        towns = list(self.state["towns"])
        towns[self.seat] = town
        result = score_town({**self.state, "towns": towns}, self.seat)
        total = float(result["total"])
        fed = result["fed"]
        unfed = sum(1 for i, c in enumerate(cells) if c and c.get("building") == "cottage" and not fed >> i & 1)
        total += _UNFED_HOPE * min(unfed, 4)
        buildings = sum(1 for c in cells if c and "building" in c)
        return total - self.opportunity * buildings

    def _after_build(self, move: Move) -> list[Any]:
        cells = [dict(c) if c else None for c in self.cells]
        for name in move["cells"]:
            i = CELL_INDEX[name]
            if self.marks[i] != "*":
                cells[i] = None
        slug = move["building"]
        cells[CELL_INDEX[move["at"]]] = new_building(slug, CATALOGUE[slug]["monument"], move.get("with"))
        for cell_name, new in move.get("replace") or []:
            cells[CELL_INDEX[cell_name]] = new_building(new)
        if move.get("add"):
            cells[CELL_INDEX[move["add"][1]]] = new_building(move["add"][0])
        return cells

    def _extra(self, move: Move, cells: list[Any]) -> dict[str, Any] | None:
        slug = move["building"]
        if not CATALOGUE[slug]["monument"]:
            return None
        extra: dict[str, Any] = {"monument_built": True}
        if slug == "shrine-of-the-elder-tree":
            extra["shrine_vp"] = shrine_value(sum(1 for c in cells if c and "building" in c))
        return extra

    def _choose_after_placing(self) -> Move:
        if flow.claimable(self.town):
            return self._choose_claim()
        if self.town["done"]:
            raise IllegalMove("The bot has nothing to do now.")
        base = self._eval(self.cells)
        best: tuple[float, Move] | None = None
        kept: dict[tuple[int, str], float] = {}
        for move in self._candidates(build_moves(self.state, self.seat, guild_replacements=False)):
            cells = self._after_build(move)
            gain = self._eval(cells, self._extra(move, cells)) - base
            gain -= _KEEP * sum(self._other_use(CELL_INDEX[c], move["building"], kept) for c in move["cells"])
            if move.get("with") and move["building"] == "factory":
                gain += 0.1 if move["with"] == self._likely_spare() else 0.0
            if best is None or gain > best[0]:
                best = (gain, move)
        full = all(c is not None for c in self.cells)
        if best is not None and (best[0] > 0.0 or (full and best[0] > -1.5)):
            return best[1]
        return {MOVE_KEY: "done"}

    def _other_use(self, cell: int, slug: str, cache: dict[tuple[int, str], float]) -> float:
        """How useful a cube would stay for other building types if this build did not use it."""
        key = (cell, slug)
        if key not in cache:
            mark = self.marks[cell]
            if not mark or mark == "*":
                cache[key] = 0.0
            else:
                content = self.cells[cell]
                self.cells[cell], self.marks[cell] = None, ""
                cache[key] = max(0.0, self._cell_value(cell, RESOURCE_OF[mark], exclude=slug))
                self.cells[cell], self.marks[cell] = content, mark
        return cache[key]

    def _likely_spare(self) -> str:
        """The resource least useful to this town (a Factory should hold that one)."""
        return min(RESOURCES, key=lambda r: (self._best_cell_value(r), RESOURCES.index(r)))

    def _candidates(self, moves: list[Move]) -> list[Move]:
        """Replace the huge monument option lists by one good choice each."""
        out: list[Move] = []
        seen: set[tuple[str, ...]] = set()
        for move in moves:
            slug = move["building"]
            if slug not in ("architects-guild", "grove-university", "opaleyes-watch"):
                out.append(move)
                continue
            key = (slug, *move["cells"], move["at"])
            if key in seen:
                continue
            seen.add(key)
            if slug == "architects-guild":
                out.append(self._guild(move))
            elif slug == "grove-university":
                same = [m for m in moves if m["building"] == slug and (slug, *m["cells"], m["at"]) == key]
                out.append(max(same, key=lambda m: self._eval(self._after_build(m), {"monument_built": True})))
            else:
                ranked = sorted(self.state["buildings"], key=lambda b: -self._points(b))[:3]
                out.append({**move, "aside": [b for b in self.state["buildings"] if b in ranked]})
        return out

    def _guild(self, move: Move) -> Move:
        chosen: list[list[str]] = []
        extra = {"monument_built": True}
        current = self._eval(self._after_build(move), extra)
        limit = CATALOGUE["architects-guild"]["max_replacements"]
        for _ in range(limit):
            best: tuple[float, list[str]] | None = None
            cells = self._after_build({**move, "replace": chosen})
            used = {c for c, _ in chosen}
            for i, content in enumerate(cells):
                name = CELL_NAMES[i]
                if not content or "building" not in content or content.get("monument") or name in used:
                    continue
                for b in self.state["buildings"]:
                    if b == content["building"]:
                        continue
                    trial = {**move, "replace": sorted([*chosen, [name, b]], key=lambda x: CELL_INDEX[x[0]])}
                    value = self._eval(self._after_build(trial), extra)
                    if value > current + 0.01 and (best is None or value > best[0]):
                        best = (value, [name, b])
            if best is None:
                break
            current = best[0]
            chosen = sorted([*chosen, best[1]], key=lambda x: CELL_INDEX[x[0]])
        return {**move, "replace": chosen} if chosen else move

    def _choose_claim(self) -> Move:
        moves = [m for m in rules.legal_moves(self.state, self.seat) if m[MOVE_KEY] == "claim"]

        def value(move: Move) -> float:
            cells = [dict(c) if c else None for c in self.cells]
            cells[CELL_INDEX[move["cell"]]] = new_building(move["building"])
            return self._eval(cells)

        return max(moves, key=value)


__all__ = ["after_build_cells", "bot_move", "candidate_builds", "estimated_points", "named_resource"]
