"""`conductor console`: a terminal channel that plays exactly like Discord, without Discord.

Each line is ``name: /command``; the name is the user. Images are written to ./out/.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from bot.core import Conductor
from bot.replies import Actor, Reply

GUILD, CHANNEL = "console", "console"
HELP = """Type lines like:  ann: /game new tiny-towns   then  bob: /game join   ann: /game start
Moves:  ann: /tt announce wood   bob: /tt place B2   (every name is a user; names listed in --moderator are mods)
Type 'quit' to leave."""


def show(reply: Reply, out_dir: Path, stream: TextIO) -> None:
    """Print what the bot would post, and save images."""
    if reply.pings:
        stream.write("ping: " + " ".join(f"@{user}" for user in reply.pings) + "\n")
    if reply.public:
        stream.write(reply.public + "\n")
    if reply.private:
        marker = "error (only you see this)" if not reply.ok else "only you see this"
        stream.write(f"[{marker}] {reply.private}\n")
    for image in [*reply.images, *reply.private_images]:
        out_dir.mkdir(parents=True, exist_ok=True)
        path = out_dir / image.filename
        path.write_bytes(image.data)
        stream.write(f"image: {path} ({image.description})\n")


async def run_console(
    host: Conductor,
    moderators: set[str],
    stdin: TextIO = sys.stdin,
    stdout: TextIO = sys.stdout,
    out_dir: Path = Path("out"),
) -> None:
    interactive = stdin.isatty()
    if interactive:
        stdout.write(HELP + "\n")
    # What a crash left unsaid in this channel is said now; other channels' announcements are left
    # pending for their own front end (the Discord bot posts them when it starts).
    for guild, channel, reply in await host.repair():
        if (guild, channel) == (GUILD, CHANNEL):
            await say(host, reply, out_dir, stdout)
    while True:
        if interactive:
            stdout.write("> ")
            stdout.flush()
        line = stdin.readline()
        if not line:
            break
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if line in ("quit", "exit"):
            break
        if ":" not in line:
            stdout.write("Lines look like `ann: /game new tiny-towns`.\n")
            continue
        name, text = (part.strip() for part in line.split(":", 1))
        actor = Actor(name, name, name in moderators)
        for guild, channel, reply in await host.fire_due_timers():
            if (guild, channel) == (GUILD, CHANNEL):
                await say(host, reply, out_dir, stdout)
        await say(host, await host.handle(GUILD, CHANNEL, actor, text), out_dir, stdout)
        stdout.flush()


async def say(host: Conductor, reply: Reply, out_dir: Path, stream: TextIO) -> None:
    """Show a reply; the console is the channel, so its announcement has then been posted."""
    show(reply, out_dir, stream)
    if reply.outbox_id is not None:
        await host.announced(reply.outbox_id)
