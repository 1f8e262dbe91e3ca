"""The Discord-free host core.

For one (guild, channel, actor, command text) it finds the channel's game, checks the
actor may act, parses, applies, persists, renders and returns a Reply. The Discord
adapter, the local console, transcripts and tests all drive ``Conductor``; its commands
live in the parts listed in ``bot/host.py``.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Mapping
from typing import Any

import games
from bot import replies as R
from bot.host import (
    Loaded,
    irreversible,
    newly_to_act,
    render_board,
    render_standings_image,
    standings_line,
)
from bot.lobby import LobbyCommands
from bot.moderation import ModerationCommands
from bot.reminders import Reminders
from bot.replay import apply_text
from bot.replies import Actor, ImageOut, Reply
from bot.table import TableCommands
from games.base import Event, GameSpec, IllegalMove, Status
from games.notation import suggest
from storage import MoveRecord, StaleVersion
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
MAX_BOT_STEPS = 2000  # a bot-only table would otherwise loop for a whole game in one command
RETRIES_ON_STALE = 10


class Conductor(LobbyCommands, TableCommands, ModerationCommands, Reminders):
    """The host service: one entry point, ``handle``, for every command of every front end."""

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
        found = await self._legal_moves(guild_id, channel_id, user_id)
        if found is None:
            return []
        game, seat, moves = found
        return [game.spec.format(move) for move in moves]

    async def labelled_commands(self, guild_id: str, channel_id: str, user_id: str) -> list[tuple[str, str]]:
        """(canonical text, short label) for every legal move of ``user_id`` now; the label may be empty."""
        found = await self._legal_moves(guild_id, channel_id, user_id)
        if found is None:
            return []
        game, seat, moves = found
        state, spec, label = game.row.state, game.spec, game.spec.move_label
        return [(spec.format(move), label(state, seat, move) if label and state else "") for move in moves]

    async def _legal_moves(self, guild_id: str, channel_id: str,
                           user_id: str) -> tuple[Loaded, int, list[dict[str, Any]]] | None:
        game = await self._channel_game(guild_id, channel_id)
        if game is None or game.row.status != "active" or game.row.state is None:
            return None
        seat = game.seat_of(user_id)
        if seat is None:
            return None
        return game, seat, game.spec.legal_moves(game.row.state, seat)

    async def channel_game(self, guild_id: str, channel_id: str) -> Loaded | None:
        """The channel's open game (read-only use by front ends)."""
        return await self._channel_game(guild_id, channel_id)

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
        record = MoveRecord(seat, actor.user_id, text, irreversible(events))
        after = spec.status(new_state)
        version = await self.store.update_game(
            game.row.id, game.row.version, state=new_state,
            status="finished" if after.finished else None, move=record,
        )
        reply = Reply(game_id=game.row.id, version=version,
                      hide_command=bool(spec.hidden_move and spec.hidden_move(move)))
        post_board = self._describe(reply, seat, [(seat, events)])
        game = await self._load(await self._reload(game.row.id))
        await self._continue(game, newly_to_act(before, after), reply, post_board)
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
                move=MoveRecord(seat, bots[seat].user_id, game.spec.format(move), irreversible(events)),
            )
            collected.append((seat, events))
            newly |= newly_to_act(status, after)
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
                           await self._draw(render_board, view, None),
                           f"{game.spec.name} board. {status.summary}. Scores: {scores}.")]
        if finished:
            images.append(ImageOut(f"{game.spec.slug}-{game.row.id}-standings.png",
                                   await self._draw(render_standings_image, view, standings),
                                   f"Final standings: {standings_line(standings)}."))
        return images

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

    async def replace_with_bot(self, guild_id: str, channel_id: str, actor: Actor, player: str, level: int = 1,
                               names: Mapping[str, str] | None = None) -> Reply:
        """``/game replacebot <player> [level]`` (the deadline buttons call this)."""
        return await self.handle(guild_id, channel_id, actor, f"/game replacebot {player} {level}", names=names)


__all__ = ["Actor", "Conductor", "Loaded", "Reply", "apply_text"]
