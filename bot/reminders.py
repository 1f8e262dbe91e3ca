"""Reminders, deadlines and lobby expiry as database timers (they survive restarts)."""

from __future__ import annotations

from bot.config_commands import lobby_days
from bot.host import (
    HostBase,
    Loaded,
)
from bot.replies import Reply
from games.base import Status

DEFAULT_REMINDER_HOURS = 12.0


class Reminders(HostBase):
    """Schedules timers after every change and fires the due ones."""

    async def _reschedule(self, game: Loaded, status: Status) -> None:
        await self.store.cancel_timers(game.row.id, ["reminder", "deadline"])
        if status.finished or game.row.status != "active" or game.row.paused:
            return
        hours = await self.store.channel_setting(game.row.guild_id, game.row.channel_id, "reminder_hours")
        delay = float(hours) if hours is not None else DEFAULT_REMINDER_HOURS
        if delay > 0:
            await self.store.add_timer("reminder", self.clock() + delay * 3600, game.row.id,
                                       {"version": game.row.version})
        deadline = await self.store.channel_setting(game.row.guild_id, game.row.channel_id, "deadline_hours")
        if deadline is not None and float(deadline) > 0:
            await self.store.add_timer("deadline", self.clock() + float(deadline) * 3600, game.row.id,
                                       {"version": game.row.version})

    async def fire_due_timers(self) -> list[tuple[str, str, Reply]]:
        """Run every due timer once; returns (guild, channel, reply) to post. Survives restarts (DB)."""
        return [(guild, channel, reply) for _, guild, channel, reply in await self.fire_due_timer_events()]

    async def fire_due_timer_events(self) -> list[tuple[str, str, str, Reply]]:
        """Like fire_due_timers, with the timer kind first so a front end can add e.g. moderator
        buttons to a deadline post: (kind, guild, channel, reply)."""
        out = []
        for timer in await self.store.due_timers(self.clock()):
            if not await self.store.delete_timer(timer.id):
                continue  # another dispatcher took it
            row = await self.store.get_game(timer.game_id) if timer.game_id is not None else None
            if row is None:
                continue
            reply = await self._fire(timer.kind, await self._load(row))
            if reply is not None:
                out.append((timer.kind, row.guild_id, row.channel_id, reply))
        return out

    async def _fire(self, kind: str, game: Loaded) -> Reply | None:
        if kind == "lobby_expiry" and game.row.status == "lobby":
            version = await self.store.update_game(game.row.id, game.row.version, status="aborted")
            return Reply(public=f"The {game.spec.name} lobby closed: it did not start within "
                                f"{await lobby_days(self.store, game.row.guild_id, game.row.channel_id):g} days.",
                         game_id=game.row.id, version=version, finished=True)
        state = game.row.state
        if game.row.status != "active" or state is None or game.row.paused:
            return None
        status = game.spec.status(state)
        waiting = [game.seats[s] for s in status.to_act if game.seats[s].kind == "human"]
        if not waiting:
            return None
        if kind == "reminder":
            pings = [s.user_id for s in waiting if await self.store.user_setting(s.user_id, "pings") != "off"]
            return Reply(public=f"Reminder: {status.summary}.", pings=pings, game_id=game.row.id,
                         version=game.row.version)
        if kind == "deadline":
            names = ", ".join(s.display_name for s in waiting)
            return Reply(public=f"Deadline passed: still waiting for {names}. Moderators can `/game skip`, "
                                "`/game substitute` or `/game kick`.", game_id=game.row.id,
                         version=game.row.version)
        return None
