"""Card tokens (payment.parse_token, check_tokens) and what their simple icons add up to
(payment.gains), word for word and worked by hand: "slug:icon+icon", each icon printed on the card
(as many times as it is used), and every $1/$2, worker, new-passenger and calm icon counted."""

from __future__ import annotations

import pytest

from games.base import IllegalMove
from games.tramways.payment import Gains, check_tokens, gains, parse_token
from tests.tramways.conftest import crafted, hand, refused


def test_parse_token_splits_at_the_first_colon() -> None:
    assert parse_token("track-crew:rail+rail") == ("track-crew", ("rail", "rail"))
    assert parse_token("track-crew:rail:rail") == ("track-crew", ("rail:rail",))
    for word in ("track-crew:", "track-crew", ""):
        with pytest.raises(IllegalMove) as info:
            parse_token(word)
        assert info.value.message == f'"{word}" must name a card and the icons used from it, like track-crew:rail+rail.'


def test_icons_must_be_printed_on_the_card() -> None:
    with pytest.raises(IllegalMove) as info:
        check_tokens(["commuter"], [("commuter", ("ticket", "rail"))])
    assert info.value.message == "Commuter shows ticket+r+c, not rail."
    with pytest.raises(IllegalMove) as info:
        check_tokens(["track-crew"], [("track-crew", ("rail", "rail", "rail"))])
    assert info.value.message == "Track Crew shows rail+rail, not rail."
    state = crafted(["t-res", "t-plain", "t-plain", "t-plain"], [])
    hand(state, 0, "track-crew")
    assert refused(state, 0, {"verb": "rails", "cells": ["A1", "A2"], "cards": ["track-crew:rail:rail"]}) == (
        "Track Crew shows rail+rail, not rail:rail."
    )


def test_gains_add_up_every_simple_icon() -> None:
    played = [
        ("subsidy", ("$2", "$2")),
        ("petty-cash", ("$1", "calm")),
        ("holiday", ("calm", "calm")),
        ("union-hall", ("worker", "worker")),
        ("new-arrivals", ("pax", "$1")),
        ("tourist", ("ticket", "pax")),
        ("track-crew", ("rail", "rail")),
    ]
    # $2 + $2 + $1 + $1 = $6; 2 workers; 2 new passengers; 1 + 2 = 3 calm.
    assert gains(played) == Gains(money=6, workers=2, pax=2, calm=3)
    assert gains([]) == Gains()
