"""What players look at, word for word: ``/game status``, ``board``, ``hand``, ``history``, ``export``,
``rules`` and ``help`` in each state of a game (no game, lobby, started, paused, aborted), with the
refusals saying what is possible instead (issue 17, host mutation testing: ``bot/table.py``'s
display functions). Each step is (who, command, expected error code, expected private text)."""

from __future__ import annotations

from dataclasses import replace

import pytest

import games
from bot import replies as R
from bot.core import Conductor
from bot.replies import Actor
from bot.table import games_line
from storage import Store
from tests.core.conftest import ANN, BOB, CAT, CHANNEL, GUILD, MOD, say

Step = tuple[Actor, str, str | None, str]

NO_GAME = (
    "There is no game in this channel. Start one with `/game new <game>` (tiny-towns, trains, tramways, trolley-town)."
)
GAMES_LINE = (
    "Games: Tiny Towns (`tiny-towns`, 1–6 players, moves with `/tt`); Trains (`trains`, 2–4 players, moves with "
    "`/trains`); Tramways (`tramways`, 1–5 players, moves with `/tram`); My Trolley Town (`trolley-town`, 1–4 "
    "players, moves with `/trolley`)"
)
TT_TOPICS = "overview, commands, buildings, buildings-2, monuments, variants, decisions, decisions-2, decisions-3"


async def run_steps(host: Conductor, steps: list[Step]) -> None:
    for actor, text, error, private in steps:
        reply = await say(host, actor, text)
        assert (text, reply.error, reply.private) == (text, error, private)
        assert reply.public == "", text  # looking never posts anything in the channel
        # Answers about the channel's game carry its id and version (buttons under them act on
        # that game as it is); a rules refusal and "no game" belong to no game.
        row = await host.store.latest_game(GUILD, CHANNEL)
        tied = row is not None and not (text.startswith("/game rules") and error is not None)
        expected = (row.id, row.version) if row is not None and tied else (None, None)
        assert (reply.game_id, reply.version) == expected, text


async def test_every_look_before_and_in_the_lobby(host: Conductor) -> None:
    await run_steps(
        host,
        [
            (ANN, "/game status", R.NO_GAME, NO_GAME),
            (ANN, "/game board", R.NO_GAME, NO_GAME),
        ],
    )
    assert (await say(host, ANN, "/game new tiny-towns buildings=first-game")).ok
    assert (await say(host, BOB, "/game join")).ok
    assert (await say(host, ANN, "/game addbot")).ok
    await run_steps(
        host,
        [
            (
                ANN,
                "/game status",
                None,
                "Tiny Towns lobby, players: ann, bob, Bot 1 (bot) (1–6 players). The host starts with `/game start`.",
            ),
            (BOB, "/game board", R.NOT_STARTED, "The game has not started yet; there is no board to show."),
            (BOB, "/game hand", R.NOT_STARTED, "The game has not started yet."),
            (BOB, "/game history", None, "No moves yet."),
            (BOB, "/game export", R.NOT_STARTED, "The game has not started; there is nothing to export yet."),
            (BOB, "/game undo", R.NOT_STARTED, "There is nothing to undo."),
            (MOD, "/mod rollback 0", R.NOT_STARTED, "The game has not started."),
        ],
    )


async def test_every_look_in_a_started_game(host: Conductor) -> None:
    assert (await say(host, ANN, "/game new tiny-towns buildings=first-game")).ok
    assert (await say(host, BOB, "/game join")).ok
    assert (await say(host, ANN, "/game addbot")).ok
    assert (await say(host, ANN, "/game start")).ok
    await run_steps(
        host,
        [
            (
                CAT,
                "/game status",
                None,
                "Tiny Towns (game 1, move 0). Players: ann, bob, Bot 1 (bot).\nann to name a resource.\n"
                "Scores: ann -16, bob -16, Bot 1 -16",
            ),
            (CAT, "/game hand", R.NOT_PLAYER, "You are not playing in this game, so you have no hand."),
            (BOB, "/game hand", None, "No monuments in this game."),
            (CAT, "/game board", None, "ann to name a resource"),
            (CAT, "/game history", None, "No moves yet."),
        ],
    )
    for actor, text in [(ANN, "/tt announce wood"), (ANN, "/tt place A1"), (BOB, "/tt place B2")]:
        assert (await say(host, actor, text)).ok
    await run_steps(
        host,
        [
            # The bot placed its wood when ann named it: moves 2 and 4 are ann's and bob's.
            (
                CAT,
                "/game history",
                None,
                "#1 ann: /tt announce wood\n#2 Bot 1: /tt place B4\n#3 ann: /tt place A1\n#4 bob: /tt place B2",
            ),
            (CAT, "/game history 2", None, "#3 ann: /tt place A1\n#4 bob: /tt place B2"),
            (CAT, "/game board", None, "bob to name a resource"),
            (
                MOD,
                "/mod rollback 5",
                R.BAD_COMMAND,
                "Use `/mod rollback <move number>` with 0..4 (the game is re-played up to and including that move).",
            ),
        ],
    )
    status = await say(host, CAT, "/game status")
    assert status.private.startswith("Tiny Towns (game 1, move 4). Players: ann, bob, Bot 1 (bot).\nbob to name")
    assert (await say(host, MOD, "/mod pause")).ok
    paused = await say(host, CAT, "/game status")
    assert paused.private.startswith(
        "Tiny Towns (game 1, move 4). Paused by a moderator. Players: ann, bob, Bot 1 (bot).\nbob to name a resource.\n"
    )


async def test_an_aborted_game_says_who_aborted_it_and_how_it_stood(host: Conductor) -> None:
    assert (await say(host, ANN, "/game new tiny-towns buildings=first-game")).ok
    assert (await say(host, BOB, "/game join")).ok
    assert (await say(host, ANN, "/game start")).ok
    assert (await say(host, ANN, "/tt announce wood")).ok
    assert (await say(host, MOD, "/game abort")).ok
    await run_steps(
        host,
        [
            (
                BOB,
                "/game status",
                None,
                "This Tiny Towns game was aborted by mod. Players: ann, bob. Start a new one with `/game new <game>`."
                "\nScores when it stopped: bob -16, ann -16",
            ),
            (BOB, "/game board", None, "This Tiny Towns game was aborted by mod."),
            (MOD, "/mod rollback 0", R.NOT_STARTED, "An aborted game can't be rolled back."),
        ],
    )


async def test_an_aborted_lobby_has_no_board_and_no_scores(host: Conductor) -> None:
    assert (await say(host, ANN, "/game new tiny-towns buildings=first-game")).ok
    assert (await say(host, ANN, "/game abort")).ok
    await run_steps(
        host,
        [
            (
                BOB,
                "/game status",
                None,
                "This Tiny Towns game was aborted by ann. Players: ann. Start a new one with `/game new <game>`.",
            ),
            (
                BOB,
                "/game board",
                R.NOT_STARTED,
                "This Tiny Towns game was aborted by ann. It ended before it started: there is no board.",
            ),
        ],
    )


async def test_a_lobby_that_expired_was_aborted_by_nobody(store: Store) -> None:
    now = [0.0]
    host = Conductor(store, render_images=False, clock=lambda: now[0])
    assert (await say(host, ANN, "/game new tiny-towns buildings=first-game")).ok
    now[0] = 7 * 86400 + 1
    assert len(await host.fire_due_timers()) == 1
    await run_steps(
        host,
        [
            (
                BOB,
                "/game status",
                None,
                "This Tiny Towns game was aborted. Players: ann. Start a new one with `/game new <game>`.",
            ),
            (
                BOB,
                "/game board",
                R.NOT_STARTED,
                "This Tiny Towns game was aborted. It ended before it started: there is no board.",
            ),
        ],
    )


async def test_rules_anywhere_by_game_topic_or_both(host: Conductor) -> None:
    tiny = games.get_game("tiny-towns")
    overview = tiny.rules_help["overview"].strip()
    await run_steps(
        host,
        [
            (ANN, "/game rules", None, GAMES_LINE + "\nRules of one game: `/game rules <game> [topic]`."),
            (
                ANN,
                "/game rules nosuch",
                R.BAD_COMMAND,
                'No game or rules topic "nosuch". Games: tiny-towns, trains, tramways, trolley-town '
                "(`/game rules <game> [topic]`).",
            ),
            (
                ANN,
                "/game rules tiny-town",
                R.BAD_COMMAND,
                'No game or rules topic "tiny-town" (did you mean "tiny-towns"?). Games: tiny-towns, trains, '
                "tramways, trolley-town (`/game rules <game> [topic]`).",
            ),
            (
                ANN,
                "/game rules Tiny-Towns nosuch",
                R.BAD_COMMAND,
                f'No Tiny Towns rules topic "nosuch". Topics: {TT_TOPICS}.',
            ),
            (
                ANN,
                "/game rules tiny-towns Monuments",
                None,
                tiny.rules_help["monuments"].strip(),
            ),
            (
                ANN,
                "/game rules TINY-TOWNS",
                None,
                f"{overview}\nTopics: {TT_TOPICS} (`/game rules tiny-towns <topic>`).",
            ),
            (
                ANN,
                "/game rules Decisions",
                R.BAD_COMMAND,
                'Several games have a topic "Decisions": `/game rules tiny-towns decisions`, `/game rules trains '
                "decisions`, `/game rules tramways decisions`, `/game rules trolley-town decisions`.",
            ),
            # A topic only one game has works without the game's name, in any channel.
            (ANN, "/game rules Kingdom", None, games.get_game("trains").rules_help["kingdom"].strip()),
        ],
    )


async def test_rules_in_a_channel_with_a_game_prefer_its_topics(host: Conductor, store: Store) -> None:
    tiny = games.get_game("tiny-towns")
    assert (await say(host, ANN, "/game new tiny-towns buildings=first-game")).ok
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None
    await run_steps(
        host,
        [
            (
                ANN,
                "/game rules",
                None,
                f"{tiny.rules_help['overview'].strip()}\nTopics: {TT_TOPICS} (`/game rules tiny-towns <topic>`).",
            ),
            (ANN, "/game rules Decisions", None, tiny.rules_help["decisions"].strip()),
            (ANN, "/game rules kingdom", None, games.get_game("trains").rules_help["kingdom"].strip()),
            # Unknown here and everywhere: refused with the channel game's topics.
            (
                ANN,
                "/game rules nosuch",
                R.BAD_COMMAND,
                f'No Tiny Towns rules topic "nosuch". Topics: {TT_TOPICS}.',
            ),
        ],
    )
    answered = await say(host, ANN, "/game rules")
    assert (answered.game_id, answered.version) == (row.id, row.version)
    refused = await say(host, ANN, "/game rules nosuch")
    assert refused.game_id is None  # a refusal is not tied to the game's version
    elsewhere = await say(host, ANN, "/game rules", channel="c2")
    assert elsewhere.game_id is None and elsewhere.private.startswith("Games: ")


async def test_the_games_line_names_every_game_with_its_players_and_command_group() -> None:
    assert games_line() == GAMES_LINE


GENERAL_HELP = "\n".join(
    [
        "**Tabletop Conductor** hosts board games in Discord channels: every move is a slash command (or a "
        "button), checked against the real rules, and the bot posts a fresh board after every turn. "
        "One game per channel; open more in threads (`/game new <game> thread:true`).",
        GAMES_LINE + ".",
        "Start one: `/game new <game>` (options as name=value; see `/game rules <game>`), then the host presses "
        "Start or types `/game start`.",
        "The three commands a new player needs: `/game join` (take a seat), `/game hand` (your private view, "
        "with your legal moves as a menu), `/game rules <game> [topic]` (rules and every move's syntax).",
        "More: `/game status`, `/game board`, `/game history`, `/game undo`, `/game resign`, `/game list`, "
        "`/game mygames`, `/game pings off`. Moderators: `/mod ...` (kick, skip, substitute, pause, config, ...).",
    ]
)


async def test_help_adds_the_channel_games_quick_start_while_it_is_open(host: Conductor, store: Store) -> None:
    tiny = games.get_game("tiny-towns")
    general = await say(host, ANN, "/game help")
    assert (general.private, general.game_id, general.version) == (GENERAL_HELP, None, None)
    quick = tiny.quick_start.strip()
    channel = f"Rules: `/game rules tiny-towns` (topics: {TT_TOPICS})."
    assert (await say(host, ANN, "/game new tiny-towns buildings=first-game")).ok
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None
    in_lobby = await say(host, BOB, "/game help")
    assert (
        in_lobby.private == f"{GENERAL_HELP}\n\n**This channel: Tiny Towns** (lobby). Quick start:\n{quick}\n{channel}"
    )
    assert (in_lobby.game_id, in_lobby.version) == (row.id, row.version)
    assert (await say(host, BOB, "/game join")).ok
    assert (await say(host, ANN, "/game start")).ok
    started = await say(host, BOB, "/game help")
    assert started.private == (
        f"{GENERAL_HELP}\n\n**This channel: Tiny Towns** (ann to name a resource). Quick start:\n{quick}\n{channel}"
    )
    assert (await say(host, MOD, "/mod abort")).ok
    ended = await say(host, BOB, "/game help")
    row = await store.latest_game(GUILD, CHANNEL)
    assert row is not None and row.status == "aborted"
    assert (ended.private, ended.game_id, ended.version) == (GENERAL_HELP, row.id, row.version)


@pytest.mark.parametrize(
    ("quick_start", "topics", "shown"),
    [
        ("", ("overview", "commands", "buildings"), "commands"),  # no quick start: the commands topic
        ("", ("overview", "buildings"), "overview"),  # nor a commands topic: the overview
        ("", ("buildings",), ""),  # nothing at all: an empty quick start
    ],
)
async def test_help_falls_back_to_the_commands_topic_then_the_overview(
    host: Conductor, monkeypatch: pytest.MonkeyPatch, quick_start: str, topics: tuple[str, ...], shown: str
) -> None:
    manifest = games.get_manifest("tiny-towns")
    help_pages = {topic: f"  The {topic} page.  " for topic in topics}
    spec = replace(manifest.spec, quick_start=quick_start, rules_help=help_pages)
    monkeypatch.setitem(games._loaded, "tiny-towns", replace(manifest, spec=spec))
    assert (await say(host, ANN, "/game new tiny-towns buildings=first-game")).ok
    quick = f"The {shown} page." if shown else ""
    assert (await say(host, BOB, "/game help")).private == (
        f"{GENERAL_HELP}\n\n**This channel: Tiny Towns** (lobby). Quick start:\n{quick}\n"
        f"Rules: `/game rules tiny-towns` (topics: {', '.join(topics)})."
    )
    # The overview page as written, then the topics; the whole answer trimmed.
    overview = help_pages.get("overview", "")
    assert (await say(host, BOB, "/game rules")).private == (
        f"{overview}\nTopics: {', '.join(topics)} (`/game rules tiny-towns <topic>`).".strip()
    )


async def test_a_summary_ending_in_a_capital_x_keeps_it(host: Conductor) -> None:
    """Only the summary's own full stop is trimmed before the status adds one."""
    max_ = Actor("5", "MAX")
    assert (await say(host, ANN, "/game new tiny-towns buildings=first-game")).ok
    assert (await say(host, max_, "/game join")).ok
    assert (await say(host, ANN, "/game start")).ok
    assert (await say(host, ANN, "/tt announce wood")).ok
    assert (await say(host, ANN, "/tt place A1")).ok
    status = await say(host, CAT, "/game status")
    assert status.private.splitlines()[1] == "round 1 (wood): waiting for: MAX."
