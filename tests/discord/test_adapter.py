"""The real bot against the fake Discord: threads, owner-only sync, autocomplete, the generic
per-game commands (Trains), and tolerance of Discord failures and unexpected errors.

Every test gets its own fake Discord, bot process and database (start-up costs about two seconds), so
each passes alone and in any order; every test also ends by checking the fake saw no refused or unknown
request.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio

import games
from games.base import MOVE_KEY
from tests.discord.botproc import BotProcess
from tests.discord.fake_discord import EPHEMERAL, FakeDiscord, InteractionRecord, Message
from tests.discord.helpers import button, pending_announcements, poll, query, read_game

COMMANDS = 3 + len(games.available_slugs())  # /game, /mod, /owner plus one group per registered game

F = FakeDiscord


@pytest_asyncio.fixture
async def world(tmp_path: Path) -> AsyncIterator[tuple[FakeDiscord, BotProcess]]:
    fake = FakeDiscord(extra_channels=3)
    await fake.start()
    process = BotProcess(fake, tmp_path)
    code, out = await process.cli("sync", "--guild", str(fake.GUILD))
    assert code == 0 and f"Registered {COMMANDS} commands" in out, out
    await process.start()
    yield fake, process
    await process.stop()
    await fake.stop()
    # Whatever the test did, the bot sent Discord nothing it would refuse and nothing it does not know.
    assert fake.violations == [] and fake.unknown == []


def only(messages: list[Message]) -> Message:
    assert len(messages) == 1, [m.content for m in messages]
    return messages[0]


async def settle(record: InteractionRecord) -> InteractionRecord:
    return await record.settle()


async def test_game_in_a_new_thread(world: tuple[FakeDiscord, BotProcess]) -> None:
    fake, bot = world
    new = await settle(await fake.slash(F.ANN, "game new", {"game": "tiny-towns", "thread": True}, channel=F.GENERAL))
    (created,) = fake.requests_to("POST", rf"/channels/{F.GENERAL}/threads$")
    thread = int(created_thread_id(fake, F.GENERAL))
    assert created.json["type"] == 11 and "tiny-towns" in created.json["name"]
    assert f"<#{thread}>" in only(new.public).content
    assert only(new.public).custom_ids == []  # the buttons live in the thread, where the game is
    lobby = only(fake.public_messages(thread))
    assert "opened a Tiny Towns lobby" in lobby.content
    joined = await settle(await fake.click(F.BOB, lobby, button(lobby, "join")))
    assert "bob joined" in joined.public_text and joined.channel_id == thread
    assert [s.name for s in read_game(bot.database, thread).seats] == ["ann", "bob"]
    elsewhere = await settle(await fake.slash(F.ANN, "game status", channel=F.GENERAL))
    assert "no game in this channel" in elsewhere.private_text


def created_thread_id(fake: FakeDiscord, parent: int) -> str:
    return next(cid for cid, c in fake.channels.items() if c.get("parent_id") == str(parent))


async def test_sync_is_owner_only(world: tuple[FakeDiscord, BotProcess]) -> None:
    fake, _ = world
    puts = len(fake.requests_to("PUT", r"/guilds/\d+/commands$"))
    refused = await settle(await fake.slash(F.MOD, "owner sync"))
    assert "Only the bot's owner" in only(refused.ephemeral).content
    assert len(fake.requests_to("PUT", r"/guilds/\d+/commands$")) == puts
    done = await settle(await fake.slash(F.OWNER, "owner sync"))
    assert f"Registered {COMMANDS} commands in this server" in only(done.ephemeral).content
    assert len(fake.requests_to("PUT", r"/guilds/\d+/commands$")) == puts + 1


async def test_autocomplete_offers_only_legal_values(world: tuple[FakeDiscord, BotProcess]) -> None:
    fake, bot = world
    for user, text in [(F.ANN, "game new"), (F.BOB, "game join")]:
        await settle(
            await fake.slash(
                user, text, {"game": "tiny-towns", "options": "buildings=first-game"} if text == "game new" else None
            )
        )
    await settle(await fake.slash(F.ANN, "game start"))
    # How fast autocomplete answers is measured by bench/bench_discord.py, not asserted here.
    resources = await fake.autocomplete(F.ANN, "tt announce", {"resource": ""}, focused="resource")
    assert sorted(c["value"] for c in resources) == ["brick", "glass", "stone", "wheat", "wood"]
    assert await fake.autocomplete(F.BOB, "tt announce", {"resource": ""}, focused="resource") == []
    assert await fake.autocomplete(F.CAT, "tt place", {"square": ""}, focused="square") == []  # not playing
    await settle(await fake.slash(F.ANN, "tt announce", {"resource": "wood"}))
    squares = await fake.autocomplete(F.BOB, "tt place", {"square": "b"}, focused="square")
    assert sorted(c["value"] for c in squares) == ["B1", "B2", "B3", "B4"]
    options = await fake.autocomplete(F.ANN, "game new", {"game": "tiny-towns", "options": "cave="}, focused="options")
    assert {c["value"] for c in options} == {"cave=on", "cave=off"}
    players = await fake.autocomplete(F.MOD, "mod kick", {"player": ""}, focused="player")
    assert {c["name"] for c in players} == {"ann", "bob"} and {c["value"] for c in players} == {str(F.ANN), str(F.BOB)}


async def test_trains_uses_the_same_generic_commands_and_move_menu(world: tuple[FakeDiscord, BotProcess]) -> None:
    fake, bot = world
    table = fake.extra_channels[0]
    await settle(await fake.slash(F.ANN, "game new", {"game": "trains"}, channel=table))
    await settle(await fake.slash(F.BOB, "game join", channel=table))
    start = await settle(await fake.slash(F.ANN, "game start", channel=table))
    board = only(start.public)
    assert {"mv:pass", "mv:end"} <= {":".join(c.split(":")[3:5]) for c in board.custom_ids}
    hexes = await fake.autocomplete(F.ANN, "trains start", {"hex": "e"}, focused="hex", channel=table)
    assert 0 < len(hexes) <= 25 and all(c["value"].lower().startswith("e") for c in hexes)
    first = await settle(await fake.slash(F.ANN, "trains start", {"hex": hexes[0]["value"]}, channel=table))
    assert first.public, first.text
    after = first.public[0]

    menu = await settle(await fake.click(F.BOB, after, button(after, "pick")))
    chooser = only(menu.ephemeral)
    options = chooser.components[0]["components"][0]["options"]
    assert len(options) == 25 and options[-1]["value"].startswith(">")  # 24 moves and "More…"
    await settle(await fake.click(F.BOB, chooser, chooser.custom_ids[0], [options[-1]["value"]]))
    page2 = fake.messages[chooser.id].components[0]["components"][0]["options"]
    assert page2[0]["value"] not in {o["value"] for o in options}
    move = page2[0]["value"]
    played = await settle(await fake.click(F.BOB, fake.messages[chooser.id], chooser.custom_ids[0], [move]))
    assert played.public, played.text
    game = read_game(bot.database, table)
    assert game.state is not None
    spec = games.get_game("trains")
    assert spec.status(game.state).to_act != (1,)  # bob's start hex was taken
    row = query(bot.database, "SELECT text FROM moves WHERE game_id = ? ORDER BY seq DESC", (game.id,))[0]
    assert row[0] == move

    # /game hand shows your cards with your legal moves as a menu, only to you
    seat = spec.status(game.state).to_act[0]
    user = (F.ANN, F.BOB)[seat]
    hand = await settle(await fake.slash(user, "game hand", channel=table))
    mine = only(hand.ephemeral)
    assert mine.visible_to == user and hand.public == [] and mine.attachments
    menu_values = [o["value"] for o in mine.components[0]["components"][0]["options"]]
    assert menu_values and all(v.startswith(("/trains ", ">")) for v in menu_values)
    for card in game.state["players"][seat]["hand"]:
        assert card in mine.content


async def test_discord_failures_are_tolerated(world: tuple[FakeDiscord, BotProcess]) -> None:
    fake, bot = world
    table = fake.extra_channels[1]
    await settle(
        await fake.slash(F.ANN, "game new", {"game": "tiny-towns", "options": "buildings=first-game"}, channel=table)
    )
    await settle(await fake.slash(F.BOB, "game join", channel=table))
    await settle(await fake.slash(F.ANN, "game start", channel=table))
    before = read_game(bot.database, table)

    # An expired interaction: the callback is refused after the core has applied the move (the core
    # runs before the first response), so the announcement goes to the channel as a plain message, once.
    posts = len(fake.requests_to("POST", rf"/channels/{table}/messages$"))
    fake.fail_next("POST", r"/interactions/\d+/[^/]+/callback$", 404, 10062, "Unknown interaction")
    expired = await fake.slash(F.ANN, "tt announce", {"resource": "wood"}, channel=table)
    await fake.wait_until(lambda: len(fake.requests_to("POST", rf"/channels/{table}/messages$")) > posts, 10)
    # The announcement is marked posted only after the bot has given up on the interaction and posted to
    # the channel instead: from then on nothing more about this command is on its way.
    await poll(lambda: pending_announcements(bot.db_path, table) == 0)
    assert expired.messages == [] and read_game(bot.db_path, table).version == before.version + 1
    (posted,) = [m for m in fake.public_messages(table) if "names wood" in m.content]
    assert posted.interaction_id is None and F.BOB in posted.mentioned_users()  # the ping too
    retried = await settle(await fake.slash(F.ANN, "tt announce", {"resource": "wood"}, channel=table))
    assert retried.public == [] and retried.private_text  # refused privately: wood is already named
    assert [m for m in fake.public_messages(table) if "names wood" in m.content] == [posted]
    fine = await settle(await fake.slash(F.BOB, "tt place", {"square": "A1"}, channel=table))
    assert fine.public


async def test_timer_posts_without_permission_are_logged_not_fatal(world: tuple[FakeDiscord, BotProcess]) -> None:
    fake, bot = world
    await settle(
        await fake.slash(F.ANN, "game new", {"game": "tiny-towns", "options": "buildings=first-game"}, channel=F.QUIET)
    )
    await settle(await fake.slash(F.BOB, "game join", channel=F.QUIET))
    await settle(await fake.slash(F.MOD, "mod config reminder", {"hours": "0.0002"}, channel=F.QUIET))
    started = await settle(await fake.slash(F.ANN, "game start", channel=F.QUIET))
    assert started.public  # answers to interactions need no Send Messages permission
    await fake.wait_until(
        lambda: any(r.status == 403 for r in fake.requests_to("POST", rf"/channels/{F.QUIET}/messages$")), 10
    )
    await settle(await fake.slash(F.MOD, "mod config reminder", {"hours": "off"}, channel=F.QUIET))
    assert "channel message failed: forbidden (50013)" in bot.log()
    alive = await settle(await fake.slash(F.ANN, "game status", channel=F.QUIET))
    assert "Tiny Towns" in alive.private_text


async def test_unexpected_error_gets_an_apology_and_a_log_line_with_the_channel(
    world: tuple[FakeDiscord, BotProcess],
) -> None:
    fake, bot = world
    await settle(await fake.slash(F.ANN, "game new", {"game": "tiny-towns"}, channel=F.QUIET))
    await settle(await fake.slash(F.BOB, "game join", channel=F.QUIET))
    await settle(await fake.slash(F.ANN, "game start", channel=F.QUIET))
    game = read_game(bot.db_path, F.QUIET)
    with sqlite3.connect(bot.db_path) as conn:  # a state the engine cannot read: an internal bug
        conn.execute("UPDATE games SET state = ? WHERE id = ?", (json.dumps({"towns": 3}), game.id))
    broken = await settle(await fake.slash(F.ANN, "tt place", {"square": "B2"}, channel=F.QUIET))
    message = only(broken.ephemeral)
    assert message.flags & EPHEMERAL and message.content.startswith("Sorry")
    assert "Traceback" not in message.content and "Error" not in message.content
    assert broken.public == []
    # The adapter logs what it knows without asking the store (which may be what failed): the
    # channel and user of a typed command identify the game.
    assert re.search(rf"command \['/tt', 'place'\] failed \(channel {F.QUIET}, user {F.ANN}\)", bot.log())


async def test_keeping_a_monument_is_answered_only_to_its_owner(world: tuple[FakeDiscord, BotProcess]) -> None:
    fake, bot = world
    table = fake.extra_channels[2]
    await settle(
        await fake.slash(
            F.ANN, "game new", {"game": "tiny-towns", "options": "buildings=first-game monuments=on"}, channel=table
        )
    )
    await settle(await fake.slash(F.BOB, "game join", channel=table))
    await settle(await fake.slash(F.ANN, "game start", channel=table))
    game = read_game(bot.database, table)
    spec = games.get_game("tiny-towns")
    keep = next(m for m in spec.legal_moves(game.state, 0) if m.get(MOVE_KEY) == "monument")
    secret = keep["monument"]
    kept = await settle(await fake.slash(F.ANN, "tt monument", {"name": secret}, channel=table))
    assert kept.ephemeral and secret in kept.private_text.lower().replace(" ", "-").replace("'", "")
    assert all(m.flags & EPHEMERAL for m in kept.messages if secret in m.content.lower())
    for message in fake.public_messages(table):
        assert secret not in message.content.lower()
    assert "has chosen a monument" in kept.public_text
