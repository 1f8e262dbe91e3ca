"""The state a new game starts from (rules.setup, the layout later moves and saved games rely
on): its keys and options spelt as every reader spells them, no turn taken by anyone before the
first production, and a fresh town with no step and no allowances."""

from __future__ import annotations

from games.trolley_town.rules import RULES_VERSION
from tests.trolley_town.helpers import game

STATE_KEYS = {
    "game", "kicked", "market", "move_number", "names", "options", "passed", "phase", "resigned", "rng",
    "round", "rules_version", "start", "towns", "turn", "turns",
}  # fmt: skip
TOWN_KEYS = {"cells", "expert", "pending", "placed", "pull", "scored", "step", "vp"}


def test_a_new_game_has_the_documented_layout() -> None:
    state = game(2, expert=["bob"])
    assert set(state) == STATE_KEYS
    assert state["rules_version"] == RULES_VERSION
    assert state["options"] == {"first_game": False, "expert": [1], "basics": []}
    assert state["rng"] is not None
    assert state["phase"] == "construction" and state["turn"] == 0  # round 1's production ran: no choices
    assert state["passed"] == [False, False]
    for town in state["towns"]:
        assert set(town) == TOWN_KEYS
        assert town["step"] == "" and town["pull"] == {}


def test_the_first_game_option_is_recorded_only_when_asked() -> None:
    assert game(2, first_game=True)["options"]["first_game"] is True
    assert game(2)["options"]["first_game"] is False
