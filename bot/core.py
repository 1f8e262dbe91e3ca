"""The Discord-free host core.

For one (guild, channel, actor, command text) it finds the command, locks the channel, reads
the channel's game once, runs the command's handler and writes its whole change once (with the
bots' moves and the rescheduled reminders), then answers with a Reply that says everything a
front end shows. The Discord adapter, the local console, transcripts and tests all drive
``Conductor``; the parts are listed in ``bot/host.py``.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import secrets
import socket
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import replace
from typing import Any

import games
from bot import replies as R
from bot.command_table import GROUPS, GameCommand, find_command, permission_refusal
from bot.commit import settle
from bot.community import finishing_results, replay_url
from bot.host import Change, Ctx, Refusal, Table, render_board, render_standings_image, scores_line, standings_line
from bot.listing import listing
from bot.moves import move
from bot.names import clean_display_name
from bot.reminders import fire, plan_turn_timers
from bot.replies import Actor, ImageOut, Reply
from bot.table import labelled_moves, summary_of
from games.base import GameSpec, IllegalMove
from games.notation import suggest
from storage import Announcement, AnyStore, GameRow, OutboxRow, Shards, StaleVersion, TableRow
from storage.db import OUTBOX_LEASE_SECONDS

log = logging.getLogger(__name__)
RETRIES_ON_STALE = 10
# Bytes of drawn boards kept by what they show (``Conductor._draw``): the move that ends a round posts
# the board and the players' /game board right after asks for the very same picture. A Tiny Towns
# board is about 40 KB: a burst of 100 games keeps every game's latest boards.
DRAWINGS_KEPT_BYTES = 16 * 2**20
STALE_CLICK = (
    "This board is out of date: the game has moved on since these buttons were posted. Use the latest "
    "message or `/game status`."
)


class DamagedGame(Exception):
    """The channel's open game cannot be loaded (an undecodable row, an engine that no longer imports)."""

    def __init__(self, row: GameRow, reason: str) -> None:
        super().__init__(reason)
        self.row = row
        self.reason = reason


class Conductor:
    """The host service: ``handle`` for typed commands, ``click`` for buttons, and a few queries.

    ``render_images=False`` skips Pillow (tests, transcripts). ``render_executor``: where boards
    are drawn (a process pool keeps CPU-bound drawing off the event loop); None = the loop's
    default executor.
    """

    def __init__(
        self,
        store: AnyStore,
        *,
        render_images: bool = True,
        clock: Callable[[], float] = time.time,
        seed_source: Callable[[], int] | None = None,
        render_executor: Executor | None = None,
        shards: Shards | None = None,
        web_url: str | None = None,
        outbox_lease: float = OUTBOX_LEASE_SECONDS,
    ) -> None:
        self.store = store
        # Pending announcements this process claims are leased to it under this name for
        # ``outbox_lease`` seconds: unique per process, so a restarted process never mistakes the claims
        # of the one before (which may still be posting, in a rolling restart) for its own.
        self.claimer = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self.outbox_lease = outbox_lease
        self.web_url = web_url  # the replay viewer's address; finished games link to it (None: off)
        # The shards this process runs (None: every guild): its timers, start-up repair and pending
        # announcements are only those of its guilds; other processes own the rest.
        self.shards = shards
        self.render_images = render_images
        self.render_executor = render_executor
        self.clock = clock
        self.seed_source = seed_source or (lambda: secrets.randbits(62))
        self._locks: dict[tuple[str, str], asyncio.Lock] = {}
        self._drawings: OrderedDict[Hashable, bytes] = OrderedDict()  # least recently used first
        self._drawings_bytes = 0

    # ----- entry points ------------------------------------------------------------------

    async def handle(
        self, guild_id: str, channel_id: str, actor: Actor, text: str, names: Mapping[str, str] | None = None
    ) -> Reply:
        """Run one typed command. ``names`` maps user ids mentioned in the text to display names."""
        return await self._run(guild_id, channel_id, actor, text, names or {}, None)

    async def click(
        self,
        guild_id: str,
        channel_id: str,
        actor: Actor,
        game_id: int,
        version: int,
        text: str,
        names: Mapping[str, str] | None = None,
    ) -> Reply:
        """Run the command a button or menu stands for, drawn for ``game_id`` at ``version``.

        Refused as stale, with nothing changed, unless that is still the channel's game and
        version; checked under the channel's lock with the same read the command uses. ``text``
        may be a bare verb ("done"): that verb of the game's own command group.
        """
        return await self._run(guild_id, channel_id, actor, text, names or {}, (game_id, version))

    async def _run(
        self,
        guild_id: str,
        channel_id: str,
        actor: Actor,
        text: str,
        names: Mapping[str, str],
        expected: tuple[int, int] | None,
    ) -> Reply:
        # Names arrive from Discord, the console and files: valid, printable and capped before anything uses them.
        actor = replace(actor, name=clean_display_name(actor.name))
        names = {user: clean_display_name(name) for user, name in names.items()}
        words = text.strip().split()
        bare_verb = expected is not None and bool(words) and not words[0].startswith("/")
        if not words or not (words[0].startswith("/") or bare_verb):
            return Reply.refuse(R.BAD_COMMAND, "Commands start with a slash, for example `/game new tiny-towns`.")
        group = "" if bare_verb else words[0][1:].lower()
        command: GameCommand | None = None
        spec: GameSpec | None = None
        ctx = self._ctx(guild_id, channel_id, actor, names)
        if group in GROUPS:
            table = GROUPS[group]
            if len(words) < 2:
                return Reply.refuse(R.BAD_COMMAND, f"Use /{group} followed by one of: {', '.join(table)}.")
            verb = words[1].lower()
            command = find_command(group, verb)
            if command is None:
                return Reply.refuse(
                    R.BAD_COMMAND,
                    f'Unknown command "/{group} {verb}"{suggest(verb, table)}. Commands: {", ".join(table)}.',
                )
            if command.permission == "moderator" and (refused := permission_refusal(command, ctx)) is not None:
                return refused
            if command.needs == "nothing" and expected is None:
                return await self._without_game(command, ctx, words[2:])
        elif group:
            spec = games.game_for_group(group)
            if spec is None:
                groups = [*GROUPS, *(m.spec.command_group for m in games.manifests())]
                return Reply.refuse(
                    R.BAD_COMMAND,
                    f'Unknown command "/{group}"{suggest(group, groups)}. '
                    f"Commands: {', '.join('/' + g for g in groups)}.",
                )
        async with self._lock(guild_id, channel_id):
            game: Table | None = None
            for _ in range(RETRIES_ON_STALE):
                try:
                    game = await self._table(guild_id, channel_id)
                except DamagedGame as damaged:
                    return await self._damaged(damaged, command, actor, expected)
                if expected is not None and (game is None or (game.row.id, game.row.version) != expected):
                    return Reply.refuse(
                        R.STALE, STALE_CLICK, game.row.id if game else None, game.row.version if game else None
                    )
                ctx = self._ctx(guild_id, channel_id, actor, names, game)
                try:
                    if command is not None:
                        result = await self._game_command(command, ctx, words[2:])
                    else:
                        if game is not None and spec is None:  # a bare verb from a button
                            spec = game.spec
                            text = f"/{spec.command_group} {text.strip()}"
                        if spec is None:
                            return Reply.refuse(R.NO_GAME, "There is no game in this channel.")
                        result = move(ctx, spec, text.strip())
                    if isinstance(result, Reply):
                        return self._stamp(result, game)
                    assert game is not None
                    return await self._commit(game, result)
                except StaleVersion:
                    # Another process wrote first: back off a little, then re-read and re-validate.
                    await asyncio.sleep(random.uniform(0.001, 0.02))
            return Reply.refuse(
                R.STALE,
                "The game changed while your command was processed; please try again.",
                game.row.id if game else None,
                game.row.version if game else None,
            )

    async def _damaged(
        self, damaged: DamagedGame, command: GameCommand | None, actor: Actor, expected: tuple[int, int] | None
    ) -> Reply:
        """A game whose row or engine is broken is isolated: everything refuses except a moderator's abort."""
        row = damaged.row
        if expected is not None and (row.id, row.version) != expected:
            return Reply.refuse(R.STALE, STALE_CLICK, row.id, row.version)
        if command is not None and command.name == "abort" and actor.is_moderator:
            aborted, _ = await self.store.commit(row, status="aborted", cancel_timers="all")
            return Reply(
                public=f"{actor.name} aborted the damaged game ({damaged.reason}).",
                game_id=row.id,
                version=aborted.version,
                finished=True,
                status="aborted",
            )
        return Reply.refuse(
            R.DAMAGED,
            f"This channel's game can't be played: {damaged.reason}. A moderator can end it with `/mod abort`.",
            row.id,
            row.version,
        )

    async def _without_game(self, command: GameCommand, ctx: Ctx, words: list[str]) -> Reply:
        try:
            ctx = replace(ctx, args=command.args(words, ctx))
        except Refusal as refusal:
            return Reply.refuse(refusal.kind, refusal.message)
        result = await command.handler(ctx)
        assert isinstance(result, Reply), f"/game {command.name} works without a game and changes none"
        return result

    async def _game_command(self, command: GameCommand, ctx: Ctx, words: list[str]) -> Reply | Change:
        game = ctx.table
        if command.needs == "open" and game is not None and game.row.status not in ("lobby", "active"):
            game = None
        if game is None and command.name not in ("rules", "help"):
            return Reply.refuse(
                R.NO_GAME,
                "There is no game in this channel. Start one with `/game new <game>` "
                f"({', '.join(games.available_slugs())}).",
            )
        ctx = replace(ctx, table=game)
        refused = permission_refusal(command, ctx)
        if refused is not None:
            return refused
        try:
            ctx = replace(ctx, args=command.args(words, ctx))
        except Refusal as refusal:
            return game.refuse(refusal.kind, refusal.message) if game else Reply.refuse(refusal.kind, refusal.message)
        return await command.handler(ctx)

    # ----- the one commit path ------------------------------------------------------------

    async def _commit(self, game: Table, change: Change) -> Reply:
        """Complete ``change`` in memory (bots, status, timers), write it once, then announce it."""
        # Bot decisions (search bots take up to seconds) never run on the event loop: settle is pure, so a
        # table with a bot seat settles in a worker thread; others skip the thread hop.
        if any(seat.kind == "bot" for seat in (change.seats or game.seats)):
            outcome = await asyncio.get_running_loop().run_in_executor(None, settle, game, change, self.clock())
        else:
            outcome = settle(game, change, self.clock())
        board = change.continues and (outcome.post_board or outcome.finished)
        results = None
        if outcome.status == "finished" and game.row.status != "finished":
            final = outcome.state if outcome.state is not None else game.row.state
            assert final is not None
            seats = change.seats if change.seats is not None else game.seats
            results = await finishing_results(self.store, game, final, seats)  # rated in the same write
            if self.web_url:
                outcome.public = f"{outcome.public}\nReplay: {replay_url(self.web_url, results)}".strip()
        announce = Announcement(outcome.public, outcome.pings, board) if outcome.public else None
        seats = change.seats if change.seats is not None else game.seats
        listed = listing(game, outcome.state, outcome.status, seats, outcome.after)
        row, outbox_id = await self.store.commit(
            game.row,
            state=outcome.state,
            status=outcome.status,
            seed=change.seed,
            salt=change.salt,
            commitment=change.commitment,
            announce=announce,
            notes=change.notes,
            host_id=change.host_id,
            paused=change.paused,
            seats=change.seats,
            moves=outcome.moves,
            revert_from_seq=change.revert_from_seq,
            revert_seqs=change.revert_seqs,
            cancel_timers=outcome.cancel_timers,
            add_timers=outcome.add_timers,
            listing=listed.line,
            waiting=listed.waiting,
            results=results,
        )
        notes = {k: v for k, v in {**game.notes, **change.notes}.items() if v is not None}
        after = Table(row, game.engine, seats, game.settings, game.pings_off, notes)
        reply = Reply(
            public=outcome.public,
            private=outcome.private,
            game_id=row.id,
            version=row.version,
            hide_command=change.hide_command,
            pings=outcome.pings,
            finished=outcome.finished,
            outbox_id=outbox_id,
            buttons=list(change.buttons),
            banner=outcome.banner,
        )
        if board and row.state is not None:
            reply.images = await self._board_images(after, outcome.finished)
        return self._stamp(reply, after, listed.waiting)

    def _stamp(self, reply: Reply, game: Table | None, to_act: Sequence[int] | None = None) -> Reply:
        """Add what a front end shows next: status, the game's group and turn-ending verbs, who must act."""
        if game is None or (reply.game_id is not None and reply.game_id != game.row.id):
            return reply
        row = game.row
        reply.status = row.status
        reply.group = game.spec.command_group
        reply.turn_enders = game.spec.turn_enders
        reply.quick_moves = game.spec.quick_moves
        if row.status == "active" and row.state is not None and not row.paused:
            if to_act is None:  # the commit path knows it already: the game's status is computed once
                to_act = game.spec.status(row.state).to_act
            reply.waiting = [(s.user_id, s.display_name) for s in game.seats if s.seat in to_act and s.kind == "human"]
        return reply

    async def _board_images(self, game: Table, finished: bool) -> list[ImageOut]:
        if not self.render_images:
            return []
        state = game.row.state
        assert state is not None
        view = game.spec.view(state, None)
        standings = game.spec.standings(state)
        summary = summary_of(game)
        at = (game.row.id, game.row.version)
        images = [
            ImageOut(
                f"{game.spec.slug}-{game.row.id}-v{game.row.version}.png",
                await self._draw(render_board, view, None, key=(render_board, *at, None, None)),
                f"{game.spec.name} board. {summary}. Scores: {scores_line(standings)}.",
            )
        ]
        if finished:
            images.append(
                ImageOut(
                    f"{game.spec.slug}-{game.row.id}-standings.png",
                    await self._draw(render_standings_image, view, standings, key=(render_standings_image, *at)),
                    f"Final standings: {standings_line(standings)}.",
                )
            )
        return images

    # ----- queries for front ends ---------------------------------------------------------

    async def legal_commands(self, guild_id: str, channel_id: str, user_id: str) -> list[str]:
        """Canonical texts of every move ``user_id`` may make right now (for autocomplete and buttons)."""
        return [text for text, _ in await self.labelled_commands(guild_id, channel_id, user_id)]

    async def labelled_commands(self, guild_id: str, channel_id: str, user_id: str) -> list[tuple[str, str]]:
        """(canonical text, short label) for every legal move of ``user_id`` now; the label may be empty."""
        game = await self._readable_table(guild_id, channel_id)
        if game is None or game.row.status != "active":
            return []
        seat = game.seat_of(user_id)
        return labelled_moves(game, seat) if seat is not None else []

    async def move_menu(self, guild_id: str, channel_id: str, actor: Actor, game_id: int, version: int) -> Reply:
        """The sender's legal moves for a menu, or the stale refusal if the menu's board is old."""
        game = await self._readable_table(guild_id, channel_id)
        if game is None or (game.row.id, game.row.version) != (game_id, version):
            return Reply.refuse(R.STALE, STALE_CLICK, game.row.id if game else None, game.row.version if game else None)
        seat = game.seat_of(actor.user_id)
        legal = labelled_moves(game, seat) if seat is not None and game.row.status == "active" else []
        reply = Reply(
            private="" if legal else "You have no move to make right now.",
            legal=legal,
            game_id=game.row.id,
            version=game.row.version,
        )
        return self._stamp(reply, game)

    async def players(self, guild_id: str, channel_id: str) -> list[tuple[str, str, bool]]:
        """(user id, display name, is a bot) for the seats of the channel's open game."""
        game = await self._readable_table(guild_id, channel_id)
        if game is None or game.row.status not in ("lobby", "active"):
            return []
        return [(s.user_id, s.display_name, s.kind == "bot") for s in game.seats]

    async def rules_topics(self, guild_id: str, channel_id: str, slug: str | None) -> list[str]:
        """Rules topics of the named game, else of the channel's game."""
        if not slug:
            game = await self._readable_table(guild_id, channel_id)
            return list(game.spec.rules_help) if game is not None else []
        try:
            return list(games.get_game(slug).rules_help)
        except Exception:  # an unknown or broken game has no topics to offer
            return []

    async def has_open_game(self, guild_id: str, channel_id: str) -> bool:
        return await self.store.open_game(guild_id, channel_id) is not None

    async def channel_game(self, guild_id: str, channel_id: str) -> Table | None:
        """The channel's open game (read-only use by tools and tests)."""
        game = await self._readable_table(guild_id, channel_id)
        return game if game is not None and game.row.status in ("lobby", "active") else None

    # ----- the outbox and start-up repair ------------------------------------------------------

    async def announced(self, outbox_id: int) -> None:
        """A front end has posted this announcement (and so every older one of its game)."""
        await self.store.mark_announced(outbox_id)

    async def repair(self, channel: tuple[str, str] | None = None) -> list[tuple[str, str, Reply]]:
        """On start-up, after a crash or a restart: play the bot turns that are due, give every game
        waiting on a human its reminder and deadline, and return one post per channel whose
        announcements were not all posted: the latest board, the texts and pings not yet sent."""
        for row in await self.store.list_games(statuses=("active",)):
            if self.shards is not None and not self.shards.owns(row.guild_id):
                continue
            async with self._lock(row.guild_id, row.channel_id):
                await self._repair_game(row.id)
        return await self.pending_posts(channel)

    async def pending_posts(self, channel: tuple[str, str] | None = None) -> list[tuple[str, str, Reply]]:
        """One post per channel whose announcements were not all posted (the latest board, the texts and
        pings not yet sent), for the announcements this process could claim: those nobody claimed, and
        those whose claim by another process ran out (one that died between claiming and posting). A claimed
        announcement stays stored until the front end reports it posted (``announced``), so each goes
        out once however many processes start, and a kill before the post loses nothing.
        ``channel``: a front end serving one channel (the console) takes only that channel's."""
        posts = []
        pending: dict[int, list[OutboxRow]] = {}
        for entry in await self.store.claim_announcements(self.shards, channel, self.claimer, self.outbox_lease):
            pending.setdefault(entry.game_id, []).append(entry)
        for game_id, entries in pending.items():
            found = await self.store.table_by_id(game_id)
            try:
                loaded = None if found is None else self._load(found)
            except DamagedGame:
                loaded = None
            if loaded is None:  # nothing can be posted for it, now or later: drop it, not re-lease it
                await self.store.mark_announced(entries[-1].id)
                continue
            game = loaded
            reply = Reply(
                public="\n".join(e.announcement.text for e in entries),
                pings=entries[-1].announcement.pings,
                game_id=game.row.id,
                version=game.row.version,
                finished=game.row.status in ("finished", "aborted"),
                outbox_id=entries[-1].id,
            )
            if game.started_state is not None:  # the latest state, whatever the lost posts showed
                reply.images = await self._board_images(game, game.row.status == "finished")
            posts.append((game.row.guild_id, game.row.channel_id, self._stamp(reply, game)))
        return posts

    async def _repair_game(self, game_id: int) -> None:
        found = await self.store.table_by_id(game_id)
        if found is None or found.game.status != "active" or found.game.paused or found.game.state is None:
            return
        try:
            game = self._load(found)
        except DamagedGame:
            return  # listed as damaged; a moderator aborts it
        if game is None:
            return
        if game.row.listing is None:  # written before the listing was stored: fill it in once
            listed = listing(game, None, None, game.seats)
            await self.store.set_listing(game.row.id, game.row.version, listed.line, listed.waiting)
        status = game.spec.status(found.game.state)
        bots = {s.seat for s in game.seats if s.kind == "bot"}
        if any(seat in bots for seat in status.to_act):
            await self._commit(game, Change(continues=True, newly=set()))  # the bots move; timers are planned
            return
        existing = {timer.kind for timer in await self.store.timers(game_id)}
        for timer in plan_turn_timers(game, game.row, status, self.clock()):
            if timer.kind not in existing:
                await self.store.add_timer(timer.kind, timer.due_at, game_id, timer.payload)

    # ----- timers ----------------------------------------------------------------------------

    async def fire_due_timers(self) -> list[tuple[str, str, Reply]]:
        """Run every due timer once; returns (guild, channel, reply) to post. Survives restarts (DB)."""
        return [(guild, channel, reply) for _, guild, channel, reply in await self.fire_due_timer_events()]

    async def fire_due_timer_events(self) -> list[tuple[str, str, str, Reply]]:
        """Like fire_due_timers, with the timer kind first so a front end can add e.g. moderator
        buttons to a deadline post: (kind, guild, channel, reply)."""
        out = []
        # Claimed (deleted as taken) in one transaction: another process's dispatcher gets the others.
        for timer in await self.store.claim_due_timers(self.clock(), self.shards):
            found = await self.store.table_by_id(timer.game_id) if timer.game_id is not None else None
            if found is None:
                continue
            guild, channel = found.game.guild_id, found.game.channel_id
            try:
                async with self._lock(guild, channel):
                    reply = await self._fire(timer.kind, timer.game_id)  # type: ignore[arg-type]
            except Exception:  # one timer that fails (already deleted) must not stop the others
                log.exception("timer %s (%s) of game %s failed and was dropped", timer.id, timer.kind, timer.game_id)
                continue
            if reply is not None:
                out.append((timer.kind, guild, channel, reply))
        return out

    async def _fire(self, kind: str, game_id: int) -> Reply | None:
        found = await self.store.table_by_id(game_id)
        if found is None:
            return None
        try:
            game = self._load(found)
        except DamagedGame:
            return None
        if game is None:
            return None
        result = fire(kind, game)
        if result is None or isinstance(result, Reply):
            return self._stamp(result, game) if result is not None else None
        try:
            return await self._commit(game, result)
        except StaleVersion:
            return None  # the game moved meanwhile; the next change plans fresh timers

    # ----- plumbing ------------------------------------------------------------------------

    def _ctx(
        self, guild_id: str, channel_id: str, actor: Actor, names: Mapping[str, str], game: Table | None = None
    ) -> Ctx:
        return Ctx(
            self.store,
            self.clock,
            self.seed_source,
            self._draw,
            self.render_images,
            guild_id,
            channel_id,
            actor,
            names,
            game,
        )

    async def _table(self, guild_id: str, channel_id: str) -> Table | None:
        """The channel's game; a damaged one that is still open raises DamagedGame (a closed one
        is as good as none)."""
        found = await self.store.table(guild_id, channel_id)
        return self._load(found) if found is not None else None

    async def _readable_table(self, guild_id: str, channel_id: str) -> Table | None:
        """For queries (autocomplete, menus): a damaged game offers nothing."""
        try:
            return await self._table(guild_id, channel_id)
        except DamagedGame:
            return None

    def _load(self, found: TableRow) -> Table | None:
        row = found.game
        reason = row.damaged
        if reason is None:
            try:
                return Table.of(found, games.get_game(row.game))
            except IllegalMove:
                reason = f"its game ({row.game}) cannot be loaded"
        if row.status in ("lobby", "active"):
            raise DamagedGame(row, reason)
        return None

    def _lock(self, guild_id: str, channel_id: str) -> asyncio.Lock:
        return self._locks.setdefault((guild_id, channel_id), asyncio.Lock())

    async def _draw(self, function: Callable[..., bytes], *args: Any, key: Hashable | None = None) -> bytes:
        """``function(*args)`` on the render executor. ``key`` names what is drawn: the function, the
        game's id and version (whose state never changes) and the view's viewer and focus, from which
        the arguments follow. A drawing under a key drawn lately is returned again, not redrawn."""
        kept = self._drawings.get(key) if key is not None else None
        if kept is not None:
            self._drawings.move_to_end(key)
            return kept
        data = await asyncio.get_running_loop().run_in_executor(self.render_executor, function, *args)
        if key is not None and key not in self._drawings:
            self._drawings[key] = data
            self._drawings_bytes += len(data)
            while self._drawings_bytes > DRAWINGS_KEPT_BYTES:
                self._drawings_bytes -= len(self._drawings.popitem(last=False)[1])
        return data


__all__ = ["Actor", "Conductor", "Reply", "Table"]
