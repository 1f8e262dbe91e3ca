"""Crash, concurrency and fuzzing: the game is never corrupted and refusals change nothing."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot import replies as R
from bot.check import check_store
from bot.core import Conductor
from bot.replies import Actor
from storage import Store, open_store
from storage.db import dumps
from tests.core.conftest import ANN, BOB, CHANNEL, GUILD, memory_store, say, snapshot

ROOT = Path(__file__).resolve().parents[2]


def test_sigkill_mid_burst_loses_no_acknowledged_move(tmp_path):
    db = tmp_path / "crash.db"
    worker = subprocess.Popen(
        [sys.executable, str(Path(__file__).with_name("crash_worker.py")), str(db)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert worker.stdout is not None
    acked = 0
    for line in worker.stdout:
        if line.startswith("ack ") and line.split()[3] == "c":
            acked = int(line.split()[2])  # the version of channel c's game the reply acknowledged
            if acked >= 25:
                break
    worker.send_signal(signal.SIGKILL)
    worker.wait(timeout=30)
    assert acked >= 25

    async def verify() -> None:
        store = await Store.open(db)
        try:
            row = await store.latest_game("g", "c")
            assert row is not None and row.version >= acked  # every acknowledged move survived
            moves = await store.moves(row.id)
            findings = await check_store(store)  # stored state == seed + move log: nothing half-applied
            assert all(f.kind == "ok" for f in findings), findings
            assert len(moves) > 0
        finally:
            await store.close()

    asyncio.run(verify())


async def _snapshot_all(store: Store) -> tuple[object, ...]:
    """Everything a command writes, without timestamps, salts and commitments (random per run)."""
    games_now = []
    for row in await store.all_games():
        found = await store.table_by_id(row.id)
        assert found is not None
        moves = await store.moves(row.id, include_reverted=True)
        games_now.append(
            (
                row.channel_id,
                row.status,
                row.version,
                dumps(row.state),
                tuple((s.seat, s.user_id, s.display_name, s.kind) for s in found.seats),
                tuple((m.seq, m.seat, m.user_id, m.text, m.irreversible, m.reverted) for m in moves),
                dumps(found.notes),
            )
        )
    return tuple(games_now)


async def _reference_snapshots(path: Path) -> list[tuple[object, ...]]:
    """The database after each command of the crash worker's script, played without a crash."""
    from tests.core.crash_worker import LEGAL, SCRIPT

    store = await Store.open(path)
    host = Conductor(store, render_images=False, seed_source=lambda: 5)
    snapshots = [await _snapshot_all(store)]
    for channel, actor, text in SCRIPT:
        if text == LEGAL:
            text = (await host.legal_commands("g", channel, actor.user_id))[0]
        assert (await host.handle("g", channel, actor, text)).ok
        snapshots.append(await _snapshot_all(store))
    await store.close()
    return snapshots


def _crash_run(path: Path, boundary: str, nth: int) -> tuple[int, bool]:
    """Run the worker until it ends itself at the ``nth`` ``boundary``: (commands acknowledged, crashed)."""
    done = subprocess.run(
        [sys.executable, str(Path(__file__).with_name("crash_worker.py")), str(path), boundary, str(nth)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=300,
    )
    lines = done.stdout.split()
    assert "refused" not in lines, done.stdout
    crashed = done.returncode == 70
    assert crashed or (done.returncode == 0 and "done" in lines), (done.returncode, done.stdout, done.stderr)
    return done.stdout.count("ack "), crashed


def test_a_crash_at_every_commit_boundary_keeps_every_acknowledged_change_and_nothing_half_written(tmp_path):
    """The worker ends itself (os._exit, like SIGKILL) at a chosen commit boundary of a chosen write
    transaction: after BEGIN, after a statement, just before COMMIT, just after COMMIT (before the
    reply). Afterwards the database equals the script's state after the acknowledged commands, or
    after one more (committed, not yet acknowledged): never anything in between, and `conductor
    check` finds every game consistent. A change split over two transactions fails here."""
    reference = asyncio.run(_reference_snapshots(tmp_path / "reference.db"))
    commits = len(reference) - 1 - 3  # three of the script's commands open a game (create_game)
    runs = [(f"commit:{point}", n) for point in ("before_commit", "after_commit") for n in range(1, commits + 1)]
    runs += [("commit:after_begin", 6), ("commit:statement", 2), ("commit:statement", 17), ("commit:statement", 33)]
    runs += [("create_game:statement", 1), ("create_game:after_commit", 2)]

    def one(case: tuple[int, tuple[str, int]]) -> tuple[str, int, bool]:
        index, (boundary, nth) = case
        path = tmp_path / f"crash{index}.db"
        acked, crashed = _crash_run(path, boundary, nth)

        async def verify() -> None:
            store = await Store.open(path)
            try:
                now = await _snapshot_all(store)
                allowed = reference[acked : acked + 2]
                assert now in allowed, (boundary, nth, acked, now, allowed)
                findings = await check_store(store)
                assert all(f.kind == "ok" for f in findings), (boundary, nth, findings)
            finally:
                await store.close()

        asyncio.run(verify())
        return boundary, nth, crashed

    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(one, enumerate(runs)))
    crashed = {(boundary, nth) for boundary, nth, did in results if did}
    # Every before/after COMMIT boundary of the script's commits was reached (and crashed at).
    assert all((f"commit:{p}", n) in crashed for p in ("before_commit", "after_commit") for n in range(1, commits + 1))
    assert len(crashed) == len(runs)


async def test_simultaneous_clicks_on_one_version_apply_once(store_target: str):
    path = store_target
    first = Conductor(await open_store(path), render_images=False, seed_source=lambda: 3)
    await say(first, ANN, "/game new tiny-towns buildings=first-game")
    await say(first, BOB, "/game join")
    await say(first, ANN, "/game start")
    # separate processes are modelled by separate connections, each with its own in-process lock
    hosts = [first] + [Conductor(await open_store(path), render_images=False) for _ in range(7)]
    resources = ["wood", "wheat", "brick", "glass", "stone", "wood", "wheat", "brick"]
    replies = await asyncio.gather(
        *(h.handle(GUILD, CHANNEL, ANN, f"/tt announce {r}") for h, r in zip(hosts, resources, strict=True))
    )
    assert sum(r.ok for r in replies) == 1
    for reply in replies:
        if not reply.ok:
            assert reply.error in (R.ILLEGAL, R.NOT_YOUR_TURN, R.STALE) and reply.private
    row = await first.store.open_game(GUILD, CHANNEL)
    assert len(await first.store.moves(row.id)) == 1
    # everybody placing at the same time: all are re-validated and applied in order
    players = [Actor(str(i), f"p{i}") for i in range(4)]
    await say(first, players[0], "/game new tiny-towns buildings=first-game", channel="c2")
    for p in players[1:]:
        await say(first, p, "/game join", channel="c2")
    await say(first, players[0], "/game start", channel="c2")
    await say(first, players[0], "/tt announce stone", channel="c2")
    placed = await asyncio.gather(*(hosts[i + 1].handle(GUILD, "c2", p, "/tt place C3") for i, p in enumerate(players)))
    assert all(r.ok for r in placed), [r.private for r in placed]
    row = await first.store.open_game(GUILD, "c2")
    assert [m.seat for m in await first.store.moves(row.id)].count(0) >= 2
    assert [f.kind for f in await check_store(first.store)] == ["ok", "ok"]
    for h in hosts:
        await h.store.close()


WORDS = [
    "/tt",
    "/game",
    "/trains",
    "place",
    "build",
    "announce",
    "store",
    "cave",
    "monument",
    "done",
    "A1",
    "B2",
    "D4",
    "E5",
    "Z9",
    "wood",
    "stone",
    "cottage",
    "farm",
    "at",
    "with",
    "swap",
    "to",
    "undo",
    "join",
    "start",
    "kick",
    "ann",
    "bob",
    "-1",
    "0",
    "99",
    "seed=x",
    "",
    "é",
    "<@1>",
    "tiny-towns",
    "new",
    "abort",
    "skip",
]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    commands=st.lists(
        st.tuples(
            st.sampled_from([ANN, BOB, Actor("5", "eve")]),
            st.one_of(st.lists(st.sampled_from(WORDS), max_size=7).map(" ".join), st.text(max_size=30)),
        ),
        min_size=1,
        max_size=25,
    )
)
def test_random_command_strings_never_crash_and_refusals_change_nothing(commands):
    async def run() -> None:
        async with memory_store() as store:
            host = Conductor(store, render_images=False, seed_source=lambda: 11)
            await say(host, ANN, "/game new tiny-towns buildings=first-game")
            await say(host, BOB, "/game join")
            await say(host, ANN, "/game start")
            for actor, text in commands:
                before = await snapshot(store) if await store.open_game(GUILD, CHANNEL) else None
                reply = await host.handle(GUILD, CHANNEL, actor, text)
                if not reply.ok and before is not None:
                    assert await snapshot(store) == before, (text, reply.private)
                    assert reply.private

    asyncio.run(run())


MAX_LEGAL = 600  # far beyond a whole two-player game: reaching it means the game never ended
MAX_REFUSED = 40  # refused commands per game (unbounded, shrinking would make every draw a refusal)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_legal_and_illegal_move_sequences_keep_state_consistent_to_the_end(data):
    """Engine-listed legal moves (every one must be accepted) mixed with out-of-range placements
    (refused, changing nothing), played until the game ends; then the log replays to the stored
    state and holds exactly the accepted moves."""
    import games

    spec = games.get_game("tiny-towns")

    async def run() -> None:
        async with memory_store() as store:
            host = Conductor(store, render_images=False, seed_source=lambda: 13)
            await say(host, ANN, "/game new tiny-towns buildings=first-game")
            await say(host, BOB, "/game join")
            await say(host, ANN, "/game start")
            actors = [ANN, BOB]
            accepted = refused = 0
            while accepted < MAX_LEGAL:
                row = await store.latest_game(GUILD, CHANNEL)
                assert row is not None and row.state is not None
                if row.status == "finished":
                    break
                seat = data.draw(st.sampled_from(spec.status(row.state).to_act), label="seat")
                # five legal moves to one refusal, while refusals are left
                legal = refused >= MAX_REFUSED or data.draw(st.integers(0, 5), label="legal?") > 0
                if legal:
                    moves = spec.legal_moves(row.state, seat)
                    assert moves, (seat, row.state["phase"])  # whoever is to act has a move
                    text = spec.format(moves[data.draw(st.integers(0, len(moves) - 1), label="move")])
                else:
                    text = data.draw(st.sampled_from(["/tt place E1", "/tt place A0", "/tt place A5", "/tt build x"]))
                before = await snapshot(store)
                reply = await host.handle(GUILD, CHANNEL, actors[seat], text)
                if legal:
                    assert reply.ok, (text, reply.private)
                    accepted += 1
                else:
                    assert not reply.ok and reply.private and await snapshot(store) == before, (text, reply.private)
                    refused += 1
            else:
                raise AssertionError(f"the game did not end within {MAX_LEGAL} legal moves")
            findings = await check_store(store)
            assert findings and all(f.kind == "ok" for f in findings), findings
            row = await store.latest_game(GUILD, CHANNEL)
            assert row is not None and row.status == "finished" and spec.status(row.state).finished
            assert len(await store.moves(row.id)) == accepted

    asyncio.run(run())


TRAINS_WORDS = [
    "/trains",
    "/game",
    "start",
    "play",
    "buy",
    "pass",
    "end",
    "lay-rails",
    "station-expansion",
    "normal-train",
    "express-train",
    "waste",
    "E5",
    "H6",
    "A1",
    "Z99",
    "top",
    "then",
    "money",
    "skip",
    "undo",
    "hand",
    "3",
    "-",
]


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    commands=st.lists(
        st.tuples(
            st.sampled_from([ANN, BOB]), st.lists(st.sampled_from(TRAINS_WORDS), min_size=1, max_size=6).map(" ".join)
        ),
        min_size=1,
        max_size=40,
    )
)
def test_random_trains_commands_never_crash_and_refusals_change_nothing(commands):
    async def run() -> None:
        async with memory_store() as store:
            host = Conductor(store, render_images=False, seed_source=lambda: 17)
            await say(host, ANN, "/game new trains")
            await say(host, BOB, "/game join")
            await say(host, ANN, "/game start")
            for actor, text in commands:
                before = await snapshot(store)
                reply = await host.handle(GUILD, CHANNEL, actor, text)
                if not reply.ok:
                    assert reply.private and await snapshot(store) == before, (text, reply.private)
            assert all(f.kind == "ok" for f in await check_store(store))

    asyncio.run(run())
