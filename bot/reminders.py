"""Reminders, deadlines and lobby expiry: database timers, planned with every change so they
are written in the same transaction as the move (a crash cannot lose or orphan them)."""

from __future__ import annotations

from bot.config_commands import lobby_days
from bot.host import Change, Table
from bot.replies import Reply
from games.base import Status
from storage import GameRow, NewTimer

DEFAULT_REMINDER_HOURS = 12.0
TURN_TIMERS = ("reminder", "deadline")


def plan_turn_timers(table: Table, row: GameRow, status: Status, now: float) -> list[NewTimer]:
    """The reminder and deadline for the game as ``row`` leaves it (none once over or paused)."""
    if status.finished or row.status != "active" or row.paused:
        return []
    timers = []
    hours = table.settings.get("reminder_hours")
    delay = float(hours) if hours is not None else DEFAULT_REMINDER_HOURS
    if delay > 0:
        timers.append(NewTimer("reminder", now + delay * 3600, {"version": row.version}))
    deadline = table.settings.get("deadline_hours")
    if deadline is not None and float(deadline) > 0:
        timers.append(NewTimer("deadline", now + float(deadline) * 3600, {"version": row.version}))
    return timers


def lobby_expiry(days: float, now: float) -> NewTimer:
    return NewTimer("lobby_expiry", now + days * 86400, {"days": days})


def fire(kind: str, table: Table) -> Reply | Change | None:
    """What a due timer does to its game now (None: nothing to say any more)."""
    row = table.row
    if kind == "lobby_expiry" and row.status == "lobby":
        return Change(
            public=f"The {table.spec.name} lobby closed: it did not start within {lobby_days(table.settings):g} days.",
            status="aborted",
            ends_game=True,
        )
    state = row.state
    if row.status != "active" or state is None or row.paused:
        return None
    status = table.spec.status(state)
    waiting = [table.seats[s] for s in status.to_act if table.seats[s].kind == "human"]
    if not waiting:
        return None
    if kind == "reminder":
        pings = [s.user_id for s in waiting if s.user_id not in table.pings_off]
        return Reply(public=f"Reminder: {status.summary}.", pings=pings, game_id=row.id, version=row.version)
    if kind == "deadline":
        names = ", ".join(s.display_name for s in waiting)
        return Reply(
            public=f"Deadline passed: still waiting for {names}. Moderators can `/mod skip`, "
            "`/mod substitute` or `/mod kick`.",
            game_id=row.id,
            version=row.version,
        )
    return None
