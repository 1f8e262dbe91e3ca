"""Table commands: what players look at, and taking moves back."""

from __future__ import annotations

from dataclasses import replace

import games
from bot import replies as R
from bot.host import Change, Ctx, Table, player_range, render_aborted, render_board, scores_line
from bot.names import shown
from bot.replay import HOST_LEVEL, RESIGN, apply_text, rebuild
from bot.replies import ImageOut, Reply
from bot.transcript_format import export
from games.base import GameSpec, IllegalMove, State
from games.notation import suggest
from storage import MoveRecord, MoveRow

ENDED = "ended"  # game note: how a game ended when the game's own summary would say it wrongly


def summary_of(game: Table) -> str:
    """The one-line state of a started game: the game's summary, or the host's note on how it ended."""
    assert game.row.state is not None
    # Summaries are phrases ("Round 2: ann to act"); callers add the full stop.
    return (game.notes.get(ENDED) or game.spec.status(game.row.state).summary).rstrip(".")


def ended_line(game: Table) -> str:
    """How an aborted game ended, for status, board and list ("Aborted by mod.")."""
    by = game.notes.get("aborted_by")
    return f"This {game.spec.name} game was aborted" + (f" by {by}" if by else "") + "."


async def status(ctx: Ctx) -> Reply:
    game = ctx.game
    players = ", ".join(f"{s.display_name}{' (bot)' if s.kind == 'bot' else ''}" for s in game.seats)
    if game.row.status == "lobby":
        text = (
            f"{game.spec.name} lobby, players: {players} ({player_range(game.spec)}). "
            "The host starts with `/game start`."
        )
    elif game.row.status == "aborted":
        text = f"{ended_line(game)} Players: {players}. Start a new one with `/game new <game>`."
        if game.row.state is not None:
            text += "\nScores when it stopped: " + scores_line(game.spec.standings(game.row.state))
    else:
        assert game.row.state is not None
        summary = summary_of(game)
        paused = " Paused by a moderator." if game.row.paused else ""
        text = (
            f"{game.spec.name} (game {game.row.id}, move {len(await ctx.store.moves(game.row.id))})."
            f"{paused} Players: {players}.\n{summary}.\nScores: " + scores_line(game.spec.standings(game.row.state))
        )
    return Reply(private=text, game_id=game.row.id, version=game.row.version)


async def board(ctx: Ctx) -> Reply:
    game, focus = ctx.game, ctx.args
    aborted = game.row.status == "aborted"
    state = game.row.state if aborted else game.started_state
    if state is None:
        if aborted:
            return game.refuse(R.NOT_STARTED, f"{ended_line(game)} It ended before it started: there is no board.")
        return game.refuse(R.NOT_STARTED, "The game has not started yet; there is no board to show.")
    summary = ended_line(game) if aborted else summary_of(game)
    reply = Reply(private=summary, game_id=game.row.id, version=game.row.version)
    if ctx.render_images:
        view = game.spec.view(state, None)
        drawing = render_aborted if aborted else render_board
        data = await ctx.draw(drawing, view, focus, key=(drawing, game.row.id, game.row.version, None, focus))
        who = f"{game.names[focus]}'s" if focus is not None else "the"
        reply.private_images = [
            ImageOut(
                f"{game.spec.slug}-{game.row.id}-board.png", data, f"{game.spec.name}: {who} board. {reply.private}"
            )
        ]
    return reply


async def hand(ctx: Ctx) -> Reply:
    """Your private view, with your legal moves for a menu when it is your turn."""
    game = ctx.game
    state = game.started_state
    if state is None:
        return game.refuse(R.NOT_STARTED, "The game has not started yet.")
    seat = game.seat_of(ctx.actor.user_id)
    if seat is None:
        return game.refuse(R.NOT_PLAYER, "You are not playing in this game, so you have no hand.")
    summary = game.spec.private_summary(state, seat) if game.spec.private_summary else ""
    reply = Reply(private=summary or "Your private view:", game_id=game.row.id, version=game.row.version)
    if game.row.status == "active":
        reply.legal = labelled_moves(game, seat)
    if ctx.render_images:
        data = await ctx.draw(
            render_board,
            game.spec.view(state, seat),
            seat,
            key=(render_board, game.row.id, game.row.version, seat, seat),
        )
        reply.private_images = [
            ImageOut(f"{game.spec.slug}-{game.row.id}-yours.png", data, f"Your private view of {game.spec.name}.")
        ]
    return reply


def labelled_moves(game: Table, seat: int) -> list[tuple[str, str]]:
    """(command text, short label) for every legal move of ``seat`` now; the label may be empty."""
    state, spec, label = game.row.state, game.spec, game.spec.move_label
    if state is None:
        return []
    return [(spec.format(move), label(state, seat, move) if label else "") for move in spec.legal_moves(state, seat)]


async def history(ctx: Ctx) -> Reply:
    game, count = ctx.game, ctx.args
    moves = redacted(game, await ctx.store.moves(game.row.id), ctx.actor.user_id)
    lines = [f"#{i} {game.names[m.seat]}: {m.text}" for i, m in enumerate(moves, 1)][-count:]
    return Reply(private="\n".join(lines) or "No moves yet.", game_id=game.row.id, version=game.row.version)


async def rules(ctx: Ctx) -> Reply:
    """``/game rules [game] [topic]``: a named game's rules work in any channel, whatever it plays;
    without a game name, the channel's game (its overview, or the topic); a topic alone outside that
    game is looked up in every game (so "More: `/game rules kingdom-2`" works anywhere)."""
    args: list[str] = ctx.args
    game = ctx.table
    ids = {"game_id": game.row.id, "version": game.row.version} if game is not None else {}
    if args and args[0].lower() in games.available_slugs():
        reply = rules_help(games.get_game(args[0]), args[1:])
    elif game is not None and (not args or args[0].lower() in game.spec.rules_help):
        reply = rules_help(game.spec, args)
    elif args:
        owners = [m.spec for m in games.manifests() if args[0].lower() in m.spec.rules_help]
        if len(owners) == 1:
            reply = rules_help(owners[0], args)
        elif game is not None:
            reply = rules_help(game.spec, args)  # refused with the channel game's topics
        elif owners:
            reply = Reply.refuse(
                R.BAD_COMMAND,
                f'Several games have a topic "{shown(args[0])}": '
                + ", ".join(f"`/game rules {spec.slug} {args[0].lower()}`" for spec in owners)
                + ".",
            )
        else:
            reply = Reply.refuse(
                R.BAD_COMMAND,
                f'No game or rules topic "{shown(args[0])}"{suggest(args[0], games.available_slugs())}. '
                f"Games: {', '.join(games.available_slugs())} (`/game rules <game> [topic]`).",
            )
    else:
        reply = Reply(private=games_line() + "\nRules of one game: `/game rules <game> [topic]`.")
    if reply.ok and ids:
        reply.game_id, reply.version = ids["game_id"], ids["version"]
    return reply


def rules_help(spec: GameSpec, args: list[str]) -> Reply:
    topics = list(spec.rules_help)
    if not args:
        body = spec.rules_help.get("overview", "")
        text = f"{body}\nTopics: {', '.join(topics)} (`/game rules {spec.slug} <topic>`)."
    elif args[0].lower() in spec.rules_help:
        text = spec.rules_help[args[0].lower()]
    else:
        return Reply.refuse(
            R.BAD_COMMAND,
            f'No {spec.name} rules topic "{shown(args[0])}"{suggest(args[0], topics)}. Topics: {", ".join(topics)}.',
        )
    return Reply(private=text.strip())


def games_line() -> str:
    return "Games: " + "; ".join(
        f"{m.spec.name} (`{m.slug}`, {player_range(m.spec)}, moves with `/{m.spec.command_group}`)"
        for m in games.manifests()
    )


async def help_text(ctx: Ctx) -> Reply:
    """``/game help``: what the bot is and how to begin; with a game in the channel, its quick start."""
    lines = [
        "**Tabletop Conductor** hosts board games in Discord channels: every move is a slash command (or a "
        "button), checked against the real rules, and the bot posts a fresh board after every turn. "
        "One game per channel; open more in threads (`/game new <game> thread:true`).",
        games_line() + ".",
        "Start one: `/game new <game>` (options as name=value; see `/game rules <game>`), then the host presses "
        "Start or types `/game start`.",
        "The three commands a new player needs: `/game join` (take a seat), `/game hand` (your private view, "
        "with your legal moves as a menu), `/game rules <game> [topic]` (rules and every move's syntax).",
        "More: `/game status`, `/game board`, `/game history`, `/game undo`, `/game resign`, `/game list`, "
        "`/game mygames`, `/game pings off`. Moderators: `/mod ...` (kick, skip, substitute, pause, config, ...).",
    ]
    game = ctx.table
    if game is not None and game.row.status in ("lobby", "active"):
        spec = game.spec
        quick = spec.quick_start or spec.rules_help.get("commands") or spec.rules_help.get("overview", "")
        where = "lobby" if game.row.status == "lobby" else summary_of(game)
        lines.append(f"\n**This channel: {spec.name}** ({where}). Quick start:\n{quick.strip()}")
        lines.append(f"Rules: `/game rules {spec.slug}` (topics: {', '.join(spec.rules_help)}).")
    reply = Reply(private="\n".join(lines))
    if game is not None:
        reply.game_id, reply.version = game.row.id, game.row.version
    return reply


async def export_game(ctx: Ctx) -> Reply:
    game = ctx.game
    if game.row.status == "lobby":
        return game.refuse(R.NOT_STARTED, "The game has not started; there is nothing to export yet.")
    moves = await ctx.store.moves(game.row.id)
    shown = redacted(game, moves, ctx.actor.user_id)
    text = export(game.spec, game.row, game.seats, shown)
    if shown != moves:
        text = (
            "# Some moves are secret until the game ends and are shown as comments; this export can be "
            "replayed once the game is over.\n" + text
        )
    return Reply(private=text, game_id=game.row.id, version=game.row.version)


def is_secret(game: Table, text: str) -> bool:
    """A move whose very text the game declares secret (which monument you keep)."""
    hidden = game.spec.hidden_move
    return hidden is not None and text.strip().lower() not in HOST_LEVEL and hidden(game.spec.parse(text))


def secret_stub(text: str) -> str:
    return f"# {' '.join(text.split()[:2])} (secret)"


def redacted(game: Table, moves: list[MoveRow], user_id: str) -> list[MoveRow]:
    """Moves as ``user_id`` may see them: others' secret moves become comments until the game ends."""
    if game.spec.hidden_move is None or game.row.status == "finished":
        return moves
    seat = game.seat_of(user_id)
    return [replace(m, text=secret_stub(m.text)) if m.seat != seat and is_secret(game, m.text) else m for m in moves]


async def resign(ctx: Ctx) -> Reply | Change:
    """``/game resign`` asks first; ``/game resign confirm`` (or the button) resigns."""
    game = ctx.game
    seat = game.seat_of(ctx.actor.user_id)
    if seat is None:
        return game.refuse(R.NOT_PLAYER, "You are not playing in this game.")
    if game.row.status == "lobby":
        return game.refuse(R.BAD_COMMAND, "The game has not started; use `/game leave` instead.")
    if not ctx.args:
        solo = len(game.seats) == 1
        outcome = "This ends your solo game as a loss." if solo else "You leave the game for good; it can't be undone."
        return Reply(
            private=f"Resign from {game.spec.name}? {outcome} `/game resign confirm` resigns.",
            buttons=[("Resign", "/game resign confirm"), ("Keep playing", "/game status")],
            game_id=game.row.id,
            version=game.row.version,
        )
    return resign_seat(game, seat, ctx.actor.user_id, f"{game.names[seat]} resigned.")


def resign_seat(game: Table, seat: int, user_id: str, text: str) -> Reply | Change:
    state = game.row.state
    assert state is not None
    try:
        new_state, events = game.spec.resign(state, seat)
    except IllegalMove as exc:
        return game.refuse(R.ILLEGAL, exc.message)
    change = Change(
        public=text,
        state=new_state,
        moves=[MoveRecord(seat, user_id, RESIGN, True)],
        batches=[(None, events)],
        continues=True,
    )
    if len(game.seats) == 1:
        # A solo game ends with the resignation, as a loss: never "Winner: ann". The game's own
        # end-of-game lines would name a winner, so the host says it instead (and status keeps it).
        ended = f"{game.names[seat]} resigned: the solo game ends as a loss."
        change.public = ended
        change.batches = [(None, [{k: v for k, v in e.items() if k != "text"} for e in events])]  # type: ignore[misc]
        change.notes = {ENDED: ended}
        change.continues, change.cancel_timers, change.ends_game = False, "all", True
    return change


async def undo(ctx: Ctx) -> Reply | Change:
    """Take back your own last move: while it is the last move of the game, or, where the game
    declares an undo scope, while that turn or phase is still open (others may have moved since)."""
    game, actor = ctx.game, ctx.actor
    state = game.started_state
    if state is None:
        return game.refuse(R.NOT_STARTED, "There is nothing to undo.")
    if game.row.paused:
        return game.refuse(R.PAUSED, "A moderator paused this game; undo waits until it resumes.")
    seat = game.seat_of(actor.user_id)
    if seat is None:
        return game.refuse(R.NOT_PLAYER, "You are not playing in this game.")
    moves = await ctx.store.moves(game.row.id)
    mine = next((i for i in range(len(moves) - 1, -1, -1) if moves[i].seat == seat), None)
    scoped = game.spec.undo_scope is not None
    if mine is None or moves[mine].user_id != actor.user_id or (mine != len(moves) - 1 and not scoped):
        return game.refuse(
            R.ILLEGAL,
            "You can only undo your own move, and only while it is the last move of the "
            "game (nobody has acted since)" + (", or while its turn or phase is still open." if scoped else "."),
        )
    taken = moves[mine]
    if taken.text.strip().lower() in HOST_LEVEL:
        return game.refuse(R.ILLEGAL, "A resignation or a kick can't be undone.")
    if taken.irreversible:
        return game.refuse(
            R.ILLEGAL, "That move can't be undone: it revealed hidden information or drew something at random."
        )
    verb = game.spec.verb(taken.text.split()[1].lower()) if len(taken.text.split()) > 1 else None
    if verb is not None and not verb.undoable:
        return game.refuse(R.ILLEGAL, f"`/{game.spec.command_group} {verb.name}` can't be taken back.")
    later = moves[mine + 1 :]
    if any(m.irreversible for m in later):
        return game.refuse(R.ILLEGAL, "Too late to take that back: something random or hidden was revealed since.")
    shown = secret_stub(taken.text)[2:] if is_secret(game, taken.text) else taken.text
    try:
        new_state = _without(game, moves, mine, state)
    except IllegalMove:
        return game.refuse(R.ILLEGAL, "Too late to take that back: the moves made since depend on it.")
    if new_state is None:
        return game.refuse(
            R.ILLEGAL,
            "Too late to take that back: its turn or phase is over. You can undo your own "
            "move while nobody has acted since, or while its turn or phase is still open.",
        )
    return Change(
        public=f"{actor.name} took back `{shown}`.",
        state=new_state,
        status="finished" if game.spec.status(new_state).finished else "active",
        revert_seqs=[taken.seq],
        continues=True,
        post_board=True,
    )


def _without(game: Table, moves: list[MoveRow], index: int, now: State) -> State | None:
    """The state with move ``index`` taken out of the log, or None when its scope has closed.
    Raises IllegalMove when the later moves do not replay without it."""
    assert game.row.seed is not None
    spec, log = game.spec, [(m.seat, m.text) for m in moves]
    before = rebuild(spec, game.setup_names, game.row.options, game.row.seed, log[:index])
    if index == len(moves) - 1:
        return before
    assert spec.undo_scope is not None
    after, _ = apply_text(spec, before, *log[index])
    if spec.undo_scope(after) != spec.undo_scope(now):
        return None
    state = before
    for seat, text in log[index + 1 :]:
        state, _ = apply_text(spec, state, seat, text)
    return state


async def rollback(ctx: Ctx) -> Reply | Change:
    game = ctx.game
    if game.row.status == "aborted":
        return game.refuse(R.NOT_STARTED, "An aborted game can't be rolled back.")
    if game.started_state is None:
        return game.refuse(R.NOT_STARTED, "The game has not started.")
    moves = await ctx.store.moves(game.row.id)
    keep: int | None = ctx.args
    if keep is None or keep > len(moves):
        return game.refuse(
            R.BAD_COMMAND,
            f"Use `/mod rollback <move number>` with 0..{len(moves)} (the game is "
            "re-played up to and including that move).",
        )
    assert game.row.seed is not None
    try:
        state = rebuild(
            game.spec, game.setup_names, game.row.options, game.row.seed, [(m.seat, m.text) for m in moves[:keep]]
        )
    except IllegalMove as exc:  # a log written under older rules may no longer replay
        return game.refuse(R.ILLEGAL, f"The game can't be rolled back: its moves no longer replay ({exc.message}).")
    return Change(
        public=f"{ctx.actor.name} rolled the game back to move {keep}.",
        state=state,
        status="finished" if game.spec.status(state).finished else "active",
        revert_from_seq=moves[keep].seq if keep < len(moves) else None,
        continues=True,
        post_board=True,
    )
