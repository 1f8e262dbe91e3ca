"""Trains level 2: what to buy while the end is far (level 1's plan, with level 2's changes).

Level 1's wish list (money, rails, stations, draw) with level 2's changes: it buys station cards
only while a city exists where a station gains over the other seats (ai_play.py places them only
there), and its thresholds for rail and station cards are its own (tuned on seeded games).
"""

from __future__ import annotations

from games.base import MOVE_KEY, Move, State
from games.trains import ai_play, board
from games.trains.content import CARDS

_RAIL_BASE = 2  # rail cards wanted: _RAIL_BASE + deck size // _RAIL_DIV
_RAIL_DIV = 6
_STATION_BASE = 1  # station cards wanted: _STATION_BASE + deck size // _STATION_DIV
_STATION_DIV = 9
_DRAW_FIRST = True  # Timetable / Night Train before Express Train in the fallback list
_RAILS_FIRST = False  # rail cards (while wanted) before money cards
_LATE_RAILS = 6  # rails left at which the end counts as near


def wish_list(state: State, seat: int, money: int) -> list[str]:
    """Level 2's buying plan, best first."""
    player = state["players"][seat]
    cards = [c for z in ("deck", "hand", "discard", "play", "gained") for c in player[z]]
    total = len(cards)
    rail_cards = sum(1 for c in cards if CARDS[c].type == "rail")
    station_cards = sum(1 for c in cards if CARDS[c].type == "station")
    empty = sum(1 for s in state["piles"] if state["supply"][s] == 0)
    late = player["rails_left"] <= _LATE_RAILS or empty >= 2 or state["stations_left"] <= 8
    money_cards = [CARDS[c].money for c in cards if CARDS[c].type == "train"]
    density = sum(money_cards) / max(1, total)
    rails_wanted = rail_cards < _RAIL_BASE + total // _RAIL_DIV and player["rails_left"] > rail_cards + 2
    wish: list[str] = []
    rails = [
        "double-track",
        "tunnel" if state["map"] == "osaka" else "track-crew",
        "steel-bridge",
        "track-crew",
        "lay-rails",
    ]
    if late:
        wish += ["skyscraper", "rail-magnate", "tower"]
    if rails_wanted and _RAILS_FIRST:
        wish += rails
    if money >= 6 and not late:
        wish += ["limited-express-train", "double-track"]
    if density < 1.1 and not late:
        wish += ["early-train", "express-train"] if money < 6 else []
    if rails_wanted:
        wish += rails
    if station_cards < _STATION_BASE + total // _STATION_DIV and _has_station_use(state, seat):
        wish += ["urban-planning", "station-expansion"]
    if _DRAW_FIRST:
        wish += ["timetable", "night-train", "tourist-train", "express-train"]
    else:
        wish += ["express-train", "timetable", "night-train", "tourist-train"]
    if late:
        wish += ["apartment"]
    return wish


def build_buy(state: State, seat: int) -> Move | None:
    money = state["turn"]["money"]
    if money < 2:
        return None
    early = state["turn"]["early"]
    for slug in wish_list(state, seat, money):
        if slug in state["piles"] and state["supply"][slug] > 0 and CARDS[slug].cost <= money:
            return {MOVE_KEY: "buy", "card": slug, "top": early and CARDS[slug].type != "victory"}
    return None


def _has_station_use(state: State, seat: int) -> bool:
    return any(ai_play.station_value(state, seat, h) > 0 for h in board.station_hexes(state))
