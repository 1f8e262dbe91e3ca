"""The parcel draft the Grand Station rulebook recommends ("draft your starting parcel cards,
rather than drawing them at random"): option parcels=draft, a snake draft (settings)."""

from __future__ import annotations

import pytest

from games.base import IllegalMove
from games.options import parse_options
from games.tramways import GAME
from games.tramways.content import SETTINGS, parcel_card_slug
from games.tramways.movegen import legal_moves
from tests.tramways.conftest import do

ALL = {"station": True, "exchange": True, "park": True, "master": True}


def drafting(players: int = 3, seed: int = 4, **modules: bool) -> dict:
    options = parse_options({"parcels": "draft", **{k: "on" for k, v in modules.items() if v}}, GAME.options)
    return GAME.setup(["ann", "bob", "cat", "dan", "eve"][:players], options, seed)


def test_the_draft_is_an_option_and_random_stays_the_default():
    assert parse_options("", GAME.options)["parcels"] == "random"
    assert GAME.setup(["ann", "bob"], {}, 4)["phase"] == "auction"
    state = drafting()
    assert state["phase"] == "draft" and state["round"] == 0 and state["parcels"] == {}
    assert all(not p["hand"] and not p["deck"] for p in state["players"])
    assert GAME.status(state).summary == "Parcel draft: ann to take a starting parcel"


def test_snake_order_every_parcel_face_up_and_the_rest_go_to_the_auction_deck():
    state = drafting(3)
    pool = list(state["draft"]["pool"])
    assert len(pool) == len([p for p in pool if p.startswith("P")]) and len(pool) >= 6
    order = []
    picks = ["P1", "P2", "P3", "P4", "P5", "P6"]
    for label in picks:
        seat = GAME.status(state).to_act[0]
        order.append(seat)
        assert {m["parcel"] for m in legal_moves(state, seat)} == set(state["draft"]["pool"])
        state, _ = do(state, seat, f"/tram draft {label}")
    assert order == [0, 1, 2, 2, 1, 0]
    assert state["parcels"] == {"P1": 0, "P6": 0, "P2": 1, "P5": 1, "P3": 2, "P4": 2}
    assert state["phase"] == "auction" and state["round"] == 1 and "draft" not in state
    for seat, mine in enumerate((["P1", "P6"], ["P2", "P5"], ["P3", "P4"])):
        player = state["players"][seat]
        owned = [c for c in player["deck"] + player["hand"] if c.startswith("parcel-")]
        assert sorted(owned) == sorted(parcel_card_slug(p) for p in mine)
        assert len(player["hand"]) == SETTINGS["hand_limit"]
    rest = {parcel_card_slug(p) for p in pool if p not in picks}
    assert rest <= set(state["auction_deck"]) | set(state["display"])


def test_a_taken_parcel_cannot_be_drafted_again():
    state = drafting(2)
    state, _ = do(state, 0, "/tram draft P3")
    with pytest.raises(IllegalMove, match="not a parcel left"):
        do(state, 1, "/tram draft P3")
    with pytest.raises(IllegalMove):
        do(state, 0, "/tram draft P4")  # not ann's turn


def test_same_order_setting(monkeypatch):
    monkeypatch.setitem(SETTINGS, "draft_order", "same")
    state = drafting(3)
    assert state["draft"]["picks"] == [0, 1, 2, 0, 1, 2]


def test_a_seat_resigning_during_the_draft_is_skipped():
    state = drafting(3)
    state, _ = do(state, 0, "/tram draft P1")
    state, _ = GAME.resign(state, 1)
    assert GAME.status(state).to_act == (2,)
    while state["phase"] == "draft":
        seat = GAME.status(state).to_act[0]
        state, _ = GAME.apply(state, seat, GAME.bot_move(state, seat, 1))
    assert sorted(s for s in state["parcels"].values()) == [0, 0, 2, 2]


@pytest.mark.parametrize("players", [1, 2, 5])
@pytest.mark.parametrize("level", [0, 1])
def test_complete_games_with_the_draft(players, level):
    state = drafting(players, 9, **ALL)
    while not GAME.status(state).finished:
        seat = GAME.status(state).to_act[0]
        state, _ = GAME.apply(state, seat, GAME.bot_move(state, seat, level))
    assert len(state["parcels"]) >= 2 * players


def test_the_level_1_bot_drafts_a_parcel_near_busy_places():
    from games.tramways.strategy import parcel_value

    state = drafting(2, 5)
    move = GAME.bot_move(state, 0, 1)
    best = max(parcel_value(state, p) for p in state["draft"]["pool"])
    assert parcel_value(state, move["parcel"]) == best
