"""Two shared statements on each backend, value by value: /game mygames' page of games waiting for a player
(with the count of all of them, also past the page, and 0 when there are none), and a timer whose payload
cannot be decoded, which is deleted rather than stopping every timer after it."""

from __future__ import annotations

import logging

import pytest

from storage import AnyStore, SeatRow, Store, TimerRow
from storage.shared import ListedGame
from tests.storage.conftest import Clock, rows


async def _active_game(store: AnyStore, channel: str, waiting: list[int]) -> int:
    """An active game in ``channel`` with "u1" in seat 0 and "u2" in seat 1, waiting for ``waiting``."""
    game = await store.create_game("g1", channel, "tiny-towns", "1", "ann", {}, "1")
    version = await store.set_seats(
        game.id, 0, [SeatRow(0, "u1", "ann", "human", 0), SeatRow(1, "u2", "bob", "human", 0)]
    )
    version = await store.update_game(game.id, version, status="active", state={"turn": 1})
    await store.set_listing(game.id, version, f"listing of {channel}", waiting)
    await store._write("UPDATE games SET state = NULL WHERE id = ?", (game.id,))  # as an archived listing reads
    return game.id


async def _two_timers(store: AnyStore) -> tuple[int, int, int]:
    """A game with reminders due at 10 ({"n": 1}) and 20 ({"n": 2}): (game id, first timer, second timer)."""
    game = await store.create_game("g1", "c", "tiny-towns", "1", "ann", {}, "1")
    first = await store.add_timer("reminder", 10.0, game.id, {"n": 1})
    return game.id, first, await store.add_timer("reminder", 20.0, game.id, {"n": 2})


def _timer_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    """What the store logged (timer warnings go to "storage.db", the name they always had)."""
    return [r.getMessage() for r in caplog.records if r.name == "storage.db"]


async def test_the_waiting_page_counts_every_waiting_game_and_none_is_zero(clocked: AnyStore) -> None:
    assert await clocked.waiting_page("u1", 0, 2) == ([], 0)
    ids = [await _active_game(clocked, f"c{n}", waiting) for n, waiting in enumerate([[0], [1], [0, 1], [0]])]
    page, total = await clocked.waiting_page("u1", 0, 2)
    assert [listed.id for listed in page] == [ids[0], ids[2]]
    assert total == 3  # the third of u1's waiting games is past this page
    page, total = await clocked.waiting_page("u1", 2, 2)
    assert ([listed.id for listed in page], total) == ([ids[3]], 3)
    page, total = await clocked.waiting_page("u2", 0, 5)
    assert ([listed.id for listed in page], total) == ([ids[1], ids[2]], 2)


async def test_a_timer_that_cannot_be_decoded_is_deleted_and_the_others_still_fire(
    clocked: AnyStore, clock: Clock
) -> None:
    game = await clocked.create_game("g1", "c", "tiny-towns", "1", "ann", {}, "1")
    first = await clocked.add_timer("reminder", 10.0, game.id, {"n": 1})
    bad = await clocked.add_timer("reminder", 20.0, game.id, {"n": 2})
    last = await clocked.add_timer("reminder", 30.0, game.id, {"n": 3})
    await clocked._write("UPDATE timers SET payload = ? WHERE id = ?", ("{not json", bad))
    assert await clocked.due_timers(100.0) == [
        TimerRow(first, game.id, "reminder", 10.0, {"n": 1}),
        TimerRow(last, game.id, "reminder", 30.0, {"n": 3}),
    ]
    assert await rows(clocked, "SELECT id FROM timers ORDER BY id") == [(first,), (last,)]


async def test_the_next_timer_skips_one_that_cannot_be_decoded_and_says_why_it_went(
    clocked: AnyStore, caplog: pytest.LogCaptureFixture
) -> None:
    game_id, bad, good = await _two_timers(clocked)
    await clocked._write("UPDATE timers SET payload = ? WHERE id = ?", ("[1, 2]", bad))
    with caplog.at_level(logging.WARNING, logger="storage.db"):
        assert await clocked.next_timer() == TimerRow(good, game_id, "reminder", 20.0, {"n": 2})
    assert _timer_warnings(caplog) == [f"timer {bad} deleted: its payload cannot be decoded (not a JSON object)"]
    assert await rows(clocked, "SELECT id FROM timers ORDER BY id") == [(good,)]


async def test_a_timer_whose_due_time_is_not_a_number_is_deleted_too(
    sqlite_store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """Only SQLite can hold such a row (its REAL column keeps text that reads as no number)."""
    game_id, first, second = await _two_timers(sqlite_store)
    await sqlite_store._write("UPDATE timers SET due_at = 'soon' WHERE id = ?", (first,))
    with caplog.at_level(logging.WARNING, logger="storage.db"):
        assert await sqlite_store.timers(game_id) == [TimerRow(second, game_id, "reminder", 20.0, {"n": 2})]
    assert _timer_warnings(caplog) == [f"timer {first} deleted: its kind or due time is not valid"]


async def test_the_list_page_names_no_seat_and_counts_zero_when_empty(clocked: AnyStore) -> None:
    assert await clocked.list_page("g1", 0.0, 0, 5) == ([], 0)
    game_id = await _active_game(clocked, "c0", [0])
    assert await clocked.list_page("g1", 0.0, 0, 5) == (
        [ListedGame(game_id, "c0", "tiny-towns", "active", "listing of c0", 2, None)],
        1,
    )
