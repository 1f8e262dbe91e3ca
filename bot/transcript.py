"""Replaying a transcript (``bot/transcript_format.py``) through the host core, as players would."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import games
from bot.core import Conductor
from bot.fairness import matches
from bot.replies import Actor
from bot.transcript_format import (
    HEADER_KEYS,
    Line,
    Transcript,
    TranscriptError,
    export,
    load,
    parse_transcript,
)
from games.base import IllegalMove, Standing
from storage import AnyStore, GameRow, Store

GUILD, CHANNEL = "transcript", "replay"

__all__ = [
    "check_commitment",
    "verify",
    "HEADER_KEYS",
    "Line",
    "ReplayResult",
    "Transcript",
    "TranscriptError",
    "export",
    "load",
    "parse_transcript",
    "replay",
]


@dataclass(frozen=True)
class ReplayResult:
    game: str
    status: str
    moves: int  # stored moves
    standings: list[Standing]
    unchanged: int = 0  # accepted commands that changed nothing (no-op moves, read-only commands)

    def as_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "status": self.status,
            "moves": self.moves,
            "standings": [
                {"player": s["player"], "score": s["score"], "rank": s["rank"], "breakdown": s.get("breakdown", {})}
                for s in self.standings
            ],
        }


def check_commitment(transcript: Transcript) -> None:
    """A finished game's export states the seed, salt and commitment: they must match."""
    if (transcript.salt is None) != (transcript.commitment is None):
        raise TranscriptError(1, "a transcript gives both salt and commitment, or neither")
    if (
        transcript.salt is not None
        and transcript.commitment is not None
        and not matches(transcript.seed, transcript.salt, transcript.commitment)
    ):
        raise TranscriptError(1, "the seed and salt do not match the commitment posted at the start")


async def verify(transcript: Transcript) -> ReplayResult:
    """``conductor verify``: the seed was fixed before the first move (it matches the commitment),
    and the moves replay to the stated standings."""
    if transcript.salt is None or transcript.commitment is None:
        raise TranscriptError(
            1, "nothing to verify: the transcript has no salt and commitment (export the game once it is over)"
        )
    result = await replay(transcript)
    if result.status != "finished":
        raise TranscriptError(1, f"the game replays to {result.status}, not to its end")
    return result


async def replay(
    transcript: Transcript,
    *,
    render_images: bool = False,
    database: str = ":memory:",
    echo: Any = None,
    on_reply: Any = None,
) -> ReplayResult:
    """Play a transcript through the host core. Raises TranscriptError on the first surprise.
    ``echo(line, reply)`` sees each line's reply; ``on_reply(reply)`` every reply, set-up included."""
    try:
        spec = games.get_game(transcript.game)
    except IllegalMove as exc:
        raise TranscriptError(1, exc.message) from None
    if not transcript.players:
        raise TranscriptError(1, "no players")
    check_commitment(transcript)
    store = await Store.open(database)
    try:
        host = Conductor(store, render_images=render_images, seed_source=lambda: transcript.seed)
        # Moderators may be players or onlookers (a "mod" who only kicks or rolls back).
        actors = {
            name: Actor(name, name, name in transcript.moderators)
            for name in (*transcript.players, *transcript.moderators)
        }
        first = actors[transcript.players[0]]
        setup = [(first, f"/game new {spec.slug} {transcript.options}".strip())]
        setup += [(actors[name], "/game join") for name in transcript.players[1:]]
        setup.append((first, "/game start solo" if len(transcript.players) == 1 else "/game start"))
        for actor, text in setup:
            reply = await host.handle(GUILD, CHANNEL, actor, text)
            if not reply.ok:
                raise TranscriptError(1, f"{text}: {reply.private}")
            if on_reply is not None:
                on_reply(reply)
        version, unchanged = reply.version, 0  # the start's: a later reply at the same version changed nothing
        for line in transcript.lines:
            player = actors.get(line.player)
            if player is None:
                raise TranscriptError(
                    line.number,
                    f'"{line.player}" is not one of the players ({", ".join(transcript.players)}) or moderators',
                )
            reply = await host.handle(GUILD, CHANNEL, player, line.text)
            if reply.ok and reply.version is not None and reply.version == version:
                unchanged += 1
            version = reply.version if reply.version is not None else version
            if echo is not None:
                echo(line, reply)
            if on_reply is not None:
                on_reply(reply)
            if reply.ok and line.expect_reject:
                raise TranscriptError(
                    line.number, f"{line.text} was accepted but the line is marked ! (must be rejected)"
                )
            if not reply.ok and not line.expect_reject:
                raise TranscriptError(line.number, f"{line.text} was rejected: {reply.private}")
        row = await _the_game(store)
        assert row.state is not None
        standings = spec.standings(row.state)
        result = ReplayResult(spec.slug, row.status, len(await store.moves(row.id)), standings, unchanged)
    finally:
        await store.close()
    if transcript.standings is not None:
        _check_standings(transcript, standings)
    return result


async def _the_game(store: AnyStore) -> GameRow:
    rows = await store.all_games()
    return rows[-1]


def _check_standings(transcript: Transcript, standings: list[Standing]) -> None:
    assert transcript.standings is not None
    by_player = {s["player"]: s for s in standings}
    last_rank = 0
    for name, score in transcript.standings:
        if name not in by_player:
            raise TranscriptError(transcript.standings_line, f'standings name "{name}" is not a player')
        actual = by_player[name]
        if actual["score"] != score:
            raise TranscriptError(
                transcript.standings_line, f"{name} scored {actual['score']}, the transcript expects {score}"
            )
        if actual["rank"] < last_rank:
            raise TranscriptError(
                transcript.standings_line, f"{name} ranks {actual['rank']}, listed after a player ranked {last_rank}"
            )
        last_rank = actual["rank"]
    # Every player must be named: a line that leaves one out would let that score go unchecked.
    missing = [s["player"] for s in standings if s["player"] not in {name for name, _ in transcript.standings}]
    if missing:
        raise TranscriptError(transcript.standings_line, f"the standings line leaves out {', '.join(missing)}")
