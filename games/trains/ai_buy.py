"""Trains level 2: what to buy while the end is far (level 1's plan, with level 2's changes).

Level 1's wish list (money, rails, stations, draw) with one change: level 2 places stations only
where they gain over the other seats (ai_play.py), so it buys station cards only while such a city
exists; otherwise the money goes to the rest of the list.
"""

from __future__ import annotations

from games.base import MOVE_KEY, Move, State
from games.trains import ai_play, board
from games.trains.content import CARDS
from games.trains.deck import all_cards

_RAIL_BASE = 2  # rail cards wanted: this many plus one per six cards (as level 1; 1 tested no better)


def build_buy(state: State, seat: int) -> Move | None:
    money = state["turn"]["money"]
    if money < 2:
        return None
    player = state["players"][seat]
    cards = all_cards(player)
    total = len(cards)
    rail_cards = sum(1 for c in cards if CARDS[c].type == "rail")
    station_cards = sum(1 for c in cards if CARDS[c].type == "station")
    empty = sum(1 for s in state["piles"] if state["supply"][s] == 0)
    late = player["rails_left"] <= 6 or empty >= 2 or state["stations_left"] <= 8
    money_cards = [CARDS[c].money for c in cards if CARDS[c].type == "train"]
    density = sum(money_cards) / max(1, total)
    rails_wanted = rail_cards < _RAIL_BASE + total // 6 and player["rails_left"] > rail_cards + 2
    wish: list[str] = []
    if late:
        wish += ["skyscraper", "rail-magnate", "tower"]
    if money >= 6 and not late:
        wish += ["limited-express-train", "double-track"]
    if density < 1.1 and not late:
        wish += ["early-train", "express-train"] if money < 6 else []
    if rails_wanted:
        wish += [
            "double-track",
            "tunnel" if state["map"] == "osaka" else "track-crew",
            "steel-bridge",
            "track-crew",
            "lay-rails",
        ]
    if station_cards < 1 + total // 9 and _has_station_use(state, seat):
        wish += ["urban-planning", "station-expansion"]
    wish += ["timetable", "night-train", "tourist-train", "express-train"]
    if late:
        wish += ["apartment"]
    early = state["turn"]["early"]
    for slug in wish:
        if slug in state["piles"] and state["supply"][slug] > 0 and CARDS[slug].cost <= money:
            return {MOVE_KEY: "buy", "card": slug, "top": early and CARDS[slug].type != "victory"}
    return None


def _has_station_use(state: State, seat: int) -> bool:
    return any(ai_play.station_value(state, seat, h) > 0 for h in board.station_hexes(state))
