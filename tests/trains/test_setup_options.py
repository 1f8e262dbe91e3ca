"""Setting up a game of Trains, option by option: the player count, the map option's refusals and spelling, the
kingdom option (a list or a comma/space separated text, its refusals word for word, the rest drawn from the
seed, the order shown), the supply counts and each player's starting zones. Written against mutants
bench/mutation.sh left alive in rules.setup and rules._kingdom (every test before used a valid kingdom list).
"""

from __future__ import annotations

from collections import Counter

import pytest

from games.base import IllegalMove
from games.trains import rules
from games.trains.content import CARDS, KINGDOM

NAMES = ["ann", "bob", "cat", "dan", "eve"]
EIGHT = ["tunnel", "steel-bridge", "viaduct", "landfill", "transfer", "timetable", "freight-train", "coupling"]


def _refusal(players, options) -> str:
    with pytest.raises(IllegalMove) as refused:
        rules.setup(players, options, 1)
    return refused.value.message


def test_two_to_four_players(tr):
    for n in (0, 1, 5):
        assert _refusal(NAMES[:n], {}) == "Trains needs 2 to 4 players."
    for n in (2, 3, 4):
        state = rules.setup(NAMES[:n], {}, 1)
        assert state["names"] == NAMES[:n] and len(state["players"]) == n


def test_the_map_option(tr):
    assert rules.setup(NAMES[:2], {}, 1)["map"] == "tokyo"
    assert rules.setup(NAMES[:2], {"map": None}, 1)["map"] == "tokyo"
    assert rules.setup(NAMES[:2], {"map": "Osaka"}, 1)["map"] == "osaka"
    assert _refusal(NAMES[:2], {"map": "kyoto"}) == 'Unknown map kyoto (did you mean "tokyo"?). Maps: tokyo, osaka.'


def test_kingdom_refusals_word_for_word(tr):
    assert _refusal(NAMES[:2], {"kingdom": ["tunel"]}) == (
        '"tunel" is not a kingdom card (did you mean "tunnel"?). Kingdom cards: ' + ", ".join(KINGDOM) + "."
    )
    assert _refusal(NAMES[:2], {"kingdom": ["tunnel", "Tunnel"]}) == "tunnel is listed twice in kingdom."
    assert _refusal(NAMES[:2], {"kingdom": [*EIGHT, "terminal"]}) == "kingdom takes at most 8 cards; got 9."


def test_a_kingdom_text_is_split_on_commas_and_spaces_and_filled_from_the_seed(tr):
    named = rules.setup(NAMES[:2], {"kingdom": "Tunnel, steel-bridge  viaduct"}, 7)["kingdom"]
    assert len(named) == 8 and len(set(named)) == 8 and set(named) <= set(KINGDOM)
    assert {"tunnel", "steel-bridge", "viaduct"} <= set(named)
    # Listed by cost, then name, as the supply is laid out.
    assert named == sorted(named, key=lambda s: (CARDS[s].cost, s))
    # The same seed draws the same rest; the list and the text name the same cards.
    same = rules.setup(NAMES[:2], {"kingdom": ["tunnel", "steel-bridge", "viaduct"]}, 7)["kingdom"]
    assert same == named
    drawn = {tuple(rules.setup(NAMES[:2], {}, seed)["kingdom"]) for seed in range(1, 6)}
    assert len(drawn) > 1  # another seed, another kingdom
    full = rules.setup(NAMES[:2], {"kingdom": EIGHT}, 3)["kingdom"]
    # The reference's costs: Landfill 2, Transfer 2, Timetable 3, Coupling 4, Freight Train 4, Steel Bridge 4,
    # Tunnel 5, Viaduct 5.
    assert full == [
        "landfill",
        "transfer",
        "timetable",
        "coupling",
        "freight-train",
        "steel-bridge",
        "tunnel",
        "viaduct",
    ]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_supply_and_each_players_starting_cards(tr, players):
    state = rules.setup(NAMES[:players], {"kingdom": EIGHT}, 5)
    basic = ["express-train", "limited-express-train", "lay-rails", "station-expansion", "apartment", "tower"]
    assert state["piles"] == [*basic, "skyscraper", *state["kingdom"]]
    # The rulebook's counts: the station expansions in the starting decks come out of the supply's 20.
    expected = {"express-train": 16, "limited-express-train": 16, "lay-rails": 20, "station-expansion": 20 - players}
    expected |= {"apartment": 10, "tower": 10, "skyscraper": 10, "waste": 70}
    expected |= {slug: CARDS[slug].copies for slug in state["kingdom"]}
    assert state["supply"] == expected
    start = Counter({"normal-train": 7, "lay-rails": 2, "station-expansion": 1})
    for player in state["players"]:
        assert len(player["hand"]) == 5 and len(player["deck"]) == 5
        assert Counter(player["hand"] + player["deck"]) == start
        assert (player["discard"], player["play"], player["gained"]) == ([], [], [])
        assert (player["rails_left"], player["track_vp"], player["resigned"], player["start"]) == (20, 0, False, None)
    # Each player's deck is shuffled on its own.
    assert len({tuple(p["hand"] + p["deck"]) for p in state["players"]}) > 1


def test_a_new_game_starts_in_the_start_phase_with_nothing_on_the_board(tr):
    state = rules.setup(NAMES[:3], {"kingdom": EIGHT, "map": "osaka"}, 9)
    fixed = {k: state[k] for k in state if k not in ("players", "supply", "kingdom", "piles", "rng")}
    assert fixed == {
        "game": "trains",
        "rules_version": "1",
        "map": "osaka",
        "names": ["ann", "bob", "cat"],
        "rails": {},
        "stations": {},
        "stations_left": 30,
        "trash": {},
        "phase": "start",
        "current": 0,
        "turn": rules.new_turn(),
        "turn_number": 0,
        "move_number": 0,
        "end_reasons": [],
    }
    assert rules.new_turn() == {
        "money": 0,
        "played": False,
        "bought": False,
        "buys": 0,
        "rails_laid": 0,
        "waive": [],
        "discount": 0,
        "early": False,
    }
    # The seed's generator state moves on past the deal, and the same seed deals the same game.
    assert state["rng"] != 0 and rules.setup(NAMES[:3], {"kingdom": EIGHT, "map": "osaka"}, 9) == state
