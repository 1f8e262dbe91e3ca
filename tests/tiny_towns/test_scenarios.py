"""Hand-checked details of the scenario_*.transcript games (worked out from the rulebook and reference in
each transcript's header comment, before the engine was run)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.tiny_towns.test_transcripts import replay

DIR = Path(__file__).with_name("transcripts")
SCENARIOS = sorted(DIR.glob("scenario_*.transcript"))


def _rows(stem: str) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    state, _, _, _ = replay(DIR / f"{stem}.transcript")
    from games.tiny_towns import GAME

    return state, {row["player"]: row for row in GAME.standings(state)}


def _town(state: dict[str, Any], name: str) -> dict[str, Any]:
    return state["towns"][state["names"].index(name)]


def test_there_are_scenarios_for_every_building_colour_group_and_variant() -> None:
    assert len(SCENARIOS) >= 10


def test_first_game_set_explicit_done() -> None:
    _, rows = _rows("scenario_first_game_explicit_done")
    assert rows["ann"]["breakdown"] == {
        "Cottage": 6,
        "Farm": 0,
        "Well": 2,
        "Chapel": 2,
        "Tavern": 2,
        "Empty squares": -10,
    }
    assert rows["bob"]["breakdown"] == {"Cottage": 0, "Tavern": 2, "Theater": 3, "Factory": 0, "Empty squares": -12}


def test_granary_temple_bank_market_almshouse() -> None:
    _, rows = _rows("scenario_granary_auto_done")
    assert rows["ann"]["breakdown"]["Cottage"] == 6  # A1 and A3 diagonal to the Granary, D3 out of reach
    assert rows["ann"]["breakdown"]["Temple"] == 4 and rows["ann"]["breakdown"]["Millstone"] == 2
    assert rows["bob"]["breakdown"] == {"Market": 4, "Bank": 4, "Empty squares": -13}
    assert rows["cat"]["breakdown"]["Almshouse"] == -3


def test_greenhouse_one_group_cloister_inn_tailor_trading_post_cave() -> None:
    state, rows = _rows("scenario_cave_greenhouse_inn_tailor")
    assert rows["ann"]["breakdown"] == {"Fountain": 4, "Tailor": 4, "Trading Post": 1, "Empty squares": -10}
    assert rows["bob"]["breakdown"]["Cottage"] == 3 and rows["bob"]["breakdown"]["Cloister"] == 2
    assert rows["cat"]["breakdown"] == {"Inn": 3, "Empty squares": -13}
    assert _town(state, "cat")["cave_used"] == 2


def test_orchard_feast_hall_right_neighbour_and_warehouse() -> None:
    state, rows = _rows("scenario_orchard_feast_hall_warehouse")
    assert rows["ann"]["breakdown"]["Feast Hall"] == 3  # 1 > cat's 0 (cat is on ann's right)
    assert rows["bob"]["breakdown"]["Feast Hall"] == 6  # 2 > ann's 1
    assert rows["ann"]["breakdown"]["Cottage"] == 3 and rows["ann"]["breakdown"]["Bakery"] == 3
    assert rows["bob"]["breakdown"]["Abbey"] == 3 and rows["bob"]["breakdown"]["Shed"] == 1
    warehouse = next(c for c in _town(state, "cat")["cells"] if c and c.get("building") == "warehouse")
    assert sorted(warehouse["stored"]) == ["brick", "brick", "stone"]
    assert rows["cat"]["breakdown"]["Warehouse"] == -3


def test_feast_hall_two_players_and_master_builder_tie_break() -> None:
    state, rows = _rows("scenario_feast_hall_2p_tiebreak_master_builder")
    assert rows["ann"]["breakdown"]["Feast Hall"] == 6 and rows["bob"]["breakdown"]["Feast Hall"] == 2
    assert [_town(state, n)["times_master_builder"] for n in ("ann", "bob")] == [10, 12]
    assert rows["ann"]["rank"] == 1 and rows["bob"]["rank"] == 2


def test_empty_square_cottage_and_shared_tie_breaks() -> None:
    state, rows = _rows("scenario_tiebreaks_empty_cottages_shared")
    assert {t["times_master_builder"] for t in state["towns"]} == {6}
    assert {t["completed_round"] for t in state["towns"]} == {24}
    assert [rows[n]["rank"] for n in ("ann", "bob", "cat", "dan")] == [1, 2, 3, 3]


def test_cathedral_mausoleum_starloom_shrine() -> None:
    state, rows = _rows("scenario_monuments_cathedral_mausoleum_starloom_shrine")
    assert rows["ann"]["breakdown"]["Empty squares"] == 0 and rows["ann"]["score"] == 4
    assert rows["bob"]["breakdown"]["Cottage"] == 3  # unfed, but the Mausoleum pays 3
    assert rows["cat"]["breakdown"]["The Starloom"] == 2  # two towns finished before (same round): 3rd place
    assert rows["dan"]["breakdown"]["Shrine of the Elder Tree"] == 2  # fixed when built as the 2nd building
    assert [_town(state, n)["completed_round"] for n in ("ann", "bob", "cat", "dan")] == [21, 21, 23, 23]
    assert rows["bob"]["rank"] == 3 and rows["dan"]["rank"] == 4


def test_fort_obelisk_statue_sky_baths() -> None:
    state, rows = _rows("scenario_monuments_fort_obelisk_statue_sky_baths")
    assert rows["ann"]["breakdown"]["Fort Ironweed"] == 7
    assert rows["dan"]["breakdown"]["The Sky Baths"] == 10
    cottage = next(c for c in _town(state, "cat")["cells"] if c and c.get("building") == "cottage")
    assert cottage.get("bond") == ["brick"]
    assert rows["cat"]["breakdown"]["Empty squares"] == -14  # the Statue cube's Cottage is not empty
    assert _town(state, "ann")["times_master_builder"] == 3  # rounds 1 and 5, then 25 as the last player


def test_barrett_archive_mandras_silva() -> None:
    _, rows = _rows("scenario_monuments_barrett_archive_mandras_silva")
    ann = rows["ann"]["breakdown"]
    assert ann["Barrett Castle"] == 5 and ann["Cottage"] == 9 and ann["Well"] == 2
    assert rows["bob"]["breakdown"]["Archive of the Second Age"] == 3
    assert rows["cat"]["breakdown"]["Mandras Palace"] == 6
    assert rows["dan"]["breakdown"]["Silva Forum"] == 4
    assert rows["cat"]["rank"] == 2 and rows["bob"]["rank"] == 3


def test_town_hall_bank() -> None:
    _, rows = _rows("scenario_town_hall_bank")
    assert rows["bob"]["breakdown"] == {"Tavern": 2, "Bank": 4, "Empty squares": -14}
    assert rows["ann"]["breakdown"] == {"Cottage": 0, "Well": 2, "Empty squares": -13}


def test_solo_carpenter() -> None:
    _, rows = _rows("scenario_solo_carpenter")
    assert rows["solo"]["score"] == 18 and rows["solo"]["title"] == "Carpenter"
    assert rows["solo"]["breakdown"]["Feast Hall"] == 4  # 2 each in solo


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenarios_have_a_hand_computed_header_and_rejections(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# Scenario:") and "standings:" in text
    assert "\n!" in text or "solo" in path.stem
