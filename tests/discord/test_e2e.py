"""End to end: the real bot process (``python -m bot.cli run``) plays Tiny Towns through a fake Discord.

One scripted session: lobby with options, joins by command and by button, the start, monument
choices (private), rounds played by slash commands, the move menu and buttons, an illegal move,
a stale button, a private view, a crash and restart of the bot mid-game (old buttons still work),
a deadline with moderator buttons (replace with bot), a moderator role, and moderator skips to
the end with the standings post. Every image posted anywhere must decode.
"""

from __future__ import annotations

import re

import games
from tests.discord.botproc import BotProcess
from tests.discord.fake_discord import EPHEMERAL, FakeDiscord, InteractionRecord, Message
from tests.discord.helpers import button, decode, legal_texts, read_game, slash_for

F = FakeDiscord
PLAYERS = {F.ANN: "ann", F.BOB: "bob", F.CAT: "cat"}
SPEC = games.get_game("tiny-towns")


def only(messages: list[Message]) -> Message:
    assert len(messages) == 1, [m.content for m in messages]
    return messages[0]


def assert_private_refusal(record: InteractionRecord, pattern: str) -> None:
    """A refusal: one ephemeral message for the caller only, nothing public, no loading state left."""
    assert record.public == [], [m.content for m in record.public]
    message = only(record.ephemeral)
    assert message.flags & EPHEMERAL and message.visible_to == record.user_id
    assert re.search(pattern, message.content, re.I), message.content
    assert all(not m.loading for m in record.fake.visible_messages() if m.interaction_id == record.id)


async def move(fake: FakeDiscord, user: int, text: str) -> InteractionRecord:
    command, options = slash_for(text)
    return await (await fake.slash(user, command, options)).settle()


async def test_tiny_towns_game_through_fake_discord(fake: FakeDiscord, bot: BotProcess) -> None:
    db = bot.database
    assert fake.identifies[-1]["intents"] == 1  # guilds only: no message content, no members

    # ----- lobby: options, a join by command and one by button, the start ---------------------
    new = await (
        await fake.slash(F.ANN, "game new", {"game": "tiny-towns", "options": "buildings=first-game monuments=on"})
    ).settle()
    lobby = only(new.public)
    assert "opened a Tiny Towns lobby" in lobby.content and "monuments=on" in lobby.content
    joined = only((await (await fake.slash(F.BOB, "game join")).settle()).public)
    by_button = await (await fake.click(F.CAT, joined, button(joined, "join"))).settle()
    assert "cat joined" in by_button.public_text
    assert [s.name for s in read_game(db).seats] == ["ann", "bob", "cat"]

    start = await (await fake.slash(F.ANN, "game start")).settle()
    board = only(start.public)
    assert "Tiny Towns started" in board.content
    assert sorted(board.mentioned_users()) == sorted(PLAYERS)  # everyone must choose a monument: one ping each
    assert board.allowed_mentions is not None and not board.allowed_mentions.get("parse")
    image = only(board.attachments)
    assert decode(image.data)[0] > 100 and image.description and "board" in image.description.lower()
    assert {"pick", "undo", "hand"} <= {cid.split(":")[3] for cid in board.custom_ids}

    game = read_game(db)
    assert game.status == "active" and game.state is not None
    dealt = {seat: list(town["monument_options"]) for seat, town in enumerate(game.state["towns"])}

    # ----- private choices: by command, by the move menu, and after looking at the hand ----------
    first = legal_texts(game, 0)[0]
    ann_choice = await move(fake, F.ANN, first)
    assert "ann" in ann_choice.public_text
    after_ann = only(ann_choice.public)

    menu = await (await fake.click(F.BOB, after_ann, button(after_ann, "pick"))).settle()
    chooser = only(menu.ephemeral)
    assert chooser.visible_to == F.BOB and menu.public == []
    options = chooser.components[0]["components"][0]["options"]
    assert sorted(o["value"] for o in options) == sorted(legal_texts(read_game(db), 1))
    picked = await (await fake.click(F.BOB, chooser, chooser.custom_ids[0], [options[0]["value"]])).settle()
    assert "bob" in picked.public_text
    assert fake.messages[chooser.id].content.startswith("Sent `/tt monument")

    hand = await (await fake.slash(F.CAT, "game hand")).settle()
    secret = only(hand.ephemeral)
    assert secret.flags & EPHEMERAL and secret.visible_to == F.CAT and hand.public == []
    assert all(name in secret.content for name in dealt[2])
    decode(only(secret.attachments).data)
    suggestions = await fake.autocomplete(F.CAT, "tt monument", {"name": ""}, focused="name")
    assert sorted(c["value"] for c in suggestions) == sorted(dealt[2])  # only what cat may choose
    cat_choice = await move(fake, F.CAT, f"/tt monument {dealt[2][1]}")

    # ----- rounds: slash commands, the move menu, buttons ---------------------------------------
    last_board = only(cat_choice.public)

    used = {"slash": 0, "menu": 0, "done button": 0}

    async def play_turns(count: int) -> Message:
        """Play ``count`` moves chosen by the game's own policy, through all three input paths."""
        board_message = last_board
        for turn in range(count):
            game = read_game(db)
            assert game.state is not None
            seat = SPEC.status(game.state).to_act[0]
            user = int(game.seats[seat].user_id)
            texts = legal_texts(game, seat)
            text = SPEC.format(SPEC.bot_move(game.state, seat, 1))
            if "/tt done" in texts and (used["done button"] == 0 or turn % 2 == 1):
                record = await (await fake.click(user, board_message, button(board_message, "mv:done"))).settle()
                used["done button"] += 1
            elif turn % 3 == 2:
                record = await choose_in_menu(user, board_message, text)
                used["menu"] += 1
            else:
                record = await move(fake, user, text)
                used["slash"] += 1
            assert record.public, record.text
            board_message = record.public[0]
        return board_message

    async def choose_in_menu(user: int, board_message: Message, text: str) -> InteractionRecord:
        """Open the move menu and follow its groups and pages to ``text``."""
        opened = await (await fake.click(user, board_message, button(board_message, "pick"))).settle()
        menu_message = only(opened.ephemeral)
        assert menu_message.visible_to == user
        for _ in range(20):
            options = menu_message.components[0]["components"][0]["options"]
            values = [o["value"] for o in options]
            assert len(values) <= 25
            if text in values:
                return await (await fake.click(user, menu_message, menu_message.custom_ids[0], [text])).settle()
            group = next((v for v in values if v.startswith(">") and text.startswith(v.split(":", 1)[1] + " ")), None)
            if group is None:  # not on this page: turn it
                group = next(o["value"] for o in options if o["label"].startswith("More"))
            await (await fake.click(user, menu_message, menu_message.custom_ids[0], [group])).settle()
        raise AssertionError(f"{text} not reachable in the move menu")

    last_board = await play_turns(9)
    for _ in range(40):  # until a player could build and pressed Done instead
        if used["done button"]:
            break
        last_board = await play_turns(1)

    # ----- an illegal move and a malformed one: private, specific, nothing changes ---------------
    def idle_player() -> int | None:
        game = read_game(db)
        assert game.state is not None
        return next((u for u in PLAYERS if game.seat_of(u) not in SPEC.status(game.state).to_act), None)

    while idle_player() is None:  # someone must be waiting for the others
        last_board = await play_turns(1)
    idle = idle_player()
    assert idle is not None
    before = read_game(db)
    refused = await (await fake.slash(idle, "tt announce", {"resource": "wood"})).settle()
    assert_private_refusal(refused, "not your turn|cannot|only|already")
    typo = await (await fake.slash(F.ANN, "tt place", {"square": "Z9"})).settle()
    assert_private_refusal(typo, "not a square")
    after = read_game(db)
    assert (after.version, after.state) == (before.version, before.state)

    # ----- a stale button: an old board's button is refused privately ----------------------------
    stale = await (await fake.click(F.ANN, board, button(board, "undo"))).settle()
    assert_private_refusal(stale, "out of date")
    assert read_game(db).version == before.version

    # ----- the private view reaches only its owner ------------------------------------------------
    bob_hand = await (await fake.slash(F.BOB, "game hand")).settle()
    view = only(bob_hand.ephemeral)
    assert view.visible_to == F.BOB and bob_hand.public == [] and view.attachments
    public_so_far = " ".join(m.content for m in fake.public_messages())
    for seat, names in dealt.items():
        for name in names:
            assert name not in public_so_far, f"seat {seat}'s secret monument {name} was posted publicly"

    # ----- crash and restart: the game and its current buttons keep working ----------------------
    gateway_lookups = len(fake.requests_to("GET", r"/gateway/bot$"))
    await bot.kill()
    await bot.start(gateway_setting=False)  # this time the gateway URL comes from GET /gateway/bot
    assert len(fake.requests_to("GET", r"/gateway/bot$")) == gateway_lookups + 1
    mine = await (await fake.click(F.ANN, last_board, button(last_board, "hand"))).settle()
    assert only(mine.ephemeral).visible_to == F.ANN and only(mine.ephemeral).attachments
    last_board = await play_turns(3)

    # ----- deadline: moderator buttons on the timer post; replace a stuck player with a bot --------
    config = await (await fake.slash(F.MOD, "mod config deadline", {"hours": "0.0003"})).settle()
    assert "Deadline set" in only(config.ephemeral).content
    posts_before = len(fake.requests_to("POST", rf"/channels/{F.GAMES}/messages$"))
    last_board = await play_turns(1)  # reschedules the timers with the ~1 s deadline
    await fake.wait_until(lambda: len(fake.requests_to("POST", rf"/channels/{F.GAMES}/messages$")) > posts_before, 15)
    deadline = next(m for m in reversed(fake.public_messages(F.GAMES)) if "Deadline passed" in m.content)
    stuck = int(next(cid for cid in deadline.custom_ids if ":repl:" in cid).rsplit(":", 1)[1])
    assert deadline.interaction_id is None  # posted by the dispatcher, not as an answer
    not_mod = await (await fake.click(F.ANN, deadline, button(deadline, f"kick:{stuck}"))).settle()
    assert_private_refusal(not_mod, "moderator")
    off = await (await fake.slash(F.MOD, "mod config deadline", {"hours": "off"})).settle()
    assert "off" in off.private_text
    replaced = await (await fake.click(F.MOD, deadline, button(deadline, f"repl:{stuck}"))).settle()
    assert "to a bot" in replaced.public_text, replaced.text
    game = read_game(db)
    assert any(s.kind == "bot" and s.user_id.startswith(f"bot:{game.id}:") for s in game.seats)
    assert str(stuck) not in [s.user_id for s in game.seats]

    # ----- a moderator role set by /game config modrole ------------------------------------------
    assert_private_refusal(await (await fake.slash(F.PAL, "mod skip")).settle(), "moderators")
    await (await fake.slash(F.MOD, "mod config modrole", {"role": F.HELPERS})).settle()

    # ----- moderator skips to the end; the standings post --------------------------------------
    final: InteractionRecord | None = None
    for _ in range(400):
        record = await (await fake.slash(F.PAL, "mod skip")).wait()
        assert record.public, record.text
        if read_game(db).status == "finished":
            final = await record.settle()
            break
    assert final is not None, "the game did not finish"
    post = final.public[0]  # the board and standings; a long skip's text overflows into later posts
    assert "Game over" in final.public_text, final.public_text
    assert all(m.custom_ids == [] for m in final.public)  # no buttons on a finished game
    names = [a.filename for a in post.attachments]
    assert any("standings" in n for n in names) and len(names) == 2
    for attachment in post.attachments:
        decode(attachment.data)
        assert attachment.description
    standings = next(a for a in post.attachments if "standings" in a.filename)
    assert "Final standings" in (standings.description or "")

    assert all(used.values()), used

    # ----- nothing Discord would have refused, nothing unknown, every image valid -----------------
    assert fake.violations == []
    assert fake.unknown == []
    images = [a for m in fake.messages.values() for a in m.attachments if a.filename.endswith(".png")]
    assert len(images) > 10
    for attachment in images:
        decode(attachment.data)
        assert attachment.description
    assert "Traceback" not in bot.log(), bot.log()[-4000:]
