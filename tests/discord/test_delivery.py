"""Reply -> Discord messages: pings as allowed mentions, alt text, Discord's 2000-character limit."""

from __future__ import annotations

from bot.discord.delivery import private_messages, public_messages, split_text
from bot.replies import ImageOut, Reply

PNG = ImageOut("board.png", b"\x89PNG fake", "Tiny Towns board. ann to name a resource.")


def test_pings_become_the_only_allowed_mentions() -> None:
    (message,) = public_messages(Reply(public="ann names wood.", pings=["11", "22"], images=[PNG]))
    kwargs = message.kwargs()
    assert message.content.endswith("<@11> <@22>")
    allowed = kwargs["allowed_mentions"].to_dict()
    assert allowed["parse"] == [] and sorted(allowed["users"]) == [11, 22]
    (file,) = kwargs["files"]
    assert file.filename == "board.png" and file.description == PNG.description


def test_no_pings_means_no_mentions_at_all() -> None:
    (message,) = public_messages(Reply(public="<@33> resigned."))
    assert message.kwargs()["allowed_mentions"].to_dict() == {"parse": []}


def test_an_image_without_text_is_summarised_by_its_alt_text() -> None:
    (message,) = public_messages(Reply(images=[PNG]))
    assert message.content == PNG.description


def test_long_public_text_is_split_at_lines_with_the_board_first() -> None:
    text = "\n".join(f"line {i} " + "x" * 90 for i in range(60))
    messages = public_messages(Reply(public=text, images=[PNG]))
    assert len(messages) == 3 and all(len(m.content) <= 2000 for m in messages)
    assert messages[0].images == [PNG] and not messages[1].images
    assert "\n".join(m.content for m in messages) == text
    assert split_text("y" * 4500) == ["y" * 2000, "y" * 2000, "y" * 500]


def test_long_private_text_is_attached_as_a_file() -> None:
    text = "game: tiny-towns\n" + "ann: /tt place A1\n" * 200
    (message,) = private_messages(Reply(private=text), long_name="game.transcript")
    assert len(message.content) < 300 and message.texts == [("game.transcript", text)]
    assert private_messages(Reply(private="")) == []
