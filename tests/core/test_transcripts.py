"""Every tests/**/*.transcript replays through the host core with its expected standings."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import games
from bot.core import Conductor
from bot.transcript import TranscriptError, load, parse_transcript, replay
from storage import Store
from tests.core.conftest import ANN, BOB, CHANNEL, GUILD, MOD, say, started_two_player

ROOT = Path(__file__).resolve().parents[2]
TRANSCRIPTS = sorted((ROOT / "tests").rglob("*.transcript"))


def test_there_are_transcripts():
    assert TRANSCRIPTS


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda p: str(p.relative_to(ROOT)))
async def test_transcript_replays(path):
    transcript = load(path)
    result = await replay(transcript)
    if transcript.standings is not None:
        assert result.status == "finished"
        scores = {s["player"]: s["score"] for s in result.standings}
        assert all(scores[name] == score for name, score in transcript.standings)
    # Every accepted line is stored once, except no-ops, which change nothing and are not stored.
    assert result.moves + result.unchanged == sum(1 for line in transcript.lines if not line.expect_reject)


async def test_a_bang_line_that_is_accepted_fails_with_its_line_number():
    text = "game: tiny-towns\nseed: 1\nplayers: ann, bob\noptions: buildings=first-game\n!ann: /tt announce wood\n"
    with pytest.raises(TranscriptError) as info:
        await replay(parse_transcript(text))
    assert info.value.line == 5 and "accepted" in info.value.reason


async def test_a_rejected_line_fails_with_its_line_number_and_reason():
    text = "game: tiny-towns\nseed: 1\nplayers: ann, bob\nann: /tt announce wood\nbob: /tt place Q7\n"
    with pytest.raises(TranscriptError) as info:
        await replay(parse_transcript(text))
    assert info.value.line == 5 and "not a square" in info.value.reason


async def test_wrong_expected_standings_fail():
    path = next(p for p in TRANSCRIPTS if load(p).standings)
    text = path.read_text().replace("standings:", "standings: ", 1)
    lines = text.splitlines()
    idx = next(i for i, line in enumerate(lines) if line.startswith("standings:"))
    name, score = lines[idx].split()[1].split("=")
    lines[idx] = f"standings: {name}={int(score) + 1}"
    with pytest.raises(TranscriptError) as info:
        await replay(parse_transcript("\n".join(lines)))
    assert "expects" in info.value.reason


def test_cli_replay_json_and_exit_status(tmp_path):
    path = next(p for p in TRANSCRIPTS if load(p).standings)
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "replay", str(path), "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert set(data) == {"game", "status", "moves", "standings"}
    assert data["status"] == "finished"
    assert {"player", "score", "rank", "breakdown"} <= set(data["standings"][0])
    expected = load(path).standings
    assert {s["player"]: s["score"] for s in data["standings"]} == dict(expected)
    bad = tmp_path / "bad.transcript"
    bad.write_text("game: tiny-towns\nseed: 1\nplayers: ann\nann: /tt place Z9\n")
    failed = subprocess.run(
        [sys.executable, "-m", "bot.cli", "replay", str(bad)], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert failed.returncode == 1 and "line 4" in failed.stderr


async def test_export_then_replay_gives_the_same_standings(tmp_path):
    store = await Store.open(tmp_path / "export.db")
    host = Conductor(store, render_images=False, seed_source=lambda: 7)
    await started_two_player(host)
    for _ in range(400):  # a moderator's skip plays the bot policy for whoever is stuck
        if await store.open_game(GUILD, CHANNEL) is None:
            break
        assert (await say(host, MOD, "/game skip")).ok
    finished = (await store.all_games())[-1]
    assert finished.status == "finished"
    exported = await say(host, ANN, "/game export")  # still answers about the channel's last game
    assert exported.ok and exported.public == ""
    await store.close()
    spec = games.get_game("tiny-towns")
    result = await replay(parse_transcript(exported.private))
    assert result.status == "finished"
    assert [(s["player"], s["score"], s["rank"]) for s in result.standings] == [
        (s["player"], s["score"], s["rank"]) for s in spec.standings(finished.state)
    ]
    assert "standings:" in exported.private and BOB.name in exported.private


async def test_a_moderator_who_is_not_playing_can_act_in_a_transcript():
    text = (
        "game: tiny-towns\nseed: 1\nplayers: ann, bob\nmoderators: mod\noptions: buildings=first-game\n"
        "ann: /tt announce wood\n!bob: /game kick ann\nmod: /game kick bob\n!eve: /game status\n"
    )
    with pytest.raises(TranscriptError) as info:
        await replay(parse_transcript(text))
    assert info.value.line == 9 and "eve" in info.value.reason
    result = await replay(parse_transcript(text.rsplit("!eve", 1)[0]))
    # bob's kick is logged as his resignation; ann plays on alone until her town is complete
    assert result.moves == 2 and result.status == "active"
    assert [(s["player"], s["rank"]) for s in result.standings] == [("ann", 1), ("bob", 2)]


async def test_a_standings_line_that_leaves_out_a_player_fails():
    """Every player's score is checked: naming only some of them is an error, not a pass."""
    path = next(p for p in TRANSCRIPTS if load(p).standings and len(load(p).standings) > 1)
    kept = load(path).standings[:-1]
    lines = path.read_text().splitlines()
    idx = next(i for i, line in enumerate(lines) if line.startswith("standings:"))
    lines[idx] = "standings: " + " ".join(f"{name}={score}" for name, score in kept)
    with pytest.raises(TranscriptError) as info:
        await replay(parse_transcript("\n".join(lines)))
    assert "leaves out" in info.value.reason and load(path).standings[-1][0] in info.value.reason
