"""``/mod replacebot`` word for word: the seat becomes a bot of the asked level under the player's
name, the bot moves at once when due, a bot is not replaced twice; and a substitute named ``@X...``
keeps its X (issue 17, host mutation testing: ``replacebot``, ``substitute``)."""

from __future__ import annotations

from bot import replies as R
from bot.core import Conductor
from storage import Store
from tests.core.conftest import ANN, BOB, CHANNEL, GUILD, MOD, say, snapshot, started_two_player


async def test_replacebot_hands_the_seat_to_a_bot_that_moves_at_once(host: Conductor, store: Store) -> None:
    early = await say(host, ANN, "/game new tiny-towns buildings=first-game")
    assert early.ok and (await say(host, BOB, "/game join")).ok
    lobby = await say(host, MOD, "/mod replacebot bob")
    assert (lobby.error, lobby.private) == (
        R.NOT_STARTED,
        "Only a game in progress can get a bot player; in the lobby use `/game addbot`.",
    )
    assert (await say(host, ANN, "/game start")).ok
    assert (await say(host, ANN, "/tt announce wood")).ok
    handed = await say(host, MOD, "/mod replacebot bob")
    assert (handed.error, handed.private) == (None, "")
    assert handed.public == (
        "mod handed bob's seat to a bot (level 1).\nbob places wood on D4.\n**round 1 (wood): waiting for: ann**"
    )
    assert handed.pings == []  # nobody started having to act: ann was already waited for
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None
    seats = await store.seats(row.id)
    assert [(s.seat, s.user_id, s.display_name, s.kind, s.bot_level) for s in seats] == [
        (0, "1", "ann", "human", 1),  # human seats are stored with level 1
        (1, f"bot:{row.id}:seat1", "bob", "bot", 1),
    ]
    assert [(m.seat, m.user_id, m.text) for m in await store.moves(row.id)] == [
        (0, "1", "/tt announce wood"),
        (1, f"bot:{row.id}:seat1", "/tt place D4"),
    ]
    before = await snapshot(store)
    again = await say(host, MOD, "/mod replacebot bob 2")
    assert (again.error, again.private) == (R.BAD_COMMAND, "bob is already a bot.")
    assert await snapshot(store) == before


async def test_replacebot_at_level_zero_says_so(host: Conductor, store: Store) -> None:
    await started_two_player(host)
    handed = await say(host, MOD, "/mod replacebot bob 0")
    # bob has nothing to do while ann names the resource: the bot waits.
    assert handed.public == "mod handed bob's seat to a bot (level 0).\n**ann to name a resource**"
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None
    assert [(s.kind, s.bot_level) for s in await store.seats(row.id)][1] == ("bot", 0)


async def test_a_substitute_whose_name_starts_with_x_keeps_it(host: Conductor) -> None:
    await started_two_player(host)
    taken = await host.handle(GUILD, CHANNEL, MOD, "/mod substitute bob @Xena")
    assert taken.ok and taken.public.splitlines()[0] == "Xena takes over bob's seat."
