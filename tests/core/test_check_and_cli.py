"""`conductor check`, the console, and the README's promises."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from bot.check import check_store
from bot.console import run_console
from bot.core import Conductor
from storage import Store
from tests.core.conftest import ANN, BOB, CHANNEL, GUILD, say, started_two_player

ROOT = Path(__file__).resolve().parents[2]


async def test_check_finds_tampered_state_and_reports_old_rules_versions(host, store):
    await started_two_player(host)
    await say(host, ANN, "/tt announce wood")
    await say(host, BOB, "/tt place D4")
    await say(host, BOB, "/game new tiny-towns", channel="other")
    assert [f.kind for f in await check_store(store)] == ["ok"]  # the lobby has nothing to check
    row = await store.open_game(GUILD, CHANNEL)
    tampered = dict(row.state, round=99)
    await store.update_game(row.id, row.version, state=tampered)
    assert [f.kind for f in await check_store(store)] == ["mismatch"]
    await store._write("UPDATE games SET rules_version = 'ancient' WHERE id = ?", (row.id,))
    findings = await check_store(store)
    assert [f.kind for f in findings] == ["incompatible"] and "ancient" in findings[0].detail


async def test_check_replays_with_the_names_kept_in_the_state_not_the_seats(host, store):
    """A substitute changes only the seat's displayed name; re-playing uses the names the game has."""
    await started_two_player(host)
    await say(host, ANN, "/tt announce wood")
    await say(host, BOB, "/tt place D4")
    row = await store.open_game(GUILD, CHANNEL)
    assert row.state["names"] == ["ann", "bob"]
    await store._write("UPDATE seats SET display_name = 'zed' WHERE game_id = ? AND seat = 1", (row.id,))
    assert [(f.kind, f.detail) for f in await check_store(store)] == [("ok", "2 moves re-played")]


def test_check_cli_exit_status(tmp_path):
    env = {**os.environ, "DATABASE_PATH": str(tmp_path / "c.db")}
    subprocess.run([sys.executable, "-m", "bot.cli", "console"], input="", cwd=tmp_path, env=env, timeout=60)
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "check"], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60
    )
    assert done.returncode == 0 and "0 problems" in done.stdout


async def test_console_plays_a_channel_and_writes_images(tmp_path):
    store = await Store.open(tmp_path / "console.db")
    host = Conductor(store, seed_source=lambda: 42)
    script = io.StringIO(
        "ann: /game new tiny-towns buildings=first-game\nbob: /game join\nann: /game start\n"
        "ann: /tt announce wood\nbob: /tt place Z9\nnonsense\n"
    )
    out = io.StringIO()
    await run_console(host, set(), stdin=script, stdout=out, out_dir=tmp_path / "out")
    await store.close()
    text = out.getvalue()
    assert "Tiny Towns started with ann, bob." in text
    assert "ann names wood" in text.lower()
    assert "[error, only bob sees this]" in text and "not a square" in text
    images = list((tmp_path / "out").glob("*.png"))
    assert images and all(p.read_bytes().startswith(b"\x89PNG") for p in images)
    assert f"image: {tmp_path / 'out'}" in text


def test_run_without_token_opens_the_console(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["DATABASE_PATH"] = str(tmp_path / "run.db")
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "run"],
        input="ann: /game new tiny-towns\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0
    assert "No DISCORD_TOKEN" in done.stdout and "Tiny Towns lobby" in done.stdout
    assert (tmp_path / "run.db").exists()


def test_readme_starts_with_the_two_commands_and_ci_runs_the_test_one():
    lines = [line.strip() for line in (ROOT / "README.md").read_text().splitlines()]
    commands = [line for line in lines[:20] if line.startswith(("python3 ", "python "))]
    assert len(commands) == 2 and commands[0].endswith("conductor run") and "pytest" in commands[1]
    ci = (ROOT / ".ci" / "run").read_text()
    assert commands[1] in ci
    example = (ROOT / ".env.example").read_text()
    for key in ("DISCORD_TOKEN", "DATABASE_PATH", "LOG_LEVEL", "DISCORD_API_BASE"):
        assert f"{key}=" in example
