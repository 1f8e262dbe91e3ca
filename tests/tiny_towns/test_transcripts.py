"""Replay the complete-game transcripts with a small engine-level driver and check their standings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from games.base import IllegalMove
from games.options import parse_options
from games.tiny_towns import GAME
from games.tiny_towns.content import BASE_BUILDINGS, CATALOGUE, MONUMENTS
from tests.tiny_towns import rulebook_scorer

FILES = sorted(Path(__file__).with_name("transcripts").glob("*.transcript"))


def replay(path: Path) -> tuple[dict[str, Any], list[str], list[dict[str, Any]], str | None]:
    header: dict[str, str] = {}
    state: dict[str, Any] | None = None
    names: list[str] = []
    moves: list[dict[str, Any]] = []
    expected = None
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, _, rest = line.partition(":")
        rest = rest.strip()
        if key in ("game", "seed", "players", "options"):
            header[key] = rest
            continue
        if key == "standings":
            expected = rest
            continue
        if state is None:
            assert header["game"] == "tiny-towns"
            names = [n.strip() for n in header["players"].split(",")]
            state = GAME.setup(names, parse_options(header.get("options", ""), GAME.options), int(header["seed"]))
        must_fail = key.startswith("!")
        seat = names.index(key.lstrip("!"))
        if rest in ("/game resign", "/game resign confirm"):
            state, _ = GAME.resign(state, seat)
            continue
        if must_fail:
            with pytest.raises(IllegalMove):
                GAME.apply(state, seat, GAME.parse(rest))
            continue
        move = GAME.parse(rest)
        state, _ = GAME.apply(state, seat, move)
        moves.append(move)
    assert state is not None
    return state, names, moves, expected


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_transcript_replays_to_its_standings(path: Path) -> None:
    state, _, _, expected = replay(path)
    assert GAME.status(state).finished
    table = GAME.standings(state)
    assert expected == " ".join(f"{row['player']}={row['score']}" for row in table)


def test_at_least_three_transcripts_cover_every_building_and_monument() -> None:
    assert len(FILES) >= 3
    built: set[str] = set()
    for path in FILES:
        _, _, moves, _ = replay(path)
        for move in moves:
            if move["verb"] == "build":
                built.add(move["building"])
    assert set(BASE_BUILDINGS) <= built, sorted(set(BASE_BUILDINGS) - built)
    assert set(MONUMENTS) <= built, sorted(set(MONUMENTS) - built)


def test_hand_checked_towns() -> None:
    """Scores worked out by hand from the final boards printed in the transcript.

    bob: Cottages A1 B1 A2 all fed by the Farm (9); Wells B2 = 2 (B1, A2), A3 = 1 (A2), the rest 0 (3);
    Taverns D2 A4 B4 = 3 Taverns (9); Theater D1 sees cottage + Grove University in its row and tavern + well
    in its column (4); Grove University 3; cubes on C2 and D4 (-2): 26.
    ann: no feeder, Cottages 0; Wells B3 = 2, C4 = 1, D2 = 0 (3); 1 Tavern (2); Theater A2 sees tavern, well,
    Fort Ironweed, cottage (4); Fort Ironweed 7; 8 squares without a building (-8): 8.
    """
    path = next(p for p in FILES if p.stem == "standard_first_game_set")
    state, names, _, _ = replay(path)
    rows = {row["player"]: row for row in GAME.standings(state)}
    assert rows["bob"]["breakdown"] == {
        "Cottage": 9,
        "Farm": 0,
        "Well": 3,
        "Tavern": 9,
        "Theater": 4,
        "Grove University": 3,
        "Empty squares": -2,
    }
    assert rows["ann"]["breakdown"] == {
        "Cottage": 0,
        "Well": 3,
        "Tavern": 2,
        "Theater": 4,
        "Fort Ironweed": 7,
        "Empty squares": -8,
    }
    assert rows["bob"]["score"] == 26 and rows["ann"]["score"] == 8
    assert names == ["ann", "bob", "cat", "dan"]


def test_hand_checked_solo_town_and_title() -> None:
    """Solo: Granary on A3 feeds A2 B2 B3 A4 B4 only, so both Cottages are unfed (0); Millstone D3 touches
    the Market (yellow) = 2, Millstone C4 = 0; 2 Almshouses = 5; Market D2 alone in its row/column = 1;
    Cathedral 2 and its empty squares count 0: 10 points, Builder's Apprentice (10-17)."""
    path = next(p for p in FILES if p.stem == "solo")
    state, _, _, _ = replay(path)
    (row,) = GAME.standings(state)
    assert row["score"] == 10 and row["title"] == "Builder's Apprentice"
    assert row["breakdown"]["Millstone"] == 2 and row["breakdown"]["Empty squares"] == 0


GENERATED = ["standard_first_game_set", "town_hall_granary_bank", "cave_greenhouse_trading_post"]
GENERATED += ["orchard_feast_hall_warehouse", "solo"]  # the games tests/tiny_towns/make_transcripts.py wrote


@pytest.mark.parametrize("stem", GENERATED)
def test_generated_games_rescored_from_the_rulebook(stem: str) -> None:
    """The standings lines of the generated games came from the engine; here every town is scored again by
    tests/tiny_towns/rulebook_scorer.py (no engine code or data numbers) and every building type's points,
    the empty squares, each total and the standings line must agree."""
    path = next(p for p in FILES if p.stem == stem)
    state, names, _, expected = replay(path)
    engine = {row["player"]: row for row in GAME.standings(state)}
    independent: dict[str, int] = {}
    for seat, name in enumerate(names):
        points = rulebook_scorer.score(state, seat)
        by_name = {("Empty squares" if slug == "empty" else CATALOGUE[slug]["name"]): vp for slug, vp in points.items()}
        assert engine[name]["breakdown"] == by_name, name
        independent[name] = sum(points.values())
    assert {name: row["score"] for name, row in engine.items()} == independent
    assert expected is not None and dict(p.split("=") for p in expected.split()) == {
        n: str(v) for n, v in independent.items()
    }
    assert [p.split("=")[0] for p in expected.split()] == _rulebook_order(state, names, independent)


def _rulebook_order(state: dict[str, Any], names: list[str], scores: dict[str, int]) -> list[str]:
    """Rank order by the rulebook's tie-breaks: most VP, fewer times Master Builder, fewer empty squares,
    more Cottages, then seat order for a shared place."""

    def key(seat: int) -> tuple[int, ...]:
        town = state["towns"][seat]
        cells = [c.get("building") if c else None for c in town["cells"]]
        return (
            int(bool(town.get("resigned"))),
            -scores[names[seat]],
            town.get("times_master_builder", 0),
            cells.count(None),
            -cells.count("cottage"),
            seat,
        )

    return [names[s] for s in sorted(range(len(names)), key=key)]


def test_shrine_points_match_the_buildings_when_it_was_built() -> None:
    """The Shrine's VP is the one number the rulebook scorer reads from the state: check it against the
    town as it stood right after the Shrine was built (1..5 buildings -> that many VP, 6 or more -> 8)."""
    checked = 0
    for path in FILES:
        header: dict[str, str] = {}
        state: dict[str, Any] | None = None
        names: list[str] = []
        for raw in path.read_text(encoding="utf-8").splitlines():
            line = raw.split("#", 1)[0].strip()
            key, _, rest = line.partition(":")
            rest = rest.strip()
            if key in ("game", "seed", "players", "options"):
                header[key] = rest
                continue
            if not line or key == "standings" or key.startswith("!"):
                continue
            if state is None:
                names = [n.strip() for n in header["players"].split(",")]
                options = parse_options(header.get("options", ""), GAME.options)
                state = GAME.setup(names, options, int(header["seed"]))
            seat = names.index(key)
            if rest.startswith("/game resign"):
                state, _ = GAME.resign(state, seat)
                continue
            state, _ = GAME.apply(state, seat, GAME.parse(rest))
            if rest.startswith("/tt build shrine"):
                town = [c.get("building") if c else None for c in state["towns"][seat]["cells"]]
                count = sum(1 for s in town if s)
                assert state["towns"][seat]["shrine_vp"] == (count if count <= 5 else 8), path.stem
                checked += 1
    assert checked >= 1
