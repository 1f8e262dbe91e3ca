"""Buttons and select menus.

Every ``custom_id`` carries the game id, the game's version when the component was drawn
and an action, so a click is self-contained: it works after a restart (``DynamicItem``
templates are registered at start-up) and a click on an old board is recognised as stale.

    tcb:<game>:<version>:<action>[:<arg>]     buttons (arg: a verb, a user id, or words joined by _)
    tcs:<game>:<version>                       the "choose a move" select menu

Select values are either a full command text (``/tt place B2``) or ``><offset>:<prefix>``
to open a group of moves that share a prefix (page ``offset``).

A click reaches its handler through the client (``ComponentHandler``, provided by
``ConductorBot``): the items are registered once at start-up and know nothing of the host.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import discord

from bot.discord import delivery

log = logging.getLogger(__name__)

MAX_ROWS, MAX_BUTTONS, MAX_OPTIONS, MAX_ID = 5, 5, 25, 100
BUTTON_TEMPLATE = (
    r"tcb:(?P<game>[0-9]{1,19}):(?P<version>[0-9]{1,9}):(?P<action>[a-z]{1,8})"
    r"(?::(?P<arg>[A-Za-z0-9_-]{1,40}))?"
)
SELECT_TEMPLATE = r"tcs:(?P<game>[0-9]{1,19}):(?P<version>[0-9]{1,9})"

# action -> (label, style)
ACTIONS: dict[str, tuple[str, discord.ButtonStyle]] = {
    "join": ("Join", discord.ButtonStyle.success),
    "start": ("Start", discord.ButtonStyle.primary),
    "addbot": ("Add a bot", discord.ButtonStyle.secondary),
    "pick": ("Choose a move", discord.ButtonStyle.primary),
    "mv": ("Move", discord.ButtonStyle.secondary),
    "undo": ("Undo", discord.ButtonStyle.secondary),
    "hand": ("My hand / town", discord.ButtonStyle.secondary),
    "skip": ("Skip", discord.ButtonStyle.secondary),
    "repl": ("Replace with bot", discord.ButtonStyle.secondary),
    "kick": ("Kick", discord.ButtonStyle.danger),
    "cmd": ("OK", discord.ButtonStyle.secondary),
}
VERB_LABELS = {"done": "Done", "pass": "Pass", "end": "End turn"}


@runtime_checkable
class ComponentHandler(Protocol):
    """What a client must offer for the game buttons and menus to do something."""

    async def on_game_button(
        self, interaction: discord.Interaction, game_id: int, version: int, action: str, arg: str
    ) -> None: ...

    async def on_game_select(
        self, interaction: discord.Interaction, game_id: int, version: int, value: str
    ) -> None: ...


async def _handler(interaction: discord.Interaction) -> ComponentHandler | None:
    """The client's click handler; without one (a client that only syncs commands) the click is refused."""
    client = interaction.client
    if isinstance(client, ComponentHandler):
        return client
    log.warning("component clicked on a client without a handler (%s)", type(client).__name__)
    await delivery.attempt(
        interaction.response.send_message("This button does nothing here.", ephemeral=True), "click without handler"
    )
    return None


def button_id(game_id: int, version: int, action: str, arg: str = "") -> str:
    return f"tcb:{game_id}:{version}:{action}" + (f":{arg}" if arg else "")


def select_id(game_id: int, version: int) -> str:
    return f"tcs:{game_id}:{version}"


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_TEMPLATE):
    def __init__(
        self,
        game_id: int,
        version: int,
        action: str,
        arg: str = "",
        *,
        label: str = "",
        style: discord.ButtonStyle | None = None,
        row: int | None = None,
    ) -> None:
        default_label, default_style = ACTIONS.get(action, (action, discord.ButtonStyle.secondary))
        super().__init__(
            discord.ui.Button(
                label=_clip(label or default_label, 80),
                style=style or default_style,
                custom_id=button_id(game_id, version, action, arg),
            ),
            row=row,
        )
        self.game_id, self.version, self.action, self.arg = game_id, version, action, arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> GameButton:
        return cls(
            int(match["game"]),
            int(match["version"]),
            match["action"],
            match["arg"] or "",
            label=str(getattr(item, "label", "") or ""),
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        handler = await _handler(interaction)
        if handler is not None:
            await handler.on_game_button(interaction, self.game_id, self.version, self.action, self.arg)


class MoveSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE):
    def __init__(
        self,
        game_id: int,
        version: int,
        options: Sequence[discord.SelectOption] = (),
        placeholder: str = "Choose your move",
    ) -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=select_id(game_id, version),
            placeholder=_clip(placeholder, 150),
            options=list(options)[:MAX_OPTIONS] or [discord.SelectOption(label="(nothing)", value="-")],
        )
        super().__init__(select)
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> MoveSelect:
        return cls(int(match["game"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        handler = await _handler(interaction)
        if handler is not None:
            values = self.item.values
            await handler.on_game_select(interaction, self.game_id, self.version, values[0] if values else "")


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (GameButton, MoveSelect)


# ----- view factories -------------------------------------------------------------------


def game_view(
    game_id: int,
    version: int,
    status: str,
    turn_enders: Sequence[str] = (),
    quick_moves: Sequence[tuple[str, str]] = (),
    prompt: Sequence[tuple[str, str]] = (),
) -> discord.ui.View | None:
    """Buttons under a public board or lobby message; None for finished games. ``turn_enders``: the
    game's bare turn-ending verbs (``Reply.turn_enders``), one button each; ``quick_moves``: the
    game's one-click moves (label, bare move text); ``prompt``: the reply's own buttons (a vote)."""
    buttons: list[discord.ui.Item[Any]]
    if status == "lobby":
        buttons = [GameButton(game_id, version, a, row=0) for a in ("join", "start", "addbot")]
    elif status == "active":
        buttons = [GameButton(game_id, version, "pick", row=0)]
        buttons += [
            GameButton(game_id, version, "mv", verb, label=VERB_LABELS.get(verb, verb.capitalize()), row=0)
            for verb in list(turn_enders)[:3]
        ]
        buttons.append(GameButton(game_id, version, "undo", row=1))
        buttons.append(GameButton(game_id, version, "hand", row=1))
        for label, text in list(quick_moves)[:3]:
            arg = words_arg(text)
            if arg:
                buttons.append(GameButton(game_id, version, "mv", arg, label=label, row=1))
    else:
        return None
    buttons += prompt_buttons(game_id, version, prompt, row=2)
    return _view(buttons)


def words_arg(text: str) -> str:
    """A short command text as a button argument: words joined by ``_`` ("" if it does not fit)."""
    arg = "_".join(text.split())
    return arg if re.fullmatch(r"[A-Za-z0-9_-]{1,40}", arg) else ""


def arg_words(arg: str) -> str:
    return " ".join(arg.split("_"))


def prompt_buttons(
    game_id: int, version: int, prompt: Sequence[tuple[str, str]], row: int = 0
) -> list[discord.ui.Item[Any]]:
    """A reply's confirmation or vote buttons ((label, ``/game ...`` text)); the first is the primary one."""
    buttons: list[discord.ui.Item[Any]] = []
    for i, (label, text) in enumerate(list(prompt)[:MAX_BUTTONS]):
        words = text.split()
        arg = words_arg(" ".join(words[1:])) if words and words[0] == "/game" else ""
        if arg:
            style = discord.ButtonStyle.primary if i == 0 else discord.ButtonStyle.secondary
            buttons.append(GameButton(game_id, version, "cmd", arg, label=label, style=style, row=row))
    return buttons


def prompt_view(game_id: int, version: int, prompt: Sequence[tuple[str, str]]) -> discord.ui.View | None:
    buttons = prompt_buttons(game_id, version, prompt)
    return _view(buttons) if buttons else None


def deadline_view(game_id: int, version: int, waiting: Sequence[tuple[str, str]]) -> discord.ui.View:
    """Moderator buttons per waiting player (user id, name): skip, replace with a bot, kick."""
    buttons: list[discord.ui.Item[Any]] = []
    for row, (user_id, name) in enumerate(list(waiting)[:MAX_ROWS]):
        arg = user_id if re.fullmatch(r"[A-Za-z0-9_-]{1,40}", user_id) else ""
        if not arg:
            continue
        short = _clip(name, 40)
        buttons += [
            GameButton(game_id, version, "skip", arg, label=f"Skip {short}", row=row),
            GameButton(game_id, version, "repl", arg, label=f"Bot for {short}", row=row),
            GameButton(game_id, version, "kick", arg, label=f"Kick {short}", row=row),
        ]
    return _view(buttons)


@dataclass(frozen=True)
class Choices:
    """One page of the move chooser."""

    options: list[tuple[str, str]]  # (label, value)
    total: int  # moves under the prefix
    hidden: int  # moves that cannot be offered here (value too long)


def chooser_page(moves: Sequence[str], prefix: str = "", offset: int = 0) -> Choices:
    """Options for the moves starting with ``prefix``: the moves themselves when they fit in one
    menu, else groups by their next word (opened with ``>offset:prefix`` values), 24 per page."""
    words = [m.split() for m in moves]
    depth = len(prefix.split())
    under = [w for w in words if [x.lower() for x in w[:depth]] == [x.lower() for x in prefix.split()]]
    if not prefix and under:
        depth = 1  # everything starts with the same /group word
    # Descend while every move shares the next word, so each page shows a real choice.
    while (
        len(under) > MAX_OPTIONS
        and len({tuple(w[: depth + 1]) for w in under}) == 1
        and all(len(w) > depth for w in under)
    ):
        depth += 1
    prefix_words = under[0][:depth] if under else prefix.split()
    items: list[tuple[str, str]] = []
    hidden = 0
    if len(under) <= MAX_OPTIONS and offset == 0:
        leaves = [" ".join(w) for w in under]
        items = [(_label(m), m) for m in leaves if len(m) <= MAX_ID]
        hidden = len(leaves) - len(items)
        return Choices(items, len(under), hidden)
    groups: dict[str, list[list[str]]] = {}
    for w in under:
        groups.setdefault(w[depth].lower() if len(w) > depth else "", []).append(w)
    for key, members in groups.items():
        if len(members) == 1 or not key:
            for m in (" ".join(w) for w in members):
                if len(m) <= MAX_ID:
                    items.append((_label(m), m))
                else:
                    hidden += 1
            continue
        group_prefix = " ".join([*prefix_words, members[0][depth]])
        value = f">0:{group_prefix}"
        if len(value) <= MAX_ID:
            items.append((_clip(f"{_label(group_prefix)} … ({len(members)} moves)", 100), value))
        else:
            hidden += len(members)
    if len(items) <= MAX_OPTIONS and offset == 0:
        return Choices(items, len(under), hidden)
    page = items[offset : offset + MAX_OPTIONS - 1]
    if offset + MAX_OPTIONS - 1 < len(items):
        more = f">{offset + MAX_OPTIONS - 1}:{' '.join(prefix_words)}"
        if len(more) <= MAX_ID:
            page.append((f"More… ({len(items) - offset - MAX_OPTIONS + 1} more)", more))
    return Choices(page, len(under), hidden)


def chooser_view(game_id: int, version: int, choices: Choices) -> discord.ui.View:
    options = [discord.SelectOption(label=_clip(label, 100), value=value) for label, value in choices.options]
    return _view([MoveSelect(game_id, version, options)])


def _label(text: str) -> str:
    """``/tt build cottage A1 B1`` -> ``build cottage A1 B1`` (the group is the same for every move)."""
    words = text.split()
    return _clip(" ".join(words[1:]) if len(words) > 1 else text, 100)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _view(items: Sequence[discord.ui.Item[Any]]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view
