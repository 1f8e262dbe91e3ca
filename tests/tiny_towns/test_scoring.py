"""Scoring of every base building, with the reference's edge cases, and the rulebook's 28-point town."""

from __future__ import annotations

import pytest

from games.tiny_towns.scoring import standings
from tests.tiny_towns.helpers import breakdown, game, score, with_town

FIRST = "first-game"


def town(text: str, buildings: str = FIRST, players: int = 2, seat: int = 0, **fields: object) -> dict:
    return with_town(game(players, buildings), seat, text, **fields)


def test_rulebook_28_point_example() -> None:
    state = town(
        "cottage well cottage tavern / well cottage tavern tavern / "
        "chapel cottage farm bakery / cottage . . warehouse:wood+wheat+stone",
        buildings="farm,well,chapel,tavern,bakery,warehouse",
    )
    assert breakdown(state) == {
        "Cottage": 12,
        "Farm": 0,
        "Well": 5,
        "Chapel": 4,
        "Tavern": 9,
        "Bakery": 3,
        "Warehouse": -3,
        "Empty squares": -2,
    }
    assert score(state) == 28


def test_cottage_needs_food_and_farm_feeds_four_anywhere() -> None:
    assert breakdown(town("cottage . . . / . . . . / . . . . / . . . ."))["Cottage"] == 0
    five = "cottage . cottage . / . . . cottage / cottage . . . / . cottage . farm"
    assert breakdown(town(five))["Cottage"] == 12
    two_farms = "cottage farm cottage . / . . . cottage / cottage . . . / . cottage . farm"
    assert breakdown(town(two_farms))["Cottage"] == 15


def test_cubes_and_empty_squares_score_minus_one() -> None:
    assert breakdown(town("W H . . / . . . . / . . . . / . . . ."))["Empty squares"] == -16
    assert score(town("cottage W . . / . . . . / . . . . / . . . .")) == -15


def test_granary_feeds_the_eight_surrounding_squares() -> None:
    state = town(
        "cottage cottage cottage cottage / cottage granary cottage . / cottage cottage cottage . / cottage . . cottage",
        buildings="granary,well,chapel,tavern,theater,factory",
    )
    fed = [i for i, c in enumerate(state["towns"][0]["cells"]) if c]
    assert fed  # sanity
    # 8 around B2 fed (A1 B1 C1 A2 C2 A3 B3 C3); D1, A4, D4 not.
    assert breakdown(state)["Cottage"] == 24


def test_greenhouse_feeds_best_connected_group() -> None:
    layout = "cottage cottage . cottage / cottage . . . / . . . cottage / greenhouse . . cottage"
    state = town(layout, buildings="greenhouse,well,chapel,tavern,theater,factory")
    assert breakdown(state)["Cottage"] == 9  # A1 B1 A2 group of 3 beats D3-D4 (2) and D1 (1)
    two = town(
        layout.replace(". . . cottage / greenhouse", ". greenhouse . cottage / greenhouse"),
        buildings="greenhouse,well,chapel,tavern,theater,factory",
    )
    assert breakdown(two)["Cottage"] == 15


def test_orchard_feeds_its_row_and_column() -> None:
    state = town(
        "cottage orchard cottage cottage / . cottage . . / cottage . . . / . cottage . cottage",
        buildings="orchard,well,chapel,tavern,theater,factory",
    )
    # row 1: A1 C1 D1; column B: B2 B4 -> 5 fed; A3 and D4 not.
    assert breakdown(state)["Cottage"] == 15


def test_well_counts_adjacent_cottages_fed_or_unfed() -> None:
    state = town("cottage well cottage . / . cottage . . / . . . . / . . . well")
    assert breakdown(state)["Well"] == 3


def test_fountain_needs_a_gray_neighbour_max_two() -> None:
    b = "farm,fountain,chapel,tavern,theater,factory"
    assert breakdown(town("fountain fountain fountain . / . . . . / . . . . / . . . fountain", b))["Fountain"] == 6


def test_millstone_red_or_yellow_neighbour() -> None:
    b = "farm,millstone,chapel,tavern,theater,factory"
    state = town("millstone farm . . / theater millstone . . / . . . . / . . . millstone", b)
    assert breakdown(state)["Millstone"] == 4


def test_shed_scores_one() -> None:
    assert (
        breakdown(town("shed . . . / . . . . / . . . . / . . . .", "farm,shed,chapel,tavern,theater,factory"))["Shed"]
        == 1
    )


def test_chapel_counts_fed_cottages_each() -> None:
    state = town("cottage cottage chapel . / cottage farm chapel . / cottage cottage . . / . . . .")
    assert breakdown(state)["Chapel"] == 8  # 4 fed of 5, two chapels


def test_abbey_zero_next_to_black_green_or_yellow() -> None:
    b = "farm,well,abbey,tavern,theater,factory"
    assert breakdown(town("abbey cottage . . / . . . . / . . . . / . . . .", b))["Abbey"] == 3
    for neighbour in ("tavern", "theater", "factory"):
        assert breakdown(town(f"abbey {neighbour} . . / . . . . / . . . . / . . . .", b))["Abbey"] == 0


def test_cloister_counts_cloisters_in_corners() -> None:
    b = "farm,well,cloister,tavern,theater,factory"
    state = town("cloister . . cloister / . cloister . . / . . . . / . . . cloister", b)
    assert breakdown(state)["Cloister"] == 12  # 3 in corners -> each of 4 cloisters scores 3


def test_temple_needs_two_fed_neighbours_and_feeding_prefers_it() -> None:
    b = "farm,well,temple,tavern,theater,factory"
    assert breakdown(town("cottage temple cottage . / . . . . / . . . . / . . . farm", b))["Temple"] == 4
    assert breakdown(town("cottage temple cottage . / . . . . / . . . . / . . . .", b))["Temple"] == 0
    # 6 cottages, one Farm: the 4 fed must include both Temple neighbours (B4, D4).
    crowded = "cottage cottage cottage cottage / farm . . . / . . . . / . cottage temple cottage"
    assert breakdown(town(crowded, b)) == {"Cottage": 12, "Farm": 0, "Temple": 4, "Empty squares": -8}


@pytest.mark.parametrize("count, expected", [(1, 2), (2, 5), (3, 9), (4, 14), (5, 20), (6, 20)])
def test_tavern_table(count: int, expected: int) -> None:
    cells = ["tavern"] * count + ["."] * (16 - count)
    text = " / ".join(" ".join(cells[r * 4 : r * 4 + 4]) for r in range(4))
    assert breakdown(town(text))["Tavern"] == expected


@pytest.mark.parametrize("count, expected", [(1, -1), (2, 5), (3, -3), (4, 15), (5, -5), (6, 26), (7, 26)])
def test_almshouse_table(count: int, expected: int) -> None:
    cells = ["almshouse"] * count + ["."] * (16 - count)
    text = " / ".join(" ".join(cells[r * 4 : r * 4 + 4]) for r in range(4))
    assert breakdown(town(text, "farm,well,chapel,almshouse,theater,factory"))["Almshouse"] == expected


def test_inn_alone_in_row_and_column() -> None:
    b = "farm,well,chapel,inn,theater,factory"
    assert breakdown(town("inn . . . / . inn . . / . . inn . / . . . inn", b))["Inn"] == 12
    assert breakdown(town("inn . inn . / . . . . / inn . . . / . . . inn", b))["Inn"] == 3


def _feast(players: int, counts: list[int]) -> list[int]:
    state = game(players, "farm,well,chapel,feast-hall,theater,factory")
    for seat, n in enumerate(counts):
        cells = ["feast-hall"] * n + ["."] * (16 - n)
        state = with_town(state, seat, " / ".join(" ".join(cells[r * 4 : r * 4 + 4]) for r in range(4)))
    return [breakdown(state, s).get("Feast Hall", 0) for s in range(players)]


def test_feast_hall_two_players_more_gets_three_each() -> None:
    assert _feast(2, [2, 1]) == [6, 2]
    assert _feast(2, [1, 3]) == [2, 9]
    assert _feast(2, [2, 2]) == [4, 4]


def test_feast_hall_compares_with_the_previous_seat() -> None:
    # seat 0's right is seat 2, seat 1's right is seat 0, seat 2's right is seat 1.
    assert _feast(3, [2, 1, 3]) == [4, 2, 9]


def test_feast_hall_solo_two_each() -> None:
    state = with_town(
        game(1, "farm,well,chapel,feast-hall,theater,factory"),
        0,
        "feast-hall feast-hall . . / . . . . / . . . . / . . . .",
    )
    assert breakdown(state)["Feast Hall"] == 4


def test_theater_types_in_row_and_column_max_six() -> None:
    state = town("cottage farm well . / chapel theater tavern factory / . cottage . . / . theater . .")
    # B2: row chapel tavern factory + column farm cottage = 5 (the other Theater does not count);
    # B4: empty row, column farm cottage = 2.
    assert breakdown(state)["Theater"] == 7


def test_theater_counts_each_type_once_and_caps_at_six() -> None:
    state = town("cottage farm cottage . / chapel theater tavern factory / . well . . / . cottage . .")
    # row: chapel tavern factory; column: farm well cottage -> 6 distinct types
    assert breakdown(state)["Theater"] == 6
    same = town("cottage cottage cottage cottage / . theater . . / . cottage . . / . cottage . .")
    assert breakdown(same)["Theater"] == 1


def test_bakery_next_to_red_or_black() -> None:
    b = "farm,well,chapel,tavern,bakery,factory"
    state = town("bakery farm . bakery / . . . factory / bakery . . . / . . . .", b)
    assert breakdown(state)["Bakery"] == 6


def test_market_row_or_column_not_both() -> None:
    b = "farm,well,chapel,tavern,market,factory"
    state = town("market market market . / market . . . / market . . . / . . . .", b)
    # A1: row 3, column 3 -> 3; B1 and C1: row 3; A2, A3: column 3
    assert breakdown(state)["Market"] == 15
    assert (
        breakdown(town("market market market market / market . . . / market . . . / market . . .", b))["Market"] == 28
    )


def test_tailor_centre_bonus() -> None:
    b = "farm,well,chapel,tavern,tailor,factory"
    state = town("tailor . . . / . tailor tailor . / . . . . / . . . .", b)
    assert breakdown(state)["Tailor"] == 9  # 3 each: 1 + 2 Tailors in the centre
    full = town("tailor . . . / . tailor tailor . / . tailor tailor . / . . . .", b)
    assert breakdown(full)["Tailor"] == 25  # 5 each, capped


def test_black_buildings() -> None:
    state = town(
        "factory:wood bank:wheat trading-post . / . . . . / . . . . / . . . .",
        "farm,well,chapel,tavern,theater,factory",
    )
    assert breakdown(state)["Factory"] == 0
    bank = town("bank:wheat bank:wood . . / . . . . / . . . . / . . . .", "farm,well,chapel,tavern,theater,bank")
    assert breakdown(bank)["Bank"] == 8
    tp = town("trading-post . . . / . . . . / . . . . / . . . .", "farm,well,chapel,tavern,theater,trading-post")
    assert breakdown(tp)["Trading Post"] == 1


def test_warehouse_minus_one_per_cube_and_its_square_is_not_empty() -> None:
    b = "farm,well,chapel,tavern,theater,warehouse"
    state = town("warehouse:wood+stone . . . / . . . . / . . . . / . . . .", b)
    assert breakdown(state) == {"Warehouse": -2, "Empty squares": -15}


def test_standings_tie_breaks_in_rulebook_order() -> None:
    state = game(3)
    state = with_town(state, 0, "cottage farm . . / . . . . / . . . . / . . . .", times_master_builder=3)
    state = with_town(state, 1, "cottage farm W . / . . . . / . . . . / . . . .", times_master_builder=2)
    state = with_town(state, 2, "cottage farm . . / . . . . / . . . . / . . . .", times_master_builder=2)
    table = standings(state)
    assert [(r["player"], r["score"], r["rank"]) for r in table] == [("p1", -11, 1), ("p2", -11, 1), ("p0", -11, 3)]
    # fewer empty squares: W counts as an empty square, so equal; then more Cottages decides.
    state = with_town(state, 2, "cottage farm well . / . . . . / . . . . / . . . .", times_master_builder=2)
    state = with_town(state, 1, "cottage farm . well / . . . . / . . . . / . . . .", times_master_builder=2)
    assert [r["rank"] for r in standings(state)] == [1, 1, 3]
    state = with_town(state, 1, "cottage farm . cottage / . . . . / . . . . / . . . .", times_master_builder=2)
    table = standings(state)
    assert table[0]["player"] == "p1" and table[0]["rank"] == 1 and table[1]["rank"] == 2


def test_fewer_empty_squares_breaks_ties() -> None:
    state = game(2)
    state = with_town(state, 0, "tavern . . . / . . . . / . . . . / . . . .")  # 2 - 15 = -13
    state = with_town(state, 1, "tavern almshouse . . / . . . . / . . . . / . . . .")  # 2 - 1 - 14 = -13
    table = standings(state)
    assert [(r["player"], r["score"], r["rank"]) for r in table] == [("p1", -13, 1), ("p0", -13, 2)]
