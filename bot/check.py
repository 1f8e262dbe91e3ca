"""`conductor check`: re-play every stored game from seed + move log and compare with its stored state.

One bad game never stops the check: a row that cannot be decoded, a game whose engine cannot be
loaded, an engine that fails while re-playing, or a log that no longer replays is reported as a
finding for that game, and the check goes on with the others.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

import games
from bot.replay import rebuild
from games.base import IllegalMove
from storage import AnyStore, GameRow
from storage.db import dumps


@dataclass(frozen=True)
class Finding:
    game_id: int
    kind: str  # "ok" | "mismatch" | "incompatible" | "damaged" | "unknown-game" | "broken-log"
    detail: str


async def check_store(store: AnyStore) -> list[Finding]:
    findings = []
    for row in await store.all_games():
        finding = await check_game(store, row)
        if finding is not None:
            findings.append(finding)
    return findings


async def check_game(store: AnyStore, row: GameRow) -> Finding | None:
    """What re-playing one game shows; None for games with nothing to check."""
    if row.damaged is not None:
        return Finding(row.id, "damaged", f"{row.game} ({row.status}) in channel {row.channel_id}: {row.damaged}")
    if row.state is None or row.seed is None:
        return None  # lobbies and games aborted before the start have nothing to check
    try:
        spec = games.get_game(row.game)
    except IllegalMove as exc:
        return Finding(row.id, "unknown-game", exc.message)
    except Exception as exc:  # a registry or engine failure must not stop the other games
        return Finding(row.id, "unknown-game", f"{row.game} cannot be loaded: {_error(exc)}")
    if row.rules_version != spec.rules_version:
        return Finding(
            row.id,
            "incompatible",
            f"stored with rules {row.rules_version}, this build has {spec.rules_version}; not re-played",
        )
    try:
        seats = await store.seats(row.id)
        moves = await store.moves(row.id)
    except sqlite3.DatabaseError as exc:
        return Finding(row.id, "damaged", f"its seats or move log cannot be read: {exc}")
    names = _names(row.state, [s.display_name for s in seats])
    try:
        state = rebuild(spec, names, row.options, row.seed, [(m.seat, m.text) for m in moves])
        same = dumps(state) == dumps(row.state)
    except IllegalMove as exc:
        return Finding(row.id, "broken-log", f"the move log no longer replays: {exc.message}")
    except Exception as exc:
        return Finding(row.id, "broken-log", f"the engine fails re-playing the move log: {_error(exc)}")
    if not same:
        return Finding(row.id, "mismatch", f"re-playing {len(moves)} moves gives a different state")
    return Finding(row.id, "ok", f"{len(moves)} moves re-played")


def _names(state: dict[str, Any], seat_names: list[str]) -> list[str]:
    """The names the game was set up with: those kept in its state (a substitute changes only the
    seat's displayed name), else the seats' names."""
    kept = state.get("names")
    if isinstance(kept, list) and kept and all(isinstance(name, str) for name in kept):
        return kept
    return seat_names


def _error(exc: BaseException) -> str:
    said = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {said}" if said else type(exc).__name__
