"""Who moderates (Manage Channels or the configured role) and who may sync commands."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord

from bot.discord.bridge import actor_for
from bot.discord.permissions import is_moderator, is_owner, manages_server
from storage import Store


def interaction(
    user_id: int = 5,
    *,
    manage: bool = False,
    roles: tuple[int, ...] = (),
    owner: int = 1,
    team: tuple[int, ...] | None = None,
) -> Any:
    app = SimpleNamespace(
        owner=SimpleNamespace(id=owner),
        team=SimpleNamespace(members=[SimpleNamespace(id=m) for m in team]) if team else None,
    )
    return SimpleNamespace(
        permissions=discord.Permissions(manage_channels=manage),
        guild_id=10,
        channel_id=20,
        user=SimpleNamespace(id=user_id, roles=[SimpleNamespace(id=r) for r in roles]),
        client=SimpleNamespace(application=app),
    )


async def test_moderators_have_manage_channels_or_the_configured_role(tmp_path) -> None:
    store = await Store.open(tmp_path / "p.db")
    try:
        assert await is_moderator(interaction(manage=True), store)
        assert not await is_moderator(interaction(roles=(77,)), store)
        await store.set_channel_setting("10", "*", "modrole", "77")  # what /game config modrole stores
        assert await is_moderator(interaction(roles=(77,)), store)
        assert not await is_moderator(interaction(roles=(78,)), store)
        admin = interaction()
        admin.permissions = discord.Permissions(administrator=True)
        assert await is_moderator(admin, store)
    finally:
        await store.close()


async def test_owner_is_from_settings_or_the_application() -> None:
    assert await is_owner(interaction(user_id=1, owner=1), ())
    assert not await is_owner(interaction(user_id=2, owner=1), ())
    assert await is_owner(interaction(user_id=2, owner=1), (2, 3))  # OWNER_IDS
    assert await is_owner(interaction(user_id=4, owner=1, team=(4, 9)), ())
    assert not await is_owner(interaction(user_id=1, owner=1, team=(4, 9)), ())  # a team owns it


async def test_actor_manages_server_with_manage_server_or_administrator(tmp_path) -> None:
    store = await Store.open(tmp_path / "p.db")
    try:
        for permissions, expected in [
            (discord.Permissions(manage_channels=True), False),  # a channel moderator, not a server manager
            (discord.Permissions(manage_guild=True), True),
            (discord.Permissions(administrator=True), True),
            (discord.Permissions.none(), False),
        ]:
            member = interaction()
            member.permissions = permissions
            member.user.display_name = "ann"
            member.client = SimpleNamespace(store=store)
            assert manages_server(member) is expected
            assert (await actor_for(member)).manages_server is expected
    finally:
        await store.close()


async def test_everyone_as_the_moderator_role_makes_nobody_a_moderator(tmp_path) -> None:
    store = await Store.open(tmp_path / "p.db")
    try:
        await store.set_channel_setting("10", "*", "modrole", "10")  # the @everyone role's id is the guild's
        assert not await is_moderator(interaction(roles=(10,)), store)
    finally:
        await store.close()


async def test_the_role_check_reads_the_setting_only_for_members_holding_a_role(tmp_path) -> None:
    """``is_moderator`` skips the store when the member holds no role besides @everyone; its plain
    definition reads the setting always: both agree for every stored value and every set of roles,
    and members without a role cost no read."""

    async def plain(interaction: Any, store: Store) -> bool:
        if interaction.permissions.manage_channels or interaction.permissions.administrator:
            return True
        role = await store.channel_setting("10", "20", "modrole")
        if role is None or not role.isdigit() or int(role) == interaction.guild_id:
            return False
        return int(role) in {r.id for r in interaction.user.roles}

    store = await Store.open(tmp_path / "p.db")
    reads: list[str] = []
    read = store.channel_setting

    async def counted(guild: str, channel: str, key: str) -> str | None:
        reads.append(key)
        return await read(guild, channel, key)

    try:
        for stored in (None, "77", "78", "10", "x7", "", "0077"):
            await store.set_channel_setting("10", "*", "modrole", stored or None)
            if stored == "":
                await store.set_channel_setting("10", "*", "modrole", "")
            for roles in ((), (10,), (77,), (10, 77), (78,), (10, 78, 77), (79, 80)):
                for manage in (False, True):
                    asked = interaction(manage=manage, roles=roles)
                    expected = await plain(asked, store)
                    store.channel_setting = counted  # type: ignore[method-assign]
                    reads.clear()
                    assert await is_moderator(asked, store) == expected, (stored, roles, manage)
                    store.channel_setting = read  # type: ignore[method-assign]
                    if manage or not set(roles) - {10}:
                        assert reads == [], (stored, roles, manage)
    finally:
        await store.close()
