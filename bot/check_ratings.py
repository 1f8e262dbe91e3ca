"""`conductor check`, ratings part: every server's ratings are recomputed from its finished games.

For each (server, game) the finished games are taken in the order they were rated; each one's
placings come from its stored final state (the engine's standings, not the stored results), the
openskill fold is replayed, and the outcome must equal the stored ratings.
"""

from __future__ import annotations

from dataclasses import dataclass

import games
from bot.community import bot_player
from games.base import IllegalMove
from storage import AnyStore
from storage.rating import Placing, Rating, replay

TOLERANCE = 1e-9  # the fold is deterministic; this only forgives a backend's float round trip


@dataclass(frozen=True)
class RatingFinding:
    guild_id: str
    game: str
    kind: str  # "ok" | "mismatch" | "unfinished" | "unknown-game"
    detail: str


async def check_ratings(store: AnyStore) -> list[RatingFinding]:
    return [await check_board(store, guild, game) for guild, game in await store.rated_boards()]


async def check_board(store: AnyStore, guild: str, slug: str) -> RatingFinding:
    try:
        spec = games.get_game(slug)
    except IllegalMove as exc:
        return RatingFinding(guild, slug, "unknown-game", exc.message)
    order = list(dict.fromkeys(r.game_id for r in await store.results(guild, game=slug)))
    placings: list[list[Placing]] = []
    for game_id in order:
        row = await store.get_game(game_id)
        if row is None or row.status != "finished" or row.state is None:
            return RatingFinding(guild, slug, "unfinished", f"game {game_id} has results but is not finished")
        seats = {s.seat: s for s in await store.seats(game_id)}
        placings.append(
            [
                Placing(
                    bot_player(seats[s["seat"]].bot_level)
                    if seats[s["seat"]].kind == "bot"
                    else seats[s["seat"]].user_id,
                    "",
                    seats[s["seat"]].kind,
                    int(s["rank"]),
                )
                for s in spec.standings(row.state)
            ]
        )
    expected = replay(placings)
    stored = {r.player: r for r in await store.ratings(guild, slug)}
    wrong = sorted(p for p in expected.keys() | stored.keys() if not _same(expected.get(p), stored.get(p)))
    if wrong:
        return RatingFinding(guild, slug, "mismatch", f"ratings of {', '.join(wrong)} differ from their games")
    return RatingFinding(guild, slug, "ok", f"{len(stored)} ratings recomputed from {len(order)} finished games")


def _same(a: Rating | None, b: Rating | None) -> bool:
    if a is None or b is None:
        return a is b
    return a.games == b.games and abs(a.mu - b.mu) <= TOLERANCE and abs(a.sigma - b.sigma) <= TOLERANCE
