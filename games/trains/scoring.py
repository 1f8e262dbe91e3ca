"""Scoring and standings: cities by stations, remote locations, VP cards, track VP.

Ties on points go to the player with more rails on the board; a further tie is shared.
Resigned players rank after everyone still playing.
"""

from __future__ import annotations

from itertools import chain

from games.base import PlayStats, Standing, State
from games.trains.board import own_rails
from games.trains.content import CARDS, MAPS, RULES
from games.trains.deck import ZONES, all_cards


def rails_on_board(state: State, seat: int) -> int:
    return len(own_rails(state["rails"], seat))


def breakdown(state: State, seat: int) -> dict[str, int]:
    gmap = MAPS[state["map"]]
    bonus = RULES["station_bonus"]
    stations = state["stations"]
    own = own_rails(state["rails"], seat)  # the seat's hexes (kept per rails dict, board.py)
    cities = remotes = 0
    for h in own:
        if h in gmap.cities:
            cities += bonus[min(stations.get(h, 0), len(bonus) - 1)]
        elif h in gmap.remotes:
            remotes += gmap.remotes[h].value
    rails = len(own)
    cards = 0
    player = state["players"][seat]
    # Only cards worth points are looked at (most of a deck is worth none), picked out by C code.
    for slug in filter(_SCORING.__contains__, chain(*map(player.__getitem__, ZONES))):
        card = CARDS[slug]
        cards += card.vp + (rails // card.vp_per_rails if card.vp_per_rails else 0)
    return {
        "cities": cities,
        "remote locations": remotes,
        "VP cards": cards,
        "track VP": player["track_vp"],
    }


# The cards that score: victory points or points per rails on the board.
_SCORING = frozenset(slug for slug, card in CARDS.items() if card.vp or card.vp_per_rails)


def score(state: State, seat: int) -> int:
    return sum(breakdown(state, seat).values())


def standings(state: State) -> list[Standing]:
    rows = []
    for seat, name in enumerate(state["names"]):
        parts = breakdown(state, seat)
        rows.append(
            {
                "seat": seat,
                "player": name,
                "score": sum(parts.values()),
                "rails": rails_on_board(state, seat),
                "resigned": state["players"][seat]["resigned"],
                "breakdown": parts,
            }
        )
    rows.sort(key=lambda r: (r["resigned"], -r["score"], -r["rails"], r["seat"]))
    result: list[Standing] = []
    for i, row in enumerate(rows):
        prev = rows[i - 1] if i else None
        if prev is not None and (prev["resigned"], prev["score"], prev["rails"]) == (
            row["resigned"],
            row["score"],
            row["rails"],
        ):
            rank = result[-1]["rank"]
        else:
            rank = i + 1
        # Only the platform's Standing keys: the rails tie-break shows in the rank order and on
        # the board (rails per player), and every game's standings line must look the same.
        entry: Standing = {
            "seat": row["seat"],
            "player": row["player"],
            "score": row["score"],
            "rank": rank,
            "breakdown": row["breakdown"],
        }
        if row["resigned"]:
            entry["title"] = "kicked" if state["players"][row["seat"]].get("kicked") else "resigned"
        result.append(entry)
    if state["phase"] == "over" and result and not rows[0]["resigned"]:
        winners = [e for e in result if e["rank"] == 1]
        for e in winners:
            e["title"] = "shared win" if len(winners) > 1 else "winner"
    return result


def stats(state: State) -> PlayStats:
    """Cards each player bought: what they own at the end beyond the starting deck (Waste is never bought)."""
    start: dict[str, int] = RULES["starting_deck"]
    counts: list[dict[str, int]] = []
    for seat in range(len(state["names"])):
        owned: dict[str, int] = {}
        for card in all_cards(state["players"][seat]):
            if card != "waste":
                owned[card] = owned.get(card, 0) + 1
        bought = {card: n - start.get(card, 0) for card, n in owned.items() if n > start.get(card, 0)}
        counts.append(bought)
    return {"map": str(state["map"]), "counted": "cards bought", "counts": counts}
