"""Issue 12, "A table a community can run by itself": seats, skips, aborts, confirmations and help,
driven through the host core as the console, transcripts and Discord drive it."""

from __future__ import annotations

import games
from bot import replies as R
from bot.check import check_store
from bot.core import Conductor
from bot.replies import Actor, Reply
from storage import Store
from tests.core.conftest import ANN, BOB, CAT, CHANNEL, GUILD, MOD, say, started_three_player, started_two_player

DAVE = Actor("4", "dave")
OTHER = "c2"


async def sub_bob_for_dave(host: Conductor) -> Reply:
    reply = await host.handle(GUILD, CHANNEL, MOD, "/mod substitute bob <@4>", names={"4": "dave"})
    assert reply.ok and "dave takes over bob's seat" in reply.public
    return reply


async def state_of(store: Store, channel: str = CHANNEL):
    row = await store.latest_game(GUILD, channel)
    assert row is not None
    return row


async def all_pages(host: Conductor, game: str, topic: str) -> str:
    """A rules topic with its continuation pages (decisions, decisions-2, ...)."""
    text = ""
    for page in [topic, *(f"{topic}-{n}" for n in range(2, 10))]:
        reply = await say(host, ANN, f"/game rules {game} {page}")
        if not reply.ok:
            break
        text += reply.private + "\n"
    return text


# ----- seats and moderation ---------------------------------------------------------------------


async def test_substitute_shows_the_new_holder_everywhere_in_tiny_towns(host: Conductor, store: Store) -> None:
    await started_two_player(host)
    assert (await say(host, ANN, "/tt announce wood")).ok
    assert (await say(host, ANN, "/tt place A1")).ok
    await sub_bob_for_dave(host)
    game = await host.channel_game(GUILD, CHANNEL)
    assert game is not None
    # The state keeps the setup names (replays stay valid); what is shown follows the seat.
    assert game.row.state is not None and game.row.state["names"] == ["ann", "bob"]
    assert "dave" in game.spec.status(game.row.state).summary and "bob" not in game.spec.status(game.row.state).summary
    assert game.spec.view(game.row.state, None)["names"] == ["ann", "dave"]
    assert [s["player"] for s in game.spec.standings(game.row.state)].count("dave") == 1
    status = await say(host, ANN, "/game status")
    assert "dave" in status.private and "bob" not in status.private
    # The replaced player is told who holds the seat now.
    refused = await say(host, BOB, "/tt place B2")
    assert refused.error == R.NOT_PLAYER and "dave holds it" in refused.private
    placed = await say(host, DAVE, "/tt place B2")
    assert placed.ok and "dave" in placed.public.lower() and "bob" not in placed.public.lower()
    # Next round: dave is the Master Builder, named, waited for and pinged as dave.
    game = await host.channel_game(GUILD, CHANNEL)
    assert game is not None and game.row.state is not None
    to_act = game.spec.status(game.row.state).to_act
    if 1 in to_act:
        assert placed.waiting == [("4", "dave")]
        named = await say(host, DAVE, "/tt announce brick")
        assert named.ok and "dave names brick" in named.public.lower()
    history = await say(host, ANN, "/game history")
    assert "dave" in history.private
    export = (await say(host, ANN, "/game export")).private
    assert "players: ann, dave" in export
    assert [f.kind for f in await check_store(store)] == ["ok"]  # replays with the setup names


async def test_substitute_in_trains_and_the_standings_at_the_end(host: Conductor, store: Store) -> None:
    for actor, text in [(ANN, "/game new trains"), (BOB, "/game join"), (ANN, "/game start")]:
        assert (await say(host, actor, text)).ok
    await sub_bob_for_dave(host)
    game = await host.channel_game(GUILD, CHANNEL)
    assert game is not None and game.row.state is not None
    first = game.spec.legal_moves(game.row.state, 0)[0]
    started = await say(host, ANN, game.spec.format(first))
    assert started.ok and "dave" in started.public and started.pings == ["4"]
    assert "bob" not in started.public
    ended = await say(host, MOD, "/mod kick ann")  # fewer than two players remain: the game ends
    assert ended.ok and ended.finished and "dave" in ended.public and "bob" not in ended.public
    row = await state_of(store)
    assert row.status == "finished" and row.state is not None and row.state["names"] == ["ann", "bob"]
    shown = (await say(host, ANN, "/game status")).private
    assert "dave" in shown and "bob" not in shown
    export = (await say(host, ANN, "/game export")).private
    assert "standings:" in export and "dave=" in export and "bob" not in export
    assert [f.kind for f in await check_store(store)] == ["ok"]


async def test_kick_is_not_a_resignation_in_trains(host: Conductor, store: Store) -> None:
    for actor, text in [(ANN, "/game new trains"), (BOB, "/game join"), (CAT, "/game join"), (ANN, "/game start")]:
        assert (await say(host, actor, text)).ok
    kicked = await say(host, MOD, "/mod kick cat")
    assert kicked.ok and "kicked by a moderator" in kicked.public and "resign" not in kicked.public.lower()
    row = await state_of(store)
    spec = games.get_game("trains")
    assert row.state is not None
    view = spec.view(row.state, None)
    assert [p["kicked"] for p in view["players"]] == [False, False, True]
    cat = next(s for s in spec.standings(row.state) if s["player"] == "cat")
    assert cat["title"] == "kicked"
    moves = await store.moves(row.id)
    assert moves[-1].text == "/game kick"
    assert [f.kind for f in await check_store(store)] == ["ok"]  # the log replays the kick
    decisions = await all_pages(host, "trains", "decisions")
    assert "kicked" in decisions and "rails stay on the board" in decisions


async def test_kick_in_tiny_towns_and_the_old_game_texts_still_work(host: Conductor, store: Store) -> None:
    await started_two_player(host)
    kicked = await say(host, MOD, "/game kick bob")  # the old text: an alias of /mod kick
    assert kicked.ok and "bob was kicked by a moderator" in kicked.public and "leaves the game" not in kicked.public
    row = await state_of(store)
    assert row.state is not None and games.get_game("tiny-towns").view(row.state, None)["towns"][1]["kicked"]
    decisions = await all_pages(host, "tiny-towns", "decisions")
    assert "kicked by a moderator" in decisions.lower()


async def test_moderator_commands_live_under_mod_and_are_refused_to_members(host: Conductor) -> None:
    await started_two_player(host)
    for text in ("/mod kick bob", "/mod skip", "/mod pause", "/mod config show", "/mod abort", "/game kick bob"):
        refused = await say(host, ANN, text)
        assert refused.error == R.FORBIDDEN and "/mod " in refused.private, text
    unknown = await say(host, MOD, "/mod dance")
    assert unknown.error == R.BAD_COMMAND and "kick" in unknown.private


async def test_skip_plays_the_declared_least_harmful_move_and_ends_the_phase(host: Conductor, store: Store) -> None:
    await started_two_player(host)
    assert (await say(host, ANN, "/tt announce wood")).ok
    assert (await say(host, ANN, "/tt place B2")).ok
    skipped = await say(host, MOD, "/mod skip bob")
    assert skipped.ok and "skipped bob's turn" in skipped.public
    assert "/tt place A1" in skipped.public  # a corner: the least harmful square, not the bot's choice
    row = await state_of(store)
    assert row.state is not None
    assert 1 not in games.get_game("tiny-towns").status(row.state).to_act or row.state["round"] > 1


async def test_skip_in_trains_ends_the_turn_without_playing_or_buying(host: Conductor, store: Store) -> None:
    for actor, text in [(ANN, "/game new trains"), (BOB, "/game join"), (ANN, "/game start")]:
        assert (await say(host, actor, text)).ok
    assert (await say(host, MOD, "/mod skip")).ok  # start phase: a starting rail, the first free hex
    assert (await say(host, MOD, "/mod skip")).ok
    row = await state_of(store)
    assert row.state is not None and row.state["phase"] == "play"
    current = row.state["current"]
    before = len(await store.moves(row.id))
    skipped = await say(host, MOD, "/mod skip")
    assert skipped.ok and "/trains end" in skipped.public and "play " not in skipped.public
    moves = await store.moves(row.id)
    assert [m.text for m in moves[before:]] == ["/trains end"]  # one command, one turn, nothing bought
    row = await state_of(store)
    assert row.state is not None and row.state["current"] != current


async def test_the_host_aborts_alone_before_anyone_else_moved(host: Conductor) -> None:
    await started_two_player(host)
    assert (await say(host, ANN, "/tt announce wood")).ok  # the host's own move
    aborted = await say(host, ANN, "/game abort")
    assert aborted.ok and aborted.status == "aborted" and aborted.finished


async def test_aborting_a_game_in_progress_needs_every_player(host: Conductor, store: Store) -> None:
    await started_three_player(host)
    for actor, text in [
        (ANN, "/tt announce wood"),
        (BOB, "/tt place A1"),
    ]:
        assert (await say(host, actor, text)).ok
    assert (await say(host, BOB, "/game abort")).error == R.FORBIDDEN  # only the host asks
    asked = await say(host, ANN, "/game abort")
    assert asked.ok and "asks to abort" in asked.public and "bob, cat" in asked.public
    assert ("Agree to abort", "/game abort") in asked.buttons and ("Keep playing", "/game abort no") in asked.buttons
    assert (await say(host, BOB, "/game abort")).ok
    assert (await say(host, ANN, "/game abort")).error == R.BAD_COMMAND  # already agreed
    kept = await say(host, CAT, "/game abort no")
    assert kept.ok and "keep playing" in kept.public
    assert (await store.open_game(GUILD, CHANNEL)) is not None
    for actor in (ANN, BOB, CAT):
        last = await say(host, actor, "/game abort")
    assert last.ok and "Every player agreed" in last.public and last.status == "aborted"


async def test_after_an_abort_status_board_and_list_say_so(store: Store) -> None:
    host = Conductor(store, seed_source=lambda: 42)  # with images
    await started_two_player(host)
    assert (await say(host, MOD, "/mod abort")).ok
    status = await say(host, BOB, "/game status")
    assert "was aborted by mod" in status.private and "waiting" not in status.private
    board = await say(host, BOB, "/game board")
    assert board.ok and "aborted" in board.private and "not started" not in board.private
    assert board.private_images and "aborted" in board.private_images[0].description
    listed = await say(host, BOB, "/game list")
    assert "aborted" in listed.private


# ----- confirmations and mistakes -------------------------------------------------------------------


async def test_starting_alone_asks_first_and_start_solo_does_not(host: Conductor, store: Store) -> None:
    assert (await say(host, ANN, "/game new tiny-towns")).ok
    asked = await say(host, ANN, "/game start")
    assert asked.ok and "Start solo Tiny Towns?" in asked.private and not asked.public
    assert [label for label, _ in asked.buttons] == ["Start solo", "Wait for players"]
    assert (await store.open_game(GUILD, CHANNEL)).status == "lobby"  # type: ignore[union-attr]
    started = await say(host, ANN, "/game start solo")
    assert started.ok and started.status == "active"


async def test_resign_asks_for_confirmation(host: Conductor, store: Store) -> None:
    await started_two_player(host)
    asked = await say(host, BOB, "/game resign")
    assert asked.ok and "Resign from Tiny Towns?" in asked.private and not asked.public
    assert ("Resign", "/game resign confirm") in asked.buttons
    row = await state_of(store)
    assert len(await store.moves(row.id)) == 0
    done = await say(host, BOB, "/game resign confirm")
    assert done.ok and "bob resigned" in done.public


async def test_resigning_a_solo_game_is_a_loss_never_a_win(host: Conductor) -> None:
    assert (await say(host, ANN, "/game new tiny-towns")).ok
    assert (await say(host, ANN, "/game start solo")).ok
    resigned = await say(host, ANN, "/game resign confirm")
    assert resigned.ok and resigned.finished and "loss" in resigned.public
    assert "Winner" not in resigned.public and "won" not in resigned.public
    status = await say(host, ANN, "/game status")
    assert "loss" in status.private and "won" not in status.private


# ----- help you can find -------------------------------------------------------------------------


async def test_help_says_what_the_bot_is_and_gives_the_channels_quick_start(host: Conductor) -> None:
    general = await say(host, ANN, "/game help")
    assert general.ok
    for expected in ("Tabletop Conductor", "Tiny Towns", "Trains", "/game new <game>", "/game join", "/game hand"):
        assert expected in general.private
    assert "players" in general.private
    await started_two_player(host)
    here = await say(host, ANN, "/game help")
    assert "This channel: Tiny Towns" in here.private and "/tt place" in here.private


async def test_rules_of_any_game_work_in_any_channel(host: Conductor) -> None:
    await started_two_player(host)  # Tiny Towns here
    trains = await say(host, ANN, "/game rules trains")
    assert trains.ok and "deck-building" in trains.private
    topic = await say(host, ANN, "/game rules trains kingdom")
    assert topic.ok and "Kingdom cards" in topic.private
    own = await say(host, ANN, "/game rules")
    assert own.ok and "Tiny Towns" in own.private
    nowhere = await say(host, ANN, "/game rules trains", channel=OTHER)
    assert nowhere.ok


async def test_every_more_pointer_in_the_rules_works_everywhere(host: Conductor) -> None:
    import re

    await started_two_player(host)  # a Tiny Towns channel, and an empty one
    for manifest in games.manifests():
        for text in manifest.spec.rules_help.values():
            for pointer in re.findall(r"More: `?(/game rules [\w -]+?)`?\.?$", text, re.M):
                for channel in (CHANNEL, OTHER):
                    reply = await say(host, ANN, pointer.strip(), channel=channel)
                    assert reply.ok, (pointer, channel, reply.private)


# ----- Trains --------------------------------------------------------------------------------------


async def _trains_in_play(host: Conductor, store: Store, *players: Actor) -> None:
    await say(host, ANN, "/game new trains map=tokyo")
    for actor in players:
        await say(host, actor, "/game join")
    assert (await say(host, ANN, "/game start")).ok
    for _ in range(1 + len(players)):
        assert (await say(host, MOD, "/mod skip")).ok


async def test_play_all_trains_plays_every_train_card_at_once(host: Conductor, store: Store) -> None:
    await _trains_in_play(host, store, BOB)
    row = await state_of(store)
    assert row.state is not None
    seat = row.state["current"]
    actor = (ANN, BOB)[seat]
    hand = row.state["players"][seat]["hand"]
    trains = sum(1 for card in hand if card in ("normal-train", "express-train", "limited-express-train"))
    played = await say(host, actor, "/trains play all-trains")
    assert played.ok and "plays all trains" in played.public
    assert played.public.count("\n") <= 2  # one line for the play (and the banner), not one per card
    row = await state_of(store)
    assert row.state is not None and row.state["turn"]["money"] >= trains
    assert ("Play all trains", "play all-trains") in played.quick_moves


async def test_a_bots_turn_is_one_line(host: Conductor, store: Store) -> None:
    await say(host, ANN, "/game new trains map=tokyo")
    await say(host, ANN, "/game addbot")
    assert (await say(host, ANN, "/game start")).ok
    row = await state_of(store)
    assert row.state is not None
    for _ in range(2):
        await say(host, MOD, "/mod skip ann")
    reply = await say(host, MOD, "/mod skip ann")  # ann ends her turn; the bot plays a whole turn
    bot_lines = [line for line in reply.public.splitlines() if line.startswith("Bot 1")]
    assert len(bot_lines) == 1, reply.public
    assert "; " in bot_lines[0]


async def test_trains_hexes_accept_city_names(host: Conductor, store: Store) -> None:
    for actor, text in [(ANN, "/game new trains map=tokyo"), (BOB, "/game join"), (ANN, "/game start")]:
        assert (await say(host, actor, text)).ok
    placed = await say(host, ANN, "/trains start shinjuku")
    assert placed.ok and "H6" in placed.public
    wrong = await say(host, BOB, "/trains start umeda")  # a city of the Osaka map
    assert wrong.error and 'no "umeda" on the Tokyo map' in wrong.private
    labels = dict(await host.labelled_commands(GUILD, CHANNEL, BOB.user_id))
    assert any("Shibuya" in label for label in labels.values())


async def test_kick_and_skip_work_for_every_registered_game(store: Store) -> None:
    """Generic host paths: a game without a ``kick`` declaration is kicked through its resign (and its
    own "resigned" line is not shown); skip never needs more than one command."""
    for number, manifest in enumerate(games.manifests()):
        spec = manifest.spec
        if spec.max_players < 2:
            continue
        host = Conductor(store, render_images=False, seed_source=lambda: 7)
        channel = f"every-{number}"
        for actor, text in [(ANN, f"/game new {spec.slug}"), (BOB, "/game join"), (ANN, "/game start")]:
            assert (await say(host, actor, text, channel=channel)).ok, (spec.slug, text)
        skipped = await say(host, MOD, "/mod skip", channel=channel)
        assert skipped.ok and "skipped" in skipped.public, (spec.slug, skipped.private)
        kicked = await say(host, MOD, "/mod kick bob", channel=channel)
        assert kicked.ok and "kicked by a moderator" in kicked.public, spec.slug
        assert "resign" not in kicked.public.lower(), (spec.slug, kicked.public)
    assert {f.kind for f in await check_store(store)} == {"ok"}


ABORT_SCRIPT = [  # (who, command, refusal code or None, exact public text, exact private text)
    ("ann", "/game new tiny-towns buildings=first-game", None, None, None),
    ("bob", "/game abort", R.FORBIDDEN, "", "Only the host or a moderator can close the lobby."),
    ("ann", "/game abort", None, "ann closed the Tiny Towns lobby.", ""),
    ("ann", "/game new tiny-towns buildings=first-game", None, None, None),
    ("bob", "/game join", None, None, None),
    ("ann", "/game start", None, None, None),
    ("ann", "/game abort no", R.BAD_COMMAND, "", "Nobody has asked to abort this game."),
    ("ann", "/tt announce wood", None, None, None),
    ("bob", "/tt place A1", None, None, None),
    ("cat", "/game abort", R.FORBIDDEN, "", "Only the players (all of them agreeing) or a moderator can abort a game."),
    (
        "bob",
        "/game abort",
        R.FORBIDDEN,
        "",
        "Only the host can ask to abort a game in progress (or ask a moderator for `/mod abort`).",
    ),
    ("bob", "/game abort no", R.BAD_COMMAND, "", "Nobody has asked to abort this game."),
    (
        "ann",
        "/game abort",
        None,
        "ann asks to abort the Tiny Towns game. Waiting for: bob (`/game abort` to agree, `/game abort no` to keep "
        "playing).",
        "",
    ),
    ("ann", "/game abort", R.BAD_COMMAND, "", "You have already agreed; waiting for the others."),
    ("cat", "/game abort no", R.NOT_PLAYER, "", "Only the players decide whether to abort."),
    ("bob", "/game abort no", None, "bob wants to keep playing: the game goes on.", ""),
    ("ann", "/game abort", None, None, ""),
    ("bob", "/game abort", None, "Every player agreed: the Tiny Towns game is aborted.", ""),
    ("ann", "/game new tiny-towns buildings=first-game", None, None, None),
    ("ann", "/game addbot 0", None, None, None),
    ("ann", "/game start", None, None, None),
    ("ann", "/tt announce wood", None, None, None),  # the bot places at once: a bot's move is not "anyone else"
    ("ann", "/game abort", None, "ann aborted the Tiny Towns game before anyone else had moved.", ""),
    ("ann", "/game new tiny-towns buildings=first-game", None, None, None),
    ("bob", "/game join", None, None, None),
    ("ann", "/game start", None, None, None),
    ("mod", "/game abort", None, "mod aborted the Tiny Towns game (moderator).", ""),
]


async def test_abort_answers_each_asker_with_its_own_reason(host: Conductor) -> None:
    """Every abort path, word for word: who may close a lobby, ask, agree or refuse, and what each is told."""
    actors = {"ann": ANN, "bob": BOB, "cat": CAT, "mod": MOD}
    for who, text, error, public, private in ABORT_SCRIPT:
        reply = await say(host, actors[who], text)
        assert reply.error == error, (who, text, reply.private)
        if public is not None:
            assert reply.public == public, (who, text)
        if private is not None:
            assert reply.private == private, (who, text)


async def test_rollback_refusals_and_what_it_keeps(host: Conductor, store: Store) -> None:
    assert (await say(host, ANN, "/game new tiny-towns buildings=first-game")).ok
    early = await say(host, MOD, "/mod rollback 0")
    assert early.error == R.NOT_STARTED and early.private == "The game has not started."
    for actor, text in [(BOB, "/game join"), (ANN, "/game start"), (ANN, "/tt announce wood"), (BOB, "/tt place A1")]:
        assert (await say(host, actor, text)).ok
    usage = "Use `/mod rollback <move number>` with 0..2 (the game is re-played up to and including that move)."
    for text in ("/mod rollback 5", "/mod rollback"):
        refused = await say(host, MOD, text)
        assert refused.error == R.BAD_COMMAND and refused.private == usage
    assert (await say(host, ANN, "/mod rollback 1")).error == R.FORBIDDEN
    rolled = await say(host, MOD, "/mod rollback 1")
    assert rolled.ok and rolled.status == "active" and rolled.public.startswith("mod rolled the game back to move 1.")
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None and [m.text for m in await store.moves(row.id)] == ["/tt announce wood"]
    assert not any(row.state["towns"][1]["cells"])  # bob's cube is gone with his move


UNDO_SCRIPT = [  # (who, command, refusal code or None, public text starts with, exact private text)
    ("ann", "/game new tiny-towns buildings=first-game", None, "", None),
    ("ann", "/game undo", R.NOT_STARTED, "", "There is nothing to undo."),
    ("bob", "/game join", None, "", None),
    ("ann", "/game start", None, "", None),
    ("cat", "/game undo", R.NOT_PLAYER, "", "You are not playing in this game."),
    (
        "ann",
        "/game undo",
        R.ILLEGAL,
        "",
        "You can only undo your own move, and only while it is the last move of the game (nobody has acted "
        "since), or while its turn or phase is still open.",
    ),
    ("mod", "/game pause", None, "", None),
    ("ann", "/game undo", R.PAUSED, "", "A moderator paused this game; undo waits until it resumes."),
    ("mod", "/game pause off", None, "", None),
    ("ann", "/tt announce wood", None, "", None),
    ("ann", "/game undo", None, "ann took back `/tt announce wood`.\n**ann to name a resource**", ""),
    ("ann", "/tt announce wood", None, "", None),
    ("bob", "/tt place A1", None, "", None),
    ("ann", "/tt place A1", None, "ann places wood on A1.\nRound 1 is over.", None),
    (
        "bob",
        "/game undo",
        R.ILLEGAL,
        "",
        "Too late to take that back: its turn or phase is over. You can undo your own move while nobody has "
        "acted since, or while its turn or phase is still open.",
    ),
    ("ann", "/game undo", None, "ann took back `/tt place A1`.\n**round 1 (wood): waiting for: ann**", ""),
]


async def test_undo_answers_each_case_with_its_own_reason(host: Conductor) -> None:
    """Every undo refusal word for word, and what a taken-back move says (and reopens)."""
    actors = {"ann": ANN, "bob": BOB, "cat": CAT, "mod": MOD}
    for who, text, error, public, private in UNDO_SCRIPT:
        reply = await say(host, actors[who], text)
        assert reply.error == error, (who, text, reply.private)
        assert reply.public.startswith(public), (who, text, reply.public)
        if private is not None:
            assert reply.private == private, (who, text)
