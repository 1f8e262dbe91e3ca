"""Seeded random and bot playouts with invariants, the AI against random players, and images."""

from __future__ import annotations

import json

import pytest

from games.tramways import GAME
from games.tramways.content import SETTINGS
from games.tramways.rules import redeal
from games.tramways.scoring import standings
from rendering.tramways import render_board

ALL = {"station": True, "exchange": True, "park": True, "master": True}


def _cards(state: dict) -> int:
    total = len(state["display"]) + len(state["dev_display"]) + len(state["dev_deck"]) + len(state["auction_deck"])
    return total + sum(len(p[z]) for p in state["players"] for z in ("deck", "hand", "discard"))


def check_invariants(before: dict, after: dict, move: dict) -> None:
    # One owner per rail cell: the rails map and the links' cells agree exactly.
    cells = [c for link in after["links"] for c in link["cells"]]
    assert len(cells) == len(set(cells))
    assert after["rails"] == {c: link["id"] for link in after["links"] for c in link["cells"]}
    for seat, p in enumerate(after["players"]):
        assert p["money"] >= 0 and 0 <= p["stress"] <= SETTINGS["stress_max"] and p["workers"] >= 0
        placed = sum(len(link["cells"]) for link in after["links"] if link["owner"] == seat)
        assert p["rails_left"] + placed == SETTINGS["rail_tiles"]
    # HP only comes from the rules' sources: it never falls except overstressed at a round's end.
    if after["round"] == before["round"] and after["phase"] != "over":
        assert all(a["hp"] >= b["hp"] for a, b in zip(after["players"], before["players"], strict=True))
    # Money is conserved between players: a payment from one is income of another, and the bank
    # only pays for the player's own rails, the Stock Exchange and icons, or takes bids and costs.
    if move["verb"] == "move":
        movers = [after["players"][s]["money"] - before["players"][s]["money"] for s in range(len(after["players"]))]
        others = sum(d for s, d in enumerate(movers) if s != before["current"])
        assert others >= 0  # other players only receive during a trip
    # Cards never appear or vanish except the taken Station and building cards.
    gained = sum(before["building_cards"].values()) - sum(after["building_cards"].values())
    gained += before["station_cards"] - after["station_cards"]
    removed = 0
    if before["phase"] == "take" and after["phase"] != "take":
        removed = len(before["display"]) - 1  # leftovers of the display leave the game
    assert (
        _cards(after) == _cards(before) + gained - removed
        or after["round"] != before["round"]
        or after["phase"] == "over"
    )
    # The state survives JSON unchanged.
    assert json.loads(json.dumps(after)) == after


def play(players: int, seed: int, options: dict, levels: tuple[int, ...], invariants: bool = True) -> dict:
    state = GAME.setup([f"p{i}" for i in range(players)], options, seed)
    steps = 0
    while not GAME.status(state).finished:
        seat = GAME.status(state).to_act[0]
        move = GAME.bot_move(state, seat, levels[seat % len(levels)])
        after, events = GAME.apply(state, seat, move)
        if invariants:
            check_invariants(state, after, move)
        state = after
        steps += 1
        assert steps < 2000
    return state


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("options", [{}, ALL, {"park": True}, {"exchange": True}, {"station": True}])
def test_random_playouts_keep_the_invariants(players, options):
    final = play(players, 7 + players, options, (0,))
    assert final["phase"] == "over" and final["round"] == SETTINGS["rounds"]
    assert [row["seat"] for row in standings(final)]


@pytest.mark.parametrize("players", [2, 4, 5])
def test_bot_playouts_keep_the_invariants(players):
    final = play(players, 3, ALL, (1, 0))
    assert final["phase"] == "over"


def test_ai_beats_random_players():
    """The full 200-game figure is in bench/bench_tramways.py; here 24 seeded games, 2 players."""
    wins = 0
    for seed in range(24):
        ai = seed % 2
        state = GAME.setup(["p0", "p1"], ALL if seed % 3 == 0 else {}, 1000 + seed)
        while not GAME.status(state).finished:
            seat = GAME.status(state).to_act[0]
            move = GAME.bot_move(state, seat, 1 if seat == ai else 0)
            state, _ = GAME.apply(state, seat, move)
        table = standings(state)
        wins += table[0]["seat"] == ai and table[1]["rank"] > 1
    assert wins >= 23  # how long a level-1 move takes is measured by bench/bench_tramways.py


def test_redeal_keeps_others_views():
    state = GAME.setup(["a", "b", "c"], ALL, 5)
    other = redeal(state, 1, 99)
    assert (
        other["players"][1]["hand"] != state["players"][1]["hand"]
        or other["players"][1]["deck"] != state["players"][1]["deck"]
    )
    for viewer in (None, 0, 2):
        assert GAME.view(state, viewer) == GAME.view(other, viewer)
    assert "rng" not in json.dumps(GAME.view(state, None))


@pytest.mark.parametrize("players", [1, 3, 5])
def test_board_images_are_small_pngs(players):
    state = play(players, 11, ALL, (1, 0), invariants=False)
    png = render_board(GAME.view(state, 0), 0)
    assert png.startswith(b"\x89PNG") and len(png) < 300_000
