"""The level-2 (search) bot: legal to the end, deterministic, blind to hidden information, and
stronger than level 1 on seeded games."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.tiny_towns import GAME, ai_model, ai_search
from games.tiny_towns.ai_search import Search
from games.tiny_towns.patterns import CELL_INDEX
from games.tiny_towns.rules import legal_moves, redeal
from tests.playouts import bot_line

FIRST_GAME = {"buildings": "first-game"}


def _solo(seed: int, level: int, stop_at_round: int | None = None) -> dict[str, Any]:
    state = GAME.setup(["ann"], FIRST_GAME, seed)
    while not GAME.status(state).finished:
        if stop_at_round is not None and state["round"] >= stop_at_round and state["phase"] == "announce":
            return state
        move = GAME.bot_move(state, 0, level)
        assert move in legal_moves(state, 0) or move["verb"] == "build", move  # builds are checked by apply
        state, _ = GAME.apply(state, 0, move)
    return state


def test_level_two_plays_a_solo_game_legally_to_the_end_and_scores_well() -> None:
    state = _solo(11, 2)
    assert state["phase"] == "finished"
    # A random bot ends near -10 (a town of cubes); level 1 averages about 15 on the first-game set.
    assert GAME.standings(state)[0]["score"] >= 12


def test_level_two_beats_level_one_in_solo_on_the_same_seeds() -> None:
    """And scores as a Town Planner (32 or more) on average: 105 on these seeds (38, 34, 33),
    94 before a Theater counted 3 more until the deck is known."""
    seeds = range(3)
    two = sum(GAME.standings(_solo(seed, 2))[0]["score"] for seed in seeds)
    one = sum(GAME.standings(_solo(seed, 1))[0]["score"] for seed in seeds)
    assert two > one, (two, one)
    assert two >= 32 * len(seeds), two


def test_before_the_solo_deck_is_known_level_two_counts_a_theater_higher_than_at_the_table() -> None:
    """A solo town fills up only as fast as its cubes leave it, so a Theater's square is worth more
    than the table's estimate (the Theater's lines as they are): until the deck is known the solo
    search counts a Theater 3 more, and every other building as at the table. A town holding three
    of a Theater's four cubes is worth over a point more to it than to the table's search; a
    two-player game keeps the table's weights."""
    solo = GAME.setup(["ann"], FIRST_GAME, 1)
    search, table = Search(solo, 0), Search(solo, 0, weights=ai_search._TABLE)
    assert {slug: weight - table.weights[slug] for slug, weight in search.weights.items()} == {
        slug: 3.0 if slug == "theater" else 0.0 for slug in table.weights
    }
    empty = ("",) * 16
    town = list(empty)
    for name, letter in (("B1", "S"), ("A2", "W"), ("B2", "G")):  # the Theater's .S. / WGW but C2
        town[CELL_INDEX[name]] = letter
    theater = tuple(town)
    assert search.evaluate(theater) - search.evaluate(empty) > table.evaluate(theater) - table.evaluate(empty) + 1.0
    assert Search(GAME.setup(["ann", "bob"], FIRST_GAME, 1), 0).w == ai_search._TABLE


def test_level_two_is_deterministic_and_leaves_the_state_unchanged() -> None:
    state = _solo(4, 1, stop_at_round=6)
    before = json.dumps(state, sort_keys=True)
    move = GAME.bot_move(state, 0, 2)
    assert json.dumps(state, sort_keys=True) == before
    assert move in GAME.legal_moves(state, 0)
    # The same move in other interpreters (set and dict orders differ with the hash seed), along a
    # two-player game into its building rounds (40 steps: the first build comes after step 30 since
    # the bot guesses the next resource): comparing two calls in one process could not tell.
    first = bot_line("games.tiny_towns", ["a", "b"], "1", levels=(2,), steps=40)
    assert first.count("/tt build") >= 1 and first == bot_line(
        "games.tiny_towns", ["a", "b"], "2", levels=(2,), steps=40
    )


def test_level_two_never_reads_the_order_of_the_solo_deck() -> None:
    """Shuffling the unseen solo cards (and the RNG cursor) must not change any decision."""
    for seed, round_no in ((3, 2), (3, 9), (8, 5), (8, 14)):
        state = _solo(seed, 1, stop_at_round=round_no)
        if state["phase"] == "finished":
            continue
        picked = GAME.bot_move(state, 0, 2)
        placing, _ = GAME.apply(state, 0, picked)
        placed = GAME.bot_move(placing, 0, 2)
        for other in range(3):
            shuffled = redeal(state, 0, 100 + other)
            assert GAME.bot_move(shuffled, 0, 2) == picked
            assert GAME.bot_move(redeal(placing, 0, 100 + other), 0, 2) == placed


def test_level_two_never_reads_other_players_secrets() -> None:
    """In a 3-player game with monuments, re-dealing another seat's secret monuments and the RNG
    cursor changes nothing the level-2 seat decides."""
    state = GAME.setup(["ann", "bob", "cat"], {"buildings": "first-game", "monuments": "on"}, 21)
    steps = 0
    while not GAME.status(state).finished and steps < 60:
        status = GAME.status(state)
        seat = status.to_act[0]
        if seat == 0 and state["phase"] != "monuments":
            mine = GAME.bot_move(state, 0, 2)
            for other in (1, 2):
                assert GAME.bot_move(redeal(state, other, 7 + other), 0, 2) == mine
        state, _ = GAME.apply(state, seat, GAME.bot_move(state, seat, 2 if seat == 0 else 1))
        steps += 1
    assert steps == 60


def test_level_two_search_sees_a_complete_pattern_and_builds_it() -> None:
    """The pattern scan (flat rows) finds the one complete Tavern, and building it is worth more
    than leaving its three cubes on the board."""
    state = GAME.setup(["ann"], FIRST_GAME, 1)
    cells: list[Any] = [None] * 16
    for name, resource in (("A1", "brick"), ("B1", "brick"), ("C1", "glass")):
        cells[CELL_INDEX[name]] = {"resource": resource}
    state["towns"][0]["cells"] = cells
    search = Search(state, 0)
    town = ai_model.from_engine(cells)
    analysis = search.analyse(town)
    assert [p.slug for p in analysis.complete] == ["tavern"]
    value, built = search.after_builds(town)
    assert built.count("tavern") == 1 and value > analysis.value


_TOKENS = st.sampled_from(["", "", "", *ai_model.LETTERS, "cottage", "well", "trading-post"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_TOKENS, min_size=16, max_size=16))
def test_the_search_scans_exactly_the_patterns_a_town_leaves_open(tokens: list[str]) -> None:
    """The search visits only the rows a town leaves open (a bitset per square and token): they
    are the patterns whose every occupied square holds the letter it needs or a Trading Post, the
    complete ones are those with every square so filled (not by Trading Posts alone), and the
    squares worth a cube are exactly the empty squares of the open patterns, with their letters."""
    state = GAME.setup(["ann"], FIRST_GAME, 1)
    search = Search(state, 0)
    town = tuple(tokens)

    def fits(c: int, need: str) -> bool:
        return town[c] in ("", need, "trading-post")

    open_rows = [p for p in search.patterns if all(fits(c, n) for c, n in zip(p.cells, p.need, strict=True))]
    bits = search._open_rows(town)[0]
    assert [p for k, p in enumerate(search.patterns) if bits >> k & 1] == open_rows
    complete = [
        p for p in open_rows if all(town[c] for c in p.cells) and any(town[c] != "trading-post" for c in p.cells)
    ]
    assert search.analyse(town).complete == complete
    squares = {(c, n) for p in open_rows for c, n in zip(p.cells, p.need, strict=True) if not town[c]}
    assert set(search.gains(town)) == squares


def test_level_two_wins_four_player_games_against_level_one() -> None:
    """With three level-1 bots at the table (the level-2 seat moving round the table), level 2's
    wider search (ai_search._TOP, _WIDTH: 12 and 12) wins outright on these seeds (20
    against at most 18, and 34 against at most 26, with its guess of the next resource and denial).
    With 4 and 4, the sizes before, seed 7 was lost: 11 against 22."""
    for seed in (1, 7):
        state = GAME.setup(["ann", "bob", "cat", "dan"], FIRST_GAME, seed)
        levels = [1, 1, 1, 1]
        levels[seed % 4] = 2
        while not GAME.status(state).finished:
            seat = GAME.status(state).to_act[0]
            state, _ = GAME.apply(state, seat, GAME.bot_move(state, seat, levels[seat]))
        scores = {row["seat"]: row["score"] for row in GAME.standings(state)}
        mine = scores.pop(seed % 4)
        assert mine > max(scores.values()), (seed, mine, scores)
