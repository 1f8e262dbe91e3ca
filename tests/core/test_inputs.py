"""Hostile input through the host core: numbers that are not plain digits or are absurdly long,
display names that are not valid text, and player names two seats share. Each is refused with a
specific message (and changes nothing) or works; none raises."""

from __future__ import annotations

import pytest

from bot import replies as R
from bot.core import Conductor
from bot.names import MAX_NAME_LENGTH, AmbiguousPlayer, clean_display_name, seat_number
from bot.replies import Actor, Reply
from storage import Store
from tests.core.conftest import ANN, BOB, CHANNEL, GUILD, MOD, say, snapshot, started_two_player

HUGE = "9" * 5000  # int() refuses more than 4,300 digits
NOT_ASCII_DIGITS = ["²", "٣", "３", "߂", "१२"]  # superscript, Arabic-Indic, fullwidth, NKo, Devanagari
NOT_NUMBERS = [*NOT_ASCII_DIGITS, HUGE, "1234567", "-1", "+3", "1e3", "0x10", "1_000", "3.0", "½"]
BOB2 = Actor("5", "bob")


async def refused_and_unchanged(host: Conductor, store: Store, actor: Actor, text: str, kind: str) -> Reply:
    before = await snapshot(store)
    reply = await say(host, actor, text)
    assert not reply.ok and reply.error == kind, (text[:60], reply.error, reply.private[:200])
    assert not reply.public, text[:60]
    assert 0 < len(reply.private) < 400, text[:60]  # a specific message, never the whole input echoed
    assert await snapshot(store) == before, text[:60]
    return reply


# ----- numbers ---------------------------------------------------------------------------


@pytest.mark.parametrize("word", NOT_NUMBERS)
async def test_history_takes_only_plain_digits(host, store, word):
    await started_two_player(host)
    reply = await refused_and_unchanged(host, store, ANN, f"/game history {word}", R.BAD_COMMAND)
    assert "digits" in reply.private and "/game history 20" in reply.private


async def test_history_numbers_that_work(host, store):
    await started_two_player(host)
    assert (await say(host, ANN, "/tt announce wood")).ok
    for word in ("1", "20", "000020", "100", "999999"):
        reply = await say(host, ANN, f"/game history {word}")
        assert reply.ok and "/tt announce wood" in reply.private, word
    zero = await refused_and_unchanged(host, store, ANN, "/game history 0", R.BAD_COMMAND)
    assert "at least 1" in zero.private


@pytest.mark.parametrize("word", NOT_NUMBERS)
async def test_rollback_takes_only_plain_digits(host, store, word):
    await started_two_player(host)
    assert (await say(host, ANN, "/tt announce wood")).ok
    reply = await refused_and_unchanged(host, store, MOD, f"/game rollback {word}", R.BAD_COMMAND)
    assert "/mod rollback" in reply.private


async def test_rollback_past_the_end_names_the_range(host, store):
    await started_two_player(host)
    assert (await say(host, ANN, "/tt announce wood")).ok
    for word in ("2", "999999"):
        reply = await refused_and_unchanged(host, store, MOD, f"/game rollback {word}", R.BAD_COMMAND)
        assert "0..1" in reply.private
    assert (await say(host, MOD, "/game rollback 0")).ok


@pytest.mark.parametrize("word", [*NOT_NUMBERS, "3", "01"])
async def test_bot_level_is_0_1_or_2(host, store, word):
    assert (await say(host, ANN, "/game new tiny-towns buildings=first-game")).ok
    reply = await refused_and_unchanged(host, store, ANN, f"/game addbot {word}", R.BAD_COMMAND)
    assert "0 (random), 1 (normal) or 2 (strong)" in reply.private
    assert (await say(host, ANN, "/game addbot 0")).ok


async def test_replacebot_level_is_0_1_or_2(host, store):
    await started_two_player(host)
    for word in NOT_NUMBERS:
        reply = await refused_and_unchanged(host, store, MOD, f"/game replacebot bob {word}", R.BAD_COMMAND)
        assert "0 (random), 1 (normal) or 2 (strong)" in reply.private


async def test_long_words_are_not_echoed_whole(host, store):
    await started_two_player(host)
    for text in (f"/game kick {'x' * 5000}", f"/game board {'y' * 5000}", f"/game substitute {'z' * 5000} cat"):
        actor = MOD if "board" not in text else ANN
        await refused_and_unchanged(host, store, actor, text, R.BAD_COMMAND)


# ----- display names -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("ann", "ann"),
        ("  Ann   Lee ", "Ann Lee"),
        ("a\tb\nc\r\nd", "a b c d"),
        ("bo\x00b\x1b[31m", "bob[31m"),
        ("\u202eevil\u202c", "evil"),  # bidi override: could reverse the text around the name
        ("bob\u200b", "bob"),  # zero-width space: would look exactly like "bob"
        ("\ud800", "\ufffd"),  # a lone surrogate cannot be stored or sent as UTF-8
        ("x\udfffy", "x\ufffdy"),
        ("\ud83d\ude00 smile", "\U0001f600 smile"),  # a surrogate pair is the character it encodes
        ("e\u0301", "\u00e9"),  # composed, so "José" typed either way is one name
        ("\U0001f469\u200d\U0001f4bb", "\U0001f469\u200d\U0001f4bb"),  # emoji joiners stay
        ("x" * 5000, "x" * MAX_NAME_LENGTH),
        ("a" * 31 + " b", "a" * 31),  # no trailing space after the cut
        ("", "player"),
        (" \t\n", "player"),
        ("\x00\x01", "player"),
        ("\u3164", "player"),  # Hangul filler: draws nothing
        ("\u0301\u0301", "player"),  # marks with nothing to sit on
    ],
)
def test_clean_display_name(raw: str, clean: str) -> None:
    assert clean_display_name(raw) == clean
    assert clean_display_name(clean) == clean  # idempotent
    clean.encode("utf-8")


@pytest.mark.parametrize("name", ["\ud800", "bob\udc00", "x" * 5000, "\x00", "a\u202eb", " "])
async def test_odd_display_names_are_cleaned_where_actors_enter(host, store, name):
    """Needs ``clean_display_name`` applied to ``Actor.name`` in the host core."""
    odd = Actor("7", name)
    assert (await say(host, odd, "/game new tiny-towns buildings=first-game")).ok
    assert (await say(host, BOB, "/game join")).ok
    started = await say(host, odd, "/game start")
    assert started.ok
    started.public.encode("utf-8")
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None
    seats = await store.seats(row.id)
    assert seats[0].display_name == clean_display_name(name)
    assert (await say(host, odd, "/game status")).ok


# ----- two players with one name -------------------------------------------------------------


async def two_bobs(host: Conductor) -> None:
    """ann (seat #1), bob (#2) and another bob (#3) in a Tiny Towns lobby."""
    assert (await say(host, ANN, "/game new tiny-towns buildings=first-game")).ok
    assert (await say(host, BOB, "/game join")).ok
    assert (await say(host, BOB2, "/game join")).ok


TWO_BOBS = "Two players are called bob: use a mention or the seat number, #2 or #3."


@pytest.mark.parametrize(
    "text",
    ["/game kick bob", "/game kick @bob", "/game kick BOB", "/game substitute bob cat", "/game skip bob"],
)
async def test_a_shared_name_asks_which_one(host, store, text):
    await two_bobs(host)
    if "skip" in text:
        assert (await say(host, ANN, "/game start")).ok
    reply = await refused_and_unchanged(host, store, MOD, text, R.BAD_COMMAND)
    assert reply.private == TWO_BOBS.replace("bob:", f"{text.split()[2].lstrip('@')}:")


async def test_a_shared_name_in_a_game_asks_which_one(host, store):
    await two_bobs(host)
    assert (await say(host, ANN, "/game start")).ok
    for actor, text in [(ANN, "/game board bob"), (MOD, "/game replacebot bob"), (MOD, "/game kick bob")]:
        reply = await refused_and_unchanged(host, store, actor, text, R.BAD_COMMAND)
        assert reply.private == TWO_BOBS
    focused = await say(host, ANN, "/game board #3")
    assert focused.ok


@pytest.mark.parametrize("word", ["#3", "<@5>", "<@!5>", "5"])
async def test_mentions_ids_and_seat_numbers_stay_exact(host, store, word):
    await two_bobs(host)
    reply = await say(host, MOD, f"/game kick {word}")
    assert reply.ok
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None
    assert [s.user_id for s in await store.seats(row.id)] == [ANN.user_id, BOB.user_id]
    assert (await say(host, MOD, "/game kick bob")).ok  # one bob left: the name is enough again


@pytest.mark.parametrize("word", ["#0", "#4", "#²", "#" + HUGE, "carol"])
async def test_no_such_player(host, store, word):
    await two_bobs(host)
    reply = await refused_and_unchanged(host, store, MOD, f"/game kick {word}", R.BAD_COMMAND)
    assert reply.private.startswith("No player") and "Players: ann, bob, bob." in reply.private


def test_ambiguous_player_carries_the_candidates() -> None:
    ambiguous = AmbiguousPlayer("@bob", [1, 2, 4])
    assert ambiguous.seats == (1, 2, 4)
    assert ambiguous.message == "Three players are called bob: use a mention or the seat number, #2, #3 or #5."
    assert [seat_number(w) for w in ("#1", "#12", "#0", "1", "#", "#²", "#123")] == [
        0,
        11,
        None,
        None,
        None,
        None,
        None,
    ]
