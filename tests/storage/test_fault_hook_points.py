"""The SQLite store's fault hook (what the crash tests end the process at) is called at every commit
boundary of every write, named for the write: the names a crash test asks for are the ones it gets."""

from __future__ import annotations

from itertools import groupby

from storage import GameResults, MoveRecord, SeatResult, SeatRow, Store


async def test_every_write_names_its_commit_boundaries(sqlite_store: Store):
    store = sqlite_store
    seen: list[str] = []
    store.fault_hook = seen.append
    game = await store.create_game("g", "c", "tiny-towns", "1", "ann", {}, "1")
    assert seen == [
        "create_game:after_begin", "create_game:statement", "create_game:statement",
        "create_game:before_commit", "create_game:after_commit",
    ]  # fmt: skip
    seen.clear()
    await store.update_game(game.id, 0, state={"n": 1}, move=MoveRecord(0, "1", "/x"))
    assert seen == [
        "update_game:after_begin", "update_game:statement", "update_game:statement",
        "update_game:before_commit", "update_game:after_commit",
    ]  # fmt: skip
    seen.clear()
    await store.set_seats(game.id, 1, [SeatRow(0, "1", "ann", "human", 1)])
    game = await store.get_game(game.id)
    await store.commit(game, state={"n": 2})
    await store.claim_announcements()
    await store.claim_due_timers(0.0)
    await store.moves(game.id)  # a read: no hook
    await store.maintain()
    assert [name for name, _ in groupby(point.split(":")[0] for point in seen)] == [
        "set_seats", "commit", "claim_announcements", "claim_due_timers", "maintain"
    ]  # fmt: skip
    assert seen.count("commit:after_commit") == 1 and seen[-1] == "maintain:after_commit"


async def test_a_finishing_commit_names_its_boundaries_too(sqlite_store: Store):
    """A commit that finishes a game writes its results in the same transaction, in more than one hop to the
    database thread (storage.db Store._transaction's ``then``): its boundaries carry the commit's name all the
    same, so a crash test can stop it between them."""
    store = sqlite_store
    game = await store.create_game("g", "c", "trains", "1", "ann", {}, "1")
    game, _ = await store.commit(game, status="active", seats=[SeatRow(0, "1", "ann", "human", 1),
                                 SeatRow(1, "2", "bob", "human", 1)], state={"n": 1})  # fmt: skip
    seen: list[str] = []
    store.fault_hook = seen.append
    seats = (SeatResult(0, "1", "ann", "human", 1, 5, None, {}), SeatResult(1, "2", "bob", "human", 2, 3, None, {}))
    await store.commit(game, status="finished", results=GameResults(seats, None, "score", "t1", "t2"))
    assert seen[0] == "commit:after_begin" and seen[-2:] == ["commit:before_commit", "commit:after_commit"]
    assert {point.split(":")[0] for point in seen} == {"commit"}
    assert (await store.results("g"))[0].player == "1"
