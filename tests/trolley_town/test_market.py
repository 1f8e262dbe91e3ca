"""The building market (reference, "The building market"): basic piles with one face-up top a
round, the 4-player Rebuild tile, the two V piles, the A/B row with its round marker, sliding,
refilling and the end-of-round shift, the first-game option, and views that show only tops."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.base import IllegalMove
from games.trolley_town import GAME
from games.trolley_town.content import SPECIALS, TILES
from tests.trolley_town.helpers import (
    copy,
    do,
    game,
    next_round,
    play,
    put,
    rejected,
    res,
    texts,
    to_act,
    totals,
)


def _rich(s: dict) -> dict:
    """Give every player plenty of wood and stone (a Woodcutter's Hut and a Stone Quarry, full)."""
    for seat in range(len(s["names"])):
        put(s, "-1,0", "woodcutters-hut", seat, wood=2)
        put(s, "2,0", "stone-quarry", seat, stone=3)
    return s


def _builds(s: dict, seat: int) -> set[str]:
    return {m["tile"] for m in GAME.legal_moves(s, seat) if m["verb"] == "build" and not m.get("rebuild")}


# ---------------------------------------------------------------- basic piles


def test_basic_piles_at_setup() -> None:
    s = game(3)
    assert s["market"]["basic"] == [
        {"tile": "field", "left": 3, "up": True},
        {"tile": "field", "left": 3, "up": True},
        {"tile": "charcoal-kiln", "left": 4, "up": True},
        {"tile": "meadow", "left": 4, "up": True},
        {"tile": "bakery", "left": 3, "up": True},
        {"tile": "ranch", "left": 3, "up": True},
    ]
    assert s["market"]["rebuild"] is None


def test_a_built_basic_top_leaves_the_next_face_down_until_next_round() -> None:
    s = game(2)
    s = do(s, 0, "/trolley build bakery 0,1")
    assert s["market"]["basic"][4] == {"tile": "bakery", "left": 2, "up": False}
    assert "bakery" not in _builds(s, 1)
    message = rejected(s, 1, "/trolley build bakery 0,1")
    assert message.startswith("Bakery is not available to build now. Available: ")
    assert "bakery" not in message.split("Available: ")[1].split(", ")
    s = next_round(s)
    assert s["market"]["basic"][4] == {"tile": "bakery", "left": 2, "up": True}
    assert "bakery" in _builds(s, to_act(s)[0])


def test_field_has_two_piles_so_two_fields_a_round() -> None:
    s = game(2)
    s = do(s, 0, "/trolley build field 0,1")
    assert "field" in _builds(s, 1)
    s = do(s, 1, "/trolley build field 0,1")
    assert [p["left"] for p in s["market"]["basic"][:2]] == [2, 2]
    assert [p["up"] for p in s["market"]["basic"][:2]] == [False, False]
    assert "Field is not available" in rejected(s, 0, "/trolley build field 1,1")


def test_an_empty_basic_pile_stays_empty() -> None:
    s = game(2)
    s["market"]["basic"][5]["left"] = 1
    s = _rich(s)
    s = do(s, 0, "/trolley build ranch 0,1")
    s = next_round(s)
    assert s["market"]["basic"][5] == {"tile": "ranch", "left": 0, "up": False}
    assert "ranch" not in _builds(s, to_act(s)[0])


# ---------------------------------------------------------------- the Rebuild tile


def test_rebuild_tile_only_with_four_players() -> None:
    assert game(4)["market"]["rebuild"] == {"up": True}
    for players in (1, 2, 3):
        assert game(players)["market"]["rebuild"] is None
    s = do(game(3), 0, "/trolley build meadow 0,1")
    assert rejected(s, 1, "/trolley build meadow 0,1 rebuild").startswith("Meadow is not available to build now.")
    assert not [m for m in GAME.legal_moves(s, 1) if m.get("rebuild")]


def test_rebuild_turns_up_a_face_down_basic_and_builds_it_once_a_round() -> None:
    s = game(4)
    s = do(s, 0, "/trolley build meadow 0,1")
    assert rejected(s, 1, "/trolley build meadow 0,1") == (
        "Meadow can only be built with rebuild (it is face down: use the Rebuild tile)."
    )
    offered = {m["tile"] for m in GAME.legal_moves(s, 1) if m.get("rebuild")}
    assert offered == {"meadow"}  # only face-down basics
    s, events = play(s, 1, "/trolley build meadow 0,1 rebuild")
    # the Meadow's 1 wood + 1 stone and the Rebuild tile's 1 wood
    assert totals(s, 1) == {"sheep": 2, "stone": 2, "wood": 1}
    assert res(s, "0,1", 1) == {"sheep": 2}
    assert texts(events)[0] == "bob builds Meadow with the Rebuild tile at 0,1, paying 1 stone + 2 wood."
    assert s["market"]["rebuild"] == {"up": False}
    assert s["market"]["basic"][3] == {"tile": "meadow", "left": 2, "up": False}
    # once a round: cat cannot use it now, for the Meadow or anything else built face down
    s = do(s, 2, "/trolley build bakery 0,1")
    assert rejected(s, 3, "/trolley build bakery 0,1 rebuild").startswith("Bakery is not available")
    assert not [m for m in GAME.legal_moves(s, 3) if m.get("rebuild")]
    s = next_round(s)
    assert s["market"]["rebuild"] == {"up": True}
    assert s["market"]["basic"][3]["up"] is True


def test_rebuild_is_refused_for_a_face_up_basic() -> None:
    s = game(4)
    assert rejected(s, 0, "/trolley build field 0,1 rebuild") == "Field can only be built without rebuild."


def test_rebuild_needs_the_extra_wood() -> None:
    s = game(4)
    s = do(s, 0, "/trolley build meadow 0,1")
    s["towns"][1]["cells"]["0,0"]["r"] = {"wood": 1}
    assert rejected(s, 1, "/trolley build meadow 0,1 rebuild") == (
        "That costs 2 wood + 1 stone; you have 1 wood and 3 stone on your tiles."
    )


# ---------------------------------------------------------------- V piles


def test_two_v_piles_of_six_and_only_their_tops_are_buildable() -> None:
    s = _rich(game(2))
    v = s["market"]["v"]
    assert [len(p) for p in v] == [6, 6]
    assert sorted(v[0] + v[1]) == sorted(SPECIALS["V"])
    top, second = v[0][0], v[0][1]
    assert {top, v[1][0]} <= _builds(s, 0)
    assert second not in _builds(s, 0) and v[1][1] not in _builds(s, 0)
    assert "is not available to build now" in rejected(s, 0, f"/trolley build {second} 0,1")
    s = do(s, 0, f"/trolley build {top} 0,1")
    assert s["market"]["v"][0] == v[0][1:]
    assert second in _builds(s, 1)


# ---------------------------------------------------------------- the A/B row


def _tiles_of(market: dict[str, Any]) -> list[str]:
    found = [t for t in market["row"] if t] + market["a"] + market["b"]
    return found + [t for pile in market["v"] for t in pile]


def test_round_one_row_is_six_b_tiles_from_the_b_pile() -> None:
    s = game(2)
    m = s["market"]
    assert m["marker"] == 0
    assert len(m["row"]) == 6 and all(TILES[t].pile == "B" for t in m["row"])
    assert len(m["b"]) == 24 - 6 and len(m["a"]) == 22
    assert sorted(m["row"] + m["b"]) == sorted(SPECIALS["B"])
    assert sorted(m["a"]) == sorted(SPECIALS["A"])


def test_the_deal_depends_on_the_seed() -> None:
    assert game(2, seed=1)["market"] != game(2, seed=2)["market"]
    assert game(2, seed=5)["market"] == game(2, seed=5)["market"]


@pytest.mark.parametrize("slot", [0, 2, 5])
def test_building_a_b_slot_slides_the_b_side_towards_the_marker_and_refills_the_outer_end(slot: int) -> None:
    s = _rich(game(2))
    row, b = list(s["market"]["row"]), list(s["market"]["b"])
    s, events = play(s, 0, f"/trolley build {row[slot]} 0,1")
    assert s["market"]["row"] == row[:slot] + row[slot + 1 :] + [b[0]]
    assert s["market"]["b"] == b[1:]
    assert events[0]["irreversible"] is True  # a hidden tile turned up


def _round(r: int, players: int = 2) -> dict:
    s = _rich(game(players))
    while s["round"] < r:
        s = next_round(s)
    return _rich(s)  # full again for building


def test_building_an_a_slot_slides_the_a_side_and_refills_slot_zero_from_the_a_pile() -> None:
    s = _round(3)
    m = s["market"]
    assert m["marker"] == 2
    row, a, b = list(m["row"]), list(m["a"]), list(m["b"])
    seat = to_act(s)[0]
    s = do(s, seat, f"/trolley build {row[1]} 0,1")  # the A slot beside the marker
    assert s["market"]["row"] == [a[0], row[0]] + row[2:]
    assert s["market"]["a"] == a[1:] and s["market"]["b"] == b
    seat = to_act(s)[0]
    row2 = list(s["market"]["row"])
    s = do(s, seat, f"/trolley build {row2[0]} 0,1")  # the outer A slot
    assert s["market"]["row"] == [a[1]] + row2[1:]


def test_building_a_b_slot_in_round_two_leaves_the_a_slot_alone() -> None:
    s = _round(2)
    m = s["market"]
    row, b = list(m["row"]), list(m["b"])
    seat = to_act(s)[0]
    s = do(s, seat, f"/trolley build {row[3]} 0,1")
    assert s["market"]["row"] == [row[0], row[1], row[2], row[4], row[5], b[0]]


def test_the_tops_of_the_a_and_b_piles_are_buildable() -> None:
    s = _rich(game(2))
    a, b, row = list(s["market"]["a"]), list(s["market"]["b"]), list(s["market"]["row"])
    assert {a[0], b[0]} <= _builds(s, 0)
    assert a[1] not in _builds(s, 0) and b[1] not in _builds(s, 0)
    s = do(s, 0, f"/trolley build {a[0]} 0,1")
    assert s["market"]["a"] == a[1:] and s["market"]["row"] == row
    s = do(s, 1, f"/trolley build {b[0]} 0,1")
    assert s["market"]["b"] == b[1:] and s["market"]["row"] == row
    assert a[1] in _builds(s, 0) and b[1] in _builds(s, 0)


def test_end_of_round_shift_moves_the_marker_and_swaps_the_jumped_b_tile_for_the_top_a_tile() -> None:
    s = game(2)
    history = []
    for r in (1, 2, 3, 4):
        assert s["round"] == r
        m = s["market"]
        assert m["marker"] == r - 1
        assert [TILES[t].pile for t in m["row"]] == ["A"] * (r - 1) + ["B"] * (7 - r)
        history.append(copy(m))
        if r < 4:
            s = next_round(s)
    for before, after in zip(history, history[1:], strict=False):
        k = before["marker"]
        assert after["row"] == before["row"][:k] + [before["a"][0]] + before["row"][k + 1 :]
        assert after["b"] == before["b"] + [before["row"][k]]  # the jumped B tile goes to the bottom
        assert after["a"] == before["a"][1:]
        assert sorted(_tiles_of(after)) == sorted(_tiles_of(before))


def test_first_game_puts_starred_tiles_at_the_bottom_of_their_piles() -> None:
    starred_a = sum(1 for t in SPECIALS["A"] if TILES[t].star)
    starred_b = sum(1 for t in SPECIALS["B"] if TILES[t].star)
    assert starred_a >= 2 and starred_b >= 2
    for seed in (1, 2, 3):
        m = game(2, seed=seed, first_game=True)["market"]
        a_stars = [TILES[t].star for t in m["a"]]
        assert a_stars == [False] * (22 - starred_a) + [True] * starred_a
        b_stars = [TILES[t].star for t in m["row"] + m["b"]]
        assert b_stars == [False] * (24 - starred_b) + [True] * starred_b
        assert not any(TILES[t].star for t in m["row"])


def test_without_first_game_starred_tiles_are_shuffled_in() -> None:
    early = 0
    for seed in range(1, 6):
        m = game(2, seed=seed)["market"]
        early += sum(1 for t in m["row"] + m["a"][:6] if TILES[t].star)
    assert early > 0


# ---------------------------------------------------------------- views show tops only


def _tile_names(value: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "tile" and isinstance(item, str):
                found.add(item)
            found |= _tile_names(item)
    elif isinstance(value, list):
        for item in value:
            found |= _tile_names(item)
    return found


@pytest.mark.parametrize("viewer", [None, 0, 1])
def test_views_show_pile_tops_and_counts_never_the_order_below(viewer: int | None) -> None:
    s = next_round(game(2))
    m = s["market"]
    view = GAME.view(s, viewer)
    text = json.dumps(view)
    hidden = m["a"][1:] + m["b"][1:] + [t for pile in m["v"] for t in pile[1:]]
    assert hidden
    for slug in hidden:
        assert f'"{slug}"' not in text, slug
    shown = _tile_names(view["market"])
    visible = {t for t in m["row"] if t} | {m["a"][0], m["b"][0]} | {p[0] for p in m["v"]}
    assert shown == visible | {p["tile"] for p in m["basic"]}
    vm = view["market"]
    assert vm["a_pile"]["left"] == len(m["a"]) and vm["b_pile"]["left"] == len(m["b"])
    assert [p["left"] for p in vm["v"]] == [6, 6]
    assert set(vm["a_pile"]) == {"top", "left"} and set(vm["b_pile"]) == {"top", "left"}
    assert "rng" not in text


# ---------------------------------------------------------------- solo market


def test_solo_uses_seven_chosen_basics_all_face_up_without_rebuild() -> None:
    s = game(1, basics=["field", "field", "field", "field", "charcoal-kiln", "bakery", "bakery"])
    assert s["market"]["basic"] == [{"tile": "field", "left": 1, "up": True}] * 4 + [
        {"tile": "charcoal-kiln", "left": 1, "up": True},
        {"tile": "bakery", "left": 1, "up": True},
        {"tile": "bakery", "left": 1, "up": True},
    ]
    assert s["market"]["rebuild"] is None
    s = _rich(s)
    s = do(s, 0, "/trolley build field 0,1")
    s = do(s, 0, "/trolley build field 1,1")
    s = do(s, 0, "/trolley build bakery 0,2")
    assert [p["left"] for p in s["market"]["basic"]] == [0, 0, 1, 1, 1, 0, 1]
    assert "meadow" not in _builds(s, 0) and "ranch" not in _builds(s, 0)


def test_solo_default_basics() -> None:
    s = game(1)
    assert [p["tile"] for p in s["market"]["basic"]] == [
        "field",
        "field",
        "meadow",
        "meadow",
        "charcoal-kiln",
        "bakery",
        "ranch",
    ]


@pytest.mark.parametrize(
    ("players", "basics", "message"),
    [
        (1, ["field"] * 6, "basics= needs 7 basic buildings"),
        (1, ["field"] * 6 + ["rebuild"], "basics= needs 7 basic buildings"),
        (1, ["field"] * 6 + ["restaurant"], "basics= needs 7 basic buildings"),
        (2, ["field"] * 7, "basics= is for solo games"),
    ],
)
def test_bad_basics_options_are_refused(players: int, basics: list[str], message: str) -> None:
    with pytest.raises(IllegalMove) as info:
        game(players, basics=basics)
    assert message in info.value.message


def test_solo_basic_piles_do_not_come_back() -> None:
    s = _rich(game(1))
    s = do(s, 0, "/trolley build ranch 0,1")
    s = next_round(s)
    assert "ranch" not in _builds(s, 0)
    assert s["market"]["basic"][6] == {"tile": "ranch", "left": 0, "up": False}
