"""The start-up post lease: an announcement claimed for posting stays stored until it is posted, and a
claim older than the lease is taken again, so a process killed between its claim and its post loses
nothing, and each announcement is posted once. On SQLite and PostgreSQL."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from bot.settings import SettingsError, load_settings
from storage import Announcement, Store, open_store

WORKER = str(Path(__file__).with_name("outbox_worker.py"))
CHANNELS = 6


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_a_claim_leases_an_announcement_until_it_is_posted_or_its_lease_runs_out(store_target: str):
    clock = Clock()
    store = await open_store(store_target, clock=clock)
    try:
        game = await store.create_game("g", "c", "tiny-towns", "1", "ann", {}, "1")
        game, first = await store.commit(game, announce=Announcement("first", [], False))
        game, second = await store.commit(game, announce=Announcement("second", ["2"], True))

        taken = await store.claim_announcements(claimer="one", lease=60.0)
        assert [(r.id, r.announcement.text) for r in taken] == [(first, "first"), (second, "second")]
        # Still stored (not posted yet), stamped with who claimed it and when.
        assert [r.id for r in await store.pending_announcements()] == [first, second]
        stamps = await store._all("SELECT claimed_by, claimed_at FROM outbox ORDER BY id")
        assert [tuple(r) for r in stamps] == [("one", 1000.0), ("one", 1000.0)]

        clock.now += 59.0  # within the lease: nobody else takes them
        assert await store.claim_announcements(claimer="two", lease=60.0) == []
        game, third = await store.commit(game, announce=Announcement("third", [], False))
        assert [r.id for r in await store.claim_announcements(claimer="two", lease=60.0)] == [third]

        clock.now += 1.0  # the first claim ran out: "one" died before posting
        retaken = await store.claim_announcements(claimer="three", lease=60.0)
        assert [r.announcement for r in retaken] == [
            Announcement("first", [], False),
            Announcement("second", ["2"], True),
        ]
        await store.mark_announced(second)  # posted: it and the older one of its game are gone
        assert [r.id for r in await store.pending_announcements()] == [third]
        clock.now += 1000.0  # a claimer never takes back its own claim (it may still be posting it) ...
        assert await store.claim_announcements(claimer="two", lease=60.0) == []
        # ... anyone else does, once it is older than the lease.
        assert [r.id for r in await store.claim_announcements(claimer="four", lease=60.0)] == [third]
    finally:
        await store.close()


def _worker(*args: str) -> tuple[int, list[str]]:
    done = subprocess.run([sys.executable, WORKER, *args], capture_output=True, text=True, timeout=300)
    assert done.returncode in (0, 70), (done.returncode, done.stdout, done.stderr)
    return done.returncode, done.stdout.splitlines()


def test_each_announcement_is_posted_once_through_kills_between_claim_and_post(store_target: str, tmp_path):
    """Real processes, ended with os._exit (no cleanup, like SIGKILL) between claiming and posting."""
    target = store_target
    code, _ = _worker(target, "setup", str(CHANNELS))
    assert code == 0
    posts: list[str] = []

    def start(lease: float, kill_after: int) -> tuple[int, int]:
        code, lines = _worker(target, "post", str(lease), str(kill_after))
        (claimed,) = [int(line.split()[1]) for line in lines if line.startswith("claimed ")]
        posts.extend(line for line in lines if line.startswith("post "))
        assert (code == 0) == ("done" in lines)
        return code, claimed

    # Killed between its claim and its first post: every announcement is claimed, none posted ...
    assert start(lease=3600.0, kill_after=0) == (70, CHANNELS) and posts == []
    # ... and none lost: a restart within the lease leaves them to the (dead) claimer, ...
    assert start(lease=3600.0, kill_after=-1) == (0, 0)
    # ... a start after the lease takes them all, and is killed after posting two of them; ...
    assert start(lease=0.001, kill_after=2) == (70, CHANNELS) and len(posts) == 2
    assert start(lease=3600.0, kill_after=-1) == (0, 0)
    # ... the next after the lease posts the other four; then nothing is left to post.
    assert start(lease=0.001, kill_after=-1) == (0, CHANNELS - 2)
    assert start(lease=0.001, kill_after=-1) == (0, 0)

    channels = Counter(post.split()[1] for post in posts)
    assert channels == Counter({f"c{n}": 1 for n in range(CHANNELS)})  # every one, exactly once
    resources = {post.split()[1]: post for post in posts}
    for n in range(CHANNELS):
        assert f"ann names {('wood', 'brick', 'glass')[n % 3]}" in resources[f"c{n}"], resources[f"c{n}"]


def test_the_lease_is_a_setting(tmp_path, monkeypatch: pytest.MonkeyPatch):
    env = tmp_path / ".env"
    env.write_text("")
    monkeypatch.delenv("OUTBOX_LEASE_SECONDS", raising=False)
    assert load_settings(str(env)).outbox_lease == 300.0
    monkeypatch.setenv("OUTBOX_LEASE_SECONDS", "45")
    assert load_settings(str(env)).outbox_lease == 45.0
    for bad in ("0", "-3", "soon", "nan"):
        monkeypatch.setenv("OUTBOX_LEASE_SECONDS", bad)
        with pytest.raises(SettingsError, match="OUTBOX_LEASE_SECONDS"):
            load_settings(str(env))


async def test_an_older_database_gains_the_lease_columns(tmp_path):
    """Migration 9 on a database made before it: pending rows keep waiting, unclaimed."""
    import aiosqlite

    from storage.migrate import migrate

    path = tmp_path / "old.db"
    async with aiosqlite.connect(path) as db:
        assert await migrate(db, target=8) == 8
        await db.execute(
            "INSERT INTO games (guild_id, channel_id, game, status, host_id, options, rules_version, version, "
            "created_at, updated_at) VALUES ('g', 'c', 'tiny-towns', 'lobby', '1', '{}', '1', 0, 0, 0)"
        )
        await db.execute(
            "INSERT INTO outbox (game_id, version, text, pings, board, created_at) VALUES (1, 1, 'old', '[]', 0, 0)"
        )
        await db.commit()
    store = await Store.open(path)
    try:
        (row,) = await store.claim_announcements(claimer="new", lease=300.0)
        assert row.announcement.text == "old"
    finally:
        await store.close()
