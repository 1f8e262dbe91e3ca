"""Sending to Discord without ever letting a Discord failure break a game.

Every helper catches what Discord may answer when things go wrong (expired interaction
token, 403 missing permission, 404 deleted message or channel, network errors), logs it
and returns False. The game itself is already saved by the core before anything is sent.

It also turns a core ``Reply`` into message arguments: public text with turn pings as real
mentions (only those users may be pinged), images as files whose description is the alt
text, and text split to Discord's 2000-character limit.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord

from bot.replies import ImageOut, Reply

log = logging.getLogger(__name__)
MAX_CONTENT = 2000
MAX_FILES = 10
NO_MENTIONS = discord.AllowedMentions.none()


@dataclass
class Outgoing:
    """One message to send; ``files`` are built fresh for every send (discord.File is single-use)."""

    content: str = ""
    images: list[ImageOut] = field(default_factory=list)
    texts: list[tuple[str, str]] = field(default_factory=list)  # (filename, text) attachments
    mentions: list[int] = field(default_factory=list)
    view: discord.ui.View | None = None

    def kwargs(self) -> dict[str, Any]:
        files = [
            discord.File(io.BytesIO(i.data), filename=i.filename, description=_clip(i.description, 1024))
            for i in self.images[:MAX_FILES]
        ]
        files += [discord.File(io.BytesIO(text.encode()), filename=name) for name, text in self.texts]
        allowed = (
            discord.AllowedMentions(
                everyone=False, roles=False, replied_user=False, users=[discord.Object(id=u) for u in self.mentions]
            )
            if self.mentions
            else NO_MENTIONS
        )
        out: dict[str, Any] = {"content": self.content or None, "allowed_mentions": allowed}
        if files:
            out["files"] = files
        if self.view is not None:
            out["view"] = self.view
        return out

    def spend(self) -> None:
        """Sent (or failed for good): drop the buttons' view, emptied. A discord.py view and its items
        point at each other, so without this every posted view waits for the garbage collector; under a
        burst of commands thousands of them reach its oldest generation and are freed in one long pause.
        Our views hold only dynamic items, dispatched by their custom_id pattern, never through the view."""
        if self.view is not None:
            self.view.clear_items()
            self.view = None


def public_messages(reply: Reply, view: discord.ui.View | None = None) -> list[Outgoing]:
    """The channel messages for a reply: board, text, pings and buttons first, overflow text after."""
    mentions = [int(u) for u in reply.pings if u.isdigit()]
    text = reply.public
    if mentions:
        text = f"{text}\n" + " ".join(f"<@{u}>" for u in mentions)
    if not text and reply.images:
        text = reply.images[0].description  # notification previews and screen readers get a summary
    chunks = split_text(text)
    if not chunks and not reply.images:
        return []
    first = Outgoing(chunks[0] if chunks else "", list(reply.images), mentions=mentions, view=view)
    return [first, *(Outgoing(chunk) for chunk in chunks[1:])]


def private_messages(reply: Reply, long_name: str = "details.txt") -> list[Outgoing]:
    """What only the sender sees; very long text (an export) is attached as a file."""
    text = reply.private
    texts: list[tuple[str, str]] = []
    if len(text) > MAX_CONTENT:
        texts = [(long_name, text)]
        text = _clip(text.split("\n", 1)[0], 200) + "\n(full text attached)"
    if not text and not reply.private_images:
        return []
    return [Outgoing(text, list(reply.private_images), texts)]


def split_text(text: str, limit: int = MAX_CONTENT) -> list[str]:
    """Chunks of at most ``limit`` characters, cut at line breaks where possible."""
    chunks: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:
            if current:
                chunks.append(current)
                current = ""
            chunks.append(line[:limit])
            line = line[limit:]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            chunks.append(current)
            current = line
        else:
            current = candidate
    if current.strip():
        chunks.append(current)
    return [c for c in chunks if c.strip()]


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ----- tolerant calls -------------------------------------------------------------------


async def attempt(call: Awaitable[Any], what: str, context: str = "") -> bool:
    """Await a Discord call; log and swallow Discord and network failures."""
    try:
        await call
    except discord.NotFound as exc:  # expired interaction (10062), deleted message or channel
        log.warning("%s failed: not found (%s) %s", what, exc.code, context)
    except discord.Forbidden as exc:  # missing permission, closed DMs (50007)
        log.warning("%s failed: forbidden (%s) %s", what, exc.code, context)
    except discord.HTTPException as exc:
        log.warning("%s failed: HTTP %s (%s) %s", what, exc.status, exc.code, context)
    except (TimeoutError, aiohttp.ClientError, OSError) as exc:
        log.warning("%s failed: %s %s", what, type(exc).__name__, context)
    else:
        return True
    return False


async def defer(interaction: discord.Interaction, *, ephemeral: bool, thinking: bool) -> bool:
    if interaction.response.is_done():
        return True
    return await attempt(
        interaction.response.defer(ephemeral=ephemeral, thinking=thinking), "defer", _where(interaction)
    )


async def edit_original(interaction: discord.Interaction, message: Outgoing) -> bool:
    kwargs = message.kwargs()
    files = kwargs.pop("files", [])
    try:
        return await attempt(
            interaction.edit_original_response(attachments=files, **kwargs), "edit original", _where(interaction)
        )
    finally:
        message.spend()


async def delete_original(interaction: discord.Interaction) -> bool:
    return await attempt(interaction.delete_original_response(), "delete original", _where(interaction))


async def followup(interaction: discord.Interaction, message: Outgoing, *, ephemeral: bool) -> bool:
    try:
        return await attempt(
            interaction.followup.send(ephemeral=ephemeral, **message.kwargs()), "follow-up", _where(interaction)
        )
    finally:
        message.spend()


async def respond(interaction: discord.Interaction, message: Outgoing, *, ephemeral: bool) -> bool:
    """The interaction's first response, with the message itself (no "thinking" state)."""
    if interaction.response.is_done():
        return await followup(interaction, message, ephemeral=ephemeral)
    try:
        return await attempt(
            interaction.response.send_message(ephemeral=ephemeral, **message.kwargs()), "response", _where(interaction)
        )
    finally:
        message.spend()


async def send_all(interaction: discord.Interaction, messages: Sequence[Outgoing], *, ephemeral: bool) -> bool:
    """Follow-ups in order; returns whether all of them were sent."""
    sent = True
    for message in messages:
        sent = await followup(interaction, message, ephemeral=ephemeral) and sent
    return sent


async def channel_send(channel: discord.abc.Messageable, message: Outgoing, context: str = "") -> bool:
    try:
        return await attempt(channel.send(**message.kwargs()), "channel message", context)
    finally:
        message.spend()


async def apologise(interaction: discord.Interaction) -> None:
    """The user-facing side of an unexpected error: short, private, no traceback."""
    text = "Sorry, something went wrong on my side while handling that. It has been logged; please try again."
    response = interaction.response
    if not response.is_done():
        await attempt(response.send_message(text, ephemeral=True), "apology", _where(interaction))
        return
    # A "thinking" message is waiting: remove it so the apology cannot take its (maybe public) place.
    thinking = response.type is discord.InteractionResponseType.deferred_channel_message
    if thinking and not await delete_original(interaction):
        return
    await followup(interaction, Outgoing(text), ephemeral=True)


def _where(interaction: discord.Interaction) -> str:
    return f"(interaction {interaction.id} in channel {interaction.channel_id})"
