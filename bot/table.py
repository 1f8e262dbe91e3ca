"""Table commands: what players look at and take back during a game."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import games
from bot import replies as R
from bot.host import (
    HostBase,
    Loaded,
    newly_to_act,
    player_range,
    render_board,
)
from bot.replay import RESIGN, rebuild
from bot.replies import Actor, ImageOut, Reply
from games.base import GameSpec, IllegalMove
from games.notation import suggest
from storage import MoveRecord, MoveRow


class TableCommands(HostBase):
    """/game status, board, hand, history, rules, export, resign, undo and rollback."""

    async def _cmd_status(self, game: Loaded, actor: Actor, args: list[str], names: Mapping[str, str]) -> Reply:
        players = ", ".join(f"{s.display_name}{' (bot)' if s.kind == 'bot' else ''}" for s in game.seats)
        if game.row.status == "lobby":
            text = (f"{game.spec.name} lobby, players: {players} ({player_range(game.spec)}). "
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
            data = await self._draw(render_board, game.spec.view(state, None), focus)
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
            data = await self._draw(render_board, game.spec.view(state, seat), seat)
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
        await self._continue(await self._load(await self._reload(game.row.id)), newly_to_act(before, after), reply,
                             post_board)
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
        await self._continue(await self._load(await self._reload(game.row.id)), newly_to_act(before, after), reply,
                             post_board=True)
        return reply
