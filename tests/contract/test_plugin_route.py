"""A game installed as its own package plays through the whole platform without touching it.

Dice Duel (tests/plugins/dice_duel) registers only through the entry point of its dist-info.
With it registered, the host core runs a full game with images, the Discord command tree grows
its slash group, and its transcripts replay and export like a built-in game's.
"""

from __future__ import annotations

import importlib.metadata
import random
import sys
from collections.abc import AsyncIterator

import discord
import pytest
from discord import app_commands

import games
import rendering
from bot.core import Conductor
from bot.discord.bridge import view_for
from bot.discord.commands import build_tree
from bot.replies import Actor, Reply
from bot.transcript import TranscriptError, parse_transcript, replay
from games.base import GameManifest
from storage import Store
from tests.contract.registry import PLUGIN_DIST, PLUGIN_SLUG, PLUGINS, plugin_registered

pytestmark = pytest.mark.usefixtures("plugin_game")
GUILD, CHANNEL = "g-plugin", "c-plugin"
ANN, BOB = Actor("1", "ann"), Actor("2", "bob")
PNG = b"\x89PNG\r\n\x1a\n"


def test_registered_through_its_entry_point(plugin_game: GameManifest) -> None:
    assert PLUGIN_SLUG in games.available_slugs()
    point = next(p for p in importlib.metadata.entry_points(group=games.ENTRY_POINT_GROUP) if p.name == PLUGIN_SLUG)
    assert point.value == "dice_duel:MANIFEST"
    assert point.dist is not None and point.dist.name == PLUGIN_DIST and point.dist.version == "0.1"
    assert games.get_manifest(PLUGIN_SLUG) is plugin_game
    assert games.game_for_group("dd") is plugin_game.spec
    assert plugin_game.spec.turn_enders == ("done",)
    assert rendering.renderer_for(PLUGIN_SLUG).__name__ == plugin_game.renderer == "dice_duel.renderer"
    assert "dice_duel.renderer" in rendering.warm()
    # Nothing of the platform names it: it came from tests/plugins alone.
    assert sys.modules["dice_duel"].__file__.startswith(str(PLUGINS))  # type: ignore[union-attr]


def test_unregistering_restores_the_registry() -> None:
    """The fixture's undo: inside a nested registration the path is added once; leaving restores it."""
    before = list(sys.path)
    with plugin_registered():
        assert PLUGIN_SLUG in games.available_slugs()
    assert sys.path == before and PLUGIN_SLUG in games.available_slugs()


@pytest.fixture
async def host() -> AsyncIterator[Conductor]:
    store = await Store.open(":memory:")
    yield Conductor(store, render_images=True, seed_source=lambda: 42)
    await store.close()


async def say(host: Conductor, actor: Actor, text: str) -> Reply:
    return await host.handle(GUILD, CHANNEL, actor, text)


async def play_to_the_end(host: Conductor) -> list[Reply]:
    """ann and bob against a level-1 bot; the humans pick among their legal commands at random."""
    for actor, text in (
        (ANN, "/game new dice-duel doubles=on"),
        (BOB, "/game join"),
        (ANN, "/game addbot 1"),
        (ANN, "/game start"),
    ):
        reply = await say(host, actor, text)
        assert reply.ok, (text, reply.private)
    picker = random.Random(5)
    replies: list[Reply] = []
    undone = False
    for _ in range(200):
        game = await host.channel_game(GUILD, CHANNEL)
        if game is None:
            return replies
        state = game.row.state
        assert state is not None
        seat = game.spec.status(state).to_act[0]
        actor = (ANN, BOB)[seat]
        commands = await host.legal_commands(GUILD, CHANNEL, actor.user_id)
        assert commands, f"{actor.name} must act but has no legal command"
        stash = [c for c in commands if c.startswith("/dd stash")]
        text = stash[0] if stash and not undone else picker.choice(commands)
        reply = await say(host, actor, text)
        assert reply.ok, (text, reply.private)
        if text.startswith("/dd stash"):
            # A secret move: answered privately, and (not irreversible) it can be taken back.
            assert reply.hide_command and "You stashed" in reply.private
            if not undone:
                undone = True
                assert (await say(host, actor, "/game undo")).ok
                continue
        replies.append(reply)
        if reply.finished:
            return replies
    raise AssertionError("the game did not end in 200 commands")


async def test_a_full_game_through_the_host(host: Conductor) -> None:
    replies = await play_to_the_end(host)
    last = replies[-1]
    assert last.finished
    names = [image.filename for image in last.images]
    assert any(name.endswith("-standings.png") for name in names), names
    assert all(image.data.startswith(PNG) for reply in replies for image in reply.images)
    assert sum(len(reply.images) for reply in replies) > len(names), "boards are posted during the game too"
    status = await say(host, ANN, "/game status")
    assert status.ok and "Game over" in status.private
    hand = await say(host, BOB, "/game hand")
    assert hand.ok and hand.private.startswith("Your hand") and hand.private_images
    rules = await say(host, ANN, "/game rules dice-duel doubles")  # the game is over: name it
    assert rules.ok and "doubles" in rules.private.lower()


async def test_export_replays_to_the_same_standings(host: Conductor) -> None:
    await play_to_the_end(host)
    exported = await say(host, ANN, "/game export")
    assert exported.ok
    transcript = parse_transcript(exported.private)
    assert transcript.game == PLUGIN_SLUG and transcript.seed == 42 and transcript.standings is not None
    game = (await host.store.all_games())[-1]
    assert game.state is not None
    expected = games.get_game(PLUGIN_SLUG).standings(game.state)
    result = await replay(transcript)  # also checks the transcript's own standings line
    assert result.status == "finished"
    assert [(s["player"], s["score"], s["rank"]) for s in result.standings] == [
        (s["player"].replace(" ", "-"), s["score"], s["rank"]) for s in expected
    ]


def written_transcript(seed: int) -> str:
    """A transcript as a person would write one: header, moves by name, two refused lines, standings."""
    spec = games.get_game(PLUGIN_SLUG)
    names = ["ann", "bob", "cat"]
    state = spec.setup(names, {"doubles": True, "rounds": "3"}, seed)
    lines = [
        f"game: {PLUGIN_SLUG}",
        f"seed: {seed}",
        f"players: {', '.join(names)}",
        "options: doubles=on",
        "!bob: /dd bank 1   # not bob's turn",
        "!ann: /dd done   # a die must be banked first",
    ]
    while not spec.status(state).finished:
        seat = spec.status(state).to_act[0]
        move = spec.bot_move(state, seat, 1)
        lines.append(f"{names[seat]}: {spec.format(move)}")
        state, _ = spec.apply(state, seat, move)
    lines.append("standings: " + " ".join(f"{s['player']}={s['score']}" for s in spec.standings(state)))
    return "\n".join(lines) + "\n"


async def test_a_written_transcript_replays() -> None:
    text = written_transcript(seed=11)
    result = await replay(parse_transcript(text), render_images=True)
    assert result.status == "finished" and result.game == PLUGIN_SLUG
    body, standings = text.rstrip("\n").rsplit("\n", 1)
    wrong = f"{body}\n{standings.replace('=', '=1', 1)}\n"  # the first player's score with a 1 in front
    with pytest.raises(TranscriptError, match="scored"):
        await replay(parse_transcript(wrong))


def test_the_slash_group_has_its_verbs(plugin_game: GameManifest) -> None:
    tree = build_tree(discord.Client(intents=discord.Intents.none()))
    group = tree.get_command(plugin_game.spec.command_group)
    assert isinstance(group, app_commands.Group), [c.name for c in tree.get_commands()]
    assert [command.name for command in group.commands] == [verb.name for verb in plugin_game.spec.verbs]
    bank = group.get_command("bank")
    assert isinstance(bank, app_commands.Command)
    assert [parameter.display_name for parameter in bank.parameters] == ["die"]
    done = group.get_command("done")
    assert isinstance(done, app_commands.Command) and not done.parameters


async def test_buttons_and_autocomplete_come_from_its_declaration(host: Conductor) -> None:
    """The Discord adapter's Done button and option suggestions for a game it has never heard of."""
    for actor, text in ((ANN, "/game new dice-duel"), (BOB, "/game join"), (ANN, "/game start")):
        reply = await say(host, actor, text)
        assert reply.ok, (text, reply.private)
    assert reply.group == "dd" and reply.turn_enders == ("done",) and reply.status == "active"
    view = view_for(reply)
    assert view is not None
    labels = [getattr(getattr(item, "item", item), "label", "") for item in view.children]
    assert "Done" in labels and "Choose a move" in labels, labels
    game = await host.channel_game(GUILD, CHANNEL)
    assert game is not None and game.row.state is not None
    actor = (ANN, BOB)[game.spec.status(game.row.state).to_act[0]]
    labelled = await host.labelled_commands(GUILD, CHANNEL, actor.user_id)
    verb = game.spec.verb("bank")
    assert verb is not None
    offered = {verb.split("dd", text)["die"] for text, _ in labelled if text.startswith("/dd bank")}
    hand = await say(host, actor, "/game hand")
    assert offered and offered <= set("123456") and hand.legal == labelled
