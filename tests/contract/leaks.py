"""The leak harness (issue 9, item 2): everything one user can obtain from the host core, and
whether any of it changes when everything that user may not know is dealt afresh.

A game is played through the real ``Conductor`` (images drawn) on a real SQLite store file, with
humans, a bot seat where the table has room, a moderator who does not play, a player who is also a
moderator, an onlooker, and the commands undo, skip, substitute and kick besides the players' moves
(secret moves where the game has them: the player takes one back, then the rival moderator skips
her). Every reply is split into what the channel sees (public text, board images by digest, pings,
buttons) and what only the sender sees (private text and images, legal moves, refusals); queries a
front end makes for a user (autocomplete, move menu, players, rules topics) are recorded for that
user. Users look at the game now and then (status, board, hand, history, export) and send commands
that must be refused. On every output of this *main run*:

* private text an engine produced for a seat reaches only that seat's owner: never whoever typed
  the command (a moderator's skip, a move a bot answered) and never the channel;
* before the game ends nothing holds the seed, its salt or any RNG cursor of the state;
* nobody but its author sees the text of a secret move (``hidden_move``) before the end.

The *redeal check* forks the database twice at chosen steps (``WINDOW_AT``): one copy keeps the
state, in the other every seat but the viewer's (or only the other humans') is re-dealt with the
game's ``redeal(state, seat, seed)``, written back under the version check so both copies have the
same version. The same steps then run in both copies in lockstep (the viewer's looks, refused
commands and moves, others' moves chosen in the first copy, a moderator's skip, timers) and what
the viewer obtains must be the same in both. The copies stay comparable while the move logs agree
once other seats' secret moves are blanked and nothing drew or revealed anything (``irreversible``).
When they part, that is no leak if a move drew or revealed something, or another seat's command or
a bot followed its own re-dealt secrets; it is one if, with the same public history, a seat acts in
one copy and not the other, or the viewer's own command fares differently.

The harness also hunts like an adversary: before each move of the main run it tries, at the engine
level, other humans' legal moves on re-dealt states (``screen``); a move whose status or view for
the viewer changes, though it drew and revealed nothing, gets a window of its own. Boards are drawn
once per distinct view (``Drawings``), so the copies cost little more than the main run.

Nothing here knows a game's rules beyond its ``GameSpec`` and ``redeal``: a new game is covered by
adding nothing. ``HARNESS_OPTIONS`` and ``PREFERRED`` only bring a game's secrets into play.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import random
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import aiosqlite

import games
from bot.core import Conductor
from bot.replies import Actor, Reply
from games.base import Event, GameManifest, GameSpec, IllegalMove, State
from games.options import parse_options
from storage import Store
from storage.db import dumps
from tests.contract.registry import PLUGIN_SLUG, find_redeal, plugin_registered

GUILD, CHANNEL = "900", "901"
# Sixteen digits: an honest output never contains it by chance.
SEED = 5_821_964_377_210_983
ANN = Actor("101", "ann")  # the player whose view is checked; seat 0, the host
BOB = Actor("102", "bob", is_moderator=True)  # a rival player with moderator rights
CAT = Actor("103", "cat")
DAN = Actor("104", "dan")  # substitutes for the last human seat, later kicked
ZED = Actor("108", "zed")  # an onlooker: in the channel, not in the game
MOD = Actor("109", "mod", is_moderator=True)  # a moderator who does not play
CAST = (ANN, BOB, CAT, DAN, ZED, MOD)
NAMES = {actor.user_id: actor.name for actor in CAST}
VIEWERS = (ANN, ZED)

# Options that bring out each game's secrets (defaults otherwise: a new game needs no entry).
HARNESS_OPTIONS = {
    "tiny-towns": "monuments=on cave=on",  # each player keeps a secret monument (/tt monument)
    "trains": "kingdom=lost-and-found",  # Lost and Found takes a card from the discard pile in secret
    "tramways": "station=on exchange=on park=on master=on",  # every module: Station cards, Leisure draws
    PLUGIN_SLUG: "rounds=5 doubles=on",  # Dice Duel: secret hands and a once-a-game secret stash
}
MAX_PLAYERS = 4
MAIN_STEPS = 180  # commands of the main run before the remaining rivals resign
WINDOW_AT = (1, 6, 14, 24, 38, 56, 80)  # main-run steps where the redeal check forks off
WINDOW_STEPS = 8  # moves per redeal check
LOOK_EVERY = 30  # main-run steps between looks by ann, zed and bob
TIMER_AT = 10  # the main-run step where a day passes and reminders fire
SUBSTITUTE_AT = 8
KICK_AT = 16
# Share of the humans' main-run moves picked at random among the legal ones (else the level-1 bot's
# move): random play leaves more states where a secret could show (towns full of loose cubes).
RANDOM_MOVES = 1.0
# Moves the humans make whenever they may, so the secrets come into play (Lost and Found is bought,
# then played in secret).
PREFERRED = {"trains": ("/trains buy lost-and-found",)}
HOT_WINDOWS = 3  # extra redeal checks per viewer where the engine-level screen finds a difference
LIGHT_WINDOWS = (6, 38)  # redeal forks for the option sets beyond each game's secret-bringing one
SCREEN_TRIES = 4  # redeal seeds the screen tries per move
SCREEN_MOVES = 12  # legal moves it tries per seat
BIG = 10**9  # integers this large in a state are RNG cursors (or seeds): secret until the end


@dataclass(frozen=True)
class LeakCase:
    slug: str
    players: int
    options: str
    # The secret-bringing case of each game forks at every WINDOW_AT step; the other option sets play
    # the same whole game with every output checked, but fork at fewer steps (they cost the suite less).
    windows: tuple[int, ...] = WINDOW_AT
    hot_windows: int = HOT_WINDOWS

    @property
    def id(self) -> str:
        return f"{self.slug}-{self.players}p" + (f"-{self.options.replace(' ', '-')}" if self.options else "")


def leak_cases() -> list[LeakCase]:
    """Per registered game (and the plugin game), up to four seats: the secret-bringing options of
    ``HARNESS_OPTIONS``, then every option set the conformance suite plays (``cases.option_sets``:
    each option alone, all modules together, everything at once), since an option can bring its own
    secrets or its own outputs."""
    from tests.contract.cases import option_sets  # cases imports this module's neighbours; import late

    found: list[LeakCase] = []
    with plugin_registered():
        for slug in dict.fromkeys([*games.available_slugs(), PLUGIN_SLUG]):
            spec = games.get_game(slug)
            players = min(spec.max_players, MAX_PLAYERS)
            texts = [HARNESS_OPTIONS.get(slug, ""), *(text for _, text in option_sets(games.get_manifest(slug)))]
            for options in dict.fromkeys(texts):
                try:
                    spec.setup([f"p{i}" for i in range(players)], parse_options(options, spec.options), 0)
                except IllegalMove:
                    continue
                main = options == texts[0]
                found.append(
                    LeakCase(slug, players, options)
                    if main
                    else LeakCase(slug, players, options, windows=LIGHT_WINDOWS, hot_windows=1)
                )
    return found


# ----------------------------------------------------------------- what engines say in private


@dataclass
class Produced:
    """Private lines the engine produced, by seat, since the last ``clear``."""

    lines: list[tuple[int, str]] = field(default_factory=list)

    def clear(self) -> None:
        self.lines.clear()

    def add(self, events: list[Event]) -> None:
        for event in events:
            secret = event.get("private")
            if secret is not None:
                for line in str(secret.get("text", "")).splitlines():
                    if line.strip():
                        self.lines.append((int(secret.get("seat", -1)), line.strip()))


@contextlib.contextmanager
def recording(produced: Produced) -> Iterator[None]:
    """Every registered engine's ``apply`` and ``resign`` report their private lines to ``produced``.

    The registry's ``get_manifest`` is wrapped (``get_game``, ``game_for_group`` and ``manifests``
    go through it), so the host core runs the wrapped engines; undone on leaving.
    """
    original = games.get_manifest
    wrapped: dict[str, tuple[GameManifest, GameManifest]] = {}

    def wrap(spec: GameSpec) -> GameSpec:
        def apply(state: State, seat: int, move: dict[str, Any]) -> tuple[State, list[Event]]:
            new, events = spec.apply(state, seat, move)
            produced.add(events)
            return new, events

        def resign(state: State, seat: int) -> tuple[State, list[Event]]:
            new, events = spec.resign(state, seat)
            produced.add(events)
            return new, events

        return replace(spec, apply=apply, resign=resign)

    def get_manifest(slug: str) -> GameManifest:
        manifest = original(slug)
        known = wrapped.get(manifest.slug)
        if known is None or known[0] is not manifest:
            known = (manifest, replace(manifest, spec=wrap(manifest.spec)))
            wrapped[manifest.slug] = known
        return known[1]

    games.get_manifest = get_manifest
    try:
        yield
    finally:
        games.get_manifest = original


# ----------------------------------------------------------------- what a user sees of a reply

SENDER_ONLY = ("ok", "error", "private", "private_images", "legal")


def _value(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return [_value(v) for v in value]
    if hasattr(value, "data") and hasattr(value, "filename"):  # ImageOut: its bytes by digest
        return {
            "file": value.filename,
            "alt": getattr(value, "description", ""),
            "png": hashlib.sha256(value.data).hexdigest()[:16],
        }
    return value


def reply_fields(reply: Reply, names: tuple[str, ...] | None = None) -> dict[str, Any]:
    return {f.name: _value(getattr(reply, f.name)) for f in fields(reply) if names is None or f.name in names}


def posts_publicly(reply: Reply) -> bool:
    return bool(reply.public or reply.images or reply.pings)


def channel_part(reply: Reply) -> dict[str, Any]:
    """What the channel sees: everything but the sender-only fields (buttons carry the version)."""
    return {k: v for k, v in reply_fields(reply).items() if k not in SENDER_ONLY}


def texts_of(value: Any) -> Iterator[str]:
    """Every string inside a recorded observation (for the secret searches)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from texts_of(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from texts_of(item)


def big_ints(value: Any) -> Iterator[int]:
    if isinstance(value, bool):
        return
    if isinstance(value, int) and abs(value) >= BIG:
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from big_ints(item)
    elif isinstance(value, list):
        for item in value:
            yield from big_ints(item)


@dataclass
class Seen:
    """One observation: who may see it (None: the channel) and what it is."""

    audience: str | None
    label: str
    body: dict[str, Any]

    def line(self) -> str:
        return f"{self.label}: {json.dumps(self.body, sort_keys=True, default=str)}"


# ----------------------------------------------------------------- one host over one database


class Drawings(Executor):
    """Where the host draws boards: in the calling thread, each distinct drawing once. The copies
    of a game draw the same boards again and again; equal arguments give equal bytes."""

    def __init__(self) -> None:
        self.done: dict[str, bytes] = {}

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        key = f"{fn.__module__}.{fn.__qualname__}:{json.dumps([args, kwargs], sort_keys=True, default=str)}"
        future: Future[Any] = Future()
        try:
            if key not in self.done:
                self.done[key] = fn(*args, **kwargs)
            future.set_result(self.done[key])
        except Exception as exc:  # the host sees the drawing fail, as it would in a pool
            future.set_exception(exc)
        return future


@dataclass
class Clock:
    """The time every copy of the game sees (fixed, so copies stamp rows alike); timers move it on."""

    now: float = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


class Run:
    """A Conductor over a store file, recording what every user obtains and checking each output."""

    def __init__(self, case: LeakCase, store: Store, produced: Produced, clock: Clock, drawings: Drawings) -> None:
        self.case = case
        self.store = store
        self.produced = produced
        self.clock = clock
        self.drawings = drawings
        self.host = Conductor(
            store, render_images=True, clock=clock, seed_source=lambda: SEED, render_executor=drawings
        )
        self.seen: list[Seen] = []
        self.findings: list[str] = []
        self.coverage: set[str] = set()
        self.where = "main"
        # What the harness (not any user) knows of the game, refreshed when its version moves.
        self.game_id: int | None = None
        self.row: Any = None
        self.version = -1
        self.owners: dict[int, str] = {}
        self.moves: list[Any] = []
        self.fork_from = 0  # the log's length when this copy was forked
        self.secrets: set[str] = {str(SEED)}
        self.hidden: dict[str, set[int]] = {}  # secret move text (without its group) -> the seats that made it

    async def close(self) -> None:
        await self.store.close()

    def spec(self) -> GameSpec:
        return games.get_game(self.case.slug)

    @property
    def open(self) -> bool:
        """Before the end: secrets must stay secret."""
        return self.row is not None and self.row.status in ("lobby", "active")

    async def refresh(self) -> None:
        """Read the game row; when it changed, its seats and log too, noting new secrets."""
        if self.game_id is None:
            return
        self.row = await self.store.get_game(self.game_id)
        if self.row is None or self.row.version == self.version:
            return
        row, self.version = self.row, self.row.version
        self.owners = {seat.seat: seat.user_id for seat in await self.store.seats(row.id)}
        self.moves = await self.store.moves(row.id, include_reverted=True)
        self.secrets |= {str(value) for value in (row.seed, getattr(row, "salt", None)) if value}
        self.secrets |= {str(n) for n in big_ints(row.state)}
        spec = self.spec()
        for move in self.moves:
            if is_hidden(spec, move.text):
                self.hidden.setdefault(move.text.split(maxsplit=1)[1], set()).add(move.seat)
                self.coverage.add("secret move")

    async def table(self) -> Any:
        return await self.host.channel_game(GUILD, CHANNEL)

    # ----- recording

    def note(self, audience: str | None, label: str, body: dict[str, Any]) -> None:
        self.seen.append(Seen(audience, f"{self.where} {label}", body))
        self.check_secrets(self.seen[-1])

    def view_of(self, user_id: str, start: int = 0) -> list[str]:
        return [s.line() for s in self.seen[start:] if s.audience in (None, user_id)]

    async def say(self, actor: Actor, text: str, names: dict[str, str] | None = None) -> Reply:
        owners = dict(self.owners)
        self.produced.clear()
        reply = await self.host.handle(GUILD, CHANNEL, actor, text, names or NAMES)
        produced = list(self.produced.lines)
        if self.game_id is None and reply.game_id is not None:
            self.game_id = reply.game_id
        await self.refresh()
        shown = "(secret)" if reply.hide_command else text
        if posts_publicly(reply):
            self.note(None, f"channel after {actor.name}: {shown}", channel_part(reply))
            if not reply.ok:
                self.findings.append(f"{self.where}: the refusal of {actor.name}'s `{text}` was posted in the channel")
        self.note(actor.user_id, f"reply to {actor.name}: {text}", reply_fields(reply, SENDER_ONLY))
        self.check_private(actor, text, reply, produced, owners)
        return reply

    def check_private(
        self, actor: Actor, text: str, reply: Reply, produced: list[tuple[int, str]], owners: dict[int, str]
    ) -> None:
        """Private lines produced for a seat reach only its owner, never the channel."""
        mine = {line for seat, line in produced if owners.get(seat) == actor.user_id}
        for seat, line in produced:
            owner = owners.get(seat)
            if line in reply.public:
                self.findings.append(
                    f"{self.where}: `{text}` by {actor.name} posted seat {seat}'s private line in the channel: {line!r}"
                )
            if owner != actor.user_id and line not in mine and line in reply.private.splitlines():
                whose = NAMES.get(owner or "", f"seat {seat}")
                self.findings.append(
                    f"{self.where}: `{text}` by {actor.name} showed {whose}'s private line to {actor.name}: {line!r}"
                )

    def check_secrets(self, seen: Seen) -> None:
        """Before the end: no seed, salt or RNG cursor in any output; no secret move's text shown to
        anyone but its author."""
        if not self.open:
            return
        strings = list(texts_of(seen.body))
        # A user's own legal moves may read like a rival's secret move ("play lost-and-found lay-rails").
        shown = list(texts_of({k: v for k, v in seen.body.items() if k not in ("legal", "commands")}))
        for secret in self.secrets:
            if any(secret in s for s in strings):
                kind = "the seed" if secret == str(self.row.seed) else "a secret number (RNG cursor or salt)"
                self.findings.append(f"{self.where}: {kind} ({secret}) appears before the end in {seen.label[:160]}")
        for phrase, seats in self.hidden.items():
            if seen.audience is not None and any(seen.audience == self.owners.get(seat) for seat in seats):
                continue  # their own move (a rival's same text can't be told apart from it)
            if any(phrase in s for s in shown):
                who = "the channel" if seen.audience is None else NAMES.get(seen.audience, seen.audience)
                self.findings.append(
                    f"{self.where}: the secret move `{phrase}` of seat(s) {sorted(seats)} is shown to {who} in "
                    f"{seen.label[:160]}"
                )

    # ----- queries front ends make for a user

    async def query(self, actor: Actor, what: str) -> None:
        host, where = self.host, (GUILD, CHANNEL)
        if what == "labelled_commands":
            body: dict[str, Any] = {"commands": await host.labelled_commands(*where, actor.user_id)}
        elif what == "players":
            body = {"players": await host.players(*where)}
        elif what == "rules_topics":
            body = {"topics": await host.rules_topics(*where, None)}
        else:  # the move menu, for the board the channel shows now
            if self.row is None:
                return
            body = reply_fields(await host.move_menu(*where, actor, self.row.id, self.row.version))
        self.note(actor.user_id, f"{what} for {actor.name}", body)

    async def look(self, actor: Actor, images: bool = True, refused: int = 2) -> None:
        """What ``actor`` can ask for about the game, and ``refused`` commands that must be refused
        (taken in turn from a fixed list, so every look tries different ones)."""
        group = self.spec().command_group
        looks = ["/game status", "/game history 100", "/game export"]
        if images:
            looks += ["/game board", "/game hand"]
        for text in looks:
            await self.say(actor, text)
        wrong = ["/game history 0", f"/{group} xyzzy", "/game board nobody", "/game kick nobody"]
        if not actor.is_moderator:
            wrong += ["/game skip", "/game kick bob", "/game rollback 0", "/game pause", "/game substitute bob zed"]
        for _ in range(refused):
            text = wrong[len(self.seen) % len(wrong)]
            if (await self.say(actor, text)).ok:
                self.findings.append(f"{self.where}: `{text}` by {actor.name} was accepted (expected a refusal)")
            else:
                self.coverage.add("refused")
        for what in ("labelled_commands", "players", "rules_topics", "move_menu"):
            await self.query(actor, what)

    async def fire_timers(self, hours: float) -> None:
        self.clock.now += hours * 3600
        for guild, channel, reply in await self.host.fire_due_timers():
            if (guild, channel) == (GUILD, CHANNEL):
                self.coverage.add("timer")
                await self.refresh()
                self.note(None, "timer", channel_part(reply))

    # ----- forking the database

    async def fork(self, path: Path) -> Run:
        target = await aiosqlite.connect(path)
        try:
            await self.store.connection.backup(target)
        finally:
            await target.close()
        other = await open_run(self.case, path, self.produced, self.clock.now, self.drawings)
        other.game_id = self.game_id
        await other.refresh()
        other.fork_from = len(other.moves)
        other.secrets |= self.secrets
        other.hidden.update({phrase: set(seats) for phrase, seats in self.hidden.items()})
        return other

    async def write(self, state: State) -> None:
        """Store ``state`` as the game's, under the version check (the version moves on by one)."""
        assert self.row is not None
        await self.store.update_game(self.row.id, self.row.version, state=state)
        await self.refresh()


async def open_run(
    case: LeakCase, path: Path, produced: Produced, now: float = Clock.now, drawings: Drawings | None = None
) -> Run:
    clock = Clock(now)
    return Run(case, await Store.open(path, clock=clock), produced, clock, drawings or Drawings())


# ----------------------------------------------------------------- choosing moves


def is_hidden(spec: GameSpec, text: str) -> bool:
    """A move whose very text is secret (the game's ``hidden_move``)."""
    if spec.hidden_move is None or not text.startswith(f"/{spec.command_group} "):
        return False
    try:
        return bool(spec.hidden_move(spec.parse(text)))
    except IllegalMove:
        return False


def actor_of(user_id: str) -> Actor:
    return next(actor for actor in CAST if actor.user_id == user_id)


def seat_of(run: Run, user_id: str) -> int | None:
    return next((seat for seat, owner in run.owners.items() if owner == user_id), None)


def humans_to_act(run: Run) -> list[int]:
    """Seats of humans who must act now (none once the game is over or paused)."""
    row = run.row
    if row is None or row.status != "active" or row.state is None or row.paused:
        return []
    return [s for s in run.spec().status(row.state).to_act if not run.owners.get(s, "bot:").startswith("bot:")]


async def typed_move(run: Run, actor: Actor, seat: int, picker: random.Random, chance: float) -> str | None:
    """A move for ``actor``: a secret one when there is one, else the level-1 bot's move, or a random
    legal one with probability ``chance``."""
    spec = run.spec()
    legal = await run.host.legal_commands(GUILD, CHANNEL, actor.user_id)
    if not legal:
        return None
    hidden = [text for text in legal if is_hidden(spec, text)]
    if hidden:
        return picker.choice(hidden)
    preferred = [text for text in legal if text in PREFERRED.get(run.case.slug, ())]
    if preferred:
        return picker.choice(preferred)
    if picker.random() < chance:
        return picker.choice(legal)
    return str(spec.format(spec.bot_move(run.row.state, seat, 1)))


# ----------------------------------------------------------------- the main run


@dataclass
class Result:
    case: LeakCase
    findings: dict[str, list[str]]
    coverage: set[str]
    compared: dict[str, int]  # viewer -> steps compared by the redeal check
    windows: list[str]  # how each redeal window ended (for reading, not asserted)
    seconds: float
    finished: bool


async def main_run(case: LeakCase, folder: Path) -> Result:
    started = time.perf_counter()
    produced = Produced()
    redeals: dict[str, list[str]] = {viewer.name: [] for viewer in VIEWERS}
    compared = {viewer.name: 0 for viewer in VIEWERS}
    windows: list[str] = []
    with recording(produced):
        run = await open_run(case, folder / "main.db", produced)
        try:
            await play(run, folder, redeals, compared, windows)
        finally:
            await run.close()
    findings = {
        "private": [f for f in run.findings if "private line" in f or "refusal" in f],
        "secrets": [f for f in run.findings if "private line" not in f and "refusal" not in f],
        **{f"redeal {name}": found for name, found in redeals.items()},
    }
    finished = run.row is not None and run.row.status == "finished"
    return Result(case, findings, run.coverage, compared, windows, time.perf_counter() - started, finished)


async def must(run: Run, actor: Actor, text: str) -> Reply:
    reply = await run.say(actor, text)
    assert reply.ok, f"{run.case.id}: {actor.name}: {text} was refused: {reply.private}"
    return reply


async def play(
    run: Run, folder: Path, redeals: dict[str, list[str]], compared: dict[str, int], windows: list[str]
) -> None:
    """The main run: a whole game with every kind of command, checked output by output, and the
    redeal check forked off at ``WINDOW_AT`` steps."""
    case, spec = run.case, run.spec()
    humans = [ANN, BOB, CAT][: case.players]
    if case.players == spec.max_players and len(humans) == case.players and case.players >= 2:
        humans = humans[:-1]  # a full table: the last seat is a bot
    await must(run, ANN, f"/game new {case.slug} {case.options}".strip())
    for actor in humans[1:]:
        await must(run, actor, "/game join")
    await run.say(ZED, "/game start")  # refused: only the host starts
    for _ in range(case.players - len(humans)):
        await must(run, ANN, "/game addbot 1")
        run.coverage.add("bot")
    await must(run, ANN, "/game start")
    last = humans[-1] if len(humans) > 1 else None
    done: set[str] = set()
    picker = random.Random(case.id)
    forks = 0
    hot = {viewer.name: 0 for viewer in VIEWERS}
    for step in range(MAIN_STEPS * 2):
        waiting = humans_to_act(run)
        if not waiting:
            break
        if step in case.windows:
            for index, viewer in enumerate(VIEWERS):
                # Re-dealing every other seat, or (in turn) only the other humans' seats.
                everyone = (case.windows.index(step) + index) % 2 == 0
                forks += 1
                window = Window(run, viewer, forks, everyone, redeals[viewer.name])
                compared[viewer.name] += await window.check(folder)
                windows.append(window.ended)
        if step % LOOK_EVERY == 0:
            for viewer in (ANN, ZED, BOB):
                await run.look(viewer, images=step % (2 * LOOK_EVERY) == 0)
        if step == TIMER_AT:
            await run.fire_timers(13)
        owner = {seat: actor_of(user) for seat, user in run.owners.items() if not user.startswith("bot:")}
        ann = seat_of(run, ANN.user_id)
        others = [seat for seat in waiting if seat != ann]
        # Moderation, each once at its first chance.
        if "skip other" not in done and step >= 2 and others:
            done.add("skip other")
            if (await run.say(MOD, f"/game skip {owner[others[0]].name}")).ok:
                run.coverage.add("skip")
            continue
        # (Kept for right after ann's secret move is taken back, where the game has secret moves.)
        skip_ann_at = 6 if spec.hidden_move is None or "undo secret" in done else MAIN_STEPS // 2
        if "skip ann" not in done and step >= skip_ann_at and ann in waiting:
            done.add("skip ann")  # a rival who moderates plays ann's turn for her
            if (await run.say(BOB, "/game skip ann")).ok:
                run.coverage |= {"skip", "a rival moderator skips ann"}
            continue
        if "substitute" not in done and step >= SUBSTITUTE_AT and last and seat_of(run, last.user_id) is not None:
            done.add("substitute")
            await must(run, MOD, f"/game substitute {last.name} <@{DAN.user_id}>")
            run.coverage.add("substitute")
            continue
        if "kick" not in done and step >= KICK_AT and seat_of(run, DAN.user_id) is not None:
            done.add("kick")
            await must(run, MOD, "/game kick dan")
            run.coverage.add("kick")
            continue
        if step >= MAIN_STEPS:  # long enough: ann's rivals resign one by one
            rival = next((a for a in owner.values() if a != ANN), None)
            if rival is not None and (await run.say(rival, "/game resign confirm")).ok:
                continue
        seat = picker.choice(waiting)
        actor = owner[seat]
        text = await typed_move(run, actor, seat, picker, RANDOM_MOVES)
        assert text is not None, f"{case.id}: {actor.name} must act but has no legal command"
        viewer = VIEWERS[step % len(VIEWERS)]
        if hot[viewer.name] < case.hot_windows and (found := screen(run, viewer, (seat, text))) is not None:
            # Hunting like an adversary found a move of another human whose public outcome
            # re-dealt secrets change: a window checks what the viewer really obtains.
            mover, move, seed = found
            hot[viewer.name] += 1
            forks += 1
            window = Window(run, viewer, forks, True, redeals[viewer.name], seed, (owner[mover], move))
            compared[viewer.name] += await window.check(folder)
            windows.append(window.ended)
        await must(run, actor, text)
        if actor == ANN and is_hidden(spec, text) and "undo secret" not in done:
            # ann takes her secret move back (nobody may learn what it was); then bob, a rival who
            # moderates, skips her: what is played for her (her "You keep …") is for her alone.
            done.add("undo secret")
            if (await run.say(ANN, "/game undo")).ok:
                run.coverage.add("undo of a secret move")
                if "skip ann" not in done and (await run.say(BOB, "/game skip ann")).ok:
                    done.add("skip ann")
                    run.coverage |= {"skip", "a rival moderator skips ann", "skip after a secret move"}
                else:
                    await must(run, ANN, text)
    for viewer in (ANN, ZED):
        await run.look(viewer, images=False)


# ----------------------------------------------------------------- the redeal check


class Window:
    """One redeal check: two copies of the main run's database, every seat but the viewer's
    re-dealt in one (or only the other humans' seats: bots' moves rightly follow their own
    secrets, so keeping those lets the check run longer), the same steps in both."""

    def __init__(
        self,
        run: Run,
        viewer: Actor,
        number: int,
        everyone: bool,
        findings: list[str],
        seed: int | None = None,
        first: tuple[Actor, str] | None = None,
    ) -> None:
        self.run, self.viewer, self.number, self.everyone, self.findings = run, viewer, number, everyone, findings
        self.seed = seed if seed is not None else 7919 * number
        self.first = first  # the first move to make in both copies (the one the screen picked)
        whom = "every other seat" if everyone else "the other humans"
        self.name = f"{run.case.id} window {number} ({viewer.name}, re-dealing {whom})"
        self.ended = f"{self.name}: ran all {WINDOW_STEPS} steps"
        self.compared = 0
        self.typed, self.typed_by = -1, viewer

    async def check(self, folder: Path) -> int:
        run = self.run
        redeal = find_redeal(run.case.slug)
        if redeal is None or run.row is None or run.row.state is None:
            self.ended = f"{self.name}: no redeal"
            return 0
        self.viewer_seat = seat_of(run, self.viewer.user_id)
        state = run.row.state
        new = redealt(run, redeal, state, self.viewer_seat, self.everyone, self.seed)
        self.same = await run.fork(folder / f"fork{self.number}-same.db")
        self.dealt = await run.fork(folder / f"fork{self.number}-dealt.db")
        self.runs = (self.same, self.dealt)
        try:
            for r in self.runs:
                r.where = f"window {self.number} ({self.viewer.name})"
            await self.same.write(state)
            await self.dealt.write(new)
            self.marks = [len(r.seen) for r in self.runs]
            await self.steps()
        finally:
            for r in self.runs:
                run.findings += [f for f in r.findings if f not in run.findings]
                run.coverage |= r.coverage
                await r.close()
        return self.compared

    async def compare(self, label: str) -> bool:
        """Whether the copies are still comparable (else the window ends): compared, the viewer
        obtained the same in both."""
        mine, theirs = (r.view_of(self.viewer.user_id, m) for r, m in zip(self.runs, self.marks, strict=True))
        self.marks = [len(r.seen) for r in self.runs]
        parted = self.parting()
        if parted == "":
            self.ended = f"{self.name}: ended at `{label}` after {self.compared} steps (the games parted)"
            return False
        if parted is not None:
            self.findings.append(f"{self.name}: after `{label}` {parted}")
            self.ended = f"{self.name}: ended at `{label}` after {self.compared} steps (a leak)"
            return False
        if mine != theirs:
            self.findings.append(self.diff(label, mine, theirs))
            self.ended = f"{self.name}: ended at `{label}` after {self.compared} steps (a leak)"
            return False
        self.compared += 1
        return True

    def parting(self) -> str | None:
        """None while both copies are the same game for the viewer: the logs agree once other seats'
        secret moves are blanked, and nothing random or hidden came out since the fork. Else "" when
        they rightly parted (a move drew or revealed something; a seat chose differently, knowing
        its own re-dealt secrets), or what leaked: the same public history, yet a seat acted in one
        copy and not in the other, so who must act depends on hidden information."""
        spec = self.run.spec()
        logs = [
            [
                (m.seat, "(secret)" if m.seat != self.viewer_seat and is_hidden(spec, m.text) else m.text, m.reverted)
                for m in r.moves
            ]
            for r in self.runs
        ]
        start = self.same.fork_from
        if logs[0] == logs[1]:
            revealed = any(m.irreversible for r in self.runs for m in r.moves[start:])
            return "" if revealed else None
        first = next((i for i, (a, b) in enumerate(zip(*logs, strict=False)) if a != b), min(map(len, logs)))
        if any(m.irreversible for r in self.runs for m in r.moves[start:first]):
            return ""
        if first == self.typed and self.typed_by != self.viewer:
            return ""  # another's command: its seat's own (re-dealt) secrets decide what it does
        if all(first < len(log) for log in logs) and logs[0][first][0] == logs[1][first][0]:
            return ""  # the same seat moved, differently: a bot following its own secrets
        acted = [log[first] if first < len(log) else None for log in logs]
        return (
            f"the same public history parts: next in the log is {acted[0]} with the secrets kept and "
            f"{acted[1]} with them re-dealt (who must act depends on hidden information)"
        )

    async def both(self, actor: Actor, text: str) -> bool:
        self.typed, self.typed_by = len(self.same.moves), actor  # where the command's own move goes
        for r in self.runs:
            await r.say(actor, text)
        return await self.compare(f"{actor.name}: {text}")

    async def look(self, images: bool, label: str, refused: int = 2) -> bool:
        self.typed = -1
        for r in self.runs:
            await r.look(self.viewer, images=images, refused=refused)
        return await self.compare(label)

    async def steps(self) -> None:
        same, viewer, spec = self.same, self.viewer, self.run.spec()
        picker = random.Random(self.number)
        if not await self.look(True, "the viewer's first look"):
            return
        if self.first is not None and (
            not await self.both(*self.first) or not await self.look(True, "the viewer's look")
        ):
            return
        for step in range(WINDOW_STEPS):
            waiting = humans_to_act(same)
            if not waiting:
                self.ended = f"{self.name}: nobody to act after {self.compared} steps"
                return
            mine = await same.host.legal_commands(GUILD, CHANNEL, viewer.user_id)
            others = [seat for seat in waiting if seat != self.viewer_seat]
            if others and step % 3 == 0:
                # Others' moves typed by the viewer: the refusals may not depend on what others hold.
                theirs = await same.host.legal_commands(GUILD, CHANNEL, same.owners[others[0]])
                for typed in picker.sample(theirs, min(2, len(theirs))):
                    if typed not in mine and not await self.both(viewer, typed):
                        return
            if step == 2:
                for r in self.runs:
                    await r.fire_timers(13)
                self.typed = -1
                if not await self.compare("a timer"):
                    return
            text: str | None = None
            if self.viewer_seat in waiting and (step % 2 == 0 or not others):
                seat, actor = self.viewer_seat, viewer
                text = await typed_move(same, viewer, seat, picker, 0.5)
            else:
                seat = picker.choice(others)
                actor = actor_of(same.owners[seat])
                theirs = await same.host.legal_commands(GUILD, CHANNEL, actor.user_id)
                public = [t for t in theirs if not is_hidden(spec, t)]
                if step == 4 or not public:
                    # A moderator's skip: a secret choice stays secret in both copies.
                    actor, text = MOD, f"/game skip {actor.name}"
                else:
                    text = picker.choice(public)
            if text is None or not await self.both(actor, text):
                return
            if not await self.look(False, "the viewer's look", refused=1):
                return

    def diff(self, label: str, mine: list[str], theirs: list[str]) -> str:
        head = f"{self.name}: what {self.viewer.name} obtains changes after `{label}`"
        for index, (a, b) in enumerate(zip(mine, theirs, strict=False)):
            if a != b:
                at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
                lo = max(0, at - 150)
                return f"{head} (item {index}):\n    kept:    …{a[lo : at + 150]}\n    redealt: …{b[lo : at + 150]}"
        extra = (mine + theirs)[min(len(mine), len(theirs))]
        return f"{head}: {len(mine)} things against {len(theirs)}, e.g. {extra[:300]}"


def redealt(
    run: Run, redeal: Callable[[State, int, int], State], state: State, viewer: int | None, everyone: bool, seed: int
) -> State:
    """``state`` with every seat but ``viewer``'s re-dealt (or only the humans' seats)."""
    for seat, owner in sorted(run.owners.items()):
        if seat != viewer and (everyone or not owner.startswith("bot:")):
            state = redeal(state, seat, seed + seat)
    return state


def screen(run: Run, viewer: Actor, chosen: tuple[int, str]) -> tuple[int, str, int] | None:
    """A seat other than the viewer's, one of its moves and a redeal seed under which that move
    leaves ``viewer`` a different status (who must act, the summary), or for ``chosen`` also a
    different view, though the move drew and revealed nothing: where a window is worth forking.

    Engine-level and cheap: the harness hunts like an adversary, over every legal move of every
    human to act; the window then checks through the host what the viewer really obtains.
    """
    spec, redeal, row = run.spec(), find_redeal(run.case.slug), run.row
    if redeal is None or row is None or row.state is None:
        return None
    viewer_seat = seat_of(run, viewer.user_id)

    def outcome(state: State, seat: int, move: dict[str, Any], view: bool) -> str | None:
        try:
            after, events = spec.apply(state, seat, move)
        except IllegalMove:
            return None
        if any(event.get("irreversible") for event in events):
            return None
        return repr(spec.status(after)) + (dumps(spec.view(after, viewer_seat)) if view else "")

    seeds = [104_729 * (attempt + 1) + 13 * len(run.moves) for attempt in range(SCREEN_TRIES)]
    dealt = [(seed, redealt(run, redeal, row.state, viewer_seat, True, seed)) for seed in seeds]
    for seat in humans_to_act(run):
        if seat == viewer_seat:
            continue
        legal = spec.legal_moves(row.state, seat)
        picker = random.Random(len(run.moves) * 31 + seat)
        moves = [(move, False) for move in picker.sample(legal, min(SCREEN_MOVES, len(legal)))]
        if seat == chosen[0]:
            moves.append((spec.parse(chosen[1]), True))
        for move, view in moves:
            if is_hidden(spec, spec.format(move)) or (kept := outcome(row.state, seat, move, view)) is None:
                continue
            for seed, other in dealt:
                if outcome(other, seat, move, view) not in (None, kept):
                    return seat, spec.format(move), seed
    return None


# ----------------------------------------------------------------- entry point for the tests

_RESULTS: dict[str, Result] = {}


def result(case: LeakCase, folder_factory: Callable[[], Path]) -> Result:
    """The harness for ``case``, played once per test session and shared by its tests."""
    if case.id not in _RESULTS:
        with plugin_registered():
            _RESULTS[case.id] = asyncio.run(main_run(case, folder_factory()))
    return _RESULTS[case.id]
