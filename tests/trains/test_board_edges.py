"""The map side of the rules at its edges: place names as hexes, free and waived rails in the legal-move
filter and in refusals, exact refusal texts, the cut of a long list at exactly sixteen hexes.

Written against the mutants bench/mutation.sh left alive in games/trains/board.py (see
bench/mutation_report.md); each test names the rule it pins, not the mutant.
"""

from __future__ import annotations

import pytest

from games.base import IllegalMove
from games.trains import board

MAP = "tokyo"


def _message(tr, state, text: str) -> str:
    with pytest.raises(IllegalMove) as refused:
        tr.do(state, 0, text)
    return refused.value.message


def _listed(message: str, label: str) -> list[str]:
    """The 'HEX (cost)' entries after ``label`` in a refusal."""
    return message.split(label + ": ", 1)[1].rstrip(".").split(", ")


def test_a_city_name_is_its_hex_on_this_map_and_refused_on_the_other(tr):
    tokyo = tr.new_game(2)
    after, _ = tr.do(tokyo, 0, "/trains start shinjuku")
    shinjuku = next(h for h, c in tr.MAPS[MAP].cities.items() if c.name == "Shinjuku")
    assert after["rails"] == {shinjuku: [0]}
    osaka = tr.new_game(2, map_name="osaka")
    assert _message(tr, osaka, "/trains start shinjuku") == 'There is no "shinjuku" on the Osaka map.'
    assert board.place_hex(osaka, "E5") == "E5"  # a label is left as it is
    # A name of several words, as the README and /game rules spell it: dots dropped, words joined by "-".
    assert board.place_word("Mt. Tsukuba") == "mt-tsukuba"
    assert tr.MAPS[MAP].remotes["L1"].name == "Mt. Tsukuba"
    assert board.place_hex(tokyo, "mt-tsukuba") == "L1"


def test_a_remote_location_name_resolves_too_and_place_name_reads_it_back(tr):
    gmap = tr.MAPS[MAP]
    state = tr.new_game(2)
    remote, place = next(iter(gmap.remotes.items()))
    city, town = next(iter(gmap.cities.items()))
    assert board.place_hex(state, board.place_word(place.name)) == remote
    assert board.place_name(state, remote) == place.name
    assert board.place_name(state, city) == town.name
    plain = tr.find_hexes(MAP, "plain")[0]
    assert board.place_name(state, plain) == ""


def test_free_rails_are_all_affordable_even_with_no_money(tr):
    src = tr.find_hexes(MAP, "plain")[0]
    state = tr.scenario(["lay-rails"], rails={src: [0]}, money=0)
    hexes = board.frontier(state, 0)
    assert board.affordable_rails(state, 0, hexes, free=True) == hexes
    costly = [h for h in hexes if board.rail_cost(state, 0, h) > 0]
    assert costly and not set(costly) & set(board.affordable_rails(state, 0, hexes))


def test_the_legal_move_filter_honours_a_waiver_and_the_signal_box_discount(tr):
    src = tr.neighbour_of(MAP, tr.find_hexes(MAP, "river")[0], "plain")
    river = tr.neighbour_of(MAP, src, "river")
    state = tr.scenario(["lay-rails"], rails={src: [0]}, money=0)
    assert river not in board.affordable_rails(state, 0, [river])
    assert board.affordable_rails(state, 0, [river], waive=("river",)) == [river]  # Central Station's waiver
    state["turn"]["discount"] = 1  # Signal Box: 1 money off the next rail
    assert board.affordable_rails(state, 0, [river]) == [river]


def test_a_refusal_lists_the_hexes_a_waiving_or_free_rail_could_take_at_their_real_cost(tr):
    gmap = tr.MAPS[MAP]
    src = tr.neighbour_of(MAP, tr.find_hexes(MAP, "river")[0], "plain")
    far = next(h for h in tr.find_hexes(MAP, "plain") if h != src and h not in gmap.neighbours[src])
    state = tr.scenario(["central-station"], rails={src: [0]}, money=0)
    message = _message(tr, state, f"/trains play central-station rail {far}")
    listed = _listed(message, "Hexes next to your rails (extra cost)")
    rivers = [h for h in gmap.neighbours[src] if gmap.terrain[h] == "river"]
    assert rivers and all(f"{h} (0)" in listed for h in rivers)  # river waived by Central Station
    far_city = next(h for h in gmap.cities if h not in gmap.neighbours[src])
    state = tr.scenario(["terminal"], rails={src: [0]}, money=0)
    message = _message(tr, state, f"/trains play terminal {far_city}")
    listed = _listed(message, "Hexes next to your rails (extra cost)")
    assert listed == [f"{h} (0)" for h in sorted(gmap.neighbours[src]) if gmap.terrain[h] != "sea"]


def test_an_unaffordable_rail_under_a_waiver_lists_the_waived_hexes_within_money(tr):
    gmap = tr.MAPS[MAP]
    src = next(
        h for h in tr.find_hexes(MAP, "plain") if {"river", "city"} <= {gmap.terrain[n] for n in gmap.neighbours[h]}
    )
    city = tr.neighbour_of(MAP, src, "city")
    state = tr.scenario(["central-station"], rails={src: [0]}, money=0)
    message = _message(tr, state, f"/trains play central-station rail {city}")
    assert message.startswith(f"A rail on {city} costs 1 extra money; you have 0.")
    listed = _listed(message, "Within your money now")
    assert [h for h in gmap.neighbours[src] if gmap.terrain[h] == "river" and f"{h} (0)" in listed]


def _rails_with_frontier(tr, size: int) -> dict[str, list[int]]:
    """Seat 0's rails on a connected run of plain hexes whose frontier has exactly ``size`` hexes."""
    gmap = tr.MAPS[MAP]
    for start in tr.find_hexes(MAP, "plain"):
        rails: dict[str, list[int]] = {start: [0]}
        while True:
            state = tr.scenario([], rails=rails)
            front = board.frontier(state, 0)
            if len(front) == size:
                return rails
            if len(front) > size:
                break
            grow = next((h for h in front if gmap.terrain[h] == "plain"), None)
            if grow is None:
                break
            rails[grow] = [0]
    raise AssertionError(f"no run of rails with {size} hexes around it")


@pytest.mark.parametrize("size", [15, 16])
def test_a_list_of_at_most_sixteen_hexes_is_shown_whole(tr, size):
    rails = _rails_with_frontier(tr, size)
    state = tr.scenario(["lay-rails"], rails=rails, money=9)
    near = set(board.frontier(state, 0)) | set(rails)
    far = next(h for h in tr.find_hexes(MAP, "plain") if h not in near)
    message = _message(tr, state, f"/trains play lay-rails {far}")
    listed = _listed(message, "Hexes next to your rails (extra cost)")
    assert len(listed) == size and "..." not in message


def test_with_no_rail_at_all_the_refusal_lists_nothing(tr):
    plain = tr.find_hexes(MAP, "plain")[0]
    state = tr.scenario(["lay-rails"], rails={}, money=9)
    assert (
        _message(tr, state, f"/trains play lay-rails {plain}")
        == f"{plain} is not adjacent to one of your rails (barrier edges do not connect)."
    )


def test_a_free_plain_rail_event_names_no_cost(tr):
    src = tr.find_hexes(MAP, "plain")[0]
    dst = tr.neighbour_of(MAP, src, "plain")
    state = tr.scenario(["lay-rails"], rails={src: [0]}, money=0)
    assert board.lay_rail(state, 0, dst) == f"rail on {dst}"


def test_the_board_refuses_in_its_own_words_when_tokens_run_out(tr):
    src = tr.find_hexes(MAP, "plain")[0]
    dst = tr.neighbour_of(MAP, src, "plain")
    state = tr.scenario(["lay-rails"], rails={src: [0]}, money=0)
    state["players"][0]["rails_left"] = 0
    assert board.rail_problem(state, 0, dst) == "You have no rail tokens left."
    state["players"][0]["rails_left"] = 1
    assert board.rail_problem(state, 0, dst) == ""
    city = next(iter(tr.MAPS[MAP].cities))
    state["stations_left"] = 0
    assert board.station_problem(state, city) == "All station tokens are on the board."
    state["stations_left"] = 1
    assert board.station_problem(state, city) == ""


def test_a_shared_rail_event_names_its_cost_and_the_sharing_waste(tr):
    src = tr.find_hexes(MAP, "plain")[0]
    dst = tr.neighbour_of(MAP, src, "plain")
    state = tr.scenario(["lay-rails"], rails={src: [0], dst: [1]}, money=1)
    assert board.lay_rail(state, 0, dst) == f"rail on {dst} (1 money), 1 Waste for sharing"
    assert state["turn"]["money"] == 0 and state["players"][0]["gained"] == ["waste"]
