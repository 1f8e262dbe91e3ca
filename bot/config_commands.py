"""`/mod config ...`: channel settings that moderators change (reminders, deadlines, moderator role)."""

from __future__ import annotations

from collections.abc import Mapping

from games.base import IllegalMove
from storage import AnyStore

USAGE = (
    "Use `/mod config show`, `/mod config reminder <hours|off>`, `/mod config deadline <hours|off>`, "
    "`/mod config lobby <days>` or `/mod config modrole <@role|off>`."
)
DEFAULT_LOBBY_DAYS = 7.0


def lobby_days(settings: Mapping[str, str]) -> float:
    """Days an unstarted lobby stays open, from a channel's settings."""
    value = settings.get("lobby_days")
    return float(value) if value is not None else DEFAULT_LOBBY_DAYS


def _hours(word: str) -> str:
    if word.lower() == "off":
        return "0"
    try:
        value = float(word)
    except ValueError:
        raise IllegalMove(f'"{word}" is not a number of hours. {USAGE}') from None
    if not 0 < value <= 24 * 30:
        raise IllegalMove("Hours must be more than 0 and at most 720 (30 days), or off.")
    return f"{value:g}"


async def apply_config(
    store: AnyStore, guild_id: str, channel_id: str, args: list[str], manages_server: bool = False
) -> str:
    """Apply one config command and return the private confirmation text."""
    if not args or args[0].lower() == "show":
        reminder = await store.channel_setting(guild_id, channel_id, "reminder_hours") or "12"
        deadline = await store.channel_setting(guild_id, channel_id, "deadline_hours") or "0"
        modrole = await store.channel_setting(guild_id, channel_id, "modrole")
        lobby = await store.channel_setting(guild_id, channel_id, "lobby_days")
        days = float(lobby) if lobby is not None else DEFAULT_LOBBY_DAYS
        return (
            f"Reminder after {reminder if reminder != '0' else 'never (off)'} h idle; deadline "
            f"{deadline + ' h' if deadline != '0' else 'off'}; lobbies close after {days:g} days; moderator role "
            f"{'<@&' + modrole + '>' if modrole else 'none (Manage Channels only)'}."
        )
    key, rest = args[0].lower(), args[1:]
    if key in ("reminder", "deadline"):
        if len(rest) != 1:
            raise IllegalMove(USAGE)
        value = _hours(rest[0])
        await store.set_channel_setting(guild_id, channel_id, f"{key}_hours", value)
        return f"{key.capitalize()} set to {'off' if value == '0' else value + ' h'} in this channel."
    if key == "lobby":
        if len(rest) != 1:
            raise IllegalMove(USAGE)
        try:
            days = float(rest[0])
        except ValueError:
            raise IllegalMove(f'"{rest[0]}" is not a number of days. {USAGE}') from None
        if not 0 < days <= 90:
            raise IllegalMove("Lobby expiry must be more than 0 and at most 90 days.")
        await store.set_channel_setting(guild_id, channel_id, "lobby_days", f"{days:g}")
        return f"Lobbies in this channel now close after {days:g} days without starting."
    if key == "modrole":
        if len(rest) != 1:
            raise IllegalMove(USAGE)
        # Manage Server sets the role for every channel; a channel's moderator only for this channel.
        scope, where = ("*", "this server") if manages_server else (channel_id, "this channel")
        word = rest[0]
        if word.lower() == "off":
            await store.set_channel_setting(guild_id, scope, "modrole", None)
            return f"Moderator role cleared for {where}: only members with Manage Channels moderate games there."
        role = word[3:-1] if word.startswith("<@&") and word.endswith(">") else word
        if not (role.isascii() and role.isdigit() and len(role) <= 20):
            raise IllegalMove("Give the role as a mention (@role) or its id.")
        if role == guild_id:
            raise IllegalMove("@everyone can't be the moderator role: choose a role that only moderators have.")
        await store.set_channel_setting(guild_id, scope, "modrole", role)
        return f"Members with <@&{role}> can now moderate games in {where}."
    raise IllegalMove(f'Unknown setting "{key}". {USAGE}')
