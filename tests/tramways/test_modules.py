"""The Station, Stock Exchange and Station Master rules of the Grand Station rulebook, and the
setup placement constraints of all three tiles."""

from __future__ import annotations

import pytest

from games.base import IllegalMove
from games.tramways import links
from games.tramways.content import SETTINGS
from games.tramways.movegen import legal_moves
from tests.tramways.conftest import add_link, crafted, do, hand, new_game

# t-res: a Residence at A1 and a Commercial at A5; the Station is put at C1-D1, the Exchange at C3-D3.
BOARDS = ["t-res", "t-plain", "t-plain", "t-plain"]


def station_city(**extra: bool) -> dict:
    return crafted(BOARDS, [("station", ["C1", "D1"])], modules={"station": True, **extra})


# ---------------------------------------------------------------- Station


def test_station_starts_with_two_passengers_and_cards_by_player_count():
    assert station_city()["passengers"]["STATION"] == 2
    counts = {n: new_game(n, station=True)["station_cards"] for n in range(1, 6)}
    assert counts == {1: 1, 2: 2, 3: 2, 4: 3, 5: 4}  # one per player minus 1, at least 1 solo and 2 with two


def test_first_link_to_the_station_needs_the_other_ends_icon_and_gives_a_station_card():
    state = station_city()
    hand(state, 0, "foreman", "suburb", "commuter")
    # Without an S icon only the Residence's R icon can pay ("he has no choice but to play an R icon").
    with pytest.raises(IllegalMove):
        do(state, 0, "/tram rails A1 B1 C1 dest S with foreman:rail suburb:s")
    state, _ = do(state, 0, "/tram rails A1 B1 C1 dest R with foreman:rail suburb:r")
    assert state["links"][0]["ends"] == ["R1", "STATION"]
    assert "station-card" in state["players"][0]["hand"]  # usable at once
    assert state["station_cards"] == 1
    # Once acquired, the S icon pays a link to the Station (here the very next action); no second card.
    hand(state, 0, "track-crew", "foreman", "station-card")
    state, _ = do(state, 0, "/tram rails A1 A2 B2 C2 C1 dest S with foreman:rail track-crew:rail+rail station-card:s")
    assert state["links"][1]["ends"] == ["R1", "STATION"]
    assert state["station_cards"] == 1 and state["players"][0]["stress"] == 1


def test_connecting_to_the_station_again_gives_no_second_card():
    state = station_city()
    state["players"][0]["station_link"] = True
    hand(state, 0, "foreman", "suburb")
    state, _ = do(state, 0, "/tram rails A1 B1 C1 dest R with foreman:rail suburb:r")
    assert state["station_cards"] == 2 and "station-card" not in state["players"][0]["hand"]


def test_the_station_cannot_be_upgraded_and_belongs_to_nobody():
    state = station_city()
    hand(state, 0, "contractor")
    with pytest.raises(IllegalMove, match="belong to nobody"):
        do(state, 0, "/tram upgrade-building STATION with contractor:build")


def test_passengers_stay_at_the_station_at_most_two():
    state = station_city()
    add_link(state, 1, ["B1"], ["R1", "STATION"])
    state["passengers"]["STATION"] = 1
    hand(state, 0, "station-card", "commuter")
    state, _ = do(state, 0, "/tram move R1 STATION via 1 with station-card:ticket+s")
    assert state["passengers"]["STATION"] == 2  # he stays after his trip
    state["passengers"]["R1"] = 1
    hand(state, 0, "station-card")
    state, _ = do(state, 0, "/tram move R1 STATION via 1 with station-card:ticket+s")
    assert state["passengers"]["STATION"] == 2  # a third is discarded


def test_each_round_starts_with_two_passengers_at_the_station():
    state = station_city()
    state["passengers"]["STATION"] = 0
    state["phase"], state["turn"] = "admin", {"index": 1, "discarded": False, "bought": False}
    state["current"] = 1
    state, _ = do(state, 1, "/tram done")
    assert state["round"] == 2 and state["passengers"]["STATION"] == 2


# ---------------------------------------------------------------- Stock Exchange


def exchange_city() -> dict:
    return crafted(BOARDS, [("exchange", ["C3", "D3"])], modules={"exchange": True})


def test_exchange_link_takes_the_other_ends_icon_and_is_never_a_destination():
    state = exchange_city()
    hand(state, 0, "track-crew", "suburb", "high-street")
    with pytest.raises(IllegalMove):
        do(state, 0, "/tram rails A5 B5 B4 C4 D3 dest C with track-crew:rail+rail high-street:c")  # 3 tiles only
    add_link(state, 1, ["B1", "B2"], ["R1", "EXCHANGE"])
    add_link(state, 1, ["B4", "B5"], ["EXCHANGE", "C1"])
    ex = links.game_map(state).endpoint("EXCHANGE")
    assert ex is not None and not links.is_destination(state, ex) and links.dest_icons(state, ex) == frozenset()
    hand(state, 0, "commuter")
    with pytest.raises(IllegalMove, match="never a destination"):
        do(state, 0, "/tram move R1 EXCHANGE via 1 with commuter:ticket+r")


def test_exchange_pays_five_dollars_in_trip_order():
    state = exchange_city()
    one = add_link(state, 1, ["B1"], ["R1", "EXCHANGE"])
    two = add_link(state, 1, ["B4", "B5"], ["EXCHANGE", "C1"])
    mover = state["players"][0]
    mover["money"] = 0
    hand(state, 0, "commuter", "high-street")
    state, events = do(state, 0, f"/tram move R1 C1 via {one} {two} hp 0 with commuter:ticket high-street:c")
    mover, owner = state["players"]
    # Link 1: owes $1 with $0: cannot pay, +1 stress. Then the Exchange: +$5. Then link 2: pays $2.
    assert mover["money"] == 3 and owner["money"] == 3 + 2 and mover["stress"] == 1
    assert owner["hp"] == 2  # the Exchange is a stop: 1 HP for the link before, 1 for the link after
    text = events[0]["text"]
    assert text.index("cannot pay $1") < text.index("Stock Exchange +$5") < text.index("pays green $2")


def test_exchange_upgrade_needs_the_other_ends_icon():
    state = exchange_city()
    add_link(state, 0, ["B1", "B2", "B3"], ["R1", "EXCHANGE"])
    hand(state, 0, "inspector")
    state, _ = do(state, 0, "/tram upgrade-link 1 with inspector:up+r")
    assert state["links"][0]["upgraded"]


# ---------------------------------------------------------------- Station Master


def test_station_master_free_move_for_the_last_player():
    state = station_city(master=True)
    add_link(state, 0, ["B1"], ["R1", "STATION"])
    state["current"], state["turn"] = 1, {"step": 2, "index": 1, "actions_left": 2}  # green is last
    state["players"][1]["stress"] = 2
    moves = legal_moves(state, 1)
    assert {"verb": "master", "to": "R1", "via": [1], "hp": None} in moves
    assert not any(m["verb"] == "master" for m in legal_moves(dict(state, current=0), 0))
    before = state["players"][1]["stress"]
    state, _ = do(state, 1, "/tram master R1 via 1")
    green, orange = state["players"][1], state["players"][0]
    assert state["master"] == {"at": "R1", "moved": True}  # he stays at the destination
    assert state["turn"]["actions_left"] == 2  # not one of the 1+2 actions
    assert orange["hp"] == 1 and green["stress"] == before - 1  # HP to the link owner; Residence bonus
    assert green["money"] == 3 - 1 and orange["money"] == 3 + 1
    assert state["passengers"]["STATION"] == 2  # the passengers are not moved
    with pytest.raises(IllegalMove, match="already"):
        do(state, 1, "/tram master STATION via 1")


def test_unmoved_station_master_costs_two_stress_at_the_end_of_the_turn():
    state = station_city(master=True)
    add_link(state, 0, ["B1"], ["R1", "STATION"])
    state["current"], state["turn"] = 1, {"step": 2, "index": 1, "actions_left": 2}
    state, _ = do(state, 1, "/tram done")
    assert state["players"][1]["stress"] == SETTINGS["master_unmoved_stress"]


def test_station_master_never_stops_at_the_park_or_exchange_and_travels_one_link():
    state = crafted(
        BOARDS,
        [("station", ["C1", "D1"]), ("exchange", ["C3", "D3"])],
        modules={"station": True, "exchange": True, "master": True},
    )
    add_link(state, 0, ["C2"], ["STATION", "EXCHANGE"])
    add_link(state, 0, ["B1"], ["R1", "STATION"])
    state["current"], state["turn"] = 1, {"step": 2, "index": 1, "actions_left": 2}
    masters = [m for m in legal_moves(state, 1) if m["verb"] == "master"]
    assert masters == [{"verb": "master", "to": "R1", "via": [2], "hp": None}]
    with pytest.raises(IllegalMove):
        do(state, 1, "/tram master EXCHANGE via 1")


def test_station_master_requires_the_station_and_brings_it():
    state = new_game(2, master=True)
    assert state["modules"]["station"] and state["passengers"]["STATION"] == 2
    assert state["master"] == {"at": "STATION", "moved": False}


# ---------------------------------------------------------------- setup placement


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_tiles_are_placed_by_the_rulebook(players):
    for seed in range(15):
        state = new_game(players, seed, station=True, exchange=True, park=True, master=True)
        gmap = links.game_map(state)
        raw = {e.label: e for e in gmap.endpoints}
        parcel_cells = {c for e in gmap.endpoints if e.kind == "parcel" for c in e.cells}
        for kind, cells in state["tiles"]:
            for c in cells:
                near = set(gmap.neighbours[c])
                if kind in ("station", "exchange"):
                    assert not near & parcel_cells, (seed, kind)
                if kind == "park":
                    assert len(near) == 4 and all(gmap.empty(n) for n in near)
        station = raw["STATION"].cells
        assert len(station) == 2 and len(raw["EXCHANGE"].cells) == 2 and len(raw["PARK"].cells) == 1
        assert state["passengers"]["STATION"] == 2 and state["master"]["at"] == "STATION"


# ---------------------------------------------------------------- placement rules, one by one


def _place(boards: tuple[str, ...], kinds: tuple[str, ...]):
    from games.rng import Rng
    from games.tramways.board import place_tiles

    return place_tiles(boards, 2, kinds, Rng(12345))


def test_the_station_never_stands_on_water_but_hills_are_fine():
    assert _place(("t-wet",) * 4, ("station",)) is None  # no legal place: the boards must change
    placed = _place(("t-hills",) * 4, ("station",))
    assert placed is not None and placed[0][0] == "station" and len(placed[0][1]) == 2


def test_the_stock_exchange_may_stand_on_water():
    placed = _place(("t-wet",) * 4, ("exchange",))
    assert placed is not None and len(placed[0][1]) == 2


def test_station_and_exchange_avoid_parcels_but_may_touch_a_preprinted_building():
    from games.tramways.board import _raw_grid

    for kind in ("station", "exchange"):
        placed = _place(("t-crowded", "t-wet", "t-wet", "t-wet"), (kind,))
        assert placed is not None
        width, _, grid = _raw_grid(("t-crowded", "t-wet", "t-wet", "t-wet"), 2)
        if kind == "station":
            # The only dry cells away from parcels: D1-E1, next to the Residence.
            assert placed[0][1] == (3, 4)
        for c in placed[0][1]:
            near = [c - 1, c + 1, c - width, c + width]
            assert all(not (0 <= n < len(grid)) or grid[n] != "P" for n in near)


def test_the_park_needs_four_empty_neighbours_hills_allowed_not_water():
    from games.tramways.board import _raw_grid

    boards = ("t-pond", "t-wet", "t-wet", "t-wet")
    placed = _place(boards, ("park",))
    width, _, grid = _raw_grid(boards, 2)
    assert placed is not None
    (cell,) = placed[0][1]
    near = [cell - 1, cell + 1, cell - width, cell + width]
    assert all(grid[n] in ".^" for n in near) and grid[cell] in ".^"
    assert cell != 2 * width + 2  # C3 has the pond (C2) above it, so it is never chosen


# ---------------------------------------------------------------- pass-through order, Park and Exchange together


def test_park_and_exchange_in_one_trip_follow_the_rulebook_order():
    """R1 -1- PARK -2- R2 -3- EXCHANGE -4- C1: (1) HP for all four links, (1½) the Park,
    (2) the destination bonus, (3) money link by link with the Exchange's $5 on the way."""
    state = crafted(
        ["t-pair", "t-plain", "t-plain", "t-plain"],
        [("park", ["C1"]), ("exchange", ["E3", "E4"])],
        modules={"park": True, "exchange": True},
    )
    a = add_link(state, 1, ["B1"], ["R1", "PARK"])
    b = add_link(state, 0, ["C2"], ["PARK", "R2"])
    c = add_link(state, 1, ["D3"], ["R2", "EXCHANGE"])
    d = add_link(state, 1, ["D4", "D5", "C5", "B5"], ["EXCHANGE", "C1"])
    me = state["players"][0]
    me["money"], me["stress"] = 0, 2
    hand(state, 0, "commuter", "high-street")
    state, events = do(state, 0, f"/tram move R1 C1 via {a} {b} {c} {d} hp 0 with commuter:ticket high-street:c")
    me, other = state["players"]
    assert other["hp"] == 3 and me["hp"] == 1  # a stop at the Exchange: HP for the link before and after
    assert me["stress"] == 2 - 1 + 1  # the Park; then $1 unpaid to green for link a: +1 stress
    # Link a: owes $1 with $0 (unpaid); b: +$1 own; c: pays $1; Exchange +$5; d: pays $4.
    assert me["money"] == 0 + 1 - 1 + 5 - 4 and other["money"] == 3 + 1 + 4
    text = events[0]["text"]
    order = [
        "+1 HP (link 4)",
        "Park:",
        "cannot pay $1",
        "+$1 own rails",
        "pays green $1",
        "Stock Exchange +$5",
        "pays green $4",
    ]
    assert [text.index(part) for part in order] == sorted(text.index(part) for part in order)


def test_a_park_station_link_needs_the_s_icon():
    state = crafted(
        ["t-plain", "t-plain", "t-plain", "t-plain"],
        [("station", ["A1", "B1"]), ("park", ["B3"])],
        modules={"station": True, "park": True},
    )
    hand(state, 0, "foreman", "suburb")
    assert not any(m["verb"] == "rails" and m["dest"] for m in legal_moves(state, 0))
    with pytest.raises(IllegalMove):
        do(state, 0, "/tram rails B3 B2 B1 dest R with foreman:rail suburb:r")
    hand(state, 0, "foreman", "station-card")
    state, _ = do(state, 0, "/tram rails B3 B2 B1 dest S with foreman:rail station-card:s")
    assert state["links"][0]["ends"] == ["PARK", "STATION"]


# ---------------------------------------------------------------- Station Master, turn by turn


def test_station_master_may_stop_at_an_owned_parcel_and_stays_there():
    state = crafted(
        ["t-park", "t-plain", "t-plain", "t-plain"],
        [("station", ["A1", "B1"])],
        modules={"station": True, "master": True},
        parcels={"P1": 0},
    )
    add_link(state, 0, ["A2", "A3", "A4", "A5", "B5"], ["STATION", "P1"])
    state["current"], state["turn"] = 1, {"step": 2, "index": 1, "actions_left": 2}
    state["players"][1]["money"] = 10
    state, _ = do(state, 1, "/tram master P1 via 1")
    assert state["master"] == {"at": "P1", "moved": True}
    assert state["players"][0]["hp"] == 1 and state["players"][1]["stress"] == 0  # no bonus at an unbuilt parcel
    assert state["players"][1]["money"] == 5 and state["players"][0]["money"] == 8  # $1 per tile to orange


def test_station_master_in_the_single_action_round_and_the_end_of_three_actions():
    state = station_city(master=True)
    add_link(state, 0, ["B1"], ["R1", "STATION"])
    state["turn"] = {"step": 1, "index": 1, "actions_left": 1}
    state["current"] = 1
    hand(state, 1, "petty-cash")
    state, _ = do(state, 1, "/tram use petty-cash:$1")
    # One action done, but the free Station Master move is still open: green keeps the turn.
    assert state["current"] == 1 and state["turn"]["actions_left"] == 0
    assert "Station Master free move" in GAME_status(state)
    state, _ = do(state, 1, "/tram done")  # saving him for the double-action round costs nothing yet
    assert state["players"][1]["stress"] == 0 and state["turn"]["step"] == 2 and state["current"] == 0
    state, _ = do(state, 0, "/tram done")
    assert state["current"] == 1 and state["turn"]["actions_left"] == 2
    state, _ = do(state, 1, "/tram done")  # the end of green's 3 actions: +2 stress
    assert state["players"][1]["stress"] == 2 and state["phase"] == "admin"


def GAME_status(state: dict) -> str:
    from games.tramways import GAME

    return GAME.status(state).summary
