"""Whole games played by the random bot (level 0), the planning bot (level 1) and hypothesis,
for 1-4 players and the options, with the rules' invariants checked after every move:

- no tile ever holds more pieces than its spaces;
- pieces change only through effects: a transport move keeps every resource's total and moves
  exactly the named pieces; construction takes exactly the cost (minus discounts, plus the Rebuild
  tile) in wood and stone and adds only what immediate and construction effects gain; a choice
  adds exactly the chosen pieces to the asking tile; processing changes only converting tiles;
- victory points never go down;
- the state survives a JSON round trip unchanged, and every move's canonical text parses back
  to the same move;
- the game finishes.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.trolley_town import GAME
from games.trolley_town.content import RESOURCES, SPECIALS, TILES
from games.trolley_town.town import surroundings

State = dict[str, Any]
NAMES = ["ann", "bob", "cat", "dan"]
MAX_MOVES = 3000
BUILD_RESOURCES = ("wood", "stone")


# ---------------------------------------------------------------- invariants


def _totals(town: dict[str, Any]) -> dict[str, int]:
    found = dict.fromkeys(RESOURCES, 0)
    for cell in town["cells"].values():
        for r, n in cell.get("r", {}).items():
            found[r] += n
    return found


def _paid(events: list[dict[str, Any]]) -> dict[str, int]:
    paid = dict.fromkeys(BUILD_RESOURCES, 0)
    for event in events:
        match = re.search(r", paying (.+)\.$", event.get("text", ""))
        if match and match.group(1) != "nothing":
            for part in match.group(1).split(" + "):
                n, r = part.split(" ")
                paid[r] += int(n)
    return paid


def _discount_around(town: dict[str, Any], key: str) -> int:
    total = 0
    for other in surroundings(key):
        cell = town["cells"].get(other)
        if cell and "t" in cell:
            total += sum(int(e.get("amount")) for e in TILES[cell["t"]].effects if e.do == "discount")
    return total


def _expected_cost(before: State, seat: int, move: dict[str, Any]) -> int:
    """The pieces a construction move costs, from the rulebook and rules.json numbers."""
    town = before["towns"][seat]
    if move["verb"] == "build":
        tile = TILES[move["tile"]]
        cost = tile.cost_total
        off = min(_discount_around(town, move["cell"]), cost - 1)
        return cost - off + (TILES["rebuild"].cost_total if move.get("rebuild") else 0)
    if move["verb"] == "upgrade":
        return len(move["cells"])
    return sum(1 if kind == "upgrade" else 2 if kind == "junction" else 1 for kind, _, _ in move["routes"])


def _gainers(town: dict[str, Any], new_key: str | None) -> set[str]:
    """Tiles that may gain pieces when a building goes up at ``new_key``."""
    found = {new_key} if new_key else set()
    for key, cell in town["cells"].items():
        if "t" in cell and any(e.when == "construction" and e.do == "gain" for e in TILES[cell["t"]].effects):
            found.add(key)
    return found


def _changed(before: dict[str, Any], after: dict[str, Any]) -> set[str]:
    return {
        key
        for key in set(before["cells"]) | set(after["cells"])
        if before["cells"].get(key, {}).get("r", {}) != after["cells"].get(key, {}).get("r", {})
    }


def check_step(before: State, seat: int, move: dict[str, Any], after: State, events: list[dict[str, Any]]) -> None:
    # JSON round trip and canonical text
    assert json.loads(json.dumps(after)) == after
    assert GAME.parse(GAME.format(move)) == move, GAME.format(move)
    # capacities
    for town in after["towns"]:
        for key, cell in town["cells"].items():
            if "t" in cell:
                assert sum(cell.get("r", {}).values()) <= TILES[cell["t"]].spaces, (key, cell)
                assert all(n > 0 for n in cell.get("r", {}).values()), (key, cell)
            else:
                assert "r" not in cell or not cell["r"]
    # victory points never go down
    for a, b in zip(before["towns"], after["towns"], strict=True):
        assert b["vp"] >= a["vp"]
        assert b["vp"] == sum(b["scored"].values())
    # other players' towns never change on a move, unless the round (or game) moved on
    same_round = after["round"] == before["round"] and after["phase"] not in ("finished",)
    if same_round and before["phase"] == after["phase"] != "production":
        for other in range(len(before["towns"])):
            if other != seat:
                assert before["towns"][other]["cells"] == after["towns"][other]["cells"]
    t0, t1 = before["towns"][seat], after["towns"][seat]
    verb = move["verb"]
    if verb == "move":
        assert _totals(t0) == _totals(t1)
        expect = json.loads(json.dumps(t0["cells"]))
        for resource, source, target in move["moves"]:
            expect[source]["r"][resource] -= 1
            if not expect[source]["r"][resource]:
                del expect[source]["r"][resource]
            expect[target].setdefault("r", {})
            expect[target]["r"][resource] = expect[target]["r"].get(resource, 0) + 1
        assert {k: c.get("r", {}) for k, c in expect.items()} == {k: c.get("r", {}) for k, c in t1["cells"].items()}
    elif verb in ("build", "route", "upgrade"):
        paid = _paid(events)
        assert sum(paid.values()) == _expected_cost(before, seat, move)
        new_key = move.get("cell") if verb == "build" else None
        allowed = _gainers(t1, new_key)
        a, b = _totals(t0), _totals(t1)
        for r in RESOURCES:
            gained = b[r] - a[r] + paid.get(r, 0)
            assert gained >= 0, (r, a, b, paid)
        for key in _changed(t0, t1) - allowed:
            # elsewhere only wood and stone may go, as payment
            old, new = t0["cells"][key].get("r", {}), t1["cells"][key].get("r", {})
            for r in RESOURCES:
                if r in BUILD_RESOURCES:
                    assert new.get(r, 0) <= old.get(r, 0)
                else:
                    assert new.get(r, 0) == old.get(r, 0)
    elif verb == "choose" and before["phase"] == after["phase"] and before["round"] == after["round"]:
        key = move["cell"]
        assert _changed(t0, t1) == {key}
        old, new = t0["cells"][key].get("r", {}), t1["cells"][key].get("r", {})
        diff = {r: new.get(r, 0) - old.get(r, 0) for r in RESOURCES if new.get(r, 0) != old.get(r, 0)}
        chosen: dict[str, int] = {}
        for r in move["resources"]:
            chosen[r] = chosen.get(r, 0) + 1
        assert diff == chosen
    elif verb == "done" and same_round and after["phase"] == "transport":
        for key in _changed(t0, t1):
            assert TILES[t1["cells"][key]["t"]].processes, key
    elif verb == "remove":
        m = after["market"]
        left = [t for t in m["row"] if t] + m["a"] + m["b"] + [t for p in m["v"] for t in p]
        assert not set(move["tiles"]) & set(left)
        m0 = before["market"]
        was = [t for t in m0["row"] if t] + m0["a"] + m0["b"] + [t for p in m0["v"] for t in p]
        assert sorted(left + move["tiles"]) == sorted(was)
    # every special tile is somewhere: in the market or in a town (solo removes some)
    if len(after["names"]) > 1:
        m = after["market"]
        seen = [t for t in m["row"] if t] + m["a"] + m["b"] + [t for p in m["v"] for t in p]
        for town in after["towns"]:
            seen += [c["t"] for c in town["cells"].values() if "t" in c and TILES[c["t"]].pile in ("A", "B", "V")]
        assert sorted(seen) == sorted(SPECIALS["A"] + SPECIALS["B"] + SPECIALS["V"])


def play_game(players: int, seed: int, options: dict[str, Any], choose: Any) -> State:
    """Play to the end; ``choose(state, seat, step)`` picks each move. Returns the final state."""
    state = GAME.setup(NAMES[:players], options, seed)
    for step in range(MAX_MOVES):
        status = GAME.status(state)
        if status.finished:
            assert state["phase"] == "finished"
            assert [r["score"] for r in GAME.standings(state)] == sorted(
                (t["vp"] for t in state["towns"]), reverse=True
            )
            return state
        assert status.to_act
        for seat in status.to_act:
            assert GAME.legal_moves(state, seat), (seat, state["phase"])
        seat = status.to_act[step % len(status.to_act)]
        move = choose(state, seat, step)
        after, events = GAME.apply(state, seat, move)
        check_step(state, seat, move, after, events)
        state = after
    raise AssertionError(f"game did not finish in {MAX_MOVES} moves")


def _bot(level: int) -> Any:
    return lambda state, seat, step: GAME.bot_move(state, seat, level)


# ---------------------------------------------------------------- seeded playouts

OPTION_SETS = [
    {},
    {"first_game": True},
    {"expert": ["all"]},
]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("options", OPTION_SETS, ids=["plain", "first_game", "expert"])
def test_random_bot_playouts(players: int, options: dict[str, Any]) -> None:
    for seed in (1, 2):
        final = play_game(players, seed * 100 + players, options, _bot(0))
        assert final["round"] == 4


def test_random_bot_solo_with_chosen_basics() -> None:
    basics = ["meadow", "meadow", "meadow", "meadow", "ranch", "ranch", "ranch"]
    final = play_game(1, 7, {"basics": basics}, _bot(0))
    assert [p["tile"] for p in final["market"]["basic"]] == basics


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_planning_bot_playouts(players: int) -> None:
    options = {"first_game": True} if players % 2 else {"expert": ["1"]}
    final = play_game(players, 40 + players, options, _bot(1))
    assert max(t["vp"] for t in final["towns"]) > 0


def test_playouts_are_deterministic_for_a_seed() -> None:
    a = play_game(3, 5, {}, _bot(0))
    b = play_game(3, 5, {}, _bot(0))
    assert a == b


# ---------------------------------------------------------------- hypothesis


ENDING_WEIGHT = 3  # extra draws that mean "pass" or "done", so random transport ends


def _drawn_move(data: Any, state: State, seat: int, step: int) -> dict[str, Any]:
    legal = GAME.legal_moves(state, seat)
    # Past a long stretch, finish the phase the way a moderator's skip would.
    if step > 250:
        return GAME.skip_move(state, seat)
    index = data.draw(st.integers(0, len(legal) - 1 + ENDING_WEIGHT), label="move")
    if index >= len(legal):
        ending = [m for m in legal if m["verb"] in ("pass", "done")]
        return ending[0] if ending else legal[index % len(legal)]
    return legal[index]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(1, 4),
    first_game=st.booleans(),
    expert=st.booleans(),
    data=st.data(),
)
def test_any_legal_move_sequence_keeps_the_invariants(
    seed: int, players: int, first_game: bool, expert: bool, data: Any
) -> None:
    options = {"first_game": first_game, "expert": ["all"] if expert else []}
    final = play_game(players, seed, options, lambda state, seat, step: _drawn_move(data, state, seat, step))
    assert final["phase"] == "finished"


@settings(max_examples=30, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(1, 4), data=st.data())
def test_every_listed_move_is_accepted_and_its_text_parses_back(seed: int, players: int, data: Any) -> None:
    """A few random steps in, every legal move of the player to act: format -> parse is the
    identity, and apply accepts it."""
    state = GAME.setup(NAMES[:players], {}, seed)
    for _ in range(data.draw(st.integers(0, 25), label="steps")):
        if GAME.status(state).finished:
            return
        seat = GAME.status(state).to_act[0]
        state, _ = GAME.apply(state, seat, GAME.bot_move(state, seat, 0))
    if GAME.status(state).finished:
        return
    seat = GAME.status(state).to_act[0]
    for move in GAME.legal_moves(state, seat):
        assert GAME.parse(GAME.format(move)) == move
        after, events = GAME.apply(state, seat, move)
        check_step(state, seat, move, after, events)
