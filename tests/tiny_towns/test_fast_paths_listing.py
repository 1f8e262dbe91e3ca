"""Issue 14's fourth pass: legal_moves copies each square's plain place move from one table
(rules._PLACES) rather than building it, and lists them in the same pass that finds the buildings
reacting to the resource; the listing must be the plain one and hand out moves of its own."""

from __future__ import annotations

from typing import Any

from games.base import MOVE_KEY
from games.tiny_towns import GAME, flow, rules
from games.tiny_towns.content import CATALOGUE, RESOURCES, RULES
from games.tiny_towns.patterns import CELL_NAMES
from games.tiny_towns.town import bank_resources, has_built
from tests.tiny_towns.helpers import at_place_phase, game, seeded_states, with_town


def test_place_moves_are_new_dicts_each_time() -> None:
    state = at_place_phase(game(players=2, seed=3))
    # Both seats: the Master Builder's listing (its own resource) and the other's (named by another).
    assert len(GAME.status(state).to_act) == 2
    for seat in GAME.status(state).to_act:
        first = GAME.legal_moves(state, seat)
        assert first == [{MOVE_KEY: "place", "cell": name} for name in CELL_NAMES]
        for move in first:
            move["cell"] = "Z9"  # a caller may change what it was given
            move["resource"] = "stone"
        again = GAME.legal_moves(state, seat)
        assert again == [{MOVE_KEY: "place", "cell": name} for name in CELL_NAMES]
        assert all(a is not b for a, b in zip(first, again, strict=True))
    assert tuple({MOVE_KEY: "place", "cell": name} for name in CELL_NAMES) == rules._PLACES


def _plain_place_moves(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """The placing moves as the rules say them, one square at a time (before issue 14's passes)."""
    town = state["towns"][seat]
    cells = town["cells"]
    empties = [i for i, cell in enumerate(cells) if cell is None]
    buildings = [(i, cell) for i, cell in enumerate(cells) if cell is not None and "building" in cell]
    if state["source"] == "free":
        banked = bank_resources(cells)
        allowed = [r for r in RESOURCES if r not in banked] if len(banked) < len(RESOURCES) else list(RESOURCES)
        return [{MOVE_KEY: "place", "cell": CELL_NAMES[i], "resource": r} for i in empties for r in allowed]
    other = flow.named_by_other(state, seat)
    named = state["resource"]
    moves: list[dict[str, Any]] = []
    factory = other and any(c["building"] == "factory" and c.get("holds") == named for _, c in buildings)
    for i in empties:
        moves.append({MOVE_KEY: "place", "cell": CELL_NAMES[i]})
        if factory:
            moves.extend({MOVE_KEY: "place", "cell": CELL_NAMES[i], "resource": r} for r in RESOURCES if r != named)
    if not other:
        return moves
    if has_built(town, "statue-of-the-bondmaker"):
        for i, cell in buildings:
            if cell["building"] == "cottage" and not cell.get("bond"):
                moves.append({MOVE_KEY: "place", "cell": CELL_NAMES[i]})
    for i, cell in buildings:
        if cell["building"] == "warehouse":
            if len(cell["stored"]) < CATALOGUE["warehouse"]["capacity"]:
                moves.append({MOVE_KEY: "store", "cell": CELL_NAMES[i]})
            for kind in sorted(set(cell["stored"]), key=RESOURCES.index):
                moves.extend(
                    {MOVE_KEY: "store", "cell": CELL_NAMES[i], "swap": kind, "to": CELL_NAMES[j]} for j in empties
                )
    if state["cave_rule"] and state["source"] in ("master", "mayor") and town["cave_used"] < RULES["cave"]["max_uses"]:
        moves.append({MOVE_KEY: "cave"})
    return moves


GAMES = (
    (4, "monuments=on", 61),
    (4, "monuments=on cave=on", 62),
    (3, "monuments=on buildings=random", 63),
    (2, "variant=town-hall monuments=on", 64),
    (5, "monuments=on", 65),
    # Factories and Warehouses react to a resource named by another player.
    (4, "buildings=farm,well,chapel,tavern,theater,factory", 66),
    (4, "buildings=farm,well,chapel,tavern,theater,warehouse", 67),
)


def test_place_moves_are_the_plain_listing_on_seeded_games() -> None:
    checked = reacting = 0
    for players, options, seed in GAMES:
        for state in seeded_states(players, options, seed):
            if state["phase"] != "place":
                continue
            for seat, town in enumerate(state["towns"]):
                if town["placed"] or town["complete"] or town["resigned"]:
                    continue
                expected = _plain_place_moves(state, seat)
                assert rules.place_moves(state, seat) == expected
                checked += 1
                reacting += any(move[MOVE_KEY] != "place" or "resource" in move for move in expected)
    assert checked > 300
    assert reacting > 10  # listings with a substitute, a store, the cave or a free choice


TOWNS = (
    "factory:wood . W . / . . . . / . . . . / . . . .",
    "factory:stone . W . / . . . . / . . . . / . . . .",
    "warehouse:wood+stone . W . / . . . . / . . . . / . . . .",
    "warehouse:wood+wood+glass . W . / . . . . / . . . . / . . . .",
    "warehouse: cottage . . / . . . . / . . . . / . . . .",
    "cottage cottage^wood statue-of-the-bondmaker! . / . . . . / . . . . / . . . .",
    "well cottage W H / B G S W / H B G S / W H B .",
)


def test_place_moves_with_reacting_buildings_are_the_plain_listing() -> None:
    for buildings in ("farm,well,chapel,tavern,theater,factory", "farm,well,chapel,tavern,theater,warehouse"):
        base = at_place_phase(game(players=3, buildings=buildings, seed=5), "wood")
        for text in TOWNS:
            monument = "statue-of-the-bondmaker" if "statue" in text else None
            for seat in range(3):
                state = with_town(base, seat, text, monument=monument)
                assert rules.place_moves(state, seat) == _plain_place_moves(state, seat), (text, seat)


def test_bank_resources_is_the_plain_definition() -> None:
    # The Master Builder's listing and announce ask it: squares tested with "in" before any lookup.
    def plain(cells: list[Any]) -> set[str]:
        return {c["holds"] for c in cells if c and c.get("holds") and c.get("building") == "bank"}

    base = at_place_phase(game(players=2, buildings="farm,well,chapel,tavern,theater,bank", seed=4))
    towns = [
        with_town(base, 0, text)["towns"][0]["cells"]
        for text in (
            "bank:wood bank:stone W . / . . . . / . . . . / . . . .",
            "factory:wood bank:glass . . / . . . . / . . . . / . . . .",
            "bank cottage W H / . . . . / . . . . / . . . .",  # a Bank holding nothing yet
        )
    ]
    assert [bank_resources(cells) for cells in towns] == [{"wood", "stone"}, {"glass"}, set()]
    for players, options, seed in GAMES:
        for state in seeded_states(players, options, seed)[::5]:
            towns.extend(town["cells"] for town in state["towns"])
    assert all(bank_resources(cells) == plain(cells) for cells in towns)
