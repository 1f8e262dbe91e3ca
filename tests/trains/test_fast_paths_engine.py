"""The second round of engine fast paths against their plain definitions, on real seeded states.

``board.open_rails`` (the frontier's terrain costs memoised per rails and waivers),
``deck.draw`` (written out for the full-deck and one-reshuffle cases) and the buy listing that
skips the piles below the cheapest pile card each give exactly what the rule they shortcut gives.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from games import cards
from games.base import MOVE_KEY, State
from games.rng import Rng
from games.trains import GAME, board, deck, movegen
from games.trains.content import CARDS, KINGDOM, RULES
from games.trains.copying import clone


def _played_states(map_name: str, players: int, seeds: range) -> list[State]:
    """Every play-phase state of seeded random games (another kingdom per seed)."""
    out = []
    for seed in seeds:
        state = GAME.setup([f"p{i}" for i in range(players)], {"map": map_name}, seed)
        picker = Rng(seed + 202)
        while not GAME.status(state).finished:
            seat = GAME.status(state).to_act[0]
            if state["phase"] == "play":
                out.append(state)
            state, _ = GAME.apply(state, seat, picker.choice(GAME.legal_moves(state, seat)))
    return out


@pytest.fixture(scope="module")
def states() -> list[State]:
    return _played_states("tokyo", 4, range(2)) + _played_states("osaka", 3, range(2, 4))


WAIVERS = [(), ("river",), ("mountain",), ("city",), ("remote",), ("rails",), ("river", "mountain")]


def test_open_rails_are_the_affordable_frontier_hexes(states: list[State]) -> None:
    board._OPEN.clear()  # no answer from an earlier test: every key is worked out here first
    checked = 0
    for state in states[::3]:
        for seat in range(len(state["players"])):
            hexes = board.frontier(state, seat)
            for money, discount, turn_waive in itertools.product((-1, 0, 1, 2, 3, 5), (0, 1), ([], ["city"])):
                trial = dict(state, turn=dict(state["turn"], money=money, discount=discount, waive=turn_waive))
                for waive in WAIVERS:
                    plain = board.affordable_rails(trial, seat, hexes, waive)
                    # rail_cost is what lay_rail charges: the listed hexes are those it lets through.
                    if money >= 0:
                        assert plain == [h for h in hexes if board.rail_cost(trial, seat, h, waive) <= money]
                    # Twice: worked out, then read from the memo.
                    assert board.open_rails(trial, seat, waive) == plain
                    assert board.open_rails(trial, seat, waive) == plain
                    checked += len(plain)
    assert checked > 5000


def test_open_rails_see_other_seats_rails_and_stations_laid_after_the_memo(tr: Any) -> None:
    city = board.place_hex(tr.new_game(), "shinjuku")
    start = tr.neighbour_of("tokyo", city)
    state = tr.scenario(["lay-rails"], rails={start: [0]}, money=1)
    board._OPEN.clear()
    assert city in board.open_rails(state, 0)
    # The seat's own rails are the same; another seat's rail and a station raise the city's cost.
    for changed in (dict(state, rails={start: [0], city: [1]}), dict(state, stations={city: 1})):
        assert city not in board.open_rails(changed, 0)
        assert board.open_rails(changed, 0) == board.affordable_rails(changed, 0, board.frontier(changed, 0))


def _zones(player: dict[str, Any]) -> tuple[list[str], ...]:
    return tuple(list(player[z]) for z in deck.ZONES)


DRAW_CARDS = ["normal-train", "lay-rails", "station-expansion", "express-train", "waste", "apartment", "tower"]


@pytest.mark.parametrize("deck_size", range(0, 8))
def test_draw_gives_the_shared_rule_cards_and_events(deck_size: int) -> None:
    base = GAME.setup(["ann", "bob"], {"map": "tokyo"}, 9)
    for discard_size, count, seat in itertools.product(range(0, 8), range(0, 8), (0, 1)):
        start = clone(base)
        player = start["players"][seat]
        player["deck"] = [DRAW_CARDS[(i + deck_size) % 7] for i in range(deck_size)]
        player["discard"] = [DRAW_CARDS[(3 * i + 1) % 7] for i in range(discard_size)]
        fast, plain = clone(start), clone(start)
        fast_events: list[Any] = []
        plain_events: list[Any] = []
        drawn = deck.draw(fast, seat, count, fast_events)
        expected = cards.draw(plain, seat, plain["players"][seat], count, plain_events, deck.name_of)
        assert drawn == expected
        assert fast_events == plain_events
        assert fast == plain, (deck_size, discard_size, count)
        assert _zones(fast["players"][seat]) == _zones(plain["players"][seat])


def test_the_cheapest_pile_card_bounds_every_setup_pile() -> None:
    pile_cards = [*RULES["basic_supply"], *KINGDOM]
    assert min(CARDS[slug].cost for slug in pile_cards) == movegen._CHEAPEST
    for seed in range(40):
        state = GAME.setup(["ann", "bob"], {"map": "tokyo"}, seed)
        assert set(state["piles"]) <= set(pile_cards)


def test_buys_listed_for_every_money_are_the_affordable_stocked_piles(states: list[State]) -> None:
    listed = 0
    for state in states[::7]:
        seat = state["current"]
        for money, early in itertools.product(range(0, 9), (False, True)):
            trial = dict(state, turn=dict(state["turn"], money=money, early=early))
            buys = [m for m in movegen.legal_moves(trial, seat) if m[MOVE_KEY] == "buy"]
            plain = []
            for slug in state["piles"]:
                if state["supply"][slug] > 0 and CARDS[slug].cost <= money:
                    plain.append({MOVE_KEY: "buy", "card": slug, "top": False})
                    if early:
                        plain.append({MOVE_KEY: "buy", "card": slug, "top": True})
            assert buys == plain, (money, early)
            listed += len(buys)
    assert listed > 100
