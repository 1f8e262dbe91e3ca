"""``/game export`` of a game with secret moves (which monument each player keeps): each reader sees
their own secret move and everyone else's as a comment, under a header saying why the export cannot
be replayed yet; a game with no secret moves has no header (issue 17, host mutation testing:
``export_game``, ``redacted``)."""

from __future__ import annotations

from bot.core import Conductor
from bot.replies import Actor
from storage import Store
from tests.core.conftest import ANN, BOB, CAT, CHANNEL, GUILD, say, started_two_player

HEADER = (
    "# Some moves are secret until the game ends and are shown as comments; this export can be "
    "replayed once the game is over."
)


async def export_lines(host: Conductor, actor: Actor) -> list[str]:
    reply = await say(host, actor, "/game export")
    assert reply.ok and reply.public == ""
    return reply.private.splitlines()


async def test_each_reader_sees_only_their_own_secret_move(host: Conductor, store: Store) -> None:
    for actor, text in [
        (ANN, "/game new tiny-towns buildings=first-game monuments=on"),
        (BOB, "/game join"),
        (ANN, "/game start"),
        (ANN, "/tt monument archive-of-the-second-age"),
        (BOB, "/tt monument mandras-palace"),
    ]:
        assert (await say(host, actor, text)).ok, text
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None
    for actor, moves in [
        (ANN, ["ann: /tt monument archive-of-the-second-age", "# bob: /tt monument (secret)"]),
        (BOB, ["# ann: /tt monument (secret)", "bob: /tt monument mandras-palace"]),
        (CAT, ["# ann: /tt monument (secret)", "# bob: /tt monument (secret)"]),
    ]:
        lines = await export_lines(host, actor)
        assert lines[:3] == [HEADER, "# Tiny Towns, game 1, exported by Tabletop Conductor", "game: tiny-towns"]
        assert lines[-3:] == ["options: buildings=first-game monuments=on", *moves], actor.name
    reply = await say(host, CAT, "/game export")
    assert (reply.game_id, reply.version) == (row.id, row.version)


async def test_an_export_without_secrets_has_no_header(host: Conductor) -> None:
    await started_two_player(host)
    assert (await say(host, ANN, "/tt announce wood")).ok
    lines = await export_lines(host, CAT)
    assert lines[0] == "# Tiny Towns, game 1, exported by Tabletop Conductor"
    assert lines[-2:] == ["options: buildings=first-game", "ann: /tt announce wood"]


async def test_once_the_game_is_over_every_secret_move_is_shown(host: Conductor) -> None:
    for actor, text in [
        (ANN, "/game new tiny-towns buildings=first-game monuments=on"),
        (ANN, "/game start solo"),
        (ANN, "/tt monument cathedral-of-caterina"),
        (ANN, "/game resign confirm"),  # a solo resignation ends the game
    ]:
        assert (await say(host, actor, text)).ok, text
    history = await say(host, CAT, "/game history")
    assert history.private == "#1 ann: /tt monument cathedral-of-caterina\n#2 ann: /game resign"
    lines = await export_lines(host, CAT)
    assert HEADER not in lines and "ann: /tt monument cathedral-of-caterina" in lines
