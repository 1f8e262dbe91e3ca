"""Trains level 2: what to buy while the end is far (level 1's plan, with level 2's changes).

Level 1's wish list (money, rails, stations, draw) with one change: level 2 places stations only
where they gain over the other seats (ai_play.py), so it buys station cards only while such a city
exists; otherwise the money goes to the rest of the list.
"""

from __future__ import annotations

from games.base import MOVE_KEY, Move, State
from games.trains import ai_play, board
from games.trains.ai import wish_list
from games.trains.content import CARDS


def build_buy(state: State, seat: int) -> Move | None:
    money = state["turn"]["money"]
    if money < 2:
        return None
    early = state["turn"]["early"]
    for slug in wish_list(state, seat, money, lambda: _has_station_use(state, seat)):
        if slug in state["piles"] and state["supply"][slug] > 0 and CARDS[slug].cost <= money:
            return {MOVE_KEY: "buy", "card": slug, "top": early and CARDS[slug].type != "victory"}
    return None


def _has_station_use(state: State, seat: int) -> bool:
    return any(ai_play.station_value(state, seat, h) > 0 for h in board.station_hexes(state))
