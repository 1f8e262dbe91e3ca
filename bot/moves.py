"""A game move (``/tt place B2``): the checks in a fixed order, then the engine's apply."""

from __future__ import annotations

from typing import Any

from bot import replies as R
from bot.host import Change, Ctx, Table, irreversible
from bot.replies import Reply
from games.base import GameSpec, IllegalMove
from storage import MoveRecord
from storage.db import dumps


def move(ctx: Ctx, spec: GameSpec, text: str) -> Reply | Change:
    """Validation order: a game here, the right game, started, seated, parsed, not over or paused,
    then the rules. Every refusal is private and changes nothing."""
    game = ctx.table
    # A move that arrives just after the end (a late "/tt done") still reaches the game it was meant for.
    if (
        game is not None
        and game.row.status not in ("lobby", "active")
        and not (game.row.status == "finished" and game.spec.slug == spec.slug)
    ):
        game = None
    if game is None:
        return Reply.refuse(R.NO_GAME, f"There is no game in this channel. Start one with `/game new {spec.slug}`.")
    if game.spec.command_group != spec.command_group:
        return game.refuse(
            R.BAD_COMMAND,
            f"This channel is playing {game.spec.name}; its commands start with /{game.spec.command_group}.",
        )
    if game.row.status == "lobby":
        return game.refuse(R.NOT_STARTED, "The game has not started yet. The host starts it with `/game start`.")
    seat = game.seat_of(ctx.actor.user_id)
    if seat is None:
        return game.refuse(R.NOT_PLAYER, not_playing(game, ctx.actor.user_id))
    try:
        parsed = spec.parse(text)
    except IllegalMove as exc:
        return game.refuse(R.BAD_COMMAND, exc.message)
    if game.row.status == "finished":
        return after_the_end(game, seat, parsed)
    if game.row.paused:
        return game.refuse(R.PAUSED, "A moderator paused this game; moves wait until `/mod pause off`.")
    return play_move(game, seat, ctx.actor.user_id, parsed)


def not_playing(game: Table, user_id: str) -> str:
    """The refusal for a move by someone without a seat; a replaced player learns who holds theirs now."""
    former = game.notes.get(f"former:{user_id}")
    if former is not None and former.isdigit() and any(s.seat == int(former) for s in game.seats):
        holder = game.seat_holder(int(former))
        return (
            f"A moderator gave your seat to {holder.display_name}: {holder.display_name} holds it now and "
            "plays its moves. `/game status` shows who is playing."
        )
    return "You are not playing in this game. `/game status` shows who is."


def play_move(game: Table, seat: int, user_id: str, parsed: dict[str, Any]) -> Reply | Change:
    spec, state = game.spec, game.row.state
    assert state is not None
    try:
        new_state, events = spec.apply(state, seat, parsed)
    except IllegalMove as exc:
        before = spec.status(state)
        if seat not in before.to_act:
            # The engine's reason says more than "not your turn" (a wrong pattern, "wait for bob").
            return game.refuse(R.NOT_YOUR_TURN, f"{exc.message} Now: {before.summary}.")
        return game.refuse(R.ILLEGAL, exc.message)
    if dumps(new_state) == dumps(state):
        # Nothing happened (e.g. /tt done when already done): not stored, so nobody's buttons go stale.
        return Reply(private="Noted; that changes nothing.", game_id=game.row.id, version=game.row.version)
    return Change(
        state=new_state,
        moves=[MoveRecord(seat, user_id, spec.format(parsed), irreversible(events))],
        batches=[(seat, events)],
        continues=True,
        hide_command=bool(spec.hidden_move and spec.hidden_move(parsed)),
    )


def after_the_end(game: Table, seat: int, parsed: dict[str, Any]) -> Reply:
    """Once a game is over only a harmless no-op (a late ``/tt done``) is accepted; like every no-op
    it is answered privately and not stored."""
    state = game.row.state
    assert state is not None
    over = game.refuse(R.FINISHED, "This game is over. `/game status` shows the result.")
    try:
        new_state, _ = game.spec.apply(state, seat, parsed)
    except IllegalMove:
        return over
    if dumps(new_state) != dumps(state):
        return over
    return Reply(
        private="The game is already over; nothing more to do.",
        game_id=game.row.id,
        version=game.row.version,
        finished=True,
    )
