"""Lobby commands: opening, joining and starting games, and cross-channel lists."""

from __future__ import annotations

import games
from bot import replies as R
from bot.config_commands import DEFAULT_LOBBY_DAYS, apply_config
from bot.fairness import commitment, new_salt
from bot.host import Change, Ctx, Table, player_range, spec_for_seats
from bot.reminders import lobby_expiry
from bot.replies import Reply
from games.base import IllegalMove
from games.options import format_options, parse_options
from storage import ChannelBusy, GameRow, ListedGame, SeatRow


async def new(ctx: Ctx) -> Reply:
    args: list[str] = ctx.args
    if not args:
        return Reply.refuse(R.BAD_COMMAND, f"Which game? `/game new <game>`: {', '.join(games.available_slugs())}.")
    try:
        spec = games.get_game(args[0])
        options = parse_options(" ".join(args[1:]), spec.options)
        # A dry-run setup catches option errors now instead of at /game start.
        spec.setup([f"p{i}" for i in range(spec.min_players)], options, 0)
    except IllegalMove as exc:
        return Reply.refuse(R.BAD_COMMAND, exc.message)
    lobby = await ctx.store.channel_setting(ctx.guild_id, ctx.channel_id, "lobby_days")
    days = float(lobby) if lobby is not None else DEFAULT_LOBBY_DAYS
    try:
        row = await ctx.store.create_game(
            ctx.guild_id,
            ctx.channel_id,
            spec.slug,
            ctx.actor.user_id,
            ctx.actor.name,
            options,
            spec.rules_version,
            [lobby_expiry(days, ctx.clock())],
        )
    except ChannelBusy:
        existing = await ctx.store.open_game(ctx.guild_id, ctx.channel_id)
        what = f"a {game_name(existing.game)} {existing.status}" if existing else "a game"
        return Reply.refuse(
            R.BAD_COMMAND,
            f"This channel already has {what}. Finish it or abort it first (`/game abort`), "
            "or open a thread for a new game.",
        )
    shown = format_options(options, spec.options)
    return Reply(
        public=f"{ctx.actor.name} opened a {spec.name} lobby{f' ({shown})' if shown else ''}. "
        f"Join with `/game join`; the host starts with `/game start` ({player_range(spec)}).",
        game_id=row.id,
        version=row.version,
        status="lobby",
        group=spec.command_group,
    )


async def join(ctx: Ctx) -> Reply | Change:
    game, actor = ctx.game, ctx.actor
    if game.row.status != "lobby":
        return game.refuse(
            R.BAD_COMMAND,
            "This game has already started; you can watch it or ask a moderator to `/mod substitute` you in.",
        )
    if game.seat_of(actor.user_id) is not None:
        return game.refuse(R.BAD_COMMAND, "You have already joined this game.")
    if len(game.seats) >= game.spec.max_players:
        return game.refuse(R.BAD_COMMAND, f"The table is full ({game.spec.max_players} players).")
    seats = [*game.seats, SeatRow(len(game.seats), actor.user_id, actor.name, "human", 1)]
    return Change(public=f"{actor.name} joined. Players: {', '.join(s.display_name for s in seats)}.", seats=seats)


async def addbot(ctx: Ctx) -> Reply | Change:
    game, level = ctx.game, ctx.args
    if game.row.status != "lobby":
        return game.refuse(R.BAD_COMMAND, "Bots can only be added in the lobby.")
    if len(game.seats) >= game.spec.max_players:
        return game.refuse(R.BAD_COMMAND, f"The table is full ({game.spec.max_players} players).")
    number = 1 + sum(1 for s in game.seats if s.kind == "bot")
    bot = SeatRow(len(game.seats), f"bot:{game.row.id}:{number}", f"Bot {number}", "bot", level)
    return Change(public=f"{bot.display_name} (level {level}) joined.", seats=[*game.seats, bot])


async def leave(ctx: Ctx) -> Reply | Change:
    game = ctx.game
    seat = game.seat_of(ctx.actor.user_id)
    if seat is None:
        return game.refuse(R.NOT_PLAYER, "You are not in this game.")
    if game.row.status != "lobby":
        return game.refuse(R.BAD_COMMAND, "The game has started; use `/game resign` to leave it.")
    return remove_from_lobby(game, seat, f"{ctx.actor.name} left.")


def remove_from_lobby(game: Table, seat: int, text: str) -> Change:
    remaining = [s for s in game.seats if s.seat != seat]
    humans = [s for s in remaining if s.kind == "human"]
    if not humans:
        return Change(public=f"{text} The lobby is empty and was closed.", status="aborted", cancel_timers="all")
    change = Change(
        public=text, seats=[SeatRow(i, s.user_id, s.display_name, s.kind, s.bot_level) for i, s in enumerate(remaining)]
    )
    if game.seats[seat].user_id == game.row.host_id:
        change.host_id = humans[0].user_id
        change.public += f" {humans[0].display_name} is the new host."
    return change


async def start(ctx: Ctx) -> Reply | Change:
    """The server draws the seed (never a player) and posts a commitment to it; the seed and its
    salt are revealed when the game ends."""
    game = ctx.game
    if game.row.status != "lobby":
        return game.refuse(R.BAD_COMMAND, "This game has already started.")
    count = len(game.seats)
    if not game.spec.min_players <= count <= game.spec.max_players:
        return game.refuse(R.BAD_COMMAND, f"{game.spec.name} needs {player_range(game.spec)}; {count} joined.")
    if count == 1 and not ctx.args:
        # One seat is a solo game: easy to start by mistake before the others have joined.
        return Reply(
            private=f"Start solo {game.spec.name}? Nobody else has joined yet "
            f"({game.spec.name} is {player_range(game.spec)}). `/game start solo` starts it alone.",
            buttons=[("Start solo", "/game start solo"), ("Wait for players", "/game status")],
            game_id=game.row.id,
            version=game.row.version,
        )
    seed, salt = ctx.seed_source(), new_salt()
    try:
        state = game.spec.setup(game.names, game.row.options, seed)
    except IllegalMove as exc:
        return game.refuse(R.BAD_COMMAND, exc.message)
    posted = commitment(seed, salt)
    return Change(
        public=f"{game.spec.name} started with {', '.join(game.names)}.\nFair shuffle: the seed is fixed; its "
        f"SHA-256 commitment is `{posted}` (seed and salt are revealed at the end).",
        state=state,
        status="active",
        seed=seed,
        salt=salt,
        commitment=posted,
        cancel_timers=("lobby_expiry",),
        continues=True,
        post_board=True,
    )


def game_name(slug: str) -> str:
    try:
        return games.get_game(slug).name
    except IllegalMove:
        return slug  # a game whose engine no longer loads still has a name to show


def summary(row: GameRow, seats: list[SeatRow]) -> str | None:
    """One line on an active game (with the seat holders' names), or None when it is damaged
    (undecodable, or its engine is gone)."""
    if row.damaged is not None or row.state is None:
        return None
    try:
        return spec_for_seats(games.get_game(row.game), row.state, seats).status(row.state).summary
    except Exception:  # one broken game must not break the list for the whole server
        return None


RECENTLY_ABORTED = 24 * 3600.0  # /game list still shows a channel's game as aborted for a day
PAGE_SIZE = 15  # lines per page of /game list and /game mygames
LINE_LIMIT = 110  # characters per line: a page stays well inside Discord's 2,000 per message


async def list_games(ctx: Ctx) -> Reply:
    """One page of the server's games, each from its stored one-line listing (one query a page)."""
    page: int = ctx.args
    listed, total = await ctx.store.list_page(
        ctx.guild_id, ctx.clock() - RECENTLY_ABORTED, (page - 1) * PAGE_SIZE, PAGE_SIZE
    )
    lines = []
    for entry in listed:
        where = f"<#{entry.channel_id}>: {game_name(entry.game)}"
        if entry.status == "lobby":
            lines.append(f"{where} lobby ({entry.seat_count} joined)")
        elif entry.status == "aborted":
            lines.append(f"{where}: aborted (`/game new <game>` starts another)")
        else:
            line = await _active_line(ctx, entry)
            lines.append(f"{where}: {line}" if line else f"{where}: damaged (a moderator can `/mod abort` it)")
    if not lines:
        return Reply(private=_past_end(page, total, "/game list") or "No games are open in this server.")
    return Reply(private=_paged(lines, page, total, "/game list", "games"))


async def _active_line(ctx: Ctx, entry: ListedGame) -> str | None:
    """An active game's line: its stored listing; computed the old way (its state decoded) only for
    rows written before the listing was stored, or None when the game cannot be shown (damaged)."""
    try:
        games.get_game(entry.game)
    except IllegalMove:
        return None  # its engine no longer loads
    if entry.listing is not None:
        return entry.listing
    found = await ctx.store.table_by_id(entry.id)
    return summary(found.game, found.seats) if found is not None else None


async def mygames(ctx: Ctx) -> Reply:
    """One page of the games waiting for you, from each game's stored waiting seats (one query)."""
    page: int = ctx.args
    listed, total = await ctx.store.waiting_page(ctx.actor.user_id, (page - 1) * PAGE_SIZE, PAGE_SIZE)
    lines = []
    for entry in listed:
        if entry.listing is None and not await _waiting_for(ctx, entry):
            continue  # a row written before the stored listing, and not your turn there
        lines.append(f"<#{entry.channel_id}>: {game_name(entry.game)}, your turn")
    if not lines:
        return Reply(private=_past_end(page, total, "/game mygames") or "It is not your turn in any game.")
    return Reply(private=_paged(lines, page, total, "/game mygames", "games where it is your turn"))


async def _waiting_for(ctx: Ctx, entry: ListedGame) -> bool:
    found = await ctx.store.table_by_id(entry.id)
    if found is None or found.game.damaged is not None or found.game.state is None:
        return False
    try:
        return entry.seat in games.get_game(found.game.game).status(found.game.state).to_act
    except Exception:  # a damaged game is listed by /game list; here it is simply not your turn
        return False


def _paged(lines: list[str], page: int, total: int, command: str, what: str) -> str:
    """A page's lines (each capped), with where the others are when there is more than one page."""
    shown = [line if len(line) <= LINE_LIMIT else line[: LINE_LIMIT - 1] + "…" for line in lines]
    pages = -(-total // PAGE_SIZE)
    if pages > 1:
        around = [f"`{command} {n}`" for n in (page - 1, page + 1) if 1 <= n <= pages]
        shown.append(f"Page {page} of {pages} ({total} {what}); more: {' or '.join(around)}.")
    return "\n".join(shown)


def _past_end(page: int, total: int, command: str) -> str | None:
    """An empty page past the first: past the end (an empty result counts no rows at all)."""
    if page == 1:
        return None
    return f"There is no page {page}. `{command}` shows the first page."


async def pings(ctx: Ctx) -> Reply:
    choice: str = ctx.args
    await ctx.store.set_user_setting(ctx.actor.user_id, "pings", choice)
    return Reply(private=f"Turn pings are now {choice} for you.")


async def config(ctx: Ctx) -> Reply:
    try:
        text = await apply_config(ctx.store, ctx.guild_id, ctx.channel_id, ctx.args, ctx.actor.manages_server)
    except IllegalMove as exc:
        return Reply.refuse(R.BAD_COMMAND, exc.message)
    return Reply(private=text)
