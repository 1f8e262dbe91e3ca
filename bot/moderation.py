"""Moderator commands: keeping a game moving or ending it."""

from __future__ import annotations

from bot import replies as R
from bot.host import Change, Ctx, mention_id
from bot.lobby import remove_from_lobby
from bot.moves import play_move
from bot.names import clean_display_name
from bot.replies import Reply
from bot.table import is_secret, resign_seat, secret_stub
from games.base import MOVE_KEY
from storage import SeatRow


async def abort(ctx: Ctx) -> Reply | Change:
    game, actor = ctx.game, ctx.actor
    is_host = actor.user_id == game.row.host_id
    if not actor.is_moderator and not (is_host and game.row.status == "lobby"):
        why = (
            "Only moderators can abort a game in progress."
            if is_host
            else "Only the host (before the start) or a moderator can abort."
        )
        return game.refuse(R.FORBIDDEN, why)
    return Change(
        public=f"{actor.name} aborted the {game.spec.name} game.", status="aborted", cancel_timers="all", ends_game=True
    )


async def kick(ctx: Ctx) -> Reply | Change:
    game, seat = ctx.game, ctx.args
    text = f"{ctx.actor.name} removed {game.names[seat]} from the game."
    if game.row.status == "lobby":
        return remove_from_lobby(game, seat, text)
    return resign_seat(game, seat, ctx.actor.user_id, text)


async def substitute(ctx: Ctx) -> Reply | Change:
    game = ctx.game
    seat, new_word = ctx.args
    new_id = mention_id(new_word)
    new_name = clean_display_name(ctx.names.get(new_id, new_word.lstrip("@")))
    if game.seat_of(new_id) is not None:
        return game.refuse(R.BAD_COMMAND, f"{new_name} is already playing in this game.")
    old = game.seats[seat]
    change = Change(
        public=f"{new_name} takes over {old.display_name}'s seat.",
        seats=[SeatRow(s.seat, new_id, new_name, "human", s.bot_level) if s.seat == seat else s for s in game.seats],
    )
    if old.user_id == game.row.host_id:
        change.host_id = new_id
    state = game.row.state
    if state is not None and game.row.status == "active" and seat in game.spec.status(state).to_act:
        change.pings = [new_id]
    return change


async def skip(ctx: Ctx) -> Reply | Change:
    """A moderator unsticks a game: the stuck seat's next action is played for them."""
    game, named = ctx.game, ctx.args
    state = game.started_state
    if state is None:
        return game.refuse(R.NOT_STARTED, "The game has not started.")
    if game.row.paused:
        return game.refuse(R.PAUSED, "The game is paused; resume it with `/game pause off` first.")
    status = game.spec.status(state)
    if named is not None:
        seat = game.find_seat(named)  # the argument parser has refused unknown and ambiguous names
        if seat is None or seat not in status.to_act:
            return game.refuse(R.BAD_COMMAND, f"{named} has nothing to do right now; {status.summary}.")
    elif status.to_act:
        seat = status.to_act[0]
    else:
        return game.refuse(R.BAD_COMMAND, "Nobody has to act right now.")
    move = skip_move(ctx, seat)
    result = play_move(game, seat, ctx.actor.user_id, move)
    if isinstance(result, Change):
        text = game.spec.format(move)
        shown = secret_stub(text)[2:] if is_secret(game, text) else text
        result.public = f"{ctx.actor.name} skipped {game.names[seat]}: played {shown}."
        result.batches = [(None, events) for _, events in result.batches]  # the seat's secrets stay theirs
    return result


def skip_move(ctx: Ctx, seat: int) -> dict[str, object]:
    """The game's declared skip: its ``skip_move``, else its legal move of the verb declared ``skip``,
    else the level-1 bot's move."""
    spec, state = ctx.game.spec, ctx.game.row.state
    assert state is not None
    if spec.skip_move is not None:
        return spec.skip_move(state, seat)
    skips = {verb.name for verb in spec.verbs if verb.skip}
    declared = next((m for m in spec.legal_moves(state, seat) if m.get(MOVE_KEY) in skips), None)
    return declared if declared is not None else spec.bot_move(state, seat, 1)


async def replacebot(ctx: Ctx) -> Reply | Change:
    """A moderator hands a player's seat to the AI (seat kind human -> bot); it moves at once if due."""
    game = ctx.game
    seat, level = ctx.args
    old = game.seats[seat]
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
    """``/game pause`` / ``/game pause off``: moves, bots and reminders wait while a game is paused."""
    game, wanted = ctx.game, ctx.args
    if game.row.status != "active":
        return game.refuse(R.NOT_STARTED, "Only a game in progress can be paused.")
    if wanted == game.row.paused:
        return game.refuse(R.BAD_COMMAND, f"The game is already {'paused' if wanted else 'running'}.")
    if wanted:
        return Change(
            public=f"{ctx.actor.name} paused the game. Moves wait until a moderator resumes it with `/game pause off`.",
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
