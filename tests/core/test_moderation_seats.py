"""``/mod kick`` and ``/mod substitute`` cases the broader host tests leave out (issue 17, host
mutation testing): a kick in a lobby, a game without its own kick, a substitute for the host or for a
player who must act, and the refusals, each said word for word."""

from __future__ import annotations

from dataclasses import replace

import games
from bot import replies as R
from bot.core import Conductor
from storage import Store
from tests.core.conftest import ANN, BOB, CAT, CHANNEL, GUILD, MOD, say, snapshot, started_three_player


async def test_a_kick_in_a_lobby_takes_the_seat_and_hands_on_the_host(host: Conductor, store: Store) -> None:
    for actor, text in [(ANN, "/game new tiny-towns"), (BOB, "/game join"), (CAT, "/game join")]:
        assert (await say(host, actor, text)).ok
    kicked = await say(host, MOD, "/mod kick bob")
    assert kicked.ok and kicked.public == "mod kicked bob from the game (kicked by a moderator)."
    host_gone = await say(host, MOD, "/mod kick ann")
    assert host_gone.public == "mod kicked ann from the game (kicked by a moderator). cat is the new host."
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None and row.status == "lobby" and row.host_id == CAT.user_id
    assert [(s.seat, s.display_name) for s in await store.seats(row.id)] == [(0, "cat")]


async def test_a_game_without_its_own_kick_resigns_the_seat_without_its_resign_line(
    host: Conductor, store: Store, monkeypatch
) -> None:
    """The game's resign runs, but its "resigned" line would say the wrong thing: only the kick line shows."""
    manifest = games.get_manifest("tiny-towns")
    monkeypatch.setitem(games._loaded, "tiny-towns", replace(manifest, spec=replace(manifest.spec, kick=None)))
    await started_three_player(host)
    kicked = await say(host, MOD, "/mod kick cat")
    assert kicked.ok
    lines = kicked.public.split("\n")
    assert lines[0] == "mod kicked cat from the game (kicked by a moderator)."
    assert "cat leaves the game." not in lines and not any("resign" in line for line in lines), lines
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None and row.state is not None and row.state["towns"][2]["resigned"]
    assert [m.text for m in await store.moves(row.id)] == ["/game kick"]


async def test_a_substitute_for_the_host_makes_the_newcomer_host_and_pings_them_when_they_must_act(
    host: Conductor, store: Store
) -> None:
    for actor, text in [(ANN, "/game new tiny-towns buildings=first-game"), (BOB, "/game join"), (ANN, "/game start")]:
        assert (await say(host, actor, text)).ok
    # ann (the host) is the Master Builder, to name a resource: the newcomer is pinged.
    taken = await host.handle(GUILD, CHANNEL, MOD, "/mod substitute ann <@4>")  # no display name known: the mention
    assert taken.ok and taken.public.startswith("<@4> takes over ann's seat.")
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None and row.host_id == "4"
    assert taken.pings == ["4"]
    # bob has nothing to do now: a substitute for him is not pinged.
    other = await host.handle(GUILD, CHANNEL, MOD, "/mod substitute bob <@5>", names={"5": "eve"})
    assert other.ok and other.public.startswith("eve takes over bob's seat.") and "5" not in other.pings
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None and row.host_id == "4"


async def test_someone_already_playing_cannot_take_another_seat(host: Conductor, store: Store) -> None:
    for actor, text in [(ANN, "/game new tiny-towns buildings=first-game"), (BOB, "/game join"), (ANN, "/game start")]:
        assert (await say(host, actor, text)).ok
    before = await snapshot(store)
    refused = await host.handle(GUILD, CHANNEL, MOD, f"/mod substitute bob <@{ANN.user_id}>", names={"1": "ann"})
    assert (refused.error, refused.private) == (R.BAD_COMMAND, "ann is already playing in this game.")
    assert await snapshot(store) == before


async def test_kicking_a_player_who_already_left_is_refused_with_the_games_reason(
    host: Conductor, store: Store
) -> None:
    await started_three_player(host)
    assert (await say(host, CAT, "/game resign confirm")).ok
    before = await snapshot(store)
    refused = await say(host, MOD, "/mod kick cat")
    assert (refused.error, refused.private) == (R.ILLEGAL, "You have already left this game.")
    assert await snapshot(store) == before
    # A kick that lands is logged as irreversible (it can't be undone).
    assert (await say(host, MOD, "/mod kick bob")).ok
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None
    assert [(m.text, m.irreversible) for m in await store.moves(row.id)][-1] == ("/game kick", True)


async def test_a_substitute_named_with_an_at_sign_shows_the_name_without_it(host: Conductor) -> None:
    for actor, text in [(ANN, "/game new tiny-towns buildings=first-game"), (BOB, "/game join"), (ANN, "/game start")]:
        assert (await say(host, actor, text)).ok
    taken = await host.handle(GUILD, CHANNEL, MOD, "/mod substitute bob @dave")
    assert taken.ok and taken.public.startswith("dave takes over bob's seat.")
