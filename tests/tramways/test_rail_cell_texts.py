"""Rails across a cell that is built on (links.plan_rails), word for word: only plain and hill cells
take rails (reference: "on empty non-water cells"); a building's cell that is not the last named one
does not end the link there."""

from __future__ import annotations

from tests.tramways.conftest import crafted, hand, refused

# t-crowded: Residence R1 at B1, Residence R2 at C1, plain D1; parcel P3 at C2.
CROWDED = ["t-crowded", "t-plain", "t-plain", "t-plain"]


def test_rails_cannot_cross_a_building_or_a_parcel() -> None:
    state = crafted(CROWDED, [])
    hand(state, 0, "track-crew", "foreman")
    assert refused(state, 0, "/tram rails B1 C1 D1 with track-crew:rail+rail", parse=True) == (
        "C1 is built on: rails go on plain and hill cells."
    )
    assert refused(state, 0, "/tram rails B1 B2 C2 D2 with track-crew:rail+rail foreman:rail", parse=True) == (
        "C2 is built on: rails go on plain and hill cells."
    )
