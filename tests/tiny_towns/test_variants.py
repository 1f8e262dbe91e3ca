"""Town Hall and solo variants."""

from __future__ import annotations

from collections import Counter

import pytest

from games.base import IllegalMove
from games.options import parse_options
from games.tiny_towns import GAME
from games.tiny_towns.scoring import solo_title
from tests.tiny_towns.helpers import play, play_all, rejected, with_town


def hall(players: int = 2, extra: str = "", seed: int = 4) -> dict:
    options = parse_options(f"variant=town-hall buildings=first-game {extra}".strip(), GAME.options)
    return GAME.setup([f"p{i}" for i in range(players)], options, seed)


def solo(extra: str = "", seed: int = 4) -> dict:
    return GAME.setup(["sol"], parse_options(f"buildings=first-game {extra}".strip(), GAME.options), seed)


def _everyone_places(state: dict, cells: list[str], resource: str | None = None) -> dict:
    for seat in GAME.status(state).to_act:
        text = f"/tt place {cells[seat]}" + (f" {resource}" if resource else "")
        state, _ = play(state, seat, text)
    return state


def test_town_hall_deck_discards_five_and_draws_automatically() -> None:
    state = hall()
    deck = state["town_hall"]
    assert len(deck["draw_pile"]) == 9 and len(deck["discards"]) == 5
    assert Counter(deck["draw_pile"] + deck["discards"] + [deck["revealed"]]) == Counter(
        {r: 3 for r in ("wood", "wheat", "brick", "glass", "stone")}
    )
    assert state["phase"] == "place" and state["resource"] == deck["revealed"]
    assert state["master_builder"] is None and GAME.view(state, None)["town_hall"]["cycle_round"] == 1
    assert "Town Hall has no Master Builder" in rejected(state, 0, "/tt announce wood")
    state = _everyone_places(state, ["A1", "A1"])
    assert state["round"] == 2 and state["town_hall"]["revealed"] is not None
    assert len(state["town_hall"]["discards"]) == 6
    state = _everyone_places(state, ["D4", "D4"])
    assert state["round"] == 3 and state["resource"] is None and state["source"] == "free"
    assert "free-choice round" in rejected(state, 0, "/tt place B1")
    state, _ = play(state, 0, "/tt place B3 glass")
    assert state["towns"][0]["cells"][9] == {"resource": "glass"}


def test_town_hall_draw_event_is_irreversible() -> None:
    state = hall()
    events: list = []
    for seat in (0, 1):
        state, events = play(state, seat, "/tt place A1")
    assert any(e.get("irreversible") for e in events)


def test_town_hall_reshuffles_and_discards_five_again() -> None:
    state = hall()
    cells = ["A1", "B1", "C1", "D1", "A3", "B3", "C3", "D3", "A2", "C2", "B4", "D4", "B2", "D2", "A4", "C4"]
    draws = 0
    for step in range(16):
        if state["phase"] == "finished":
            break
        free = state["source"] == "free"
        draws += 0 if free else 1
        for seat in GAME.status(state).to_act:
            if state["towns"][seat]["placed"]:
                state, _ = play(state, seat, "/tt done")
                continue
            state, _ = play(state, seat, f"/tt place {cells[step]}" + (" wood" if free else ""))
        while state["phase"] != "finished" and all(state["towns"][s]["placed"] for s in (0, 1)):
            state, _ = play(state, GAME.status(state).to_act[0], "/tt done")
    assert draws > 10  # more than the 10 cards of the first pass were drawn
    total = len(state["town_hall"]["draw_pile"]) + len(state["town_hall"]["discards"])
    assert total + (1 if state["town_hall"]["revealed"] else 0) == 15


def test_town_hall_factory_reacts_to_drawn_rounds_only() -> None:
    state = hall()
    drawn = state["resource"]
    state = with_town(state, 1, "factory:" + drawn + " . . . / . . . . / . . . . / . . . .")
    other = "wood" if drawn != "wood" else "stone"
    new, _ = play(state, 1, f"/tt place B1 {other}")
    assert new["towns"][1]["cells"][1] == {"resource": other}
    # The Mayor's own draw also counts as "named by another player".
    state = with_town(state, 0, "factory:" + drawn + " . . . / . . . . / . . . . / . . . .")
    new, _ = play(state, 0, f"/tt place B1 {other}")
    assert new["towns"][0]["cells"][1] == {"resource": other}


def test_town_hall_free_round_bank_restriction_and_fort_ironweed() -> None:
    state = hall(3)
    state = _everyone_places(state, ["A1", "A1", "A1"])
    state = with_town(state, 0, "bank:glass . . . / . . . . / . . . . / . . . .")
    state = with_town(state, 2, "fort-ironweed . . . / . . . . / . . . . / . . . .", monument="fort-ironweed")
    state = _everyone_places(state, ["D4", "D4", "D4"])
    assert state["source"] == "free"
    assert state["towns"][2]["placed"] and state["towns"][2]["skipped"]
    assert set(GAME.status(state).to_act) == {0, 1}
    assert "Bank holds glass" in rejected(state, 0, "/tt place C3 glass")
    assert "A Warehouse only takes" in rejected(state, 1, "/tt store A1")
    state = play_all(state, [(0, "/tt place C3 wheat"), (1, "/tt place C3 glass")])
    assert state["round"] == 4 and state["source"] == "mayor"


def test_town_hall_cave_only_in_drawn_rounds() -> None:
    state = hall(2, "cave=on")
    state, _ = play(state, 0, "/tt cave")
    assert state["towns"][0]["cave_used"] == 1
    state = play_all(state, [(1, "/tt place A1"), (0, "/tt place A1"), (1, "/tt place B1")])
    assert state["source"] == "free"
    assert "cave only takes" in rejected(state, 0, "/tt cave")


def test_one_player_town_hall_is_solo() -> None:
    state = GAME.setup(["x"], parse_options("variant=town-hall", GAME.options), 1)
    assert state["variant"] == "solo" and state["town_hall"] is None and len(state["solo"]["revealed"]) == 3


def test_solo_removes_cards_and_reveals_three() -> None:
    for seed in range(30):
        state = GAME.setup(["sol"], {}, seed)
        assert "inn" not in state["buildings"] and "bank" not in state["buildings"]
    state = GAME.setup(["sol"], parse_options("monuments=on", GAME.options), 3)
    assert not {"fort-ironweed", "opaleyes-watch"} & set(state["towns"][0]["monument_options"])
    listed = GAME.setup(["sol"], parse_options("buildings=farm,well,chapel,inn,theater,bank", GAME.options), 1)
    assert "inn" not in listed["buildings"] and "bank" not in listed["buildings"]
    assert not GAME.setup(["sol"], parse_options("cave=on", GAME.options), 1)["cave_rule"]
    with pytest.raises(IllegalMove) as info:
        GAME.setup(["sol"], parse_options("monuments=fort-ironweed,starloom", GAME.options), 1)
    assert "not counting Fort Ironweed" in info.value.message


def test_solo_pick_goes_to_the_bottom_and_a_new_card_is_revealed() -> None:
    state = solo()
    revealed = list(state["solo"]["revealed"])
    assert len(revealed) == 3 and state["variant"] == "solo"
    assert GAME.status(state).to_act == (0,)
    missing = next(r for r in ("wood", "wheat", "brick", "glass", "stone") if r not in revealed)
    assert "Pick one of the revealed" in rejected(state, 0, f"/tt announce {missing}")
    top = state["solo"]["deck"][0]
    new, events = play(state, 0, f"/tt announce {revealed[1]}")
    assert new["solo"]["revealed"] == [revealed[0], top, revealed[2]]
    assert new["solo"]["deck"][-1] == revealed[1]
    assert any(e.get("irreversible") for e in events)
    assert new["resource"] == revealed[1] and new["towns"][0]["times_master_builder"] == 0


def test_solo_factory_reacts_to_every_pick() -> None:
    state = solo()
    pick = state["solo"]["revealed"][0]
    state = with_town(state, 0, f"factory:{pick} . . . / . . . . / . . . . / . . . .")
    state, _ = play(state, 0, f"/tt announce {pick}")
    other = "wood" if pick != "wood" else "glass"
    new, _ = play(state, 0, f"/tt place B1 {other}")
    assert new["towns"][0]["cells"][1] == {"resource": other}


def test_solo_game_ends_with_a_title() -> None:
    state = solo()
    state = with_town(state, 0, "tavern tavern tavern tavern / tavern . . . / . . . . / . . . .")
    state, _ = play(state, 0, f"/tt announce {state['solo']['revealed'][0]}")
    table = GAME.standings(state)
    assert table[0]["score"] == 20 - 11 and table[0]["title"] == "Aspiring Architect"
    assert [solo_title(s) for s in (38, 37, 32, 25, 24, 18, 17, 10, 9, -5)] == [
        "Master Architect",
        "Town Planner",
        "Town Planner",
        "Engineer",
        "Carpenter",
        "Carpenter",
        "Builder's Apprentice",
        "Builder's Apprentice",
        "Aspiring Architect",
        "Aspiring Architect",
    ]
