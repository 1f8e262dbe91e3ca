"""The contract every rules engine implements.

A game is pure data plus pure functions. State, moves, events and views are plain
JSON-serialisable dicts so a game can be stored, replayed and compared byte for byte.
Seats are integers (0 = first seat, the order players joined).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, NotRequired, TypedDict

from games.schema import Verb

State = dict[str, Any]
Move = dict[str, Any]  # every game names its verb under MOVE_KEY
View = dict[str, Any]  # starts with the ViewHeader keys

MOVE_KEY = "verb"  # move["verb"] is the verb of the command text (/tt build ... -> "build")
NAMES_KEY = "names"  # state["names"] and view["names"]: the players' display names by seat

GameStatus = Literal["lobby", "active", "finished", "aborted"]
TurnStructure = Literal["sequential", "simultaneous", "both"]
HiddenKind = Literal["private_hands", "secret_choices"]


class PrivateText(TypedDict):
    seat: int
    text: str


class Event(TypedDict, total=False):
    """What ``apply`` reports. ``text``: public line. ``private``: shown only to that seat.
    ``irreversible``: a random draw happened or hidden information was revealed (no undo across it).
    ``post_board``: the host should post a fresh board (end of a turn or of a simultaneous round)."""

    text: str
    private: PrivateText
    irreversible: bool
    post_board: bool


class Standing(TypedDict):
    """One line of ``standings``: in rank order; tied players share a rank."""

    seat: int
    player: str
    score: int
    rank: int
    breakdown: dict[str, int]
    title: NotRequired[str]


class PlayStats(TypedDict):
    """What a finished game adds to its players' statistics (``GameSpec.stats``)."""

    map: str | None  # the map or board played, for games that have several
    counted: str  # what ``counts`` count: "buildings built", "cards bought"
    counts: list[dict[str, int]]  # by seat: name -> how many


class ViewHeader(TypedDict):
    """The keys every view starts with (renderers and the standings chart rely on them)."""

    game: str
    names: list[str]
    viewer: int | None
    finished: bool


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

    ``apply`` returns the new state and a list of ``Event``; ``parse``/``format`` turn the
    canonical command text into a move and back; ``verbs`` declares that text's schema.
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
    standings: Callable[[State], list[Standing]]
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
    # The declared command schema: every verb with its typed slots (games/schema.py).
    verbs: tuple[Verb, ...] = ()
    # Optional: which turn or phase is open (any hashable). A player may take back their own
    # move, even after others moved, while this is unchanged and nothing random or hidden was
    # revealed since. Without it only the last move of the game can be taken back.
    undo_scope: Callable[[State], Hashable] | None = None
    # Optional: the game's declared skip move, what a moderator's /mod skip plays for ``seat``
    # (never a strategic move: ending the turn, the least harmful placement). The host repeats it
    # until the seat's turn or phase is over. Without it the host plays the seat's legal move of
    # the verb declared ``skip``, else of a verb declared ``ends_turn``, else its first legal move.
    skip_move: Callable[[State, int], Move] | None = None
    # Optional: a moderator's /mod kick of ``seat`` (the state records "kicked by a moderator" and
    # the game's data decides what the seat's pieces do; see its rules decisions). Logged as
    # ``/game kick``. Without it a kick is played as the game's ``resign``.
    kick: Callable[[State, int], tuple[State, list[Event]]] | None = None
    # Optional: extra one-click moves under every board, as (button label, bare move text), e.g.
    # ("Play all trains", "play all-trains"). The host refuses them like typed moves when illegal.
    quick_moves: tuple[tuple[str, str], ...] = ()
    # Optional: a few lines for /game help when this game is in the channel (its quick start).
    quick_start: str = ""
    # Optional: a finished game's statistics (its map, what each seat built or bought) for
    # /game stats. Without it only scores, wins and titles are counted.
    stats: Callable[[State], PlayStats] | None = None
    # Optional: build the engine's lookup tables now. A long-lived host calls it once at start-up (off
    # the event loop), so the first move of the game does not pay for them while players wait.
    warm: Callable[[], None] | None = None

    def verb(self, name: str) -> Verb | None:
        return next((verb for verb in self.verbs if verb.name == name), None)

    @property
    def turn_enders(self) -> tuple[str, ...]:
        """Bare verbs that end a turn or phase (each gets a button)."""
        return tuple(verb.name for verb in self.verbs if verb.ends_turn)


@dataclass(frozen=True)
class GameType:
    """Capabilities, declared the way OpenSpiel's ``GameType`` does.

    ``turns``: sequential turns, simultaneous phases, or both. ``hidden``: kinds of hidden
    information (empty: none). ``chance``: seeded random draws. ``modules``: the option names
    that switch expansions or modules on.
    """

    turns: TurnStructure
    hidden: tuple[HiddenKind, ...]
    chance: bool
    modules: tuple[str, ...] = ()


@dataclass(frozen=True)
class GameManifest:
    """Everything the platform needs to host a game, declared once by its package.

    ``renderer`` is a module path exposing ``render_board(view, focus) -> bytes`` (so ``games/``
    stays free of Pillow). ``palette`` names the game's colours (RGB) for shared images; its
    ``accent`` colours the standings chart; ``tie_break`` words its tie-break rule there.
    Registered through the ``tabletop_conductor.games`` entry-point group (see pyproject.toml).
    """

    spec: GameSpec
    game_type: GameType
    renderer: str
    palette: Mapping[str, tuple[int, int, int]] = field(default_factory=dict)
    # How the game's standings() breaks ties, in words for the end-of-game image ("" = not said).
    tie_break: str = ""

    @property
    def slug(self) -> str:
        return self.spec.slug


@dataclass(frozen=True)
class PlannedGame:
    """A game that is on the roadmap but has no engine yet."""

    slug: str
    name: str
    command_group: str
    min_players: int
    max_players: int
