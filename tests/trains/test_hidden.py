"""Hidden information: hands and deck order never reach another seat or a spectator."""

from __future__ import annotations

import json

from games.trains import GAME


def _play(seed: int, moves: int):
    state = GAME.setup(["ann", "bob", "cat"], {"map": "osaka"}, seed)
    events_log = []
    for _ in range(moves):
        st = GAME.status(state)
        if st.finished:
            break
        seat = st.to_act[0]
        state, events = GAME.apply(state, seat, GAME.bot_move(state, seat, 1))
        events_log.extend(events)
    return state, events_log


def test_views_only_show_own_hand():
    state, _ = _play(3, 120)
    for viewer in (None, 0, 1, 2):
        view = GAME.view(state, viewer)
        json.dumps(view)
        assert view["game"] == "trains"
        if viewer is None:
            assert "hand" not in view and "discard" not in view and "deck_contents" not in view
        else:
            assert view["hand"] == state["players"][viewer]["hand"]
        for p in view["players"]:
            assert set(p) >= {"hand_size", "deck_size", "discard_size", "discard_top"}
            assert "hand" not in p and "deck" not in p
            assert p["hand_size"] == len(state["players"][p["seat"]]["hand"])
        # Nothing in the view reveals deck order: only sorted counts for the owner.
        if viewer is not None:
            assert list(view["deck_contents"]) == sorted(view["deck_contents"])


def test_every_view_starts_with_the_platform_header():
    for moves in (0, 60):
        state, _ = _play(3, moves)
        for viewer in (None, 0, 2):
            view = GAME.view(state, viewer)
            assert list(view)[:4] == ["game", "names", "viewer", "finished"]
            assert view["names"] == ["ann", "bob", "cat"] and view["viewer"] == viewer
            assert view["finished"] is False
    over = dict(state, phase="over")
    assert GAME.view(over, None)["finished"] is True


def test_view_of_other_seat_differs_only_in_private_keys():
    state, _ = _play(4, 80)
    private = {"hand", "discard", "deck_contents", "hints", "viewer"}
    views = [GAME.view(state, v) for v in (None, 0, 1, 2)]
    public = [{k: v for k, v in view.items() if k not in private} for view in views]
    assert all(p == public[0] for p in public)


def test_private_events_go_to_the_drawing_seat():
    state, events = _play(5, 150)
    privates = [e for e in events if "private" in e]
    assert privates
    for e in privates:
        assert e["private"]["seat"] in (0, 1, 2)
        assert "text" not in e  # the card list never appears in a public text
    drawn = [e for e in events if "draws" in e.get("text", "")]
    assert drawn and all(e.get("irreversible") for e in drawn)
    for e in events:
        text = e.get("text", "")
        assert "You drew" not in text


def test_bot_move_does_not_change_state():
    state, _ = _play(6, 40)
    before = json.dumps(state, sort_keys=True)
    seat = GAME.status(state).to_act[0]
    for level in (0, 1):
        GAME.bot_move(state, seat, level)
        assert json.dumps(state, sort_keys=True) == before


def _reshuffle_hidden(state: dict, seat: int, seed: int) -> dict:
    """Same public facts, different secrets: ``seat``'s hand and deck cards are re-dealt."""
    from games.rng import Rng

    other = json.loads(json.dumps(state))
    player = other["players"][seat]
    pool = Rng(seed).shuffled(player["hand"] + player["deck"])
    player["hand"], player["deck"] = pool[: len(player["hand"])], pool[len(player["hand"]) :]
    return other


def test_public_view_and_image_do_not_depend_on_hidden_cards():
    from rendering.trains import render_board

    state, _ = _play(7, 90)
    checked = 0
    for seat in range(3):
        for salt in (1, 2):
            variant = _reshuffle_hidden(state, seat, salt)
            if variant == state:
                continue
            checked += 1
            assert GAME.view(variant, None) == GAME.view(state, None)
            for viewer in range(3):
                if viewer != seat:
                    # Another seat's view never changes with this seat's secrets (hints are
                    # computed from the viewer's own cards only).
                    assert GAME.view(variant, viewer) == GAME.view(state, viewer), (seat, viewer)
            assert render_board(GAME.view(variant, None), None) == render_board(GAME.view(state, None), None)
            assert GAME.status(variant).summary == GAME.status(state).summary
    assert checked >= 3


def test_lost_and_found_choice_is_a_secret_command():
    assert GAME.hidden_move is not None
    secret = GAME.parse("/trains play lost-and-found express-train")
    assert GAME.hidden_move(secret)
    assert GAME.hidden_move(GAME.parse("/trains play dispatcher lost-and-found express-train then waste"))
    assert not GAME.hidden_move(GAME.parse("/trains play lost-and-found skip"))
    assert not GAME.hidden_move(GAME.parse("/trains play lay-rails E5"))
    assert not GAME.hidden_move(GAME.parse("/trains play mail-train lost-and-found"))
    assert not GAME.hidden_move(GAME.parse("/trains buy lost-and-found"))


def test_redeal_changes_only_what_the_seat_keeps_secret():
    from games.trains.rules import redeal

    state, _ = _play(6, 40)
    before = json.dumps(state, sort_keys=True)
    other = redeal(state, 1, 99)
    assert json.dumps(state, sort_keys=True) == before  # the given state is untouched
    mine, theirs = state["players"][1], other["players"][1]
    assert sorted(mine["hand"] + mine["deck"]) == sorted(theirs["hand"] + theirs["deck"])
    assert len(theirs["hand"]) == len(mine["hand"]) and (theirs["hand"], theirs["deck"]) != (mine["hand"], mine["deck"])
    for viewer in (None, 0, 2):
        assert GAME.view(other, viewer) == GAME.view(state, viewer)
