"""All 15 monuments: scoring and rule-changing abilities."""

from __future__ import annotations

from games.tiny_towns import GAME
from games.tiny_towns.scoring import standings
from tests.tiny_towns.helpers import (
    at_place_phase,
    breakdown,
    game,
    play,
    play_all,
    rejected,
    score,
    with_town,
)

B = "farm,well,chapel,tavern,theater,factory"  # + cottage = first-game set
EMPTY = ". . . . / . . . . / . . . . / . . . ."


def owned(text: str, monument: str, seat: int = 0, players: int = 2, buildings: str = B, **fields: object) -> dict:
    return with_town(game(players, buildings), seat, text, monument=monument, **fields)


def test_architects_guild_scores_one_and_replaces_up_to_two() -> None:
    state = at_place_phase(game(2, B))
    state = with_town(
        state, 0, ". . G . / . H S well / W B . . / chapel . . cottage!", monument="architects-guild", placed=True
    )
    state["towns"][0]["cells"][15] = {"building": "cottage"}
    assert "at most 2" in rejected(
        state, 0, "/tt build architects-guild C1 B2 C2 A3 B3 at C1 replace D2 farm replace A4 tavern replace D4 farm"
    )
    assert "already is a Well" in rejected(state, 0, "/tt build architects-guild C1 B2 C2 A3 B3 at C1 replace D2 well")
    new, events = play(state, 0, "/tt build architects-guild C1 B2 C2 A3 B3 at C1 replace D2 farm replace A4 tavern")
    cells = new["towns"][0]["cells"]
    assert cells[7] == {"building": "farm"} and cells[12] == {"building": "tavern"}
    assert cells[2] == {"building": "architects-guild", "monument": True}
    assert any(e.get("irreversible") for e in events)
    assert breakdown(new)["Architect's Guild"] == 1
    # Zero replacements is fine too.
    plain, _ = play(state, 0, "/tt build architects-guild C1 B2 C2 A3 B3 at B3")
    assert plain["towns"][0]["cells"][7] == {"building": "well"}


def test_archive_counts_distinct_non_monument_types() -> None:
    state = owned(
        "archive-of-the-second-age cottage cottage well / farm . . . / . . . . / . . . .", "archive-of-the-second-age"
    )
    assert breakdown(state)["Archive of the Second Age"] == 3


def test_barrett_castle_uses_a_farm_slot_and_counts_as_two_cottages() -> None:
    state = owned(
        "barrett-castle well cottage cottage / cottage cottage farm chapel / . . . . / . theater . .", "barrett-castle"
    )
    b = breakdown(state)
    # Farm feeds 4 of: castle + 4 cottages. Best: castle (5) + 3 cottages (9); Chapel counts 2 + 3 = 5.
    assert b["Barrett Castle"] == 5
    assert b["Cottage"] == 9
    assert b["Chapel"] == 5
    assert b["Well"] == 4  # castle (2) + C1 and B2 cottages
    # Theater at B4: column B well + cottage -> 2 types.
    assert b["Theater"] == 2
    unfed = owned("barrett-castle . . . / . . . . / . . . . / . . . .", "barrett-castle")
    assert breakdown(unfed)["Barrett Castle"] == 0


def test_theater_sees_barrett_castle_as_a_cottage_and_a_monument_as_a_type() -> None:
    state = owned("barrett-castle theater cottage . / . . . . / . . . . / . . . .", "barrett-castle")
    assert breakdown(state)["Theater"] == 1
    fort = owned("fort-ironweed theater cottage . / . . . . / . . . . / . . . .", "fort-ironweed")
    assert breakdown(fort)["Theater"] == 2


def test_cathedral_makes_empty_squares_worth_zero() -> None:
    state = owned("cathedral-of-caterina W . . / . . . . / . . . . / . . . .", "cathedral-of-caterina")
    assert breakdown(state) == {"Cathedral of Caterina": 2, "Empty squares": 0}
    unbuilt = owned("W . . . / . . . . / . . . . / . . . .", "cathedral-of-caterina")
    assert score(unbuilt) == -16


def test_fort_ironweed_scores_seven_and_the_hammer_skips_its_owner() -> None:
    state = game(3, B)
    state = with_town(state, 1, "fort-ironweed . . . / . . . . / . . . . / . . . .", monument="fort-ironweed")
    assert breakdown(state, 1)["Fort Ironweed"] == 7
    state = play_all(state, [(0, "/tt announce wood"), (0, "/tt place A1"), (1, "/tt place B1"), (2, "/tt place A1")])
    assert state["master_builder"] == 2
    assert "Only the Master Builder (p2)" in rejected(state, 1, "/tt announce wood")


def test_fort_ironweed_owner_names_when_last_player_building() -> None:
    state = game(2, B)
    state = with_town(state, 1, "fort-ironweed . . . / . . . . / . . . . / . . . .", monument="fort-ironweed")
    state = with_town(state, 0, "well well well well / well well well well / well well well well / well well well .")
    state = play_all(state, [(0, "/tt announce wood"), (0, "/tt place D4"), (1, "/tt place B1")])
    assert state["towns"][0]["complete"]
    assert state["master_builder"] == 1 and state["phase"] == "announce"


def test_grand_mausoleum_feeds_nobody_but_pays_unfed_cottages() -> None:
    state = owned(
        "grand-mausoleum-of-the-rodina cottage cottage chapel / . . . . / . . . . / . . . .",
        "grand-mausoleum-of-the-rodina",
    )
    b = breakdown(state)
    assert b["Cottage"] == 6 and b["Chapel"] == 0 and b["Grand Mausoleum of the Rodina"] == 0


def test_grove_university_adds_a_building_at_once() -> None:
    state = at_place_phase(game(2, B))
    state = with_town(state, 0, ". B . . / S G S . / . . . . / . . . .", monument="grove-university", placed=True)
    assert "add 'add <building> <square>'" in rejected(state, 0, "/tt build grove-university B1 A2 B2 C2 at B2")
    assert "will not be empty" in rejected(state, 0, "/tt build grove-university B1 A2 B2 C2 at B2 add well B2")
    assert "not a building in play" in rejected(state, 0, "/tt build grove-university B1 A2 B2 C2 at B2 add shed D4")
    new, _ = play(state, 0, "/tt build grove-university B1 A2 B2 C2 at B2 add tavern A2")
    cells = new["towns"][0]["cells"]
    assert cells[4] == {"building": "tavern"} and cells[5]["building"] == "grove-university"
    assert breakdown(new)["Grove University"] == 3


def test_mandras_palace_two_per_adjacent_type() -> None:
    state = owned("cottage mandras-palace well . / . cottage . . / . . . . / . . . .", "mandras-palace")
    assert breakdown(state)["Mandras Palace"] == 4


def test_obelisk_lets_later_buildings_go_anywhere() -> None:
    state = at_place_phase(game(2, B))
    state = with_town(
        state,
        0,
        "obelisk-of-the-crescent W S . / . . . . / . . . . / . . . .",
        monument="obelisk-of-the-crescent",
        placed=True,
    )
    state["towns"][0]["monument_round"] = 1  # built this round: not yet in effect
    assert "square just freed: B1, C1" in rejected(state, 0, "/tt build well B1 C1 at D4")
    state["towns"][0]["monument_round"] = 0
    new, _ = play(state, 0, "/tt build well B1 C1 at D4")
    assert new["towns"][0]["cells"][15] == {"building": "well"}
    assert breakdown(state)["Obelisk of the Crescent"] == 0


def test_opaleyes_watch_aside_trigger_and_claim() -> None:
    state = at_place_phase(game(2, B))
    state = with_town(state, 1, "W . . . / B G H H / S . . . / . . . .", monument="opaleyes-watch", placed=True)
    assert "aside <building>" in rejected(state, 1, "/tt build opaleyes-watch A1 A2 B2 C2 D2 A3 at A2")
    state, _ = play(state, 1, "/tt build opaleyes-watch A1 A2 B2 C2 D2 A3 at A2 aside tavern well cottage")
    assert state["towns"][1]["aside"] == ["cottage", "well", "tavern"]
    # Same round: seat 0 builds a Well; the Watch is not usable yet.
    state = with_town(state, 0, "W S . . / . . . . / . . . . / . . . .", placed=True)
    state, _ = play(state, 0, "/tt build well A1 B1 at A1")
    assert state["towns"][1]["pending_claims"] == []
    for seat in (0, 1):
        if state["round"] == 1 and not state["towns"][seat]["done"]:
            state, _ = play(state, seat, "/tt done")
    assert state["round"] == 2 and state["master_builder"] == 1
    state = play_all(state, [(1, "/tt announce stone"), (0, "/tt place D1")])
    state = with_town(state, 0, "well . W S / . . . . / . . . . / . . . W", done=False)
    state, events = play(state, 0, "/tt build well C1 D1 at C1")
    assert state["towns"][1]["pending_claims"] == ["well"]
    assert any("/tt claim well" in e.get("text", "") for e in events)
    assert "Place this round's resource first" in rejected(state, 1, "/tt claim well D4")
    state, _ = play(state, 1, "/tt place D4")
    assert 1 in GAME.status(state).to_act
    assert "First take your Opaleye's Watch building" in rejected(state, 1, "/tt done")
    assert "already holds" in rejected(state, 1, "/tt claim well D4")
    assert "not tavern" in rejected(state, 1, "/tt claim tavern C4")
    state, _ = play(state, 1, "/tt claim well C4")
    town = state["towns"][1]
    assert town["cells"][14] == {"building": "well"} and town["aside"] == ["cottage", "tavern"]
    assert town["pending_claims"] == []


def test_shrine_value_is_fixed_when_built() -> None:
    state = at_place_phase(game(2, B))
    state = with_town(
        state,
        0,
        "B H S well / W G W well / well well well . / . . . .",
        monument="shrine-of-the-elder-tree",
        placed=True,
    )
    new, _ = play(state, 0, "/tt build shrine-of-the-elder-tree A1 B1 C1 A2 B2 C2 at B2")
    assert new["towns"][0]["shrine_vp"] == 8  # 5 Wells + the Shrine = 6 buildings
    assert breakdown(new)["Shrine of the Elder Tree"] == 8
    few = with_town(state, 0, "B H S . / W G W . / . . . . / . . . .", monument="shrine-of-the-elder-tree", placed=True)
    new, _ = play(few, 0, "/tt build shrine-of-the-elder-tree A1 B1 C1 A2 B2 C2 at B2")
    assert breakdown(new)["Shrine of the Elder Tree"] == 1


def test_silva_forum_largest_same_type_group() -> None:
    state = owned("silva-forum well well . / . well . cottage / . . . . / . . . .", "silva-forum")
    assert breakdown(state)["Silva Forum"] == 4
    alone = owned("silva-forum . . . / . . . . / . . . . / . . . .", "silva-forum")
    assert breakdown(alone)["Silva Forum"] == 2  # a lone building is a group of 1


def test_statue_of_the_bondmaker_puts_cubes_on_cottages() -> None:
    state = with_town(
        game(2, B),
        1,
        "statue-of-the-bondmaker cottage cottage^glass . / . . . . / . . . . / . . . .",
        monument="statue-of-the-bondmaker",
    )
    state = at_place_phase(state, "wood")
    new, _ = play(state, 1, "/tt place B1")
    assert new["towns"][1]["cells"][1] == {"building": "cottage", "bond": ["wood"]}
    assert "already holds a Statue" in rejected(state, 1, "/tt place C1")
    assert breakdown(new, 1)["Empty squares"] == -13
    # Not for the owner's own naming.
    own = at_place_phase(
        with_town(
            game(2, B),
            0,
            "statue-of-the-bondmaker cottage . . / . . . . / . . . . / . . . .",
            monument="statue-of-the-bondmaker",
        ),
        "wood",
    )
    assert "already holds a Cottage" in rejected(own, 0, "/tt place B1")


def test_sky_baths_two_per_missing_type() -> None:
    state = owned("sky-baths cottage well . / . . . . / . . . . / . . . .", "sky-baths")
    assert breakdown(state)["The Sky Baths"] == 10  # farm chapel tavern theater factory missing


def test_starloom_by_completion_order_with_shared_places() -> None:
    state = game(4, B)
    rounds = [3, 3, 5, 6]
    for seat, done_round in enumerate(rounds):
        state = with_town(
            state,
            seat,
            "starloom . . . / . . . . / . . . . / . . . .",
            monument="starloom",
            complete=True,
            completed_round=done_round,
        )
    values = [breakdown(state, s)["The Starloom"] for s in range(4)]
    assert values == [6, 6, 2, 0]  # two share 1st; the next is 3rd; the last is 4th
    state["towns"][3]["completed_round"] = None
    state["towns"][3]["complete"] = False
    assert breakdown(state, 3)["The Starloom"] == 0


def test_monument_built_only_by_owner_and_only_once() -> None:
    state = at_place_phase(game(2, B))
    state = with_town(state, 0, ". H . . / S G . . / . . . . / . . . .", monument="grove-university", placed=True)
    assert "not your monument" in rejected(state, 0, "/tt build cathedral-of-caterina B1 A2 B2")
    built = with_town(
        state,
        0,
        "cathedral-of-caterina H . . / S G . . / . . . . / . . . .",
        monument="cathedral-of-caterina",
        placed=True,
    )
    assert "already built" in rejected(built, 0, "/tt build cathedral-of-caterina B1 A2 B2")


def test_standings_use_monument_scores() -> None:
    state = owned("fort-ironweed . . . / . . . . / . . . . / . . . .", "fort-ironweed")
    breakdown = standings(state)[0]["breakdown"]
    assert breakdown["Fort Ironweed"] == 7 and breakdown["Empty squares"] == -15  # the other 15 squares
    assert standings(state)[0]["score"] == 7 - 15
