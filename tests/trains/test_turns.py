"""Setup, starting rails, the turn loop, buying, reshuffles, end of game, scoring, resign."""

from __future__ import annotations

import pytest

from games.base import IllegalMove
from games.options import parse_options


def test_setup_decks_supply_and_options(tr):
    state = tr.new_game(players=3)
    for p in state["players"]:
        cards = sorted(p["hand"] + p["deck"])
        assert cards == sorted(["normal-train"] * 7 + ["lay-rails"] * 2 + ["station-expansion"])
        assert len(p["hand"]) == 5
    assert state["supply"]["station-expansion"] == 20 - 3
    assert state["supply"]["lay-rails"] == 20 and state["supply"]["express-train"] == 16
    assert state["supply"]["waste"] == 70 and "normal-train" not in state["supply"]
    assert len(state["piles"]) == 15 and all(state["supply"][k] == 10 for k in state["kingdom"])
    opts = parse_options("map=osaka kingdom=tunnel,viaduct", tr.GAME.options)
    chosen = tr.GAME.setup(["a", "b"], opts, 5)
    assert chosen["map"] == "osaka" and {"tunnel", "viaduct"} <= set(chosen["kingdom"])
    assert len(chosen["kingdom"]) == 8
    default = tr.GAME.setup(["a", "b"], parse_options("", tr.GAME.options), 5)
    assert default["map"] == "tokyo" and len(set(default["kingdom"])) == 8
    assert tr.GAME.setup(["a", "b"], {}, 5)["kingdom"] == default["kingdom"]  # seeded, via the state RNG
    with pytest.raises(IllegalMove, match="did you mean"):
        tr.GAME.setup(["a", "b"], {"kingdom": ["tunel"]}, 1)
    with pytest.raises(IllegalMove):
        tr.GAME.setup(["a"], {}, 1)
    with pytest.raises(IllegalMove):
        parse_options("map=kyoto", tr.GAME.options)


def test_random_kingdoms_vary_with_seed(tr):
    kingdoms = {tuple(tr.GAME.setup(["a", "b"], {}, seed)["kingdom"]) for seed in range(10)}
    assert len(kingdoms) > 5


def test_starting_rails_phase(tr):
    state = tr.new_game(players=3)
    assert tr.GAME.status(state).to_act == (0,)
    with pytest.raises(IllegalMove, match="starting rail"):
        tr.do(state, 0, "/trains end")
    with pytest.raises(IllegalMove, match="turn"):
        tr.do(state, 1, "/trains start E5")
    with pytest.raises(IllegalMove, match="sea"):
        tr.do(state, 0, f"/trains start {tr.find_hexes('tokyo', 'sea')[0]}")
    with pytest.raises(IllegalMove, match="remote"):
        tr.do(state, 0, f"/trains start {tr.find_hexes('tokyo', 'remote')[0]}")
    state, _ = tr.do(state, 0, "/trains start J6")  # a city is allowed
    with pytest.raises(IllegalMove, match="Another player"):
        tr.do(state, 1, "/trains start J6")
    state, _ = tr.do(state, 1, "/trains start e5")
    state, events = tr.do(state, 2, "/trains start H2")
    assert state["phase"] == "play" and state["current"] == 0
    assert state["players"][1]["rails_left"] == 19 and state["rails"]["E5"] == [1]
    assert any(e.get("post_board") for e in events)
    legal = tr.GAME.legal_moves(tr.new_game(), 0)
    assert all(m["verb"] == "start" for m in legal)
    assert len(legal) == len(tr.MAPS["tokyo"].land) - len(tr.MAPS["tokyo"].remotes)


def test_pass_returns_all_waste_and_ends_turn(tr):
    state = tr.scenario(["waste", "waste", "normal-train", "waste", "lay-rails"], deck=["express-train"] * 5)
    supply = state["supply"]["waste"]
    after, events = tr.do(state, 0, "/trains pass")
    assert after["supply"]["waste"] == supply + 3
    assert sorted(after["players"][0]["discard"]) == ["lay-rails", "normal-train"]
    assert after["current"] == 1 and after["players"][0]["hand"] == ["express-train"] * 5
    assert any(e.get("post_board") for e in events)
    played, _ = tr.do(state, 0, "/trains play normal-train")
    with pytest.raises(IllegalMove, match="only pass"):
        tr.do(played, 0, "/trains pass")
    bought, _ = tr.do(tr.scenario(["waste"], money=3), 0, "/trains buy express-train")
    with pytest.raises(IllegalMove, match="only pass"):
        tr.do(bought, 0, "/trains pass")


def test_end_cleans_up_and_money_does_not_carry(tr):
    state = tr.scenario(["express-train", "normal-train", "waste"], deck=["lay-rails"] * 6)
    state, _ = tr.do(state, 0, "/trains play express-train")
    state, _ = tr.do(state, 0, "/trains buy landfill")
    state, events = tr.do(state, 0, "/trains end")
    p = state["players"][0]
    assert p["hand"] == ["lay-rails"] * 5 and p["play"] == [] and p["gained"] == []
    assert sorted(p["discard"]) == ["express-train", "landfill", "normal-train", "waste"]
    assert p["discard"][-1] == "landfill"  # the public top is a gained card, not the hidden hand
    assert state["turn"]["money"] == 0 and state["current"] == 1
    assert any(e.get("irreversible") for e in events)


def test_reshuffle_only_when_a_draw_needs_it(tr):
    state = tr.scenario(["normal-train"], deck=["express-train"] * 5, discard=["tower"])
    state, events = tr.do(state, 0, "/trains end")
    p = state["players"][0]
    assert p["deck"] == [] and sorted(p["discard"]) == ["normal-train", "tower"]  # deck empty, no shuffle yet
    assert not any("shuffles" in e.get("text", "") for e in events)
    state["current"], state["turn"] = 0, dict(state["turn"])
    p["hand"] = ["timetable"]
    after, events = tr.do(state, 0, "/trains play timetable")
    assert any("shuffles" in e.get("text", "") and e.get("irreversible") for e in events)
    assert sorted(after["players"][0]["hand"]) == ["normal-train", "tower"]


def test_partial_reshuffle_during_clean_up(tr):
    state = tr.scenario(["normal-train"], deck=["express-train"] * 3, discard=["tower", "apartment"])
    after, events = tr.do(state, 0, "/trains end")
    hand = after["players"][0]["hand"]
    assert hand.count("express-train") == 3 and len(hand) == 5
    assert sorted(hand + after["players"][0]["deck"]) == sorted(
        ["express-train"] * 3 + ["tower", "apartment", "normal-train"]
    )
    shuffle = [i for i, e in enumerate(events) if "shuffles" in e.get("text", "")]
    assert len(shuffle) == 1


def test_draw_stops_when_deck_and_discard_empty(tr):
    state = tr.scenario(["timetable"], deck=["express-train"])
    after, events = tr.do(state, 0, "/trains play timetable")
    assert after["players"][0]["hand"] == ["express-train"]
    assert any("no cards left" in e.get("text", "") for e in events)


def test_buying_rules(tr):
    state = tr.scenario([], money=5)
    with pytest.raises(IllegalMove, match="never be bought"):
        tr.do(state, 0, "/trains buy waste")
    with pytest.raises(IllegalMove, match="costs 6"):
        tr.do(state, 0, "/trains buy limited-express-train")
    with pytest.raises(IllegalMove, match="not in this game"):
        tr.do(state, 0, "/trains buy normal-train")
    with pytest.raises(IllegalMove, match="not in this game"):
        tr.do(state, 0, "/trains buy dispatcher")
    state["supply"]["express-train"] = 0
    with pytest.raises(IllegalMove, match="empty"):
        tr.do(state, 0, "/trains buy express-train")
    after, _ = tr.do(state, 0, "/trains buy lay-rails")
    after, _ = tr.do(after, 0, "/trains buy landfill")
    assert after["turn"]["money"] == 0 and after["turn"]["buys"] == 2
    assert after["players"][0]["gained"] == ["lay-rails", "landfill"]
    assert tr.GAME.status(after).summary == "ann's turn (0 money, 2 buys made)"
    assert tr.GAME.status(state).summary == "ann's turn (5 money, 0 buys made)"
    assert all(m["card"] != "express-train" for m in tr.GAME.legal_moves(state, 0) if m["verb"] == "buy")


def _empty_piles(state, count):
    for slug in state["piles"][:count]:
        state["supply"][slug] = 0


def test_game_ends_after_turn_with_four_empty_piles(tr):
    state = tr.scenario(["normal-train"], money=3)
    _empty_piles(state, 3)
    state["supply"]["landfill"] = 1
    after, _ = tr.do(state, 0, "/trains buy landfill")
    assert after["phase"] == "play"  # checked only at the end of the turn
    after, events = tr.do(after, 0, "/trains end")
    assert after["phase"] == "over" and tr.GAME.status(after).finished
    assert "4 supply piles" in after["end_reasons"][0]
    assert tr.GAME.legal_moves(after, 1) == []
    with pytest.raises(IllegalMove, match="over"):
        tr.do(after, 1, "/trains end")
    three, _ = tr.do(state, 0, "/trains end")
    assert three["phase"] == "play"


def test_game_ends_when_a_player_places_all_rails(tr):
    state = tr.scenario(["lay-rails"], rails={"E5": [0]})
    state["players"][0]["rails_left"] = 1
    after, _ = tr.do(state, 0, "/trains play lay-rails E4")
    assert after["players"][0]["rails_left"] == 0 and after["phase"] == "play"
    after, _ = tr.do(after, 0, "/trains end")
    assert after["phase"] == "over" and "placed all their rails" in after["end_reasons"][0]


def test_game_ends_when_all_stations_are_placed(tr):
    state = tr.scenario(["station-expansion"])
    state["stations_left"] = 1
    after, _ = tr.do(state, 0, "/trains play station-expansion J6")
    after, _ = tr.do(after, 0, "/trains end")
    assert after["phase"] == "over" and after["end_reasons"] == ["all stations are on the board"]


def test_scoring_breakdown(tr):
    gmap = tr.MAPS["tokyo"]
    cities = list(gmap.cities)
    three = [c for c in cities if gmap.cities[c].value == 3][:1]
    remote = list(gmap.remotes)[0]
    plain = tr.find_hexes("tokyo", "plain")[0]
    rails = {cities[0]: [0], cities[1]: [0, 1], three[0]: [0], remote: [0], plain: [0]}
    stations = {cities[0]: 0, cities[1]: 1, three[0]: 3}
    state = tr.scenario(["tower"], discard=["apartment"], deck=["skyscraper"], rails=rails, stations=stations)
    state["players"][0]["track_vp"] = 2
    rows = {r["seat"]: r for r in tr.GAME.standings(state)}
    assert rows[0]["breakdown"] == {
        "cities": 0 + 2 + 8,
        "remote locations": gmap.remotes[remote].value,
        "VP cards": 2 + 1 + 4,
        "track VP": 2,
    }
    assert rows[0]["score"] == sum(rows[0]["breakdown"].values())
    assert rows[1]["breakdown"]["cities"] == 2


def test_tie_break_by_rails_then_shared(tr):
    plains = tr.find_hexes("tokyo", "plain")
    state = tr.scenario([], rails={plains[0]: [0], plains[1]: [1], plains[2]: [1]})
    state["phase"] = "over"
    rows = tr.GAME.standings(state)
    assert [r["seat"] for r in rows] == [1, 0] and [r["rank"] for r in rows] == [1, 2]
    assert rows[0]["score"] == rows[1]["score"] == 0 and rows[0]["title"] == "winner"
    assert set(rows[0]) == {"seat", "player", "score", "rank", "breakdown", "title"}  # games.base.Standing
    state["rails"] = {plains[0]: [0], plains[1]: [1]}
    rows = tr.GAME.standings(state)
    assert [r["rank"] for r in rows] == [1, 1] and rows[0]["title"] == "shared win"
    assert "share the win" in tr.GAME.status(state).summary


def test_resign(tr):
    state = tr.scenario(["normal-train"], players=3)
    after, events = tr.GAME.resign(state, 0)
    assert after["current"] == 1 and after["phase"] == "play"
    assert after["players"][0]["hand"] == []  # cleaned up, no new hand
    rows = tr.GAME.standings(after)
    assert rows[-1]["seat"] == 0 and rows[-1]["title"] == "resigned"
    assert tr.GAME.legal_moves(after, 0) == []
    after, _ = tr.GAME.resign(after, 2)
    assert after["phase"] == "over" and rows[0]["rank"] == 1
    with pytest.raises(IllegalMove):
        tr.GAME.resign(after, 1)


def test_resign_during_start_phase(tr):
    state = tr.new_game(players=3)
    state, _ = tr.GAME.resign(state, 0)
    assert state["current"] == 1 and state["phase"] == "start"
    state, _ = tr.do(state, 1, "/trains start E5")
    state, _ = tr.do(state, 2, "/trains start J6")
    assert state["phase"] == "play" and state["current"] == 1


def test_undo_scope_is_the_open_turn(tr):
    scope = tr.GAME.undo_scope
    state = tr.new_game(players=3)
    seen = [scope(state)]
    # Starting rails: turn_number stays 0, yet every placement is a turn of its own.
    for seat, hexname in ((0, "J6"), (1, "E5"), (2, "H2")):
        state, _ = tr.do(state, seat, f"/trains start {hexname}")
        seen.append(scope(state))
    assert len(set(seen)) == len(seen) and state["phase"] == "play"
    # Within a turn the scope holds, so the player may take back a play or a buy.
    turn = tr.scenario(["normal-train", "normal-train", "lay-rails"], deck=["express-train"] * 5, money=2)
    opened = scope(turn)
    played, _ = tr.do(turn, 0, "/trains play normal-train")
    bought, _ = tr.do(played, 0, "/trains buy express-train")
    assert scope(played) == scope(bought) == opened
    # Ending (or passing) closes it; so does the next player's turn even if the seats repeat.
    ended, _ = tr.do(bought, 0, "/trains end")
    assert scope(ended) != opened
    back, _ = tr.do(ended, 1, "/trains end")
    assert back["current"] == 0 and scope(back) not in (opened, scope(ended))
    passed, _ = tr.do(turn, 0, "/trains pass")
    assert scope(passed) != opened
    # A resignation by the seat to act moves the turn on; one by a waiting seat leaves it open.
    assert scope(tr.GAME.resign(turn, 0)[0]) != opened
    three = tr.scenario(["normal-train"], players=3)
    assert scope(tr.GAME.resign(three, 2)[0]) == scope(three)
    start = tr.new_game(players=3)
    assert scope(tr.GAME.resign(start, 0)[0]) != scope(start)
    assert hash(opened) == hash(scope(tr.roundtrip(turn)))  # hashable, and the same for a reloaded state


def test_undo_scope_closes_at_game_end(tr):
    state = tr.scenario(["normal-train"])
    state["stations_left"] = 0  # an end condition: the game ends with this turn
    opened = tr.GAME.undo_scope(state)
    over, _ = tr.do(state, 0, "/trains end")
    assert over["phase"] == "over" and tr.GAME.undo_scope(over) != opened


def test_moderator_skip_ends_the_turn_without_playing_or_buying(tr):
    skip = tr.GAME.skip_move
    assert skip is not None
    state = tr.new_game()
    assert skip(state, 0) == tr.GAME.legal_moves(state, 0)[0] and skip(state, 0)["verb"] == "start"
    turn = tr.scenario(["normal-train", "normal-train"])
    move = skip(turn, 0)
    assert move == {"verb": "end"}
    tr.GAME.apply(turn, 0, move)  # always legal
