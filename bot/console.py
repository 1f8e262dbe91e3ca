"""`conductor console`: a terminal channel that plays exactly like Discord, without Discord.

Each line is ``name: /command``; the name is the user. Images are written to ./out/.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import TextIO

from bot.core import Conductor
from bot.replies import Actor, Reply
from storage import AnyStore

GUILD, CHANNEL = "console", "console"
HELP = """Type lines like:  ann: /game new tiny-towns   then  bob: /game join   ann: /game start
Moves:  ann: /tt announce wood   bob: /tt place B2   (every name is a user; names listed in --moderator are mods)
Help:  ann: /game help   Moderators:  mod: /mod skip bob
Type 'quit' to leave."""


def show(reply: Reply, out_dir: Path, stream: TextIO, who: str = "") -> None:
    """Print what the bot would post, and save images. Private lines say whom they are for
    (``who``), and come before the turn banner of the next player they belong before."""
    if reply.pings:
        stream.write("ping: " + " ".join(f"@{user}" for user in reply.pings) + "\n")
    public = reply.public
    banner = reply.banner if reply.banner and reply.private and public.endswith(reply.banner) else ""
    if banner:
        public = public[: -len(banner)].rstrip("\n")
    if public:
        stream.write(public + "\n")
    if reply.private:
        for_whom = f"only {who} sees this" if who else "only you see this"
        marker = f"error, {for_whom}" if not reply.ok else for_whom
        stream.write(f"[{marker}] {reply.private}\n")
    if reply.buttons:
        stream.write("buttons: " + "  ".join(f"[{label}] `{text}`" for label, text in reply.buttons) + "\n")
    if banner:
        stream.write(banner + "\n")
    for image in [*reply.images, *reply.private_images]:
        out_dir.mkdir(parents=True, exist_ok=True)
        path = out_dir / image.filename
        path.write_bytes(image.data)
        stream.write(f"image: {path} ({image.description})\n")


async def clean_out(store: AnyStore, out_dir: Path) -> list[Path]:
    """Delete the images in ``out_dir`` of games that are over (finished or aborted); returns them.
    Image names start with ``<game>-<id>-`` (``tiny-towns-7-v12.png``)."""
    over = {row.id for row in await store.all_games() if row.status in ("finished", "aborted")}
    removed = []
    for path in sorted(out_dir.glob("*.png")) if out_dir.is_dir() else []:
        match = re.match(r"^[a-z0-9-]+?-(\d+)-", path.name)
        if match and int(match.group(1)) in over:
            path.unlink()
            removed.append(path)
    return removed


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
    for guild, channel, reply in await host.repair(channel=(GUILD, CHANNEL)):
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
        await say(host, await host.handle(GUILD, CHANNEL, actor, text), out_dir, stdout, name)
        stdout.flush()


async def say(host: Conductor, reply: Reply, out_dir: Path, stream: TextIO, who: str = "") -> None:
    """Show a reply; the console is the channel, so its announcement has then been posted."""
    show(reply, out_dir, stream, who)
    if reply.outbox_id is not None:
        await host.announced(reply.outbox_id)
