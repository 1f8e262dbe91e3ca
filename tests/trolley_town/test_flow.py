"""Phases, turns and rounds (rulebook "Flow of the Game"; reference "Round and phases"),
round 4's repeatable transport and processing, the end, ties, solo rounds and titles,
resigning, undo scopes, and rejected moves that change nothing and say what is legal."""

from __future__ import annotations

import json

import pytest

from games.base import IllegalMove
from games.trolley_town import GAME
from games.trolley_town.content import RULES
from tests.trolley_town.helpers import (
    do,
    done_all,
    empty_start,
    finish,
    game,
    lay,
    next_round,
    offer,
    pass_all,
    play,
    put,
    rejected,
    res,
    standings,
    texts,
    to_act,
    to_transport,
    town,
    vp,
)


def _round4_transport(players: int = 2, **options: object) -> dict:
    s = game(players, **options)
    while s["round"] < 4:
        s = next_round(s)
    return pass_all(s)


# ---------------------------------------------------------------- production


def test_setup_runs_round_one_production_and_opens_construction() -> None:
    s = game(3)
    assert (s["round"], s["phase"], s["start"], s["turn"]) == (1, "construction", 0, 0)
    assert to_act(s) == (0,)
    for seat in range(3):
        assert res(s, "0,0", seat) == {"wood": 3} and res(s, "1,0", seat) == {"stone": 3}


def test_production_is_automatic_at_the_start_of_each_round() -> None:
    s = game(2)
    empty_start(s)
    put(s, "0,1", "field")
    s = done_all(pass_all(s))
    assert s["round"] == 2 and s["phase"] == "construction"
    assert res(s, "0,0") == {"wood": 3} and res(s, "1,0") == {"stone": 3} and res(s, "0,1") == {"wheat": 2}


# ---------------------------------------------------------------- construction


def test_construction_turns_run_clockwise_from_the_start_player_with_hard_passes() -> None:
    s = game(3)
    order = []
    script = [
        (0, "/trolley build field 0,1"),
        (1, "/trolley pass"),
        (2, "/trolley route straight 0,1 90"),
        (0, "/trolley route straight -1,0 0"),  # bob is skipped from now on
        (2, "/trolley pass"),
        (0, "/trolley build meadow 1,1"),
        (0, "/trolley pass"),
    ]
    for seat, text in script:
        order.append(to_act(s)[0])
        s = do(s, seat, text)
    assert order == [0, 1, 2, 0, 2, 0, 0]
    assert s["phase"] == "transport" and to_act(s) == (0, 1, 2)


def test_a_passed_player_cannot_act_again_this_round() -> None:
    s = do(game(2), 0, "/trolley pass")
    s = do(s, 1, "/trolley build field 0,1")
    assert to_act(s) == (1,)
    assert rejected(s, 0, "/trolley build field 0,1").startswith("It is not your move")


def test_building_or_laying_routes_ends_the_turn() -> None:
    s = game(2)
    s = do(s, 0, "/trolley build field 0,1")
    assert to_act(s) == (1,)
    s = do(s, 1, "/trolley route straight 0,1 90 straight 0,2 90")
    assert to_act(s) == (0,)
    s = do(s, 0, "/trolley route straight -1,0 0")
    assert to_act(s) == (1,)
    s = do(s, 1, "/trolley upgrade 0,1 90")
    assert to_act(s) == (0,)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_start_player_passes_left_each_round(players: int) -> None:
    s = game(players)
    starts = []
    for _ in range(4):
        starts.append((s["start"], to_act(s)[0]))
        if s["round"] < 4:
            s = next_round(s)
    assert starts == [(r % players, r % players) for r in range(4)]


# ---------------------------------------------------------------- transport and processing


def test_transport_is_simultaneous_and_done_processes_at_once() -> None:
    s = game(3)
    for seat in range(3):
        put(s, "0,1", "bakery", seat, wheat=1, coal=1)
    s = to_transport(s)
    assert to_act(s) == (0, 1, 2)
    s, events = play(s, 2, "/trolley done")
    assert vp(s, 2) == 6 and vp(s, 0) == 0  # cat processed, the others not yet
    assert texts(events) == ["cat processes.", "cat's Bakery at 0,1 converts 1×, +6 VP."]
    assert to_act(s) == (0, 1)
    assert rejected(s, 2, "/trolley move wood 0,0 0,1").startswith("It is not your move")
    s = do(s, 0, "/trolley done")
    assert s["phase"] == "transport" and s["round"] == 1
    s, events = play(s, 1, "/trolley done")
    assert s["round"] == 2 and s["phase"] == "construction"
    assert [vp(s, seat) for seat in range(3)] == [6, 6, 6]
    assert "Round 2 begins; bob is the start player." in texts(events)


def test_a_player_may_move_many_times_before_done() -> None:
    s = game(2)
    lay(s, "0,1", "straight", 90)
    put(s, "0,2", "charcoal-kiln")
    s = to_transport(s)
    for _ in range(3):
        s = do(s, 0, "/trolley move wood 0,0 0,2")
    assert res(s, "0,2") == {"wood": 3} and res(s, "0,0") == {}
    s = do(s, 0, "/trolley move wood 0,2 0,0")  # back again, the Forest takes wood
    assert res(s, "0,2") == {"wood": 2} and res(s, "0,0") == {"wood": 1}


def test_processing_only_runs_at_done() -> None:
    s = game(2)
    lay(s, "0,1", "straight", 90)
    put(s, "0,2", "charcoal-kiln")
    s = to_transport(s)
    s = do(s, 0, "/trolley move wood 0,0 0,2")
    assert res(s, "0,2") == {"wood": 1}
    s = do(s, 0, "/trolley done")
    assert res(s, "0,2") == {"coal": 1}


def test_rounds_one_to_three_end_when_everyone_is_done() -> None:
    s = game(2)
    for r in (1, 2, 3):
        assert s["round"] == r
        s = pass_all(s)
        s = do(s, 0, "/trolley done")
        assert s["round"] == r and to_act(s) == (1,)
        s = do(s, 1, "/trolley done")
    assert s["round"] == 4 and s["phase"] == "construction"


def test_round_four_repeats_transport_and_processing_until_done_twice() -> None:
    """Wood to the Kiln, process (coal), move the coal on to the Bakery, process again (6 VP)."""
    s = game(2)
    lay(s, "0,1", "straight", 90)
    put(s, "0,2", "charcoal-kiln")
    lay(s, "0,3", "straight", 90)
    put(s, "0,4", "bakery", wheat=1)
    while s["round"] < 4:
        s = next_round(s)
    s = pass_all(s)
    s = do(s, 0, "/trolley move wood 0,0 0,2")
    s = do(s, 0, "/trolley done")
    assert res(s, "0,2") == {"coal": 1} and town(s)["step"] == "processed"
    assert to_act(s) == (0, 1)  # ann may transport again
    assert GAME.status(s).summary == (
        "Round 4 · Transport: ann, bob to transport, then done (round 4: transport again, or done to finish)"
    )
    s, events = play(s, 0, "/trolley move coal 0,2 0,4")
    assert texts(events) == ["ann transports again.", "ann moves coal 0,2→0,4."]
    assert town(s)["step"] == "transport"
    s = do(s, 0, "/trolley done")
    assert vp(s) == 6 and res(s, "0,4") == {}
    s, events = play(s, 0, "/trolley done")
    assert town(s)["step"] == "finished" and "ann is finished for the game." in texts(events)
    assert to_act(s) == (1,) and s["phase"] == "transport"
    s = do(s, 1, "/trolley done")
    assert s["phase"] == "transport" and to_act(s) == (1,)
    s = do(s, 1, "/trolley done")
    assert s["phase"] == "finished" and GAME.status(s).finished


def test_round_four_done_without_moving_again_ends_the_player() -> None:
    s = _round4_transport(1)
    s = do(s, 0, "/trolley done")
    assert s["phase"] == "transport"
    s = do(s, 0, "/trolley done")
    assert s["phase"] == "finished"


# ---------------------------------------------------------------- the end


def test_game_end_effects_and_standings_breakdown() -> None:
    s = game(2)
    put(s, "0,1", "ranch", sheep=8)
    put(s, "1,1", "spinning-shop", sheep=1)
    put(s, "0,1", "bakery", seat=1, wheat=1, coal=1)
    s = finish(s)
    rows = GAME.standings(s)
    assert [(r["player"], r["score"], r["rank"]) for r in rows] == [("ann", 36, 1), ("bob", 6, 2)]
    assert rows[0]["breakdown"] == {"immediate": 0, "production": 6, "construction": 0, "processing": 0, "end": 30}
    assert rows[1]["breakdown"] == {"immediate": 0, "production": 0, "construction": 0, "processing": 6, "end": 0}
    assert GAME.status(s).summary == "Game over: ann with 36 VP"


def test_ties_share_the_rank() -> None:
    s = _round4_transport(4)
    for seat, points in enumerate([10, 5, 10, 5]):
        s["towns"][seat]["vp"] = points
    s = done_all(s)
    assert standings(s) == [("ann", 10, 1), ("cat", 10, 1), ("bob", 5, 3), ("dan", 5, 3)]
    assert GAME.status(s).summary == "Game over: ann and cat with 10 VP"


def test_the_game_is_over_after_round_four() -> None:
    s = done_all(_round4_transport(2))
    assert s["phase"] == "finished" and s["round"] == 4
    assert rejected(s, 0, "/trolley pass") == "The game is over."
    assert GAME.legal_moves(s, 0) == [] and GAME.status(s).to_act == ()


# ---------------------------------------------------------------- solo


def test_solo_round_end_asks_for_removals_from_the_visible_tiles() -> None:
    s = done_all(pass_all(game(1)))
    assert s["phase"] == "cleanup" and to_act(s) == (0,)
    m = s["market"]
    row, a, b, v0, v1 = list(m["row"]), list(m["a"]), list(m["b"]), list(m["v"][0]), list(m["v"][1])
    legal = GAME.legal_moves(s, 0)
    assert len(legal) == 2 * 28  # 2 V tops x 2 of the 8 visible A/B tiles (6 slots, 2 pile tops)
    assert rejected(s, 0, f"/trolley remove {v0[0]}").startswith("Remove exactly 1 V tile(s) and 2 A/B tile(s)")
    assert rejected(s, 0, f"/trolley remove {v0[0]} {v1[0]} {row[0]}") == "Remove 1 V tile(s) and 2 A/B tile(s)."
    assert rejected(s, 0, f"/trolley remove {v0[0]} {row[0]} {b[1]}").endswith("is not visible in the market now.")
    assert rejected(s, 0, f"/trolley remove {v0[1]} {row[0]} {row[1]}").endswith("is not visible in the market now.")
    s, events = play(s, 0, f"/trolley remove {v1[0]} {row[3]} {a[0]}")
    assert s["round"] == 2 and s["phase"] == "construction"
    m = s["market"]
    assert m["v"] == [v0, v1[1:]]
    # Removed: slot 3 (B side slides left, refilled from the B pile) and the A pile's top; then the
    # round shift moves slot 0's B tile under the B pile and gives the slot the new A top.
    assert m["row"] == [a[1], row[1], row[2], row[4], row[5], b[0]]
    assert m["a"] == a[2:]
    assert m["b"] == b[1:] + [row[0]]


def test_solo_removal_of_a_v_pile_top_reveals_the_next() -> None:
    s = done_all(pass_all(game(1)))
    m = s["market"]
    row, v0 = list(m["row"]), list(m["v"][0])
    s = do(s, 0, f"/trolley remove {v0[0]} {row[5]} {row[4]}")
    assert s["market"]["v"][0] == v0[1:]


def test_solo_removal_of_a_pile_top_with_a_slot_on_the_same_side() -> None:
    """Removing B slot 1 and the B pile's top together: both go, and the gap refills from the
    pile below (the top must not slide into the row first and survive)."""
    s = done_all(pass_all(game(1)))
    m = s["market"]
    row, a, b, v0 = list(m["row"]), list(m["a"]), list(m["b"]), list(m["v"][0])
    s = do(s, 0, f"/trolley remove {v0[0]} {row[1]} {b[0]}")
    m = s["market"]
    # after removal: row0 row2..row5 b1; then the round shift puts row0 under the B pile
    assert m["row"] == [a[0], row[2], row[3], row[4], row[5], b[1]]
    assert m["b"] == b[2:] + [row[0]]
    everywhere = m["row"] + m["a"] + m["b"] + m["v"][0] + m["v"][1]
    assert row[1] not in everywhere and b[0] not in everywhere and v0[0] not in everywhere
    assert len(everywhere) == 58 - 3


def test_solo_removal_of_both_a_slots() -> None:
    """Round 3 has two A slots; removing both takes exactly those two tiles."""
    s = game(1)
    s = next_round(next_round(s))
    s = done_all(pass_all(s))
    assert s["phase"] == "cleanup" and s["market"]["marker"] == 2
    m = s["market"]
    row, a, b, v1 = list(m["row"]), list(m["a"]), list(m["b"]), list(m["v"][1])
    for order in ((row[0], row[1]), (row[1], row[0])):
        after = do(s, 0, f"/trolley remove {v1[0]} {order[0]} {order[1]}")
        am = after["market"]
        # the A side refills from the A pile (a0 then a1), then the shift adds a2 beside the marker
        assert am["row"] == [a[1], a[0], a[2], row[3], row[4], row[5]]
        assert am["b"] == b + [row[2]]
        assert row[0] not in am["row"] + am["a"] and row[1] not in am["row"] + am["a"]


def test_solo_has_no_removals_after_round_four() -> None:
    s = done_all(_round4_transport(1))
    assert s["phase"] == "finished"


@pytest.mark.parametrize(
    ("points", "title"),
    [
        (0, "no title yet (40 VP for Rookie)"),
        (39, "no title yet (40 VP for Rookie)"),
        (40, "Rookie"),
        (59, "Rookie"),
        (60, "Full-fledged"),
        (70, "Not bad at all"),
        (79, "Not bad at all"),
        (80, "Amazing"),
        (99, "Amazing"),
        (100, "Incredible"),
        (120, "Are you a god?"),
        (150, "Are you a god?"),
    ],
)
def test_solo_titles_by_final_score(points: int, title: str) -> None:
    s = _round4_transport(1)
    s["towns"][0]["vp"] = points
    s = done_all(s)
    (row,) = GAME.standings(s)
    assert (row["score"], row["title"]) == (points, title)
    assert GAME.view(s, 0)["towns"][0]["title"] == (None if points < 40 else title)


def test_solo_titles_match_the_rulebook_table() -> None:
    assert RULES.titles == (
        (40, "Rookie"),
        (60, "Full-fledged"),
        (70, "Not bad at all"),
        (80, "Amazing"),
        (100, "Incredible"),
        (120, "Are you a god?"),
    )


def test_no_title_before_the_end_or_with_more_players() -> None:
    s = game(1)
    assert "title" not in GAME.standings(s)[0]
    s = done_all(_round4_transport(2))
    assert all("title" not in row for row in GAME.standings(s))


# ---------------------------------------------------------------- resign


def test_resigning_in_a_two_player_game_ends_it_with_the_resigner_last() -> None:
    s = game(2)
    s["towns"][1]["vp"] = 20
    s, events = GAME.resign(s, 1)
    assert s["phase"] == "finished"
    rows = GAME.standings(s)
    assert [(r["player"], r["rank"]) for r in rows] == [("ann", 1), ("bob", 2)]
    assert rows[1]["title"] == "resigned"
    assert texts(events)[0] == "bob resigns."


def test_resigning_on_your_construction_turn_passes_it_on_and_skips_you_later() -> None:
    s = game(3)
    s = do(s, 0, "/trolley build field 0,1")
    s, _ = GAME.resign(s, 1)
    assert to_act(s) == (2,)
    s = do(s, 2, "/trolley pass")
    assert to_act(s) == (0,)
    s = do(s, 0, "/trolley pass")
    assert s["phase"] == "transport" and to_act(s) == (0, 2)
    s = done_all(s)
    assert s["round"] == 2 and s["start"] == 2  # bob's turn as start player is skipped
    assert rejected(s, 1, "/trolley pass") == "You are not playing in this game."


def test_resigning_in_transport_can_end_the_round() -> None:
    s = to_transport(game(3))
    s = do(s, 0, "/trolley done")
    s = do(s, 2, "/trolley done")
    s, _ = GAME.resign(s, 1)
    assert s["round"] == 2 and s["phase"] == "construction"


def test_resigning_solo_ends_the_game() -> None:
    s, _ = GAME.resign(game(1), 0)
    assert s["phase"] == "finished"
    assert GAME.standings(s)[0]["title"] == "resigned"


def test_resign_after_the_end_is_refused() -> None:
    s = done_all(_round4_transport(2))
    with pytest.raises(Exception, match="The game is over."):
        GAME.resign(s, 0)


# ---------------------------------------------------------------- undo scope


def test_undo_scope_by_phase() -> None:
    s = game(2)
    assert GAME.undo_scope(s) == (1, "construction", 1)
    s = do(s, 0, "/trolley pass")
    assert GAME.undo_scope(s) == (1, "construction", 2)
    s = pass_all(s)
    assert GAME.undo_scope(s) == (1, "transport")
    s = do(s, 0, "/trolley done")
    assert GAME.undo_scope(s) == (1, "transport")  # bob's moves do not close ann's undo
    s = done_all(s)
    assert GAME.undo_scope(s) == (2, "construction", 3)


def test_undo_scope_of_a_production_choice_and_solo_cleanup() -> None:
    s = game(2)
    put(s, "0,1", "wasteland")
    s = done_all(pass_all(s))
    assert GAME.undo_scope(s) == (2, "production")
    solo = done_all(pass_all(game(1)))
    assert GAME.undo_scope(solo) == (1, "cleanup")


def test_a_choice_made_during_construction_keeps_the_turn_scope() -> None:
    s = offer(game(2), "trading-post")
    s = do(s, 0, "/trolley build trading-post 0,1")
    assert GAME.undo_scope(s) == (1, "construction", 1) and to_act(s) == (0,)
    s = do(s, 0, "/trolley choose 0,1 wood stone coal")
    assert GAME.undo_scope(s) == (1, "construction", 2) and to_act(s) == (1,)


# ---------------------------------------------------------------- rejected moves


REJECTIONS = [
    (
        "construction",
        1,
        "/trolley pass",
        "It is not your move.",
    ),
    ("construction", 0, "/trolley done", "Done ends your transport step; in construction say /trolley pass."),
    ("construction", 0, "/trolley move wood 0,0 1,0", "Goods move only in the transport phase."),
    ("construction", 0, "/trolley remove bazaar", "Tiles are removed only at the end of a solo round."),
    ("construction", 0, "/trolley choose 0,0 wood", "Nothing is waiting for your choice."),
    ("construction", 0, "/trolley expert off", "You are already playing with the basic transport rules."),
    (
        "construction",
        0,
        "/trolley build castle 0,1",
        'Unknown building "castle". Names use hyphens, e.g. charcoal-kiln.',
    ),
    ("construction", 0, "/trolley build field 0,1 extra", None),
    ("construction", 0, "/trolley fly", None),
    ("transport", 0, "/trolley pass", "Pass is for the construction phase; in transport say /trolley done."),
    ("transport", 0, "/trolley build field 0,1", "You can build only on your construction turn (now: transport)."),
    (
        "transport",
        0,
        "/trolley route straight 0,1 0",
        "You can lay routes only on your construction turn (now: transport).",
    ),
    ("transport", 0, "/trolley move wood 0,0 1,0", "The Mountain at 1,0 takes only resources drawn on it: stone."),
    ("transport", 0, "/trolley move wood 0,0 0,1", "0,1 is not one of your buildings."),
    ("transport", 0, "/trolley move wood 0,0 0,0", "Move goods to a different building."),
    ("transport", 0, "/trolley move coal 0,2 0,0", "There is no coal on your Bakery at 0,2."),
    ("transport", 0, "/trolley move wood 0,0", None),
]


def _rejection_state(phase: str) -> dict:
    s = game(2)
    lay(s, "0,1", "straight", 90)
    put(s, "0,2", "bakery")
    return to_transport(s) if phase == "transport" else s


@pytest.mark.parametrize(("phase", "seat", "text", "message"), REJECTIONS)
def test_rejected_moves_change_nothing_and_say_why(phase: str, seat: int, text: str, message: str | None) -> None:
    s = _rejection_state(phase)
    before = json.dumps(s, sort_keys=True)
    got = rejected(s, seat, text)
    assert json.dumps(s, sort_keys=True) == before
    assert got  # never an empty message
    if message is not None:
        assert got == message


def test_a_command_failing_at_its_last_part_leaves_nothing_half_done() -> None:
    s = game(2)
    message = rejected(s, 0, "/trolley route straight 0,1 90 straight 0,2 90 straight 5,5 0")
    assert message.startswith("5,5 does not touch your town along an edge.")
    assert "0,1" not in town(s)["cells"] and res(s, "0,0") == {"wood": 3}
    t = _rejection_state("transport")
    assert rejected(t, 0, "/trolley move wheat 0,0 0,2".replace("wheat", "wood")).endswith("coal, wheat.")
    assert rejected(t, 0, "/trolley move wood 0,0 0,0") == "Move goods to a different building."
    assert res(t, "0,0") == {"wood": 3}


def test_not_your_move_leaves_who_is_to_act_to_the_host() -> None:
    """The host appends "Now: <who is to act>" to a refusal for a seat not to act (bot/moves.py)."""
    s = to_transport(game(2))
    s = do(s, 0, "/trolley done")
    assert rejected(s, 0, "/trolley done") == "It is not your move."


def test_a_player_with_a_pending_choice_may_still_drop_the_expert_rule() -> None:
    s = game(2, expert=["all"])
    put(s, "0,1", "wasteland")
    s = done_all(pass_all(s))
    s = do(s, 0, "/trolley expert off")
    assert town(s)["expert"] is False and town(s, 1)["expert"] is True
    assert town(s)["pending"] and to_act(s) == (0,)
    assert {"verb": "expert"} not in GAME.legal_moves(s, 0)  # dropped: no longer offered


# ---------------------------------------------------------------- the expert option at setup


def test_expert_option_by_name_seat_number_or_all() -> None:
    assert [t["expert"] for t in game(3, expert=["bob"])["towns"]] == [False, True, False]
    assert [t["expert"] for t in game(3, expert=["3", "ANN"])["towns"]] == [True, False, True]
    assert [t["expert"] for t in game(2, expert=["all"])["towns"]] == [True, True]
    assert [t["expert"] for t in game(2)["towns"]] == [False, False]


@pytest.mark.parametrize("word", ["cat", "3", "0"])
def test_expert_option_naming_nobody_is_refused_at_start(word: str) -> None:
    with pytest.raises(IllegalMove) as info:
        game(2, expert=[word])
    assert info.value.message == f'expert: "{word}" is not a player here. Use names, seat numbers (1 = first) or all.'


def test_expert_option_survives_the_hosts_dry_run_before_players_join() -> None:
    """/game new checks options with one placeholder player (bot/lobby.py), so names and seat
    numbers of players who have not joined yet must pass there; only impossible seats fail."""
    for words in (["bob"], ["2"], ["4", "ann"]):
        GAME.setup(["p0"], {"expert": words}, 0)
    with pytest.raises(IllegalMove):
        GAME.setup(["p0"], {"expert": ["5"]}, 0)


def test_a_kicked_player_leaves_like_a_resignation_but_is_shown_as_kicked() -> None:
    s = game(3)
    s, events = GAME.kick(s, 1)
    assert [e["text"] for e in events][0] == "bob was kicked by a moderator."
    assert s["resigned"][1] and s["kicked"] == [False, True, False]
    rows = {row["seat"]: row for row in GAME.standings(s)}
    assert rows[1]["title"] == "kicked" and rows[1]["rank"] == 3
    assert GAME.view(s, None)["towns"][1]["kicked"] is True
    resigned, _ = GAME.resign(game(3), 1)
    assert {row["seat"]: row for row in GAME.standings(resigned)}[1]["title"] == "resigned"
