"""Lobby, turn flow and refusals through the host core, played with Tiny Towns."""

from __future__ import annotations

from bot import replies as R
from games import PLANNED
from games.base import PlannedGame
from tests.core.conftest import ANN, BOB, CAT, CHANNEL, GUILD, MOD, say, snapshot, started_two_player


async def test_lobby_join_leave_and_start(host, store):
    reply = await say(host, ANN, "/game new tiny-towns buildings=first-game")
    assert reply.ok and "Tiny Towns lobby" in reply.public
    assert (await say(host, BOB, "/game join")).ok
    again = await say(host, BOB, "/game join")
    assert not again.ok and "already joined" in again.private
    assert (await say(host, CAT, "/game join")).ok
    assert (await say(host, CAT, "/game leave")).ok
    not_host = await say(host, BOB, "/game start")
    assert not_host.error == R.FORBIDDEN and "ann" in not_host.private
    started = await say(host, ANN, "/game start")
    assert started.ok and started.pings == [ANN.user_id]
    row = await store.open_game(GUILD, CHANNEL)
    assert row.status == "active" and row.seed == 42
    assert [s.display_name for s in await store.seats(row.id)] == ["ann", "bob"]


async def test_start_checks_player_counts(host):
    await say(host, ANN, "/game new trains")
    reply = await say(host, ANN, "/game start")
    assert not reply.ok and "2–4 players" in reply.private and "1 joined" in reply.private


async def test_new_refuses_busy_channel_unknown_game_and_bad_options(host, monkeypatch):
    # Every game on the old roadmap now has an engine: a made-up one stands for the next.
    monkeypatch.setitem(PLANNED, "next-game", PlannedGame("next-game", "Next Game", "next", 1, 4))
    unknown = await say(host, ANN, "/game new tiny-town")
    assert not unknown.ok and 'did you mean "tiny-towns"' in unknown.private
    planned = await say(host, ANN, "/game new next-game")  # a game on the roadmap
    assert not planned.ok and "not available yet" in planned.private
    bad_option = await say(host, ANN, "/game new tiny-towns cavee=on")
    assert not bad_option.ok and 'did you mean "cave"' in bad_option.private
    assert (await say(host, ANN, "/game new tiny-towns")).ok
    busy = await say(host, BOB, "/game new tiny-towns")
    assert not busy.ok and "already has" in busy.private
    thread = await say(host, BOB, "/game new tiny-towns", channel="thread-1")
    assert thread.ok


async def test_host_leaving_passes_the_host_role(host, store):
    await say(host, ANN, "/game new tiny-towns")
    await say(host, BOB, "/game join")
    left = await say(host, ANN, "/game leave")
    assert left.ok and "bob is the new host" in left.public
    assert (await say(host, BOB, "/game start")).ok


async def test_every_kind_of_bad_input_leaves_the_game_untouched(host, store):
    none = await say(host, ANN, "/tt announce wood")
    assert none.error == R.NO_GAME and "/game new tiny-towns" in none.private
    await say(host, ANN, "/game new tiny-towns buildings=first-game")
    await say(host, BOB, "/game join")
    before = await snapshot(store)
    not_started = await say(host, ANN, "/tt announce wood")
    assert not_started.error == R.NOT_STARTED
    assert await snapshot(store) == before
    await say(host, ANN, "/game start")
    cases = [
        (CAT, "/tt place A1", R.NOT_PLAYER, "not playing"),
        (BOB, "/tt announce wood", R.NOT_YOUR_TURN, "ann"),
        (ANN, "/tt anounce wood", R.BAD_COMMAND, "announce"),
        (ANN, "/tt announce woood", R.BAD_COMMAND, "wood"),
        (ANN, "hello", R.BAD_COMMAND, "slash"),
        (ANN, "/trains buy express-train", R.BAD_COMMAND, "/tt"),
        (ANN, "/tx place A1", R.BAD_COMMAND, "/tt"),
        (ANN, "/game frobnicate", R.BAD_COMMAND, "Commands"),
        (ANN, "/tt place A1", R.ILLEGAL, ""),
        (BOB, "/game kick ann", R.FORBIDDEN, "moderators"),
        (BOB, "/game rollback 0", R.FORBIDDEN, "moderators"),
        (BOB, "/game abort", R.FORBIDDEN, ""),
        (ANN, "/game join", R.BAD_COMMAND, "started"),
        (ANN, "/game undo", R.ILLEGAL, "undo"),
    ]
    before = await snapshot(store)
    for actor, text, kind, words in cases:
        reply = await say(host, actor, text)
        assert not reply.ok, text
        assert reply.error == kind, (text, reply.error, reply.private)
        assert words.lower() in reply.private.lower(), (text, reply.private)
        assert reply.public == "" and reply.pings == []
        assert await snapshot(store) == before, text


async def test_status_history_rules_and_board_are_private(host):
    await started_two_player(host)
    assert (await say(host, ANN, "/tt announce wood")).ok
    assert (await say(host, BOB, "/tt place C3")).ok
    status = await say(host, CAT, "/game status")
    assert status.ok and status.public == "" and "ann, bob" in status.private
    history = await say(host, CAT, "/game history 5")
    assert history.private.splitlines() == ["#1 ann: /tt announce wood", "#2 bob: /tt place C3"]
    rules = await say(host, CAT, "/game rules")
    assert rules.ok and "Topics:" in rules.private
    topic = await say(host, CAT, "/game rules bilding")
    assert not topic.ok and "Topics" in topic.private
    board = await say(host, CAT, "/game board bob")
    assert board.ok and board.public == ""


async def test_moderators_kick_substitute_skip_and_abort(host, store):
    await started_two_player(host)
    skipped = await say(host, MOD, "/game skip")
    assert skipped.ok and "skipped ann" in skipped.public
    sub = await say(
        host,
        MOD,
        "/game substitute bob <@3>",
    )
    assert sub.ok and "takes over bob's seat" in sub.public
    row = await store.open_game(GUILD, CHANNEL)
    assert [s.user_id for s in await store.seats(row.id)] == [ANN.user_id, "3"]
    wrong = await say(host, BOB, "/tt place A1")
    assert wrong.error == R.NOT_PLAYER
    abort = await say(host, MOD, "/game abort")
    assert abort.ok
    assert await store.open_game(GUILD, CHANNEL) is None
    assert (await store.get_game(row.id)).status == "aborted"


async def test_resign_ends_a_two_player_game_for_the_resigner(host, store):
    await started_two_player(host)
    reply = await say(host, BOB, "/game resign confirm")
    assert reply.ok and "bob resigned" in reply.public
    moves = await store.moves((await store.all_games())[0].id)
    assert moves[-1].text == "/game resign" and moves[-1].seat == 1


async def test_list_and_mygames(host):
    await started_two_player(host)
    listing = await say(host, BOB, "/game list")
    assert "Tiny Towns" in listing.private and "ann to name a resource" in listing.private
    assert "your turn" in (await say(host, ANN, "/game mygames")).private
    assert "not your turn" in (await say(host, BOB, "/game mygames")).private
