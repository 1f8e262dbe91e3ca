"""Timers and the outbox on each backend, value by value: which due timers a process claims (by time, by
shard, in order), which announcements it leases (by shard, by channel, by lease and claimer), and the
shared statements that add, cancel, read and delete them."""

from __future__ import annotations

from storage import Announcement, AnyStore, NewTimer, OutboxRow, Shards, TimerRow
from tests.storage.conftest import Clock, rows

# (id >> 22) % 2 and % 4: shard 0 of 2 / 0 of 4, 1 of 2 / 1 of 4, 0 of 2 / 2 of 4, 1 of 2 / 3 of 4.
G0, G1, G2, G3 = (str(n << 22) for n in (4, 5, 6, 7))
ONE_OF_TWO, ZERO_OF_TWO = Shards(2, frozenset({1})), Shards(2, frozenset({0}))


async def _games(store: AnyStore) -> dict[str, int]:
    """A game in each guild (G0..G3, and "console", which is not a snowflake)."""
    return {
        guild: (await store.create_game(guild, "c", "tiny-towns", "1", "ann", {}, "1")).id
        for guild in (G0, G1, G2, G3, "console")
    }


async def test_due_timers_are_claimed_by_time_by_shard_and_in_order(clocked: AnyStore, clock: Clock):
    games = await _games(clocked)
    ids = {}
    for guild, due in ((G1, 50.0), (G3, 50.0), (G0, 40.0), (G2, 60.0), ("console", 70.0), (G1, 200.0)):
        ids[guild, due] = await clocked.add_timer("reminder", due, games[guild], {"g": guild})
    ids[None, 45.0] = await clocked.add_timer("sweep", 45.0)  # no game: shard 0
    assert await rows(clocked, "SELECT kind, due_at, payload, created_at FROM timers WHERE game_id IS NULL") == [
        ("sweep", 45.0, "{}", 1000.0)
    ]
    timer = {
        key: TimerRow(
            i,
            games.get(key[0]),
            "sweep" if key[0] is None else "reminder",
            key[1],
            {} if key[0] is None else {"g": key[0]},
        )
        for key, i in ids.items()
    }  # noqa: E501

    first = await clocked.next_timer(Shards(4, frozenset({3})))
    assert first == timer[G3, 50.0]
    assert await clocked.next_timer(ONE_OF_TWO) == timer[G1, 50.0]  # G1 and G3 are due at 50: G1 was added first
    assert await clocked.next_timer(ZERO_OF_TWO) == timer[G0, 40.0]
    assert await clocked.next_timer(Shards(2, frozenset({0, 1}))) == timer[G0, 40.0]
    assert await clocked.next_timer() == timer[G0, 40.0]

    # Shard 1 of 2 at 50: the timers due at or before 50 of G1 and G3 (G1's at 200 is not due).
    assert await clocked.claim_due_timers(50.0, ONE_OF_TWO) == [timer[G1, 50.0], timer[G3, 50.0]]
    assert await clocked.claim_due_timers(50.0, ONE_OF_TWO) == []  # taken: deleted
    # Shard 2 of 4 is G2 only (shard 0 of 2, like G0).
    assert await clocked.claim_due_timers(100.0, Shards(4, frozenset({2}))) == [timer[G2, 60.0]]
    assert await clocked.claim_due_timers(65.0, ZERO_OF_TWO) == [timer[G0, 40.0], timer[None, 45.0]]
    assert await clocked.due_timers(1000.0) == [timer["console", 70.0], timer[G1, 200.0]]
    assert await clocked.due_timers(199.0) == [timer["console", 70.0]]
    assert await clocked.claim_due_timers(1000.0, Shards(3, frozenset({0, 1, 2}))) == [
        timer["console", 70.0], timer[G1, 200.0]
    ]  # fmt: skip
    assert await clocked.next_timer() is None


async def test_timers_are_added_cancelled_by_kind_and_deleted_per_game(clocked: AnyStore, clock: Clock):
    games = await _games(clocked)
    a, b = games[G0], games[G1]
    clock.now = 1234.5
    made = [
        await clocked.add_timer("reminder", 10.0, a, {"n": 1}),
        await clocked.add_timer("deadline", 20.0, a),
        await clocked.add_timer("expire", 30.0, a),
        await clocked.add_timer("reminder", 5.0, b),
    ]
    assert made == sorted(made) and len(set(made)) == 4 and made[0] > 0
    assert await rows(clocked, "SELECT id, game_id, kind, due_at, payload, created_at FROM timers ORDER BY id") == [
        (made[0], a, "reminder", 10.0, '{"n":1}', 1234.5),
        (made[1], a, "deadline", 20.0, "{}", 1234.5),
        (made[2], a, "expire", 30.0, "{}", 1234.5),
        (made[3], b, "reminder", 5.0, "{}", 1234.5),
    ]
    assert [t.id for t in await clocked.timers(a)] == made[:3]
    await clocked.cancel_timers(a, [])  # no kinds: nothing
    await clocked.cancel_timers(a, ("reminder", "expire"))
    assert [t.kind for t in await clocked.timers(a)] == ["deadline"]
    assert [t.id for t in await clocked.timers(b)] == [made[3]]  # the other game keeps its reminder
    await clocked.add_timer("reminder", 15.0, a)
    await clocked.cancel_timers(a)  # every kind
    assert await clocked.timers(a) == [] and [t.id for t in await clocked.timers(b)] == [made[3]]
    assert await clocked.delete_timer(made[3]) is True
    assert await clocked.delete_timer(made[3]) is False
    assert await rows(clocked, "SELECT COUNT(*) FROM timers") == [(0,)]


async def test_announcements_are_leased_by_shard_by_channel_and_claimer(clocked: AnyStore, clock: Clock):
    games = {guild: await clocked.get_game(i) for guild, i in (await _games(clocked)).items()}
    other_channel = await clocked.create_game(G1, "c2", "trains", "1", "ann", {}, "1")
    posted = {}
    for guild in (G1, G0, G3):
        games[guild], posted[guild] = await clocked.commit(games[guild], announce=Announcement(guild, ["1"], True))
    _, posted["c2"] = await clocked.commit(other_channel, announce=Announcement("c2", [], False))
    row = {
        key: OutboxRow(
            i,
            other_channel.id if key == "c2" else games[key].id,
            1,
            Announcement(key, [] if key == "c2" else ["1"], key != "c2"),
        )  # noqa: E501
        for key, i in posted.items()
    }
    assert await clocked.claim_announcements(channel=(G1, "elsewhere"), claimer="a") == []
    assert await clocked.claim_announcements(channel=(G0, "c2"), claimer="a") == []
    assert await clocked.claim_announcements(channel=(G1, "c2"), claimer="a", lease=10.0) == [row["c2"]]
    assert await clocked.claim_announcements(Shards(4, frozenset({1})), claimer="a", lease=10.0) == [row[G1]]
    assert await rows(clocked, "SELECT id, claimed_at, claimed_by FROM outbox ORDER BY id") == [
        (posted[G1], 1000.0, "a"), (posted[G0], None, None), (posted[G3], None, None), (posted["c2"], 1000.0, "a")
    ]  # fmt: skip
    clock.now = 1010.0  # the lease of 10 s has run out exactly: another claimer may take them, "a" may not
    assert await clocked.claim_announcements(ONE_OF_TWO, claimer="a", lease=10.0) == [row[G3]]
    assert await clocked.claim_announcements(ONE_OF_TWO, claimer="b", lease=10.01) == []
    assert await clocked.claim_announcements(ONE_OF_TWO, claimer="b", lease=10.0) == [row[G1], row["c2"]]
    assert await rows(clocked, "SELECT id, claimed_at, claimed_by FROM outbox ORDER BY id") == [
        (posted[G1], 1010.0, "b"), (posted[G0], None, None), (posted[G3], 1010.0, "a"), (posted["c2"], 1010.0, "b")
    ]  # fmt: skip
    assert await clocked.claim_announcements() == [row[G0]]  # every shard, claimer ""
    assert await rows(clocked, "SELECT claimed_by FROM outbox WHERE id = ?", (posted[G0],)) == [("",)]
    assert await clocked.pending_announcements() == [row[G1], row[G0], row[G3], row["c2"]]

    # Posted: that row and the older ones of its game go; other games' rows stay.
    _, newer = await clocked.commit(games[G1], announce=Announcement("again", [], False))
    await clocked.mark_announced(posted[G3])
    assert [r.id for r in await clocked.pending_announcements()] == [posted[G1], posted[G0], posted["c2"], newer]
    await clocked.mark_announced(newer)
    assert [r.id for r in await clocked.pending_announcements()] == [posted[G0], posted["c2"]]


async def test_a_listing_is_filled_in_only_at_the_version_read(clocked: AnyStore):
    game = await clocked.create_game("g", "c", "tiny-towns", "1", "ann", {}, "1")
    other = await clocked.create_game("g", "c2", "tiny-towns", "1", "ann", {}, "1")
    assert await clocked.set_listing(game.id, 1, "stale", [0]) is False
    assert await clocked.set_listing(game.id, 0, "ann's turn", [0, 2]) is True
    assert await clocked.set_listing(other.id, 0, "nobody", []) is True
    assert await rows(clocked, "SELECT id, listing, waiting, version FROM games ORDER BY id") == [
        (game.id, "ann's turn", ",0,2,", 0), (other.id, "nobody", "", 0)
    ]  # fmt: skip


async def test_timers_added_with_a_commit_carry_their_payload(clocked: AnyStore, clock: Clock):
    game = await clocked.create_game(
        "g", "c", "tiny-towns", "1", "ann", {}, "1", timers=[NewTimer("expire", 9.0, {"x": 1})]
    )
    assert [(t.game_id, t.kind, t.due_at, t.payload) for t in await clocked.timers(game.id)] == [
        (game.id, "expire", 9.0, {"x": 1})
    ]


async def test_claimed_timers_come_in_due_order_whatever_their_ids_games_and_payloads(clocked: AnyStore):
    games = await _games(clocked)
    # Added in the opposite order of their due times, games and payloads in yet other orders.
    added = [
        await clocked.add_timer("reminder", due, games[guild], {"p": payload})
        for due, guild, payload in ((30.0, G0, "b"), (20.0, "console", "c"), (10.0, G2, "a"), (20.0, G0, "a"))
    ]
    assert [t.id for t in await clocked.claim_due_timers(100.0)] == [added[2], added[1], added[3], added[0]]


async def test_no_shard_claims_nothing_and_several_shards_claim_theirs(clocked: AnyStore):
    games = await _games(clocked)
    for guild in (G0, G1, G2, G3):
        await clocked.add_timer("reminder", 1.0, games[guild])
    assert await clocked.next_timer(Shards(2, frozenset())) is None
    assert await clocked.claim_due_timers(10.0, Shards(2, frozenset())) == []
    game, _ = await clocked.commit(await clocked.get_game(games[G3]), announce=Announcement("x", [], False))
    assert await clocked.claim_announcements(Shards(2, frozenset())) == []
    assert [t.game_id for t in await clocked.claim_due_timers(10.0, Shards(4, frozenset({1, 3})))] == [
        games[G1], games[G3]
    ]  # fmt: skip
    assert [r.game_id for r in await clocked.claim_announcements(Shards(4, frozenset({1, 3})))] == [games[G3]]
