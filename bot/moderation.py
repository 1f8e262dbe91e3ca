"""Moderator commands (``/mod ...``): keeping a game moving or ending it; and ``/game abort``,
which the host may use on their own game and every player may agree to."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot import replies as R
from bot.host import Change, Ctx, Table, mention_id
from bot.lobby import remove_from_lobby
from bot.moves import play_move
from bot.names import clean_display_name
from bot.replay import KICK
from bot.replies import Reply
from bot.table import is_secret, secret_stub
from games.base import MOVE_KEY, IllegalMove, Move
from storage import MoveRecord, SeatRow

MAX_SKIP_STEPS = 50  # a declared skip ends a turn in a few moves; more means a game that never lets go
ABORT_VOTES = "abort_votes"  # game note: user ids of the humans who agreed to abort, comma separated
ABORTED_BY = "aborted_by"  # game note: who aborted (shown by status, board and list)
FORMER = "former:"  # game note per replaced user id: the seat they held before a substitute


def aborted(game: Table, by: str, text: str) -> Change:
    return Change(
        public=text,
        status="aborted",
        cancel_timers="all",
        ends_game=True,
        notes={ABORTED_BY: by, ABORT_VOTES: None},
    )


async def mod_abort(ctx: Ctx) -> Reply | Change:
    """``/mod abort``: a moderator ends the channel's game at once."""
    game = ctx.game
    return aborted(game, ctx.actor.name, f"{ctx.actor.name} aborted the {game.spec.name} game (moderator).")


async def abort(ctx: Ctx) -> Reply | Change:
    """``/game abort``: a moderator ends the game at once (as ``/mod abort``); the host ends a lobby,
    or a started game nobody else has moved in yet; otherwise the host asks and every human player
    agrees (``/game abort`` or the button; ``/game abort no`` keeps the game going)."""
    game, actor, agree = ctx.game, ctx.actor, ctx.args
    name = game.spec.name
    if actor.is_moderator and agree:
        return aborted(game, actor.name, f"{actor.name} aborted the {name} game (moderator).")
    is_host = actor.user_id == game.row.host_id
    seat = game.seat_of(actor.user_id)
    votes = [v for v in game.notes.get(ABORT_VOTES, "").split(",") if v]
    if not agree:
        if not votes:
            return game.refuse(R.BAD_COMMAND, "Nobody has asked to abort this game.")
        if seat is None:
            return game.refuse(R.NOT_PLAYER, "Only the players decide whether to abort.")
        return Change(public=f"{actor.name} wants to keep playing: the game goes on.", notes={ABORT_VOTES: None})
    if game.row.status == "lobby":
        if not is_host:
            return game.refuse(R.FORBIDDEN, "Only the host or a moderator can close the lobby.")
        return aborted(game, actor.name, f"{actor.name} closed the {name} lobby.")
    if seat is None:
        return game.refuse(R.FORBIDDEN, "Only the players (all of them agreeing) or a moderator can abort a game.")
    humans = [s for s in game.seats if s.kind == "human"]
    moves = await ctx.store.moves(game.row.id)
    others_moved = any(m.user_id != game.row.host_id and not m.user_id.startswith("bot:") for m in moves)
    if is_host and not votes and not others_moved:
        return aborted(game, actor.name, f"{actor.name} aborted the {name} game before anyone else had moved.")
    if not votes and not is_host:
        return game.refuse(
            R.FORBIDDEN, "Only the host can ask to abort a game in progress (or ask a moderator for `/mod abort`)."
        )
    if actor.user_id in votes:
        return game.refuse(R.BAD_COMMAND, "You have already agreed; waiting for the others.")
    votes.append(actor.user_id)
    missing = [s.display_name for s in humans if s.user_id not in votes]
    if not missing:
        return aborted(game, actor.name, f"Every player agreed: the {name} game is aborted.")
    asked = "asks to abort" if len(votes) == 1 else "agrees to abort"
    return Change(
        public=f"{actor.name} {asked} the {name} game. Waiting for: {', '.join(missing)} "
        "(`/game abort` to agree, `/game abort no` to keep playing).",
        notes={ABORT_VOTES: ",".join(votes)},
        buttons=[("Agree to abort", "/game abort"), ("Keep playing", "/game abort no")],
    )


async def kick(ctx: Ctx) -> Reply | Change:
    """Remove a seat. In a started game the game's ``kick`` decides what the seat's pieces do (its
    rules decisions say so); the log records ``/game kick`` so replays do the same."""
    game, seat = ctx.game, ctx.args
    text = f"{ctx.actor.name} kicked {game.names[seat]} from the game (kicked by a moderator)."
    if game.row.status == "lobby":
        return remove_from_lobby(game, seat, text)
    state = game.row.state
    assert state is not None
    spec = game.spec
    try:
        new_state, events = spec.kick(state, seat) if spec.kick is not None else spec.resign(state, seat)
    except IllegalMove as exc:
        return game.refuse(R.ILLEGAL, exc.message)
    if spec.kick is None:  # the game has no words for it: its own "resigned" line would say the wrong thing
        events = [{k: v for k, v in e.items() if k != "text"} for e in events]  # type: ignore[misc]
    return Change(
        public=text,
        state=new_state,
        moves=[MoveRecord(seat, ctx.actor.user_id, KICK, True)],
        batches=[(None, events)],
        continues=True,
    )


async def substitute(ctx: Ctx) -> Reply | Change:
    """Give a seat to someone else. From now on every text, banner, ping, status, image, standing
    and export shows the new holder's name (``bot.host.shown_names``); the state keeps its setup names."""
    game = ctx.game
    seat, new_word = ctx.args
    new_id = mention_id(new_word)
    new_name = clean_display_name(ctx.names.get(new_id, new_word.lstrip("@")))
    if game.seat_of(new_id) is not None:
        return game.refuse(R.BAD_COMMAND, f"{new_name} is already playing in this game.")
    old = game.seat_holder(seat)
    change = Change(
        public=f"{new_name} takes over {old.display_name}'s seat.",
        seats=[SeatRow(s.seat, new_id, new_name, "human", s.bot_level) if s.seat == seat else s for s in game.seats],
        notes={FORMER + old.user_id: str(seat), FORMER + new_id: None},
    )
    if old.user_id == game.row.host_id:
        change.host_id = new_id
    state = game.row.state
    if state is not None and game.row.status == "active" and seat in game.spec.status(state).to_act:
        change.pings = [new_id]
    return change


async def skip(ctx: Ctx) -> Reply | Change:
    """A moderator unsticks a game: the game's declared skip move ends the seat's turn or phase."""
    game, named = ctx.game, ctx.args
    state = game.started_state
    if state is None:
        return game.refuse(R.NOT_STARTED, "The game has not started.")
    if game.row.paused:
        return game.refuse(R.PAUSED, "The game is paused; resume it with `/mod pause off` first.")
    status = game.spec.status(state)
    if named is not None:
        seat = game.find_seat(named)  # the argument parser has refused unknown and ambiguous names
        if seat is None or seat not in status.to_act:
            return game.refuse(R.BAD_COMMAND, f"{named} has nothing to do right now; {status.summary}.")
    elif status.to_act:
        seat = status.to_act[0]
    else:
        return game.refuse(R.BAD_COMMAND, "Nobody has to act right now.")
    return skip_turn(game, seat, ctx.actor.user_id, ctx.actor.name)


def skip_turn(game: Table, seat: int, user_id: str, by: str) -> Reply | Change:
    """Play the declared skip move for ``seat`` until its turn or phase is over (it no longer has to
    act, an event posts a fresh board, or the game's undo scope moves on), in one change."""
    spec = game.spec
    state = game.row.state
    assert state is not None
    scope = spec.undo_scope(state) if spec.undo_scope is not None else None
    moves: list[MoveRecord] = []
    batches: list[tuple[int | None, list[Any]]] = []
    played: list[str] = []
    for _ in range(MAX_SKIP_STEPS):
        move = skip_move(game, state, seat)
        if move is None:
            if moves:
                break
            return game.refuse(R.ILLEGAL, f"{game.names[seat]} has no move to skip right now.")
        result = play_move(replace_state(game, state), seat, user_id, move)
        if isinstance(result, Reply):
            if moves:
                break
            return result
        assert result.state is not None
        state = result.state
        moves += result.moves
        # The seat's secrets stay theirs: nothing private reaches the moderator.
        batches += [(None, events) for _, events in result.batches]
        text = spec.format(move)
        played.append(secret_stub(text)[2:] if is_secret(game, text) else text)
        events = [e for _, batch in result.batches for e in batch]
        after = spec.status(state)
        if (
            after.finished
            or seat not in after.to_act
            or any(e.get("post_board") for e in events)
            or (spec.undo_scope is not None and spec.undo_scope(state) != scope)
        ):
            break
    return Change(
        public=f"{by} skipped {game.names[seat]}'s turn: played {', '.join(f'`{t}`' for t in played)}.",
        state=state,
        moves=moves,
        batches=batches,
        continues=True,
    )


def replace_state(game: Table, state: dict[str, Any]) -> Table:
    return replace(game, row=replace(game.row, state=state))


def skip_move(game: Table, state: dict[str, Any], seat: int) -> Move | None:
    """The game's declared skip: its ``skip_move``, else its legal move of the verb declared ``skip``,
    else of a verb declared ``ends_turn``, else (a game that declares nothing) its first legal move in
    the game's own order. Never the bot's strategy. None when the seat has no legal move."""
    spec = game.spec
    if spec.skip_move is not None:
        return spec.skip_move(state, seat)
    legal = spec.legal_moves(state, seat)
    for wanted in ({v.name for v in spec.verbs if v.skip}, set(spec.turn_enders)):
        found = next((m for m in legal if m.get(MOVE_KEY) in wanted), None)
        if found is not None:
            return found
    return legal[0] if legal else None


async def replacebot(ctx: Ctx) -> Reply | Change:
    """A moderator hands a player's seat to the AI (seat kind human -> bot); it moves at once if due."""
    game = ctx.game
    seat, level = ctx.args
    old = game.seat_holder(seat)
    if old.kind == "bot":
        return game.refuse(R.BAD_COMMAND, f"{old.display_name} is already a bot.")
    # The display name stays: it is the player's name inside the game state and the log.
    seats = [
        SeatRow(s.seat, f"bot:{game.row.id}:seat{s.seat}", s.display_name, "bot", level) if s.seat == seat else s
        for s in game.seats
    ]
    return Change(
        public=f"{ctx.actor.name} handed {old.display_name}'s seat to a bot (level {level}).",
        seats=seats,
        continues=True,
        newly=set(),
    )


async def pause(ctx: Ctx) -> Reply | Change:
    """``/mod pause`` / ``/mod pause off``: moves, bots and reminders wait while a game is paused."""
    game, wanted = ctx.game, ctx.args
    if game.row.status != "active":
        return game.refuse(R.NOT_STARTED, "Only a game in progress can be paused.")
    if wanted == game.row.paused:
        return game.refuse(R.BAD_COMMAND, f"The game is already {'paused' if wanted else 'running'}.")
    if wanted:
        return Change(
            public=f"{ctx.actor.name} paused the game. Moves wait until a moderator resumes it with `/mod pause off`.",
            paused=True,
            cancel_timers=("reminder", "deadline"),
        )
    assert game.row.state is not None
    return Change(
        public=f"{ctx.actor.name} resumed the game.",
        paused=False,
        continues=True,
        newly=set(game.spec.status(game.row.state).to_act),
    )
