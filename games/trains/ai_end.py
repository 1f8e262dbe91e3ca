"""Trains level 2: the end of the game, read from public information only.

The game ends at the end of the turn in which a player lays their last rail. A seat behind on
points must not end it: the points it would need are gone with the game. Scores are public (the
board and every seat's bought cards are announced, and the view shows each score), and the money
left this turn can still buy victory cards before the turn ends.
"""

from __future__ import annotations

from games.base import State
from games.trains.content import CARDS
from games.trains.scoring import rails_on_board, score

_VP_CARDS = ("skyscraper", "tower", "apartment")  # best points per coin first


def money_points(state: State, money: int) -> int:
    """Points ``money`` can still buy in victory cards from the supply this turn (dearest first)."""
    points = 0
    for slug in _VP_CARDS:
        if slug not in state["piles"]:
            continue
        left = state["supply"][slug]
        cost = CARDS[slug].cost
        while left > 0 and money >= cost:
            money -= cost
            left -= 1
            points += CARDS[slug].vp
    return points


def final_lead(state: State, seat: int) -> tuple[int, int]:
    """(points, rails) of ``seat`` over the best other seat if the game ended with this turn, the
    money left spent on victory cards."""
    mine = score(state, seat) + money_points(state, state["turn"]["money"])
    others = [s for s, p in enumerate(state["players"]) if s != seat and not p["resigned"]]
    if not others:
        return (mine, 0)
    best = max(others, key=lambda s: (score(state, s), rails_on_board(state, s)))
    return (mine - score(state, best), rails_on_board(state, seat) - rails_on_board(state, best))


def ends_behind(before: State, after: State, seat: int) -> bool:
    """True when a move lays the seat's last rail (so the game ends with this turn) and the seat
    would then not win."""
    if before["players"][seat]["rails_left"] == 0 or after["players"][seat]["rails_left"] > 0:
        return False
    return final_lead(after, seat) <= (0, 0)
