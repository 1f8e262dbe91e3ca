"""Round flow: Master Builder, readiness, completion, game end, monuments phase, options, resign."""

from __future__ import annotations

import json

import pytest

from games.base import IllegalMove
from games.options import parse_options
from games.tiny_towns import GAME
from games.tiny_towns.content import BY_COLOUR
from tests.tiny_towns.helpers import game, play, play_all, rejected, with_town

FULL_BUT_ONE = "well well well well / well well well well / well well well well / well well well ."


def test_master_builder_starts_at_seat_zero_and_passes_left() -> None:
    state = game(3)
    assert state["phase"] == "announce" and state["master_builder"] == 0
    assert GAME.status(state).to_act == (0,)
    assert "Only the Master Builder (p0)" in rejected(state, 1, "/tt announce wood")
    state, events = play(state, 0, "/tt announce wood")
    assert state["towns"][0]["times_master_builder"] == 1
    assert set(GAME.status(state).to_act) == {0, 1, 2}
    state = play_all(state, [(0, "/tt place A1"), (1, "/tt place A1")])
    assert GAME.status(state).to_act == (2,)
    state, events = play(state, 2, "/tt place A1")
    assert any(e.get("post_board") for e in events)
    assert state["round"] == 2 and state["master_builder"] == 1 and state["phase"] == "announce"


def test_cannot_build_before_placing_or_place_twice() -> None:
    state = with_town(game(2), 0, "W S . . / . . . . / . . . . / . . . .")
    state, _ = play(state, 0, "/tt announce stone")
    assert "Place this round's resource first" in rejected(state, 0, "/tt build well A1 B1")
    assert "Place this round's resource first" in rejected(state, 0, "/tt done")
    state, _ = play(state, 0, "/tt place C1")
    assert not state["towns"][0]["done"]  # a Well is possible
    assert "already placed" in rejected(state, 0, "/tt place D1")
    state, _ = play(state, 0, "/tt build well A1 B1 at A1")
    assert state["towns"][0]["done"]  # nothing left to build: done automatically
    again, events = play(state, 0, "/tt done")  # always accepted after placing: a no-op
    assert again == state


def test_placing_before_the_resource_is_named_is_refused() -> None:
    state = game(2)
    assert "Wait for the Master Builder (p0)" in rejected(state, 1, "/tt place A1")


def test_round_waits_for_players_still_building() -> None:
    state = with_town(game(2), 1, "W S . . / . . . . / . . . . / . . . .")
    state = play_all(state, [(0, "/tt announce glass"), (0, "/tt place A1"), (1, "/tt place D4")])
    assert state["round"] == 1 and GAME.status(state).to_act == (1,)
    assert "p1" in GAME.status(state).summary
    state, events = play(state, 1, "/tt done")
    assert state["round"] == 2 and any(e.get("post_board") for e in events)


def test_full_town_completes_and_game_ends_with_standings() -> None:
    state = game(2)
    state = with_town(state, 0, FULL_BUT_ONE)
    state = with_town(state, 1, FULL_BUT_ONE)
    state, _ = play(state, 0, "/tt announce brick")
    state, _ = play(state, 0, "/tt place D4")
    assert state["towns"][0]["complete"] and state["towns"][0]["completed_round"] == 1
    assert "Your town is complete" in rejected(state, 0, "/tt place D4")
    state, events = play(state, 1, "/tt place D4")
    assert state["phase"] == "finished" and GAME.status(state).finished
    assert any(e.get("post_board") for e in events)
    table = GAME.standings(state)
    assert [r["score"] for r in table] == [-1, -1]
    # times Master Builder decides the tie: p1 never named a resource.
    assert table[0]["player"] == "p1" and table[0]["rank"] == 1 and table[1]["rank"] == 2
    assert GAME.legal_moves(state, 0) == [] and "over" in rejected(state, 1, "/tt place A1")
    # The last placement ended the game; a /tt done typed after it is accepted and changes nothing.
    again, _ = play(state, 1, "/tt done")
    assert again == state


def test_full_town_that_can_build_chooses_and_done_completes() -> None:
    almost = "well well well well / well well well well / well well well well / well well W ."
    state = with_town(game(2), 0, almost)
    state = play_all(state, [(0, "/tt announce stone"), (0, "/tt place D4")])
    town = state["towns"][0]
    assert not town["done"] and not town["complete"]  # full, but a Well is possible
    built, _ = play(state, 0, "/tt build well C4 D4 at C4")
    assert built["towns"][0]["done"] and not built["towns"][0]["complete"]
    refused, _ = play(state, 0, "/tt done")
    assert refused["towns"][0]["complete"]


def test_completed_town_is_skipped_by_the_hammer_and_last_player_keeps_naming() -> None:
    state = game(3)
    state = with_town(state, 1, FULL_BUT_ONE)
    state = play_all(state, [(0, "/tt announce wood"), (0, "/tt place A1"), (1, "/tt place D4"), (2, "/tt place A1")])
    assert state["towns"][1]["complete"]
    assert state["master_builder"] == 2
    state = with_town(state, 0, FULL_BUT_ONE)
    state = play_all(state, [(2, "/tt announce wood"), (0, "/tt place D4"), (2, "/tt place B1")])
    assert state["master_builder"] == 2  # the only player left names every round
    state = play_all(state, [(2, "/tt announce wood"), (2, "/tt place C1")])
    assert state["master_builder"] == 2 and state["towns"][2]["times_master_builder"] == 2


def test_monuments_phase_deals_two_and_hides_them() -> None:
    options = parse_options("monuments=fort-ironweed,starloom,cathedral,grove", GAME.options)
    state = GAME.setup(["ann", "bob"], options, 5)
    assert state["phase"] == "monuments"
    assert set(GAME.status(state).to_act) == {0, 1}
    assert GAME.legal_moves(state, 0) == [
        {"verb": "monument", "monument": "fort-ironweed"},
        {"verb": "monument", "monument": "starloom"},
    ]
    assert "not one of your monuments" in rejected(state, 0, "/tt monument cathedral")
    state, events = play(state, 0, "/tt monument starloom")
    assert any(e.get("private", {}).get("seat") == 0 for e in events)
    public = " ".join(e.get("text", "") for e in events)
    assert "Starloom" not in public
    assert "already keep" in rejected(state, 0, "/tt monument fort")
    seen = json.dumps(GAME.view(state, 1))
    assert "starloom" not in seen and "fort-ironweed" not in seen
    state, _ = play(state, 1, "/tt monument grove")
    assert state["phase"] == "announce" and state["towns"][1]["monument"] == "grove-university"


def test_random_monuments_and_buildings_come_from_the_rng() -> None:
    options = parse_options("monuments=on", GAME.options)
    one = GAME.setup(["a", "b", "c"], options, 11)
    two = GAME.setup(["a", "b", "c"], options, 11)
    assert one == two
    hands = [t["monument_options"] for t in one["towns"]]
    assert all(len(h) == 2 for h in hands) and len({m for h in hands for m in h}) == 6
    for colour, slug in zip(
        ["blue", "red", "gray", "orange", "green", "yellow", "black"], one["buildings"], strict=True
    ):
        assert slug in BY_COLOUR[colour]
    seeds = {tuple(GAME.setup(["a", "b"], {}, s)["buildings"]) for s in range(20)}
    assert len(seeds) > 5


@pytest.mark.parametrize(
    "text, message",
    [
        ("buildings=cottage,farm,granary,well,chapel,tavern,theater", "both red"),
        ("buildings=farm,well,chapel,tavern,theater", "no black building"),
        ("buildings=farm,wel,chapel,tavern,theater,factory", 'did you mean "well"'),
        ("monuments=fort,starloom,cathedral", "list at least 4 monuments"),
        ("monuments=fort,fort,cathedral,grove", "listed twice"),
        ("monuments=sometimes", "unknown monument"),
        ("variant=townhall", "must be one of"),
    ],
)
def test_options_are_validated_with_clear_messages(text: str, message: str) -> None:
    with pytest.raises(IllegalMove) as info:
        GAME.setup(["a", "b"], parse_options(text, GAME.options), 1)
    assert message in info.value.message


def test_one_player_dry_run_accepts_multiplayer_options() -> None:
    """The host checks options at /game new by a setup with one player: that must pass."""
    text = "variant=town-hall cave=on buildings=farm,well,chapel,inn,theater,bank monuments=fort,opaleye,starloom,grove"
    solo = GAME.setup(["a"], parse_options(text, GAME.options), 0)
    assert solo["variant"] == "solo" and not solo["cave_rule"]
    assert solo["buildings"] == ["cottage", "farm", "well", "chapel", "tavern", "theater", "factory"]
    assert solo["towns"][0]["monument_options"] == ["starloom", "grove-university"]
    four = GAME.setup(["a", "b"], parse_options(text, GAME.options), 0)
    assert four["variant"] == "town-hall" and four["cave_rule"] and "inn" in four["buildings"]
    assert [t["monument_options"] for t in four["towns"]] == [
        ["fort-ironweed", "opaleyes-watch"],
        ["starloom", "grove-university"],
    ]
    with pytest.raises(IllegalMove) as info:
        GAME.setup(["a", "b", "c"], parse_options(text, GAME.options), 0)
    assert "at least 6 monuments" in info.value.message


def test_player_count_limits() -> None:
    with pytest.raises(IllegalMove):
        GAME.setup([f"p{i}" for i in range(7)], {}, 1)
    assert GAME.min_players == 1 and GAME.max_players == 6


def test_cave_rule_twice_for_others_resources_only() -> None:
    state = GAME.setup(["a", "b"], parse_options("cave=on", GAME.options), 3)
    state, _ = play(state, 0, "/tt announce wood")
    assert "named by another player" in rejected(state, 0, "/tt cave")
    state, events = play(state, 1, "/tt cave")
    assert state["towns"][1]["cave_used"] == 1 and state["towns"][1]["placed"]
    assert all(c is None for c in state["towns"][1]["cells"])
    state = play_all(state, [(0, "/tt place A1"), (1, "/tt announce glass"), (1, "/tt place A1"), (0, "/tt cave")])
    state = play_all(state, [(0, "/tt announce stone"), (0, "/tt place D4"), (1, "/tt cave")])
    assert state["towns"][1]["cave_used"] == 2
    state = play_all(state, [(1, "/tt announce brick"), (1, "/tt place C1"), (0, "/tt place C3")])
    state, _ = play(state, 0, "/tt announce wheat")
    assert "already used the cave 2 times" in rejected(state, 1, "/tt cave")
    off = game(2)
    off, _ = play(off, 0, "/tt announce wood")
    assert "not used in this game" in rejected(off, 1, "/tt cave")


def test_resign_passes_the_hammer_and_ranks_last() -> None:
    state = game(3)
    state, events = GAME.resign(state, 0)
    assert state["master_builder"] == 1
    assert GAME.status(state).to_act == (1,)
    state = with_town(state, 1, "well . . . / . . . . / . . . . / . . . .")
    table = GAME.standings(state)
    assert table[-1]["player"] == "p0"
    with pytest.raises(IllegalMove):
        GAME.resign(state, 0)
    state, _ = GAME.resign(state, 1)
    state, events = GAME.resign(state, 2)
    assert state["phase"] == "finished" and any(e.get("post_board") for e in events)


def test_resign_during_place_phase_can_close_the_round() -> None:
    state = play_all(game(2), [(0, "/tt announce wood"), (0, "/tt place A1")])
    state, events = GAME.resign(state, 1)
    assert state["round"] == 2 and state["master_builder"] == 0


def test_rules_help_topics() -> None:
    topics = set(GAME.rules_help)
    assert {"overview", "commands", "buildings", "monuments", "variants", "decisions"} <= topics
    everything = "\n".join(GAME.rules_help.values())
    assert "feast-hall" in everything and "warehouse" in everything and "starloom" in everything
    assert "/tt claim" in GAME.rules_help["commands"]
    assert "Opaleye" in "".join(text for name, text in GAME.rules_help.items() if name.startswith("decisions"))


def test_every_rules_topic_fits_one_discord_message() -> None:
    for name, text in GAME.rules_help.items():
        assert len(text) <= 2000, (name, len(text))
    # /game rules without a topic shows the overview plus the list of topics.
    listing = f"\nTopics: {', '.join(GAME.rules_help)} (`/game rules <topic>`)."
    assert len(GAME.rules_help["overview"] + listing) <= 2000
    # A split topic points to its continuation.
    assert "/game rules tiny-towns buildings-2" in GAME.rules_help["buildings"]
