"""The Discord-free host core.

For one (guild, channel, actor, command text) it finds the channel's game, checks the
actor may act, parses, applies, persists, renders and returns a Reply. The Discord
adapter, the local console, transcripts and tests all drive this class.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Executor
from dataclasses import dataclass, replace
from typing import Any

import games
from bot import replies as R
from bot.config_commands import apply_config, lobby_days
from bot.replay import RESIGN, apply_text, rebuild
from bot.replies import Actor, ImageOut, Reply
from games.base import Event, GameSpec, IllegalMove, State, Status
from games.notation import suggest
from games.options import format_options, parse_options
from storage import ChannelBusy, GameRow, MoveRecord, MoveRow, SeatRow, StaleVersion, Store
from storage.db import dumps

log = logging.getLogger(__name__)

GAME_SUBCOMMANDS = (
    "new", "join", "leave", "start", "status", "board", "hand", "history", "rules", "resign", "abort", "kick",
    "substitute", "undo", "export", "addbot", "skip", "rollback", "list", "mygames", "config", "pings",
    "replacebot", "pause",
)
# These also answer about the channel's last finished game.
READ_ONLY = {"status", "board", "history", "export", "rules", "hand"}
MODERATOR_ONLY = {"kick", "substitute", "skip", "rollback", "config", "replacebot", "pause"}
DEFAULT_REMINDER_HOURS = 12.0
MAX_BOT_STEPS = 2000  # a bot-only table would otherwise loop for a whole game in one command
RETRIES_ON_STALE = 10


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


class Conductor:
    """The host service. ``render_images=False`` skips Pillow (fast replays and tests)."""

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

    # ----- entry point -------------------------------------------------------------------

    async def handle(self, guild_id: str, channel_id: str, actor: Actor, text: str,
                     names: Mapping[str, str] | None = None, expected_version: int | None = None) -> Reply:
        """Run one command. ``names`` maps user ids mentioned in the text to display names.

        ``expected_version`` comes from a button or menu: if the channel's game has changed
        since that component was drawn, the click is refused and nothing changes.
        """
        if expected_version is not None:
            row = await self.store.latest_game(guild_id, channel_id)
            if row is None or row.version != expected_version:
                return Reply.refuse(R.STALE, "This board is out of date: the game has moved on since these buttons "
                                             "were posted. Use the latest message or `/game status`.",
                                    row.id if row else None, row.version if row else None)
        words = text.strip().split()
        if not words or not words[0].startswith("/"):
            return Reply.refuse(R.BAD_COMMAND, "Commands start with a slash, for example `/game new tiny-towns`.")
        group = words[0][1:].lower()
        if group == "game":
            return await self._game_command(guild_id, channel_id, actor, words[1:], names or {})
        spec = games.game_for_group(group)
        if spec is None:
            groups = ["game", *(games.get_game(s).command_group for s in games.available_slugs())]
            return Reply.refuse(R.BAD_COMMAND, f'Unknown command "/{group}"{suggest(group, groups)}. '
                                               f"Commands: {', '.join('/' + g for g in groups)}.")
        return await self._move(guild_id, channel_id, actor, spec, text.strip())

    async def legal_commands(self, guild_id: str, channel_id: str, user_id: str) -> list[str]:
        """Canonical texts of every move ``user_id`` may make right now (for autocomplete and buttons)."""
        game = await self._channel_game(guild_id, channel_id)
        if game is None or game.row.status != "active" or game.row.state is None:
            return []
        seat = game.seat_of(user_id)
        if seat is None:
            return []
        return [game.spec.format(move) for move in game.spec.legal_moves(game.row.state, seat)]

    async def labelled_commands(self, guild_id: str, channel_id: str, user_id: str) -> list[tuple[str, str]]:
        """(canonical text, short label) for every legal move of ``user_id`` now; the label may be empty."""
        game = await self._channel_game(guild_id, channel_id)
        if game is None or game.row.status != "active" or game.row.state is None:
            return []
        seat = game.seat_of(user_id)
        if seat is None:
            return []
        state, spec = game.row.state, game.spec
        label = spec.move_label
        return [(spec.format(move), label(state, seat, move) if label else "")
                for move in spec.legal_moves(state, seat)]

    async def channel_game(self, guild_id: str, channel_id: str) -> Loaded | None:
        """The channel's open game (read-only use by front ends)."""
        return await self._channel_game(guild_id, channel_id)

    # ----- loading -----------------------------------------------------------------------

    async def _load(self, row: GameRow) -> Loaded:
        return Loaded(row, games.get_game(row.game), await self.store.seats(row.id))

    async def _channel_game(self, guild_id: str, channel_id: str) -> Loaded | None:
        row = await self.store.open_game(guild_id, channel_id)
        return await self._load(row) if row else None

    def _lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    # ----- moves -------------------------------------------------------------------------

    async def _move(self, guild_id: str, channel_id: str, actor: Actor, spec: GameSpec, text: str) -> Reply:
        game = await self._channel_game(guild_id, channel_id)
        if game is None:
            # A move that arrives just after the end (a late "/tt done") still reaches the game it was meant for.
            latest = await self.store.latest_game(guild_id, channel_id)
            if latest is not None and latest.status == "finished" and latest.game == spec.slug:
                game = await self._load(latest)
        if game is None:
            return Reply.refuse(R.NO_GAME, f"There is no game in this channel. Start one with "
                                           f"`/game new {spec.slug}`.")
        if game.spec.command_group != spec.command_group:
            return Reply.refuse(R.BAD_COMMAND, f"This channel is playing {game.spec.name}; its commands start "
                                               f"with /{game.spec.command_group}.", game.row.id, game.row.version)
        if game.row.status == "lobby":
            return Reply.refuse(R.NOT_STARTED, "The game has not started yet. The host starts it with "
                                               "`/game start`.", game.row.id, game.row.version)
        seat = game.seat_of(actor.user_id)
        if seat is None:
            return Reply.refuse(R.NOT_PLAYER, "You are not playing in this game. `/game status` shows who is.",
                                game.row.id, game.row.version)
        try:
            move = spec.parse(text)
        except IllegalMove as exc:
            return Reply.refuse(R.BAD_COMMAND, exc.message, game.row.id, game.row.version)
        async with self._lock(game.row.id):
            for _ in range(RETRIES_ON_STALE):
                game = await self._load(await self._reload(game.row.id))
                try:
                    if game.row.status == "finished":
                        return await self._after_the_end(game, seat, actor, move)
                    if game.row.status != "active":
                        return Reply.refuse(R.FINISHED, "This game was aborted.", game.row.id, game.row.version)
                    if game.row.paused:
                        return Reply.refuse(R.PAUSED, "A moderator paused this game; moves wait until "
                                                      "`/game pause off`.", game.row.id, game.row.version)
                    return await self._apply_and_persist(game, seat, actor, move)
                except StaleVersion:
                    # Another process wrote first: back off a little, then re-read and re-validate.
                    await asyncio.sleep(random.uniform(0.001, 0.02))
        return Reply.refuse(R.STALE, "The game changed while your move was processed; please try again.",
                            game.row.id, game.row.version)

    async def _after_the_end(self, game: Loaded, seat: int, actor: Actor, move: dict[str, Any]) -> Reply:
        """Once a game is over only a harmless no-op (a late ``/tt done``) is accepted; it is logged so the
        move log still replays exactly what players sent."""
        state = game.row.state
        assert state is not None
        over = Reply.refuse(R.FINISHED, "This game is over. `/game status` shows the result.", game.row.id,
                            game.row.version)
        try:
            new_state, _ = game.spec.apply(state, seat, move)
        except IllegalMove:
            return over
        if dumps(new_state) != dumps(state):
            return over
        version = await self.store.update_game(game.row.id, game.row.version,
                                               move=MoveRecord(seat, actor.user_id, game.spec.format(move)))
        return Reply(private="The game is already over; nothing more to do.", game_id=game.row.id,
                     version=version, finished=True)

    async def _reload(self, game_id: int) -> GameRow:
        row = await self.store.get_game(game_id)
        assert row is not None
        return row

    async def _apply_and_persist(self, game: Loaded, seat: int, actor: Actor, move: dict[str, Any]) -> Reply:
        spec, state = game.spec, game.row.state
        assert state is not None
        before = spec.status(state)
        try:
            new_state, events = spec.apply(state, seat, move)
        except IllegalMove as exc:
            if seat not in before.to_act:
                # The engine's reason says more than "not your turn" (a wrong pattern, "wait for bob").
                return Reply.refuse(R.NOT_YOUR_TURN, f"{exc.message} Now: {before.summary}.",
                                    game.row.id, game.row.version)
            return Reply.refuse(R.ILLEGAL, exc.message, game.row.id, game.row.version)
        text = spec.format(move)
        record = MoveRecord(seat, actor.user_id, text, _irreversible(events))
        after = spec.status(new_state)
        version = await self.store.update_game(
            game.row.id, game.row.version, state=new_state,
            status="finished" if after.finished else None, move=record,
        )
        reply = Reply(game_id=game.row.id, version=version,
                      hide_command=bool(spec.hidden_move and spec.hidden_move(move)))
        post_board = self._describe(reply, seat, [(seat, events)])
        game = await self._load(await self._reload(game.row.id))
        await self._continue(game, _newly(before, after), reply, post_board)
        return reply

    async def _continue(self, game: Loaded, newly: set[int], reply: Reply, post_board: bool) -> None:
        """After a change: let bots move, then ping, render and reschedule reminders once.

        ``newly`` holds seats that started having to act during this command.
        """
        game, bot_events = await self._run_bots(game, newly)
        if bot_events:
            post_board = self._describe(reply, None, bot_events) or post_board
        state = game.row.state
        assert state is not None
        after = game.spec.status(state)
        reply.version = game.row.version
        reply.finished = after.finished
        reply.public = "\n".join(line for line in (reply.public, f"**{after.summary}**") if line)
        reply.pings = await self._pings(game, newly, after)
        if after.finished or post_board:
            reply.images = await self._board_images(game, finished=after.finished)
        await self._reschedule(game, after)

    async def _run_bots(self, game: Loaded, newly: set[int]) -> tuple[Loaded, list[tuple[int, list[Event]]]]:
        """Bots whose turn it is move at once, in seat order, until a human must act."""
        collected: list[tuple[int, list[Event]]] = []
        bots = {s.seat: s for s in game.seats if s.kind == "bot"}
        for _ in range(MAX_BOT_STEPS):
            state = game.row.state
            if not bots or state is None or game.row.status != "active" or game.row.paused:
                break
            status = game.spec.status(state)
            acting = [seat for seat in status.to_act if seat in bots]
            if status.finished or not acting:
                break
            seat = acting[0]
            move = game.spec.bot_move(state, seat, bots[seat].bot_level)
            new_state, events = game.spec.apply(state, seat, move)
            after = game.spec.status(new_state)
            await self.store.update_game(
                game.row.id, game.row.version, state=new_state, status="finished" if after.finished else None,
                move=MoveRecord(seat, bots[seat].user_id, game.spec.format(move), _irreversible(events)),
            )
            collected.append((seat, events))
            newly |= _newly(status, after)
            game = await self._load(await self._reload(game.row.id))
        return game, collected

    def _describe(self, reply: Reply, actor_seat: int | None, batches: list[tuple[int, list[Event]]]) -> bool:
        """Add public lines, and private lines for the actor's own seat; True if a board is due."""
        public, private = [], []
        post_board = False
        for _, events in batches:
            for event in events:
                if event.get("text"):
                    public.append(str(event["text"]))
                secret = event.get("private")
                if isinstance(secret, dict) and secret.get("seat") == actor_seat and actor_seat is not None:
                    private.append(str(secret.get("text", "")))
                post_board = post_board or bool(event.get("post_board"))
        reply.public = "\n".join(line for line in (reply.public, *public) if line)
        reply.private = "\n".join(line for line in (reply.private, *private) if line)
        return post_board

    async def _pings(self, game: Loaded, newly: set[int], after: Status) -> list[str]:
        """Mention a user once when it becomes their turn, never once per move."""
        if after.finished:
            return []
        users = []
        for seat in (s for s in after.to_act if s in newly):
            row = game.seats[seat]
            if row.kind == "human" and await self.store.user_setting(row.user_id, "pings") != "off":
                users.append(row.user_id)
        return users

    async def _board_images(self, game: Loaded, finished: bool) -> list[ImageOut]:
        if not self.render_images:
            return []
        state = game.row.state
        assert state is not None
        view = game.spec.view(state, None)
        standings = game.spec.standings(state)
        scores = ", ".join(f"{s['player']} {s['score']}" for s in standings)
        status = game.spec.status(state)
        images = [ImageOut(f"{game.spec.slug}-{game.row.id}-v{game.row.version}.png",
                           await self._draw(_render, view, None),
                           f"{game.spec.name} board. {status.summary}. Scores: {scores}.")]
        if finished:
            images.append(ImageOut(f"{game.spec.slug}-{game.row.id}-standings.png",
                                   await self._draw(_render_standings, view, standings),
                                   f"Final standings: {_standings_line(standings)}."))
        return images

    # ----- /game commands ----------------------------------------------------------------

    async def _game_command(self, guild_id: str, channel_id: str, actor: Actor, args: list[str],
                            names: Mapping[str, str]) -> Reply:
        if not args:
            return Reply.refuse(R.BAD_COMMAND, f"Use /game followed by one of: {', '.join(GAME_SUBCOMMANDS)}.")
        verb, rest = args[0].lower(), args[1:]
        if verb not in GAME_SUBCOMMANDS:
            return Reply.refuse(R.BAD_COMMAND, f'Unknown command "/game {verb}"{suggest(verb, GAME_SUBCOMMANDS)}. '
                                               f"Commands: {', '.join(GAME_SUBCOMMANDS)}.")
        if verb in MODERATOR_ONLY and not actor.is_moderator:
            return Reply.refuse(R.FORBIDDEN, f"Only moderators (Manage Channels or the moderator role) can use "
                                             f"/game {verb}.")
        if verb == "new":
            return await self._new(guild_id, channel_id, actor, rest)
        if verb == "list":
            return await self._list(guild_id)
        if verb == "mygames":
            return await self._mygames(actor)
        if verb == "pings":
            return await self._set_pings(actor, rest)
        if verb == "rules" and rest and not await self.store.open_game(guild_id, channel_id):
            return self._rules(None, rest)
        if verb in READ_ONLY:
            row = await self.store.latest_game(guild_id, channel_id)
            game = await self._load(row) if row else None
        else:
            game = await self._channel_game(guild_id, channel_id)
        if verb == "config":
            return await self._config(guild_id, channel_id, rest)
        if game is None:
            return Reply.refuse(R.NO_GAME, "There is no game in this channel. Start one with "
                                           f"`/game new <game>` ({', '.join(games.available_slugs())}).")
        async with self._lock(game.row.id):
            game = await self._load(await self._reload(game.row.id))
            handler = getattr(self, f"_cmd_{verb}")
            try:
                return await handler(game, actor, rest, names)
            except StaleVersion:
                return Reply.refuse(R.STALE, "The game changed while your command was processed; please try "
                                             "again.", game.row.id, game.row.version)

    async def _new(self, guild_id: str, channel_id: str, actor: Actor, args: list[str]) -> Reply:
        if not args:
            return Reply.refuse(R.BAD_COMMAND, f"Which game? `/game new <game>`: "
                                               f"{', '.join(games.available_slugs())}.")
        try:
            spec = games.get_game(args[0])
            options = parse_options(" ".join(args[1:]), spec.options)
            # A dry-run setup catches option errors now instead of at /game start.
            spec.setup([f"p{i}" for i in range(spec.min_players)], options, 0)
        except IllegalMove as exc:
            return Reply.refuse(R.BAD_COMMAND, exc.message)
        try:
            row = await self.store.create_game(guild_id, channel_id, spec.slug, actor.user_id, actor.name,
                                               options, spec.rules_version)
        except ChannelBusy:
            existing = await self.store.open_game(guild_id, channel_id)
            what = f"a {games.get_game(existing.game).name} {existing.status}" if existing else "a game"
            return Reply.refuse(R.BAD_COMMAND, f"This channel already has {what}. Finish it or `/game abort` it "
                                               "first, or open a thread for a new game.")
        days = await lobby_days(self.store, guild_id, channel_id)
        await self.store.add_timer("lobby_expiry", self.clock() + days * 86400, row.id, {"days": days})
        shown = format_options(options, spec.options)
        return Reply(public=f"{actor.name} opened a {spec.name} lobby{f' ({shown})' if shown else ''}. "
                            f"Join with `/game join`; the host starts with `/game start` "
                            f"({_player_range(spec)}).", game_id=row.id, version=row.version)

    async def _cmd_join(self, game: Loaded, actor: Actor, args: list[str], names: Mapping[str, str]) -> Reply:
        if game.row.status != "lobby":
            return self._refuse(game, R.BAD_COMMAND, "This game has already started; you can watch it or ask a "
                                                     "moderator to `/game substitute` you in.")
        if game.seat_of(actor.user_id) is not None:
            return self._refuse(game, R.BAD_COMMAND, "You have already joined this game.")
        if len(game.seats) >= game.spec.max_players:
            return self._refuse(game, R.BAD_COMMAND, f"The table is full ({game.spec.max_players} players).")
        seats = [*game.seats, SeatRow(len(game.seats), actor.user_id, actor.name, "human", 1)]
        version = await self.store.set_seats(game.row.id, game.row.version, seats)
        return Reply(public=f"{actor.name} joined. Players: {', '.join(s.display_name for s in seats)}.",
                     game_id=game.row.id, version=version)

    async def _cmd_addbot(self, game: Loaded, actor: Actor, args: list[str], names: Mapping[str, str]) -> Reply:
        if game.row.status != "lobby":
            return self._refuse(game, R.BAD_COMMAND, "Bots can only be added in the lobby.")
        if actor.user_id != game.row.host_id and not actor.is_moderator:
            return self._refuse(game, R.FORBIDDEN, "Only the host can add bots.")
        if len(game.seats) >= game.spec.max_players:
            return self._refuse(game, R.BAD_COMMAND, f"The table is full ({game.spec.max_players} players).")
        level = 1
        if args:
            if args[0] not in ("0", "1"):
                return self._refuse(game, R.BAD_COMMAND, "Bot level is 0 (random) or 1 (normal).")
            level = int(args[0])
        number = 1 + sum(1 for s in game.seats if s.kind == "bot")
        bot = SeatRow(len(game.seats), f"bot:{game.row.id}:{number}", f"Bot {number}", "bot", level)
        version = await self.store.set_seats(game.row.id, game.row.version, [*game.seats, bot])
        return Reply(public=f"{bot.display_name} (level {level}) joined.", game_id=game.row.id, version=version)

    async def _cmd_leave(self, game: Loaded, actor: Actor, args: list[str], names: Mapping[str, str]) -> Reply:
        seat = game.seat_of(actor.user_id)
        if seat is None:
            return self._refuse(game, R.NOT_PLAYER, "You are not in this game.")
        if game.row.status != "lobby":
            return self._refuse(game, R.BAD_COMMAND, "The game has started; use `/game resign` to leave it.")
        return await self._remove_from_lobby(game, seat, f"{actor.name} left.")

    async def _remove_from_lobby(self, game: Loaded, seat: int, text: str) -> Reply:
        remaining = [s for s in game.seats if s.seat != seat]
        humans = [s for s in remaining if s.kind == "human"]
        if not humans:
            version = await self.store.update_game(game.row.id, game.row.version, status="aborted")
            await self.store.cancel_timers(game.row.id)
            return Reply(public=f"{text} The lobby is empty and was closed.", game_id=game.row.id, version=version)
        renumbered = [SeatRow(i, s.user_id, s.display_name, s.kind, s.bot_level) for i, s in enumerate(remaining)]
        version = await self.store.set_seats(game.row.id, game.row.version, renumbered)
        if game.seats[seat].user_id == game.row.host_id:
            version = await self.store.update_game(game.row.id, version, host_id=humans[0].user_id)
            text += f" {humans[0].display_name} is the new host."
        return Reply(public=text, game_id=game.row.id, version=version)

    async def _cmd_start(self, game: Loaded, actor: Actor, args: list[str], names: Mapping[str, str]) -> Reply:
        if game.row.status != "lobby":
            return self._refuse(game, R.BAD_COMMAND, "This game has already started.")
        if actor.user_id != game.row.host_id and not actor.is_moderator:
            host = next((s.display_name for s in game.seats if s.user_id == game.row.host_id), "the host")
            return self._refuse(game, R.FORBIDDEN, f"Only the host ({host}) can start the game.")
        count = len(game.seats)
        if not game.spec.min_players <= count <= game.spec.max_players:
            return self._refuse(game, R.BAD_COMMAND, f"{game.spec.name} needs {_player_range(game.spec)}; "
                                                     f"{count} joined.")
        seed = self.seed_source()
        for arg in args:
            if arg.lower().startswith("seed=") and arg[5:].isdigit():
                seed = int(arg[5:])
            else:
                return self._refuse(game, R.BAD_COMMAND, f'Unknown start option "{arg}" (only seed=<number>).')
        try:
            state = game.spec.setup(game.names, game.row.options, seed)
        except IllegalMove as exc:
            return self._refuse(game, R.BAD_COMMAND, exc.message)
        version = await self.store.update_game(game.row.id, game.row.version, state=state, status="active",
                                               seed=seed)
        await self.store.cancel_timers(game.row.id, ["lobby_expiry"])
        game = await self._load(await self._reload(game.row.id))
        reply = Reply(public=f"{game.spec.name} started with {', '.join(game.names)}.",
                      game_id=game.row.id, version=version)
        await self._continue(game, set(game.spec.status(state).to_act), reply, post_board=True)
        return reply

    async def _cmd_status(self, game: Loaded, actor: Actor, args: list[str], names: Mapping[str, str]) -> Reply:
        players = ", ".join(f"{s.display_name}{' (bot)' if s.kind == 'bot' else ''}" for s in game.seats)
        if game.row.status == "lobby":
            text = (f"{game.spec.name} lobby, players: {players} ({_player_range(game.spec)}). "
                    "The host starts with `/game start`.")
        else:
            assert game.row.state is not None
            status = game.spec.status(game.row.state)
            standings = game.spec.standings(game.row.state)
            paused = " Paused by a moderator." if game.row.paused else ""
            text = (f"{game.spec.name} (game {game.row.id}, move {len(await self.store.moves(game.row.id))})."
                    f"{paused} Players: {players}.\n{status.summary}.\nScores: "
                    + ", ".join(f"{s['player']} {s['score']}" for s in standings))
        return Reply(private=text, game_id=game.row.id, version=game.row.version)

    async def _cmd_board(self, game: Loaded, actor: Actor, args: list[str], names: Mapping[str, str]) -> Reply:
        state = self._active_state(game)
        if state is None:
            return self._refuse(game, R.NOT_STARTED, "The game has not started yet; there is no board to show.")
        focus = None
        if args:
            focus = self._find_seat(game, args[0], names)
            if focus is None:
                return self._refuse(game, R.BAD_COMMAND, f'No player "{args[0]}" in this game. Players: '
                                                         f"{', '.join(game.names)}.")
        reply = Reply(private=game.spec.status(state).summary, game_id=game.row.id, version=game.row.version)
        if self.render_images:
            data = await self._draw(_render, game.spec.view(state, None), focus)
            who = f"{game.names[focus]}'s" if focus is not None else "the"
            reply.private_images = [ImageOut(f"{game.spec.slug}-{game.row.id}-board.png", data,
                                             f"{game.spec.name}: {who} board. {reply.private}.")]
        return reply

    async def _cmd_hand(self, game: Loaded, actor: Actor, args: list[str], names: Mapping[str, str]) -> Reply:
        state = self._active_state(game)
        if state is None:
            return self._refuse(game, R.NOT_STARTED, "The game has not started yet.")
        seat = game.seat_of(actor.user_id)
        if seat is None:
            return self._refuse(game, R.NOT_PLAYER, "You are not playing in this game, so you have no hand.")
        summary = game.spec.private_summary(state, seat) if game.spec.private_summary else ""
        reply = Reply(private=summary or "Your private view:", game_id=game.row.id, version=game.row.version)
        if self.render_images:
            data = await self._draw(_render, game.spec.view(state, seat), seat)
            reply.private_images = [ImageOut(f"{game.spec.slug}-{game.row.id}-yours.png", data,
                                             f"Your private view of {game.spec.name}.")]
        return reply

    async def _cmd_history(self, game: Loaded, actor: Actor, args: list[str], names: Mapping[str, str]) -> Reply:
        count = 10
        if args:
            if not args[0].isdigit() or int(args[0]) < 1:
                return self._refuse(game, R.BAD_COMMAND, "History takes a number of moves, e.g. `/game history 20`.")
            count = min(int(args[0]), 100)
        moves = self._redacted(game, await self.store.moves(game.row.id), actor)
        lines = [f"#{i} {game.names[m.seat]}: {m.text}" for i, m in enumerate(moves, 1)][-count:]
        return Reply(private="\n".join(lines) or "No moves yet.", game_id=game.row.id, version=game.row.version)

    async def _cmd_rules(self, game: Loaded, actor: Actor, args: list[str], names: Mapping[str, str]) -> Reply:
        return self._rules(game.spec, args, game)

    def _rules(self, spec: GameSpec | None, args: list[str], game: Loaded | None = None) -> Reply:
        if spec is None:
            try:
                spec = games.get_game(args[0])
            except IllegalMove as exc:
                return Reply.refuse(R.BAD_COMMAND, exc.message)
            args = args[1:]
        topics = list(spec.rules_help)
        if not args:
            body = spec.rules_help.get("overview", "")
            text = f"{body}\nTopics: {', '.join(topics)} (`/game rules <topic>`)."
        elif args[0].lower() in spec.rules_help:
            text = spec.rules_help[args[0].lower()]
        else:
            return Reply.refuse(R.BAD_COMMAND, f'No rules topic "{args[0]}"{suggest(args[0], topics)}. '
                                               f"Topics: {', '.join(topics)}.")
        return Reply(private=text.strip(), game_id=game.row.id if game else None,
                     version=game.row.version if game else None)

    async def _cmd_resign(self, game: Loaded, actor: Actor, args: list[str], names: Mapping[str, str]) -> Reply:
        seat = game.seat_of(actor.user_id)
        if seat is None:
            return self._refuse(game, R.NOT_PLAYER, "You are not playing in this game.")
        if game.row.status == "lobby":
            return self._refuse(game, R.BAD_COMMAND, "The game has not started; use `/game leave` instead.")
        return await self._resign_seat(game, seat, actor, f"{game.names[seat]} resigned.")

    async def _resign_seat(self, game: Loaded, seat: int, actor: Actor, text: str) -> Reply:
        state = game.row.state
        assert state is not None
        before = game.spec.status(state)
        try:
            new_state, events = game.spec.resign(state, seat)
        except IllegalMove as exc:
            return self._refuse(game, R.ILLEGAL, exc.message)
        after = game.spec.status(new_state)
        version = await self.store.update_game(
            game.row.id, game.row.version, state=new_state, status="finished" if after.finished else None,
            move=MoveRecord(seat, actor.user_id, RESIGN, True),
        )
        reply = Reply(public=text, game_id=game.row.id, version=version)
        post_board = self._describe(reply, None, [(seat, events)])
        await self._continue(await self._load(await self._reload(game.row.id)), _newly(before, after), reply,
                             post_board)
        return reply

    async def _cmd_abort(self, game: Loaded, actor: Actor, args: list[str], names: Mapping[str, str]) -> Reply:
        is_host = actor.user_id == game.row.host_id
        if not actor.is_moderator and not (is_host and game.row.status == "lobby"):
            why = "Only moderators can abort a game in progress." if is_host else \
                "Only the host (before the start) or a moderator can abort."
            return self._refuse(game, R.FORBIDDEN, why)
        version = await self.store.update_game(game.row.id, game.row.version, status="aborted")
        await self.store.cancel_timers(game.row.id)
        return Reply(public=f"{actor.name} aborted the {game.spec.name} game.", game_id=game.row.id,
                     version=version, finished=True)

    async def _cmd_kick(self, game: Loaded, actor: Actor, args: list[str], names: Mapping[str, str]) -> Reply:
        if not args:
            return self._refuse(game, R.BAD_COMMAND, "Whom? `/game kick <player>`.")
        seat = self._find_seat(game, args[0], names)
        if seat is None:
            return self._refuse(game, R.BAD_COMMAND, f'No player "{args[0]}" here. Players: '
                                                     f"{', '.join(game.names)}.")
        text = f"{actor.name} removed {game.names[seat]} from the game."
        if game.row.status == "lobby":
            return await self._remove_from_lobby(game, seat, text)
        return await self._resign_seat(game, seat, actor, text)

    async def _cmd_substitute(self, game: Loaded, actor: Actor, args: list[str],
                              names: Mapping[str, str]) -> Reply:
        if len(args) != 2:
            return self._refuse(game, R.BAD_COMMAND, "Use `/game substitute <old player> <new player>`.")
        seat = self._find_seat(game, args[0], names)
        if seat is None:
            return self._refuse(game, R.BAD_COMMAND, f'No player "{args[0]}" here. Players: '
                                                     f"{', '.join(game.names)}.")
        new_id = _mention_id(args[1])
        new_name = names.get(new_id, args[1].lstrip("@"))
        if game.seat_of(new_id) is not None:
            return self._refuse(game, R.BAD_COMMAND, f"{new_name} is already playing in this game.")
        old = game.seats[seat]
        seats = [SeatRow(s.seat, new_id, new_name, "human", s.bot_level) if s.seat == seat else s
                 for s in game.seats]
        version = await self.store.set_seats(game.row.id, game.row.version, seats)
        if old.user_id == game.row.host_id:
            version = await self.store.update_game(game.row.id, version, host_id=new_id)
        reply = Reply(public=f"{new_name} takes over {old.display_name}'s seat.", game_id=game.row.id,
                      version=version)
        state = game.row.state
        if state is not None and game.row.status == "active" and seat in game.spec.status(state).to_act:
            reply.pings = [new_id]
        return reply

    async def _cmd_skip(self, game: Loaded, actor: Actor, args: list[str], names: Mapping[str, str]) -> Reply:
        """A moderator unsticks a game: the stuck player's next action is played by the bot policy."""
        state = self._active_state(game)
        if state is None:
            return self._refuse(game, R.NOT_STARTED, "The game has not started.")
        if game.row.paused:
            return self._refuse(game, R.PAUSED, "The game is paused; resume it with `/game pause off` first.")
        status = game.spec.status(state)
        if args:
            seat = self._find_seat(game, args[0], names)
            if seat is None or seat not in status.to_act:
                return self._refuse(game, R.BAD_COMMAND, f"{args[0]} has nothing to do right now; {status.summary}.")
        elif status.to_act:
            seat = status.to_act[0]
        else:
            return self._refuse(game, R.BAD_COMMAND, "Nobody has to act right now.")
        move = game.spec.bot_move(state, seat, 1)
        reply = await self._apply_and_persist(game, seat, actor, move)
        if reply.ok:
            reply.public = f"{actor.name} skipped {game.names[seat]}: played {game.spec.format(move)}.\n" + reply.public
        return reply

    async def _cmd_replacebot(self, game: Loaded, actor: Actor, args: list[str],
                              names: Mapping[str, str]) -> Reply:
        """A moderator hands a player's seat to the AI (seat kind human -> bot); it moves at once if due."""
        if game.row.status != "active":
            return self._refuse(game, R.NOT_STARTED, "Only a game in progress can get a bot player; in the "
                                                     "lobby use `/game addbot`.")
        if not args or len(args) > 2:
            return self._refuse(game, R.BAD_COMMAND, "Use `/game replacebot <player> [0|1]`.")
        seat = self._find_seat(game, args[0], names)
        if seat is None:
            return self._refuse(game, R.BAD_COMMAND, f'No player "{args[0]}" here. Players: '
                                                     f"{', '.join(game.names)}.")
        old = game.seats[seat]
        if old.kind == "bot":
            return self._refuse(game, R.BAD_COMMAND, f"{old.display_name} is already a bot.")
        if len(args) == 2 and args[1] not in ("0", "1"):
            return self._refuse(game, R.BAD_COMMAND, "Bot level is 0 (random) or 1 (normal).")
        level = int(args[1]) if len(args) == 2 else 1
        # The display name stays: it is the player's name inside the game state and the log.
        seats = [SeatRow(s.seat, f"bot:{game.row.id}:seat{s.seat}", s.display_name, "bot", level)
                 if s.seat == seat else s for s in game.seats]
        version = await self.store.set_seats(game.row.id, game.row.version, seats)
        reply = Reply(public=f"{actor.name} handed {old.display_name}'s seat to a bot (level {level}).",
                      game_id=game.row.id, version=version)
        await self._continue(await self._load(await self._reload(game.row.id)), set(), reply, post_board=False)
        return reply

    async def _cmd_pause(self, game: Loaded, actor: Actor, args: list[str], names: Mapping[str, str]) -> Reply:
        """``/game pause`` / ``/game pause off``: moves, bots and reminders wait while a game is paused."""
        if game.row.status != "active":
            return self._refuse(game, R.NOT_STARTED, "Only a game in progress can be paused.")
        if len(args) > 1 or (args and args[0].lower() not in ("on", "off")):
            return self._refuse(game, R.BAD_COMMAND, "Use `/game pause` to pause and `/game pause off` to resume.")
        pause = not args or args[0].lower() == "on"
        if pause == game.row.paused:
            return self._refuse(game, R.BAD_COMMAND, f"The game is already {'paused' if pause else 'running'}.")
        version = await self.store.update_game(game.row.id, game.row.version, paused=pause)
        game = await self._load(await self._reload(game.row.id))
        if pause:
            await self.store.cancel_timers(game.row.id, ["reminder", "deadline"])
            return Reply(public=f"{actor.name} paused the game. Moves wait until a moderator resumes it with "
                                "`/game pause off`.", game_id=game.row.id, version=version)
        assert game.row.state is not None
        reply = Reply(public=f"{actor.name} resumed the game.", game_id=game.row.id, version=version)
        await self._continue(game, set(game.spec.status(game.row.state).to_act), reply, post_board=False)
        return reply

    async def _cmd_undo(self, game: Loaded, actor: Actor, args: list[str], names: Mapping[str, str]) -> Reply:
        state = self._active_state(game)
        if state is None:
            return self._refuse(game, R.NOT_STARTED, "There is nothing to undo.")
        if game.row.paused:
            return self._refuse(game, R.PAUSED, "A moderator paused this game; undo waits until it resumes.")
        seat = game.seat_of(actor.user_id)
        moves = await self.store.moves(game.row.id)
        if seat is None:
            return self._refuse(game, R.NOT_PLAYER, "You are not playing in this game.")
        if not moves or moves[-1].seat != seat or moves[-1].user_id != actor.user_id:
            return self._refuse(game, R.ILLEGAL, "You can only undo your own move, and only while it is the last "
                                                 "move of the game (nobody has acted since).")
        if moves[-1].irreversible:
            return self._refuse(game, R.ILLEGAL, "That move can't be undone: it revealed hidden information or "
                                                 "drew something at random.")
        if moves[-1].text.strip().lower() == RESIGN:
            return self._refuse(game, R.ILLEGAL, "A resignation can't be undone.")
        return await self._rewind(game, moves, len(moves) - 1, f"{actor.name} took back `{moves[-1].text}`.")

    async def _cmd_rollback(self, game: Loaded, actor: Actor, args: list[str], names: Mapping[str, str]) -> Reply:
        if self._active_state(game) is None:
            return self._refuse(game, R.NOT_STARTED, "The game has not started.")
        moves = await self.store.moves(game.row.id)
        if not args or not args[0].isdigit() or int(args[0]) > len(moves):
            return self._refuse(game, R.BAD_COMMAND, f"Use `/game rollback <move number>` with 0..{len(moves)} "
                                                     "(the game is re-played up to and including that move).")
        keep = int(args[0])
        return await self._rewind(game, moves, keep, f"{actor.name} rolled the game back to move {keep}.")

    async def _rewind(self, game: Loaded, moves: list[Any], keep: int, text: str) -> Reply:
        assert game.row.seed is not None and game.row.state is not None
        before = game.spec.status(game.row.state)
        state = rebuild(game.spec, game.names, game.row.options, game.row.seed,
                        [(m.seat, m.text) for m in moves[:keep]])
        revert_from = moves[keep].seq if keep < len(moves) else None
        after = game.spec.status(state)
        version = await self.store.update_game(
            game.row.id, game.row.version, state=state, status="finished" if after.finished else "active",
            revert_from_seq=revert_from,
        )
        reply = Reply(public=text, game_id=game.row.id, version=version)
        await self._continue(await self._load(await self._reload(game.row.id)), _newly(before, after), reply,
                             post_board=True)
        return reply

    async def _cmd_export(self, game: Loaded, actor: Actor, args: list[str], names: Mapping[str, str]) -> Reply:
        from bot.transcript import export  # transcript imports core; keep the cycle lazy

        if game.row.status == "lobby":
            return self._refuse(game, R.NOT_STARTED, "The game has not started; there is nothing to export yet.")
        moves = await self.store.moves(game.row.id)
        shown = self._redacted(game, moves, actor)
        text = export(game.spec, game.row, game.seats, shown)
        if shown != moves:
            text = ("# Some moves are secret until the game ends and are shown as comments; this export can be "
                    "replayed once the game is over.\n" + text)
        return Reply(private=text, game_id=game.row.id, version=game.row.version)

    def _redacted(self, game: Loaded, moves: list[MoveRow], actor: Actor) -> list[MoveRow]:
        """Moves as ``actor`` may see them: others' secret moves become comments until the game ends."""
        hidden = game.spec.hidden_move
        if hidden is None or game.row.status == "finished":
            return moves
        seat = game.seat_of(actor.user_id)
        shown = []
        for move in moves:
            if move.seat != seat and move.text.strip().lower() != RESIGN and hidden(game.spec.parse(move.text)):
                move = replace(move, text=f"# {move.text.split()[0]} {move.text.split()[1]} (secret)")
            shown.append(move)
        return shown

    async def _list(self, guild_id: str) -> Reply:
        lines = []
        for row in await self.store.list_games(guild_id):
            game = await self._load(row)
            where = f"<#{row.channel_id}>"
            if row.status == "lobby" or row.state is None:
                lines.append(f"{where}: {game.spec.name} lobby ({len(game.seats)} joined)")
            else:
                lines.append(f"{where}: {game.spec.name}: {game.spec.status(row.state).summary}")
        return Reply(private="\n".join(lines) or "No games are open in this server.")

    async def _mygames(self, actor: Actor) -> Reply:
        lines = []
        for row in await self.store.games_of_user(actor.user_id, ("active",)):
            game = await self._load(row)
            seat = game.seat_of(actor.user_id)
            if row.state is not None and seat in game.spec.status(row.state).to_act:
                lines.append(f"<#{row.channel_id}>: {game.spec.name}, your turn")
        return Reply(private="\n".join(lines) or "It is not your turn in any game.")

    async def _set_pings(self, actor: Actor, args: list[str]) -> Reply:
        if not args or args[0].lower() not in ("on", "off"):
            return Reply.refuse(R.BAD_COMMAND, "Use `/game pings on` or `/game pings off`.")
        await self.store.set_user_setting(actor.user_id, "pings", args[0].lower())
        return Reply(private=f"Turn pings are now {args[0].lower()} for you.")

    async def _config(self, guild_id: str, channel_id: str, args: list[str]) -> Reply:
        try:
            text = await apply_config(self.store, guild_id, channel_id, args)
        except IllegalMove as exc:
            return Reply.refuse(R.BAD_COMMAND, exc.message)
        return Reply(private=text)

    # ----- reminders ---------------------------------------------------------------------

    async def _reschedule(self, game: Loaded, status: Status) -> None:
        await self.store.cancel_timers(game.row.id, ["reminder", "deadline"])
        if status.finished or game.row.status != "active" or game.row.paused:
            return
        hours = await self.store.channel_setting(game.row.guild_id, game.row.channel_id, "reminder_hours")
        delay = float(hours) if hours is not None else DEFAULT_REMINDER_HOURS
        if delay > 0:
            await self.store.add_timer("reminder", self.clock() + delay * 3600, game.row.id,
                                       {"version": game.row.version})
        deadline = await self.store.channel_setting(game.row.guild_id, game.row.channel_id, "deadline_hours")
        if deadline is not None and float(deadline) > 0:
            await self.store.add_timer("deadline", self.clock() + float(deadline) * 3600, game.row.id,
                                       {"version": game.row.version})

    async def fire_due_timers(self) -> list[tuple[str, str, Reply]]:
        """Run every due timer once; returns (guild, channel, reply) to post. Survives restarts (DB)."""
        return [(guild, channel, reply) for _, guild, channel, reply in await self.fire_due_timer_events()]

    async def fire_due_timer_events(self) -> list[tuple[str, str, str, Reply]]:
        """Like fire_due_timers, with the timer kind first so a front end can add e.g. moderator
        buttons to a deadline post: (kind, guild, channel, reply)."""
        out = []
        for timer in await self.store.due_timers(self.clock()):
            if not await self.store.delete_timer(timer.id):
                continue  # another dispatcher took it
            row = await self.store.get_game(timer.game_id) if timer.game_id is not None else None
            if row is None:
                continue
            reply = await self._fire(timer.kind, await self._load(row))
            if reply is not None:
                out.append((timer.kind, row.guild_id, row.channel_id, reply))
        return out

    async def replace_with_bot(self, guild_id: str, channel_id: str, actor: Actor, player: str, level: int = 1,
                               names: Mapping[str, str] | None = None) -> Reply:
        """``/game replacebot <player> [level]`` (the deadline buttons call this)."""
        return await self.handle(guild_id, channel_id, actor, f"/game replacebot {player} {level}", names=names)

    async def _fire(self, kind: str, game: Loaded) -> Reply | None:
        if kind == "lobby_expiry" and game.row.status == "lobby":
            version = await self.store.update_game(game.row.id, game.row.version, status="aborted")
            return Reply(public=f"The {game.spec.name} lobby closed: it did not start within "
                                f"{await lobby_days(self.store, game.row.guild_id, game.row.channel_id):g} days.",
                         game_id=game.row.id, version=version, finished=True)
        state = game.row.state
        if game.row.status != "active" or state is None or game.row.paused:
            return None
        status = game.spec.status(state)
        waiting = [game.seats[s] for s in status.to_act if game.seats[s].kind == "human"]
        if not waiting:
            return None
        if kind == "reminder":
            pings = [s.user_id for s in waiting if await self.store.user_setting(s.user_id, "pings") != "off"]
            return Reply(public=f"Reminder: {status.summary}.", pings=pings, game_id=game.row.id,
                         version=game.row.version)
        if kind == "deadline":
            names = ", ".join(s.display_name for s in waiting)
            return Reply(public=f"Deadline passed: still waiting for {names}. Moderators can `/game skip`, "
                                "`/game substitute` or `/game kick`.", game_id=game.row.id,
                         version=game.row.version)
        return None

    async def _draw(self, function: Callable[..., bytes], *args: Any) -> bytes:
        return await asyncio.get_running_loop().run_in_executor(self.render_executor, function, *args)

    # ----- small helpers -----------------------------------------------------------------

    def _active_state(self, game: Loaded) -> State | None:
        return game.row.state if game.row.status in ("active", "finished") else None

    def _refuse(self, game: Loaded, kind: str, message: str) -> Reply:
        return Reply.refuse(kind, message, game.row.id, game.row.version)

    def _find_seat(self, game: Loaded, word: str, names: Mapping[str, str]) -> int | None:
        wanted = _mention_id(word)
        for seat in game.seats:
            if wanted in (seat.user_id,) or word.lstrip("@").lower() == seat.display_name.lower():
                return seat.seat
        return None


def _mention_id(word: str) -> str:
    """``<@123>`` / ``<@!123>`` → ``123``; anything else unchanged."""
    if word.startswith("<@") and word.endswith(">"):
        return word[2:-1].lstrip("!")
    return word


def _newly(before: Status, after: Status) -> set[int]:
    return {seat for seat in after.to_act if seat not in before.to_act}


def _irreversible(events: list[Event]) -> bool:
    return any(event.get("irreversible") for event in events)


def _player_range(spec: GameSpec) -> str:
    if spec.min_players == spec.max_players:
        return f"{spec.min_players} players"
    return f"{spec.min_players}–{spec.max_players} players"


def _standings_line(standings: list[dict[str, Any]]) -> str:
    return ", ".join(f"{s['rank']}. {s['player']} {s['score']}" for s in standings)


def _render(view: dict[str, Any], focus: int | None) -> bytes:
    import rendering

    return rendering.render(view, focus)


def _render_standings(view: dict[str, Any], standings: list[dict[str, Any]]) -> bytes:
    import rendering

    return rendering.render_standings(view, standings)


__all__ = ["Actor", "Conductor", "Reply", "apply_text"]
