"""``/game abort`` records who aborted on every path, and the middle of a three-player vote says
"agrees" (issue 17, host mutation testing); pausing a lobby is refused word for word."""

from __future__ import annotations

from bot import replies as R
from bot.core import Conductor
from storage import Store
from tests.core.conftest import ANN, BOB, CAT, CHANNEL, GUILD, MOD, say


async def _aborted_by(store: Store) -> str | None:
    row = await store.latest_game(GUILD, CHANNEL)
    assert row is not None and row.status == "aborted"
    table = await store.table_by_id(row.id)
    assert table is not None
    return table.notes.get("aborted_by")


async def _three_players(host: Conductor, start: bool = True) -> None:
    for actor, text in [
        (ANN, "/game new tiny-towns buildings=first-game"),
        (BOB, "/game join"),
        (CAT, "/game join"),
        *([(ANN, "/game start")] if start else []),
    ]:
        assert (await say(host, actor, text)).ok


async def test_the_host_closing_the_lobby_is_recorded(host: Conductor, store: Store) -> None:
    await _three_players(host, start=False)
    paused = await say(host, MOD, "/mod pause")
    assert (paused.error, paused.private) == (R.NOT_STARTED, "Only a game in progress can be paused.")
    closed = await say(host, ANN, "/game abort")
    assert closed.ok and closed.public == "ann closed the Tiny Towns lobby."
    assert await _aborted_by(store) == "ann"


async def test_a_moderator_abort_is_recorded(host: Conductor, store: Store) -> None:
    await _three_players(host)
    assert (await say(host, MOD, "/game abort")).ok
    assert await _aborted_by(store) == "mod"


async def test_the_host_alone_before_anyone_moved_is_recorded(host: Conductor, store: Store) -> None:
    await _three_players(host)
    assert (await say(host, ANN, "/tt announce wood")).ok  # the host's own move
    alone = await say(host, ANN, "/game abort")
    assert alone.public == "ann aborted the Tiny Towns game before anyone else had moved."
    assert await _aborted_by(store) == "ann"


async def test_a_vote_asks_then_agrees_then_aborts_and_the_last_voter_is_recorded(
    host: Conductor, store: Store
) -> None:
    await _three_players(host)
    for actor, text in [(ANN, "/tt announce wood"), (BOB, "/tt place A1")]:
        assert (await say(host, actor, text)).ok
    asked = await say(host, ANN, "/game abort")
    assert asked.public.startswith("ann asks to abort the Tiny Towns game. Waiting for: bob, cat ")
    agreed = await say(host, BOB, "/game abort")
    assert agreed.public.startswith("bob agrees to abort the Tiny Towns game. Waiting for: cat ")
    final = await say(host, CAT, "/game abort")
    assert final.public == "Every player agreed: the Tiny Towns game is aborted."
    assert await _aborted_by(store) == "cat"


async def test_mod_abort_says_so_and_cancels_the_games_timers(host: Conductor, store: Store) -> None:
    assert (await say(host, MOD, "/mod config reminder 1")).ok
    await _three_players(host)
    assert (await say(host, ANN, "/tt announce wood")).ok
    assert await store.next_timer() is not None  # a reminder for the players still to place
    aborted = await say(host, MOD, "/mod abort")
    assert aborted.ok and aborted.public == "mod aborted the Tiny Towns game (moderator)."
    assert await store.next_timer() is None
    assert await _aborted_by(store) == "mod"
