"""The state's top level as setup leaves it (what storage keeps, the views and the AI read), and
the auction display in round 6, which has no auction (settings auction_rounds 5)."""

from __future__ import annotations

from games.tramways import GAME
from games.tramways.content import SETTINGS
from games.tramways.rules import RULES_VERSION
from tests.tramways.conftest import crafted, do, new_game
from tests.tramways.test_draft import drafting

KEYS = {
    "game", "rules_version", "names", "modules", "boards", "tiles", "rng", "round", "phase", "order", "current",
    "turn", "auction", "display", "auction_deck", "dev_deck", "dev_display", "players", "parcels", "built",
    "passengers", "links", "rails", "building_tiles", "building_cards", "station_cards", "master", "move_number",
}  # fmt: skip


def test_setup_keys_random_and_drafted() -> None:
    state = new_game(2)
    assert set(state) == KEYS
    assert (state["game"], state["rules_version"], state["move_number"]) == ("tramways", RULES_VERSION, 0)
    assert (state["phase"], state["round"], state["current"]) == ("auction", 1, 0)
    draft = drafting(3)
    assert set(draft) == KEYS | {"draft"}
    assert (draft["game"], draft["phase"], draft["current"]) == ("tramways", "draft", 0)


def test_station_cards_only_with_the_station() -> None:
    assert new_game(2)["station_cards"] == 0
    assert new_game(5, exchange=True, park=True)["station_cards"] == 0
    # With the Station: one per player minus 1, at least 1 solo and 2 with two (settings station_cards).
    assert [new_game(n, station=True)["station_cards"] for n in (1, 2, 5)] == [1, 2, 4]


def test_round_six_has_an_empty_display_and_no_auction() -> None:
    state = crafted(["t-plain"] * 4, [])
    state["round"], state["phase"] = SETTINGS["auction_rounds"], "admin"
    state["turn"], state["current"] = {"index": 1, "discarded": False, "bought": False}, 1
    state, events = do(state, 1, "/tram done")
    assert state["round"] == 6 and state["display"] == []
    assert set(state) == KEYS
    texts = [e["text"] for e in events if "text" in e]
    assert "Round 6 of 6 begins." in texts
    assert not any(t.startswith("Auction cards on display") for t in texts)
    assert GAME.status(state).to_act == (0,)
