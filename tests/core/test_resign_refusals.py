"""``/game resign`` past the command table: a moderator who holds no seat reaches the command itself
(moderators pass every permission check), a player who already resigned is refused by the game, and
what a resignation writes and says, line for line (issue 17, host mutation testing)."""

from __future__ import annotations

from bot import replies as R
from bot.core import Conductor
from storage import Store
from tests.core.conftest import ANN, BOB, CAT, CHANNEL, GUILD, MOD, say, snapshot, started_three_player


async def test_a_moderator_without_a_seat_is_told_they_are_not_playing(host: Conductor, store: Store) -> None:
    await started_three_player(host)
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None
    before = await snapshot(store)
    for text in ("/game resign", "/game resign confirm"):
        refused = await say(host, MOD, text)
        assert (refused.error, refused.private, refused.public) == (
            R.NOT_PLAYER,
            "You are not playing in this game.",
            "",
        )
        assert (refused.game_id, refused.version) == (row.id, row.version)
    assert await snapshot(store) == before


async def test_resigning_twice_is_refused_with_the_games_reason(host: Conductor, store: Store) -> None:
    await started_three_player(host)
    assert (await say(host, CAT, "/game resign confirm")).ok
    before = await snapshot(store)
    again = await say(host, CAT, "/game resign confirm")
    assert (again.error, again.private, again.public) == (R.ILLEGAL, "You have already left this game.", "")
    assert await snapshot(store) == before


async def test_a_resignation_says_the_games_line_then_whose_turn_it_is(host: Conductor, store: Store) -> None:
    await started_three_player(host)
    resigned = await say(host, CAT, "/game resign confirm")
    # The host's line, the game's own event line, then the turn banner (the game goes on).
    assert resigned.public == "cat resigned.\ncat leaves the game.\n**ann to name a resource**"
    assert resigned.waiting == [("1", "ann")]
    row = await store.open_game(GUILD, CHANNEL)
    assert row is not None and row.status == "active"
    timer = await store.next_timer()
    assert timer is not None and (timer.game_id, timer.kind) == (row.id, "reminder")


async def test_a_solo_resignation_ends_the_game_as_a_loss_and_drops_its_timers(host: Conductor, store: Store) -> None:
    assert (await say(host, ANN, "/game new tiny-towns buildings=first-game")).ok
    assert (await say(host, ANN, "/game start solo")).ok
    assert (await say(host, ANN, "/tt announce wood")).ok
    timer = await store.next_timer()
    assert timer is not None and timer.kind == "reminder"  # ann still has to place her wood
    resigned = await say(host, ANN, "/game resign confirm")
    # The game's own lines ("ann leaves the game.", "Winner: ann") are not said: the host's line is,
    # then the seed's reveal (the game is over), and no turn banner.
    lines = resigned.public.splitlines()
    assert lines[0] == "ann resigned: the solo game ends as a loss."
    assert len(lines) == 2 and lines[1].startswith("Fair shuffle: the seed was 42 with salt `")
    assert await store.next_timer() is None
    status = await say(host, BOB, "/game status")
    assert status.private == (
        "Tiny Towns (game 1, move 2). Players: ann.\nann resigned: the solo game ends as a loss.\nScores: ann -16"
    )
    game = await store.latest_game(GUILD, CHANNEL)
    assert game is not None and game.status == "finished"
    assert [(m.seat, m.text, m.irreversible) for m in await store.moves(game.id)] == [
        (0, "/tt announce wood", True),  # it revealed the next card
        (0, "/game resign", True),
    ]
