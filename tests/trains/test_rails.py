"""Laying rails and stations: adjacency, barriers, every surcharge, waivers, limits."""

from __future__ import annotations

import pytest

from games.base import IllegalMove

MAP = "tokyo"


def pair(tr, terrain: str) -> tuple[str, str]:
    """(plain hex, neighbour of the given terrain) on the Tokyo map."""
    for h in tr.find_hexes(MAP, "plain"):
        for n in tr.MAPS[MAP].neighbours[h]:
            if tr.MAPS[MAP].terrain[n] == terrain:
                return h, n
    raise AssertionError(terrain)


def lay(tr, terrain: str, money: int, card: str = "lay-rails", **kw):
    src, dst = pair(tr, terrain)
    state = tr.scenario([card], rails={src: [0]}, money=money, **kw)
    return tr.do(state, 0, f"/trains play {card} {dst}"), dst


@pytest.mark.parametrize("terrain,cost", [("plain", 0), ("river", 1), ("mountain", 2)])
def test_terrain_surcharge(tr, terrain, cost):
    (state, events), dst = lay(tr, terrain, money=cost)
    assert 0 in state["rails"][dst]
    assert state["turn"]["money"] == 0
    assert state["players"][0]["gained"] == ["waste"]  # Lay Rails' own Waste
    assert state["players"][0]["rails_left"] == 18
    if cost:
        with pytest.raises(IllegalMove, match="costs"):
            lay(tr, terrain, money=cost - 1)


def test_city_costs_one_plus_stations(tr):
    src, city = pair(tr, "city")
    for stations in range(tr.MAPS[MAP].cities[city].value + 1):
        state = tr.scenario(["lay-rails"], rails={src: [0]}, stations={city: stations}, money=10)
        after, _ = tr.do(state, 0, f"/trains play lay-rails {city}")
        assert after["turn"]["money"] == 10 - (1 + stations)


def test_remote_costs_its_number(tr):
    src, remote = pair(tr, "remote")
    value = tr.MAPS[MAP].remotes[remote].value
    state = tr.scenario(["lay-rails"], rails={src: [0]}, money=value)
    after, _ = tr.do(state, 0, f"/trains play lay-rails {remote}")
    assert after["turn"]["money"] == 0
    with pytest.raises(IllegalMove):
        poor = tr.scenario(["lay-rails"], rails={src: [0]}, money=value - 1)
        tr.do(poor, 0, f"/trains play lay-rails {remote}")


def test_rulebook_four_money_example(tr):
    """City with 2 stations and 1 other player's rail: 1 + 2 + 1 = 4 money and 1 Waste."""
    city = "J6"
    assert tr.MAPS[MAP].terrain[city] == "city" and tr.MAPS[MAP].cities[city].value >= 2
    src = tr.neighbour_of(MAP, city, "river")
    rails = {src: [0], city: [1]}
    state = tr.scenario(["lay-rails", "track-crew"], rails=rails, stations={city: 2}, money=4)
    after, _ = tr.do(state, 0, f"/trains play track-crew {city}")
    assert after["turn"]["money"] == 0
    assert after["players"][0]["gained"] == ["waste"]  # the sharing Waste only (Track Crew gives none)
    assert after["rails"][city] == [1, 0]
    with pytest.raises(IllegalMove, match="costs 4"):
        poor = tr.scenario(["lay-rails"], rails=rails, stations={city: 2}, money=3)
        tr.do(poor, 0, f"/trains play lay-rails {city}")
    after, _ = tr.do(
        tr.scenario(["lay-rails"], rails=rails, stations={city: 2}, money=4), 0, f"/trains play lay-rails {city}"
    )
    assert after["players"][0]["gained"] == ["waste", "waste"]  # sharing + Lay Rails' own


def test_each_other_rail_costs_one_but_waste_once(tr):
    src, dst = pair(tr, "plain")
    state = tr.scenario(["lay-rails"], rails={src: [0], dst: [1, 2]}, money=2, players=3)
    after, _ = tr.do(state, 0, f"/trains play lay-rails {dst}")
    assert after["turn"]["money"] == 0
    assert after["players"][0]["gained"].count("waste") == 2  # 1 sharing (rulebook: "gain a Waste") + 1 card


def test_adjacency_barrier_sea_and_own_rail(tr):
    state = tr.scenario(["lay-rails"], rails={"E5": [0]}, money=10)
    far = "N11"
    with pytest.raises(IllegalMove, match="not adjacent"):
        tr.do(state, 0, f"/trains play lay-rails {far}")
    with pytest.raises(IllegalMove, match="already have"):
        tr.do(state, 0, "/trains play lay-rails E5")
    # G8-H8 is a barrier edge on Tokyo: geometrically adjacent, not connected.
    assert ("G8", "H8") in tr.MAPS[MAP].barriers
    barred = tr.scenario(["lay-rails"], rails={"G8": [0]}, money=10)
    with pytest.raises(IllegalMove, match="not adjacent"):
        tr.do(barred, 0, "/trains play lay-rails H8")
    sea = tr.find_hexes(MAP, "sea")[0]
    with pytest.raises(IllegalMove, match="sea"):
        tr.do(state, 0, f"/trains play lay-rails {sea}")
    with pytest.raises(IllegalMove, match="not on the"):
        tr.do(state, 0, "/trains play lay-rails Z9")


def test_no_rails_left(tr):
    src, dst = pair(tr, "plain")
    state = tr.scenario(["lay-rails"], rails={src: [0]})
    state["players"][0]["rails_left"] = 0
    with pytest.raises(IllegalMove, match="no rail tokens"):
        tr.do(state, 0, f"/trains play lay-rails {dst}")


def test_failed_effect_changes_nothing(tr):
    src, dst = pair(tr, "mountain")
    state = tr.scenario(["lay-rails"], rails={src: [0]}, money=1)
    before = tr.roundtrip(state)
    with pytest.raises(IllegalMove):
        tr.do(state, 0, f"/trains play lay-rails {dst}")
    assert state == before
    after, _ = tr.do(state, 0, "/trains play lay-rails skip")  # played for its value only
    assert after["players"][0]["play"] == ["lay-rails"] and after["players"][0]["gained"] == []


def test_missing_waste_does_not_block(tr):
    src, dst = pair(tr, "plain")
    state = tr.scenario(["lay-rails"], rails={src: [0]})
    state["supply"]["waste"] = 0
    after, _ = tr.do(state, 0, f"/trains play lay-rails {dst}")
    assert 0 in after["rails"][dst] and after["players"][0]["gained"] == []


def test_tunnel_waives_mountains_all_turn(tr):
    gmap = tr.MAPS[MAP]
    src, mountain = next(
        (h, n)
        for h in tr.find_hexes(MAP, "plain")
        for n in gmap.neighbours[h]
        if gmap.terrain[n] == "mountain" and any(gmap.terrain[m] == "mountain" for m in gmap.neighbours[n])
    )
    state = tr.scenario(["tunnel", "lay-rails"], rails={src: [0]}, money=0)
    after, _ = tr.do(state, 0, f"/trains play tunnel {mountain}")
    assert 0 in after["rails"][mountain] and after["players"][0]["gained"] == ["waste"]
    nxt = next(
        n
        for n in tr.MAPS[MAP].neighbours[mountain]
        if tr.MAPS[MAP].terrain[n] == "mountain" and n not in after["rails"]
    )
    after, _ = tr.do(after, 0, f"/trains play lay-rails {nxt}")
    assert after["turn"]["money"] == 0


def test_steel_bridge_waives_river_money_not_sharing_waste(tr):
    src, river = pair(tr, "river")
    state = tr.scenario(["steel-bridge"], rails={src: [0], river: [1]}, money=1)
    after, _ = tr.do(state, 0, f"/trains play steel-bridge {river}")
    assert after["turn"]["money"] == 0  # river free, the other player's rail still costs 1
    assert after["players"][0]["gained"] == ["waste", "waste"]


def test_viaduct_waives_city_and_station_surcharge(tr):
    src, city = pair(tr, "city")
    state = tr.scenario(["viaduct"], rails={src: [0]}, stations={city: 1}, money=0)
    after, _ = tr.do(state, 0, f"/trains play viaduct {city}")
    assert 0 in after["rails"][city]


def test_parallel_line_waives_other_rails_money(tr):
    src, dst = pair(tr, "plain")
    state = tr.scenario(
        ["parallel-line"],
        rails={src: [0], dst: [1]},
        money=0,
        kingdom=["parallel-line", "landfill", "transfer", "timetable", "tunnel", "viaduct", "steel-bridge", "coupling"],
    )
    after, _ = tr.do(state, 0, f"/trains play parallel-line {dst}")
    assert after["rails"][dst] == [1, 0]
    assert after["players"][0]["gained"] == ["waste", "waste"]


def test_central_station_rail_without_terrain_surcharge(tr):
    src, mountain = pair(tr, "mountain")
    state = tr.scenario(["central-station"], rails={src: [0]}, money=0)
    after, _ = tr.do(state, 0, f"/trains play central-station rail {mountain}")
    assert 0 in after["rails"][mountain] and after["players"][0]["gained"] == ["waste"]
    src, city = pair(tr, "city")
    with pytest.raises(IllegalMove, match="costs 1"):
        poor = tr.scenario(["central-station"], rails={src: [0]})
        tr.do(poor, 0, f"/trains play central-station rail {city}")


def test_signal_box_discount_applies_once(tr):
    src, mountain = pair(tr, "mountain")
    state = tr.scenario(["signal-box", "lay-rails", "lay-rails"], rails={src: [0]}, money=0)
    after, _ = tr.do(state, 0, "/trains play signal-box")
    assert after["turn"]["money"] == 1 and after["turn"]["discount"] == 1
    after, _ = tr.do(after, 0, f"/trains play lay-rails {mountain}")  # 2 - 1 = 1
    assert after["turn"]["money"] == 0 and after["turn"]["discount"] == 0


def test_signal_box_discount_never_pays_out_on_a_cheaper_hex(tr):
    """The discount lowers a surcharge to 0 at most: a plain hex after Signal Box costs 0, never -1."""
    src, plain = pair(tr, "plain")
    state = tr.scenario(["signal-box", "lay-rails"], rails={src: [0]}, money=0)
    after, _ = tr.do(state, 0, "/trains play signal-box")
    after, _ = tr.do(after, 0, f"/trains play lay-rails {plain}")
    assert 0 in after["rails"][plain] and after["turn"]["money"] == 1


def test_track_crew_and_double_track(tr):
    src, dst = pair(tr, "plain")
    after, _ = tr.do(tr.scenario(["track-crew"], rails={src: [0]}), 0, f"/trains play track-crew {dst}")
    assert after["players"][0]["gained"] == []
    beyond = next(
        n
        for n in tr.MAPS[MAP].neighbours[dst]
        if n != src and tr.MAPS[MAP].terrain[n] == "plain" and n not in tr.MAPS[MAP].neighbours[src]
    )
    state = tr.scenario(["double-track"], rails={src: [0]})
    after, _ = tr.do(state, 0, f"/trains play double-track {dst} {beyond}")
    assert 0 in after["rails"][dst] and 0 in after["rails"][beyond]
    assert after["players"][0]["gained"] == ["waste"] and after["players"][0]["rails_left"] == 17
    with pytest.raises(IllegalMove, match="not adjacent"):
        tr.do(state, 0, f"/trains play double-track {beyond} {dst}")
    with pytest.raises(IllegalMove):
        tr.do(state, 0, f"/trains play double-track {dst}")


def test_station_expansion_and_urban_planning(tr):
    city = "J6"
    slots = tr.MAPS[MAP].cities[city].value
    state = tr.scenario(["station-expansion", "urban-planning"], stations={city: slots - 1})
    after, _ = tr.do(state, 0, f"/trains play urban-planning {city}")
    assert after["stations"][city] == slots and after["players"][0]["gained"] == []
    assert after["stations_left"] == state["stations_left"] - 1
    with pytest.raises(IllegalMove, match="no free station slot"):
        tr.do(after, 0, f"/trains play station-expansion {city}")
    after, _ = tr.do(state, 0, f"/trains play station-expansion {city}")
    assert after["players"][0]["gained"] == ["waste"]
    with pytest.raises(IllegalMove, match="not a city"):
        tr.do(state, 0, f"/trains play station-expansion {tr.find_hexes(MAP, 'plain')[0]}")
    empty = tr.scenario(["station-expansion"])
    empty["stations_left"] = 0
    with pytest.raises(IllegalMove, match="All station tokens"):
        tr.do(empty, 0, f"/trains play station-expansion {city}")


def test_terminal_station_then_free_rail(tr):
    src, city = pair(tr, "city")
    state = tr.scenario(["terminal"], rails={src: [0], city: [1]}, stations={city: 0}, money=0)
    after, _ = tr.do(state, 0, f"/trains play terminal {city}")
    assert after["stations"][city] == 1 and 0 in after["rails"][city]
    assert after["players"][0]["gained"] == ["waste", "waste"]  # sharing + card
    far_city = next(c for c in tr.MAPS[MAP].cities if c not in tr.MAPS[MAP].neighbours[src])
    with pytest.raises(IllegalMove, match="not adjacent"):
        tr.do(state, 0, f"/trains play terminal {far_city}")


# Rulebook surcharges, typed in here (not read from rules.json) to check the costs the refusals list.
TERRAIN_COST = {"plain": 0, "river": 1, "mountain": 2}


def _listed(message: str, label: str) -> list[str]:
    """The 'HEX (cost)' entries after ``label`` in a refusal."""
    tail = message.split(label + ": ", 1)[1]
    return [part for part in tail.rstrip(".").split(", ")]


def test_a_rail_out_of_reach_is_refused_with_the_hexes_you_can_reach_and_their_cost(tr):
    src, mountain = pair(tr, "mountain")
    gmap = tr.MAPS[MAP]
    state = tr.scenario(["lay-rails"], rails={src: [0]}, money=5)
    far = next(h for h in tr.find_hexes(MAP, "plain") if h != src and h not in gmap.neighbours[src])
    with pytest.raises(IllegalMove) as refused:
        tr.do(state, 0, f"/trains play lay-rails {far}")
    listed = _listed(refused.value.message, "Hexes next to your rails (extra cost)")
    expected = [
        f"{h} ({TERRAIN_COST.get(gmap.terrain[h], 1)})"  # a city without stations: 1
        for h in sorted(gmap.neighbours[src])
        if gmap.terrain[h] != "sea"
    ]
    assert listed == expected and f"{mountain} (2)" in listed


def test_an_unaffordable_rail_lists_only_what_your_money_reaches_boundary_included(tr):
    src, mountain = pair(tr, "mountain")
    gmap = tr.MAPS[MAP]
    state = tr.scenario(["lay-rails"], rails={src: [0]}, money=0)
    with pytest.raises(IllegalMove, match="costs 2 extra money; you have 0") as refused:
        tr.do(state, 0, f"/trains play lay-rails {mountain}")
    plain = sorted(h for h in gmap.neighbours[src] if gmap.terrain[h] == "plain")
    assert plain and _listed(refused.value.message, "Within your money now") == [f"{h} (0)" for h in plain]


def test_when_nothing_is_affordable_the_refusal_says_so(tr):
    src, mountain = pair(tr, "mountain")
    gmap = tr.MAPS[MAP]
    rails = {src: [0]} | {h: [1] for h in gmap.neighbours[src] if gmap.terrain[h] != "sea"}  # +1 each
    state = tr.scenario(["lay-rails"], rails=rails, money=0)
    with pytest.raises(IllegalMove) as refused:
        tr.do(state, 0, f"/trains play lay-rails {mountain}")
    assert refused.value.message.endswith(" No hex next to your rails is within your money: play more money first.")


def test_a_long_list_of_reachable_hexes_is_cut_after_sixteen(tr):
    gmap = tr.MAPS[MAP]
    spread: list[str] = []
    for h in tr.find_hexes(MAP, "plain"):
        if all(h not in gmap.neighbours[o] and not set(gmap.neighbours[h]) & set(gmap.neighbours[o]) for o in spread):
            spread.append(h)
        if len(spread) == 4:
            break
    state = tr.scenario(["lay-rails"], rails={h: [0] for h in spread}, money=9)
    near = {n for h in spread for n in gmap.neighbours[h]} | set(spread)
    far = next(h for h in tr.find_hexes(MAP, "plain") if h not in near)
    with pytest.raises(IllegalMove) as refused:
        tr.do(state, 0, f"/trains play lay-rails {far}")
    listed = _listed(refused.value.message, "Hexes next to your rails (extra cost)")
    assert len(listed) == 17 and refused.value.message.endswith(", ....")  # 16 hexes, then "..."


def test_rail_and_station_tokens_run_out_exactly_at_zero(tr):
    src, dst = pair(tr, "plain")
    state = tr.scenario(["lay-rails"], rails={src: [0]})
    state["players"][0]["rails_left"] = 1
    after, _ = tr.do(state, 0, f"/trains play lay-rails {dst}")  # the last token can be laid
    assert after["players"][0]["rails_left"] == 0
    state["players"][0]["rails_left"] = 0
    with pytest.raises(IllegalMove, match="You have no rail tokens left."):
        tr.do(state, 0, f"/trains play lay-rails {dst}")
    city = next(h for h, c in tr.MAPS[MAP].cities.items() if c.value == 1)
    state = tr.scenario(["station-expansion"])
    state["stations_left"] = 1
    after, _ = tr.do(state, 0, f"/trains play station-expansion {city}")  # the last station token
    assert after["stations"][city] == 1 and after["stations_left"] == 0  # a first station counts one
    state["stations_left"] = 0
    with pytest.raises(IllegalMove, match="All station tokens are on the board."):
        tr.do(state, 0, f"/trains play station-expansion {city}")


def test_the_terminal_rail_is_free_even_in_a_city_and_the_event_names_the_cost(tr):
    src, city = pair(tr, "city")
    state = tr.scenario(["terminal"], rails={src: [0]}, money=0)
    after, events = tr.do(state, 0, f"/trains play terminal {city}")
    assert 0 in after["rails"][city] and after["turn"]["money"] == 0 and after["stations"][city] == 1
    text = " ".join(str(e.get("text", "")) for e in events)
    assert f"rail on {city}" in text and "money)" not in text
    src, mountain = pair(tr, "mountain")
    after, events = tr.do(
        tr.scenario(["lay-rails"], rails={src: [0]}, money=2), 0, f"/trains play lay-rails {mountain}"
    )
    assert f"rail on {mountain} (2 money)" in " ".join(str(e.get("text", "")) for e in events)


def test_legal_start_hexes_leave_out_taken_hexes(tr):
    state = tr.new_game(2)
    first = tr.GAME.format(tr.GAME.legal_moves(state, 0)[0]).split()[-1]
    state, _ = tr.do(state, 0, f"/trains start {first}")
    starts = {tr.GAME.format(m).split()[-1] for m in tr.GAME.legal_moves(state, 1)}
    assert first not in starts and len(starts) > 10


def test_station_moves_offer_every_city_with_a_free_slot_down_to_the_last_token(tr):
    gmap = tr.MAPS[MAP]
    small = next(h for h, c in gmap.cities.items() if c.value == 1)
    state = tr.scenario(["station-expansion"])
    offered = {tr.GAME.format(m) for m in tr.GAME.legal_moves(state, 0)}
    assert f"/trains play station-expansion {small}" in offered  # an empty 1-slot city
    state["stations_left"] = 1
    assert {tr.GAME.format(m) for m in tr.GAME.legal_moves(state, 0)} == offered
    state["stations_left"] = 0
    left = {tr.GAME.format(m) for m in tr.GAME.legal_moves(state, 0) if "station-expansion" in tr.GAME.format(m)}
    assert left == {"/trains play station-expansion skip"}  # no station, only playing it for nothing
