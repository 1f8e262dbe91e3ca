"""The engine's fast paths give exactly what their plain definitions give.

Legal-move listing, rail costs, the frontier, station and start hexes, the state copy, drawing,
shuffling and the status line each have a quicker form than the rule they implement; these tests
compute the plain form next to it, on states from real seeded games (every rail cost situation
arises in them: terrain, stations, other players' rails, waivers, discounts, little money).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from games import cards
from games.base import MOVE_KEY, Move, State, Status
from games.rng import Rng
from games.trains import GAME, board, deck, effects, movegen
from games.trains.content import CARDS, MAPS, RULES
from games.trains.copying import clone, fork
from games.trains.rules import status

_MASK = (1 << 64) - 1


def _played_states(map_name: str, players: int, seeds: range) -> list[State]:
    """Every state (play phase) of seeded random games, with another kingdom per seed."""
    out = []
    for seed in seeds:
        state = GAME.setup([f"p{i}" for i in range(players)], {"map": map_name}, seed)
        picker = Rng(seed + 101)
        while not GAME.status(state).finished:
            seat = GAME.status(state).to_act[0]
            if state["phase"] == "play":
                out.append(state)
            state, _ = GAME.apply(state, seat, picker.choice(GAME.legal_moves(state, seat)))
    return out


@pytest.fixture(scope="module")
def states() -> list[State]:
    return _played_states("tokyo", 4, range(3)) + _played_states("osaka", 3, range(3, 5))


# ---------------------------------------------------------------- the board


def _plain_frontier(state: State, seat: int) -> list[str]:
    gmap = MAPS[state["map"]]
    mine = {h for h, seats in state["rails"].items() if seat in seats}
    return sorted({n for h in mine for n in gmap.neighbours[h]} - mine)


def _plain_rail_cost(state: State, seat: int, hexname: str, waive: tuple[str, ...]) -> int:
    """The surcharge table of the rulebook, written out: terrain, city stations, other rails."""
    waived = set(waive) | set(state["turn"]["waive"])
    table = RULES["surcharge"]
    gmap = MAPS[state["map"]]
    terrain = gmap.terrain[hexname]
    money = 0
    if terrain in ("river", "mountain") and terrain not in waived:
        money += table[terrain]
    if terrain == "city" and "city" not in waived:
        money += table["city_base"] + table["city_per_station"] * state["stations"].get(hexname, 0)
    if terrain == "remote" and "remote" not in waived:
        money += gmap.remotes[hexname].value
    others = [s for s in state["rails"].get(hexname, []) if s != seat]
    if "rails" not in waived:
        money += table["per_other_rail"] * len(others)
    return max(0, money - state["turn"]["discount"])


WAIVERS = [(), ("river",), ("mountain", "river"), ("city",), ("remote",), ("rails",)]


def test_frontier_is_the_neighbours_of_the_seats_rails(states: list[State]) -> None:
    for state in states:
        for seat in range(len(state["players"])):
            assert board.frontier(state, seat) == _plain_frontier(state, seat)


def test_frontier_answers_are_fresh_lists(states: list[State]) -> None:
    state = states[-1]
    first = board.frontier(state, 0)
    first.append("Z99")
    assert "Z99" not in board.frontier(state, 0)


def test_affordable_rails_are_the_hexes_whose_cost_is_within_the_money(states: list[State]) -> None:
    checked = 0
    for state in states[::3]:
        seat = state["current"]
        # The frontier, and the hexes where the seat has a rail already (shared with others too).
        hexes = board.frontier(state, seat) + [h for h, seats in state["rails"].items() if seat in seats]
        for money in (0, 1, 2, 4):
            for discount in (0, 1):
                trial = dict(state, turn=dict(state["turn"], money=money, discount=discount))
                for waive in WAIVERS:
                    plain = [h for h in hexes if _plain_rail_cost(trial, seat, h, waive) <= money]
                    assert board.affordable_rails(trial, seat, hexes, waive) == plain
                    # rail_cost (the rule lay_rail charges by) agrees hex by hex.
                    assert [board.rail_cost(trial, seat, h, waive) for h in hexes] == [
                        _plain_rail_cost(trial, seat, h, waive) for h in hexes
                    ]
                    checked += len(hexes)
    assert checked > 1000


def test_station_and_start_hexes_follow_their_rules(states: list[State]) -> None:
    for state in states:
        gmap = MAPS[state["map"]]
        free = [h for h, city in gmap.cities.items() if state["stations"].get(h, 0) < city.value]
        assert board.station_hexes(state) == (free if state["stations_left"] > 0 else [])
    fresh = GAME.setup(["ann", "bob"], {"map": "osaka"}, 3)
    fresh["rails"] = {"E5": [0]}
    gmap = MAPS["osaka"]
    assert board.start_hexes(fresh) == [h for h, t in gmap.terrain.items() if t not in ("sea", "remote") and h != "E5"]


# ---------------------------------------------------------------- legal moves


def _plain_legal_moves(state: State, seat: int) -> list[Move]:
    """The listing through card_choices for every card (no per-kind shortcuts)."""
    moves: list[Move] = []
    for slug in sorted(set(state["players"][seat]["hand"])):
        card = CARDS[slug]
        if card.playable:
            moves += [
                {MOVE_KEY: "play", "card": slug, "args": args}
                for args in movegen.card_choices(state, seat, card, in_hand_already=True)
            ]
    turn = state["turn"]
    for slug in state["piles"]:
        if state["supply"][slug] > 0 and CARDS[slug].cost <= turn["money"]:
            moves.append({MOVE_KEY: "buy", "card": slug, "top": False})
            if turn["early"]:
                moves.append({MOVE_KEY: "buy", "card": slug, "top": True})
    if not turn["played"] and not turn["bought"]:
        moves.append({MOVE_KEY: "pass"})
    moves.append({MOVE_KEY: "end"})
    return moves


def test_legal_moves_match_the_listing_through_card_choices(states: list[State]) -> None:
    kinds = set()
    for state in states:
        seat = state["current"]
        legal = movegen.legal_moves(state, seat)
        assert legal == _plain_legal_moves(state, seat)
        kinds |= {CARDS[m["card"]].kind for m in legal if m[MOVE_KEY] == "play"}
    # The shortcuts (no choice, one rail, station) and the general path were all exercised.
    assert {"none", "lay_rails", "station"} <= kinds and len(kinds) >= 5


def test_every_rail_move_listed_is_legal_and_every_frontier_hex_left_out_is_not(states: list[State]) -> None:
    for state in states[::5]:
        seat = state["current"]
        listed = {
            m["args"][0]
            for m in movegen.legal_moves(state, seat)
            if m[MOVE_KEY] == "play" and m["card"] == "lay-rails" and m["args"] != ["skip"]
        }
        if "lay-rails" not in state["players"][seat]["hand"]:
            continue
        for h in board.frontier(state, seat):
            move = {MOVE_KEY: "play", "card": "lay-rails", "args": [h]}
            try:
                GAME.apply(state, seat, move)
                ok = True
            except Exception:
                ok = False
            assert ok == (h in listed), h


# ---------------------------------------------------------------- the state copy


def test_fork_copies_what_rules_change_and_shares_what_they_replace(states: list[State]) -> None:
    state = states[40]
    seat = state["current"]
    new = fork(state, seat)
    assert json.dumps(new) == json.dumps(state)
    mine, old = new["players"][seat], state["players"][seat]
    for zone in ("deck", "hand", "discard", "play", "gained"):
        assert mine[zone] is not old[zone]
    assert mine is not old and new["supply"] is not state["supply"] and new["turn"] is not state["turn"]
    assert new["turn"]["waive"] is not state["turn"]["waive"]
    for key in ("rails", "stations", "trash", "names", "piles", "kingdom"):
        assert new[key] is state[key], key
    others = [s for s in range(len(state["players"])) if s != seat]
    assert all(new["players"][s] is state["players"][s] for s in others)


def test_fork_of_an_unknown_layout_copies_everything_it_does_not_know() -> None:
    state = GAME.setup(["ann", "bob"], {"map": "tokyo"}, 2)
    odd = clone(state)
    odd["players"][0]["hand"] = ("normal-train",)  # a tuple: not the layout setup() makes
    new = fork(odd, 0)
    assert new == odd and new["supply"] is not odd["supply"] and new["rails"] is not odd["rails"]


def test_rules_that_add_to_shared_parts_replace_them(tr: Any) -> None:
    city = board.place_hex(tr.new_game(), "shinjuku")
    start = tr.neighbour_of("tokyo", city)
    state = tr.scenario(["lay-rails", "station-expansion", "scrapyard", "normal-train"], rails={start: [0]}, money=5)
    plays = (
        (f"/trains play lay-rails {city}", "rails"),
        ("/trains play station-expansion shinjuku", "stations"),
        ("/trains play scrapyard normal-train", "trash"),
    )
    for command, changed in plays:
        before = json.dumps(state)
        new, _ = tr.do(state, 0, command)
        assert json.dumps(state) == before, command
        assert new[changed] != state[changed] and new[changed] is not state[changed], command
        for key in {"rails", "stations", "trash"} - {changed}:
            assert new[key] is state[key], (command, key)
        state = new


# ---------------------------------------------------------------- cards and randomness


class _PlainRng:
    """SplitMix64 as games/rng.py documents it, one draw at a time."""

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    def next_u64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next_u64()
            if value < limit:
                return value % n

    def shuffled(self, items: list[int]) -> list[int]:
        result = list(items)
        for i in range(len(result) - 1, 0, -1):
            j = self.below(i + 1)
            result[i], result[j] = result[j], result[i]
        return result


def test_rng_draws_the_documented_splitmix64_sequence() -> None:
    for seed in range(400):
        fast, plain = Rng(seed * 7919), _PlainRng(seed * 7919)
        # Huge bounds reject draws (limit far below 2**64): the loop must keep the state right.
        for n in (1, 2, 3, 10, 33, 3 * 2**62, 2**64 - 1):
            assert fast.below(n) == plain.below(n) and fast.state == plain.state
        items = list(range(seed % 40))
        assert fast.shuffled(items) == plain.shuffled(items) and fast.state == plain.state


def _plain_draw(state: State, seat: int, count: int) -> tuple[list[str], list[Any]]:
    events: list[Any] = []
    player = state["players"][seat]
    drawn = []
    for _ in range(count):
        if cards.top_card(state, player, state["names"][seat], events) is None:
            break
        drawn.append(player["deck"].pop())
    return drawn, events


@pytest.mark.parametrize(
    "deck_size, discard_size, count", [(7, 3, 5), (5, 3, 5), (3, 6, 5), (0, 4, 5), (2, 0, 5), (4, 2, 0)]
)
def test_draw_takes_the_top_cards_as_one_by_one_draws_do(deck_size: int, discard_size: int, count: int) -> None:
    base = GAME.setup(["ann", "bob"], {"map": "tokyo"}, 5)
    slugs = ["normal-train", "lay-rails", "station-expansion", "express-train", "waste", "apartment", "tower"]
    base["players"][0]["deck"] = slugs[:deck_size]
    base["players"][0]["discard"] = [slugs[-1 - i] for i in range(discard_size)]
    base["players"][0]["hand"] = []
    fast_state, plain_state = clone(base), clone(base)
    events: list[Any] = []
    drawn = deck.draw(fast_state, 0, count, events)
    plain, plain_events = _plain_draw(plain_state, 0, count)
    assert drawn == plain == fast_state["players"][0]["hand"]
    assert fast_state["players"][0]["deck"] == plain_state["players"][0]["deck"]
    assert fast_state["rng"] == plain_state["rng"]
    assert [e for e in events if "shuffles" in e.get("text", "")] == plain_events


def test_removing_one_card_takes_its_latest_copy() -> None:
    for zone, slug in ((["a", "b", "a", "c"], "a"), (["b", "c"], "a"), (["a"], "a"), (["c", "a", "b", "a"], "a")):
        fast, plain = list(zone), list(zone)
        assert deck.remove_cards(fast, [slug]) == cards.remove_cards(plain, [slug])
        assert fast == plain


def test_hex_words_normalise_as_the_pattern_does() -> None:
    card = CARDS["lay-rails"]
    words = [h.lower() for gmap in MAPS.values() for h in gmap.terrain] + list(board.PLACE_WORDS)
    for word in words + ["z9", "a10"]:
        expected = word if word in board.PLACE_WORDS else word.upper()
        assert effects.norm_hex(card, word) == expected
    for bad in ("E5", "e0", "5e", "ee"):
        with pytest.raises(Exception, match="not a hex label"):
            effects.norm_hex(card, bad)


def test_status_lines_are_those_of_the_turn(states: list[State]) -> None:
    for state in states[::4]:
        seat, turn = state["current"], state["turn"]
        buys = turn["buys"]
        expected = Status(
            to_act=(seat,),
            finished=False,
            summary=f"{state['names'][seat]}'s turn ({turn['money']} money, {buys} buy{'s' if buys != 1 else ''} made)",
        )
        assert status(state) == expected
        richer = dict(state, turn=dict(turn, money=turn["money"] + 3))
        assert status(richer).summary.startswith(f"{state['names'][seat]}'s turn ({turn['money'] + 3} money")


@pytest.mark.parametrize("twice", ["coupling", "dispatcher"])
def test_play_twice_choices_are_tried_on_copies_and_all_apply(tr: Any, twice: str) -> None:
    city = board.place_hex(tr.new_game(), "shinjuku")
    start = tr.neighbour_of("tokyo", city)
    hands = [
        [twice, "freight-train", "mail-train", "normal-train", "waste"],
        [twice, "coupling", "dispatcher", "express-train", "central-station"],
        [twice, "transfer", "scrapyard", "waste", "landfill"],
        [twice, "command-central", "recycling-plant", "waste", "commuter-rush"],
    ]
    listed = 0
    for hand in hands:
        state = tr.scenario(hand, rails={start: [0]}, money=3, deck=["normal-train"] * 6, discard=["waste"])
        before = json.dumps(state)
        moves = [m for m in GAME.legal_moves(state, 0) if m.get("card") == twice]
        assert json.dumps(state) == before
        for move in moves:
            GAME.apply(state, 0, move)  # raises IllegalMove if a listed choice were not legal
        listed += len(moves)
    assert listed > 10
