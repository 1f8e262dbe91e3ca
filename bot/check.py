"""`conductor check`: re-play every stored game from seed + move log and compare with its stored state."""

from __future__ import annotations

from dataclasses import dataclass

import games
from bot.replay import rebuild
from games.base import IllegalMove
from storage import Store
from storage.db import dumps


@dataclass(frozen=True)
class Finding:
    game_id: int
    kind: str  # "ok" | "mismatch" | "incompatible" | "unknown-game" | "broken-log"
    detail: str


async def check_store(store: Store) -> list[Finding]:
    findings = []
    for row in await store.all_games():
        if row.state is None or row.seed is None:
            continue  # lobbies and games aborted before the start have nothing to check
        try:
            spec = games.get_game(row.game)
        except (IllegalMove, ImportError) as exc:
            findings.append(Finding(row.id, "unknown-game", str(exc)))
            continue
        if row.rules_version != spec.rules_version:
            findings.append(
                Finding(
                    row.id,
                    "incompatible",
                    f"stored with rules {row.rules_version}, this build has {spec.rules_version}; not re-played",
                )
            )
            continue
        seats = await store.seats(row.id)
        moves = await store.moves(row.id)
        try:
            state = rebuild(
                spec, [s.display_name for s in seats], row.options, row.seed, [(m.seat, m.text) for m in moves]
            )
        except IllegalMove as exc:
            findings.append(Finding(row.id, "broken-log", f"the move log no longer replays: {exc.message}"))
            continue
        if dumps(state) != dumps(row.state):
            findings.append(Finding(row.id, "mismatch", f"re-playing {len(moves)} moves gives a different state"))
        else:
            findings.append(Finding(row.id, "ok", f"{len(moves)} moves re-played"))
    return findings
