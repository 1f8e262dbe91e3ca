"""Every trip a passenger can take from a place (links.routes, which the move list and the bots use):
at most 4 links (settings max_trip_links), each place visited once, found in the order the links were
laid; listed by hand for a triangle of links with a chain leading off it."""

from __future__ import annotations

from typing import Any

from games.tramways import links
from tests.tramways.conftest import add_link, crafted

PAIRS = ["t-pair", "t-pair", "t-pair", "t-pair"]  # Residences R1-R8 and Commercials C1-C4: twelve buildings


def triangle_and_chain() -> dict[str, Any]:
    """Links 1 R1-R2, 2 R2-R3, 3 R1-R3 (a triangle), then the chain 4 R3-R4, 5 R4-R5, 6 R5-R6, 7 R6-R7."""
    state = crafted(PAIRS, [])
    ends = [("R1", "R2"), ("R2", "R3"), ("R1", "R3"), ("R3", "R4"), ("R4", "R5"), ("R5", "R6"), ("R6", "R7")]
    for index, (a, b) in enumerate(ends):
        add_link(state, index % 2, [f"Z{index}"], [a, b])
    return state


def test_every_trip_from_a_corner_of_the_triangle() -> None:
    state = triangle_and_chain()
    expected = [
        ((1,), "R2"),
        ((1, 2), "R3"),
        ((1, 2, 4), "R4"),
        ((1, 2, 4, 5), "R5"),
        ((3,), "R3"),
        ((3, 2), "R2"),
        ((3, 4), "R4"),
        ((3, 4, 5), "R5"),
        ((3, 4, 5, 6), "R6"),  # R7 is five links away
    ]
    assert links.routes(state, "R1") == expected
    assert links.routes(state, "R1", links.graph(state)) == expected


def test_routes_over_a_given_map_of_links_and_from_a_place_without_links() -> None:
    state = triangle_and_chain()
    assert links.routes(state, "R1", {"R1": [(1, "R2")], "R2": [(1, "R1")]}) == [((1,), "R2")]
    assert links.routes(state, "C1") == []
    assert links.routes(state, "R7") == [((7,), "R6"), ((7, 6), "R5"), ((7, 6, 5), "R4"), ((7, 6, 5, 4), "R3")]
