"""Complete-game transcripts (tests/trolley_town/transcripts/*.transcript), replayed through the host
core (``bot.transcript.replay``) and checked against their ``standings:`` lines.

Every transcript here was written by hand and scored by hand before the engine ran; the working
is in each file's header comment. The tests below also replay each game through the engine alone
to check the hand-worked details (score breakdowns, what is left on the tiles, ranks, titles).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.transcript import TranscriptError, load, parse_transcript, replay
from games.base import IllegalMove
from games.options import parse_options
from games.trolley_town import GAME

DIR = Path(__file__).with_name("transcripts")
FILES = sorted(DIR.glob("*.transcript"))


def engine_replay(path: Path) -> tuple[dict[str, Any], list[str]]:
    """Replay through GAME alone; ``!`` lines must be rejected and leave the state unchanged."""
    transcript = load(path)
    names = list(transcript.players)
    state = GAME.setup(names, parse_options(transcript.options, GAME.options), transcript.seed)
    for line in transcript.lines:
        seat = names.index(line.player)
        if line.expect_reject:
            with pytest.raises(IllegalMove):
                GAME.apply(state, seat, GAME.parse(line.text))
            continue
        state, _ = GAME.apply(state, seat, GAME.parse(line.text))
    return state, names


def _rows(path: Path) -> dict[str, dict[str, Any]]:
    state, _ = engine_replay(path)
    assert state["phase"] == "finished"
    return {row["player"]: row for row in GAME.standings(state)}


def _res(state: dict[str, Any], names: list[str], who: str) -> dict[str, dict[str, int]]:
    town = state["towns"][names.index(who)]
    return {key: dict(cell["r"]) for key, cell in town["cells"].items() if cell.get("r")}


def test_there_are_complete_games_for_one_two_and_four_players() -> None:
    counts = sorted(len(load(p).players) for p in FILES)
    assert len(FILES) >= 3 and {1, 2, 4} <= set(counts)
    assert all(load(p).standings for p in FILES)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
async def test_transcript_replays_through_the_host_to_its_standings(path: Path) -> None:
    transcript = load(path)
    result = await replay(transcript)  # raises TranscriptError on a surprise or wrong standings
    assert result.status == "finished"
    assert [(s["player"], s["score"]) for s in result.standings] == list(transcript.standings or ())
    # every accepted line is one stored move (none of these games has a no-op line)
    assert result.moves == sum(1 for line in transcript.lines if not line.expect_reject)
    assert result.unchanged == 0


async def test_a_wrong_standings_line_is_caught() -> None:
    path = DIR / "two_players_expert_bakery_vs_ranch.transcript"
    text = path.read_text().replace("standings: ann=36 bob=30", "standings: ann=36 bob=31")
    with pytest.raises(TranscriptError, match="bob scored 30, the transcript expects 31"):
        await replay(parse_transcript(text))


def test_solo_hand_worked_details() -> None:
    path = DIR / "solo_wheat_focused.transcript"
    state, names = engine_replay(path)
    (row,) = GAME.standings(state)
    assert (row["score"], row["title"]) == (42, "Rookie")
    assert row["breakdown"] == {"immediate": 0, "production": 0, "construction": 0, "processing": 42, "end": 0}
    assert _res(state, names, "ann") == {"1,0": {"stone": 3}, "0,2": {"coal": 1}}
    # three end-of-round removals of 3 tiles each: 58 - 9 special tiles left in the market
    m = state["market"]
    assert len([t for t in m["row"] if t] + m["a"] + m["b"] + m["v"][0] + m["v"][1]) == 58 - 9


def test_two_player_hand_worked_details() -> None:
    path = DIR / "two_players_expert_bakery_vs_ranch.transcript"
    state, names = engine_replay(path)
    rows = {row["player"]: row for row in GAME.standings(state)}
    assert rows["ann"]["breakdown"]["processing"] == 36 and rows["ann"]["rank"] == 1
    assert rows["bob"]["breakdown"]["end"] == 3 * 8 + 6 and rows["bob"]["rank"] == 2
    assert state["towns"][0]["expert"] is False  # ann dropped the expert rule in round 3
    assert _res(state, names, "ann") == {"1,0": {"stone": 3}, "0,2": {"coal": 1}}
    assert _res(state, names, "bob") == {"0,0": {"wood": 1}, "1,0": {"stone": 2}, "3,0": {"sheep": 8}}


def test_four_player_hand_worked_details() -> None:
    path = DIR / "four_players_rebuild_shared_rank.transcript"
    rows = _rows(path)
    assert [(p, rows[p]["score"], rows[p]["rank"]) for p in ("cat", "ann", "bob", "dan")] == [
        ("cat", 36, 1),
        ("ann", 12, 2),
        ("bob", 12, 2),
        ("dan", 0, 4),
    ]
    assert rows["ann"]["breakdown"]["end"] == 12 and rows["bob"]["breakdown"]["end"] == 12
    state, names = engine_replay(path)
    assert state["market"]["rebuild"] == {"up": True}  # used in round 1, face up again since round 2
    meadows = next(p for p in state["market"]["basic"] if p["tile"] == "meadow")
    assert meadows["left"] == 0  # ann 2, bob 2 (one of them with the Rebuild tile)
