"""The one path from a command's Change to what is written and said: bots move, the game's
status follows its state, reminders are re-planned, events become public and private lines.

Pure: ``settle`` works in memory on the loaded table; ``Conductor`` writes its Outcome in one
transaction and only then announces it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from bot.host import Change, Table, irreversible, newly_to_act
from bot.reminders import TURN_TIMERS, plan_turn_timers
from games.base import Event, GameStatus, State, Status
from storage import MoveRecord, NewTimer

MAX_BOT_STEPS = 2000  # a bot-only table would otherwise loop for a whole game in one command


@dataclass
class Outcome:
    state: State | None  # None: the state did not change
    status: GameStatus | None
    moves: list[MoveRecord]
    public: str
    private: str
    pings: list[str]
    post_board: bool
    finished: bool
    cancel_timers: tuple[str, ...] | Literal["all"] = ()
    add_timers: list[NewTimer] = field(default_factory=list)
    banner: str = ""  # the last public line when it is the turn banner
    after: Status | None = None  # the game's status once the change (and the bots' moves) applied


def settle(game: Table, change: Change, now: float) -> Outcome:
    spec = game.spec
    seats = change.seats if change.seats is not None else game.seats
    row_status = change.status or game.row.status
    paused = change.paused if change.paused is not None else game.row.paused
    before = spec.status(game.row.state) if game.row.state is not None and game.row.status == "active" else None
    state = change.state
    moves, batches = list(change.moves), list(change.batches)
    current = state if state is not None else game.row.state
    after: Status | None = spec.status(current) if current is not None else None
    newly: set[int] = set()
    if change.continues and current is not None and after is not None:
        newly = set(change.newly) if change.newly is not None else newly_to_act(before, after)
        if row_status == "active" and not paused:
            bots = {s.seat: s for s in seats if s.kind == "bot"}
            turn = BotTurn(batches)
            for _ in range(MAX_BOT_STEPS):
                acting = [seat for seat in after.to_act if seat in bots]
                if after.finished or not acting:
                    break
                seat = acting[0]
                move = spec.bot_move(current, seat, bots[seat].bot_level)
                current, events = spec.apply(current, seat, move)
                moves.append(MoveRecord(seat, bots[seat].user_id, spec.format(move), irreversible(events)))
                turn.add(seat, bots[seat].display_name, events)
                status = spec.status(current)
                newly |= newly_to_act(after, status)
                after = status
            turn.flush()
            if len(moves) > len(change.moves):
                state = current
    status_word = change.status
    if after is not None and after.finished and row_status == "active":
        status_word = "finished"
    public, private, post_board = describe(change, batches)
    if status_word == "finished" and game.row.status != "finished":
        public = "\n".join(line for line in (public, reveal(game)) if line)
    pings: list[str] = list(change.pings)
    cancel, add = change.cancel_timers, list(change.add_timers)
    finished = change.ends_game
    banner = ""
    if change.continues and after is not None:
        banner = f"**{after.summary}**"
        public = "\n".join(line for line in (public, banner) if line)
        finished = finished or after.finished
        if not after.finished:
            pings = [
                seats[s].user_id
                for s in after.to_act
                if s in newly and seats[s].kind == "human" and seats[s].user_id not in game.pings_off
            ]
        cancel = cancel if cancel == "all" else tuple(dict.fromkeys((*cancel, *TURN_TIMERS)))
        # Planned for the row as this change leaves it (the write adds one to the version).
        planned = replace(game.row, status=status_word or game.row.status, paused=paused, version=game.row.version + 1)
        add += plan_turn_timers(game, planned, after, now)
    return Outcome(
        state,
        status_word,
        moves,
        public,
        private,
        pings,
        post_board or change.post_board,
        finished,
        cancel,
        add,
        banner,
        after,
    )


class BotTurn:
    """A bot's turn is said in one line, however many moves it took ("Bot 1 plays Normal Train;
    plays Lay Rails: E5; buys Express Train; ends the turn."), not one line per card.

    The events keep their other flags (boards, irreversibility); their texts are gathered per turn,
    which ends when the acting seat changes or an event asks for a fresh board (end of a turn or round).
    """

    def __init__(self, batches: list[tuple[int | None, list[Event]]]) -> None:
        self.batches = batches
        self.seat: int | None = None
        self.name = ""
        self.texts: list[str] = []

    def add(self, seat: int, name: str, events: list[Event]) -> None:
        if seat != self.seat:
            self.flush()
            self.seat, self.name = seat, name
        self.texts += [str(event["text"]) for event in events if event.get("text")]
        quiet: list[Event] = [
            {key: value for key, value in event.items() if key != "text"}  # type: ignore[misc]
            for event in events
        ]
        self.batches.append((None, quiet))
        if any(event.get("post_board") for event in events):
            self.flush()

    def flush(self) -> None:
        if not self.texts:
            return
        parts = []
        for i, text in enumerate(self.texts):
            text = text.strip().rstrip(".")
            if i and self.name and text.startswith(self.name + " "):
                text = text[len(self.name) + 1 :]
            parts.append(text)
        self.batches.append((None, [{"text": "; ".join(parts) + "."}]))
        self.texts = []


def reveal(game: Table) -> str:
    """At the end the seed (and its salt) become public, so anyone can check the commitment."""
    row = game.row
    if row.salt and row.commitment:
        return (
            f"Fair shuffle: the seed was {row.seed} with salt `{row.salt}`; their SHA-256 is the commitment posted at "
            "the start (`conductor verify` checks the game's `/game export`)."
        )
    return f"The seed was {row.seed}."


def describe(change: Change, batches: list[tuple[int | None, list[Event]]]) -> tuple[str, str, bool]:
    """Public lines, the sender's private lines (only their own seat's) and whether a board is due."""
    public, private = [change.public], [change.private]
    post_board = False
    for seat, events in batches:
        for event in events:
            if event.get("text"):
                public.append(str(event["text"]))
            secret = event.get("private")
            if secret is not None and seat is not None and secret.get("seat") == seat:
                private.append(str(secret.get("text", "")))
            post_board = post_board or bool(event.get("post_board"))
    return "\n".join(line for line in public if line), "\n".join(line for line in private if line), post_board
