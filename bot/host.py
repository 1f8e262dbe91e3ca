"""What the parts of the host core share: a loaded table, a command's context and its change.

The host core is small modules around one entry point (``bot/core.py`` ``Conductor``):

    core.py           Conductor: parse the command, lock the channel, read once, run, commit once
    command_table.py  one entry per /game verb (everyone) and /mod verb (moderators): permission,
                      typed arguments, handler; the old /game texts of moderator verbs are aliases
    commit.py         the one path from a Change to a Reply: bots move (one line per bot turn),
                      describe, ping, plan timers
    lobby.py          /game new, join, leave, addbot, start (solo asks first), list, mygames, pings;
                      /mod config
    table.py          /game help, status, board, hand, history, rules, export, resign (asks first),
                      undo; /mod rollback
    moderation.py     /game abort (host, or every player agreeing); /mod abort, kick, substitute,
                      skip (the game's declared skip move), replacebot, pause
    moves.py          a game move (/tt place B2), and the late no-op after the end
    reminders.py      reminder, deadline and lobby-expiry timers

Names: the game state keeps the names it was set up with; ``Table.spec`` shows the seat holders'
names instead (``shown_names``), so a substitute is seen everywhere without touching the state.
Game notes (``Table.notes``, ``Change.notes``) keep small host facts beside the state: who held a seat
before a substitute, the players agreeing to abort, who aborted, how a solo resignation ended.

Handlers read what they need from ``Ctx`` and return either a ``Reply`` (a refusal or something
to look at) or a ``Change``, which ``Conductor`` writes in one transaction and then announces.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import rendering
from bot.names import AmbiguousPlayer, name_key, seat_number
from bot.replies import Actor, Reply
from games.base import NAMES_KEY, Event, GameSpec, GameStatus, State, Status
from storage import AnyStore, GameRow, MoveRecord, NewTimer, SeatRow, TableRow

Draw = Callable[..., Awaitable[bytes]]


def shown_names(spec: GameSpec, setup: list[str], shown: list[str]) -> GameSpec:
    """``spec`` as the players see it: the engine is handed states whose names (``NAMES_KEY``) are
    the seat holders' ``shown`` names, and every state it returns gets the ``setup`` names back.

    The stored state and the move log keep the names the game was set up with, so undo, rollback,
    ``conductor check`` and exports replay byte for byte; everything an engine writes from the
    names (public texts such as "dave names wood", "waiting for", summaries, views and so the
    images, standings, the end-of-game line) follows whoever holds the seat now, from the moment
    of a ``/mod substitute`` on. Engines read names only from ``state[NAMES_KEY]``, so this works
    for every registered game without the game knowing. Same names: ``spec`` unchanged.
    """
    if setup == shown or len(setup) != len(shown):
        return spec

    def show(state: State) -> State:
        return {**state, NAMES_KEY: list(shown)} if NAMES_KEY in state else state

    def keep(result: tuple[State, list[Event]]) -> tuple[State, list[Event]]:
        state, events = result
        if NAMES_KEY in state:
            state = {**state, NAMES_KEY: list(setup)}
        return state, events

    kick = spec.kick

    def optional(function: Any) -> Any:
        return None if function is None else (lambda state, *rest: function(show(state), *rest))

    return replace(
        spec,
        legal_moves=lambda state, seat: spec.legal_moves(show(state), seat),
        apply=lambda state, seat, move: keep(spec.apply(show(state), seat, move)),
        view=lambda state, viewer: spec.view(show(state), viewer),
        status=lambda state: spec.status(show(state)),
        standings=lambda state: spec.standings(show(state)),
        resign=lambda state, seat: keep(spec.resign(show(state), seat)),
        bot_move=lambda state, seat, level: spec.bot_move(show(state), seat, level),
        private_summary=optional(spec.private_summary),
        move_label=optional(spec.move_label),
        undo_scope=optional(spec.undo_scope),
        skip_move=optional(spec.skip_move),
        kick=None if kick is None else (lambda state, seat: keep(kick(show(state), seat))),
    )


def spec_for_seats(spec: GameSpec, state: State | None, seats: list[SeatRow]) -> GameSpec:
    """The engine with the names of whoever holds each seat now (see ``shown_names``)."""
    names = state.get(NAMES_KEY) if state is not None else None
    if not isinstance(names, list):
        return spec
    return shown_names(spec, [str(n) for n in names], [seat.display_name for seat in seats])


@dataclass(frozen=True)
class Table:
    """A game row with its engine, seats and channel settings, read together.

    ``engine`` is the registered game; ``spec`` is the same engine seen through the seat holders'
    names (``shown_names``), which every handler uses: a substitute shows everywhere at once.
    """

    row: GameRow
    engine: GameSpec
    seats: list[SeatRow]
    settings: Mapping[str, str] = field(default_factory=dict)
    pings_off: frozenset[str] = frozenset()
    notes: Mapping[str, str] = field(default_factory=dict)
    spec: GameSpec = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "spec", spec_for_seats(self.engine, self.row.state, self.seats))

    @classmethod
    def of(cls, found: TableRow, spec: GameSpec) -> Table:
        return cls(found.game, spec, found.seats, found.settings, found.pings_off, found.notes)

    def seat_holder(self, seat: int) -> SeatRow:
        return next(s for s in self.seats if s.seat == seat)

    def seat_of(self, user_id: str) -> int | None:
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat.seat
        return None

    @property
    def names(self) -> list[str]:
        return [seat.display_name for seat in self.seats]

    @property
    def setup_names(self) -> list[str]:
        """The names the game was set up with (its state keeps them under NAMES_KEY): a substitute
        changes who holds a seat, not the game, so undo, rollback and check re-play with these."""
        state = self.row.state
        names = state.get(NAMES_KEY) if state is not None else None
        return list(names) if isinstance(names, list) else self.names

    @property
    def started_state(self) -> State | None:
        """The state of an active or finished game (None in the lobby and for aborted games)."""
        return self.row.state if self.row.status in ("active", "finished") else None

    def status(self) -> Status | None:
        return self.spec.status(self.row.state) if self.row.state is not None else None

    def refuse(self, kind: str, message: str) -> Reply:
        return Reply.refuse(kind, message, self.row.id, self.row.version)

    def find_seat(self, word: str) -> int | None:
        """The seat a player argument names: a mention or user id, a seat number (``#2``, counted
        from 1) or a display name (in any case). None when it names nobody. A name two seats share
        (two players called "bob") raises ``bot.names.AmbiguousPlayer``: never one picked silently."""

        wanted = mention_id(word)
        for seat in self.seats:
            if seat.user_id == wanted:
                return seat.seat
        number = seat_number(word)
        if number is not None and any(seat.seat == number for seat in self.seats):
            return number
        key = name_key(word.lstrip("@"))
        named = [seat.seat for seat in self.seats if name_key(seat.display_name) == key]
        if len(named) > 1:
            raise AmbiguousPlayer(word, named)
        return named[0] if named else None


@dataclass(frozen=True)
class Ctx:
    """One command: who sent it where, its parsed arguments, the channel's game and the services."""

    store: AnyStore
    clock: Callable[[], float]
    seed_source: Callable[[], int]
    draw: Draw
    render_images: bool
    guild_id: str
    channel_id: str
    actor: Actor
    names: Mapping[str, str]
    table: Table | None = None
    args: Any = None

    @property
    def game(self) -> Table:
        assert self.table is not None, "this command's entry needs a game"
        return self.table


class Refusal(Exception):
    """A command refused while its arguments are parsed; nothing changes."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


@dataclass
class Change:
    """What one command does to a game. ``Conductor`` writes it in one transaction (with the bots'
    moves and the rescheduled timers) and turns it into the reply.

    ``batches`` pairs events with the seat whose private lines the sender may read (None: none).
    ``continues``: the game goes on from here, so bots move and the reply gets the turn summary,
    pings, a board when due and fresh reminders. ``newly``: seats that started having to act
    (None: found by comparing who had to act before and after).
    """

    public: str = ""
    private: str = ""
    state: State | None = None
    status: GameStatus | None = None
    seed: int | None = None
    salt: str | None = None
    commitment: str | None = None
    host_id: str | None = None
    paused: bool | None = None
    seats: list[SeatRow] | None = None
    moves: list[MoveRecord] = field(default_factory=list)
    batches: list[tuple[int | None, list[Event]]] = field(default_factory=list)
    revert_from_seq: int | None = None
    revert_seqs: list[int] = field(default_factory=list)
    cancel_timers: tuple[str, ...] | Literal["all"] = ()
    add_timers: list[NewTimer] = field(default_factory=list)
    continues: bool = False
    newly: set[int] | None = None
    post_board: bool = False
    pings: list[str] = field(default_factory=list)
    hide_command: bool = False
    ends_game: bool = False  # the reply closes the game for front ends (abort, lobby closed)
    notes: dict[str, str | None] = field(default_factory=dict)  # game notes to set (None: delete)
    buttons: list[tuple[str, str]] = field(default_factory=list)  # (label, command text) under the reply


def mention_id(word: str) -> str:
    """``<@123>`` / ``<@!123>`` → ``123``; anything else unchanged."""
    if word.startswith("<@") and word.endswith(">"):
        return word[2:-1].lstrip("!")
    return word


def newly_to_act(before: Status | None, after: Status) -> set[int]:
    earlier = set(before.to_act) if before is not None else set()
    return {seat for seat in after.to_act if seat not in earlier}


def irreversible(events: list[Event]) -> bool:
    return any(event.get("irreversible") for event in events)


def player_range(spec: GameSpec) -> str:
    if spec.min_players == spec.max_players:
        return f"{spec.min_players} players"
    return f"{spec.min_players}–{spec.max_players} players"


def standings_line(standings: list[Any]) -> str:
    return ", ".join(f"{s['rank']}. {s['player']} {s['score']}" for s in standings)


def scores_line(standings: list[Any]) -> str:
    return ", ".join(f"{s['player']} {s['score']}" for s in standings)


def render_board(view: dict[str, Any], focus: int | None) -> bytes:
    """Module-level so a render worker process can run it (it is pickled by name)."""
    return rendering.render(view, focus)


def render_aborted(view: dict[str, Any], focus: int | None) -> bytes:
    return rendering.render_aborted(view, focus)


def render_standings_image(view: dict[str, Any], standings: list[Any]) -> bytes:
    return rendering.render_standings(view, standings)
