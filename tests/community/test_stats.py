"""/game stats and the solo part of /game leaderboard, from real games."""

from __future__ import annotations

import games
from tests.community.conftest import ANN, BOB, CAT, GUILD, say, trains_won_by


async def play_out_tiny_towns_against_a_bot(host, store, channel: str) -> dict:
    """ann (moved by the engine's own AI, typed as commands) against a level-1 bot, to the end."""
    spec = games.get_game("tiny-towns")
    assert (await say(host, ANN, "/game new tiny-towns buildings=first-game", channel)).ok
    assert (await say(host, ANN, "/game addbot", channel)).ok
    assert (await say(host, ANN, "/game start", channel)).ok
    for _ in range(500):
        row = await store.latest_game(GUILD, channel)
        if row.status == "finished":
            return row.state
        text = spec.format(spec.bot_move(row.state, 0, 1))  # the full command text, /tt ...
        assert (await say(host, ANN, text, channel)).ok, text
    raise AssertionError("the game did not end")


async def test_stats_count_games_wins_scores_buildings_and_maps(host, store):
    final = await play_out_tiny_towns_against_a_bot(host, store, "c1")
    await trains_won_by(host, ANN, BOB, "c2")
    await trains_won_by(host, BOB, ANN, "c3")
    reply = await say(host, CAT, "/game stats ann")
    assert reply.ok, reply
    lines = reply.private.splitlines()
    assert lines[0] == "**ann** in this server:"
    trains = next(line for line in lines if line.startswith("Trains:"))
    assert "2 played; 1 won" in trains and "favourite map: tokyo" in trains and "rating" in trains
    tiny = next(line for line in lines if line.startswith("Tiny Towns:"))
    built: dict[str, int] = {}
    for cell in final["towns"][0]["cells"]:
        if cell.get("building"):
            built[cell["building"]] = built.get(cell["building"], 0) + 1
    assert built, "ann built nothing: the game is too short to test"
    top = max(built, key=lambda slug: built[slug])
    assert "most built: " in tiny and f"×{built[top]}" in tiny
    score = next(s["score"] for s in games.get_game("tiny-towns").standings(final) if s["seat"] == 0)
    assert f"best {score}" in tiny
    # One game only, and another player by mention.
    only = (await say(host, ANN, "/game stats trains")).private
    assert "Trains:" in only and "Tiny Towns" not in only
    mention = await host.handle(GUILD, "c1", CAT, f"/game stats <@{BOB.user_id}> trains", {BOB.user_id: "bob"})
    assert "**bob**" in mention.private and "2 played; 1 won" in mention.private


async def test_solo_games_rank_by_score_with_the_rulebook_titles(host, store):
    for actor, channel in ((ANN, "c1"), (BOB, "c2")):
        assert (await say(host, actor, "/game new tiny-towns", channel)).ok
        assert (await say(host, actor, "/game start solo", channel)).ok
        assert (await say(host, actor, "/game resign confirm", channel)).status == "finished"
    assert await store.ratings(GUILD, "tiny-towns") == []  # solo games are not rated
    board = (await say(host, CAT, "/game leaderboard tiny-towns")).public
    assert "No rated multiplayer games yet." in board
    solo = board.split("Solo (best score per player):")[1].strip().splitlines()
    # An empty town scores -16; the rulebook's lowest solo title is "Aspiring Architect".
    assert solo == ["1. ann -16 (Aspiring Architect)", "2. bob -16 (Aspiring Architect)"]


async def test_stats_and_leaderboard_refuse_bad_words(host):
    refused = await say(host, ANN, "/game leaderboard chess")
    assert not refused.ok and "tiny-towns" in refused.private + refused.public
    refused = await say(host, ANN, "/game stats ann bob")
    assert not refused.ok


def test_every_declared_stats_function_counts_per_seat_after_a_playout():
    declared = [m.spec for m in games.manifests() if m.spec.stats is not None]
    assert {spec.slug for spec in declared} >= {"tiny-towns", "trains", "trolley-town", "tramways"}
    for spec in declared:
        counted_something = False
        for seed in (3, 4, 5):  # a level-1 Tramways game does not always build (seed 4 does)
            state = spec.setup(["ann", "bob"], {}, seed)
            for _ in range(5000):
                status = spec.status(state)
                if status.finished:
                    break
                seat = status.to_act[0]
                state, _ = spec.apply(state, seat, spec.bot_move(state, seat, 1))
            assert spec.status(state).finished, spec.slug
            played = spec.stats(state)
            assert len(played["counts"]) == 2 and played["counted"], spec.slug
            assert all(isinstance(n, int) and n > 0 for counts in played["counts"] for n in counts.values()), spec.slug
            counted_something = counted_something or any(played["counts"])
        assert counted_something, f"{spec.slug}: three whole games counted nothing"


def test_tramways_counts_the_buildings_each_player_built_by_name():
    from games.tramways.scoring import stats

    state = {
        "names": ["ann", "bob"],
        "built": {
            "A1": {"type": "R", "owner": 1, "upgraded": False},
            "B2": {"type": "L", "owner": 1, "upgraded": True},
            "C3": {"type": "S", "owner": 0, "upgraded": False},
        },
    }
    assert stats(state)["counts"] == [{"Station": 1}, {"Residence": 1, "Leisure": 1}]


async def test_the_most_built_list_breaks_ties_alphabetically(store):
    """Whatever order a game's stats listed its buildings in (the stored text is read back as a dict)."""
    from bot.community import _game_line
    from storage.community import ResultRow

    def row(game_id: int, counts: dict[str, int]) -> ResultRow:
        return ResultRow(game_id, "tiny-towns", "1", "ann", "human", 1, 1, 20, None, None, "buildings built", counts,
                         float(game_id))  # fmt: skip

    rows = [row(1, {"well": 2, "theater": 1, "farm": 1}), row(2, {"cottage": 2, "theater": 1, "farm": 1})]
    line = await _game_line(store, GUILD, "tiny-towns", "1", rows)
    assert "most built: Cottage ×2, Farm ×2, Theater ×2." in line, line
