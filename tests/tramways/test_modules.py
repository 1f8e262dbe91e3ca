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
