"""Every ``/game`` verb, once: who may use it, which game it works on, its typed arguments and
its handler. ``Conductor`` looks a verb up here, checks the permission, parses the arguments
(refusing with a specific message) and runs the handler."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

from bot import community, lobby, moderation, table
from bot import replies as R
from bot.host import Change, Ctx, Refusal
from bot.names import AmbiguousPlayer, shown
from bot.replies import Reply

# anyone; player: seated in the game; host: the game's host or a moderator; moderator: moderators only.
Permission = Literal["anyone", "player", "host", "moderator"]
# nothing: no game needed; open: the channel's lobby or active game; latest: also its last finished one.
Needs = Literal["nothing", "open", "latest"]
Handler = Callable[[Ctx], Awaitable[Reply | Change]]
ArgParser = Callable[[list[str], Ctx], Any]
BOT_LEVELS = ("0", "1", "2")
# Every count and move number a game reaches fits in this many digits; more is a typo or an attack
# (int() refuses strings of more than 4,300 digits).
MAX_DIGITS = 6


def no_args(words: list[str], ctx: Ctx) -> None:
    return None


def words(words: list[str], ctx: Ctx) -> list[str]:
    return words


def whole_number(word: str, what: str, usage: str) -> int:
    """``word`` as a whole number: ASCII digits only, at most ``MAX_DIGITS`` of them; otherwise a
    refusal that names ``what`` and ends with ``usage``. (``str.isdigit`` also takes "²", which int()
    then rejects, and int() reads "٣" as 3.)"""
    if not (word.isascii() and word.isdigit()):
        raise Refusal(R.BAD_COMMAND, f'{what} is written with the digits 0-9, not "{shown(word)}". {usage}')
    if len(word) > MAX_DIGITS:
        raise Refusal(R.BAD_COMMAND, f"{what} has at most {MAX_DIGITS} digits. {usage}")
    return int(word)


def _player(word: str, ctx: Ctx) -> int:
    """The seat ``word`` names; refused when it names nobody, or two seats by their shared name."""
    try:
        seat = ctx.game.find_seat(word)
    except AmbiguousPlayer as ambiguous:
        raise Refusal(R.BAD_COMMAND, ambiguous.message) from None
    if seat is None:
        raise Refusal(R.BAD_COMMAND, f'No player "{shown(word)}" here. Players: {", ".join(ctx.game.names)}.')
    return seat


def player(usage: str) -> ArgParser:
    def parse(words: list[str], ctx: Ctx) -> int:
        if not words:
            raise Refusal(R.BAD_COMMAND, usage)
        return _player(words[0], ctx)

    return parse


def board_focus(words: list[str], ctx: Ctx) -> int | None:
    return _player(words[0], ctx) if words else None


def optional_player_word(words: list[str], ctx: Ctx) -> str | None:
    """The player word as typed (the handler looks it up), once it names exactly one seat."""
    if not words:
        return None
    _player(words[0], ctx)
    return words[0]


def history_count(words: list[str], ctx: Ctx) -> int:
    if not words:
        return 10
    usage = "Use `/game history <number of moves>`, e.g. `/game history 20` (at most 100 are shown)."
    count = whole_number(words[0], "The number of moves", usage)
    if count < 1:
        raise Refusal(R.BAD_COMMAND, f"History shows at least 1 move. {usage}")
    return min(count, 100)


def page_number(command: str) -> ArgParser:
    def parse(words: list[str], ctx: Ctx) -> int:
        if not words:
            return 1
        usage = f"Use `{command} <page>`, e.g. `{command} 2`."
        page = whole_number(words[0], "The page number", usage)
        if page < 1:
            raise Refusal(R.BAD_COMMAND, f"Pages are numbered from 1. {usage}")
        return page

    return parse


def move_number(words: list[str], ctx: Ctx) -> int | None:
    """None without a number: the handler knows the log's length and words that refusal with the
    allowed range (and refuses numbers past the end)."""
    if not words:
        return None
    return whole_number(words[0], "A move number", "Use `/mod rollback <move number>`, e.g. `/mod rollback 12`.")


def bot_level(words: list[str], ctx: Ctx) -> int:
    if not words:
        return 1
    if words[0] not in BOT_LEVELS:
        raise Refusal(R.BAD_COMMAND, f'Bot level is 0 (random), 1 (normal) or 2 (strong), not "{shown(words[0])}".')
    return int(words[0])


def on_off(usage: str) -> ArgParser:
    def parse(words: list[str], ctx: Ctx) -> str:
        if not words or words[0].lower() not in ("on", "off"):
            raise Refusal(R.BAD_COMMAND, usage)
        return words[0].lower()

    return parse


def pause_wanted(words: list[str], ctx: Ctx) -> bool:
    if len(words) > 1 or (words and words[0].lower() not in ("on", "off")):
        raise Refusal(R.BAD_COMMAND, "Use `/mod pause` to pause and `/mod pause off` to resume.")
    return not words or words[0].lower() == "on"


def substitution(words: list[str], ctx: Ctx) -> tuple[int, str]:
    usage = "Use `/mod substitute <old player> <new player>`."
    if len(words) != 2:
        raise Refusal(R.BAD_COMMAND, usage)
    return _player(words[0], ctx), words[1]


def replacement(words: list[str], ctx: Ctx) -> tuple[int, int]:
    if ctx.game.row.status != "active":
        raise Refusal(R.NOT_STARTED, "Only a game in progress can get a bot player; in the lobby use `/game addbot`.")
    if not words or len(words) > 2:
        raise Refusal(R.BAD_COMMAND, "Use `/mod replacebot <player> [0|1]`.")
    return _player(words[0], ctx), bot_level(words[1:], ctx)


@dataclass(frozen=True)
class GameCommand:
    name: str
    permission: Permission
    needs: Needs
    handler: Handler
    args: ArgParser = no_args
    denied: str = ""  # the refusal when the permission check fails
    group: str = "game"  # its slash group: /game (everyone) or /mod (moderators)


def start_options(words: list[str], ctx: Ctx) -> bool:
    """``/game start`` or ``/game start solo`` (True: start alone without asking). Nobody picks the
    seed: the server draws it and commits to it publicly (bot/fairness.py)."""
    if words == ["solo"]:
        return True
    if words:
        raise Refusal(
            R.BAD_COMMAND,
            "`/game start` takes no options (`/game start solo` starts a one-player game without asking): the "
            "server draws the seed, posts a commitment to it, and reveals it when the game ends.",
        )
    return False


def confirm_word(usage: str) -> ArgParser:
    def parse(words: list[str], ctx: Ctx) -> bool:
        if words and words != ["confirm"]:
            raise Refusal(R.BAD_COMMAND, usage)
        return bool(words)

    return parse


def abort_answer(words: list[str], ctx: Ctx) -> bool:
    """``/game abort`` (ask, or agree) or ``/game abort no`` (keep playing)."""
    if len(words) > 1 or (words and words[0].lower() not in ("no", "yes")):
        raise Refusal(R.BAD_COMMAND, "Use `/game abort` to ask or agree, `/game abort no` to keep playing.")
    return not words or words[0].lower() == "yes"


def help_words(words: list[str], ctx: Ctx) -> None:
    if words:
        raise Refusal(
            R.BAD_COMMAND, "`/game help` takes no words; rules topics are under `/game rules <game> <topic>`."
        )


# Everyone's commands, under /game.
COMMANDS: dict[str, GameCommand] = {
    c.name: c
    for c in (
        GameCommand("help", "anyone", "latest", table.help_text, help_words),
        GameCommand("new", "anyone", "nothing", lobby.new, words),
        GameCommand("join", "anyone", "open", lobby.join),
        GameCommand("leave", "player", "open", lobby.leave, denied="You are not in this game."),
        GameCommand("start", "host", "open", lobby.start, start_options, "Only the host ({host}) can start the game."),
        GameCommand("status", "anyone", "latest", table.status),
        GameCommand("board", "anyone", "latest", table.board, board_focus),
        GameCommand("hand", "anyone", "latest", table.hand),
        GameCommand("history", "anyone", "latest", table.history, history_count),
        GameCommand("rules", "anyone", "latest", table.rules, words),
        GameCommand(
            "resign",
            "player",
            "open",
            table.resign,
            confirm_word("Use `/game resign` (you are asked to confirm) or `/game resign confirm`."),
        ),
        GameCommand("abort", "anyone", "open", moderation.abort, abort_answer),
        GameCommand("undo", "anyone", "open", table.undo),
        GameCommand("export", "anyone", "latest", table.export_game),
        GameCommand("addbot", "host", "open", lobby.addbot, bot_level, "Only the host can add bots."),
        GameCommand("list", "anyone", "nothing", lobby.list_games, page_number("/game list")),
        GameCommand("mygames", "anyone", "nothing", lobby.mygames, page_number("/game mygames")),
        GameCommand("pings", "anyone", "nothing", lobby.pings, on_off("Use `/game pings on` or `/game pings off`.")),
        GameCommand("stats", "anyone", "nothing", community.stats, community.stats_args),
        GameCommand("leaderboard", "anyone", "nothing", community.leaderboard, community.leaderboard_args),
    )
}

# Moderators' commands, under /mod (a top-level group, so Discord can hide it from members without
# Manage Channels; the permission is still checked here for every call).
MOD_COMMANDS: dict[str, GameCommand] = {
    c.name: c
    for c in (
        GameCommand("kick", "moderator", "open", moderation.kick, player("Whom? `/mod kick <player>`."), group="mod"),
        GameCommand("substitute", "moderator", "open", moderation.substitute, substitution, group="mod"),
        GameCommand("skip", "moderator", "open", moderation.skip, optional_player_word, group="mod"),
        GameCommand("rollback", "moderator", "latest", table.rollback, move_number, group="mod"),
        GameCommand("replacebot", "moderator", "open", moderation.replacebot, replacement, group="mod"),
        GameCommand("pause", "moderator", "open", moderation.pause, pause_wanted, group="mod"),
        GameCommand("abort", "moderator", "open", moderation.mod_abort, group="mod"),
        GameCommand("config", "moderator", "nothing", lobby.config, words, group="mod"),
    )
}

GROUPS: dict[str, dict[str, GameCommand]] = {"game": COMMANDS, "mod": MOD_COMMANDS}


def find_command(group: str, verb: str) -> GameCommand | None:
    """The command ``/group verb``. The moderator verbs that used to live under /game
    (``/game kick bob``) are still accepted there, as aliases of ``/mod ...``, so older
    transcripts and habits keep working; Discord only offers the /mod ones."""
    found = GROUPS.get(group, {}).get(verb)
    if found is None and group == "game" and verb in MOD_COMMANDS:
        return MOD_COMMANDS[verb]
    return found


def permission_refusal(command: GameCommand, ctx: Ctx) -> Reply | None:
    """None when ``ctx.actor`` may use ``command`` on ``ctx.table``."""
    actor = ctx.actor
    if command.permission == "moderator" and not actor.is_moderator:
        return Reply.refuse(
            R.FORBIDDEN,
            f"Only moderators (Manage Channels or the moderator role) can use /{command.group} {command.name}.",
        )
    game = ctx.table
    if game is None or actor.is_moderator:
        return None
    if command.permission == "host" and actor.user_id != game.row.host_id:
        host = next((s.display_name for s in game.seats if s.user_id == game.row.host_id), "the host")
        return game.refuse(R.FORBIDDEN, command.denied.format(host=host) or "Only the host can do that.")
    if command.permission == "player" and game.seat_of(actor.user_id) is None:
        return game.refuse(R.NOT_PLAYER, command.denied or "You are not playing in this game.")
    return None
