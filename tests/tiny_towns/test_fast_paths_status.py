"""status's reused parts (flow.final_standings, flow.open_status) and town.possible_monuments' table
answer exactly what the plain definitions answer, on real seeded games."""

from __future__ import annotations

import copy
from typing import Any

from games.base import Status
from games.tiny_towns import flow
from games.tiny_towns.content import MONUMENTS, RULES
from games.tiny_towns.rules import status
from games.tiny_towns.scoring import standings
from games.tiny_towns.town import possible_monuments
from tests.tiny_towns.helpers import seeded_states

State = dict[str, Any]


def _plain_status(state: State) -> Status:
    """status() without the reused parts: on a deep copy (never the object finish() returned),
    built field by field."""
    fresh = copy.deepcopy(state)
    found = status(fresh)
    if found.finished:
        table = standings(fresh)
        winners = " and ".join(row["player"] for row in table if row["rank"] == 1)
        assert found.summary == f"Game over: {winners} won with {table[0]['score']} points."
    return Status(found.to_act, found.finished, found.summary)


def test_status_after_every_move_equals_the_plain_status() -> None:
    for players, options, seed in ((4, "monuments=on", 3), (1, "monuments=on", 4), (3, "variant=town-hall", 5)):
        for state in seeded_states(players, options, seed):
            assert status(state) == _plain_status(state)


def test_the_finished_standings_belong_to_the_state_asked_about() -> None:
    first = seeded_states(4, "monuments=on", 11)[-1]
    second = seeded_states(4, "monuments=on", 12)[-1]  # finish() ran last for this one
    assert flow.final_standings(second) == standings(copy.deepcopy(second))
    assert flow.final_standings(first) == standings(copy.deepcopy(first))
    assert status(first).summary != status(second).summary
    # An equal copy of the last finished state is scored afresh, to the same table.
    twin = copy.deepcopy(second)
    assert flow.final_standings(twin) is not flow.final_standings(second)
    assert flow.final_standings(twin) == flow.final_standings(second)


def test_open_status_reuses_only_identical_fields() -> None:
    one = flow.open_status((0, 1), "round 1 (wood): waiting for: ann, bob")
    assert one == Status((0, 1), False, "round 1 (wood): waiting for: ann, bob")
    assert flow.open_status((0, 1), "round 1 (wood): waiting for: ann, bob") is one
    other = flow.open_status((0, 1), "round 1 (wood): waiting for: ann, cat")
    assert other.summary.endswith("cat") and other.to_act == (0, 1)
    assert flow.open_status((1,), "round 1 (wood): waiting for: ann, bob").to_act == (1,)


def test_the_open_status_table_stays_bounded() -> None:
    for i in range(5000):
        assert flow.open_status((i % 4,), f"summary {i}").summary == f"summary {i}"
    assert len(flow._STATUSES) <= 4096


def _plain_possible(state: State, seat: int) -> list[str]:
    town = state["towns"][seat]
    if not town.get("monument") or town.get("monument_built") or state["phase"] == "monuments":
        return []
    gone = [t["monument"] for t in state["towns"] if t.get("monument_built") and t.get("monument")]
    if state["variant"] == "solo":
        gone.extend(RULES["solo"]["removed"])
    return [slug for slug in MONUMENTS if slug not in gone]


def test_possible_monuments_equals_the_plain_definition() -> None:
    seen = set()
    for players, options, seed in ((4, "monuments=on", 21), (6, "monuments=on", 22), (1, "monuments=on", 23)):
        for state in seeded_states(players, options, seed):
            for seat in range(players):
                found = possible_monuments(state, seat)
                assert list(found) == _plain_possible(state, seat)
                seen.add(len(found))
    assert len(seen) >= 3  # none, all, and some built or left out
