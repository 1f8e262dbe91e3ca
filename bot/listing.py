"""The one line each game keeps for /game list and /game mygames, computed when a change is
written (so listing a server reads one short column per game instead of decoding every state)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import games
from bot.host import Table, spec_for_seats
from games.base import GameStatus, IllegalMove, State, Status
from storage import AnyStore, SeatRow


@dataclass(frozen=True)
class Listed:
    line: str  # the game's summary while it is active ("Round 3: ann to act"), else its status word
    waiting: tuple[int, ...]  # the seats whose turn it is (empty unless active)


def listing(
    game: Table, state: State | None, status: GameStatus | None, seats: Sequence[SeatRow], after: Status | None = None
) -> Listed:
    """What ``game`` lists as once a change leaves it with ``state`` (None: unchanged), ``status``
    (None: unchanged) and ``seats``. ``after``: the game's status for that state, when the caller
    has it already and the seats did not change (the summary names the seat holders)."""
    word = status or game.row.status
    current = state if state is not None else game.row.state
    if word != "active" or current is None:
        return Listed(word, ())
    if after is None or list(seats) != list(game.seats):
        after = spec_for_seats(game.engine, current, list(seats)).status(current)
    return Listed(after.summary.rstrip(".") if not after.finished else "finished", tuple(after.to_act))


async def fill_listings(store: AnyStore) -> int:
    """Store the listing of every active game written before it was stored (`conductor vacuum`;
    the bot also does it at start-up). Returns how many were filled."""
    filled = 0
    for row in await store.list_games(statuses=("active",)):
        if row.listing is not None or row.damaged is not None:
            continue
        found = await store.table_by_id(row.id)
        try:
            game = Table.of(found, games.get_game(row.game)) if found is not None else None
        except IllegalMove:
            continue  # its engine no longer loads: /game list shows it as damaged
        if game is not None:
            listed = listing(game, None, None, game.seats)
            filled += await store.set_listing(row.id, row.version, listed.line, listed.waiting)
    return filled
