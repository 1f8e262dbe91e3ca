"""Who is a moderator (Manage Channels, or the role set by ``/mod config modrole``), who manages the
server, and who owns the bot."""

from __future__ import annotations

from collections.abc import Iterable

import discord

from storage import AnyStore


async def is_moderator(interaction: discord.Interaction, store: AnyStore) -> bool:
    # interaction.permissions are the member's permissions in this channel, resolved by Discord
    # (overwrites included), so no member cache or privileged intent is needed.
    permissions = interaction.permissions
    if permissions.manage_channels or permissions.administrator:
        return True
    if interaction.guild_id is None or interaction.channel_id is None:
        return False
    held = role_ids(interaction.user) - {interaction.guild_id}  # @everyone (its id is the guild's) never counts
    if not held:
        return False  # no configured role can match: most players hold none, and skip the read
    role = await store.channel_setting(str(interaction.guild_id), str(interaction.channel_id), "modrole")
    return role is not None and role.isdigit() and int(role) in held


def manages_server(interaction: discord.Interaction) -> bool:
    """Manage Server or Administrator: may change server-wide settings (the moderator role everywhere)."""
    permissions = interaction.permissions
    return bool(permissions.manage_guild or permissions.administrator)


def role_ids(user: discord.User | discord.Member) -> set[int]:
    roles = getattr(user, "roles", None)
    if not roles:
        return set()
    return {role.id for role in roles}


async def is_owner(interaction: discord.Interaction, owner_ids: Iterable[int]) -> bool:
    """OWNER_IDS from the settings, else the application's owner (or its team members)."""
    user_id = interaction.user.id
    if user_id in set(owner_ids):
        return True
    client = interaction.client
    app = client.application or await client.application_info()
    if app.team is not None:
        return any(member.id == user_id for member in app.team.members)
    return app.owner is not None and app.owner.id == user_id
