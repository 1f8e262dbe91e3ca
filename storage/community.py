"""Per-server results, ratings and web links, kept beside the games (migration 0008).

A mixin of ``Store`` that talks to the database only through the Store's ``_one``/``_all``/``_write``
helpers with ``?`` placeholders, so a backend offering the same helpers (PostgreSQL) runs it as is.
``_finish_hook`` runs inside the transaction of ``Store.commit`` that finishes a game, or that
rolls a finished game back into play: a game's rating changes with its status, or not at all.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from storage.rating import Placing, Rating, rate, replay


@dataclass(frozen=True)
class SeatResult:
    seat: int
    player: str  # the user id; bots as bot:level<N>
    display_name: str
    kind: str  # "human" | "bot"
    rank: int
    score: int
    title: str | None = None
    counts: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class GameResults:
    """What finishing a game records: its seats' results, its map, and fresh link tokens (used
    only where the game or its server has none yet)."""

    seats: tuple[SeatResult, ...]
    map: str | None
    counted: str
    game_token: str
    guild_token: str


@dataclass(frozen=True)
class ResultRow:
    game_id: int
    game: str
    player: str
    display_name: str
    kind: str
    players: int
    rank: int
    score: int
    title: str | None
    map: str | None
    counted: str
    counts: dict[str, int]
    finished_at: float


@dataclass(frozen=True)
class WebGame:
    """A finished game as the web viewer lists it."""

    game_id: int
    game: str
    token: str
    finished_at: float


_RESULT_COLUMNS = (
    "game_id, game, player, display_name, kind, players, rank, score, title, map, counted, counts, finished_at"
)
_RATING_COLUMNS = "player, display_name, kind, mu, sigma, games"


def _result(row: Any) -> ResultRow:
    gid, game, player, name, kind, players, rank, score, title, map_, counted, counts, finished = row
    decoded = json.loads(counts) if counts else {}
    return ResultRow(
        int(gid), game, player, name, kind, int(players), int(rank), int(score), title, map_, counted,
        {str(k): int(v) for k, v in decoded.items()}, float(finished),
    )  # fmt: skip


def _rating(row: Any) -> Rating:
    player, name, kind, mu, sigma, games = row
    return Rating(player, name, kind, float(mu), float(sigma), int(games))


class CommunityStore:
    """Mixed into ``Store``; the helpers below are the Store's."""

    _clock: Any

    async def _one(self, sql: str, params: tuple[Any, ...] = ()) -> Any:
        raise NotImplementedError

    async def _all(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        raise NotImplementedError

    async def _write(self, sql: str, params: tuple[Any, ...] = ()) -> Any:
        raise NotImplementedError

    # ----- inside the transaction that changes a game's status ---------------------------------

    async def _finish_hook(self, game_id: int, guild_id: str, game: str, was: str, now: str | None,
                           results: GameResults | None) -> None:  # fmt: skip
        """Record ``results`` when the game finishes; forget them (and re-rate) when a finished game
        is rolled back into play. Aborted games never reach the results."""
        action = finish_action(was, now, results)
        if action == "record" and results is not None:
            await self._record(game_id, guild_id, game, results)
        elif action == "forget":
            await self._write("DELETE FROM game_results WHERE game_id = ?", (game_id,))
            await self._rebuild_ratings(guild_id, game)

    async def _record(self, game_id: int, guild_id: str, game: str, results: GameResults) -> None:
        replaced = await self._one("SELECT COUNT(*) FROM game_results WHERE game_id = ?", (game_id,))
        await self._write("DELETE FROM game_results WHERE game_id = ?", (game_id,))
        found = await self._one(
            "SELECT COALESCE(MAX(rated_seq), 0) + 1 FROM game_results WHERE guild_id = ? AND game = ?",
            (guild_id, game),
        )
        seq, now = int(found[0]), float(self._clock())
        for s in results.seats:
            await self._write(
                "INSERT INTO game_results (game_id, seat, guild_id, game, player, display_name, kind, players, rank, "
                "score, title, map, counted, counts, rated_seq, finished_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, s.seat, guild_id, game, s.player, s.display_name, s.kind, len(results.seats), s.rank,
                 s.score, s.title, results.map, results.counted, json.dumps(dict(s.counts), sort_keys=True), seq,
                 now),
            )  # fmt: skip
        if replaced and int(replaced[0]):
            await self._rebuild_ratings(guild_id, game)  # a re-finish replaces the old result in the fold
        else:
            current = {r.player: r for r in await self.ratings(guild_id, game)}
            await self._save_ratings(guild_id, game, rate(current, _placings(results.seats)))
        await self._write(
            "INSERT INTO web_links (scope, key, guild_id, token) VALUES ('guild', ?, ?, ?) "
            "ON CONFLICT (scope, key) DO NOTHING",
            (guild_id, guild_id, results.guild_token),
        )
        await self._write(
            "INSERT INTO web_links (scope, key, guild_id, token) VALUES ('game', ?, ?, ?) "
            "ON CONFLICT (scope, key) DO NOTHING",
            (str(game_id), guild_id, results.game_token),
        )

    async def _save_ratings(self, guild_id: str, game: str, ratings: list[Rating]) -> None:
        for r in ratings:
            await self._write(
                f"INSERT INTO ratings (guild_id, game, {_RATING_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (guild_id, game, player) DO UPDATE SET display_name = excluded.display_name, "
                "kind = excluded.kind, mu = excluded.mu, sigma = excluded.sigma, games = excluded.games",
                (guild_id, game, r.player, r.display_name, r.kind, r.mu, r.sigma, r.games),
            )

    async def _rebuild_ratings(self, guild_id: str, game: str) -> None:
        await self._write("DELETE FROM ratings WHERE guild_id = ? AND game = ?", (guild_id, game))
        # Replaying every game of a server is CPU work: off the event loop (the commit still waits for it).
        ratings = await asyncio.to_thread(replay, await self.rated_games(guild_id, game))
        await self._save_ratings(guild_id, game, list(ratings.values()))

    # ----- reads -----------------------------------------------------------------------------

    async def rated_games(self, guild_id: str, game: str) -> list[list[Placing]]:
        """The placings of every finished game of ``game`` in the server, in the order they were rated."""
        rows = await self._all(
            "SELECT rated_seq, player, display_name, kind, rank FROM game_results "
            "WHERE guild_id = ? AND game = ? ORDER BY rated_seq, seat",
            (guild_id, game),
        )
        games: dict[int, list[Placing]] = {}
        for seq, player, name, kind, rank in rows:
            games.setdefault(int(seq), []).append(Placing(player, name, kind, int(rank)))
        return list(games.values())

    async def ratings(self, guild_id: str, game: str) -> list[Rating]:
        rows = await self._all(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND game = ?", (guild_id, game)
        )
        return sorted((_rating(row) for row in rows), key=lambda r: (-r.ordinal, r.display_name))

    async def rated_boards(self) -> list[tuple[str, str]]:
        """Every (guild, game) with results or ratings."""
        rows = await self._all(
            "SELECT guild_id, game FROM game_results UNION SELECT guild_id, game FROM ratings ORDER BY 1, 2"
        )
        return [(guild, game) for guild, game in rows]

    async def results(self, guild_id: str, player: str | None = None, game: str | None = None) -> list[ResultRow]:
        sql, params = f"SELECT {_RESULT_COLUMNS} FROM game_results WHERE guild_id = ?", [guild_id]
        if player is not None:
            sql += " AND player = ?"
            params.append(player)
        if game is not None:
            sql += " AND game = ?"
            params.append(game)
        return [_result(row) for row in await self._all(sql + " ORDER BY rated_seq, seat", tuple(params))]

    async def players_named(self, guild_id: str, name: str) -> list[str]:
        """The players of the server's finished games whose latest name is ``name`` (any case)."""
        rows = await self._all(
            "SELECT DISTINCT player FROM game_results WHERE guild_id = ? AND LOWER(display_name) = LOWER(?)",
            (guild_id, name),
        )
        return sorted(row[0] for row in rows)

    # ----- the web viewer's links ------------------------------------------------------------

    async def web_guild(self, token: str) -> str | None:
        """The guild whose list ``token`` opens."""
        row = await self._one("SELECT guild_id FROM web_links WHERE scope = 'guild' AND token = ?", (token,))
        return str(row[0]) if row else None

    async def web_link(self, scope: str, key: str) -> str | None:
        row = await self._one("SELECT token FROM web_links WHERE scope = ? AND key = ?", (scope, key))
        return str(row[0]) if row else None

    async def web_games(self, guild_id: str) -> list[WebGame]:
        """The guild's finished games that have a link, newest first."""
        rows = await self._all(
            "SELECT g.id, g.game, w.token, g.updated_at FROM games g JOIN web_links w "
            "ON w.scope = 'game' AND w.key = CAST(g.id AS TEXT) AND w.guild_id = g.guild_id "
            "WHERE g.guild_id = ? AND g.status = 'finished' ORDER BY g.updated_at DESC, g.id DESC",
            (guild_id,),
        )
        return [WebGame(int(gid), game, token, float(when)) for gid, game, token, when in rows]

    async def web_game_id(self, guild_id: str, token: str) -> int | None:
        """The finished game of ``guild_id`` that ``token`` opens (None for another guild's, a running game's)."""
        row = await self._one(
            "SELECT g.id FROM web_links w JOIN games g ON CAST(g.id AS TEXT) = w.key AND g.guild_id = w.guild_id "
            "WHERE w.scope = 'game' AND w.token = ? AND w.guild_id = ? AND g.status = 'finished'",
            (token, guild_id),
        )
        return int(row[0]) if row else None


def finish_action(was: str, now: str | None, results: GameResults | None) -> Literal["record", "forget"] | None:
    """What a commit changing the status from ``was`` to ``now`` does to the results: record them (it
    finishes), forget them (a finished game rolled back into play), or nothing (most commits: the
    store then writes them without running the hook)."""
    if now is None or now == was:
        return None
    if now == "finished" and results is not None:
        return "record"
    if was == "finished" and now != "finished":
        return "forget"
    return None


def _placings(seats: tuple[SeatResult, ...]) -> list[Placing]:
    return [Placing(s.player, s.display_name, s.kind, s.rank) for s in seats]
