"""A finished game, step by step, for the web viewer: the state after each move, drawn as the
public (spectator) board, plus the final standings and the end-of-game chart.

Only finished games are ever loaded (the caller checks the game's status through its link), and
every board is the spectator view: nothing hidden during play is drawn, at any step.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import games
from bot.host import render_board, render_standings_image
from bot.replay import apply_text
from games.base import NAMES_KEY, GameSpec, Standing, State
from storage import AnyStore

CACHED_GAMES = 8  # replays kept in memory (a replay is re-played from its seed once, then stepped)


@dataclass(frozen=True)
class Step:
    number: int  # 0 = the setup, n = after the n-th move
    player: str  # who made the move ("" for the setup)
    text: str  # the move as typed ("" for the setup)


@dataclass(frozen=True)
class Replay:
    game_id: int
    slug: str
    name: str
    players: tuple[str, ...]
    steps: tuple[Step, ...]
    states: tuple[State, ...]  # states[n] is the state shown at step n
    standings: tuple[Standing, ...]

    @property
    def last(self) -> int:
        return len(self.steps) - 1

    def clamp(self, step: int) -> int:
        return max(0, min(step, self.last))


def replay_of(spec: GameSpec, names: list[str], options: dict[str, Any], seed: int, moves: list[tuple[int, str]],
              seat_names: list[str], game_id: int) -> Replay:  # fmt: skip
    """Re-play the game from its seed and move log, keeping every state."""
    state = spec.setup(list(names), dict(options), seed)
    states, steps = [state], [Step(0, "", "")]
    for number, (seat, text) in enumerate(moves, 1):
        state, _ = apply_text(spec, state, seat, text)
        states.append(state)
        who = seat_names[seat] if 0 <= seat < len(seat_names) else f"seat {seat + 1}"
        steps.append(Step(number, who, text))
    return Replay(
        game_id, spec.slug, spec.name, tuple(seat_names), tuple(steps), tuple(states), tuple(spec.standings(state))
    )


class Replays:
    """Replays of finished games, built on first view and kept (a finished game never changes
    unless a moderator rolls it back, which changes its version: the cache is keyed by it)."""

    def __init__(self, store: AnyStore) -> None:
        self.store = store
        self._cache: OrderedDict[tuple[int, int], Replay] = OrderedDict()

    async def get(self, game_id: int) -> Replay | None:
        row = await self.store.get_game(game_id)
        if row is None or row.status != "finished" or row.state is None or row.seed is None:
            return None
        key = (row.id, row.version)
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]
        spec = games.get_game(row.game)
        seats = await self.store.seats(row.id)
        moves = [(m.seat, m.text) for m in await self.store.moves(row.id)]
        kept = row.state.get(NAMES_KEY)
        names = list(kept) if isinstance(kept, list) else [s.display_name for s in seats]
        built = await asyncio.to_thread(
            replay_of, spec, names, row.options, row.seed, moves, [s.display_name for s in seats], row.id
        )
        self._cache[key] = built
        while len(self._cache) > CACHED_GAMES:
            self._cache.popitem(last=False)
        return built


def board_png(replay: Replay, step: int) -> bytes:
    """The public board at ``step`` (what ``conductor replay --render`` and the channel show)."""
    spec = games.get_game(replay.slug)
    return render_board(spec.view(replay.states[replay.clamp(step)], None), None)


def summary_png(replay: Replay) -> bytes:
    """The end-of-game chart. The one hook for the summary renderer (rendering/summary.py, another
    branch): until it lands, the final standings image stands in for it."""
    spec = games.get_game(replay.slug)
    view = spec.view(replay.states[-1], None)
    return render_standings_image(view, list(replay.standings))
