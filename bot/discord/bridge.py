"""The one path from a Discord interaction to the host core and back.

Slash commands and component clicks become canonical command text (``/tt place B2``), run
through ``Conductor.handle`` (typed commands) or ``Conductor.click`` (buttons and menus: the
core refuses a click whose game or version is no longer the channel's) and the ``Reply`` is
delivered:

* a slash command runs the core before its first response, so that response is already
  public (an accepted command) or ephemeral (a refusal: nothing appears in the channel, not even
  "thinking"); only a core slower than ``DEFER_AFTER`` is deferred first. A click is
  acknowledged silently first;
* ``Reply.public`` (with board images, turn pings and buttons) goes to the channel as the
  interaction's public response or a follow-up (or, when the interaction can no longer carry it,
  as a plain channel message); ``Reply.private`` only ever as ephemeral. Once it is posted, the
  reply's outbox row is marked announced (``Conductor.announced``);
* refusals are private and specific; unexpected exceptions are logged and answered with a
  short apology.

Once the core has answered, everything shown comes from the ``Reply`` (status, turn-ending
verbs, legal moves): the adapter never reads the store or a game engine to decide what to draw.
"""

from __future__ import annotations

import asyncio
import enum
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Protocol, cast

import discord
from discord import app_commands

from bot.core import Conductor
from bot.discord import components, delivery, testhooks
from bot.discord.dispatcher import TimerDispatcher
from bot.discord.permissions import is_moderator, manages_server
from bot.replies import Actor, Reply
from bot.settings import Settings
from storage import AnyStore

log = logging.getLogger(__name__)
# Discord drops an interaction that is not acknowledged within three seconds (counted from its
# creation, so gateway latency is included): a core slower than this is deferred first.
DEFER_AFTER = 2.0
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
    store: AnyStore
    conductor: Conductor
    dispatcher: TimerDispatcher
    tree: app_commands.CommandTree[Any]


def bot_of(interaction: discord.Interaction) -> BotHost:
    return cast(BotHost, interaction.client)


def where(interaction: discord.Interaction) -> tuple[str, str]:
    return str(interaction.guild_id or "dm"), str(interaction.channel_id)


async def actor_for(interaction: discord.Interaction) -> Actor:
    user = interaction.user
    return Actor(
        str(user.id),
        user.display_name,
        await is_moderator(interaction, bot_of(interaction).store),
        manages_server=manages_server(interaction),
    )


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
    """Run ``action`` and deliver its reply. Returns the reply (None after an unexpected error or
    when Discord refused the acknowledgement of a click).

    A click is acknowledged silently first. A slash command runs the core first, so its first
    response is already public (accepted) or ephemeral (refused); only when the core has not
    answered within ``DEFER_AFTER`` seconds is it deferred (Discord allows three seconds).
    ``game_id``: the game a component click is about, for the log if the core fails."""
    if style is Style.CLICK and not await delivery.defer(interaction, ephemeral=False, thinking=False):
        # Discord has shown the user "interaction failed" (usually an expired token): do nothing,
        # so retrying the same click is safe.
        return None
    task = asyncio.create_task(_perform(interaction, action))
    deferred = style is Style.CLICK
    if not deferred:
        done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
        if not done:
            # Slow (a big board, a busy host): keep the interaction alive. A command that is public
            # when accepted shows a public "thinking"; a refusal then replaces it privately.
            deferred = await delivery.defer(interaction, ephemeral=style is Style.PRIVATE, thinking=True)
            if not deferred:
                log.warning("interaction %s could not be deferred; its public part goes to the channel", interaction.id)
    try:
        reply = await task
    except Exception:
        log_failure(interaction, what, game_id)
        await delivery.apologise(interaction)
        return None
    testhooks.after_core(what, reply)
    try:
        if deferred or style is Style.CLICK:
            posted = await deliver(interaction, reply, style, long_name)
        else:
            posted = await respond(interaction, reply, style, long_name)
        if not posted:
            posted = await post_to_channel(interaction, reply)
        if posted:
            await announced(interaction, reply)
    except Exception:
        log_failure(interaction, what, reply.game_id)
    return reply


async def _perform(interaction: discord.Interaction, action: Action) -> Reply:
    try:
        return await action(await actor_for(interaction))
    finally:
        bot_of(interaction).dispatcher.wake()  # the command may have added or moved a reminder


async def announced(interaction: discord.Interaction, reply: Reply) -> None:
    """The reply's public part is in the channel: its outbox row (and older ones) need no repair."""
    if reply.outbox_id is not None:
        await bot_of(interaction).conductor.announced(reply.outbox_id)


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


def _messages(reply: Reply, long_name: str) -> tuple[list[delivery.Outgoing], list[delivery.Outgoing]]:
    public = delivery.public_messages(reply, view_for(reply))
    private = delivery.private_messages(reply, long_name)
    if private:
        moves = hand_moves(reply)
        private[0].view = moves if moves is not None else private_prompt(reply, bool(public))
    return public, private


def private_prompt(reply: Reply, has_public: bool) -> discord.ui.View | None:
    """A reply's buttons (a confirmation) under its private part, when it has no public part to carry them."""
    if has_public or not reply.ok or not reply.buttons or reply.game_id is None or reply.version is None:
        return None
    return components.prompt_view(reply.game_id, reply.version, reply.buttons)


async def respond(interaction: discord.Interaction, reply: Reply, style: Style, long_name: str = "details.txt") -> bool:
    """Answer a not yet acknowledged slash command with its reply: the first response is the public
    message when the command was accepted and is public, else the private one (a refusal is never
    shown in the channel, not even as "thinking"). Returns whether the public part, if any, was
    posted (False: the caller posts it to the channel instead)."""
    public, private = _messages(reply, long_name)
    public_first = style is Style.PUBLIC and reply.ok and bool(public) and not reply.hide_command
    if public_first:
        if not await delivery.respond(interaction, public[0], ephemeral=False):
            return False
        await delivery.send_all(interaction, public[1:], ephemeral=False)
        await delivery.send_all(interaction, private, ephemeral=True)
        return True
    first = private[0] if private else delivery.Outgoing("Done." if reply.ok else "Nothing happened.")
    if not await delivery.respond(interaction, first, ephemeral=True):
        return not public
    if public and not await delivery.followup(interaction, public[0], ephemeral=False):
        return False
    await delivery.send_all(interaction, public[1:], ephemeral=False)
    await delivery.send_all(interaction, private[1:], ephemeral=True)
    return True


async def deliver(interaction: discord.Interaction, reply: Reply, style: Style, long_name: str = "details.txt") -> bool:
    """Deliver a reply after a defer. Returns whether its public part, if any, was posted."""
    public, private = _messages(reply, long_name)
    if style is Style.CLICK:  # acknowledged silently: there is no "thinking" message to replace
        posted = not public or await delivery.followup(interaction, public[0], ephemeral=False)
        if posted:
            await delivery.send_all(interaction, public[1:], ephemeral=False)
        await delivery.send_all(interaction, private, ephemeral=True)
        return posted
    # After a "thinking" defer, Discord may turn the next follow-up into the deferred message
    # itself (keeping the defer's visibility), so that message is filled or deleted first; else a
    # private follow-up could end up as the public answer. If neither works, the rest is not sent.
    first, rest_public, rest_private = _split_for_original(style, public, private, reply.ok)
    if first is not None:
        filled = await delivery.edit_original(interaction, first)
        cleared = filled or await delivery.delete_original(interaction)
    else:
        filled, cleared = False, await delivery.delete_original(interaction)
    if not cleared:
        log.warning(
            "deferred response of interaction %s could not be filled or removed; %d follow-ups not sent (game %s)",
            interaction.id,
            len(rest_public) + len(rest_private),
            reply.game_id,
        )
        return not public
    if style is Style.PUBLIC and public and not filled:
        await delivery.send_all(interaction, rest_private, ephemeral=True)
        return False  # the board never reached the channel: the caller posts it there
    posted = not rest_public or await delivery.followup(interaction, rest_public[0], ephemeral=False)
    if posted:
        await delivery.send_all(interaction, rest_public[1:], ephemeral=False)
    await delivery.send_all(interaction, rest_private, ephemeral=True)
    return posted


async def post_to_channel(interaction: discord.Interaction, reply: Reply) -> bool:
    """The interaction could not carry the reply's public part (expired, deleted): post it to the
    channel directly, so an accepted change is still announced. Returns whether it was posted."""
    public = delivery.public_messages(reply, view_for(reply))
    if not public or interaction.channel_id is None:
        return not public
    channel = interaction.client.get_partial_messageable(interaction.channel_id, guild_id=interaction.guild_id)
    context = f"(game {reply.game_id}, after interaction {interaction.id} failed)"
    if not await delivery.channel_send(channel, public[0], context):
        return False
    for message in public[1:]:
        await delivery.channel_send(channel, message, context)
    return True


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
    prompt = reply.buttons if reply.public else ()
    return components.game_view(
        reply.game_id, reply.version, reply.status, reply.turn_enders, reply.quick_moves, prompt
    )


async def new_in_thread(interaction: discord.Interaction, args: str) -> None:
    """``/game new ... thread:true``: open a public thread here; the thread is the game's channel.

    Like every slash command, answered once the outcome is known (a refusal privately, with the
    unused thread deleted), unless opening the thread and the lobby takes longer than ``DEFER_AFTER``."""
    channel = interaction.channel
    if not isinstance(channel, discord.TextChannel):
        text = "Games get their own thread only from a text channel; run `/game new` without `thread` here."
        await delivery.respond(interaction, delivery.Outgoing(text), ephemeral=True)
        return
    task = asyncio.create_task(_open_in_thread(interaction, channel, args))
    done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
    deferred = not done and await delivery.defer(interaction, ephemeral=False, thinking=True)
    try:
        thread, reply = await task
    except Exception:
        log_failure(interaction, "/game new")
        await delivery.apologise(interaction)
        return
    if thread is None:
        if deferred:
            await _private_only(interaction, reply.private)
        else:
            await delivery.respond(interaction, delivery.Outgoing(reply.private), ephemeral=True)
        return
    testhooks.after_core("/game new", reply)
    note = delivery.Outgoing(f"{reply.public}\nThe game is in {thread.mention}.")
    if deferred:
        await delivery.edit_original(interaction, note)
    else:
        await delivery.respond(interaction, note, ephemeral=False)
    public = delivery.public_messages(reply, view_for(reply))
    posted = not public or await delivery.channel_send(thread, public[0], f"(new game {reply.game_id})")
    for message in public[1:]:
        await delivery.channel_send(thread, message, f"(new game {reply.game_id})")
    if posted:
        await announced(interaction, reply)
    await delivery.send_all(interaction, delivery.private_messages(reply), ephemeral=True)


async def _open_in_thread(
    interaction: discord.Interaction, channel: discord.TextChannel, args: str
) -> tuple[discord.Thread | None, Reply]:
    """The new thread and the lobby's reply, or (None, the refusal) with no thread left behind."""
    bot = bot_of(interaction)
    name = f"{args.split()[0] if args else 'game'} – {interaction.user.display_name}"[:100]
    try:
        thread = await channel.create_thread(
            name=name, type=discord.ChannelType.public_thread, auto_archive_duration=10080
        )
    except discord.HTTPException as exc:
        log.warning("creating a thread in channel %s failed: %s", channel.id, exc)
        text = (
            "I could not open a thread here (I need the Create Public Threads "
            "permission). Try again without `thread`, or ask a moderator."
        )
        return None, Reply(ok=False, private=text)
    guild, thread_id = str(interaction.guild_id), str(thread.id)
    try:
        reply = await bot.conductor.handle(guild, thread_id, await actor_for(interaction), f"/game new {args}")
    except Exception:
        await delivery.attempt(thread.delete(), "delete unused thread")
        raise
    finally:
        bot.dispatcher.wake()
    if not reply.ok:
        await delivery.attempt(thread.delete(), "delete unused thread")
        return None, reply
    return thread, reply


async def _private_only(interaction: discord.Interaction, text: str) -> None:
    """After a public defer: drop the "thinking" message and answer privately."""
    await delivery.delete_original(interaction)
    await delivery.followup(interaction, delivery.Outgoing(text), ephemeral=True)
