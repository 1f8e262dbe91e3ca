"""Issue 12, console and command line: moderators for `run`, finding `.env`, saying which database
opened, `check` on a missing database, `replay --render DIR`, and the console's private lines."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from bot.console import clean_out, run_console
from bot.core import Conductor
from storage import Store

ROOT = Path(__file__).resolve().parents[2]
SOLO = ROOT / "tests" / "tiny_towns" / "transcripts" / "solo.transcript"


def conductor(*args: str, cwd: Path, stdin: str = "", env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_PATH", "CONDUCTOR_HOME")}
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**clean, **(env or {})},
        timeout=120,
    )


def test_run_without_a_token_takes_two_moderators(tmp_path: Path) -> None:
    script = "ann: /game new tiny-towns buildings=first-game\nbob: /game join\nann: /game start\nbob: /mod pause\n"
    script += "cat: /mod pause off\nann: /mod pause off\n"
    done = conductor("run", "--moderator", "ann,bob", cwd=tmp_path, stdin=script)
    assert done.returncode == 0, done.stderr
    assert "bob paused the game" in done.stdout
    assert "[error, only cat sees this] Only moderators" in done.stdout
    assert "ann resumed the game" in done.stdout


def test_env_is_found_here_or_by_env_file_or_conductor_home_and_the_database_is_named(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / ".env").write_text("DATABASE_PATH=games.db\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    by_home = conductor("console", cwd=elsewhere, env={"CONDUCTOR_HOME": str(home)})
    assert by_home.returncode == 0 and f"Database: {home / 'games.db'}" in by_home.stdout
    assert (home / "games.db").exists() and not (elsewhere / "games.db").exists()
    by_flag = conductor("--env-file", str(home / ".env"), "check", cwd=elsewhere)
    assert by_flag.returncode == 0 and f"Database: {home / 'games.db'}" in by_flag.stdout
    here = conductor("check", cwd=home)
    assert here.returncode == 0 and "games.db" in here.stdout and "settings from .env" in here.stdout


def test_check_on_a_missing_database_says_so_and_creates_nothing(tmp_path: Path) -> None:
    done = conductor("check", cwd=tmp_path, env={"DATABASE_PATH": str(tmp_path / "nothing.db")})
    assert done.returncode == 2 and "no such file" in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "nothing.db").exists()


def test_replay_render_writes_the_images_and_a_missing_file_is_one_line(tmp_path: Path) -> None:
    out = tmp_path / "boards"
    done = conductor("replay", str(SOLO), "--render", str(out), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    images = sorted(out.glob("*.png"))
    assert images and all(p.read_bytes().startswith(b"\x89PNG") for p in images)
    assert f"{len(images)} images written" in done.stdout
    missing = conductor("replay", "nope.transcript", cwd=tmp_path)
    assert missing.returncode == 1 and missing.stderr.strip() == "nope.transcript: no such file"
    unverified = conductor("verify", "nope.transcript", cwd=tmp_path)
    assert unverified.returncode == 1 and len(unverified.stderr.strip().splitlines()) == 1
    assert "Traceback" not in missing.stderr + unverified.stderr


async def test_console_labels_private_lines_and_orders_them_before_the_next_banner(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "console.db")
    try:
        host = Conductor(store, render_images=False, seed_source=lambda: 42)
        script = "ann: /game new trains map=tokyo\nbob: /game join\nann: /game start\nmod: /mod skip\nmod: /mod skip\n"
        await run_console(host, {"mod"}, stdin=io.StringIO(script), stdout=io.StringIO(), out_dir=tmp_path)
        row = await store.open_game("console", "console")
        assert row is not None and row.state is not None
        player = ("ann", "bob")[row.state["current"]]
        out = io.StringIO()
        await run_console(host, set(), stdin=io.StringIO(f"{player}: /trains end\n"), stdout=out, out_dir=tmp_path)
        lines = out.getvalue().splitlines()
        private = next(i for i, line in enumerate(lines) if line.startswith(f"[only {player} sees this]"))
        banner = next(i for i, line in enumerate(lines) if line.startswith("**"))
        assert "You drew" in lines[private] or "hand" in lines[private].lower()
        assert private < banner
    finally:
        await store.close()


async def test_console_clean_out_removes_images_of_games_that_are_over(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "clean.db")
    try:
        host = Conductor(store, seed_source=lambda: 42)
        out = tmp_path / "out"
        script = "ann: /game new tiny-towns buildings=first-game\nbob: /game join\nann: /game start\nmod: /mod abort\n"
        script += "ann: /game new tiny-towns buildings=first-game\nbob: /game join\nann: /game start\n"
        await run_console(host, {"mod"}, stdin=io.StringIO(script), stdout=io.StringIO(), out_dir=out)
        before = sorted(p.name for p in out.glob("*.png"))
        assert any(name.startswith("tiny-towns-1-") for name in before)
        assert any(name.startswith("tiny-towns-2-") for name in before)
        removed = await clean_out(store, out)
        after = sorted(p.name for p in out.glob("*.png"))
        assert removed and all(not name.startswith("tiny-towns-1-") for name in after)
        assert any(name.startswith("tiny-towns-2-") for name in after)
    finally:
        await store.close()
    done = conductor("console", "--clean-out", cwd=tmp_path, env={"DATABASE_PATH": str(tmp_path / "clean.db")})
    assert done.returncode == 0 and "Removed 0 images" in done.stdout


async def test_transcripts_accept_the_mod_texts_and_the_old_game_ones() -> None:
    from bot.transcript import parse_transcript, replay

    text = "\n".join(
        [
            "game: tiny-towns",
            "seed: 42",
            "players: ann, bob",
            "moderators: mod",
            "options: buildings=first-game",
            "ann: /tt announce wood",
            "mod: /mod skip bob",
            "mod: /game skip ann",
            "!ann: /mod kick bob",
            "mod: /mod kick bob",
            "ann: /game resign confirm",
        ]
    )
    result = await replay(parse_transcript(text))
    assert result.status == "finished" and result.moves >= 4
