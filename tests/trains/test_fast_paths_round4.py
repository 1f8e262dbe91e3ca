"""The fourth round of engine fast paths against their plain definitions, on real seeded states.

``board.own_rails`` (a seat's rail hexes, kept per rails dict), ``effects.play_card`` with
``checked`` (apply found the words known already) and the written-out turn check of
``rules.apply`` each give exactly what the plain rule gives.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from games.base import MOVE_KEY, IllegalMove, State
from games.rng import Rng
from games.trains import GAME, board, effects, rules
from games.trains.copying import clone
from tests.trains.played import played, sample


@pytest.fixture(scope="module")
def records() -> list[tuple[State, int, dict[str, Any]]]:
    return sample(404)


def _plain_own(rails: dict[str, list[int]], seat: int) -> tuple[str, ...]:
    return tuple(h for h, seats in rails.items() if seat in seats)


def test_own_rails_are_the_seats_hexes_in_board_order(records: list[Any]) -> None:
    boards = 0
    for state, _, _ in records:
        for seat in range(len(state["players"])):
            assert board.own_rails(state["rails"], seat) == _plain_own(state["rails"], seat)
        boards += 1
    assert boards > 1000


def test_own_rails_of_a_dict_grown_or_shrunk_in_place_are_read_afresh(records: list[Any]) -> None:
    state = records[-1][0]
    rails = {h: list(seats) for h, seats in state["rails"].items()}
    mine = board.own_rails(rails, 0)
    extra = next(h for h in board.frontier(state, 0) if h not in rails)
    rails[extra] = [0]
    assert board.own_rails(rails, 0) == (*mine, extra) == _plain_own(rails, 0)
    del rails[extra]
    assert board.own_rails(rails, 0) == mine == _plain_own(rails, 0)


def test_own_rails_carried_to_the_board_of_a_new_rail_are_the_plain_ones() -> None:
    # lay_rail keeps the answers known for the old board for its new one (board._carry_own): on
    # every move of seeded games, every answer so carried is the seat's hexes in board order.
    carried = 0
    for state, seat, move in played("tokyo", 4, range(3), 77):
        for each in range(4):  # every seat's answer known for the board before the move
            board.own_rails(state["rails"], each)
        rails = GAME.apply(state, seat, move)[0]["rails"]
        entry = board._OWN.get(id(rails))
        if rails is state["rails"] or entry is None or entry[0] is not rails:
            continue
        for each, own in entry[2].items():
            assert own == _plain_own(rails, each)
            carried += 1
    assert carried > 300


def _plain_free(state: State) -> list[str]:
    """The cities with a free station slot, in map order (station_hexes' rule)."""
    from games.trains.content import MAPS

    if state["stations_left"] <= 0:
        return []
    return [h for h, city in MAPS[state["map"]].cities.items() if state["stations"].get(h, 0) < city.value]


def test_station_hexes_carried_to_the_board_of_a_new_station_are_the_plain_ones() -> None:
    # place_station keeps the answer known for the old stations for its new dict (board._carry_free):
    # on every move of seeded games on both maps, each answer so carried is the plain one.
    carried = 0
    games = (
        played("tokyo", 4, range(0, 1), 99) + played("osaka", 4, range(1, 2), 99) + played("tokyo", 4, range(2, 3), 99)
    )
    for state, seat, move in games:
        assert board.station_hexes(state) == _plain_free(state)  # known for the board before
        after = GAME.apply(state, seat, move)[0]
        stations = after["stations"]
        entry = board._FREE.get(id(stations))
        if stations is state["stations"] or entry is None or entry[1] is not stations:
            continue
        assert board.station_hexes(after) == _plain_free(after)
        carried += 1
    assert carried > 50


def test_station_hexes_of_a_dict_grown_in_place_are_read_afresh(records: list[Any]) -> None:
    from games.trains.content import MAPS

    state = dict(records[-1][0], stations=dict(records[-1][0]["stations"]), stations_left=5)
    known = board.station_hexes(state)
    city = next(h for h in known if h not in state["stations"])
    state["stations"][city] = MAPS[state["map"]].cities[city].value  # the city is full now
    assert board.station_hexes(state) == _plain_free(state) == [h for h in known if h != city]


def test_own_rails_kept_for_many_boards_stay_right() -> None:
    # More dicts than the memo keeps: it is cleared and refilled, never mixes two boards up.
    made = [{f"E{i}": [0], f"F{i}": [1]} for i in range(3 * board._OWN_KEPT)]
    for rails in made:
        assert board.own_rails(rails, 0) == _plain_own(rails, 0)
        assert board.own_rails(rails, 1) == _plain_own(rails, 1)
    for rails in made:
        assert board.own_rails(rails, 1) == _plain_own(rails, 1)


def test_a_checked_play_is_the_play_with_its_words_looked_at(records: list[Any]) -> None:
    plays = [(s, seat, m) for s, seat, m in records if m[MOVE_KEY] == "play" and m["card"] != "all-trains"]
    assert len(plays) > 500
    for state, seat, move in plays:
        assert effects.known_play(move["card"], move["args"])  # every listed play was applied once
        before = json.dumps(state)
        fast, plain = clone(state), clone(state)
        fast_events: list[Any] = []
        plain_events: list[Any] = []
        fast_text = effects.play_card(fast, seat, move["card"], move["args"], fast_events, checked=True)
        plain_text = effects.play_card(plain, seat, move["card"], move["args"], plain_events)
        assert (fast_text, fast, fast_events) == (plain_text, plain, plain_events)
        assert json.dumps(state) == before


def test_the_turn_check_refuses_as_check_turn_does(records: list[Any]) -> None:
    checked = 0
    for state, _, move in records[::37]:
        for who in (*range(-1, len(state["players"]) + 1), "0"):
            try:
                rules._check_turn(state, who)  # type: ignore[arg-type]
                expected = None
            except (IllegalMove, TypeError) as err:
                expected = (type(err), str(err))
            try:
                rules.apply(state, who, move)  # type: ignore[arg-type]
                got = None
            except (IllegalMove, TypeError) as err:
                got = (type(err), str(err))
            if expected is not None:
                assert got == expected
                checked += 1
            else:
                assert got is None
    assert checked > 100


def test_a_finished_game_refuses_every_seat(records: list[Any]) -> None:
    state, seat, move = records[-1]
    final, _ = rules.apply(state, seat, move)
    assert final["phase"] == "over"
    for who in range(len(final["players"])):
        with pytest.raises(IllegalMove, match="The game is over"):
            rules.apply(final, who, {MOVE_KEY: "end"})


def _plain_end_reasons(state: State, empty_piles: int) -> list[str]:
    reasons = []
    empty = sum(1 for slug in state["piles"] if state["supply"][slug] == 0)
    if empty >= empty_piles:
        reasons.append(f"{empty} supply piles are empty")
    for seat, player in enumerate(state["players"]):
        if player["rails_left"] == 0:
            reasons.append(f"{state['names'][seat]} has placed all their rails")
    if state["stations_left"] == 0:
        reasons.append("all stations are on the board")
    return reasons


@pytest.mark.parametrize("empty_piles", [0, 3])
def test_end_reasons_with_rails_and_stations_used_up(
    records: list[Any], empty_piles: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(rules.RULES, "end_empty_piles", empty_piles)
    ended = 0
    for state, _, _ in records[::23]:
        for used_up in range(len(state["players"]) + 2):
            trial = dict(state, players=[dict(p) for p in state["players"]])
            if used_up < len(trial["players"]):
                trial["players"][used_up]["rails_left"] = 0
            elif used_up == len(trial["players"]):
                trial["stations_left"] = 0
            assert rules.end_reasons(trial) == _plain_end_reasons(trial, empty_piles)
            ended += bool(rules.end_reasons(trial))
    assert ended > 100


def test_a_new_turn_is_the_fresh_turn_with_its_own_waivers() -> None:
    first, second = rules.new_turn(), rules.new_turn()
    expected = {
        "money": 0,
        "played": False,
        "bought": False,
        "buys": 0,
        "rails_laid": 0,
        "waive": [],
        "discount": 0,
        "early": False,
    }
    assert first == second == expected and list(first) == list(expected)
    assert first["waive"] is not second["waive"]


def test_the_next_seat_skips_resigned_players_as_next_active(records: list[Any]) -> None:
    state = next(s for s, _, m in records if s["phase"] == "play" and m[MOVE_KEY] == "end" and len(s["players"]) == 4)
    for resigned in range(16):
        for seat in range(4):
            trial = clone(state)
            trial["current"] = seat
            for other in range(4):
                trial["players"][other]["resigned"] = other != seat and bool(resigned >> other & 1)
            expected = rules._next_active(trial, seat)
            rules._end_turn(trial, [])
            assert trial["current"] == (seat if expected is None else expected)


def test_start_hexes_are_the_free_land_hexes_but_remote_locations() -> None:
    for map_name in ("tokyo", "osaka"):
        state = GAME.setup(["a", "b", "c", "d"], {"map": map_name}, 7)
        gmap = board.game_map(state)
        picker = Rng(7)
        while state["phase"] == "start":
            taken = {h for h, seats in state["rails"].items() if seats}
            plain = [h for h, t in gmap.terrain.items() if t not in ("sea", "remote") and h not in taken]
            assert board.start_hexes(state) == plain
            seat = state["current"]
            state, _ = GAME.apply(state, seat, picker.choice(GAME.legal_moves(state, seat)))
        with_empty = dict(state, rails={**state["rails"], plain[0]: []})  # an emptied hex is free again
        assert plain[0] in board.start_hexes(with_empty)


def test_hand_plans_are_the_playable_cards_in_name_order(records: list[Any]) -> None:
    from games.trains import movegen

    for state, seat, _ in records[::5]:
        hand = state["players"][seat]["hand"]
        plain = [
            (slug, *movegen._PLAY[slug]) for slug in sorted(set(hand)) if movegen._PLAY[slug][0] != movegen._UNPLAYABLE
        ]
        assert list(movegen._hand_plan(hand)) == plain
        assert movegen._HAND_PLANS[frozenset(hand)] == tuple(plain)


def test_a_hand_plan_kept_for_some_cards_lists_them_in_any_order_and_number(records: list[Any]) -> None:
    from games.trains import movegen

    for state, seat, _ in records[::5]:
        hand = state["players"][seat]["hand"]
        movegen.legal_moves(state, seat)  # keeps the plan of this hand's cards
        for other in (hand[::-1], [*hand, *hand]):
            players = [dict(p, hand=other) if s == seat else p for s, p in enumerate(state["players"])]
            changed = dict(state, players=players)
            kept = movegen.legal_moves(changed, seat)
            movegen._HAND_PLANS.clear()
            assert kept == movegen.legal_moves(changed, seat)  # the plan worked out afresh


def _plain_breakdown(state: State, seat: int) -> dict[str, int]:
    from games.trains.content import CARDS, MAPS, RULES
    from games.trains.deck import all_cards

    gmap = MAPS[state["map"]]
    bonus = RULES["station_bonus"]
    cities = remotes = 0
    for h, seats in state["rails"].items():
        if seat not in seats:
            continue
        if h in gmap.cities:
            cities += bonus[min(state["stations"].get(h, 0), len(bonus) - 1)]
        elif h in gmap.remotes:
            remotes += gmap.remotes[h].value
    rails = sum(1 for seats in state["rails"].values() if seat in seats)
    cards = 0
    for slug in all_cards(state["players"][seat]):
        card = CARDS[slug]
        cards += card.vp + (rails // card.vp_per_rails if card.vp_per_rails else 0)
    return {
        "cities": cities,
        "remote locations": remotes,
        "VP cards": cards,
        "track VP": state["players"][seat]["track_vp"],
    }


def test_score_breakdowns_and_rails_on_board_are_the_plain_sums(records: list[Any]) -> None:
    from games.trains import scoring

    # The finished games too: each game's last move applied.
    lasts = [i for i in range(len(records)) if i + 1 == len(records) or records[i + 1][0]["move_number"] == 0]
    finals = [rules.apply(*records[i])[0] for i in lasts]
    assert len(finals) == 5 and all(s["phase"] == "over" for s in finals)
    scored = 0
    for state in [s for s, _, _ in records[::3]] + finals:
        for seat in range(len(state["players"])):
            assert scoring.breakdown(state, seat) == _plain_breakdown(state, seat)
            assert scoring.rails_on_board(state, seat) == sum(1 for seats in state["rails"].values() if seat in seats)
            scored += bool(scoring.breakdown(state, seat)["VP cards"])
    assert scored > 50


def test_a_play_without_effect_on_fork_plain_is_the_play_on_a_whole_copy(records: list[Any]) -> None:
    from games.trains import copying

    plain_plays = [
        (s, seat, m)
        for s, seat, m in records
        if m[MOVE_KEY] == "play"
        and m["card"] != "all-trains"
        and (m["card"] in rules._NO_EFFECT or m["args"] == [effects.SKIP])
    ]
    assert len(plain_plays) > 300
    assert any(m["args"] == [effects.SKIP] for _, _, m in plain_plays)
    _plays_alike(plain_plays, copying.fork_plain)


def test_a_building_play_on_fork_board_is_the_play_on_a_whole_copy(records: list[Any]) -> None:
    from games.trains import copying

    builds = [(s, seat, m) for s, seat, m in records if m[MOVE_KEY] == "play" and m["card"] in rules._BUILDS]
    assert len(builds) > 300
    _plays_alike(builds, copying.fork_board)


def _plays_alike(plays: list[Any], fork: Callable[[State, int], State]) -> None:
    """Each play worked on ``fork``'s copy gives what it gives on a whole copy, and leaves the old
    state as it was; apply's answer is the whole copy's."""
    for state, seat, move in plays:
        before = json.dumps(state)
        fast = fork(state, seat)
        whole = clone(state)
        fast_events: list[Any] = []
        whole_events: list[Any] = []
        fast_text = effects.play_card(fast, seat, move["card"], move["args"], fast_events)
        whole_text = effects.play_card(whole, seat, move["card"], move["args"], whole_events)
        assert (fast_text, fast, fast_events) == (whole_text, whole, whole_events)
        assert json.dumps(state) == before, f"a play on {fork.__name__} changed the old state"
        applied, _ = rules.apply(state, seat, move)
        assert applied == {**whole, "move_number": state["move_number"] + 1}
