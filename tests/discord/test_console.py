"""The console is a channel too (issue 9, item 4): what it shows is marked announced, and what a crash
left unsaid in it is shown when it opens; other channels' announcements are left to their own front end."""

from __future__ import annotations

import io
from pathlib import Path

from bot.console import CHANNEL, GUILD, run_console
from bot.core import Conductor
from bot.replies import Actor
from storage import Store


async def test_console_marks_what_it_shows_and_shows_what_a_crash_left(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "console.db")
    try:
        host = Conductor(store, render_images=False)
        script = "ann: /game new tiny-towns buildings=first-game\nbob: /game join\nann: /game start\n"
        await run_console(host, set(), stdin=io.StringIO(script), stdout=io.StringIO(), out_dir=tmp_path)
        assert await store.pending_announcements() == []

        # Committed, then the process died before showing it; a Discord channel has one pending too.
        crashed = await host.handle(GUILD, CHANNEL, Actor("ann", "ann"), "/tt announce wood")
        assert crashed.outbox_id is not None
        for user, text in [("1", "/game new tiny-towns"), ("2", "/game join")]:
            await host.handle("guild", "123", Actor(user, user), text)
        elsewhere = {row.game_id for row in await store.pending_announcements()} - {crashed.game_id}
        assert elsewhere

        out = io.StringIO()
        await run_console(Conductor(store, render_images=False), set(), stdin=io.StringIO(""), stdout=out)
        assert out.getvalue().count("ann names wood") == 1
        assert {row.game_id for row in await store.pending_announcements()} == elsewhere
    finally:
        await store.close()
