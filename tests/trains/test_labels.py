"""Autocomplete labels say what a legal move costs right now."""

from __future__ import annotations

import games
from games.options import defaults

SPEC = games.get_game("trains")


def _first_turn(seed: int) -> dict:
    state = SPEC.setup(["ann", "bob"], defaults(SPEC.options), seed)
    while True:
        seat = SPEC.status(state).to_act[0]
        if not any(m["verb"] == "start" for m in SPEC.legal_moves(state, seat)):
            return state
        state, _ = SPEC.apply(state, seat, SPEC.bot_move(state, seat, 1))


def test_labels_match_what_applying_the_move_does():
    for seed in range(6):
        state = _first_turn(seed)
        seat = SPEC.status(state).to_act[0]
        for move in SPEC.legal_moves(state, seat):
            label = SPEC.move_label(state, seat, move)
            if move["verb"] == "buy":
                assert label.startswith("costs ")
            if move["verb"] == "play":
                after, _ = SPEC.apply(state, seat, move)
                assert f"money {state['turn']['money']} → {after['turn']['money']}" in label


def test_start_hexes_are_labelled_with_their_terrain():
    state = SPEC.setup(["ann", "bob"], defaults(SPEC.options), 1)
    labels = {SPEC.move_label(state, 0, m).split(", ")[-1] for m in SPEC.legal_moves(state, 0)}
    assert labels <= {"plain", "river", "mountain", "city"} and "plain" in labels
    # A city's hex is labelled with its name too, so autocomplete finds "shinjuku" as H6.
    assert SPEC.move_label(state, 0, {"verb": "start", "hex": "H6"}) == "Shinjuku, city"
