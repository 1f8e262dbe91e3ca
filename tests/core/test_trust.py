"""Trust at the core: the seed is the server's and provably fixed, no-ops are not stored, the moderator
role is scoped, and announcements survive a crash between the commit and the post."""

from __future__ import annotations

from bot import replies as R
from bot.core import Conductor
from bot.fairness import commitment
from bot.replies import Actor
from bot.transcript import TranscriptError, parse_transcript, replay, verify
from storage import Store
from tests.core.conftest import ANN, BOB, CHANNEL, GUILD, MOD, say, snapshot, started_two_player


async def test_players_cannot_choose_the_seed(host: Conductor, store: Store) -> None:
    assert (await say(host, ANN, "/game new tiny-towns buildings=first-game")).ok
    assert (await say(host, BOB, "/game join")).ok
    refused = await say(host, ANN, "/game start seed=5")
    assert refused.error == R.BAD_COMMAND and "seed" in refused.private
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None and row.status == "lobby"


async def test_the_start_posts_a_commitment_and_the_end_reveals_what_it_hashes(host: Conductor, store: Store) -> None:
    await started_two_player(host)
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None and row.seed == 42 and row.salt and row.commitment == commitment(42, row.salt)
    first = await say(host, ANN, "/game status")
    assert "42" not in first.private
    mid = (await say(host, BOB, "/game export")).private
    assert "seed: 42" not in mid and row.salt not in mid and f"commitment: {row.commitment}" in mid
    assert "public record of a game in progress" in mid
    try:
        parse_transcript(mid)
        raise AssertionError("a mid-game export must not parse as replayable")
    except TranscriptError as exc:
        assert "in progress" in exc.reason
    last = None
    while await store.open_game(GUILD, CHANNEL) is not None:
        last = await say(host, MOD, "/game skip")
        assert last.ok
    assert last is not None and f"the seed was 42 with salt `{row.salt}`" in last.public
    final = (await say(host, BOB, "/game export")).private
    assert "seed: 42" in final and f"salt: {row.salt}" in final and f"commitment: {row.commitment}" in final
    result = await verify(parse_transcript(final))
    assert result.status == "finished"
    forged = final.replace("seed: 42", "seed: 43")
    try:
        await replay(parse_transcript(forged))
        raise AssertionError("a seed that does not match the commitment must be refused")
    except TranscriptError as exc:
        assert "commitment" in exc.reason


async def test_a_no_op_is_answered_privately_and_not_stored(host: Conductor, store: Store) -> None:
    await started_two_player(host)
    assert (await say(host, ANN, "/tt announce wood")).ok
    assert (await say(host, ANN, "/tt place A1")).ok
    assert (await say(host, ANN, "/tt done")).ok
    before = await snapshot(store)
    for _ in range(5):
        again = await say(host, ANN, "/tt done")
        assert again.ok and again.public == "" and "changes nothing" in again.private
    assert await snapshot(store) == before


async def test_the_moderator_role_is_scoped_by_who_sets_it(host: Conductor, store: Store) -> None:
    guild = "1000"  # Discord's @everyone role has the guild's id
    channel_mod = Actor("9", "mod", is_moderator=True)
    server_admin = Actor("8", "admin", is_moderator=True, manages_server=True)
    assert (await host.handle(guild, CHANNEL, channel_mod, "/game config modrole <@&77>")).ok
    assert await store.channel_setting(guild, CHANNEL, "modrole") == "77"
    assert await store.channel_setting(guild, "elsewhere", "modrole") is None
    for who in (channel_mod, server_admin):
        everyone = await host.handle(guild, CHANNEL, who, f"/game config modrole <@&{guild}>")
        assert everyone.error == R.BAD_COMMAND and "@everyone" in everyone.private
    assert (await host.handle(guild, CHANNEL, server_admin, "/game config modrole <@&66>")).ok
    assert await store.channel_setting(guild, "elsewhere", "modrole") == "66"
    assert await store.channel_setting(guild, CHANNEL, "modrole") == "77"  # the channel's own still wins


async def test_announcements_survive_a_crash_between_commit_and_post(tmp_path) -> None:
    """The change and its announcement are written together; what was never marked posted comes back
    once, from ``repair``, with the latest board."""
    path = tmp_path / "crash.db"
    store = await Store.open(path)
    try:
        host = Conductor(store, render_images=True, seed_source=lambda: 42)
        await started_two_player(host)
        reply = await say(host, ANN, "/tt announce wood")
        assert reply.ok and reply.outbox_id is not None
        await host.announced(reply.outbox_id)
        lost = await say(host, ANN, "/tt place A1")  # committed, but the process "dies" before posting
        assert lost.ok and lost.outbox_id is not None
    finally:
        await store.close()
    store = await Store.open(path)
    try:
        host = Conductor(store, render_images=True, seed_source=lambda: 42)
        posts = await host.repair()
        assert [(guild, channel) for guild, channel, _ in posts] == [(GUILD, CHANNEL)]
        post = posts[0][2]
        assert post.public == lost.public  # only what was never posted; "names wood" was
        assert post.images and post.images[0].data.startswith(b"\x89PNG")  # the latest board
        assert post.outbox_id == lost.outbox_id and post.status == "active"
        assert post.outbox_id is not None
        await host.announced(post.outbox_id)
        assert await host.repair() == []  # posted once
    finally:
        await store.close()


async def test_repair_plays_a_due_bot_turn_and_restores_reminders(host: Conductor, store: Store) -> None:
    await started_two_player(host)
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None
    # As after a crash: the human seat became a bot, the bot never moved, and the timers are gone.
    seats = await store.seats(row.id)
    bot_seat = seats[0].__class__(0, f"bot:{row.id}:seat0", "ann", "bot", 1)
    version = await store.set_seats(row.id, row.version, [bot_seat, seats[1]])
    await store.cancel_timers(row.id)
    await host.repair()
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None and row.version > version
    moves = await store.moves(row.id)
    assert moves and moves[0].user_id == bot_seat.user_id  # the bot named a resource
    kinds = {timer.kind for timer in await store.timers(row.id)}
    assert "reminder" in kinds


async def test_a_damaged_game_is_isolated_and_a_moderator_can_abort_it(host: Conductor, store: Store) -> None:
    await started_two_player(host)
    await started_two_player_in(host, "other")
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None
    await store._write("UPDATE games SET state = '{broken' WHERE id = ?", (row.id,))
    refused = await say(host, ANN, "/tt announce wood")
    assert refused.error == R.DAMAGED and "/mod abort" in refused.private
    assert (await say(host, ANN, "/game status")).error == R.DAMAGED
    assert await host.legal_commands(GUILD, CHANNEL, ANN.user_id) == []
    listed = (await say(host, ANN, "/game list")).private
    assert "damaged" in listed and "<#other>" in listed
    assert (await say(host, ANN, "/game mygames")).ok
    assert (await say(host, ANN, "/tt announce wood", channel="other")).ok  # the rest of the server plays on
    assert (await say(host, BOB, "/game abort")).error == R.DAMAGED  # only a moderator
    aborted = await say(host, MOD, "/game abort")
    assert aborted.ok and "damaged" in aborted.public
    assert (await say(host, ANN, "/game new tiny-towns")).ok  # the channel is free again


async def test_a_game_whose_engine_is_gone_is_isolated_too(host: Conductor, store: Store) -> None:
    await started_two_player(host)
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None
    await store._write("UPDATE games SET game = 'chess' WHERE id = ?", (row.id,))
    assert (await say(host, ANN, "/game board")).error == R.DAMAGED
    assert "damaged" in (await say(host, ANN, "/game list")).private
    assert (await say(host, MOD, "/game abort")).ok


async def started_two_player_in(host: Conductor, channel: str) -> None:
    for actor, text in [(ANN, "/game new tiny-towns buildings=first-game"), (BOB, "/game join"), (ANN, "/game start")]:
        assert (await say(host, actor, text, channel=channel)).ok


async def test_a_substitute_keeps_the_game_consistent_for_check_undo_and_rollback(
    host: Conductor, store: Store
) -> None:
    await started_two_player(host)
    assert (await say(host, ANN, "/tt announce wood")).ok
    assert (await say(host, MOD, "/game substitute bob <@7>")).ok
    dave = Actor("7", "dave")
    assert (await say(host, dave, "/tt place B2")).ok
    assert (await say(host, dave, "/game undo")).ok
    assert (await say(host, dave, "/tt place C2")).ok
    assert (await say(host, MOD, "/game rollback 2")).ok
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None and row.state is not None and row.state["names"] == ["ann", "bob"]
    from bot.check import check_store

    assert [f.kind for f in await check_store(store)] == ["ok"]


async def test_concurrent_clicks_drawn_at_one_version_apply_once(host: Conductor, store: Store) -> None:
    """The staleness check runs under the channel's lock with the command's own read: of several clicks
    drawn at one version, exactly one applies (a double-clicked button never applies twice)."""
    import asyncio

    await started_two_player(host)
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None
    clicks = [host.click(GUILD, CHANNEL, ANN, row.id, row.version, "/tt announce wood") for _ in range(5)]
    clicks += [host.click(GUILD, CHANNEL, BOB, row.id, row.version, "/game undo") for _ in range(3)]
    replies = await asyncio.gather(*clicks)
    assert sum(reply.ok for reply in replies) == 1
    assert all(reply.error == R.STALE for reply in replies if not reply.ok)
    after = await store.open_game(GUILD, CHANNEL)
    assert after is not None and after.version == row.version + 1
    assert [m.text for m in await store.moves(row.id)] == ["/tt announce wood"]


async def test_conductor_verify_checks_an_export_from_outside(host: Conductor, store: Store, tmp_path) -> None:
    import subprocess
    import sys

    await started_two_player(host)
    while await store.open_game(GUILD, CHANNEL) is not None:
        assert (await say(host, MOD, "/game skip")).ok
    export = (await say(host, ANN, "/game export")).private
    good, bad = tmp_path / "good.transcript", tmp_path / "bad.transcript"
    good.write_text(export, encoding="utf-8")
    salt_line = next(line for line in export.splitlines() if line.startswith("salt: "))
    bad.write_text(export.replace(salt_line, "salt: 00"), encoding="utf-8")
    ok = subprocess.run([sys.executable, "-m", "bot.cli", "verify", str(good)], capture_output=True, text=True)
    assert ok.returncode == 0 and "verified" in ok.stdout, ok.stderr
    forged = subprocess.run([sys.executable, "-m", "bot.cli", "verify", str(bad)], capture_output=True, text=True)
    assert forged.returncode == 1 and "commitment" in forged.stderr


def test_replay_json_reports_bad_files_as_json(tmp_path) -> None:
    """A transcript that is not UTF-8, or states a seed the database cannot hold, is a clear error, also
    as JSON (never an empty output or a traceback)."""
    import json
    import subprocess
    import sys

    latin = tmp_path / "latin.transcript"
    latin.write_bytes("game: tiny-towns\nplayers: ann, bob\n# caf\xe9\n".encode("latin-1"))
    huge = tmp_path / "huge.transcript"
    huge.write_text(f"game: tiny-towns\nseed: {2**64}\nplayers: ann, bob\n", encoding="utf-8")
    for path, reason in ((latin, "UTF-8"), (huge, "seed")):
        done = subprocess.run(
            [sys.executable, "-m", "bot.cli", "replay", "--json", str(path)], capture_output=True, text=True
        )
        assert done.returncode == 1 and "Traceback" not in done.stderr
        assert reason in json.loads(done.stdout)["error"]
