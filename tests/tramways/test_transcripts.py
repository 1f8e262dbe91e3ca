"""Replay the transcripts (hand-worked and bot-played complete games) and check their standings,
re-scored here from the rule numbers rather than with the engine's scoring module."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tramways import transcript_driver as driver

FILES = sorted(Path(__file__).with_name("transcripts").glob("*.transcript"))
# HP lost for stress at the end (reference: 0-2: 0; 3-5: -2; 6-8: -5; 9-11: -9; 12+: -14); $5 = 1 HP.
PENALTY = [(12, 14), (9, 9), (6, 5), (3, 2), (0, 0)]


def _expected(state: dict) -> list[tuple[str, int]]:
    rows = []
    for seat, name in enumerate(state["names"]):
        p = state["players"][seat]
        lost = next(hp for start, hp in PENALTY if p["stress"] >= start)
        score = p["hp"] + p["money"] // 5 - lost
        rows.append((p["resigned"], -score, p["stress"], -p["money"], seat, name, score))
    return [(row[5], row[6]) for row in sorted(rows)]


def test_there_are_hand_worked_and_bot_games():
    assert sum("hand-worked" in p.stem for p in FILES) >= 2 and len(FILES) >= 5


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_transcript_replays_to_its_standings(path):
    state, expected = driver.replay(path)
    assert state["phase"] == "over" and expected is not None
    assert driver.standings_line(state) == expected
    assert " ".join(f"{n}={s}" for n, s in _expected(state)) == expected


def test_hand_worked_tie_goes_to_lower_stress():
    state, _ = driver.replay(Path(__file__).with_name("transcripts") / "duo-hand-worked.transcript")
    table = driver.GAME.standings(state)
    assert [(r["player"], r["score"], r["rank"]) for r in table] == [("ann", -2, 1), ("bob", -2, 2)]
    assert [p["stress"] for p in state["players"]] == [3, 4]
