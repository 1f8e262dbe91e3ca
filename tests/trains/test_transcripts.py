"""Replay the complete-game transcripts and check their standings lines."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

HERE = Path(__file__).parent
_spec = importlib.util.spec_from_file_location("trains_transcript_driver", HERE / "transcript_driver.py")
driver = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(driver)

FILES = sorted((HERE / "transcripts").glob("*.transcript"))


def test_there_are_complete_game_transcripts():
    assert len(FILES) >= 2


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_transcript_replays_to_its_standings(path):
    state, expected = driver.replay(path)
    assert state["phase"] == "over"
    assert expected is not None
    assert driver.standings_line(state) == expected


def test_rejected_lines_are_enforced(tmp_path):
    source = FILES[0].read_text().splitlines()
    first_move = next(i for i, line in enumerate(source) if line.startswith(("ann:", "bob:")))
    broken = source[:first_move] + ["!" + source[first_move]] + source[first_move + 1:]
    path = tmp_path / "broken.transcript"
    path.write_text("\n".join(broken))
    with pytest.raises(AssertionError, match="should have been rejected"):
        driver.replay(path)
