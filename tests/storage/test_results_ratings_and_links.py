"""The community tables on each backend, value by value: the results a finishing commit records, the
ratings folded from them (and re-folded when a finished game is rolled back or finished again), the
boards and players they list, and the web viewer's links (only finished games, only by their own server)."""

from __future__ import annotations

from storage import AnyStore, GameResults, SeatResult, SeatRow
from storage.community import ResultRow, WebGame
from storage.rating import Placing, replay
from tests.storage.conftest import Clock, rows

ANN, BOB, CAT = ("1", "ann"), ("2", "bob"), ("3", "Cat")
TRAINS_C = [Placing("2", "bob", "human", 1), Placing("3", "Cat", "human", 1)]


def _seats(*players: tuple[str, str]) -> list[SeatRow]:
    return [SeatRow(i, user, name, "human", 1) for i, (user, name) in enumerate(players)]


def _results(token: str, *placed: tuple[tuple[str, str], int, int]) -> GameResults:
    seats = tuple(
        SeatResult(i, user, name, "human", rank, score, "Rookie" if i == 0 else None, {"rails": i + 2})
        for i, ((user, name), rank, score) in enumerate(placed)
    )
    return GameResults(seats, "tokyo" if token.startswith("t") else None, "score", f"game-{token}", f"guild-{token}")


async def _finish(store: AnyStore, clock: Clock, guild: str, channel: str, game: str, results: GameResults) -> int:
    players = [(s.player, s.display_name) for s in results.seats]
    row = await store.create_game(guild, channel, game, players[0][0], players[0][1], {}, "1")
    row, _ = await store.commit(row, status="active", seats=_seats(*players), state={"n": 0})
    await store.commit(row, status="finished", results=results)
    return row.id


async def _expected_ratings(store: AnyStore, guild: str, game: str) -> list[object]:
    folded = replay(await store.rated_games(guild, game))
    return sorted(folded.values(), key=lambda r: (-r.ordinal, r.display_name))


async def test_finished_games_are_recorded_rated_listed_and_linked(clocked: AnyStore, clock: Clock):
    clock.now = 2000.0
    a = await _finish(clocked, clock, "g1", "c1", "trains", _results("ta", (ANN, 1, 30), (BOB, 2, 20)))
    clock.now = 3000.0
    b = await _finish(clocked, clock, "g1", "c2", "tiny-towns", _results("b", (ANN, 2, 10), (CAT, 1, 15)))
    c = await _finish(clocked, clock, "g1", "c3", "trains", _results("tc", (BOB, 1, 25), (CAT, 1, 25)))
    d = await _finish(clocked, clock, "g2", "c1", "trains", _results("td", (("4", "ann"), 1, 5), (BOB, 2, 4)))
    running = await clocked.create_game("g1", "c4", "trains", "1", "ann", {}, "1")

    assert await clocked.rated_boards() == [("g1", "tiny-towns"), ("g1", "trains"), ("g2", "trains")]
    assert await clocked.rated_games("g1", "trains") == [
        [Placing("1", "ann", "human", 1), Placing("2", "bob", "human", 2)],
        [Placing("2", "bob", "human", 1), Placing("3", "Cat", "human", 1)],
    ]
    assert await clocked.results("g1", player="3") == [
        ResultRow(b, "tiny-towns", "3", "Cat", "human", 2, 1, 15, None, None, "score", {"rails": 3}, 3000.0),
        ResultRow(c, "trains", "3", "Cat", "human", 2, 1, 25, None, "tokyo", "score", {"rails": 3}, 3000.0),
    ]
    assert [(r.game_id, r.player, r.rank, r.title) for r in await clocked.results("g1", game="trains")] == [
        (a, "1", 1, "Rookie"), (a, "2", 2, None), (c, "2", 1, "Rookie"), (c, "3", 1, None)
    ]  # fmt: skip
    assert [r.game_id for r in await clocked.results("g1", "2", "trains")] == [a, c]
    assert len(await clocked.results("g1")) == 6 and len(await clocked.results("g2")) == 2
    for guild, game in await clocked.rated_boards():
        assert await clocked.ratings(guild, game) == await _expected_ratings(clocked, guild, game)
    assert [(r.player, r.games) for r in await clocked.ratings("g1", "trains")] == [("1", 1), ("3", 1), ("2", 2)]
    folded = replay([[Placing("1", "ann", "human", 1), Placing("2", "bob", "human", 2)], TRAINS_C])
    assert await clocked.ratings("g1", "trains") == sorted(folded.values(), key=lambda r: (-r.ordinal, r.display_name))
    assert await clocked.players_named("g1", "ANN") == ["1"]
    assert await clocked.players_named("g1", "cat") == ["3"] and await clocked.players_named("g1", "dan") == []
    assert await clocked.players_named("g2", "ann") == ["4"]

    # Links: the guild's first token opens its list; each finished game's token opens it, only in its guild.
    assert await clocked.web_link("guild", "g1") == "guild-ta" and await clocked.web_guild("guild-ta") == "g1"
    assert await clocked.web_guild("guild-b") is None  # a later finish kept the first token
    assert await clocked.web_guild("game-ta") is None and await clocked.web_guild("guild-td") == "g2"
    assert (
        await clocked.web_link("game", str(a)) == "game-ta" and await clocked.web_link("game", str(running.id)) is None
    )
    assert await clocked.web_games("g1") == [
        WebGame(c, "trains", "game-tc", 3000.0), WebGame(b, "tiny-towns", "game-b", 3000.0),
        WebGame(a, "trains", "game-ta", 2000.0),
    ]  # fmt: skip
    assert await clocked.web_games("g2") == [WebGame(d, "trains", "game-td", 3000.0)]
    assert await clocked.web_game_id("g1", "game-ta") == a and await clocked.web_game_id("g2", "game-td") == d
    assert await clocked.web_game_id("g2", "game-ta") is None and await clocked.web_game_id("g1", "guild-ta") is None


async def test_rolled_back_games_are_forgotten_and_finished_again_replace_their_results(
    clocked: AnyStore, clock: Clock
):
    a = await _finish(clocked, clock, "g1", "c1", "trains", _results("ta", (ANN, 1, 30), (BOB, 2, 20)))
    clock.now = 1500.0
    b = await _finish(clocked, clock, "g1", "c2", "trains", _results("tb", (BOB, 1, 9), (CAT, 2, 8)))
    game = await clocked.get_game(a)
    game, _ = await clocked.commit(game, status="active")  # rolled back into play
    assert [r.game_id for r in await clocked.results("g1")] == [b, b]
    assert await clocked.rated_games("g1", "trains") == [
        [Placing("2", "bob", "human", 1), Placing("3", "Cat", "human", 2)]
    ]
    assert [(r.player, r.games) for r in await clocked.ratings("g1", "trains")] == [("2", 1), ("3", 1)]
    assert await clocked.ratings("g1", "trains") == await _expected_ratings(clocked, "g1", "trains")
    assert await clocked.web_game_id("g1", "game-ta") is None and [
        w.game_id for w in await clocked.web_games("g1")
    ] == [b]

    # Finished again, the other way round: recorded after b (seq 3; its seq 1 is gone), the first link kept.
    clock.now = 2500.0
    await clocked.commit(game, status="finished", results=_results("tz", (ANN, 2, 1), (BOB, 1, 2)))
    assert await rows(clocked, "SELECT game_id, rated_seq FROM game_results ORDER BY rated_seq, seat") == [
        (b, 2), (b, 2), (a, 3), (a, 3)
    ]  # fmt: skip
    assert await clocked.ratings("g1", "trains") == await _expected_ratings(clocked, "g1", "trains")
    assert {r.player: r.games for r in await clocked.ratings("g1", "trains")} == {"1": 1, "2": 2, "3": 1}
    assert await clocked.web_game_id("g1", "game-ta") == a and await clocked.web_game_id("g1", "game-tz") is None

    # Results already there when a game finishes (written behind the store's back): replaced, and the
    # ratings folded again from every result rather than rated on top of the old ones.
    await clocked._write("UPDATE games SET status = 'active' WHERE id = ?", (a,))
    game = await clocked.get_game(a)
    await clocked.commit(game, status="finished", results=_results("ty", (ANN, 1, 5), (BOB, 2, 4)))
    recorded = await rows(clocked, "SELECT game_id, rated_seq, player, rank FROM game_results ORDER BY rated_seq, seat")
    assert recorded == [(b, 2, "2", 1), (b, 2, "3", 2), (a, 3, "1", 1), (a, 3, "2", 2)]
    assert await clocked.ratings("g1", "trains") == await _expected_ratings(clocked, "g1", "trains")
    assert {r.player: r.games for r in await clocked.ratings("g1", "trains")} == {"1": 1, "2": 2, "3": 1}


async def test_a_finished_game_rolled_back_forgets_its_results_whatever_results_the_commit_carries(
    clocked: AnyStore, clock: Clock
):
    """Rolling a finished game back into play forgets its results and re-folds the ratings, even when the
    commit also passes results: only a commit that finishes records them."""
    first = _results("ta", (ANN, 1, 30), (BOB, 2, 20))
    kept = await _finish(clocked, clock, "g1", "c1", "trains", first)
    game = await _finish(clocked, clock, "g1", "c2", "trains", _results("tb", (BOB, 1, 9), (CAT, 2, 8)))
    finished = await clocked.get_game(game)
    assert finished is not None and finished.status == "finished"
    await clocked.commit(finished, status="active", results=_results("tb", (CAT, 1, 99), (BOB, 2, 1)))
    assert [r.game_id for r in await clocked.results("g1")] == [kept, kept]
    assert await clocked.ratings("g1", "trains") == await _expected_ratings(clocked, "g1", "trains")
    assert {r.player for r in await clocked.ratings("g1", "trains")} == {"1", "2"}


def test_what_a_status_change_does_to_the_results():
    """finish_action, case by case: record only when a game finishes with results; forget when a finished
    game goes back into play; nothing for every other change (an abort never reaches the results)."""
    from storage.community import finish_action

    results = _results("t", (ANN, 1, 3), (BOB, 2, 1))
    cases = [
        ("active", None, results, None),  # no status change
        ("finished", "finished", results, None),  # the same status again
        ("active", "finished", results, "record"),
        ("active", "finished", None, None),  # finished without results: nothing to record
        ("active", "aborted", results, None),
        ("lobby", "aborted", None, None),
        ("finished", "active", None, "forget"),
        ("finished", "active", results, "forget"),
        ("finished", "aborted", None, "forget"),
    ]
    for was, now, given, expected in cases:
        assert finish_action(was, now, given) == expected, (was, now, given is not None)
