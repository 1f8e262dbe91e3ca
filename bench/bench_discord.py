"""Command latency through the fake Discord at 1, 20 and 100 concurrent games.

The real bot runs as a subprocess (`python -m bot.cli run`) against tests/discord/fake_discord.py.
Each game is a two-player Tiny Towns playing random legal moves, for a few rounds: announce,
place, place (round end: a board image is posted) and `/game board` (a private rendered image). Latency =
interaction dispatched -> the bot's answer with its content (and image, when there is one)
received by the fake Discord; `ack` = dispatched -> the deferral. The bot's event-loop stall
monitor (CONDUCTOR_STALL_FILE) reports the longest stall.

Two arrival patterns per level:
  paced  players think 0.5-1.5 s (seeded) between commands, so the games' commands interleave
         the way concurrent games do (still far busier than real async play);
  burst  every game fires its next command the moment the previous one is answered: a
         saturation test (all N games render at once).

    python bench/bench_discord.py [--rounds 3] [--levels 1,20,100] [--modes paced,burst]

Prints one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import games  # noqa: E402
from tests.discord.botproc import BotProcess  # noqa: E402
from tests.discord.fake_discord import FakeDiscord, InteractionRecord  # noqa: E402
from tests.discord.helpers import read_game, slash_for  # noqa: E402

SPEC = games.get_game("tiny-towns")
OPTIONS = "buildings=first-game"
PLAYERS = (FakeDiscord.ANN, FakeDiscord.BOB)
ANSWER_TIMEOUT = 30.0  # seconds; an interaction's token lasts 15 minutes, but a deferral must come in 3 s


def _cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of one process (Linux /proc), 0 when it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def bot_cpu(pid: int) -> dict[str, float]:
    """CPU seconds used so far by the bot process itself (event loop and its threads) and by its worker
    processes (the render pool): on a loaded machine, CPU per command is what can be compared."""
    workers = sum(_cpu_seconds(child) for child in _children(pid))
    return {"bot": _cpu_seconds(pid), "workers": workers}


async def read_stall(path: Path) -> dict[str, Any]:
    """The stall monitor's file; read again if caught mid-write (older monitors rewrite it in place)."""
    for _ in range(20):
        try:
            found: dict[str, Any] = json.loads(path.read_text())
            return found
        except ValueError:
            await asyncio.sleep(0.05)
    raise RuntimeError(f"cannot read {path}")


def _ms(seconds: float) -> float | None:
    """Milliseconds, or None (JSON null) for a percentile that falls on a lost answer."""
    return round(seconds * 1000, 1) if math.isfinite(seconds) else None


def percentile(values: list[float], q: float) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


class Table:
    """One game in one channel, mirrored locally to choose legal moves: the server draws the seed,
    so the mirror starts from the state the bot stored (read like an operator would)."""

    def __init__(self, fake: FakeDiscord, db: Path, channel: int, seed: int, think: tuple[float, float]) -> None:
        self.fake, self.db, self.channel = fake, db, channel
        self.think = think
        self.rng = random.Random(seed)
        self.state: dict[str, Any] = {}
        self.samples: list[tuple[str, float, float, bool]] = []  # (kind, ack, answer, image)
        self.lost = 0

    async def command(
        self, user: int, name: str, options: dict[str, Any] | None = None, kind: str = "move"
    ) -> InteractionRecord:
        if kind != "setup" and self.think[1] > 0:
            await asyncio.sleep(self.rng.uniform(*self.think))
        record = await self.fake.slash(user, name, options, channel=self.channel)
        try:
            await record.wait(timeout=ANSWER_TIMEOUT)
        except TimeoutError:
            # Never answered: the bot missed Discord's 3-second window (the interaction expired) on an
            # overloaded machine. Counted as lost (an infinite latency in the percentiles), not fatal.
            self.samples.append((kind, math.inf, math.inf, False))
            self.lost += 1
            return record
        assert record.callback_at is not None and record.answered_at is not None
        image = any(m.attachments for m in record.messages)
        self.samples.append(
            (kind, record.callback_at - record.dispatched_at, record.answered_at - record.dispatched_at, image)
        )
        return record

    async def setup(self) -> None:
        await self.command(PLAYERS[0], "game new", {"game": "tiny-towns", "options": OPTIONS}, "setup")
        await self.command(PLAYERS[1], "game join", None, "setup")
        await self.command(PLAYERS[0], "game start", None, "setup")
        for _ in range(int(ANSWER_TIMEOUT)):  # an answer lost under load may still have started it
            row = read_game(self.db, self.channel)
            if row.state is not None:
                break
            await asyncio.sleep(1.0)
        assert row.state is not None, "the game did not start"
        self.state = row.state

    async def play(self, rounds: int) -> None:
        for _ in range(rounds):
            for _ in range(3):  # announce, then both place
                status = SPEC.status(self.state)
                if status.finished:
                    return
                seat = status.to_act[0]
                # A random legal move (level 0): the driver shares the machine's cores with the bot,
                # and the level-1 policy cost the driver more CPU than the bot spent on the command.
                move = SPEC.bot_move(self.state, seat, 0)
                command, options = slash_for(SPEC.format(move))
                lost = self.lost
                record = await self.command(PLAYERS[seat], command, options)
                if self.lost > lost:  # whether it was applied shows in the database
                    await asyncio.sleep(1.0)
                    self.state = read_game(self.db, self.channel).state or self.state
                    continue
                if not record.public:
                    raise AssertionError(f"move refused: {record.text}")
                self.state, _ = SPEC.apply(self.state, seat, move)
            await self.command(PLAYERS[0], "game board", None, "board")


async def quiet(fake: FakeDiscord, seconds: float = 0.5) -> None:
    """Until the bot has sent nothing for ``seconds``."""
    while True:
        sent = len(fake.requests)
        await asyncio.sleep(seconds)
        if len(fake.requests) == sent:
            return


async def run_level(
    fake: FakeDiscord,
    db: Path,
    channels: list[int],
    rounds: int,
    stall_file: Path,
    think: tuple[float, float],
    pid: int,
) -> dict[str, Any]:
    tables = [Table(fake, db, channel, 1000 + i, think) for i, channel in enumerate(channels)]
    for start in range(0, len(tables), 20):  # lobbies are not what we measure: open them in batches
        await asyncio.gather(*(t.setup() for t in tables[start : start + 20]))
    await quiet(fake)  # the lobbies' boards and pings are all posted before the clock starts
    for table in tables:
        table.samples.clear()
        table.lost = 0
    stall_file.with_suffix(".reset").write_text("reset")
    await asyncio.sleep(0.4)  # let the monitor notice the reset and write a fresh file
    cpu_before = bot_cpu(pid)
    driver_before = time.process_time()
    began = time.perf_counter()
    await asyncio.gather(*(t.play(rounds) for t in tables))
    elapsed = time.perf_counter() - began
    cpu_after = bot_cpu(pid)
    cpu_after["driver"] = time.process_time()
    cpu_before["driver"] = driver_before
    await asyncio.sleep(0.4)
    stall = await read_stall(stall_file)
    samples = [s for t in tables for s in t.samples]
    answers = [s[2] for s in samples]
    with_image = [s[2] for s in samples if s[3]]
    ms = 1000.0
    per_command = {k: round((cpu_after[k] - cpu_before[k]) / max(1, len(samples)) * ms, 2) for k in cpu_after}
    return {
        "games": len(tables),
        "commands": len(samples),
        "lost": sum(t.lost for t in tables),  # never answered (expired interactions): infinite latency
        "seconds": round(elapsed, 2),
        "commands_per_s": round(len(samples) / elapsed, 1),
        "p50_ms": _ms(percentile(answers, 0.5)),
        "p95_ms": _ms(percentile(answers, 0.95)),
        "p99_ms": _ms(percentile(answers, 0.99)),
        "with_image": {
            "count": len(with_image),
            "p50_ms": _ms(percentile(with_image, 0.5)),
            "p95_ms": _ms(percentile(with_image, 0.95)),
            "p99_ms": _ms(percentile(with_image, 0.99)),
        },
        # CPU milliseconds per command: the bot process (event loop, its threads), its render workers,
        # and this process (the players and the fake Discord), which shares the machine's cores with them.
        "cpu_ms_per_command": per_command,
        "ack_p99_ms": _ms(percentile([s[1] for s in samples], 0.99)),
        "mean_ms": round(statistics.fmean(finite) * ms, 1)
        if (finite := [a for a in answers if a < math.inf])
        else None,
        "max_loop_stall_ms": stall["max_stall_ms"],
        # The longest stall counted in the event-loop thread's own CPU time: work done on the loop,
        # without the time the OS (a loaded machine) or another thread holding the GIL kept it waiting.
        "max_loop_stall_cpu_ms": stall.get("max_stall_cpu_ms"),
        "stalls_over_100ms": stall["stalls_over_100ms"],
    }


MODES = {"paced": (0.5, 1.5), "burst": (0.0, 0.0)}


# With --profile: the bot process runs under cProfile (its main thread: the event loop), started by a
# sitecustomize that only the bot process itself sees (it removes its variable before anything spawns).
PROFILE_SITE = """
import os
_out = os.environ.pop("BENCH_PROFILE_OUT", "")
if _out:
    import atexit, cProfile
    import time
    _profile = cProfile.Profile(time.process_time)  # CPU time: waiting for a core is not the bot's cost
    _profile.enable()
    atexit.register(lambda: (_profile.disable(), _profile.dump_stats(_out)))
"""


async def main(levels: list[int], rounds: int, modes: list[str], profile: str | None = None) -> dict[str, Any]:
    needed = sum(levels) * len(modes)
    fake = FakeDiscord(extra_channels=needed)
    await fake.start()
    workdir = Path(tempfile.mkdtemp(prefix="bench-discord-"))
    stall_file = workdir / "stall.json"
    # The bot runs as deployed: no test hooks (tests/discord's bots report each handled interaction to the
    # fake with one more request, which the bench does not wait for and would count as the bot's work).
    env = {"CONDUCTOR_STALL_FILE": str(stall_file), "LOG_LEVEL": "WARNING", "CONDUCTOR_TEST_HOOKS": "0"}
    if profile:
        site = workdir / "profile_site"
        site.mkdir()
        (site / "sitecustomize.py").write_text(PROFILE_SITE)
        env.update(PYTHONPATH=f"{site}{os.pathsep}{ROOT}", BENCH_PROFILE_OUT=str(Path(profile).resolve()))
    bot = BotProcess(fake, workdir, env)
    result: dict[str, Any] = {"cpus": os.cpu_count(), "rounds_per_game": rounds}
    try:
        code, out = await bot.cli("sync", "--guild", str(fake.GUILD))
        if code != 0:
            raise RuntimeError(out)
        await bot.start()
        channels = list(fake.extra_channels)
        assert bot.process is not None
        for mode in modes:
            result[mode] = {}
            for level in levels:
                mine, channels = channels[:level], channels[level:]
                result[mode][str(level)] = await run_level(
                    fake, bot.db_path, mine, rounds, stall_file, MODES[mode], bot.process.pid
                )
        result["discord_violations"] = len(fake.violations)
        result["target"] = {
            "paced_p99_ms_at_100_games": 250,
            "burst_p99_ms_at_100_games": 1000,
            "max_loop_stall_ms": 100,
        }
    finally:
        await bot.stop()
        await fake.stop()
    return result


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--levels", default="1,20,100")
    parser.add_argument("--modes", default="paced,burst")
    parser.add_argument("--profile", help="write the bot process's cProfile stats (event-loop thread) here")
    args = parser.parse_args()
    levels = [int(x) for x in args.levels.split(",")]
    print(json.dumps(asyncio.run(main(levels, args.rounds, args.modes.split(","), args.profile))))
