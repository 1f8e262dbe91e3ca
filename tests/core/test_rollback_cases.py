"""``/mod rollback`` on an aborted game, on a finished one, and on a log that no longer replays
(issue 17, host mutation testing: each refusal said word for word, each outcome checked)."""

from __future__ import annotations

from bot import replies as R
from bot.check import check_store
from bot.core import Conductor
from storage import MoveRecord, Store
from tests.core.conftest import ANN, BOB, CHANNEL, GUILD, MOD, say, snapshot, started_two_player


async def test_an_aborted_game_stays_aborted(host: Conductor, store: Store) -> None:
    await started_two_player(host)
    assert (await say(host, ANN, "/tt announce wood")).ok
    assert (await say(host, MOD, "/mod abort")).ok
    row = await store.latest_game(GUILD, CHANNEL)
    assert row is not None and row.status == "aborted"
    refused = await say(host, MOD, "/mod rollback 0")
    assert (refused.error, refused.private) == (R.NOT_STARTED, "An aborted game can't be rolled back.")
    after = await store.latest_game(GUILD, CHANNEL)
    assert after is not None and (after.status, after.version) == ("aborted", row.version)


async def test_rolling_back_a_finished_game_makes_it_active_again(host: Conductor, store: Store) -> None:
    for actor, text in [
        (ANN, "/game new tiny-towns buildings=first-game"),
        (ANN, "/game start solo"),
        (ANN, "/tt announce wood"),
        (ANN, "/game resign confirm"),  # resigning a solo game ends it
    ]:
        assert (await say(host, actor, text)).ok
    row = await store.latest_game(GUILD, CHANNEL)
    assert row is not None and row.status == "finished"
    rolled = await say(host, MOD, "/mod rollback 1")
    assert rolled.ok and rolled.status == "active"
    row = await store.latest_game(GUILD, CHANNEL)
    assert row is not None and row.status == "active" and row.state is not None
    assert row.state["round"] == 1 and row.state["phase"] == "place"
    # The finished game's log was archived; the rollback brings it back and marks the resignation
    # reverted, so the log still replays to the stored state.
    log = await store.moves(row.id, include_reverted=True)
    assert [(m.seq, m.text, m.reverted) for m in log] == [
        (1, "/tt announce wood", False),
        (2, "/game resign", True),
    ]
    assert {f.kind for f in await check_store(store)} == {"ok"}
    # Play on: the next move gets the next number, and finishing again archives the whole log again.
    assert (await say(host, ANN, "/tt place A1")).ok
    assert (await say(host, ANN, "/game resign confirm")).ok
    row = await store.latest_game(GUILD, CHANNEL)
    assert row is not None and row.status == "finished"
    log = await store.moves(row.id, include_reverted=True)
    assert [(m.seq, m.reverted) for m in log] == [(1, False), (2, True), (3, False), (4, False)]
    assert {f.kind for f in await check_store(store)} == {"ok"}


async def test_a_log_that_no_longer_replays_is_refused_and_left_alone(host: Conductor, store: Store) -> None:
    """A log written under older rules: a move the current rules refuse."""
    await started_two_player(host)
    assert (await say(host, ANN, "/tt announce wood")).ok
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None
    await store.commit(row, moves=[MoveRecord(1, BOB.user_id, "/tt place Z9", False)])
    before = await snapshot(store)
    refused = await say(host, MOD, "/mod rollback 2")
    assert refused.error == R.ILLEGAL
    assert refused.private == (
        "The game can't be rolled back: its moves no longer replay "
        '("z9" is not a square: use A1 to D4 (column letter A-D, then row number 1-4).).'
    )
    assert await snapshot(store) == before


async def test_rolling_back_to_the_last_move_of_a_finished_game_keeps_it_finished(
    host: Conductor, store: Store
) -> None:
    for actor, text in [
        (ANN, "/game new tiny-towns buildings=first-game"),
        (ANN, "/game start solo"),
        (ANN, "/tt announce wood"),
        (ANN, "/game resign confirm"),
    ]:
        assert (await say(host, actor, text)).ok
    kept = await say(host, MOD, "/mod rollback 2")  # every move kept: the game is over again
    assert kept.ok and kept.status == "finished"
