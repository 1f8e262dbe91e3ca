"""The slash-command tree: ``/game`` (everyone: lobby, views, help), ``/mod`` (moderators; hidden
from other members by ``default_member_permissions``, still checked by the core), ``/owner``
(the bot's owner) and one group per game.

Every handler only builds the canonical command text and hands it to the bridge; the rules,
lobby logic and permissions for game commands live in the host core. A game's group is built
from the verbs it declares (``GameSpec.verbs``) with discord.py's public decorators.
"""

from __future__ import annotations

import logging
from typing import Any, Literal

import discord
from discord import app_commands

import games
from bot.discord import autocomplete as ac
from bot.discord import bridge, delivery, schema
from bot.discord.bridge import bot_of
from bot.discord.permissions import is_owner
from games.base import GameSpec, IllegalMove
from games.schema import Verb

log = logging.getLogger(__name__)
PlayerName = app_commands.Range[str, 1, 100]


def _join(*parts: object) -> str:
    return " ".join(str(p).strip() for p in parts if p is not None and str(p).strip())


GUILD = app_commands.AppCommandContext(guild=True, dm_channel=False, private_channel=False)


class TopGroup(app_commands.Group):
    """A top-level slash group that only works in servers (``contexts: [guild]``) and never sends the
    deprecated ``dm_permission`` field, which discord.py adds to every top-level group."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("allowed_contexts", GUILD)
        super().__init__(**kwargs)

    def to_dict(self, tree: app_commands.CommandTree[Any]) -> dict[str, Any]:
        data = super().to_dict(tree)
        data.pop("dm_permission", None)
        return data


# Who sees /mod by default: members with Manage Channels (moderators by role are refused nothing, but
# see it only after a server admin allows their role under Server Settings > Integrations).
MODERATORS = discord.Permissions(manage_channels=True)
# Who sees /owner by default: administrators only (permission value 0); the bot's owner is checked at run time.
ADMINISTRATORS = discord.Permissions.none()


class GameCommands(TopGroup, name="game", description="Board games: lobby, views, help"):
    @app_commands.command(description="What this bot is, its games, how to start; this channel's game quick start")
    async def help(self, interaction: discord.Interaction) -> None:
        await bridge.slash(interaction, "/game help", private=True)

    @app_commands.command(description="Open a lobby for a new game in this channel (or in a new thread)")
    @app_commands.describe(
        game="which game",
        options="setup options as name=value words",
        thread="open the game in a new thread of this channel",
    )
    @app_commands.autocomplete(game=ac.game_slug, options=ac.new_options)
    async def new(
        self, interaction: discord.Interaction, game: str, options: str | None = None, thread: bool = False
    ) -> None:
        if thread:
            await bridge.new_in_thread(interaction, _join(game, options))
        else:
            await bridge.slash(interaction, _join("/game new", game, options))

    @app_commands.command(description="Join the lobby in this channel")
    async def join(self, interaction: discord.Interaction) -> None:
        await bridge.slash(interaction, "/game join")

    @app_commands.command(description="Leave the lobby in this channel")
    async def leave(self, interaction: discord.Interaction) -> None:
        await bridge.slash(interaction, "/game leave")

    @app_commands.command(description="Start the game (host); the server draws the seed and commits to it")
    @app_commands.describe(solo="start a one-player game without being asked to confirm")
    async def start(self, interaction: discord.Interaction, solo: bool = False) -> None:
        await bridge.slash(interaction, "/game start solo" if solo else "/game start")

    @app_commands.command(description="Who is playing, whose turn it is, the scores (only you see it)")
    async def status(self, interaction: discord.Interaction) -> None:
        await bridge.slash(interaction, "/game status", private=True)

    @app_commands.command(description="The current board (only you see it)")
    @app_commands.describe(player="focus on one player's area")
    @app_commands.autocomplete(player=ac.players)
    async def board(self, interaction: discord.Interaction, player: PlayerName | None = None) -> None:
        await bridge.slash(interaction, _join("/game board", player), private=True)

    @app_commands.command(description="Your hand / town / secret cards (only you see it)")
    async def hand(self, interaction: discord.Interaction) -> None:
        await bridge.slash(interaction, "/game hand", private=True)

    @app_commands.command(description="The last moves (only you see it)")
    @app_commands.describe(count="how many moves (default 10)")
    async def history(
        self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 100] | None = None
    ) -> None:
        await bridge.slash(interaction, _join("/game history", count), private=True)

    @app_commands.command(description="Rules of any game, or of this channel's game (only you see it)")
    @app_commands.describe(game="the game (default: this channel's)", topic="a rules topic, e.g. commands")
    @app_commands.autocomplete(game=ac.game_slug, topic=ac.rules_topic)
    async def rules(self, interaction: discord.Interaction, game: str | None = None, topic: str | None = None) -> None:
        await bridge.slash(interaction, _join("/game rules", game, topic), private=True)

    @app_commands.command(description="Resign from the game in this channel (asks you to confirm)")
    @app_commands.describe(confirm="resign at once, without the confirmation question")
    async def resign(self, interaction: discord.Interaction, confirm: bool = False) -> None:
        await bridge.slash(interaction, "/game resign confirm" if confirm else "/game resign")

    @app_commands.command(description="End the game: host alone before others move, else every player agrees")
    @app_commands.describe(keep_playing="answer no to a request to abort: the game goes on")
    async def abort(self, interaction: discord.Interaction, keep_playing: bool = False) -> None:
        await bridge.slash(interaction, "/game abort no" if keep_playing else "/game abort")

    @app_commands.command(description="Take back your last move (if nobody has acted since)")
    async def undo(self, interaction: discord.Interaction) -> None:
        await bridge.slash(interaction, "/game undo")

    @app_commands.command(description="The game as a transcript file (only you see it)")
    async def export(self, interaction: discord.Interaction) -> None:
        await bridge.slash(interaction, "/game export", private=True, long_name="game.transcript")

    @app_commands.command(description="Add an AI player to the lobby (host)")
    @app_commands.describe(level="0 = random moves, 1 = normal, 2 = strong (search)")
    async def addbot(self, interaction: discord.Interaction, level: Literal[0, 1, 2] | None = None) -> None:
        await bridge.slash(interaction, _join("/game addbot", level))

    @app_commands.command(name="list", description="Games in this server and whose turn it is")
    @app_commands.describe(page="which page (15 games a page; default 1)")
    async def list_games(
        self, interaction: discord.Interaction, page: app_commands.Range[int, 1] | None = None
    ) -> None:
        await bridge.slash(interaction, _join("/game list", page), private=True)

    @app_commands.command(description="Where it is your turn (only you see it)")
    @app_commands.describe(page="which page (15 games a page; default 1)")
    async def mygames(self, interaction: discord.Interaction, page: app_commands.Range[int, 1] | None = None) -> None:
        await bridge.slash(interaction, _join("/game mygames", page), private=True)

    @app_commands.command(description="Turn pings on or off for you")
    @app_commands.describe(on="true: ping me when it is my turn; false: no pings")
    async def pings(self, interaction: discord.Interaction, on: bool) -> None:
        await bridge.slash(interaction, f"/game pings {'on' if on else 'off'}", private=True)

    @app_commands.command(description="Games played and won, scores, what was built or bought (only you see it)")
    @app_commands.describe(player="whose statistics (default: yours)", game="one game only")
    @app_commands.autocomplete(game=ac.game_slug)
    async def stats(
        self, interaction: discord.Interaction, player: discord.Member | None = None, game: str | None = None
    ) -> None:
        who = f"<@{player.id}>" if player is not None else None
        names = {str(player.id): player.display_name} if player is not None else None
        await bridge.slash(interaction, _join("/game stats", who, game), private=True, names=names)

    @app_commands.command(description="This server's ranking of a game: ratings, bots apart, best solo scores")
    @app_commands.describe(game="which game")
    @app_commands.autocomplete(game=ac.game_slug)
    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        await bridge.slash(interaction, _join("/game leaderboard", game))


class ModCommands(
    TopGroup,
    name="mod",
    description="Moderate games: kick, skip, substitute, pause, roll back, settings",
    default_permissions=MODERATORS,
):
    config = app_commands.Group(name="config", description="Channel settings (moderators)")

    @app_commands.command(description="Remove a player from the game (kicked by a moderator)")
    @app_commands.describe(player="the player to remove")
    @app_commands.autocomplete(player=ac.players)
    async def kick(self, interaction: discord.Interaction, player: PlayerName) -> None:
        await bridge.slash(interaction, _join("/mod kick", player))

    @app_commands.command(description="Give a player's seat to another member")
    @app_commands.describe(player="the seat to hand over", new="who takes it over")
    @app_commands.autocomplete(player=ac.players)
    async def substitute(self, interaction: discord.Interaction, player: PlayerName, new: discord.Member) -> None:
        await bridge.slash(
            interaction, _join("/mod substitute", player, f"<@{new.id}>"), names={str(new.id): new.display_name}
        )

    @app_commands.command(description="End a stuck player's turn or phase with the game's declared skip move")
    @app_commands.describe(player="whose turn to skip (default: the first player who must act)")
    @app_commands.autocomplete(player=ac.players)
    async def skip(self, interaction: discord.Interaction, player: PlayerName | None = None) -> None:
        await bridge.slash(interaction, _join("/mod skip", player))

    @app_commands.command(description="Pause the game (moves, bots and reminders wait), or resume it")
    @app_commands.describe(resume="true to resume a paused game")
    async def pause(self, interaction: discord.Interaction, resume: bool = False) -> None:
        await bridge.slash(interaction, "/mod pause off" if resume else "/mod pause")

    @app_commands.command(description="Hand a player's seat to an AI player")
    @app_commands.describe(
        player="the seat to hand to the AI", level="0 = random moves, 1 = normal, 2 = strong (search)"
    )
    @app_commands.autocomplete(player=ac.players)
    async def replacebot(
        self, interaction: discord.Interaction, player: PlayerName, level: Literal[0, 1, 2] | None = None
    ) -> None:
        await bridge.slash(interaction, _join("/mod replacebot", player, level))

    @app_commands.command(description="Roll the game back to an earlier move")
    @app_commands.describe(move="keep the moves up to and including this number")
    async def rollback(self, interaction: discord.Interaction, move: app_commands.Range[int, 0, 100000]) -> None:
        await bridge.slash(interaction, _join("/mod rollback", move))

    @app_commands.command(description="Abort the channel's game at once")
    async def abort(self, interaction: discord.Interaction) -> None:
        await bridge.slash(interaction, "/mod abort")

    @config.command(name="show", description="Show this channel's settings")
    async def config_show(self, interaction: discord.Interaction) -> None:
        await bridge.slash(interaction, "/mod config show", private=True)

    @config.command(name="reminder", description="Remind waiting players after this many idle hours")
    @app_commands.describe(hours="hours, or off")
    async def config_reminder(self, interaction: discord.Interaction, hours: app_commands.Range[str, 1, 10]) -> None:
        await bridge.slash(interaction, f"/mod config reminder {hours}", private=True)

    @config.command(name="deadline", description="Offer moderators skip / bot / kick after this many hours")
    @app_commands.describe(hours="hours, or off")
    async def config_deadline(self, interaction: discord.Interaction, hours: app_commands.Range[str, 1, 10]) -> None:
        await bridge.slash(interaction, f"/mod config deadline {hours}", private=True)

    @config.command(name="lobby", description="Close lobbies that have not started after this many days")
    @app_commands.describe(days="days (default 7)")
    async def config_lobby(self, interaction: discord.Interaction, days: app_commands.Range[str, 1, 10]) -> None:
        await bridge.slash(interaction, f"/mod config lobby {days}", private=True)

    @config.command(name="modrole", description="Members with this role moderate games (omit to clear)")
    @app_commands.describe(role="the moderator role; leave it out to clear the setting")
    async def config_modrole(self, interaction: discord.Interaction, role: discord.Role | None = None) -> None:
        await bridge.slash(interaction, f"/mod config modrole {f'<@&{role.id}>' if role else 'off'}", private=True)


class OwnerCommands(
    TopGroup,
    name="owner",
    description="Bot owner tools",
    default_permissions=ADMINISTRATORS,
):
    @app_commands.command(description="Register the slash commands with Discord (bot owner)")
    @app_commands.describe(everywhere="true: register globally (up to an hour); false: this server only (instant)")
    async def sync(self, interaction: discord.Interaction, everywhere: bool = False) -> None:
        await owner_sync(interaction, everywhere)


# ----- per-game groups ------------------------------------------------------------------


def game_group(spec: GameSpec) -> app_commands.Group:
    """``/tt``: one subcommand per declared verb. ValueError if Discord would refuse the declaration."""
    problems = schema.problems(spec)
    if problems:
        raise ValueError("; ".join(problems))
    group = TopGroup(name=spec.command_group, description=f"{spec.name} moves"[:100])
    for verb in spec.verbs:
        group.add_command(verb_command(spec, verb))
    return group


def _is_secret(spec: GameSpec, text: str) -> bool:
    """A secret move (keeping a monument) is answered privately, so Discord never shows the
    channel "ann used /tt monument name: ..."; this is decided before the core answers, because
    the visibility of the deferred answer is chosen first."""
    if spec.hidden_move is None:
        return False
    try:
        return spec.hidden_move(spec.parse(text))
    except IllegalMove:
        return False


def verb_command(spec: GameSpec, verb: Verb) -> app_commands.Command[Any, ..., None]:
    """A subcommand whose options are the verb's declared slots; their values are joined into the move text.

    discord.py reads the options from the callback's signature, which is generated here (see
    ``schema.signature``); descriptions, option names and autocomplete go through its public decorators.
    """

    async def callback(interaction: discord.Interaction, **values: str | int | None) -> None:
        text = schema.command_text(spec, verb, values)
        await bridge.slash(interaction, text, private=_is_secret(spec, text))

    callback.__signature__ = schema.signature(verb)  # type: ignore[attr-defined]
    slots = schema.parameter_names(verb)
    if slots:
        app_commands.describe(**{key: slot.description for key, slot in slots.items()})(callback)
        app_commands.rename(**{key: slot.name for key, slot in slots.items()})(callback)
    completers = {
        key: ac.move_option(spec.command_group, verb, slot) for key, slot in slots.items() if slot.autocomplete
    }
    if completers:
        app_commands.autocomplete(**completers)(callback)
    return app_commands.Command(name=verb.name, description=verb.description, callback=callback)


def playable_games() -> list[GameSpec]:
    """Every registered game that loads; a broken package is skipped (the registry logs it), not fatal."""
    return [manifest.spec for manifest in games.manifests()]


def build_tree(client: discord.Client) -> app_commands.CommandTree[Any]:
    tree: app_commands.CommandTree[Any] = app_commands.CommandTree(client)
    tree.add_command(GameCommands())
    tree.add_command(ModCommands())
    tree.add_command(OwnerCommands())
    for spec in playable_games():
        try:
            tree.add_command(game_group(spec))
        except Exception:
            log.exception("could not build the command group of %s; skipped", spec.slug)
    return tree


async def sync_tree(tree: app_commands.CommandTree[Any], guild_id: int | None) -> int:
    """Register the tree globally, or copied to one guild (instant, for development)."""
    if guild_id is None:
        return len(await tree.sync())
    guild = discord.Object(id=guild_id)
    tree.copy_global_to(guild=guild)
    try:
        return len(await tree.sync(guild=guild))
    finally:
        tree.clear_commands(guild=guild)  # keep the in-memory tree global-only


async def owner_sync(interaction: discord.Interaction, everywhere: bool) -> None:
    """``/owner sync``: only the bot's owner may re-register commands (it is rate limited by Discord)."""
    if not await delivery.defer(interaction, ephemeral=True, thinking=True):
        return
    bot = bot_of(interaction)
    if not await is_owner(interaction, bot.settings.owner_ids):
        await delivery.edit_original(interaction, delivery.Outgoing("Only the bot's owner can sync commands."))
        return
    try:
        count = await sync_tree(bot.tree, None if everywhere else interaction.guild_id)
    except discord.HTTPException as exc:
        log.warning("command sync failed: %s", exc)
        text = f"Discord refused the command list ({exc.status}); see the bot's log."
    else:
        text = f"Registered {count} commands {'globally (may take up to an hour)' if everywhere else 'in this server'}."
    await delivery.edit_original(interaction, delivery.Outgoing(text))
