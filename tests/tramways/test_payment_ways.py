"""Money once a way's cards are played (payment.Way.money_after), which the move list uses to keep
only the ways that leave enough for the action's cost: the cards' $ icons first, then $1 per card with
the "pay" consequence while money is left (reference: "Some cards carry a consequence ... applied when
played"; actions.play_cards), the same order apply uses."""

from __future__ import annotations

from games.tramways.movegen import legal_moves
from games.tramways.payment import Gains, Way
from tests.tramways.conftest import crafted, do, hand, refused

PARK = ["t-park", "t-plain", "t-plain", "t-plain"]  # Residence R1 at E3, parcel P1 at C5


def test_money_after_worked_examples() -> None:
    assert Way((), Gains(), 0).money_after(3) == 3
    assert Way((), Gains(money=2), 1).money_after(3) == 4  # $3 + $2, then $1 to pay
    assert Way((), Gains(), 2).money_after(3) == 1
    assert Way((), Gains(), 2).money_after(1) == 0  # only the $1 there is paid (the rest is stress)
    assert Way((), Gains(money=1), 1).money_after(0) == 0


def upgradable(money: int) -> dict:
    """Orange's Residence on P1, not yet upgraded ($3); orange holds a City Hall (build up c, pay $1)
    and a Builder (build build $1)."""
    state = crafted(PARK, [], parcels={"P1": 0}, built={"P1": "R"})
    hand(state, 0, "city-hall", "builder")
    state["players"][0]["money"] = money
    return state


def upgrades(state: dict) -> list[list[str]]:
    return sorted(m["cards"] for m in legal_moves(state, 0) if m["verb"] == "upgrade-building")


def test_a_pay_card_is_listed_only_when_the_upgrade_stays_affordable() -> None:
    # With $3 the City Hall's $1 leaves $2 of the $3: not listed, and apply refuses it.
    state = upgradable(3)
    assert upgrades(state) == [["builder:build"], ["builder:build+$1"]]
    assert refused(state, 0, "/tram upgrade-building P1 with city-hall:build", parse=True) == (
        "Upgrading a building costs $3; you have $2."
    )
    # With $4 it leaves $3: listed, and apply takes it.
    richer = upgradable(4)
    assert upgrades(richer) == [["builder:build"], ["builder:build+$1"], ["city-hall:build"]]
    richer, events = do(richer, 0, "/tram upgrade-building P1 with city-hall:build")
    assert [e["text"] for e in events] == ["orange upgrades P1 for $3 (playing City Hall; City Hall: pays $1)."]
    assert richer["players"][0]["money"] == 0
