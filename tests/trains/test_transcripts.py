"""Replay the transcripts: complete games and rule scenarios, with their standings lines.

Scores and ranks are recomputed here from the rulebook's numbers (not with the engine's
scoring module), and complete games are checked to end exactly at the end of the turn in
which an end condition first held.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from games.trains.content import MAPS

HERE = Path(__file__).parent
_spec = importlib.util.spec_from_file_location("trains_transcript_driver", HERE / "transcript_driver.py")
driver = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(driver)

FILES = sorted((HERE / "transcripts").glob("*.transcript"))
COMPLETE = [p for p in FILES if not p.stem.startswith("scenario_")]
SCENARIOS = [p for p in FILES if p.stem.startswith("scenario_")]

# Rulebook: rail tokens in a city score 0/2/4/8 by its stations; reference: VP per card.
CITY_BONUS = {0: 0, 1: 2, 2: 4, 3: 8}
CARD_VP = {"apartment": 1, "tower": 2, "skyscraper": 4}
RAILS_PER_VP_MAGNATE = 4
RAILS_PER_PLAYER, STATIONS, EMPTY_PILES_TO_END = 20, 30, 4


def _expected(state: dict) -> list[tuple[str, int, int]]:
    """(player, score, rank) by the rulebook: most VP, then most rails on the board, then shared."""
    gmap = MAPS[state["map"]]
    rows = []
    for seat, name in enumerate(state["names"]):
        mine = [h for h, seats in state["rails"].items() if seat in seats]
        score = sum(CITY_BONUS[state["stations"].get(h, 0)] for h in mine if h in gmap.cities)
        score += sum(gmap.remotes[h].value for h in mine if h in gmap.remotes)
        player = state["players"][seat]
        cards = [c for zone in ("deck", "hand", "discard", "play", "gained") for c in player[zone]]
        score += sum(CARD_VP.get(c, 0) for c in cards)
        score += cards.count("rail-magnate") * (len(mine) // RAILS_PER_VP_MAGNATE)
        score += player["track_vp"]
        rows.append((name, score, len(mine), player["resigned"]))
    order = sorted(rows, key=lambda r: (r[3], -r[1], -r[2]))
    ranked = []
    for i, row in enumerate(order):
        same = i and (order[i - 1][1:]) == row[1:]
        ranked.append((row[0], row[1], ranked[-1][2] if same else i + 1))
    return ranked


def _end_condition(state: dict) -> bool:
    empty = sum(1 for pile in state["piles"] if state["supply"][pile] == 0)
    rails_out = any(
        sum(1 for seats in state["rails"].values() if s in seats) == RAILS_PER_PLAYER
        for s in range(len(state["names"]))
    )
    stations = sum(state["stations"].values())
    return empty >= EMPTY_PILES_TO_END or rails_out or stations == STATIONS


def test_there_are_complete_games_and_scenarios():
    assert len(COMPLETE) >= 4 and len(SCENARIOS) >= 5


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_transcript_replays_to_its_standings(path):
    state, expected = driver.replay(path)
    assert expected is not None
    assert driver.standings_line(state) == expected
    ranked = _expected(state)
    assert " ".join(f"{name}={score}" for name, score, _ in ranked) == expected
    engine = [(row["player"], row["score"], row["rank"]) for row in driver.GAME.standings(state)]
    assert engine == ranked
    in_progress = "# expect (game in progress):" in path.read_text()
    assert (state["phase"] == "over") != in_progress


@pytest.mark.parametrize("path", COMPLETE, ids=[p.stem for p in COMPLETE])
def test_complete_games_end_at_the_end_of_the_triggering_turn(path):
    seen: list[str] = []

    def check(before: dict, after: dict) -> None:
        turn_ended = after["turn_number"] != before["turn_number"] or after["phase"] == "over"
        if after["phase"] == "over":
            # Over only when a turn ended with a condition holding...
            assert _end_condition(after)
        elif turn_ended and before["phase"] == "play":
            # ...and never played on past a turn end that met one.
            assert not _end_condition(after)
        elif _end_condition(after):
            seen.append("met mid-turn, game goes on")

    state, _ = driver.replay(path, check)
    assert state["phase"] == "over"
    assert seen  # each generated game meets its condition before the last /trains end


def test_tie_scenarios_rank_by_rails_then_share():
    shared, _ = driver.replay(HERE / "transcripts" / "scenario_tie_shared.transcript")
    assert [(r["player"], r["rank"]) for r in driver.GAME.standings(shared)] == [("ann", 1), ("cat", 1), ("bob", 3)]
    broken, _ = driver.replay(HERE / "transcripts" / "scenario_tie_broken_by_rails.transcript")
    assert [(r["player"], r["rank"]) for r in driver.GAME.standings(broken)] == [("ann", 1), ("cat", 2), ("bob", 3)]


def test_complete_games_include_both_kinds_of_tie():
    ranks = []
    for path in COMPLETE:
        state, _ = driver.replay(path)
        rows = driver.GAME.standings(state)
        if rows[0]["score"] == rows[1]["score"]:
            ranks.append(rows[1]["rank"])
    assert 1 in ranks and 2 in ranks  # a shared win and a tie broken by rails on the board


def test_each_end_condition_has_a_complete_game():
    reasons = " ".join(r for p in COMPLETE for r in driver.replay(p)[0]["end_reasons"])
    assert "supply piles are empty" in reasons
    assert "placed all their rails" in reasons
    assert "all stations are on the board" in reasons


def test_rejected_lines_are_enforced(tmp_path):
    source = FILES[0].read_text().splitlines()
    first_move = next(i for i, line in enumerate(source) if line.startswith(("ann:", "bob:")))
    broken = source[:first_move] + ["!" + source[first_move]] + source[first_move + 1 :]
    path = tmp_path / "broken.transcript"
    path.write_text("\n".join(broken))
    with pytest.raises(AssertionError, match="should have been rejected"):
        driver.replay(path)
