"""A server that survives bad data (issue 9, item 8).

A database that cannot be opened gives one line on stderr and a non-zero exit at once from
`conductor run`, `conductor console` and `conductor check`; a game row that cannot be decoded or
whose engine fails is reported by `conductor check`, which goes on with the other games.
"""

from __future__ import annotations

import asyncio
import ctypes
import dataclasses
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import games
from bot.check import check_store
from bot.core import Conductor
from storage import Store, StoreError
from tests.core.conftest import ANN, BOB, GUILD, say, started_two_player

ROOT = Path(__file__).resolve().parents[2]
PROMPT_SECONDS = 20  # "at once": far below this, but a loaded CI machine must not fail the test


# ----- databases that cannot be opened ------------------------------------------------------


async def _played(path: Path, channels: int = 3) -> None:
    """A real database with a few started games, its WAL folded into the file."""
    store = await Store.open(path)
    host = Conductor(store, render_images=False, seed_source=lambda: 42)
    for n in range(channels):
        channel = f"c{n}"
        await say(host, ANN, "/game new tiny-towns buildings=first-game", channel=channel)
        await say(host, BOB, "/game join", channel=channel)
        await say(host, ANN, "/game start", channel=channel)
        await say(host, ANN, "/tt announce wood", channel=channel)
    await store.close()


def _not_sqlite(folder: Path) -> Path:
    path = folder / "notes.db"
    path.write_text("These are my notes, not a database.\n" * 200)
    return path


def _truncated(folder: Path) -> Path:
    path = folder / "truncated.db"
    asyncio.run(_played(path))
    data = path.read_bytes()
    assert len(data) > 8192 and not Path(f"{path}-wal").exists()
    path.write_bytes(data[: len(data) // 2])
    return path


def _directory(folder: Path) -> Path:
    path = folder / "conductor.db"
    path.mkdir()
    return path


def _read_only_folder(folder: Path) -> Path:
    data = folder / "data"
    data.mkdir()
    path = data / "conductor.db"
    asyncio.run(_played(path, channels=1))
    data.chmod(0o555)
    return path


def _read_only_folder_new_file(folder: Path) -> Path:
    data = folder / "data"
    data.mkdir()
    data.chmod(0o555)
    return data / "conductor.db"


BAD_DATABASES: dict[str, Callable[[Path], Path]] = {
    "not-sqlite": _not_sqlite,
    "truncated": _truncated,
    "directory": _directory,
    "read-only-folder": _read_only_folder,
    "read-only-folder-new-file": _read_only_folder_new_file,
}


def _drop_root_file_override() -> None:
    """In the child, before exec: root loses the capabilities that ignore file permissions, so a
    read-only folder is read-only for it too (PR_CAPBSET_DROP of CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH)."""
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2):
        if libc.prctl(24, capability, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP) failed")


def _as_unprivileged() -> dict[str, Any]:
    return {"preexec_fn": _drop_root_file_override} if os.geteuid() == 0 else {}


def _require_read_only(folder: Path) -> None:
    """The folder must really be read-only for the child (never a silent pass: a test that cannot
    set up its case fails)."""
    probe = subprocess.run(
        [sys.executable, "-c", f"open({str(folder / 'probe')!r}, 'w')"],
        capture_output=True,
        timeout=PROMPT_SECONDS,
        **_as_unprivileged(),
    )
    assert probe.returncode != 0, "cannot make a folder read-only here (root without a way to drop CAP_DAC_OVERRIDE)"


@pytest.fixture
def workdir(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path
    for folder in tmp_path.rglob("*"):  # let pytest clean up read-only folders
        if folder.is_dir():
            folder.chmod(0o755)


def _conductor(
    verbs: list[str], database: Path, cwd: Path, **env_changes: str
) -> list[subprocess.CompletedProcess[str]]:
    """Run ``conductor VERB`` for each verb at once; every one must have exited by the deadline."""
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env.update(DATABASE_PATH=str(database), PYTHONPATH=str(ROOT), **env_changes)
    children = [
        subprocess.Popen(
            [sys.executable, "-m", "bot.cli", verb],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=cwd,
            env=env,
            **_as_unprivileged(),
        )
        for verb in verbs
    ]
    deadline = time.monotonic() + PROMPT_SECONDS
    done = []
    try:
        for child in children:
            # The old code hung for ever here: TimeoutExpired fails the test.
            out, err = child.communicate("ann: /game new tiny-towns\n", timeout=max(0.1, deadline - time.monotonic()))
            done.append(subprocess.CompletedProcess(child.args, child.returncode, out, err))
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
                child.communicate()
    return done


def _assert_one_line_error(done: subprocess.CompletedProcess[str], database: Path) -> None:
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode not in (0, None), done
    assert "Traceback" not in done.stderr, done.stderr
    assert len(lines) == 1, done.stderr
    assert "cannot open the database" in lines[0] and str(database) in lines[0], lines[0]


@pytest.mark.parametrize("kind", sorted(BAD_DATABASES))
def test_a_database_that_cannot_be_opened_is_one_line_and_an_exit(workdir: Path, kind: str) -> None:
    database = BAD_DATABASES[kind](workdir)
    if kind.startswith("read-only"):
        _require_read_only(database.parent)
    for done in _conductor(["check", "run", "console"], database, workdir):
        _assert_one_line_error(done, database)


def test_run_with_a_token_reports_the_database_before_connecting(workdir: Path) -> None:
    database = _not_sqlite(workdir)
    # Nothing listens there: reaching Discord first would be a different (network) failure.
    [done] = _conductor(
        ["run"], database, workdir, DISCORD_TOKEN="x.y.z", DISCORD_API_BASE="http://127.0.0.1:9/api/v10"
    )
    _assert_one_line_error(done, database)


async def test_store_open_raises_store_error_and_leaves_no_thread_behind(tmp_path: Path) -> None:
    before = threading.active_count()
    for make in (_not_sqlite, _directory):
        database = make(tmp_path)
        with pytest.raises(StoreError, match="cannot open the database") as caught:
            await Store.open(database)
        assert "\n" not in str(caught.value)
    # aiosqlite's worker threads are not daemons: one left running keeps the process alive.
    deadline = time.monotonic() + 5
    while threading.active_count() > before and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    assert threading.active_count() == before


# ----- games that cannot be decoded or re-played --------------------------------------------


async def _three_games(host: Conductor) -> list[int]:
    """Started games in channels c1 (healthy), a and b, each with two moves; their ids in order."""
    await started_two_player(host)
    ids = []
    for channel in ("c1", "a", "b"):
        if channel != "c1":
            await say(host, ANN, "/game new tiny-towns buildings=first-game", channel=channel)
            await say(host, BOB, "/game join", channel=channel)
            await say(host, ANN, "/game start", channel=channel)
        await say(host, ANN, "/tt announce wood", channel=channel)
        await say(host, BOB, "/tt place D4", channel=channel)
        row = await host.store.open_game(GUILD, channel)
        assert row is not None
        ids.append(row.id)
    return ids


async def test_check_reports_a_corrupt_row_and_a_missing_engine_and_checks_the_rest(host: Conductor, store: Store):
    healthy, corrupt, missing = await _three_games(host)
    await store._write("UPDATE games SET state = '{\"round\": 3,' WHERE id = ?", (corrupt,))
    await store._write("UPDATE games SET game = 'long-gone' WHERE id = ?", (missing,))
    findings = {f.game_id: f for f in await check_store(store)}
    assert findings[healthy].kind == "ok"
    assert findings[corrupt].kind == "damaged" and "state cannot be decoded" in findings[corrupt].detail
    assert findings[missing].kind == "unknown-game" and "long-gone" in findings[missing].detail


async def test_check_reports_an_engine_that_fails_while_replaying_and_goes_on(
    host: Conductor, store: Store, monkeypatch: pytest.MonkeyPatch
):
    healthy, broken, other = await _three_games(host)
    real_get_game = games.get_game
    tiny_towns = real_get_game("tiny-towns")

    def apply(state: Any, seat: int, move: Any) -> Any:
        raise KeyError("tiles")

    crashing = dataclasses.replace(tiny_towns, slug="crashing", apply=apply)
    monkeypatch.setattr(games, "get_game", lambda slug: crashing if slug == "crashing" else real_get_game(slug))
    await store._write("UPDATE games SET game = 'crashing' WHERE id = ?", (broken,))
    findings = {f.game_id: f for f in await check_store(store)}
    assert findings[healthy].kind == findings[other].kind == "ok"
    assert findings[broken].kind == "broken-log" and "KeyError" in findings[broken].detail


def test_check_cli_reports_bad_games_and_checks_the_others(workdir: Path) -> None:
    database = workdir / "c.db"

    async def build() -> list[int]:
        store = await Store.open(database)
        try:
            ids = await _three_games(Conductor(store, render_images=False, seed_source=lambda: 42))
            await store._write("UPDATE games SET state = 'garbage' WHERE id = ?", (ids[1],))
            await store._write("UPDATE games SET game = 'long-gone' WHERE id = ?", (ids[2],))
            return ids
        finally:
            await store.close()

    healthy, corrupt, missing = asyncio.run(build())
    [done] = _conductor(["check"], database, workdir)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done
    out = done.stdout
    assert f"game {healthy}: ok" in out
    assert f"game {corrupt}: damaged" in out and f"game {missing}: unknown-game" in out
    assert "3 games checked, 2 problems" in out
