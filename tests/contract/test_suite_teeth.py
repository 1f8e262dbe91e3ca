"""The conformance checks catch what they claim to: each is run on a deliberately broken copy of
the test game and must report a problem (a check that never fails proves nothing)."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import pytest

import games
from games.base import GameSpec, IllegalMove, Move, State
from tests.contract import checks
from tests.contract.cases import Case, playout
from tests.contract.registry import PLUGIN_SLUG, find_redeal

pytestmark = pytest.mark.usefixtures("plugin_game")


@pytest.fixture
def case() -> Case:
    return Case(PLUGIN_SLUG, 2, "", "defaults")


def broken(**changes: Any) -> GameSpec:
    return dataclasses.replace(games.get_game(PLUGIN_SLUG), **changes)


def redeal(state: State, seat: int, seed: int) -> State:
    real = find_redeal(PLUGIN_SLUG)
    assert real is not None
    return real(state, seat, seed)


def test_a_leaky_view_is_caught(case: Case) -> None:
    spec = games.get_game(PLUGIN_SLUG)
    assert checks.hidden_problems(spec, playout(case), redeal) == []

    def leaky(state: State, viewer: int | None) -> dict[str, Any]:
        shown = spec.view(state, viewer)
        shown["dice_in_hands"] = sum(sum(p["hand"]) for p in state["players"])  # a sum still leaks
        return shown

    problems = checks.hidden_problems(broken(view=leaky), playout(case), redeal)
    assert problems and "dice_in_hands" in problems[0]


def test_a_redeal_that_changes_nothing_is_caught(case: Case) -> None:
    problems = checks.hidden_problems(
        games.get_game(PLUGIN_SLUG), playout(case), lambda state, seat, seed: copy.deepcopy(state)
    )
    assert problems == ["redeal never changed a state: it must deal the seat's private information afresh"]


def test_a_half_changed_state_on_refusal_is_caught(case: Case) -> None:
    spec = games.get_game(PLUGIN_SLUG)

    def sloppy(state: State, seat: int, move: Move) -> Any:
        state["rerolls"] = -1  # changes its input before refusing
        raise IllegalMove("no")

    state = playout(case).state(0)
    problem = checks.expect_rejected(broken(apply=sloppy), state, 1, {"verb": "done"}, "test")
    assert problem is not None and "changed the state" in problem
    assert checks.expect_rejected(spec, playout(case).state(0), 1, {"verb": "done"}, "test") is None


def test_accepting_an_unlisted_move_is_caught(case: Case) -> None:
    def lax(state: State, seat: int, move: Move) -> Any:
        new = copy.deepcopy(state)
        new["round"] += 1
        return new, []

    problem = checks.expect_rejected(broken(apply=lax), playout(case).state(0), 1, {"verb": "done"}, "test")
    assert problem is not None and "does not list" in problem


def test_bad_standings_are_caught(case: Case) -> None:
    spec = games.get_game(PLUGIN_SLUG)
    final = playout(case).final_state()
    assert checks.standings_problems(spec, final, case.names) == []

    def dense(state: State) -> list[Any]:
        rows = [dict(row) for row in spec.standings(state)]
        for position, row in enumerate(rows):
            row["rank"], row["score"] = (1, 10) if position < 2 else (2, 5)  # 1, 1, 2 instead of 1, 1, 3
        return rows

    three = Case(PLUGIN_SLUG, 3, "", "defaults")
    problems = checks.standings_problems(broken(standings=dense), playout(three).final_state(), three.names)
    assert any("ranks 2" in p for p in problems)
    missing = checks.standings_problems(broken(standings=lambda state: spec.standings(state)[:1]), final, case.names)
    assert any("every seat" in p for p in missing)


def test_a_view_without_the_header_is_caught(case: Case) -> None:
    spec = games.get_game(PLUGIN_SLUG)
    state = playout(case).state(0)
    assert checks.view_problems(spec, state, 0, case.names) == []
    headless = broken(view=lambda state, viewer: {k: v for k, v in spec.view(state, viewer).items() if k != "names"})
    assert "lacks the ViewHeader keys ['names']" in checks.view_problems(headless, state, 0, case.names)[0]
    tupled = broken(view=lambda state, viewer: {**spec.view(state, viewer), "pair": (1, 2)})
    assert "changes through JSON" in checks.view_problems(tupled, state, 0, case.names)[0]
