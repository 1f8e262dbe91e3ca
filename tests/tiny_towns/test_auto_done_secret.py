"""Reference rule 8: a player with no possible build is done automatically, their secret monument
included. When only that monument decides, being done (or not) tells the others something about it,
so the move that led there is flagged irreversible: hidden information came out."""

from __future__ import annotations

from games.tiny_towns.flow import maybe_auto_done
from games.tiny_towns.town import has_any_build
from tests.tiny_towns.helpers import game, with_town

# Cathedral of Caterina is ".H / SG": these three cubes fit it and no first-game building.
CATHEDRAL_CUBES = ". H . . / S G . . / . . . . / . . . ."


def _placed(monument: str, cells: str = CATHEDRAL_CUBES) -> dict:
    state = game(players=2, monuments="on")
    state["phase"] = "place"
    state = with_town(state, 1, cells, monument=monument, placed=True, done=False)
    assert not has_any_build(state, 1, "public")
    return state


def test_the_kept_monument_that_fits_keeps_its_owner_building_and_is_a_reveal() -> None:
    state, events = _placed("cathedral-of-caterina"), []
    maybe_auto_done(state, 1, events)
    assert not state["towns"][1]["done"]
    assert any(e.get("irreversible") for e in events)


def test_a_monument_that_does_not_fit_leaves_its_owner_done_automatically_and_is_a_reveal() -> None:
    state, events = _placed("grand-mausoleum-of-the-rodina"), []
    maybe_auto_done(state, 1, events)
    assert state["towns"][1]["done"]  # the reference: no possible build, so done automatically
    assert any(e.get("irreversible") for e in events)


def test_nothing_is_revealed_when_no_monument_could_decide() -> None:
    state, events = _placed("grand-mausoleum-of-the-rodina", ". H . . / . . . . / . . . . / . . . ."), []
    maybe_auto_done(state, 1, events)
    assert state["towns"][1]["done"] and not any(e.get("irreversible") for e in events)
