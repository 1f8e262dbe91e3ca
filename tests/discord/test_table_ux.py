"""Issue 12 through the real bot and the fake Discord: /mod hidden from members (and still refused),
confirmation buttons (solo start, resign), the abort vote's buttons, the Play all trains button and
city names in Trains hex autocomplete."""

from __future__ import annotations

import games
from tests.discord.botproc import BotProcess
from tests.discord.fake_discord import EPHEMERAL, FakeDiscord, InteractionRecord, Message
from tests.discord.helpers import button, read_game

F = FakeDiscord
TRAINS = games.get_game("trains")


def only(messages: list[Message]) -> Message:
    assert len(messages) == 1, [m.content for m in messages]
    return messages[0]


async def slash(fake: FakeDiscord, user: int, command: str, options: dict | None = None, channel: int | None = None):
    return await (await fake.slash(user, command, options, channel=channel)).settle()


async def click(fake: FakeDiscord, user: int, message: Message, action: str) -> InteractionRecord:
    return await (await fake.click(user, message, button(message, action))).settle()


async def test_moderator_commands_are_hidden_from_members_and_still_refused(fake: FakeDiscord, bot: BotProcess) -> None:
    assert fake.violations == []
    member = fake.visible_commands(F.ANN)
    assert "game" in member and "tt" in member and "mod" not in member and "owner" not in member
    moderator = fake.visible_commands(F.MOD)
    assert "mod" in moderator and "owner" not in moderator
    await slash(fake, F.ANN, "game new", {"game": "tiny-towns"})
    await slash(fake, F.BOB, "game join")
    refused = await slash(fake, F.ANN, "mod kick", {"player": "bob"})  # called anyway (an old client, the API)
    assert refused.public == [] and "Only moderators" in only(refused.ephemeral).content
    kicked = await slash(fake, F.MOD, "mod kick", {"player": "bob"})
    assert "kicked by a moderator" in kicked.public_text


async def test_solo_start_and_resign_ask_with_buttons(fake: FakeDiscord, bot: BotProcess) -> None:
    await slash(fake, F.ANN, "game new", {"game": "tiny-towns"})
    asked = await slash(fake, F.ANN, "game start")
    question = only(asked.ephemeral)
    assert asked.public == [] and question.flags & EPHEMERAL
    assert "Start solo Tiny Towns?" in question.content
    labels = [question.component(cid)["label"] for cid in question.custom_ids]  # type: ignore[index]
    assert labels == ["Start solo", "Wait for players"]
    started = await click(fake, F.ANN, question, "cmd:start_solo")
    assert "Tiny Towns started with ann" in started.public_text
    assert read_game(bot.database).status == "active"

    resign = await slash(fake, F.ANN, "game resign")
    confirm = only(resign.ephemeral)
    assert resign.public == [] and "Resign from Tiny Towns?" in confirm.content
    done = await click(fake, F.ANN, confirm, "cmd:resign_confirm")
    assert "loss" in done.public_text and "Winner" not in done.public_text
    assert read_game(bot.database).status == "finished"


async def test_trains_city_names_play_all_trains_button_and_the_abort_vote(fake: FakeDiscord, bot: BotProcess) -> None:
    channel = fake.extra_channels[0]
    await slash(fake, F.ANN, "game new", {"game": "trains", "options": "map=tokyo"}, channel)
    await slash(fake, F.BOB, "game join", channel=channel)
    await slash(fake, F.ANN, "game start", channel=channel)

    choices = await fake.autocomplete(F.ANN, "trains start", {"hex": "shin"}, focused="hex", channel=channel)
    shinjuku = next(c for c in choices if c["value"] == "H6")
    assert "Shinjuku" in shinjuku["name"]
    assert "H6" in (await slash(fake, F.ANN, "trains start", {"hex": "shinjuku"}, channel)).public_text
    game = read_game(bot.database, channel)
    assert game.state is not None
    bob_start = TRAINS.format(TRAINS.legal_moves(game.state, 1)[0]).split()[-1]
    board = only((await slash(fake, F.BOB, "trains start", {"hex": bob_start}, channel)).public)

    game = read_game(bot.database, channel)
    assert game.state is not None and game.state["phase"] == "play"
    current = int(game.seats[game.state["current"]].user_id)
    played = await click(fake, current, board, "mv:play_all-trains")
    assert "plays all trains" in played.public_text

    asked = await slash(fake, F.ANN, "game abort", channel=channel)
    vote = only(asked.public)
    assert "asks to abort" in vote.content and "bob" in vote.content
    agreed = await click(fake, F.BOB, vote, "cmd:abort")
    assert "Every player agreed" in agreed.public_text
    assert read_game(bot.database, channel).status == "aborted"
    status = await slash(fake, F.BOB, "game status", channel=channel)
    assert "aborted" in only(status.ephemeral).content
    assert fake.violations == []
