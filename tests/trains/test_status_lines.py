"""The status line of every phase, word for word: who must act, whether the game is over, and the one-line
summary the channel shows. Written against mutants bench/mutation.sh left alive in rules.status (the
winner line, the start phase's line and the shared Status of equal turns).
"""

from __future__ import annotations

import pytest

from games.base import Status
from games.trains import rules


@pytest.fixture(autouse=True)
def _no_cached_turn_status():
    """Start each test with an empty table of turn statuses, so the line is built here, not taken from a
    turn an earlier test (or mutmut's warm parent process) already asked about."""
    rules._TURN_STATUS.clear()


def test_the_start_phase_names_who_places_a_starting_rail(tr):
    state = tr.new_game(3)
    assert rules.status(state) == Status(to_act=(0,), finished=False, summary="ann to place a starting rail")
    state, _ = tr.do(state, 0, "/trains start shinjuku")
    assert rules.status(state) == Status(to_act=(1,), finished=False, summary="bob to place a starting rail")


def test_a_turn_in_play_shows_money_and_buys_made(tr):
    state = tr.scenario(["normal-train"], rails={"E5": [0], "E6": [1]}, players=3, seat=2, money=7)
    for buys, made in ((0, "0 buys made"), (1, "1 buy made"), (2, "2 buys made")):
        state["turn"]["buys"] = buys
        assert rules.status(state) == Status(to_act=(2,), finished=False, summary=f"cat's turn (7 money, {made})")


def test_equal_turns_share_one_status_and_the_cache_stays_bounded(tr):
    state = tr.scenario(["normal-train"], rails={"E5": [0], "E6": [1]}, money=3)
    first = rules.status(state)
    again = rules.status(tr.roundtrip(state))  # an equal turn in another state object
    assert again is first
    # Every distinct (seat, name, money, buys) adds one entry; the table is emptied at 4096, never grows past it.
    for money in range(5000):
        state["turn"]["money"] = money
        assert rules.status(state).summary == f"ann's turn ({money} money, 0 buys made)"
        assert len(rules._TURN_STATUS) <= 4096


def _over_by_the_last_station(tr, rails, players):
    """A play-phase state where no station is left: ann ending her turn ends the game."""
    state = tr.scenario(["normal-train"], rails=rails, players=players)
    state["stations_left"] = 0
    after, _ = tr.do(state, 0, "/trains end")
    assert after["phase"] == "over"
    return after


def test_the_winner_line_names_the_winner_and_their_points(tr):
    gmap = tr.MAPS["tokyo"]
    remote, place = next(iter(gmap.remotes.items()))
    # ann scores the remote location; bob and cat score 0, so a line built from another row says 0.
    after = _over_by_the_last_station(tr, {remote: [0], "E5": [1], "E6": [2]}, 3)
    assert [row["player"] for row in tr.GAME.standings(after)] == ["ann", "bob", "cat"]
    assert rules.status(after) == Status(
        to_act=(), finished=True, summary=f"Game over: ann wins with {place.value} points."
    )


def test_a_tie_on_points_and_rails_is_a_shared_win_in_seat_order(tr):
    remotes = tr.MAPS["tokyo"].remotes
    assert remotes["L1"].value == remotes["A3"].value == 4  # Mt. Tsukuba and Chichibu
    after = _over_by_the_last_station(tr, {"L1": [1], "A3": [2], "E5": [0]}, 3)
    assert rules.status(after) == Status(
        to_act=(), finished=True, summary="Game over: bob and cat share the win with 4 points."
    )


def test_a_winner_by_resignation_is_named_with_their_points(tr):
    gmap = tr.MAPS["tokyo"]
    remote, place = next(iter(gmap.remotes.items()))
    state = tr.scenario(["normal-train"], rails={"E5": [0], remote: [1]})
    after, _ = rules.resign(state, 0)  # ann resigns; bob is the last one playing
    assert rules.status(after) == Status(
        to_act=(), finished=True, summary=f"Game over: bob wins with {place.value} points."
    )


def test_standings_titles_at_the_end_winner_shared_win_and_resigned(tr):
    remotes = tr.MAPS["tokyo"].remotes
    shared = _over_by_the_last_station(tr, {"L1": [1], "A3": [2], "E5": [0]}, 3)
    assert [(r["player"], r["score"], r["rank"], r.get("title")) for r in tr.GAME.standings(shared)] == [
        ("bob", 4, 1, "shared win"),
        ("cat", 4, 1, "shared win"),
        ("ann", 0, 3, None),
    ]
    # ann resigns while ahead: she ranks after bob, who is the winner though he scores less.
    state = tr.scenario(["normal-train"], rails={"F1": [0], "E5": [1]})
    after, _ = rules.resign(state, 0)
    assert [(r["player"], r["score"], r["rank"], r.get("title")) for r in tr.GAME.standings(after)] == [
        ("bob", 0, 1, "winner"),
        ("ann", remotes["F1"].value, 2, "resigned"),
    ]
    # While the game is on nobody is called winner.
    assert [r.get("title") for r in tr.GAME.standings(state)] == [None, None]
