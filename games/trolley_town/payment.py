"""Paying for buildings and routes with wood and stone taken from any of your tiles.

A cost is some wood and some stone (``fixed``), plus ``flex`` pieces of either (routes: 1 wood
or 1 stone each), minus ``discount`` pieces of the fixed part taken off by neighbouring discount
tiles (one wood or one stone each; a building never becomes free). The player may say which
pieces pay (``pay wood 0,0 stone 1,0``); otherwise the engine picks.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from games.base import IllegalMove
from games.trolley_town import effects
from games.trolley_town.content import BUILD_RESOURCES, RULES, TILES
from games.trolley_town.town import Town, holdings, tile_of


@dataclass(frozen=True)
class Need:
    wood: int
    stone: int
    flex: int = 0
    discount: int = 0

    def splits(self) -> list[tuple[int, int]]:
        """Every (wood, stone) payment that settles this cost."""
        return list(_splits(self))

    def _all_splits(self) -> tuple[tuple[int, int], ...]:
        found = set()
        for off_wood in range(min(self.wood, self.discount) + 1):
            off_stone = self.discount - off_wood
            if off_stone > self.stone:
                continue
            for flex_wood in range(self.flex + 1):
                found.add((self.wood - off_wood + flex_wood, self.stone - off_stone + self.flex - flex_wood))
        return tuple(sorted(found))

    def affordable(self, wood: int, stone: int) -> bool:
        return any(w <= wood and s <= stone for w, s in self.splits())

    def text(self) -> str:
        parts = [f"{n} {r}" for r, n in (("wood", self.wood), ("stone", self.stone)) if n]
        if self.flex:
            parts.append(f"{self.flex} wood/stone")
        text = " + ".join(parts) or "nothing"
        return f"{text}, {self.discount} off" if self.discount else text


@lru_cache(maxsize=1024)
def _splits(need: Need) -> tuple[tuple[int, int], ...]:
    return need._all_splits()


def building_need(town: Town, slug: str, key: str, rebuild: bool) -> Need:
    return discounted_need(slug, effects.discount(town, key), rebuild)


@lru_cache(maxsize=1024)
def discounted_need(slug: str, discount: int, rebuild: bool) -> Need:
    """The cost of ``slug`` on a cell whose neighbours take ``discount`` pieces off."""
    tile = TILES[slug]
    wood, stone = tile.cost.get("wood", 0), tile.cost.get("stone", 0)
    off = min(discount, max(0, wood + stone - 1))
    if rebuild:
        extra = TILES["rebuild"].cost
        wood += extra.get("wood", 0)
        stone += extra.get("stone", 0)
    return Need(wood, stone, 0, off)


def route_need(pieces: int) -> Need:
    return Need(0, 0, pieces, 0)


def _producers_first(town: Town, resource: str) -> list[str]:
    """Where to take ``resource`` from by default: tiles that make it (they refill next
    production), then the tiles holding most of it, then build order."""
    cells = town["cells"]
    holders = [k for k, c in cells.items() if c.get("r", {}).get(resource, 0) > 0]

    def rank(key: str) -> tuple[int, int, int]:
        cell = cells[key]
        tile = tile_of(cell)
        makes = any(
            e.when == "production" and e.do == "gain" and resource in effects.choice_options(e)
            if e.get("resource") == "choice"
            else e.when == "production" and e.do == "gain" and e.get("resource") == resource
            for e in tile.effects
        )
        return (0 if makes else 1, -cell["r"][resource], cell["n"])

    return sorted(holders, key=rank)


def default_payment(town: Town, need: Need) -> list[tuple[str, str]]:
    """Pick the split that keeps wood and stone most even, then the pieces, producers first."""
    held = holdings(town)
    wood, stone = held.get("wood", 0), held.get("stone", 0)
    options = [(w, s) for w, s in need.splits() if w <= wood and s <= stone]
    if not options:
        raise IllegalMove(f"That costs {need.text()}; you have {wood} wood and {stone} stone on your tiles.")
    pay_wood, pay_stone = min(options, key=lambda ws: (abs((wood - ws[0]) - (stone - ws[1])), -ws[0]))
    pieces: list[tuple[str, str]] = []
    for resource, amount in (("wood", pay_wood), ("stone", pay_stone)):
        left = amount
        for key in _producers_first(town, resource):
            take = min(left, town["cells"][key]["r"][resource])
            pieces += [(resource, key)] * take
            left -= take
            if not left:
                break
    return pieces


def check_payment(town: Town, need: Need, given: Any) -> list[tuple[str, str]]:
    if not isinstance(given, list) or not all(isinstance(p, list) and len(p) == 2 for p in given):
        raise IllegalMove("Payment is a list of resource x,y pairs.")
    pieces = [(str(r), str(k)) for r, k in given]
    wood = sum(1 for r, _ in pieces if r == "wood")
    stone = sum(1 for r, _ in pieces if r == "stone")
    if any(r not in BUILD_RESOURCES for r, _ in pieces):
        raise IllegalMove("Pay with wood and stone only.")
    if (wood, stone) not in need.splits():
        ways = " or ".join(f"{w} wood + {s} stone" for w, s in need.splits())
        raise IllegalMove(f"That payment ({wood} wood + {stone} stone) does not match the cost: pay {ways}.")
    counts: dict[tuple[str, str], int] = {}
    for piece in pieces:
        counts[piece] = counts.get(piece, 0) + 1
    for (resource, key), amount in counts.items():
        cell = town["cells"].get(key)
        if cell is None or cell.get("r", {}).get(resource, 0) < amount:
            raise IllegalMove(f"There are not {amount} {resource} on your tile at {key}.")
    return pieces


__all__ = ["RULES", "Need", "building_need", "check_payment", "default_payment", "discounted_need", "route_need"]
