"""The parcel draft move by move (option parcels=draft, the Grand Station rulebook's advanced rule):
what each pick says and owns at once, the refusal of a parcel already taken, every event of the pick
that ends the draft (with its flags), the state it leaves (shaped as a random deal's), and the snake
order when the settings deal more parcels per player."""

from __future__ import annotations

import pytest

from games.tramways import GAME
from games.tramways.content import SETTINGS
from tests.tramways.conftest import do, refused
from tests.tramways.test_draft import drafting


def test_each_pick_is_announced_and_owned_at_once() -> None:
    state = drafting(2)
    picks = [
        (0, "P3", {"P3": 0}),
        (1, "P1", {"P3": 0, "P1": 1}),
        (1, "P2", {"P3": 0, "P1": 1, "P2": 1}),
    ]
    names = ["ann", "bob"]
    for seat, label, owned in picks:
        assert GAME.status(state).to_act == (seat,)
        state, events = do(state, seat, f"/tram draft {label.lower()}")
        assert events == [{"text": f"{names[seat]} drafts parcel {label}."}]
        assert state["parcels"] == owned
        assert state["draft"]["taken"][str(seat)][-1] == label


def test_a_parcel_already_taken_is_refused_with_the_parcels_left() -> None:
    state = drafting(2)
    state, _ = do(state, 0, "/tram draft P3")
    assert refused(state, 1, "/tram draft P3", parse=True) == (
        "P3 is not a parcel left in the draft. Left: P1, P2, P4, P5, P6, P7, P8."
    )


def test_the_last_pick_ends_the_draft_deals_and_starts_round_one() -> None:
    state = drafting(2)
    for seat, label in ((0, "P3"), (1, "P1"), (1, "P2")):
        state, _ = do(state, seat, f"/tram draft {label}")
    state, events = do(state, 0, "/tram draft P4")
    assert events == [
        {"text": "ann drafts parcel P4."},
        {"text": "The parcel draft is over.", "irreversible": True, "post_board": True},
        {"text": "ann draws 5 cards.", "irreversible": True},
        {
            "private": {"seat": 0, "text": "You drew: Petty Cash, Commuter, Shift Worker, High Street, Suburb."},
            "irreversible": True,
        },
        {"text": "bob draws 5 cards.", "irreversible": True},
        {
            "private": {"seat": 1, "text": "You drew: Foreman, Suburb, Parcel P2, Shift Worker, High Street."},
            "irreversible": True,
        },
        {"text": "Round 1 of 6 begins.", "post_board": True},
        {"text": "Auction cards on display: Parcel P5, Delivery, Contractor.", "irreversible": True},
    ]
    assert state["parcels"] == {"P3": 0, "P4": 0, "P1": 1, "P2": 1}
    # Once dealt, a drafted game holds exactly what a game dealt at random holds (no draft left over).
    assert sorted(state) == sorted(GAME.setup(["ann", "bob"], {}, 4))
    assert (state["phase"], state["round"], state["current"]) == ("auction", 1, 0)


@pytest.mark.parametrize(
    ("order", "picks"),
    [
        ("snake", [0, 1, 2, 2, 1, 0, 0, 1, 2]),
        ("same", [0, 1, 2, 0, 1, 2, 0, 1, 2]),
    ],
)
def test_three_parcels_each_snake_back_and_forth(order: str, picks: list[int]) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(SETTINGS, "parcels_per_player", 3)
        patch.setitem(SETTINGS, "draft_order", order)
        assert drafting(3)["draft"]["picks"] == picks
