"""Lobby commands: opening, joining and starting games, and cross-channel lists."""

from __future__ import annotations

from collections.abc import Mapping

import games
from bot import replies as R
from bot.config_commands import apply_config, lobby_days
from bot.host import (
    HostBase,
    Loaded,
    player_range,
)
from bot.replies import Actor, Reply
from games.base import IllegalMove
from games.options import format_options, parse_options
from storage import ChannelBusy, SeatRow


class LobbyCommands(HostBase):
    """/game new, join, leave, addbot, start, list, mygames, pings, config."""

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
                            f"({player_range(spec)}).", game_id=row.id, version=row.version)

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
            return self._refuse(game, R.BAD_COMMAND, f"{game.spec.name} needs {player_range(game.spec)}; "
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
