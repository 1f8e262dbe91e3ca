"""The host's shape: one read and one write per plain move, undo inside an open phase, skip's secrets."""

from __future__ import annotations

from dataclasses import replace

import games
from bench.store_counter import StoreCounter
from bot import replies as R
from bot.core import Conductor
from bot.replies import Actor
from storage import Store
from tests.core.conftest import ANN, BOB, CAT, CHANNEL, GUILD, MOD, say, snapshot, started_two_player


async def test_a_plain_move_costs_one_read_and_one_write(host: Conductor, store: Store) -> None:
    await started_two_player(host)
    counter = StoreCounter(store)
    for actor, text in [(ANN, "/tt announce wood"), (ANN, "/tt place A1"), (BOB, "/tt place D4")]:
        counter.reset()
        assert (await say(host, actor, text)).ok
        assert (counter.reads, counter.writes) == (1, 1), dict(counter.calls)
        assert counter.calls["table"] == 1 and counter.calls["commit"] == 1
    # The counter sees what it should: a status read also counts the moves.
    counter.reset()
    assert (await say(host, ANN, "/game status")).ok
    assert counter.reads == 2 and counter.writes == 0


async def test_a_refused_move_reads_once_and_writes_nothing(host: Conductor, store: Store) -> None:
    await started_two_player(host)
    counter = StoreCounter(store)
    refused = await say(host, BOB, "/tt place A1")  # nothing announced yet
    assert not refused.ok and (counter.reads, counter.writes) == (1, 0)


async def _three_player_round(host: Conductor) -> None:
    assert (await say(host, ANN, "/game new tiny-towns buildings=first-game")).ok
    assert (await say(host, BOB, "/game join")).ok
    assert (await say(host, CAT, "/game join")).ok
    assert (await say(host, ANN, "/game start")).ok
    assert (await say(host, ANN, "/tt announce wood")).ok


async def test_undo_own_placement_after_others_placed_while_the_round_is_open(host: Conductor, store: Store) -> None:
    await _three_player_round(host)
    assert (await say(host, ANN, "/tt place A1")).ok
    assert (await say(host, BOB, "/tt place B1")).ok
    undone = await say(host, ANN, "/game undo")
    assert undone.ok and "/tt place A1" in undone.public
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None and row.state is not None
    assert [m.text for m in await store.moves(row.id)] == ["/tt announce wood", "/tt place B1"]
    assert row.state["towns"][0]["cells"][0] is None  # ann's A1 is empty again
    assert row.state["towns"][1]["cells"][1] is not None  # bob's B1 stays
    # Every undone move stays in the log, marked reverted.
    assert [m.reverted for m in await store.moves(row.id, include_reverted=True)] == [False, True, False]
    assert (await say(host, ANN, "/tt place C3")).ok


async def test_undo_is_refused_once_the_round_has_closed(host: Conductor, store: Store) -> None:
    await _three_player_round(host)
    for actor, cell in [(ANN, "A1"), (BOB, "B1"), (CAT, "C1")]:
        assert (await say(host, actor, f"/tt place {cell}")).ok
    before = await snapshot(store)
    late = await say(host, BOB, "/game undo")
    assert late.error == R.ILLEGAL and "Too late" in late.private
    assert await snapshot(store) == before


async def test_nobody_undoes_a_move_of_the_seat_they_took_over(host: Conductor, store: Store) -> None:
    await _three_player_round(host)
    assert (await say(host, BOB, "/tt place B1")).ok
    assert (await say(host, MOD, "/game substitute bob <@7>")).ok
    dave = Actor("7", "dave")
    before = await snapshot(store)
    refused = await say(host, dave, "/game undo")
    assert refused.error == R.ILLEGAL and await snapshot(store) == before


async def test_a_click_with_a_bare_verb_runs_that_verb_of_the_channels_game(host: Conductor, store: Store) -> None:
    await started_two_player(host)
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None
    reply = await host.click(GUILD, CHANNEL, ANN, row.id, row.version, "announce wood")
    assert reply.ok and reply.group == "tt" and reply.turn_enders == ("done",) and reply.status == "active"
    assert [w[1] for w in reply.waiting] == ["ann", "bob"]


async def test_a_verb_the_game_declares_not_undoable_is_refused(host: Conductor, store: Store, monkeypatch) -> None:
    """Undo is declared per verb (boardgame.io's ``undoable``): the host asks the game, not a list of its own."""
    manifest = games.get_manifest("tiny-towns")
    verbs = tuple(replace(v, undoable=False) if v.name == "place" else v for v in manifest.spec.verbs)
    monkeypatch.setitem(games._loaded, "tiny-towns", replace(manifest, spec=replace(manifest.spec, verbs=verbs)))
    await started_two_player(host)
    assert (await say(host, ANN, "/tt announce wood")).ok
    assert (await say(host, ANN, "/tt place A1")).ok
    before = await snapshot(store)
    refused = await say(host, ANN, "/game undo")
    assert refused.error == R.ILLEGAL and "/tt place" in refused.private and await snapshot(store) == before
    monkeypatch.undo()
    assert (await say(host, ANN, "/game undo")).ok  # the real declaration lets a placement be taken back


async def test_undo_refuses_a_move_that_drew_cards_and_a_resignation(host: Conductor, store: Store) -> None:
    """Taking back a move after which new cards were drawn would let a player redraw their hand; a
    resignation is final."""
    for actor, text in [(ANN, "/game new trains"), (BOB, "/game join"), (CAT, "/game join"), (ANN, "/game start")]:
        assert (await say(host, actor, text)).ok
    for actor in (ANN, BOB, CAT):  # starting rails
        legal = await host.legal_commands(GUILD, CHANNEL, actor.user_id)
        assert (await say(host, actor, legal[0])).ok
    assert (await say(host, ANN, "/trains end")).ok  # draws a new hand
    before = await snapshot(store)
    refused = await say(host, ANN, "/game undo")
    assert refused.error == R.ILLEGAL and "drew something at random" in refused.private
    assert await snapshot(store) == before
    assert (await say(host, CAT, "/game resign confirm")).ok
    assert (await store.open_game(GUILD, CHANNEL)) is not None  # two players play on
    before = await snapshot(store)
    final = await say(host, CAT, "/game undo")
    assert final.error == R.ILLEGAL and "resignation" in final.private and await snapshot(store) == before


async def test_a_seat_change_written_on_a_stale_version_is_refused(store: Store) -> None:
    """The seat list is written under the version check like every change: two joins read at one
    version cannot both land."""
    from storage import SeatRow, StaleVersion

    row = await store.create_game(GUILD, CHANNEL, "tiny-towns", ANN.user_id, "ann", {}, "1")
    seats = await store.seats(row.id)
    first, _ = await store.commit(row, seats=[*seats, SeatRow(1, BOB.user_id, "bob", "human", 1)])
    try:
        await store.commit(row, seats=[*seats, SeatRow(1, CAT.user_id, "cat", "human", 1)])
        raise AssertionError("a seat list written on a stale version must be refused")
    except StaleVersion:
        pass
    assert [s.display_name for s in await store.seats(row.id)] == ["ann", "bob"] and first.version == 1


async def test_a_kick_is_undone_by_nobody(host: Conductor, store: Store) -> None:
    """The kicked player cannot take the kick back (it is not their move), and neither can a moderator
    who plays and kicked herself (it is her seat's move, but a kick is final, like a resignation)."""
    ann_mod, dan = Actor(ANN.user_id, "ann", is_moderator=True), Actor("4", "dan")
    lobby = [(ANN, "/game new trains"), (BOB, "/game join"), (CAT, "/game join"), (dan, "/game join")]
    for actor, text in [*lobby, (ANN, "/game start")]:
        assert (await say(host, actor, text)).ok
    for actor in (ANN, BOB, CAT, dan):  # starting rails
        legal = await host.legal_commands(GUILD, CHANNEL, actor.user_id)
        assert (await say(host, actor, legal[0])).ok
    assert (await say(host, ann_mod, "/game kick cat")).ok
    before = await snapshot(store)
    refused = await say(host, CAT, "/game undo")
    assert not refused.ok and await snapshot(store) == before
    assert (await say(host, ann_mod, "/game kick ann")).ok
    before = await snapshot(store)
    final = await say(host, ann_mod, "/game undo")
    assert final.error == R.ILLEGAL and "kick can't be undone" in final.private and await snapshot(store) == before
