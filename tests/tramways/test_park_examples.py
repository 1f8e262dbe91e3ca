"""The Park examples of the Grand Station rulebook, with Orange and Green, move for move."""

from __future__ import annotations

import pytest

from tests.tramways.conftest import crafted, do, hand

BOARDS = ["t-park", "t-plain", "t-ind", "t-plain"]


def park_city() -> dict:
    # Orange (seat 0) owns P1 at C5, built as a Leisure: "his Leisure on the left".
    return crafted(BOARDS, [("park", ["E5"])], modules={"park": True}, parcels={"P1": 0}, built={"P1": "L"})


def built_links() -> dict:
    """The double-action round of the example: Orange builds links A and B, Green C and D."""
    state = park_city()
    hand(state, 0, "foreman", "suburb", "track-crew", "high-street")
    state["players"][0]["workers"] = 2
    # Link A: 1 rail tile from the Residence to the Park; R icon as the destination; a rail worker.
    state, _ = do(state, 0, "/tram rails E3 E4 E5 dest R with foreman:rail suburb:r")
    orange = state["players"][0]
    assert state["links"][0]["ends"] == ["R1", "PARK"] and state["links"][0]["cells"] == ["E4"]
    assert orange["workers"] == 1 and orange["stress"] == 0
    # Link B: 1 rail tile from the Park to his Leisure; the L icon; a rail worker.
    state, _ = do(state, 0, "/tram rails E5 D5 C5 dest L with track-crew:rail high-street:l")
    assert state["links"][1]["ends"] == ["PARK", "P1"]
    assert state["players"][0]["workers"] == 0
    assert state["current"] == 1  # two actions: Green's turn
    hand(state, 1, "track-crew", "track-crew", "foreman", "suburb", "contractor", "rail-union")
    state["players"][1]["workers"] = 2
    # Link C: 3 rail tiles from the Residence to the Park, the R icon, a rail worker.
    state, _ = do(
        state, 1, "/tram rails E3 F3 F4 F5 E5 dest R with foreman:rail track-crew:rail track-crew:rail suburb:r"
    )
    assert state["links"][2]["ends"] == ["R1", "PARK"] and len(state["links"][2]["cells"]) == 3
    # Link D: 1 rail tile from the unowned Industry to the Park, the I icon, a rail worker.
    hand(state, 1, "contractor", "suburb")
    state, _ = do(state, 1, "/tram rails E7 E6 E5 dest I with contractor:rail suburb:i")
    assert state["links"][3]["ends"] == ["I1", "PARK"]
    green = state["players"][1]
    assert green["workers"] == 0 and green["stress"] == 0
    return state


def test_links_to_the_park_are_complete_and_take_the_other_ends_icon():
    state = built_links()
    assert all(link["ends"][1] is not None for link in state["links"])


def test_park_link_cannot_be_paid_with_anything_but_the_other_ends_icon():
    state = park_city()
    hand(state, 0, "foreman", "high-street")
    with pytest.raises(Exception, match="exactly"):
        do(state, 0, "/tram rails E3 E4 E5 dest C with foreman:rail high-street:c")


def next_round_for_green(state: dict) -> dict:
    state = dict(state)
    state["phase"], state["turn"] = "actions", {"step": 1, "index": 1, "actions_left": 1}
    state["current"] = 1
    for p in state["players"]:
        p["workers"], p["money"], p["stress"], p["hp"] = 0, 0, 1, 0
    return state


def test_green_moves_a_passenger_through_the_park_to_the_industry():
    state = next_round_for_green(built_links())
    hand(state, 1, "commuter", "suburb")
    state, events = do(state, 1, "/tram move R1 I1 via 3 4 with commuter:ticket suburb:i")
    green = state["players"][1]
    assert green["hp"] == 2  # 1 HP for each of his links C and D
    assert green["stress"] == 1  # -1 passing the Park, +1 at the Industry
    assert green["workers"] == 1  # the Industry's rail worker
    assert green["money"] == 4  # $4 from his 4 track segments
    assert state["players"][0]["hp"] == 0 and state["players"][0]["money"] == 0
    assert state["passengers"]["R1"] == 0
    text = events[0]["text"]
    assert text.index("+1 HP (link 3)") < text.index("Park") < text.index("I: +1 stress") < text.index("+$3")


def test_green_through_the_park_onto_oranges_link_to_the_leisure():
    state = next_round_for_green(built_links())
    hand(state, 1, "commuter", "high-street")
    state["players"][1]["deck"] = ["petty-cash"]
    state, events = do(state, 1, "/tram move R1 P1 via 3 2 with commuter:ticket high-street:l")
    orange, green = state["players"]
    assert orange["hp"] == 1 and green["hp"] == 1  # each earns 1 HP for their link
    assert green["stress"] == 0  # the Park takes 1 stress off
    assert "petty-cash" in green["hand"]  # the Leisure benefit: draw a card
    assert green["money"] == 3 - 1 and orange["money"] == 1  # earns $3, then pays Orange $1
    text = events[0]["text"]
    assert text.index("+$3 own rails") < text.index("pays orange $1")
