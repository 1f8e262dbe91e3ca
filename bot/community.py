"""Per-server statistics and leaderboards: what a finished game records, and /game stats and
/game leaderboard.

A game's results are computed here from its final state (standings, the game's optional
``stats``) and written by ``Store.commit`` in the transaction that finishes it, with the ratings.
"""

from __future__ import annotations

import re
import secrets
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import games
from bot import replies as R
from bot.host import Ctx, Refusal, Table
from bot.names import shown
from bot.replies import Reply
from games.base import IllegalMove, State
from storage import AnyStore, GameResults, SeatResult, SeatRow
from storage.community import ResultRow
from storage.rating import Rating

MENTION = re.compile(r"^<@!?(\d+)>$")
TOP = 10  # leaderboard lines per section


def bot_player(level: int) -> str:
    """Bots are rated per level: every level-1 bot of a server is one player."""
    return f"bot:level{level}"


def results_of(game: Table, state: State, seats: Sequence[SeatRow], game_token: str, guild_token: str) -> GameResults:
    """The results a finished game records, from its final state."""
    spec = game.spec
    played = spec.stats(state) if spec.stats is not None else None
    counts = played["counts"] if played else []
    solo = len(seats) == 1
    by_seat = {s.seat: s for s in seats}
    rows = []
    for standing in spec.standings(state):
        seat = by_seat[standing["seat"]]
        bot = seat.kind == "bot"
        rows.append(
            SeatResult(
                seat=seat.seat,
                player=bot_player(seat.bot_level) if bot else seat.user_id,
                display_name=f"Bot (level {seat.bot_level})" if bot else seat.display_name,
                kind=seat.kind,
                rank=int(standing["rank"]),
                score=int(standing["score"]),
                # Titles rank solo games (the rulebooks' solo titles); multiplayer titles say "winner" only.
                title=standing.get("title") if solo else None,
                counts=dict(counts[seat.seat]) if seat.seat < len(counts) else {},
            )
        )
    return GameResults(
        seats=tuple(sorted(rows, key=lambda r: r.seat)),
        map=played["map"] if played else None,
        counted=played["counted"] if played else "",
        game_token=game_token,
        guild_token=guild_token,
    )


async def finishing_results(store: AnyStore, game: Table, state: State, seats: Sequence[SeatRow]) -> GameResults:
    """Results with the game's and the server's link tokens (existing ones are kept)."""
    guild = await store.web_link("guild", game.row.guild_id) or secrets.token_urlsafe(16)
    token = await store.web_link("game", str(game.row.id)) or secrets.token_urlsafe(16)
    return results_of(game, state, seats, token, guild)


def replay_url(base: str, results: GameResults) -> str:
    return f"{base.rstrip('/')}/s/{results.guild_token}/g/{results.game_token}/"


# ----- /game stats [player] [game] ------------------------------------------------------------


@dataclass(frozen=True)
class StatsQuery:
    player: str | None  # a mention's user id, or a name to look up; None: the sender
    game: str | None


def stats_args(words: list[str], ctx: Ctx) -> StatsQuery:
    slugs = set(games.available_slugs())
    game = next((w.lower() for w in words if w.lower() in slugs), None)
    rest = [w for w in words if w.lower() != game]
    if len(rest) > 1:
        raise Refusal(R.BAD_COMMAND, "Use `/game stats [player] [game]`, e.g. `/game stats @ann tiny-towns`.")
    return StatsQuery(rest[0] if rest else None, game)


async def _player(ctx: Ctx, word: str | None) -> tuple[str, str]:
    """(player key, name) of the player ``word`` names in this server."""
    if word is None:
        return ctx.actor.user_id, ctx.actor.name
    mention = MENTION.match(word)
    if mention:
        user = mention.group(1)
        return user, ctx.names.get(user, word)
    found = await ctx.store.players_named(ctx.guild_id, word)
    if len(found) > 1:
        raise Refusal(R.BAD_COMMAND, f'Several players here are called "{shown(word)}"; mention one instead.')
    if found:
        return found[0], word
    return word, word  # a user id typed as is (the console's names are user ids)


async def stats(ctx: Ctx) -> Reply:
    query: StatsQuery = ctx.args
    try:
        player, name = await _player(ctx, query.player)
    except Refusal as refusal:
        return Reply.refuse(refusal.kind, refusal.message)
    rows = await ctx.store.results(ctx.guild_id, player=player, game=query.game)
    if not rows:
        where = f" of {_name(query.game)}" if query.game else ""
        return Reply(private=f"{shown(name)} has no finished games{where} in this server yet.")
    name = rows[-1].display_name
    lines = [f"**{name}** in this server:"]
    for slug in dict.fromkeys(r.game for r in rows):
        mine = [r for r in rows if r.game == slug]
        lines.append(await _game_line(ctx.store, ctx.guild_id, slug, player, mine))
    return Reply(private="\n".join(lines))


async def _game_line(store: AnyStore, guild: str, slug: str, player: str, rows: list[ResultRow]) -> str:
    won = sum(1 for r in rows if r.rank == 1 and r.players > 1)
    solo = [r for r in rows if r.players == 1]
    scores = [r.score for r in rows]
    parts = [
        f"{len(rows)} played ({len(solo)} solo)" if solo else f"{len(rows)} played",
        f"{won} won",
        f"average score {sum(scores) / len(scores):.1f}, best {max(scores)}",
    ]
    built: Counter[str] = Counter()
    for r in rows:
        built.update(r.counts)
    if built:
        # Most first; ties alphabetically, not in whatever order the games listed them.
        ranked = sorted(built.items(), key=lambda kn: (-kn[1], _label(kn[0])))
        top = ", ".join(f"{_label(k)} ×{n}" for k, n in ranked[:3])
        verb = rows[-1].counted.split()[-1] if rows[-1].counted else "counted"  # "buildings built" -> "built"
        parts.append(f"most {verb}: {top}")
    maps = Counter(r.map for r in rows if r.map)
    if maps:
        parts.append(f"favourite map: {maps.most_common(1)[0][0]}")
    rating = next((r for r in await store.ratings(guild, slug) if r.player == player), None)
    if rating is not None:
        parts.append(f"rating {rating.ordinal:.1f} (μ {rating.mu:.1f}, σ {rating.sigma:.1f})")
    return f"{_name(slug)}: " + "; ".join(parts) + "."


# ----- /game leaderboard <game> ---------------------------------------------------------------


def leaderboard_args(words: list[str], ctx: Ctx) -> str:
    slugs = games.available_slugs()
    if len(words) != 1 or words[0].lower() not in slugs:
        raise Refusal(R.BAD_COMMAND, f"Use `/game leaderboard <game>` with one of: {', '.join(slugs)}.")
    return words[0].lower()


async def leaderboard(ctx: Ctx) -> Reply:
    slug: str = ctx.args
    ratings = await ctx.store.ratings(ctx.guild_id, slug)
    humans = [r for r in ratings if r.kind == "human"]
    bots = [r for r in ratings if r.kind == "bot"]
    solo = [r for r in await ctx.store.results(ctx.guild_id, game=slug) if r.players == 1 and r.kind == "human"]
    lines = [f"**{_name(slug)} leaderboard** (this server; rating = μ − 3σ, openskill)"]
    if humans:
        lines += [_rating_line(i, r) for i, r in enumerate(humans[:TOP], 1)]
    else:
        lines.append("No rated multiplayer games yet.")
    if bots:
        lines.append("Bots (rated, shown apart):")
        lines += [_rating_line(i, r) for i, r in enumerate(bots[:TOP], 1)]
    if solo:
        lines.append("Solo (best score per player):")
        best: dict[str, ResultRow] = {}
        for r in solo:
            if r.player not in best or r.score > best[r.player].score:
                best[r.player] = r
        ranked = sorted(best.values(), key=lambda r: (-r.score, r.display_name))
        for i, r in enumerate(ranked[:TOP], 1):
            title = f" ({r.title})" if r.title else ""
            lines.append(f"{i}. {r.display_name} {r.score}{title}")
    return Reply(public="\n".join(lines))


def _rating_line(place: int, r: Rating) -> str:
    games_word = "game" if r.games == 1 else "games"
    return f"{place}. {r.display_name} {r.ordinal:.1f} ({r.games} {games_word})"


def _name(slug: str) -> str:
    try:
        return games.get_game(slug).name
    except IllegalMove:
        return slug


def _label(slug: str) -> str:
    return slug.replace("-", " ").replace("_", " ").capitalize()
