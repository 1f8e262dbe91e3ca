"""``/game resign``: who may, what the question says (solo or not), and what a resignation writes
(issue 17, host mutation testing: each answer said word for word)."""

from __future__ import annotations

from bot import replies as R
from bot.core import Conductor
from storage import Store
from tests.core.conftest import (
    ANN,
    BOB,
    CAT,
    CHANNEL,
    GUILD,
    say,
    snapshot,
    started_three_player,
    started_two_player,
)


async def test_only_a_player_of_a_started_game_resigns(host: Conductor, store: Store) -> None:
    assert (await say(host, ANN, "/game new tiny-towns buildings=first-game")).ok
    early = await say(host, ANN, "/game resign confirm")
    assert (early.error, early.private) == (R.BAD_COMMAND, "The game has not started; use `/game leave` instead.")
    assert (await say(host, BOB, "/game join")).ok
    assert (await say(host, ANN, "/game start")).ok
    before = await snapshot(store)
    stranger = await say(host, CAT, "/game resign confirm")
    assert (stranger.error, stranger.private) == (R.NOT_PLAYER, "You are not playing in this game.")
    assert await snapshot(store) == before


async def test_the_question_says_what_resigning_does_and_offers_both_answers(host: Conductor, store: Store) -> None:
    await started_two_player(host)
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None
    asked = await say(host, BOB, "/game resign")
    assert asked.ok and asked.public == ""
    assert asked.private == (
        "Resign from Tiny Towns? You leave the game for good; it can't be undone. `/game resign confirm` resigns."
    )
    assert asked.buttons == [("Resign", "/game resign confirm"), ("Keep playing", "/game status")]
    assert (asked.game_id, asked.version) == (row.id, row.version)  # the buttons act on this game as it is
    assert await store.moves(row.id) == []


async def test_a_solo_player_is_told_it_ends_the_game_as_a_loss(host: Conductor) -> None:
    assert (await say(host, ANN, "/game new tiny-towns buildings=first-game")).ok
    assert (await say(host, ANN, "/game start solo")).ok
    asked = await say(host, ANN, "/game resign")
    assert asked.private == (
        "Resign from Tiny Towns? This ends your solo game as a loss. `/game resign confirm` resigns."
    )


async def test_a_resignation_is_logged_as_irreversible_and_the_game_goes_on(host: Conductor, store: Store) -> None:
    await started_three_player(host)
    resigned = await say(host, CAT, "/game resign confirm")
    assert resigned.ok and resigned.public.startswith("cat resigned.\n") and resigned.status == "active"
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None
    [move] = await store.moves(row.id)
    assert (move.seat, move.text, move.irreversible) == (2, "/game resign", True)


async def test_another_players_resignation_shows_in_the_history_of_a_game_with_secret_moves(host: Conductor) -> None:
    """Tiny Towns hides which monument a player keeps, so the history is redacted per reader: the
    host's own commands (a resignation) are never taken for a game's secret move."""
    await started_three_player(host)
    assert (await say(host, CAT, "/game resign confirm")).ok
    history = await say(host, ANN, "/game history")
    assert history.ok and "/game resign" in history.private + history.public
