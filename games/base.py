"""The contract every rules engine implements.

A game is pure data plus pure functions. State, moves, events and views are plain
JSON-serialisable dicts so a game can be stored, replayed and compared byte for byte.
Seats are integers (0 = first seat, the order players joined).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

State = dict[str, Any]
Move = dict[str, Any]
Event = dict[str, Any]
View = dict[str, Any]


class IllegalMove(Exception):
    """A move (or option, or command text) the rules reject.

    ``message`` is player-facing: it says what was wrong and, where short, what would
    be legal. Raising it must never leave a half-changed state behind; engines work on
    a copy of the state.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class OptionSpec:
    """One setup option, as typed after ``/game new <game>`` (``key=value``)."""

    name: str
    kind: str  # "choice" | "bool" | "list" | "int" | "text"
    default: Any
    help: str
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class Status:
    """Who must act now.

    ``to_act`` lists seats that still have to act (several for simultaneous rounds).
    ``summary`` is a one-line public description ("ann to name a resource").
    """

    to_act: tuple[int, ...]
    finished: bool
    summary: str


@dataclass(frozen=True)
class GameSpec:
    """Metadata plus the pure functions of one game.

    Event conventions (dicts returned by ``apply``):
      - ``text``: public one-line description of what happened (optional).
      - ``private``: ``{"seat": int, "text": str}`` shown only to that seat.
      - ``irreversible``: True when a random draw happened or hidden information was
        revealed; the host refuses ``/game undo`` across such a move.
      - ``post_board``: True when the host should post a fresh board image (end of a
        turn, or of a simultaneous round).
    """

    slug: str
    name: str
    command_group: str
    min_players: int
    max_players: int
    rules_version: str
    options: tuple[OptionSpec, ...]
    setup: Callable[[Sequence[str], Mapping[str, Any], int], State]
    legal_moves: Callable[[State, int], list[Move]]
    apply: Callable[[State, int, Move], tuple[State, list[Event]]]
    view: Callable[[State, int | None], View]
    status: Callable[[State], Status]
    standings: Callable[[State], list[dict[str, Any]]]
    parse: Callable[[str], Move]
    format: Callable[[Move], str]
    resign: Callable[[State, int], tuple[State, list[Event]]]
    bot_move: Callable[[State, int, int], Move]
    rules_help: Mapping[str, str] = field(default_factory=dict)
    # Optional: plain-text summary of what only ``seat`` may see (hand, secret monument),
    # for /game hand. Without it the host shows the seat's private view as an image only.
    private_summary: Callable[[State, int], str] | None = None
    # Optional: True for a move whose very text is secret (keeping a monument): the host then
    # answers its author privately and hides its text from others' history and exports until the end.
    hidden_move: Callable[[Move], bool] | None = None
    # Optional: a few words on what a legal move means right now ("money 3 → 1, +1 Waste"),
    # shown beside it in autocomplete and move menus.
    move_label: Callable[[State, int, Move], str] | None = None


@dataclass(frozen=True)
class PlannedGame:
    """A game that is on the roadmap but has no engine yet."""

    slug: str
    name: str
    command_group: str
    min_players: int
    max_players: int
