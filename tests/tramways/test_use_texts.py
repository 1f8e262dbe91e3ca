"""/tram use with a move dict that names no card (actions.use): apply takes move dicts as they come,
and a missing card is refused like an empty one."""

from __future__ import annotations

from tests.tramways.conftest import crafted, hand, refused

PARK = ["t-park", "t-plain", "t-plain", "t-plain"]


def test_a_use_without_a_card_is_refused_like_an_empty_one() -> None:
    state = crafted(PARK, [])
    hand(state, 0, "petty-cash")
    text = '"" must name a card and the icons used from it, like track-crew:rail+rail.'
    assert refused(state, 0, {"verb": "use"}) == text
    assert refused(state, 0, {"verb": "use", "card": ""}) == text
