"""Ratings and statistics through the real host core and database: written with the finishing
move, aborted games never count, a finished game rolled back is re-rated, bots are rated apart."""

from __future__ import annotations

import pytest

from bot.check_ratings import check_ratings
from storage import is_postgres, open_store
from storage.rating import Placing, Rating, fresh, rate, replay
from tests.community.conftest import ANN, BOB, CAT, GUILD, MOD, OTHER_GUILD, say, trains_won_by


def ratings_by_player(ratings):
    return {r.player: r for r in ratings}


async def test_finishing_a_game_rates_it_in_the_same_write(host, store):
    await trains_won_by(host, ANN, BOB, "c1")
    rated = ratings_by_player(await store.ratings(GUILD, "trains"))
    assert set(rated) == {ANN.user_id, BOB.user_id}
    assert rated[ANN.user_id].mu > fresh("x", "x", "human").mu > rated[BOB.user_id].mu
    assert rated[ANN.user_id].games == rated[BOB.user_id].games == 1
    # The same finish through the rating model alone gives the very same numbers.
    expected = replay([[Placing(ANN.user_id, "ann", "human", 1), Placing(BOB.user_id, "bob", "human", 2)]])
    assert rated[ANN.user_id].mu == expected[ANN.user_id].mu
    assert rated[BOB.user_id].sigma == expected[BOB.user_id].sigma
    assert [f.kind for f in await check_ratings(store)] == ["ok"]


async def test_a_failed_finishing_write_rates_nothing(host, store, monkeypatch):
    """The rating is part of the commit: when the commit fails, the game is not finished and not rated."""
    assert (await say(host, ANN, "/game new trains")).ok
    assert (await say(host, BOB, "/game join")).ok
    assert (await say(host, ANN, "/game start")).ok
    original = type(store)._record

    class DiskFull(Exception):
        pass

    async def broken(self, *args, **kwargs):
        await original(self, *args, **kwargs)  # the results and ratings are written, then the commit fails
        raise DiskFull

    monkeypatch.setattr(type(store), "_record", broken)
    with pytest.raises(DiskFull):
        await say(host, BOB, "/game resign confirm")
    assert await store.ratings(GUILD, "trains") == []
    assert await store.results(GUILD) == []
    row = await store.open_game(GUILD, "c1")
    assert row is not None and row.status == "active"


async def test_aborted_games_never_count(host, store):
    assert (await say(host, ANN, "/game new trains")).ok
    assert (await say(host, BOB, "/game join")).ok
    assert (await say(host, ANN, "/game start")).ok
    assert (await say(host, MOD, "/mod abort")).ok
    assert await store.ratings(GUILD, "trains") == []
    assert await store.results(GUILD) == []
    stats = await say(host, ANN, "/game stats")
    assert "no finished games" in stats.private


async def test_a_game_rolled_back_after_it_ended_is_re_rated(host, store):
    await trains_won_by(host, ANN, BOB, "c1")  # game 1: ann beats bob
    await trains_won_by(host, BOB, CAT, "c2")  # game 2: bob beats cat
    before = ratings_by_player(await store.ratings(GUILD, "trains"))
    game1 = (await store.latest_game(GUILD, "c1")).id
    moves = await store.moves(game1)
    back = await say(host, MOD, f"/mod rollback {len(moves) - 1}", "c1")  # before bob's resignation
    assert back.ok and back.status == "active", back
    # Game 1 no longer counts: the ratings are those of game 2 alone.
    alone = replay([[Placing(BOB.user_id, "bob", "human", 1), Placing(CAT.user_id, "cat", "human", 2)]])
    now = ratings_by_player(await store.ratings(GUILD, "trains"))
    assert set(now) == {BOB.user_id, CAT.user_id}
    assert now[BOB.user_id].mu == alone[BOB.user_id].mu and now[BOB.user_id].games == 1
    assert [r.game_id for r in await store.results(GUILD)] == [game1 + 1, game1 + 1]
    # This time ann resigns: the game counts again, with the new result, after game 2.
    assert (await say(host, ANN, "/game resign confirm", "c1")).status == "finished"
    after = ratings_by_player(await store.ratings(GUILD, "trains"))
    assert after[ANN.user_id].mu < before[ANN.user_id].mu and after[BOB.user_id].games == 2
    again = replay(
        [
            [Placing(BOB.user_id, "bob", "human", 1), Placing(CAT.user_id, "cat", "human", 2)],
            [Placing(BOB.user_id, "bob", "human", 1), Placing(ANN.user_id, "ann", "human", 2)],
        ]
    )
    assert {p: (r.mu, r.sigma, r.games) for p, r in after.items()} == {
        p: (r.mu, r.sigma, r.games) for p, r in again.items()
    }
    assert [f.kind for f in await check_ratings(store)] == ["ok"]


async def test_an_aborted_game_cannot_be_rolled_back(host, store):
    assert (await say(host, ANN, "/game new trains")).ok
    assert (await say(host, BOB, "/game join")).ok
    assert (await say(host, ANN, "/game start")).ok
    assert (await say(host, MOD, "/mod abort")).ok
    refused = await say(host, MOD, "/mod rollback 0")
    assert not refused.ok and "aborted" in refused.private + refused.public
    assert await store.results(GUILD) == []


async def test_bots_are_rated_per_level_and_shown_apart(host, store):
    for channel in ("c1", "c2"):
        assert (await say(host, ANN, "/game new trains", channel)).ok
        assert (await say(host, ANN, "/game addbot 0", channel)).ok
        assert (await say(host, ANN, "/game start", channel)).ok
        assert (await say(host, ANN, "/game resign confirm", channel)).status == "finished"
    rated = ratings_by_player(await store.ratings(GUILD, "trains"))
    assert set(rated) == {ANN.user_id, "bot:level0"}  # two bots of level 0 are one rated player
    assert rated["bot:level0"].kind == "bot" and rated["bot:level0"].games == 2
    board = (await say(host, CAT, "/game leaderboard trains")).public
    humans, bots = board.split("Bots (rated, shown apart):")
    assert "ann" in humans and "Bot" not in humans
    assert "Bot (level 0)" in bots and "ann" not in bots


async def test_ratings_are_per_server(host, store):
    await trains_won_by(host, ANN, BOB, "c1", GUILD)
    await trains_won_by(host, BOB, ANN, "c1", OTHER_GUILD)
    here = ratings_by_player(await store.ratings(GUILD, "trains"))
    there = ratings_by_player(await store.ratings(OTHER_GUILD, "trains"))
    assert here[ANN.user_id].mu > here[BOB.user_id].mu
    assert there[BOB.user_id].mu > there[ANN.user_id].mu
    assert "ann 3.4" in (await say(host, CAT, "/game leaderboard trains")).public


async def test_check_finds_ratings_that_do_not_follow_from_the_games(host, store):
    await trains_won_by(host, ANN, BOB, "c1")
    await store._write("UPDATE ratings SET mu = mu + 1 WHERE player = ?", (ANN.user_id,))
    found = await check_ratings(store)
    assert [(f.kind, f.game) for f in found] == [("mismatch", "trains")] and ANN.user_id in found[0].detail


def test_rating_ties_share_and_one_player_games_change_nothing():
    a, b, c = (Placing(p, p, "human", r) for p, r in (("a", 1), ("b", 2), ("c", 2)))
    new = {r.player: r for r in rate({}, [a, b, c])}
    assert new["b"].mu == new["c"].mu < new["a"].mu
    assert rate({}, [a]) == []
    assert rate({}, [a, Placing("a", "a", "human", 3)]) == []  # one player in two seats is one player


def test_conductor_check_prints_the_ratings_and_fails_on_a_tampered_one(
    store_target: str, tmp_path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    """The command line's `conductor check`, on a database with a rated game (on each backend); run in this
    process, as test_compact_storage runs `conductor vacuum`: a new interpreter took seconds to start."""
    import asyncio

    from bot.cli import main as cli_main
    from bot.core import Conductor

    async def prepare() -> None:
        store = await open_store(store_target)
        try:
            await trains_won_by(Conductor(store, render_images=False), ANN, BOB, "c1")
        finally:
            await store.close()

    async def tamper() -> None:
        store = await open_store(store_target)
        try:
            await store._write("UPDATE ratings SET sigma = sigma / 2")
        finally:
            await store.close()

    asyncio.run(prepare())
    for key in ("DATABASE_URL", "DATABASE_PATH"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("DATABASE_URL" if is_postgres(store_target) else "DATABASE_PATH", store_target)
    command = ["--env-file", str(tmp_path / "none.env"), "check"]
    capsys.readouterr()
    assert cli_main(command) == 0, capsys.readouterr()
    said = capsys.readouterr().out
    assert f"ratings of trains in server {GUILD}: ok: 2 ratings recomputed from 1 finished games" in said
    asyncio.run(tamper())
    assert cli_main(command) == 1
    assert "ratings of trains in server g1: mismatch" in capsys.readouterr().out


def test_a_player_rated_again_starts_from_their_stored_uncertainty():
    """Each game narrows sigma further: a second and third game start from the sigma the last one left,
    not from a new player's (the fold that `conductor check` recomputes)."""
    ratings: dict[str, Rating] = {}
    sigmas = []
    for _ in range(3):
        for rating in rate(ratings, [Placing("a", "a", "human", 1), Placing("b", "b", "human", 2)]):
            ratings[rating.player] = rating
        sigmas.append(ratings["a"].sigma)
    assert fresh("a", "a", "human").sigma > sigmas[0] > sigmas[1] > sigmas[2]
    assert ratings["a"].games == 3 and ratings["a"].mu > ratings["b"].mu


def test_a_player_seated_twice_at_the_same_rank_is_named_by_their_first_seat():
    seats = [Placing("bot:level1", "Bot 1", "bot", 1), Placing("bot:level1", "Bot 2", "bot", 1)]
    [bot, ann] = rate({}, [*seats, Placing("ann", "ann", "human", 2)])
    assert (bot.player, bot.display_name, ann.player) == ("bot:level1", "Bot 1", "ann")
    [bot, ann] = rate({}, [*seats[::-1], Placing("ann", "ann", "human", 2)])
    assert bot.display_name == "Bot 2"  # the first of the two seats, whichever it is
