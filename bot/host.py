"""What every part of the host core shares: a loaded game, per-game locks, refusals, drawing.

The host is one class, ``bot.core.Conductor``, assembled from small parts:

    host.py        HostBase: loading, locks, refusals, seat lookup, drawing in a worker
    core.py        Conductor: command entry point, moves, bots, pings, board images
    lobby.py       /game new, join, leave, addbot, start, list, mygames, pings, config
    table.py       /game status, board, hand, history, rules, export, resign, undo, rollback
    moderation.py  /game abort, kick, substitute, skip, replacebot, pause
    reminders.py   reminder, deadline and lobby-expiry timers

The parts call each other through ``self``: lobby and moderation commands end with
``self._continue`` (core.py) which lets bots move, pings and reschedules (reminders.py).
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

import games
from bot.replies import Actor, Reply
from games.base import Event, GameSpec, State, Status
from storage import GameRow, SeatRow, Store


@dataclass(frozen=True)
class Loaded:
    """A game row with its engine and seats, read together."""

    row: GameRow
    spec: GameSpec
    seats: list[SeatRow]

    def seat_of(self, user_id: str) -> int | None:
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat.seat
        return None

    @property
    def names(self) -> list[str]:
        return [seat.display_name for seat in self.seats]


class HostBase:
    """State and helpers shared by every part of the host. ``render_images=False`` skips Pillow."""

    def __init__(self, store: Store, *, render_images: bool = True, clock: Callable[[], float] = time.time,
                 seed_source: Callable[[], int] | None = None, render_executor: Executor | None = None) -> None:
        self.store = store
        self.render_images = render_images
        # Drawing is CPU-bound Python: a process pool keeps it off the event loop's GIL.
        # None = the loop's default executor (threads), fine for the console and tests.
        self.render_executor = render_executor
        self.clock = clock
        self.seed_source = seed_source or (lambda: secrets.randbits(62))
        self._locks: dict[int, asyncio.Lock] = {}

    # Implemented by the parts that own them (see the module docstring); declared here so each
    # part reads on its own.
    async def _continue(self, game: Loaded, newly: set[int], reply: Reply, post_board: bool) -> None:
        raise NotImplementedError  # core.py: bots move, then pings, images and reminders

    async def _apply_and_persist(self, game: Loaded, seat: int, actor: Actor, move: dict[str, Any]) -> Reply:
        raise NotImplementedError  # core.py

    async def _remove_from_lobby(self, game: Loaded, seat: int, text: str) -> Reply:
        raise NotImplementedError  # lobby.py

    async def _resign_seat(self, game: Loaded, seat: int, actor: Actor, text: str) -> Reply:
        raise NotImplementedError  # table.py

    async def _reschedule(self, game: Loaded, status: Status) -> None:
        raise NotImplementedError  # reminders.py

    async def _load(self, row: GameRow) -> Loaded:
        return Loaded(row, games.get_game(row.game), await self.store.seats(row.id))

    async def _channel_game(self, guild_id: str, channel_id: str) -> Loaded | None:
        row = await self.store.open_game(guild_id, channel_id)
        return await self._load(row) if row else None

    def _lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    async def _reload(self, game_id: int) -> GameRow:
        row = await self.store.get_game(game_id)
        assert row is not None
        return row

    async def _draw(self, function: Callable[..., bytes], *args: Any) -> bytes:
        return await asyncio.get_running_loop().run_in_executor(self.render_executor, function, *args)

    def _active_state(self, game: Loaded) -> State | None:
        return game.row.state if game.row.status in ("active", "finished") else None

    def _refuse(self, game: Loaded, kind: str, message: str) -> Reply:
        return Reply.refuse(kind, message, game.row.id, game.row.version)

    def _find_seat(self, game: Loaded, word: str, names: Mapping[str, str]) -> int | None:
        wanted = mention_id(word)
        for seat in game.seats:
            if wanted in (seat.user_id,) or word.lstrip("@").lower() == seat.display_name.lower():
                return seat.seat
        return None


def mention_id(word: str) -> str:
    """``<@123>`` / ``<@!123>`` → ``123``; anything else unchanged."""
    if word.startswith("<@") and word.endswith(">"):
        return word[2:-1].lstrip("!")
    return word


def newly_to_act(before: Status, after: Status) -> set[int]:
    return {seat for seat in after.to_act if seat not in before.to_act}


def irreversible(events: list[Event]) -> bool:
    return any(event.get("irreversible") for event in events)


def player_range(spec: GameSpec) -> str:
    if spec.min_players == spec.max_players:
        return f"{spec.min_players} players"
    return f"{spec.min_players}–{spec.max_players} players"


def standings_line(standings: list[dict[str, Any]]) -> str:
    return ", ".join(f"{s['rank']}. {s['player']} {s['score']}" for s in standings)


def render_board(view: dict[str, Any], focus: int | None) -> bytes:
    import rendering

    return rendering.render(view, focus)


def render_standings_image(view: dict[str, Any], standings: list[dict[str, Any]]) -> bytes:
    import rendering

    return rendering.render_standings(view, standings)
