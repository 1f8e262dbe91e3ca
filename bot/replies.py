"""What the host core hands back to a front end (Discord, the console, tests)."""

from __future__ import annotations

from dataclasses import dataclass, field

from games.base import GameStatus


@dataclass(frozen=True)
class Actor:
    """Who sent a command. ``is_moderator`` is decided by the front end (Manage Channels or mod role)."""

    user_id: str
    name: str
    is_moderator: bool = False
    # Manage Server (or Administrator): only such a member sets server-wide settings such as the
    # moderator role for every channel.
    manages_server: bool = False


@dataclass(frozen=True)
class ImageOut:
    filename: str
    data: bytes
    description: str  # text alternative for screen readers and notification previews


@dataclass
class Reply:
    """The outcome of one command.

    ``public`` goes to the channel, ``private`` only to the sender (ephemeral). ``pings``
    are user ids to mention once because it just became their turn. ``error`` names the
    kind of refusal (None on success) so front ends and tests can tell refusals apart.
    """

    ok: bool = True
    public: str = ""
    private: str = ""
    images: list[ImageOut] = field(default_factory=list)
    private_images: list[ImageOut] = field(default_factory=list)
    pings: list[str] = field(default_factory=list)
    error: str | None = None
    game_id: int | None = None
    version: int | None = None
    finished: bool = False
    # The command itself was secret (e.g. which monument you kept): front ends must answer it
    # privately and never echo the command text in the channel.
    hide_command: bool = False
    # What a front end shows after this reply, so it never reads the store or an engine itself.
    # The game's status after the command (None: no game involved).
    status: GameStatus | None = None
    # The game's slash-command group ("tt") and its bare turn-ending verbs ("done"): one button each.
    group: str = ""
    turn_enders: tuple[str, ...] = ()
    # Humans who must act now, as (user id, display name).
    waiting: list[tuple[str, str]] = field(default_factory=list)
    # The sender's legal moves as (command text, short label), when the command asked for them
    # (/game hand, the move menu); empty otherwise.
    legal: list[tuple[str, str]] = field(default_factory=list)
    # The announcement this reply's public part stands for, recorded in the same transaction as the
    # change (the outbox). A front end that has posted it calls ``Conductor.announced(outbox_id)``;
    # what is still pending after a crash is posted by ``Conductor.repair`` on start-up.
    outbox_id: int | None = None
    # Buttons offered with this reply, as (label, command text): a confirmation ("Start solo",
    # "/game start solo") or a vote. Front ends show them under the public part if there is one,
    # else under the private part; the console prints the commands.
    buttons: list[tuple[str, str]] = field(default_factory=list)
    # The last line of ``public`` when it is the turn banner (who acts next): the console prints
    # the sender's private lines before it.
    banner: str = ""
    # Extra one-click moves of the game ((label, bare move text), ``GameSpec.quick_moves``).
    quick_moves: tuple[tuple[str, str], ...] = ()

    @classmethod
    def refuse(cls, error: str, message: str, game_id: int | None = None, version: int | None = None) -> Reply:
        return cls(ok=False, private=message, error=error, game_id=game_id, version=version)


# Refusal kinds (Reply.error)
NO_GAME = "no_game"
NOT_STARTED = "not_started"
NOT_PLAYER = "not_player"
NOT_YOUR_TURN = "not_your_turn"
BAD_COMMAND = "bad_command"
ILLEGAL = "illegal"
FORBIDDEN = "forbidden"
STALE = "stale"
FINISHED = "finished"
PAUSED = "paused"
DAMAGED = "damaged"
