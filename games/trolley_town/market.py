"""The building market: basic piles, the Rebuild tile, the V piles, and the A/B row.

Layout (reference, "The building market"): ``row`` holds 6 slots; ``marker`` A slots sit left
of the round marker, the rest are B slots. Building from the row slides that side toward the
marker and refills the outer end from that side's draw pile; the tops of the A and B draw piles
and of both V piles can be built too. Piles are lists, top first. Only tops are ever shown.
"""

from __future__ import annotations

from typing import Any

from games.rng import Rng
from games.trolley_town.content import RULES, SPECIALS, TILES

Market = dict[str, Any]


def new_market(players: int, rng: Rng, first_game: bool, solo_basics: list[str]) -> Market:
    def shuffled(pile: str) -> list[str]:
        order = rng.shuffled(list(SPECIALS[pile]))
        if first_game:  # starred tiles go to the bottom (rulebook, first game)
            order = [s for s in order if not TILES[s].star] + [s for s in order if TILES[s].star]
        return order

    b_pile = shuffled("B")
    a_pile = shuffled("A")
    v_all = rng.shuffled(list(SPECIALS["V"]))
    size = len(v_all) // RULES.v_piles
    v_piles = [v_all[i * size : (i + 1) * size] for i in range(RULES.v_piles)]
    row: list[str | None] = []
    for _ in range(RULES.row_slots):
        row.append(b_pile.pop(0) if b_pile else None)
    if players == 1:
        basic = [{"tile": slug, "left": 1, "up": True} for slug in solo_basics]
    else:
        basic = [{"tile": slug, "left": count, "up": True} for slug, count in RULES.basic_piles]
    return {
        "basic": basic,
        "rebuild": {"up": True} if players >= RULES.rebuild_players else None,
        "v": v_piles,
        "a": a_pile,
        "b": b_pile,
        "row": row,
        "marker": 0,
    }


def visible(market: Market) -> list[tuple[str, str]]:
    """(place, slug) of every face-up special tile: row slots, pile tops, V tops."""
    found: list[tuple[str, str]] = []
    for index, slug in enumerate(market["row"]):
        if slug:
            found.append((f"row{index}", slug))
    for pile in ("a", "b"):
        if market[pile]:
            found.append((pile, market[pile][0]))
    for index, pile in enumerate(market["v"]):
        if pile:
            found.append((f"v{index}", pile[0]))
    return found


def buildable(market: Market) -> dict[str, str]:
    """slug -> where it is, for every building that can be built now (face-up basics too)."""
    found: dict[str, str] = {}
    for index, pile in enumerate(market["basic"]):
        if pile["up"] and pile["left"] > 0:
            found.setdefault(pile["tile"], f"basic{index}")
    for place, slug in visible(market):
        found.setdefault(slug, place)
    return found


def rebuild_targets(market: Market) -> dict[str, str]:
    """Face-down basic buildings the Rebuild tile can turn up (when it is face up itself)."""
    rebuild = market.get("rebuild")
    if not rebuild or not rebuild["up"]:
        return {}
    found: dict[str, str] = {}
    for index, pile in enumerate(market["basic"]):
        if not pile["up"] and pile["left"] > 0:
            found.setdefault(pile["tile"], f"basic{index}")
    return found


def take(market: Market, place: str) -> bool:
    """Remove the tile at ``place`` and close the gap. True if a hidden tile was revealed
    (a new special tile turned up from a shuffled pile: no undo across that)."""
    if place.startswith("basic"):
        pile = market["basic"][int(place[5:])]
        pile["left"] -= 1
        pile["up"] = False  # the next one stays face down until the next round
        return False
    if place in ("a", "b"):
        market[place].pop(0)
        return bool(market[place])
    if place.startswith("v"):
        pile = market["v"][int(place[1:])]
        pile.pop(0)
        return bool(pile)
    index = int(place[3:])
    row = market["row"]
    marker = market["marker"]
    if index < marker:  # an A slot: slide the A side right, refill slot 0 from the A pile
        for i in range(index, 0, -1):
            row[i] = row[i - 1]
        row[0] = market["a"].pop(0) if market["a"] else None
    else:  # a B slot: slide the B side left, refill the last slot from the B pile
        for i in range(index, len(row) - 1):
            row[i] = row[i + 1]
        row[-1] = market["b"].pop(0) if market["b"] else None
    return True


def next_round(market: Market) -> bool:
    """Between rounds: the marker moves one slot right; the B tile it jumps goes under the B
    pile and the top A tile takes its slot. Face-down basic tops and the Rebuild tile turn up.
    True if a hidden tile was revealed."""
    row = market["row"]
    marker = market["marker"]
    revealed = False
    if marker < len(row):
        jumped = row[marker]
        if jumped:
            market["b"].append(jumped)
        row[marker] = market["a"].pop(0) if market["a"] else None
        market["marker"] = marker + 1
        revealed = True
    for pile in market["basic"]:
        if pile["left"] > 0:
            pile["up"] = True
    if market.get("rebuild"):
        market["rebuild"]["up"] = True
    return revealed


def describe_place(place: str) -> str:
    if place.startswith("row"):
        return f"market slot {int(place[3:]) + 1}"
    return {"a": "the A pile", "b": "the B pile"}.get(place, "the V pile" if place.startswith("v") else "basic pile")
