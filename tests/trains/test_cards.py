"""Every card's effect, including choices, skip, and the play-twice cards."""

from __future__ import annotations

import pytest

from games.base import IllegalMove


def test_basic_trains_give_money(tr):
    state = tr.scenario(["normal-train", "express-train", "limited-express-train"])
    for card in ("normal-train", "express-train", "limited-express-train"):
        state, _ = tr.do(state, 0, f"/trains play {card}")
    assert state["turn"]["money"] == 6
    assert sorted(state["players"][0]["play"]) == ["express-train", "limited-express-train", "normal-train"]
    with pytest.raises(IllegalMove, match="no effect to skip"):
        tr.do(tr.scenario(["normal-train"]), 0, "/trains play normal-train skip")


def test_victory_and_waste_cannot_be_played(tr):
    state = tr.scenario(["apartment", "waste"])
    for card in ("apartment", "waste"):
        with pytest.raises(IllegalMove, match="cannot be played"):
            tr.do(state, 0, f"/trains play {card}")
    with pytest.raises(IllegalMove, match="no Tower"):
        tr.do(state, 0, "/trains play tower")


def test_amusement_park_copies_a_played_train(tr):
    state = tr.scenario(["amusement-park", "limited-express-train", "express-train"])
    with pytest.raises(IllegalMove, match="not played"):
        tr.do(state, 0, "/trains play amusement-park express-train")
    state, _ = tr.do(state, 0, "/trains play limited-express-train")
    state, _ = tr.do(state, 0, "/trains play amusement-park limited-express-train")
    assert state["turn"]["money"] == 6
    with pytest.raises(IllegalMove, match="not a Train"):
        tr.GAME.parse("/trains play amusement-park lay-rails")


def test_command_central_match_and_miss(tr):
    deck = ["normal-train", "express-train", "lay-rails"]  # top first
    state = tr.scenario(["command-central"], deck=deck)
    hit, events = tr.do(state, 0, "/trains play command-central train")
    assert sorted(hit["players"][0]["hand"]) == ["express-train", "normal-train"]
    assert hit["players"][0]["deck"] == ["lay-rails"]
    assert any("reveals Express Train" in e.get("text", "") and e.get("irreversible") for e in events)
    miss, _ = tr.do(state, 0, "/trains play command-central station")
    assert miss["players"][0]["hand"] == ["normal-train"]
    assert miss["players"][0]["deck"] == ["lay-rails", "express-train"]  # left on top
    with pytest.raises(IllegalMove, match="card type"):
        tr.GAME.parse("/trains play command-central trian")


def test_command_central_reveal_reshuffles_when_needed(tr):
    state = tr.scenario(["command-central"], deck=["normal-train"], discard=["express-train"])
    after, events = tr.do(state, 0, "/trains play command-central train")
    assert sorted(after["players"][0]["hand"]) == ["express-train", "normal-train"]
    assert any("shuffles" in e.get("text", "") for e in events)


def test_landfill_returns_waste_from_hand_and_discard(tr):
    state = tr.scenario(["landfill", "waste", "waste"], discard=["waste", "normal-train", "waste"])
    supply = state["supply"]["waste"]
    after, _ = tr.do(state, 0, "/trains play landfill")
    assert "waste" not in after["players"][0]["hand"] + after["players"][0]["discard"]
    assert after["players"][0]["discard"] == ["normal-train"]
    assert after["supply"]["waste"] == supply + 4


def test_early_train_lets_buys_go_on_top(tr):
    state = tr.scenario(
        ["early-train", "limited-express-train"],
        deck=["normal-train"],
        money=1,
        kingdom=["early-train", "landfill", "transfer", "timetable", "tunnel", "viaduct", "steel-bridge", "coupling"],
    )
    state, _ = tr.do(state, 0, "/trains play limited-express-train")
    with pytest.raises(IllegalMove, match="Early Train"):
        tr.do(state, 0, "/trains buy express-train top")
    state, _ = tr.do(state, 0, "/trains play early-train")
    state, _ = tr.do(state, 0, "/trains buy express-train top")
    assert state["players"][0]["deck"][-1] == "express-train"
    state, _ = tr.do(state, 0, "/trains buy lay-rails")
    assert state["players"][0]["gained"] == ["lay-rails"]
    state, _ = tr.do(state, 0, "/trains end")
    assert "express-train" in state["players"][0]["hand"]


def test_freight_train(tr):
    state = tr.scenario(["freight-train", "waste", "waste", "waste"])
    after, _ = tr.do(state, 0, "/trains play freight-train 2")
    assert after["turn"]["money"] == 3 and after["players"][0]["hand"] == ["waste"]
    after, _ = tr.do(state, 0, "/trains play freight-train")  # no number: all Waste
    assert after["turn"]["money"] == 4 and after["players"][0]["hand"] == []
    assert after["supply"]["waste"] == state["supply"]["waste"] + 3
    with pytest.raises(IllegalMove, match="only 3"):
        tr.do(state, 0, "/trains play freight-train 4")


def test_mail_train(tr):
    state = tr.scenario(["mail-train", "waste", "apartment", "normal-train"])
    after, _ = tr.do(state, 0, "/trains play mail-train waste apartment")
    assert after["turn"]["money"] == 3
    assert after["players"][0]["discard"] == ["waste", "apartment"]
    assert after["players"][0]["hand"] == ["normal-train"]
    with pytest.raises(IllegalMove, match="does not hold"):
        tr.do(state, 0, "/trains play mail-train waste waste")


def test_tourist_train_and_sightseeing_bus(tr):
    state = tr.scenario(["tourist-train"])
    after, _ = tr.do(state, 0, "/trains play tourist-train")
    assert after["players"][0]["track_vp"] == 1 and after["turn"]["money"] == 1
    remotes = list(tr.MAPS["tokyo"].remotes)
    state = tr.scenario(["sightseeing-bus"], rails={h: [0] for h in remotes[:4]})
    after, _ = tr.do(state, 0, "/trains play sightseeing-bus")
    assert after["players"][0]["track_vp"] == 3  # capped at 3
    assert tr.GAME.standings(after)[0]["breakdown"]["track VP"] == 3


def test_rail_yard_counts_rails_laid_this_turn(tr):
    state = tr.scenario(["rail-yard", "lay-rails", "lay-rails"], rails={"E5": [0]})
    state, _ = tr.do(state, 0, "/trains play lay-rails E4")
    state, _ = tr.do(state, 0, "/trains play lay-rails D4")
    money = state["turn"]["money"]
    state, _ = tr.do(state, 0, "/trains play rail-yard")
    assert state["turn"]["money"] == money + 2


def test_timetable_and_night_train_draw(tr):
    state = tr.scenario(["timetable", "night-train"], deck=["lay-rails", "waste", "tower"])
    state, events = tr.do(state, 0, "/trains play timetable")
    assert sorted(state["players"][0]["hand"]) == ["lay-rails", "night-train", "waste"]
    private = [e for e in events if "private" in e]
    assert private and private[0]["private"]["seat"] == 0 and "Lay Rails" in private[0]["private"]["text"]
    assert all("Lay Rails" not in e.get("text", "") for e in events)
    state, _ = tr.do(state, 0, "/trains play night-train")
    assert "tower" in state["players"][0]["hand"] and state["turn"]["money"] == 1


def test_transfer_discards_then_draws(tr):
    state = tr.scenario(["transfer", "waste", "apartment"], deck=["express-train", "express-train"])
    after, _ = tr.do(state, 0, "/trains play transfer waste apartment")
    assert after["players"][0]["hand"] == ["express-train", "express-train"]
    with pytest.raises(IllegalMove, match="at most 2"):
        tr.GAME.parse("/trains play transfer waste waste waste")


def test_refurbishment(tr):
    state = tr.scenario(["refurbishment", "normal-train"])
    after, _ = tr.do(state, 0, "/trains play refurbishment normal-train express-train")
    assert after["players"][0]["hand"] == ["express-train"]
    assert after["trash"] == {"normal-train": 1}
    assert after["supply"]["express-train"] == state["supply"]["express-train"] - 1
    with pytest.raises(IllegalMove, match="allows up to 4"):
        tr.do(state, 0, "/trains play refurbishment normal-train limited-express-train")
    with pytest.raises(IllegalMove, match="no Express Train in your hand"):
        tr.do(state, 0, "/trains play refurbishment express-train limited-express-train")


def test_central_station_money_and_draw(tr):
    state = tr.scenario(["central-station"], deck=["express-train", "tower"])
    after, _ = tr.do(state, 0, "/trains play central-station money")
    assert after["turn"]["money"] == 2
    after, _ = tr.do(state, 0, "/trains play central-station draw")
    assert sorted(after["players"][0]["hand"]) == ["express-train", "tower"]


def test_scrapyard_trashes_and_returns_waste(tr):
    state = tr.scenario(["scrapyard", "waste", "normal-train"])
    after, _ = tr.do(state, 0, "/trains play scrapyard waste normal-train")
    assert after["players"][0]["hand"] == []
    assert after["supply"]["waste"] == state["supply"]["waste"] + 1
    assert after["trash"] == {"normal-train": 1}
    assert tr.card_totals(after) == tr.card_totals(state)


def test_coupling_plays_a_train_twice(tr):
    state = tr.scenario(["coupling", "limited-express-train"])
    after, _ = tr.do(state, 0, "/trains play coupling limited-express-train")
    assert after["turn"]["money"] == 6
    assert sorted(after["players"][0]["play"]) == ["coupling", "limited-express-train"]
    state = tr.scenario(["coupling", "tourist-train"])
    after, _ = tr.do(state, 0, "/trains play coupling tourist-train")
    assert after["players"][0]["track_vp"] == 2 and after["turn"]["money"] == 2
    after, _ = tr.do(state, 0, "/trains play coupling tourist-train then skip")
    assert after["players"][0]["track_vp"] == 1
    with pytest.raises(IllegalMove, match="not a train"):
        tr.GAME.parse("/trains play coupling timetable")


def test_dispatcher_plays_an_action_twice(tr):
    state = tr.scenario(["dispatcher", "timetable"], deck=["normal-train"] * 5)
    after, _ = tr.do(state, 0, "/trains play dispatcher timetable")
    assert after["players"][0]["hand"] == ["normal-train"] * 4
    state = tr.scenario(["dispatcher", "central-station"], rails={"E5": [0]})
    after, _ = tr.do(state, 0, "/trains play dispatcher central-station rail E4 then money")
    assert 0 in after["rails"]["E4"] and after["turn"]["money"] == 2
    with pytest.raises(IllegalMove, match="already have a rail"):
        tr.do(state, 0, "/trains play dispatcher central-station rail E4")


def test_dispatcher_may_play_coupling_or_dispatcher(tr):
    # Reference: "Dispatcher ... play an Action card from your hand twice"; Coupling and
    # Dispatcher are Action cards, so neither is excluded.
    state = tr.scenario(["dispatcher", "coupling", "express-train", "normal-train"])
    after, _ = tr.do(state, 0, "/trains play dispatcher coupling express-train then normal-train")
    assert after["turn"]["money"] == 2 + 2 + 1 + 1
    assert sorted(after["players"][0]["play"]) == ["coupling", "dispatcher", "express-train", "normal-train"]
    with pytest.raises(IllegalMove, match="no Express Train"):
        tr.do(state, 0, "/trains play dispatcher coupling express-train")  # needs two Express Trains
    state = tr.scenario(["dispatcher", "dispatcher", "timetable", "transfer"], deck=["normal-train"] * 6)
    after, _ = tr.do(state, 0, "/trains play dispatcher dispatcher timetable then transfer")
    assert after["players"][0]["hand"] == ["normal-train"] * 4  # Timetable twice, Transfer twice with nothing
    assert len(after["players"][0]["deck"]) == 2
    legal = [tr.GAME.format(m) for m in tr.GAME.legal_moves(state, 0) if m.get("card") == "dispatcher"]
    assert "/trains play dispatcher dispatcher timetable then skip" in legal
    for text in legal:
        tr.do(state, 0, text)


def test_lost_and_found_is_private(tr):
    state = tr.scenario(["lost-and-found"], discard=["express-train", "waste"])
    after, events = tr.do(state, 0, "/trains play lost-and-found express-train")
    assert after["players"][0]["hand"] == ["express-train"] and after["players"][0]["discard"] == ["waste"]
    assert all("Express" not in e.get("text", "") for e in events)
    with pytest.raises(IllegalMove, match="no Tower"):
        tr.do(state, 0, "/trains play lost-and-found tower")
    with pytest.raises(IllegalMove):
        tr.do(tr.scenario(["lost-and-found"]), 0, "/trains play lost-and-found waste")


def test_commuter_rush_waste_is_mandatory(tr):
    state = tr.scenario(["commuter-rush"])
    after, _ = tr.do(state, 0, "/trains play commuter-rush")
    assert after["turn"]["money"] == 2 and after["players"][0]["gained"] == ["waste"]
    with pytest.raises(IllegalMove, match="not optional"):
        tr.GAME.parse("/trains play commuter-rush skip")


def test_recycling_plant(tr):
    state = tr.scenario(["recycling-plant", "waste", "waste"], deck=["express-train", "tower", "normal-train"])
    after, _ = tr.do(state, 0, "/trains play recycling-plant 2")
    assert sorted(after["players"][0]["hand"]) == ["express-train", "tower"]
    with pytest.raises(IllegalMove, match="At most 3"):
        tr.do(tr.scenario(["recycling-plant"] + ["waste"] * 4), 0, "/trains play recycling-plant 4")


def test_skip_gives_value_only(tr):
    state = tr.scenario(["tourist-train", "timetable"], deck=["normal-train"])
    after, _ = tr.do(state, 0, "/trains play tourist-train skip")
    assert after["turn"]["money"] == 1 and after["players"][0]["track_vp"] == 0
    after, _ = tr.do(after, 0, "/trains play timetable skip")
    assert after["players"][0]["hand"] == []


def test_victory_cards_cost_waste_and_score(tr):
    state = tr.scenario([], money=16)
    for card in ("apartment", "tower", "skyscraper"):
        state, _ = tr.do(state, 0, f"/trains buy {card}")
    assert state["players"][0]["gained"].count("waste") == 3
    assert next(r for r in tr.GAME.standings(state) if r["seat"] == 0)["breakdown"]["VP cards"] == 7


def test_rail_magnate_scores_per_four_rails(tr):
    rails = {h: [0] for h in tr.find_hexes("tokyo", "plain")[:9]}
    state = tr.scenario(["rail-magnate"], rails=rails)
    row = next(r for r in tr.GAME.standings(state) if r["seat"] == 0)
    assert row["breakdown"]["VP cards"] == 2


def test_every_listed_move_for_every_card_is_legal(tr):
    """For each card in a busy mid-game hand, every generated move applies cleanly."""
    extra = ["waste", "express-train", "normal-train", "apartment", "timetable", "central-station"]
    counted = 0
    for slug, card in tr.CARDS.items():
        if not card.playable:
            continue
        state = tr.scenario(
            [slug, *extra],
            deck=["normal-train"] * 6,
            discard=["tower", "express-train"],
            rails={"E5": [0], "E4": [1]},
            stations={"D5": 1},
            money=3,
            kingdom=None,
        )
        state["players"][0]["play"] = ["normal-train"]
        moves = [m for m in tr.GAME.legal_moves(state, 0) if m.get("card") == slug and m["verb"] == "play"]
        assert moves, slug
        for move in moves:
            after, _ = tr.GAME.apply(state, 0, move)
            assert tr.GAME.parse(tr.GAME.format(move)) == move
            assert tr.card_totals(after) == tr.card_totals(state)
            counted += 1
    assert counted > 100
