"""What each button and menu choice does: the command text it stands for, nothing more.

Every click goes to ``Conductor.click`` (or ``Conductor.move_menu``) with the game id and version
the component was drawn for; the core decides whether it is stale, under the game's lock. The
client (``ConductorBot``) hands clicks here, so components.py never imports this module.
"""

from __future__ import annotations

import discord

from bot.discord import bridge, components, delivery
from bot.discord.bridge import bot_of, where

# button action -> (command text, answered privately)
SIMPLE = {
    "join": ("/game join", False),
    "start": ("/game start", False),
    "addbot": ("/game addbot", False),
    "undo": ("/game undo", False),
    "hand": ("/game hand", True),
}


async def on_button(interaction: discord.Interaction, game_id: int, version: int, action: str, arg: str) -> None:
    if action in SIMPLE:
        text, private = SIMPLE[action]
        await bridge.click(interaction, game_id, version, text, private=private)
    elif action == "mv":
        # A bare move ("done", "play_all-trains"): the core plays it in the clicked game's own group.
        await bridge.click(interaction, game_id, version, components.arg_words(arg))
    elif action == "cmd":
        # A reply's confirmation or vote ("start_solo", "resign_confirm", "abort_no"): a /game command.
        text = f"/game {components.arg_words(arg)}"
        await bridge.click(interaction, game_id, version, text, private=arg == "status")
    elif action in ("skip", "kick"):
        await bridge.click(interaction, game_id, version, f"/mod {action} {arg}")
    elif action == "repl":
        await bridge.click(interaction, game_id, version, f"/mod replacebot {arg}")
    elif action == "pick":
        await show_chooser(interaction, game_id, version)
    else:
        await delivery.attempt(
            interaction.response.send_message("This button is no longer supported.", ephemeral=True), "unknown button"
        )


async def on_select(interaction: discord.Interaction, game_id: int, version: int, value: str) -> None:
    if value.startswith(">"):
        offset, _, prefix = value[1:].partition(":")
        await show_chooser(interaction, game_id, version, prefix, int(offset) if offset.isdigit() else 0, edit=True)
        return
    if not value.startswith("/"):
        await delivery.attempt(interaction.response.defer(), "ignore placeholder option")
        return
    reply = await bridge.click(interaction, game_id, version, value)
    if reply is not None and reply.ok:
        # The menu has done its job; leave a note instead of a menu that would now be stale.
        await delivery.attempt(
            interaction.edit_original_response(content=f"Sent `{value}`.", view=None), "close move menu"
        )


async def show_chooser(
    interaction: discord.Interaction,
    game_id: int,
    version: int,
    prefix: str = "",
    offset: int = 0,
    *,
    edit: bool = False,
) -> None:
    """An ephemeral menu of the caller's legal moves (grouped and paged to fit Discord's 25 options)."""
    bot = bot_of(interaction)
    guild, channel = where(interaction)
    if not edit and not await delivery.defer(interaction, ephemeral=True, thinking=True):
        return
    view: discord.ui.View | None = None
    try:
        actor = await bridge.actor_for(interaction)
        reply = await bot.conductor.move_menu(guild, channel, actor, game_id, version)
    except Exception:
        bridge.log_failure(interaction, "move menu", game_id)
        await delivery.apologise(interaction)
        return
    text = reply.private or "You have no move to make right now."
    if reply.ok and reply.legal:
        choices = components.chooser_page([move for move, _ in reply.legal], prefix, offset)
        text = _chooser_text(choices)
        view = components.chooser_view(game_id, version, choices)
    if edit:
        await delivery.attempt(interaction.response.edit_message(content=text, view=view), "move menu page")
    else:
        await delivery.attempt(interaction.edit_original_response(content=text, view=view), "move menu")


def _chooser_text(choices: components.Choices) -> str:
    text = f"Your legal moves ({choices.total}). Choosing one sends it exactly as if you typed it."
    if choices.hidden:
        text += f" {choices.hidden} long moves are not listed here: type them (autocomplete knows them)."
    return text
