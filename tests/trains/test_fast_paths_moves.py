"""The third round of engine fast paths against their plain definitions, on real seeded states.

``copying.fork_end`` (the copy an end of turn works on), ``rules.end_reasons`` (no counting of the
piles when no supply count is 0) and ``effects.known_play`` (plays whose words were checked once)
each give exactly what the plain rule gives.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.base import MOVE_KEY, IllegalMove, State
from games.trains import GAME, copying, effects, rules
from games.trains.content import RULES
from tests.trains.played import sample


@pytest.fixture(scope="module")
def records() -> list[tuple[State, int, dict[str, Any]]]:
    return sample(303)


def test_an_end_of_turn_on_fork_end_is_the_end_on_a_whole_copy(records: list[Any]) -> None:
    ends = [(s, seat) for s, seat, m in records if m[MOVE_KEY] == "end"]
    assert len(ends) > 300
    for state, seat in ends:
        before = json.dumps(state)
        fast = copying.fork_end(state, seat)
        plain = copying.clone(state)
        fast_events: list[Any] = []
        plain_events: list[Any] = []
        rules._end_turn(fast, fast_events)
        rules._end_turn(plain, plain_events)
        assert fast == plain and fast_events == plain_events
        assert json.dumps(state) == before, "ending a turn on fork_end changed the old state"


def _plain_end_reasons(state: State) -> list[str]:
    reasons = []
    empty = sum(1 for slug in state["piles"] if state["supply"][slug] == 0)
    if empty >= RULES["end_empty_piles"]:
        reasons.append(f"{empty} supply piles are empty")
    for seat, player in enumerate(state["players"]):
        if player["rails_left"] == 0:
            reasons.append(f"{state['names'][seat]} has placed all their rails")
    if state["stations_left"] == 0:
        reasons.append("all stations are on the board")
    return reasons


def test_end_reasons_with_and_without_empty_supply_counts(records: list[Any]) -> None:
    checked = 0
    for state, _, _ in records[::11]:
        for emptied in range(0, 5):
            trial = dict(state, supply=dict(state["supply"]))
            for slug in [*trial["piles"], "waste"][:emptied]:
                trial["supply"][slug] = 0
            assert rules.end_reasons(trial) == _plain_end_reasons(trial)
            checked += bool(rules.end_reasons(trial))
    assert checked > 50


def test_known_plays_apply_as_the_checked_plays(records: list[Any]) -> None:
    plays = [(s, seat, m) for s, seat, m in records if m[MOVE_KEY] == "play"]
    assert len(plays) > 300
    for state, seat, move in plays:
        effects._KNOWN_PLAYS.clear()
        plain = GAME.apply(state, seat, move)
        assert effects.known_play(move["card"], move["args"])
        assert GAME.apply(state, seat, move) == plain  # the second time from the memo


def test_only_checked_words_without_place_names_are_known() -> None:
    effects._KNOWN_PLAYS.clear()
    state = GAME.setup(["ann", "bob"], {"map": "tokyo"}, 5)
    for seat, hexname in ((0, "E5"), (1, "shinjuku")):
        state, _ = GAME.apply(state, seat, {MOVE_KEY: "start", "hex": hexname})
    tries = [["E5"], ["e5"], ["shinjuku"], [["E5"]], ("E5",), [1]]
    for args in tries:
        with pytest.raises(IllegalMove):  # lay-rails is not in hand: every try is refused...
            GAME.apply(state, state["current"], {MOVE_KEY: "play", "card": "lay-rails", "args": args})
    # ... and only canonical words naming no place are remembered, whatever play_card was given.
    for words in (["e5"], ["shinjuku"], ["E5", "E6"]):
        trial = copying.clone(state)
        trial["players"][0]["hand"].append("lay-rails")
        with pytest.raises(IllegalMove):
            effects.play_card(trial, 0, "lay-rails", words, [])
        assert not effects.known_play("lay-rails", words)
    assert not effects.known_play("lay-rails", ("E5",)) and not effects.known_play("lay-rails", [["E5"]])
