"""The one path from a Discord interaction to the host core and back.

Slash commands and component clicks become canonical command text (``/tt place B2``), run
through ``Conductor.handle`` (typed commands) or ``Conductor.click`` (buttons and menus: the
core refuses a click whose game or version is no longer the channel's) and the ``Reply`` is
delivered:

* the interaction is deferred first (the core may render a board in a worker thread);
* ``Reply.public`` (with board images, turn pings and buttons) goes to the channel as the
  interaction's public response or a follow-up; ``Reply.private`` only ever as ephemeral;
* refusals are private and specific; unexpected exceptions are logged and answered with a
  short apology.

Once the core has answered, everything shown comes from the ``Reply`` (status, turn-ending
verbs, legal moves): the adapter never reads the store or a game engine to decide what to draw.
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Protocol, cast

import discord
from discord import app_commands

from bot.core import Conductor
from bot.discord import components, delivery
from bot.discord.dispatcher import TimerDispatcher
from bot.discord.permissions import is_moderator
from bot.replies import Actor, Reply
from bot.settings import Settings
from storage import Store

log = logging.getLogger(__name__)
Action = Callable[[Actor], Awaitable[Reply]]


class Style(enum.Enum):
    """How an interaction is acknowledged, which decides where each part of the reply can go."""

    PUBLIC = "public"  # slash command expected to post in the channel: public "thinking"
    PRIVATE = "private"  # slash command or button answered only to the user: ephemeral "thinking"
    CLICK = "click"  # component click: silent acknowledgement, everything as follow-ups


class BotHost(Protocol):
    """What the adapter needs from the client (``ConductorBot`` in app.py provides it).

    A protocol rather than the class itself, so this module does not import app.py (which imports it).
    """

    settings: Settings
    store: Store
    conductor: Conductor
    dispatcher: TimerDispatcher
    tree: app_commands.CommandTree[Any]


def bot_of(interaction: discord.Interaction) -> BotHost:
    return cast(BotHost, interaction.client)


def where(interaction: discord.Interaction) -> tuple[str, str]:
    return str(interaction.guild_id or "dm"), str(interaction.channel_id)


async def actor_for(interaction: discord.Interaction) -> Actor:
    user = interaction.user
    return Actor(str(user.id), user.display_name, await is_moderator(interaction, bot_of(interaction).store))


async def slash(
    interaction: discord.Interaction,
    text: str,
    *,
    private: bool = False,
    names: Mapping[str, str] | None = None,
    long_name: str = "details.txt",
) -> None:
    """Run a typed command."""
    guild, channel = where(interaction)
    conductor = bot_of(interaction).conductor

    async def action(actor: Actor) -> Reply:
        return await conductor.handle(guild, channel, actor, text, names=names)

    await run(interaction, action, Style.PRIVATE if private else Style.PUBLIC, text, long_name=long_name)


async def click(
    interaction: discord.Interaction,
    game_id: int,
    version: int,
    text: str,
    *,
    private: bool = False,
    names: Mapping[str, str] | None = None,
) -> Reply | None:
    """Run the command a component stands for (a full command, or a bare verb of the game's own
    group); the core refuses it as stale unless its game is the channel's latest at ``version``."""
    guild, channel = where(interaction)
    conductor = bot_of(interaction).conductor

    async def action(actor: Actor) -> Reply:
        return await conductor.click(guild, channel, actor, game_id, version, text, names=names)

    return await run(interaction, action, Style.PRIVATE if private else Style.CLICK, text, game_id=game_id)


async def run(
    interaction: discord.Interaction,
    action: Action,
    style: Style,
    what: str,
    long_name: str = "details.txt",
    game_id: int | None = None,
) -> Reply | None:
    """Defer, run ``action``, deliver its reply. Returns the reply (None after an unexpected error).

    ``game_id``: the game a component click is about, for the log if the core fails."""
    bot = bot_of(interaction)
    if style is Style.CLICK:
        acknowledged = await delivery.defer(interaction, ephemeral=False, thinking=False)
    else:
        acknowledged = await delivery.defer(interaction, ephemeral=style is Style.PRIVATE, thinking=True)
    if not acknowledged:
        # Discord has shown the user "interaction failed" (usually an expired token): do nothing,
        # so retrying the same command is safe.
        return None
    try:
        reply = await action(await actor_for(interaction))
    except Exception:
        log_failure(interaction, what, game_id)
        await delivery.apologise(interaction)
        return None
    finally:
        bot.dispatcher.wake()  # the command may have added or moved a reminder
    try:
        await deliver(interaction, reply, style, long_name)
    except Exception:
        log_failure(interaction, what, reply.game_id)
    return reply


def log_failure(interaction: discord.Interaction, what: str, game_id: int | None = None) -> None:
    """Log the current exception with what the adapter knows (the store may be what failed, so it is not asked)."""
    about = f"game {game_id}, " if game_id is not None else ""
    log.exception(
        "command %r failed (%schannel %s, user %s)",
        what.split(" ", 2)[:2],
        about,
        interaction.channel_id,
        interaction.user.id,
    )


async def deliver(interaction: discord.Interaction, reply: Reply, style: Style, long_name: str = "details.txt") -> None:
    public = delivery.public_messages(reply, view_for(reply))
    private = delivery.private_messages(reply, long_name)
    if private:
        private[0].view = hand_moves(reply)
    if style is Style.CLICK:  # acknowledged silently: there is no "thinking" message to replace
        await delivery.send_all(interaction, public, ephemeral=False)
        await delivery.send_all(interaction, private, ephemeral=True)
        return
    # After a "thinking" defer, Discord may turn the next follow-up into the deferred message
    # itself (keeping the defer's visibility), so that message is filled or deleted first; else a
    # private follow-up could end up as the public answer. If neither works, the rest is not sent.
    first, rest_public, rest_private = _split_for_original(style, public, private, reply.ok)
    if first is not None:
        cleared = await delivery.edit_original(interaction, first) or await delivery.delete_original(interaction)
    else:
        cleared = await delivery.delete_original(interaction)
    if not cleared:
        log.warning(
            "deferred response of interaction %s could not be filled or removed; %d follow-ups not sent (game %s)",
            interaction.id,
            len(rest_public) + len(rest_private),
            reply.game_id,
        )
        return
    await delivery.send_all(interaction, rest_public, ephemeral=False)
    await delivery.send_all(interaction, rest_private, ephemeral=True)


def _split_for_original(
    style: Style, public: list[delivery.Outgoing], private: list[delivery.Outgoing], ok: bool
) -> tuple[delivery.Outgoing | None, list[delivery.Outgoing], list[delivery.Outgoing]]:
    """Which message fills the deferred response (public for PUBLIC, private for PRIVATE), and the rest."""
    if style is Style.PUBLIC:
        return (public[0], public[1:], private) if public else (None, [], private)
    if private:
        return private[0], public, private[1:]
    return delivery.Outgoing("Done." if ok else "Nothing happened."), public, []


def hand_moves(reply: Reply) -> discord.ui.View | None:
    """Your hand comes with your legal moves (play a card, buy, end) as a menu, when the reply carries
    them (``/game hand`` on your turn)."""
    if not reply.ok or not reply.legal or reply.game_id is None or reply.version is None:
        return None
    moves = [text for text, _ in reply.legal]
    return components.chooser_view(reply.game_id, reply.version, components.chooser_page(moves))


def view_for(reply: Reply) -> discord.ui.View | None:
    """Buttons for the game's state after this reply (none on refusals or finished games)."""
    if not reply.ok or reply.game_id is None or reply.version is None or reply.finished or reply.status is None:
        return None
    return components.game_view(reply.game_id, reply.version, reply.status, reply.turn_enders)


async def new_in_thread(interaction: discord.Interaction, args: str) -> None:
    """``/game new ... thread:true``: open a public thread here; the thread is the game's channel."""
    bot = bot_of(interaction)
    if not await delivery.defer(interaction, ephemeral=False, thinking=True):
        return
    channel = interaction.channel
    if not isinstance(channel, discord.TextChannel):
        await _private_only(
            interaction, "Games get their own thread only from a text channel; run `/game new` without `thread` here."
        )
        return
    name = f"{args.split()[0] if args else 'game'} – {interaction.user.display_name}"[:100]
    try:
        thread = await channel.create_thread(
            name=name, type=discord.ChannelType.public_thread, auto_archive_duration=10080
        )
    except discord.HTTPException as exc:
        log.warning("creating a thread in channel %s failed: %s", channel.id, exc)
        await _private_only(
            interaction,
            "I could not open a thread here (I need the Create Public Threads "
            "permission). Try again without `thread`, or ask a moderator.",
        )
        return
    guild, thread_id = str(interaction.guild_id), str(thread.id)
    try:
        reply = await bot.conductor.handle(guild, thread_id, await actor_for(interaction), f"/game new {args}")
    except Exception:
        log_failure(interaction, "/game new")
        await delivery.apologise(interaction)
        return
    finally:
        bot.dispatcher.wake()
    if not reply.ok:
        await delivery.attempt(thread.delete(), "delete unused thread")
        await _private_only(interaction, reply.private)
        return
    await delivery.edit_original(interaction, delivery.Outgoing(f"{reply.public}\nThe game is in {thread.mention}."))
    for message in delivery.public_messages(reply, view_for(reply)):
        await delivery.channel_send(thread, message, f"(new game {reply.game_id})")
    await delivery.send_all(interaction, delivery.private_messages(reply), ephemeral=True)


async def _private_only(interaction: discord.Interaction, text: str) -> None:
    """After a public defer: drop the "thinking" message and answer privately."""
    await delivery.delete_original(interaction)
    await delivery.followup(interaction, delivery.Outgoing(text), ephemeral=True)
