"""The effect vocabulary, implemented once: every tile's effects are data run through here.

Functions mutate the town they are given (rules.py hands them a private copy) and return the
public lines describing what happened. Victory points go to ``town["vp"]`` and, by timing, to
``town["scored"]`` (the standings breakdown).
"""

from __future__ import annotations

from typing import Any

from games.trolley_town.content import RESOURCES, Effect, Tile
from games.trolley_town.town import (
    Cell,
    Key,
    Town,
    add_piece,
    around_buildings,
    buildings,
    connected_buildings,
    pieces,
    surroundings,
    take_piece,
    tile_of,
)

# A processing tile converts at most this many times in one processing step: far above anything
# spaces allow, it only guards against a data mistake looping forever.
MAX_CONVERSIONS = 200


def count(town: Town, key: Key, per: dict[str, Any]) -> int:
    """The value of a ``per`` counter for the tile at ``key``."""
    cells = town["cells"]
    kind = per["count"]
    if kind == "here":
        return int(cells[key].get("r", {}).get(per["resource"], 0))
    if kind == "surrounding_tiles":
        return sum(1 for other in surroundings(key) if other in cells)
    if kind == "connected_buildings":
        return len(connected_buildings(cells, key))
    around = [tile_of(cell) for cell in around_buildings(cells, key)]
    if kind == "surrounding_buildings":
        return len(around)
    if kind == "surrounding_buildings_with":
        return sum(1 for tile in around if per["resource"] in tile.drawn)
    if kind == "surrounding_processors":
        return sum(1 for tile in around if tile.processes)
    if kind == "surrounding_distinct_resources":
        drawn: set[str] = set()
        for tile in around:
            drawn |= tile.drawn
        return len(drawn)
    raise ValueError(f"unknown counter {kind}")


def score(town: Town, points: int, timing: str) -> None:
    if points:
        town["vp"] += points
        town["scored"][timing] = town["scored"].get(timing, 0) + points


def _room(cell: Cell, tile: Tile) -> int:
    return max(0, tile.spaces - pieces(cell))


def gain_amount(town: Town, key: Key, effect: Effect) -> int:
    """How many pieces a gain effect puts on its tile now (never beyond the empty spaces)."""
    cell = town["cells"][key]
    tile = tile_of(cell)
    amount = effect.get("amount")
    if amount == "fill":
        return _room(cell, tile)
    wanted = int(amount) * (count(town, key, effect.get("per")) if effect.get("per") else 1)
    return min(wanted, _room(cell, tile))


def choice_options(effect: Effect) -> list[str]:
    options = list(effect.get("options", ()))
    return list(RESOURCES) if options == ["any"] else options


def run_effect(town: Town, key: Key, index: int, effect: Effect, timing: str, name: str, lines: list[str]) -> None:
    """One gain or score effect of the tile at ``key`` (a choice is queued for its player)."""
    cell = town["cells"][key]
    tile = tile_of(cell)
    if effect.do == "gain":
        amount = gain_amount(town, key, effect)
        if amount <= 0:
            return
        if effect.get("resource") == "choice":
            town["pending"].append(
                {
                    "cell": key,
                    "tile": tile.slug,
                    "amount": amount,
                    "options": choice_options(effect),
                    "different": bool(effect.get("different")),
                }
            )
            lines.append(f"{name}'s {tile.name} at {key}: {amount} to choose.")
            return
        add_piece(cell, effect.get("resource"), amount)
        lines.append(f"{name}'s {tile.name} at {key}: +{amount} {effect.get('resource')}.")
    elif effect.do == "score":
        points = effect_points(town, key, effect)
        if points:
            score(town, points, timing)
            lines.append(f"{name}'s {tile.name} at {key}: +{points} VP.")


def effect_points(town: Town, key: Key, effect: Effect) -> int:
    per = effect.get("per")
    if not per:
        return int(effect.get("vp"))
    value = count(town, key, per)
    points = int(effect.get("vp")) * value
    bonus = effect.get("bonus")
    if bonus and value >= bonus["at"]:
        points += int(bonus["vp"])
    return points


def produce(town: Town, name: str) -> list[str]:
    """The production phase for one town: every tile's production effects once, in build order.

    ``trigger`` runs the production gains and scores of the surrounding buildings again, except
    those that make wood or stone; triggered effects do not trigger further.
    """
    lines: list[str] = []
    for key, cell in list(buildings(town["cells"])):
        tile = tile_of(cell)
        for index, effect in enumerate(tile.effects):
            if effect.when != "production":
                continue
            if effect.do == "trigger":
                _trigger(town, key, name, lines)
            else:
                run_effect(town, key, index, effect, "production", name, lines)
    return lines


def _trigger(town: Town, key: Key, name: str, lines: list[str]) -> None:
    cells = town["cells"]
    for other in surroundings(key):
        cell = cells.get(other)
        if cell is None or "t" not in cell:
            continue
        tile = tile_of(cell)
        if tile.makes_wood_or_stone:
            continue
        for index, effect in enumerate(tile.effects):
            if effect.when == "production" and effect.do in ("gain", "score"):
                run_effect(town, other, index, effect, "production", name, lines)


def immediate(town: Town, key: Key, name: str) -> list[str]:
    lines: list[str] = []
    tile = tile_of(town["cells"][key])
    for index, effect in enumerate(tile.effects):
        if effect.when == "immediate":
            run_effect(town, key, index, effect, "immediate", name, lines)
    return lines


def on_construction(town: Town, built: Key, name: str) -> list[str]:
    """Construction-timed effects of the town's other buildings when a building goes up at ``built``."""
    lines: list[str] = []
    near = set(surroundings(built))
    for key, cell in list(buildings(town["cells"])):
        if key == built:
            continue
        for index, effect in enumerate(tile_of(cell).effects):
            if effect.when != "construction" or effect.do not in ("gain", "score"):
                continue
            if effect.get("where") == "surrounding" and key not in near:
                continue
            run_effect(town, key, index, effect, "construction", name, lines)
    return lines


def discount(town: Town, key: Key) -> int:
    """Pieces off the cost of a building placed at ``key`` (before the never-zero floor)."""
    total = 0
    for cell in around_buildings(town["cells"], key):
        for effect in tile_of(cell).effects:
            if effect.do == "discount":
                total += int(effect.get("amount"))
    return total


def pull_allowances(town: Town) -> dict[Key, int]:
    """Transport start: pieces each ``pull`` tile may take from any tile without a route."""
    found: dict[Key, int] = {}
    for key, cell in buildings(town["cells"]):
        for effect in tile_of(cell).effects:
            if effect.do == "pull":
                found[key] = found.get(key, 0) + int(effect.get("amount"))
    return found


def _pay(held: dict[str, int], need: dict[str, int]) -> dict[str, int] | None:
    """Which pieces pay ``need`` from ``held``: named resources first, then "any" and
    "any_different" from the most plentiful pieces left (ties in resource order)."""
    left = dict(held)
    paid: dict[str, int] = {}
    for resource, amount in need.items():
        if resource in RESOURCES:
            if left.get(resource, 0) < amount:
                return None
            left[resource] -= amount
            paid[resource] = paid.get(resource, 0) + amount
    plenty = sorted(RESOURCES, key=lambda r: (-left.get(r, 0), RESOURCES.index(r)))
    if "any_different" in need:
        kinds = [r for r in plenty if left.get(r, 0) > 0][: need["any_different"]]
        if len(kinds) < need["any_different"]:
            return None
        for resource in kinds:
            left[resource] -= 1
            paid[resource] = paid.get(resource, 0) + 1
    for _ in range(need.get("any", 0)):
        resource = max(RESOURCES, key=lambda r: (left.get(r, 0), -RESOURCES.index(r)))
        if left.get(resource, 0) <= 0:
            return None
        left[resource] -= 1
        paid[resource] = paid.get(resource, 0) + 1
    return paid


def _convert_once(town: Town, key: Key, effect: Effect, timing: str) -> int | None:
    """Fire one conversion; returns the VP it scored (None if it cannot fire)."""
    cell = town["cells"][key]
    tile = tile_of(cell)
    paid = _pay(cell.get("r", {}), effect.get("from"))
    if paid is None:
        return None
    out = effect.get("to")
    goods = sum(v for k, v in out.items() if k != "vp")
    if pieces(cell) - sum(paid.values()) + goods > tile.spaces:
        return None
    for resource, amount in paid.items():
        take_piece(cell, resource, amount)
    for resource, amount in out.items():
        if resource != "vp":
            add_piece(cell, resource, amount)
    points = int(out.get("vp", 0))
    score(town, points, timing)
    return points


def _neighbour_bonus(town: Town, key: Key) -> int:
    bonus = 0
    for cell in around_buildings(town["cells"], key):
        for effect in tile_of(cell).effects:
            if effect.do == "neighbour_bonus":
                bonus += int(effect.get("vp"))
    return bonus


def convert_all(town: Town, timing: str, name: str) -> list[str]:
    """Every ``timing`` conversion as many times as possible, in build order, repeated until
    nothing more fires (a tile's output can feed its own second conversion)."""
    lines: list[str] = []
    totals: dict[Key, list[int]] = {}
    changed = True
    rounds = 0
    while changed and rounds < MAX_CONVERSIONS:
        changed = False
        rounds += 1
        for key, cell in list(buildings(town["cells"])):
            for effect in tile_of(cell).effects:
                if effect.when != timing or effect.do != "convert":
                    continue
                fired = 0
                while fired < MAX_CONVERSIONS:
                    points = _convert_once(town, key, effect, timing)
                    if points is None:
                        break
                    fired += 1
                    changed = True
                    # Only on-processing effects earn the neighbour bonus (rulebook icon reference),
                    # not game-end conversions.
                    bonus = _neighbour_bonus(town, key) if points and timing == "processing" else 0
                    score(town, bonus, timing)
                    entry = totals.setdefault(key, [0, 0])
                    entry[0] += 1
                    entry[1] += points + bonus
    for key, (times, points) in sorted(totals.items(), key=lambda item: town["cells"][item[0]]["n"]):
        tile = tile_of(town["cells"][key])
        what = f", +{points} VP" if points else ""
        lines.append(f"{name}'s {tile.name} at {key} converts {times}×{what}.")
    return lines


def game_end(town: Town, name: str) -> list[str]:
    """Game-end effects: conversions as many times as possible, then scores."""
    lines = convert_all(town, "end", name)
    for key, cell in list(buildings(town["cells"])):
        tile = tile_of(cell)
        for effect in tile.effects:
            if effect.when == "end" and effect.do == "score":
                points = effect_points(town, key, effect)
                if points:
                    score(town, points, "end")
                    lines.append(f"{name}'s {tile.name} at {key}: +{points} VP at game end.")
    return lines


def describe(tile: Tile) -> str:
    """Short effect text for images and help ("Processing: wheat + coal -> 6 VP")."""
    return "; ".join(describe_effect(e) for e in tile.effects) or "See the market rules"


TIMING_WORDS = {
    "immediate": "When built",
    "production": "Production",
    "construction": "On construction",
    "transport": "Transport start",
    "processing": "Processing",
    "end": "Game end",
}
COUNTER_WORDS = {
    "surrounding_tiles": "surrounding tile",
    "surrounding_buildings": "surrounding building",
    "surrounding_processors": "surrounding processing building",
    "surrounding_distinct_resources": "different resource drawn around",
    "connected_buildings": "building connected by route",
}


def _counter_words(per: dict[str, Any]) -> str:
    kind = per["count"]
    if kind == "here":
        return f"{per['resource']} here"
    if kind == "surrounding_buildings_with":
        return f"surrounding building with {per['resource']}"
    return COUNTER_WORDS[kind]


def _goods(amounts: dict[str, int]) -> str:
    parts = []
    for key, value in amounts.items():
        word = {"vp": "VP", "any": "any", "any_different": "different"}.get(key, key)
        parts.append(f"{value} {word}" if value > 1 or key == "vp" else word)
    return " + ".join(parts)


def describe_effect(effect: Effect) -> str:
    when = TIMING_WORDS[effect.when]
    where = {"surrounding": " (building around)", "town": " (any building)"}.get(effect.get("where"), "")
    per = effect.get("per")
    per_text = f" per {_counter_words(per)}" if per else ""
    if effect.do == "gain":
        amount = effect.get("amount")
        if effect.get("resource") == "choice":
            options = effect.get("options")
            what = "any different" if effect.get("different") else ("any" if options == ["any"] else "/".join(options))
        else:
            what = effect.get("resource")
        count_text = "fill with" if amount == "fill" else f"+{amount}"
        return f"{when}{where}: {count_text} {what}{per_text}"
    if effect.do == "convert":
        return f"{when}: {_goods(effect.get('from'))} -> {_goods(effect.get('to'))}"
    if effect.do == "score":
        bonus = effect.get("bonus")
        extra = f", +{bonus['vp']} at {bonus['at']}" if bonus else ""
        return f"{when}{where}: {effect.get('vp')} VP{per_text}{extra}"
    if effect.do == "pull":
        return f"{when}: move {effect.get('amount')} here from any tile"
    if effect.do == "trigger":
        return f"{when}: surrounding buildings produce again (not wood/stone)"
    if effect.do == "neighbour_bonus":
        return f"{when}: +{effect.get('vp')} VP each time a surrounding building scores"
    return f"{when}: buildings around cost {effect.get('amount')} wood/stone less (never 0)"
