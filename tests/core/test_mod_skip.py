"""``/mod skip``, word for word: which seat it skips, which move it plays (the game's declared skip
move, or the host's fallbacks for a game that declares none), where it stops, and its refusals
(issue 17, host mutation testing: ``bot/moderation.py``'s ``skip``, ``skip_turn``, ``skip_move``)."""

from __future__ import annotations

from dataclasses import replace

import pytest

import games
from bot import replies as R
from bot.core import Conductor
from games.base import GameSpec
from storage import Store
from tests.core.conftest import ANN, BOB, CHANNEL, GUILD, MOD, say, snapshot, started_two_player


def swap_spec(monkeypatch: pytest.MonkeyPatch, **changes: object) -> GameSpec:
    """Tiny Towns as a plugin game might declare it: its spec with ``changes``."""
    manifest = games.get_manifest("tiny-towns")
    spec = replace(manifest.spec, **changes)  # type: ignore[arg-type]
    monkeypatch.setitem(games._loaded, "tiny-towns", replace(manifest, spec=spec))
    return spec


async def ann_can_build_a_well(host: Conductor) -> None:
    """Round 2: ann placed stone on A2 beside her wood on A1, so she may build a Well or say done."""
    await started_two_player(host)
    for actor, text in [
        (ANN, "/tt announce wood"),
        (ANN, "/tt place A1"),
        (BOB, "/tt place A1"),
        (BOB, "/tt announce stone"),
        (BOB, "/tt place D4"),
        (ANN, "/tt place A2"),
    ]:
        assert (await say(host, actor, text)).ok, text


async def moves_of(store: Store) -> list[tuple[int, str, str]]:
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None
    return [(m.seat, m.user_id, m.text) for m in await store.moves(row.id)]


async def test_each_skip_says_what_it_played_and_stops_when_the_turn_or_phase_moves_on(
    host: Conductor, store: Store
) -> None:
    await started_two_player(host)
    # (target, exact public reply): the moderator sees nothing private.
    for target, public in [
        (
            "",
            "mod skipped ann's turn: played `/tt announce wood`.\nann names wood.\n"
            "**round 1 (wood): waiting for: ann, bob**",
        ),
        (
            " ann",
            "mod skipped ann's turn: played `/tt place A1`.\nann places wood on A1.\n"
            "**round 1 (wood): waiting for: bob**",
        ),
        # The round ends with bob's placement and bob names the next resource: the scope moved on.
        (
            " bob",
            "mod skipped bob's turn: played `/tt place A1`.\nbob places wood on A1.\nRound 1 is over.\n"
            "**bob to name a resource**",
        ),
        # bob still has to place after naming, but the phase changed: one move only.
        (
            " #2",
            "mod skipped bob's turn: played `/tt announce wood`.\nbob names wood.\n"
            "**round 2 (wood): waiting for: ann, bob**",
        ),
    ]:
        skipped = await say(host, MOD, "/mod skip" + target)
        assert (skipped.error, skipped.public, skipped.private) == (None, public, ""), target
    # Every move is logged as the skipped seat's, made by the moderator.
    assert await moves_of(store) == [
        (0, "9", "/tt announce wood"),
        (0, "9", "/tt place A1"),
        (1, "9", "/tt place A1"),
        (1, "9", "/tt announce wood"),
    ]


async def test_skip_refusals_say_who_may_be_skipped(host: Conductor, store: Store) -> None:
    assert (await say(host, ANN, "/game new tiny-towns buildings=first-game")).ok
    early = await say(host, MOD, "/mod skip")
    assert (early.error, early.private) == (R.NOT_STARTED, "The game has not started.")
    assert (await say(host, BOB, "/game join")).ok
    assert (await say(host, ANN, "/game start")).ok
    before = await snapshot(store)
    idle = await say(host, MOD, "/mod skip bob")
    assert (idle.error, idle.private) == (R.BAD_COMMAND, "bob has nothing to do right now; ann to name a resource.")
    assert (await say(host, MOD, "/mod pause")).ok
    paused = await say(host, MOD, "/mod skip ann")
    assert (paused.error, paused.private) == (R.PAUSED, "The game is paused; resume it with `/mod pause off` first.")
    assert (await say(host, MOD, "/mod pause off")).ok
    assert (await snapshot(store))[0] == before[0]  # nothing was played


async def test_the_declared_skip_ends_a_turn_without_building(host: Conductor, store: Store) -> None:
    await ann_can_build_a_well(host)
    skipped = await say(host, MOD, "/mod skip ann")
    assert skipped.public.splitlines()[0] == "mod skipped ann's turn: played `/tt done`."
    assert (await moves_of(store))[-1] == (0, "9", "/tt done")


async def test_a_skip_that_leaves_a_build_open_says_done_too(host: Conductor, store: Store) -> None:
    """Placing can leave the seat still to act (a pattern it may build): the skip goes on to done,
    and both moves are in one reply."""
    await started_two_player(host)
    for actor, text in [(ANN, "/tt announce wood"), (ANN, "/tt place D3"), (BOB, "/tt place A1")]:
        assert (await say(host, actor, text)).ok, text
    assert (await say(host, BOB, "/tt announce stone")).ok
    assert (await say(host, BOB, "/tt place A4")).ok
    skipped = await say(host, MOD, "/mod skip")
    # The least harmful square for ann is the corner D4, beside her wood on D3: a Well is possible.
    assert (skipped.public, skipped.private) == (
        "mod skipped ann's turn: played `/tt place D4`, `/tt done`.\nann places stone on D4.\nann is done.\n"
        "Round 2 is over.\n**ann to name a resource**",
        "",
    )
    assert [text for _, _, text in (await moves_of(store))[-2:]] == ["/tt place D4", "/tt done"]


async def test_without_a_declared_skip_move_the_turn_ender_is_played(
    host: Conductor, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    swap_spec(monkeypatch, skip_move=None)
    await ann_can_build_a_well(host)
    skipped = await say(host, MOD, "/mod skip")
    assert skipped.public.splitlines()[0] == "mod skipped ann's turn: played `/tt done`."


async def test_without_a_declared_skip_move_the_verb_declared_skip_comes_first(
    host: Conductor, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = games.get_game("tiny-towns")
    verbs = tuple(replace(v, skip=v.name == "build") for v in spec.verbs)
    swap_spec(monkeypatch, skip_move=None, verbs=verbs)
    await ann_can_build_a_well(host)
    skipped = await say(host, MOD, "/mod skip")
    assert skipped.public.splitlines()[0] == "mod skipped ann's turn: played `/tt build well A1 A2 at A1`."


async def test_a_game_that_declares_nothing_gets_its_first_legal_move(
    host: Conductor, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = games.get_game("tiny-towns")
    verbs = tuple(replace(v, ends_turn=False, skip=False) for v in spec.verbs)
    swap_spec(monkeypatch, skip_move=None, verbs=verbs)
    await ann_can_build_a_well(host)
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None and row.state is not None
    legal = [spec.format(m) for m in spec.legal_moves(row.state, 0)]
    assert legal == ["/tt build well A1 A2 at A1", "/tt build well A1 A2 at A2", "/tt done"]
    skipped = await say(host, MOD, "/mod skip")
    # The build ends ann's part of the round (she is done once nothing more can be built): one move.
    assert skipped.public.splitlines()[0] == "mod skipped ann's turn: played `/tt build well A1 A2 at A1`."


async def test_a_seat_with_no_legal_move_is_not_skipped(
    host: Conductor, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    swap_spec(monkeypatch, skip_move=None, legal_moves=lambda state, seat: [])
    await started_two_player(host)
    before = await snapshot(store)
    refused = await say(host, MOD, "/mod skip")
    assert (refused.error, refused.private) == (R.ILLEGAL, "ann has no move to skip right now.")
    assert await snapshot(store) == before


async def test_a_declared_skip_the_rules_refuse_is_reported_and_nothing_is_played(
    host: Conductor, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    swap_spec(monkeypatch, skip_move=lambda state, seat: {"verb": "done"})
    await started_two_player(host)
    before = await snapshot(store)
    refused = await say(host, MOD, "/mod skip")
    assert (refused.error, refused.public, refused.private) == (
        R.ILLEGAL,
        "",
        "You are the Master Builder: first name this round's resource with /tt announce <resource>.",
    )
    assert await snapshot(store) == before


async def ann_to_place_stone(host: Conductor) -> None:
    """Round 2: bob named stone and placed it; ann (wood on A1) has still to place hers."""
    await started_two_player(host)
    for actor, text in [
        (ANN, "/tt announce wood"),
        (ANN, "/tt place A1"),
        (BOB, "/tt place A1"),
        (BOB, "/tt announce stone"),
        (BOB, "/tt place D4"),
    ]:
        assert (await say(host, actor, text)).ok, text


@pytest.mark.parametrize(
    "then",
    [
        None,  # the game has no further skip move for the seat
        {"verb": "build", "building": "cottage", "cells": ["A1", "A2", "B2"], "at": "A1"},  # one the rules refuse
    ],
)
async def test_a_skip_keeps_the_moves_it_played_when_the_next_one_is_missing_or_refused(
    host: Conductor, store: Store, monkeypatch: pytest.MonkeyPatch, then: dict | None
) -> None:
    """ann's stone on A2 leaves her a Well to build, so she still has to act in the same round; the
    second skip move is then missing or illegal, and the skip ends with what it played."""
    tiny = games.get_game("tiny-towns")

    def declared(state: dict, seat: int) -> dict | None:
        return tiny.parse("/tt place A2") if state["towns"][seat]["cells"][4] is None else then

    swap_spec(monkeypatch, skip_move=declared)
    await ann_to_place_stone(host)
    skipped = await say(host, MOD, "/mod skip ann")
    assert (skipped.error, skipped.public, skipped.private) == (
        None,
        "mod skipped ann's turn: played `/tt place A2`.\nann places stone on A2.\n"
        "**round 2 (stone): waiting for: ann**",
        "",
    )
    assert (await moves_of(store))[-1] == (0, "9", "/tt place A2")


async def test_a_game_without_an_undo_scope_is_skipped_too(
    host: Conductor, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    swap_spec(monkeypatch, undo_scope=None)
    await started_two_player(host)
    skipped = await say(host, MOD, "/mod skip")
    # Without a scope the announcement does not end the skip: ann still has to place, so she places too.
    assert skipped.public.splitlines()[0] == "mod skipped ann's turn: played `/tt announce wood`, `/tt place A1`."


async def test_a_skipped_secret_choice_is_not_named(host: Conductor, store: Store) -> None:
    for actor, text in [
        (ANN, "/game new tiny-towns buildings=first-game monuments=on"),
        (BOB, "/game join"),
        (ANN, "/game start"),
    ]:
        assert (await say(host, actor, text)).ok, text
    skipped = await say(host, MOD, "/mod skip bob")
    assert (skipped.public, skipped.private) == (
        "mod skipped bob's turn: played `/tt monument (secret)`.\nbob has chosen a monument.\n"
        "**waiting for: ann (choose a monument)**",
        "",
    )


async def test_without_an_undo_scope_a_fresh_board_ends_the_skip(
    host: Conductor, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """bob's placement ends the round (a fresh board is posted) and makes him the next Master Builder:
    with no scope to watch, the fresh board is what stops the skip before he names a resource."""
    swap_spec(monkeypatch, undo_scope=None)
    await started_two_player(host)
    for actor, text in [(ANN, "/tt announce wood"), (ANN, "/tt place A1")]:
        assert (await say(host, actor, text)).ok, text
    skipped = await say(host, MOD, "/mod skip bob")
    assert skipped.public == (
        "mod skipped bob's turn: played `/tt place A1`.\nbob places wood on A1.\nRound 1 is over.\n"
        "**bob to name a resource**"
    )


async def test_a_skip_with_nobody_to_act_is_refused(
    host: Conductor, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game may wait for no one (a plugin's pause between phases): there is nobody to skip."""
    tiny = games.get_game("tiny-towns")
    swap_spec(monkeypatch, status=lambda state: replace(tiny.status(state), to_act=()))
    await started_two_player(host)
    before = await snapshot(store)
    refused = await say(host, MOD, "/mod skip")
    assert (refused.error, refused.private) == (R.BAD_COMMAND, "Nobody has to act right now.")
    assert await snapshot(store) == before
