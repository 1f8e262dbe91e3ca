"""Moderator commands: keeping a game moving or ending it."""

from __future__ import annotations

from collections.abc import Mapping

from bot import replies as R
from bot.host import (
    HostBase,
    Loaded,
    mention_id,
)
from bot.replies import Actor, Reply
from storage import SeatRow


class ModerationCommands(HostBase):
    """/game abort, kick, substitute, skip, replacebot and pause."""

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
        new_id = mention_id(args[1])
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
