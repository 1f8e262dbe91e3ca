"""Undo, rollback, pings and reminders through the host core."""

from __future__ import annotations

from bot import replies as R
from bot.core import Conductor
from tests.core.conftest import ANN, BOB, CHANNEL, GUILD, MOD, say, snapshot, started_two_player


async def test_undo_only_own_last_move_while_nobody_acted_since(host, store):
    await started_two_player(host)
    assert (await say(host, ANN, "/tt announce wood")).ok
    assert (await say(host, ANN, "/tt place A1")).ok
    before = await snapshot(store)
    other = await say(host, BOB, "/game undo")
    assert other.error == R.ILLEGAL and await snapshot(store) == before
    undone = await say(host, ANN, "/game undo")
    assert undone.ok and "/tt place A1" in undone.public
    row = await store.open_game(GUILD, CHANNEL)
    assert [m.text for m in await store.moves(row.id)] == ["/tt announce wood"]
    assert row.state["towns"][0]["cells"][0] is None
    assert (await say(host, ANN, "/tt place B1")).ok
    assert (await say(host, BOB, "/tt place C1")).ok
    late = await say(host, ANN, "/game undo")
    assert late.error == R.ILLEGAL and "nobody has acted since" in late.private


async def test_rollback_replays_from_seed_and_log(host, store):
    await started_two_player(host)
    for actor, text in [(ANN, "/tt announce wood"), (ANN, "/tt place A1"), (BOB, "/tt place A1")]:
        assert (await say(host, actor, text)).ok
    row = await store.open_game(GUILD, CHANNEL)
    after_one = row.state
    reply = await say(host, MOD, "/game rollback 1")
    assert reply.ok
    row = await store.open_game(GUILD, CHANNEL)
    assert [m.text for m in await store.moves(row.id)] == ["/tt announce wood"]
    assert row.state["towns"][0]["cells"][0] is None and row.state["towns"][1]["cells"][0] is None
    assert after_one != row.state
    bad = await say(host, MOD, "/game rollback 9")
    assert bad.error == R.BAD_COMMAND and "0..1" in bad.private


async def test_one_ping_per_change_of_who_must_act(host):
    await started_two_player(host)
    announce = await say(host, ANN, "/tt announce wood")
    assert sorted(announce.pings) == [BOB.user_id]  # ann was already the one to act
    placed = await say(host, ANN, "/tt place A1")
    assert placed.pings == []
    bob_places = await say(host, BOB, "/tt place A1")
    # the round ended and bob is the next Master Builder: he was already the one acting, so no ping
    assert bob_places.pings == [] and "bob to name a resource" in bob_places.public
    assert (await say(host, BOB, "/game pings off")).ok
    announce2 = await say(host, BOB, "/tt announce stone")
    assert announce2.pings == [ANN.user_id]


async def test_bots_move_after_humans(host, store):
    assert (await say(host, ANN, "/game new tiny-towns buildings=first-game")).ok
    assert (await say(host, ANN, "/game addbot")).ok
    start = await say(host, ANN, "/game start")
    assert start.ok
    reply = await say(host, ANN, "/tt announce glass")
    assert reply.ok and "Bot 1" in reply.public
    row = await store.open_game(GUILD, CHANNEL)
    moves = await store.moves(row.id)
    assert [m.seat for m in moves] == [0, 1]  # the bot placed at once


async def test_reminder_timer_fires_after_idle_time_and_survives_restart(store, tmp_path):
    now = [1000.0]
    host = Conductor(store, render_images=False, clock=lambda: now[0], seed_source=lambda: 42)
    await started_two_player(host)
    assert (await say(host, MOD, "/game config reminder 2")).ok
    assert (await say(host, ANN, "/tt announce wood")).ok
    now[0] += 2 * 3600 - 1
    assert await host.fire_due_timers() == []
    restarted = Conductor(store, render_images=False, clock=lambda: now[0])  # a new process, same database
    now[0] += 2
    fired = await restarted.fire_due_timers()
    assert len(fired) == 1
    guild, channel, reply = fired[0]
    assert (guild, channel) == (GUILD, CHANNEL)
    assert "Reminder" in reply.public and set(reply.pings) == {ANN.user_id, BOB.user_id}
    assert await restarted.fire_due_timers() == []


async def test_idle_lobby_expires_after_seven_days(store):
    now = [0.0]
    host = Conductor(store, render_images=False, clock=lambda: now[0])
    await say(host, ANN, "/game new tiny-towns")
    now[0] = 7 * 86400 + 1
    fired = await host.fire_due_timers()
    assert len(fired) == 1 and "did not start within 7 days" in fired[0][2].public
    assert await store.open_game(GUILD, CHANNEL) is None


async def test_lobby_expiry_is_configurable(store):
    now = [0.0]
    host = Conductor(store, render_images=False, clock=lambda: now[0])
    assert (await say(host, MOD, "/game config lobby 2")).ok
    assert "2 days" in (await say(host, MOD, "/game config show")).private
    await say(host, ANN, "/game new tiny-towns")
    now[0] = 2 * 86400 - 5
    assert await host.fire_due_timers() == []
    now[0] = 2 * 86400 + 1
    assert len(await host.fire_due_timers()) == 1
    assert (await say(host, MOD, "/game config lobby 0")).error == R.BAD_COMMAND


async def test_config_is_moderator_only_and_validated(host):
    assert (await say(host, ANN, "/game config reminder 3")).error == R.FORBIDDEN
    assert (await say(host, MOD, "/game config reminder soon")).error == R.BAD_COMMAND
    assert "3 h" in (await say(host, MOD, "/game config reminder 3")).private
    assert (await say(host, MOD, "/game config modrole <@&77>")).ok
    assert "<@&77>" in (await say(host, MOD, "/game config show")).private


async def test_stale_component_click_is_refused_and_changes_nothing(host, store):
    await started_two_player(host)
    row = await store.open_game(GUILD, CHANNEL)
    old_version = row.version
    assert (await host.click(GUILD, CHANNEL, ANN, row.id, old_version, "/tt announce wood")).ok
    before = await snapshot(store)
    stale = await host.click(GUILD, CHANNEL, BOB, row.id, old_version, "/tt place A1")
    assert stale.error == R.STALE and "out of date" in stale.private
    assert await snapshot(store) == before


async def test_legal_commands_for_autocomplete(host):
    await started_two_player(host)
    assert await host.legal_commands(GUILD, CHANNEL, BOB.user_id) == []
    commands = await host.legal_commands(GUILD, CHANNEL, ANN.user_id)
    assert "/tt announce wood" in commands and all(c.startswith("/tt announce ") for c in commands)


async def test_a_kept_monument_stays_secret_in_history_and_export(host, store):
    assert (await say(host, ANN, "/game new tiny-towns buildings=first-game monuments=on")).ok
    assert (await say(host, BOB, "/game join")).ok
    assert (await say(host, ANN, "/game start")).ok
    row = await store.open_game(GUILD, CHANNEL)
    import games

    spec = games.get_game("tiny-towns")
    keep = next(m for m in spec.legal_moves(row.state, 0) if m.get("verb") == "monument")
    reply = await say(host, ANN, spec.format(keep))
    assert reply.ok and reply.hide_command
    secret = keep["monument"]
    assert secret not in reply.public
    for actor in (BOB, MOD):
        assert secret not in (await say(host, actor, "/game history")).private
        assert secret not in (await say(host, actor, "/game export")).private
    assert secret in (await say(host, ANN, "/game history")).private


async def test_a_late_done_after_the_end_is_accepted_and_nothing_else_is(host, store):
    await started_two_player(host)
    while await store.open_game(GUILD, CHANNEL) is not None:
        assert (await say(host, MOD, "/game skip")).ok
    game = (await store.all_games())[-1]
    assert game.status == "finished"
    logged = len(await store.moves(game.id))
    late = await say(host, ANN, "/tt done")
    assert late.ok and late.public == "" and "over" in late.private
    refused = await say(host, BOB, "/tt place A1")
    assert refused.error == R.FINISHED
    row = await store.get_game(game.id)
    assert row.status == "finished" and row.state == game.state
    # A no-op is answered but not stored: the version and the log stay as they were.
    assert row.version == game.version and len(await store.moves(game.id)) == logged
    from bot.check import check_store

    assert [f.kind for f in await check_store(store)] == ["ok"]


async def test_moderator_replaces_a_player_with_a_bot_who_moves_at_once(host, store):
    await started_two_player(host)
    assert (await say(host, ANN, "/game replacebot bob")).error == R.FORBIDDEN
    assert (await say(host, ANN, "/tt announce wood")).ok
    reply = await say(host, MOD, "/game replacebot bob 1")
    assert reply.ok and "bob's seat to a bot" in reply.public
    row = await store.open_game(GUILD, CHANNEL)
    seats = await store.seats(row.id)
    assert seats[1].kind == "bot" and seats[1].display_name == "bob"
    assert [m.seat for m in await store.moves(row.id)][-1] == 1  # the bot placed bob's cube at once
    again = await say(host, MOD, "/game replacebot bob")
    assert again.error == R.BAD_COMMAND and "already a bot" in again.private


async def test_pause_holds_moves_bots_and_reminders_until_resumed(store):
    now = [0.0]
    host = Conductor(store, render_images=False, clock=lambda: now[0], seed_source=lambda: 42)
    await started_two_player(host)
    assert (await say(host, ANN, "/game pause")).error == R.FORBIDDEN
    paused = await say(host, MOD, "/game pause")
    assert paused.ok and "paused" in paused.public
    row = await store.open_game(GUILD, CHANNEL)
    assert row.paused and await store.timers(row.id) == []
    before = await snapshot(store)
    for actor, text in [(ANN, "/tt announce wood"), (MOD, "/game skip"), (ANN, "/game undo")]:
        reply = await say(host, actor, text)
        assert reply.error == R.PAUSED and "pause" in reply.private, text
        assert await snapshot(store) == before
    assert "Paused by a moderator" in (await say(host, BOB, "/game status")).private
    now[0] += 13 * 3600
    assert await host.fire_due_timers() == []
    assert (await say(host, MOD, "/game pause")).error == R.BAD_COMMAND  # already paused
    resumed = await say(host, MOD, "/game pause off")
    assert resumed.ok and resumed.pings == [ANN.user_id]
    assert [t.kind for t in await store.timers(row.id)] == ["reminder"]
    assert (await say(host, ANN, "/tt announce wood")).ok


async def test_pause_refusals_say_why_and_a_deadline_waits_too(store):
    host = Conductor(store, render_images=False, clock=lambda: 0.0, seed_source=lambda: 42)
    assert (await say(host, ANN, "/game new tiny-towns buildings=first-game")).ok
    lobby = await say(host, MOD, "/game pause")
    assert lobby.error == R.NOT_STARTED and "Only a game in progress can be paused." in lobby.private
    assert (await say(host, MOD, "/game config deadline 24")).ok
    assert (await say(host, BOB, "/game join")).ok and (await say(host, ANN, "/game start")).ok
    row = await store.open_game(GUILD, CHANNEL)
    assert "deadline" in [t.kind for t in await store.timers(row.id)]
    assert (await say(host, MOD, "/game pause")).ok
    assert await store.timers(row.id) == []  # the deadline waits as well as the reminder
    again = await say(host, MOD, "/game pause")
    assert again.error == R.BAD_COMMAND and "The game is already paused." in again.private
    resumed = await say(host, MOD, "/game pause off")
    assert resumed.public.startswith("mod resumed the game.")
    running = await say(host, MOD, "/game pause off")
    assert running.error == R.BAD_COMMAND and "The game is already running." in running.private
