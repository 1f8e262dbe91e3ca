"""Undo across another player's reveal: the host refuses to take back a move once something hidden
came out after it, even while the move's phase is still open (issue 17)."""

from __future__ import annotations

from bot import replies as R
from bot.core import Conductor
from storage import Store
from tests.core.conftest import ANN, BOB, CHANNEL, GUILD, say, snapshot

# ann is dealt Starloom and Archive, bob Cathedral of Caterina (wheat over glass, stone beside it)
# and Grand Mausoleum; both keep the first. No first-game building needs only wheat, stone and glass.
DEAL = "starloom,archive-of-the-second-age,cathedral-of-caterina,grand-mausoleum-of-the-rodina"


ROUNDS = [
    (ANN, "/tt keep starloom"),
    (BOB, "/tt keep cathedral-of-caterina"),
    (ANN, "/tt announce wood"),  # round 1, ann is the Master Builder
    (ANN, "/tt place A1"),
    (BOB, "/tt place D4"),  # far from his stone to come: no Well for bob
    (BOB, "/tt announce wheat"),  # round 2
    (ANN, "/tt place D4"),
    (BOB, "/tt place B1"),
    (ANN, "/tt announce stone"),  # round 3
    (ANN, "/tt place A2"),  # beside her wood: a Well she may build, so she is not done by herself
    (BOB, "/tt place A2"),
    (ANN, "/tt done"),
    (BOB, "/tt announce glass"),  # round 4
    (ANN, "/tt place C4"),  # still open: the Well
]


async def _open_the_game(host: Conductor) -> None:
    assert (await say(host, ANN, f"/game new tiny-towns buildings=first-game monuments={DEAL}")).ok
    assert (await say(host, BOB, "/game join")).ok
    assert (await say(host, ANN, "/game start")).ok


async def _bob_reveals_after_ann_placed(host: Conductor, store: Store) -> None:
    """Four rounds that end with ann's placement open (a Well she may still build keeps her from being
    done) and bob's next placement completing his secret Cathedral: whether he is done now depends on
    his monument, so his placement is flagged irreversible, and the round stays open."""
    await _open_the_game(host)
    for actor, text in ROUNDS:
        reply = await say(host, actor, text)
        assert reply.ok, (text, reply.private)
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None and row.state is not None
    assert row.state["round"] == 4 and not row.state["towns"][0]["done"]
    bob_reveals = await say(host, BOB, "/tt place B2")  # H on B1, S on A2, G on B2: the Cathedral fits
    assert bob_reveals.ok, bob_reveals.private


async def test_undo_is_refused_when_another_player_revealed_something_since(host: Conductor, store: Store) -> None:
    await _bob_reveals_after_ann_placed(host, store)
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None and row.state is not None
    moves = await store.moves(row.id)
    assert [(m.text, m.irreversible) for m in moves[-2:]] == [("/tt place C4", False), ("/tt place B2", True)]
    # The round (ann's undo scope) is still open: neither player is done.
    assert row.state["phase"] == "place" and row.state["round"] == 4
    assert not row.state["towns"][0]["done"] and not row.state["towns"][1]["done"]
    before = await snapshot(store)
    refused = await say(host, ANN, "/game undo")
    assert refused.error == R.ILLEGAL
    assert refused.private == "Too late to take that back: something random or hidden was revealed since."
    assert await snapshot(store) == before
    # bob's own reveal can't be taken back either, for its own reason.
    own = await say(host, BOB, "/game undo")
    assert (own.error, own.private) == (
        R.ILLEGAL,
        "That move can't be undone: it revealed hidden information or drew something at random.",
    )
    assert await snapshot(store) == before


async def test_the_same_undo_goes_through_when_nothing_was_revealed_since(host: Conductor, store: Store) -> None:
    """The control: one round earlier bob's placement reveals nothing (wood, wheat and stone fit no
    monument), so ann's open placement can be taken back after it: the refusal above is about the
    reveal, not about the scope or the order of moves."""
    await _open_the_game(host)
    for actor, text in ROUNDS[:11]:  # up to bob's stone in round 3
        reply = await say(host, actor, text)
        assert reply.ok, (text, reply.private)
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None
    assert [(m.text, m.irreversible) for m in (await store.moves(row.id))[-2:]] == [
        ("/tt place A2", False),
        ("/tt place A2", False),
    ]
    undone = await say(host, ANN, "/game undo")
    assert undone.ok and "/tt place A2" in undone.public
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None and row.state is not None
    assert row.state["towns"][0]["cells"][4] is None and row.state["towns"][1]["cells"][4] == {"resource": "stone"}


async def test_a_reveal_before_your_move_does_not_stop_you_taking_it_back(host: Conductor, store: Store) -> None:
    """Only what came out after the move counts: bob reveals first, then ann places and takes it back."""
    await _open_the_game(host)
    for actor, text in [*ROUNDS[:13], (BOB, "/tt place B2"), (ANN, "/tt place C4")]:
        reply = await say(host, actor, text)
        assert reply.ok, (text, reply.private)
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None
    assert [m.irreversible for m in (await store.moves(row.id))[-2:]] == [True, False]
    undone = await say(host, ANN, "/game undo")
    assert undone.ok and "/tt place C4" in undone.public
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None and row.state is not None
    assert row.state["towns"][0]["cells"][14] is None and row.state["towns"][1]["cells"][5] == {"resource": "glass"}
