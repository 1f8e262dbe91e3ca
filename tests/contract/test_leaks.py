"""Secrets stay secret on every output (issue 9, item 2): the leak harness of ``leaks.py`` plays one
seeded game of every registered game (and the plugin test game) through the host core and checks
everything a player and an onlooker can obtain. See ``tests/contract/leaks.py`` for how.

Each game is played once per session; its tests read the shared result.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest

import bot.commit
import games
from bot.command_table import COMMANDS
from bot.host import Change, Ctx
from bot.replies import Reply
from tests.contract import leaks
from tests.contract.leaks import LeakCase, Result
from tests.contract.registry import PLUGIN_SLUG, find_redeal, plugin_registered

CASES = leaks.leak_cases()


def ids(case: LeakCase) -> str:
    return case.id


@pytest.fixture
def played(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Result:
    case: LeakCase = request.param
    return leaks.result(case, lambda: tmp_path_factory.mktemp(case.id))


def report(found: list[str], result: Result) -> str:
    shown = "\n  ".join(found[:8])
    more = f"\n  ... and {len(found) - 8} more" if len(found) > 8 else ""
    return f"{result.case.id}: {len(found)} leak(s)\n  {shown}{more}"


@pytest.mark.parametrize("played", CASES, ids=ids, indirect=True)
def test_private_text_reaches_only_its_owner(played: Result) -> None:
    """What an engine says to one seat (``You keep …``, ``You drew: …``) reaches that seat's owner
    only: never the moderator who skipped them, the player whose move a bot answered, or the
    channel; and no refusal is posted in the channel."""
    assert not played.findings["private"], report(played.findings["private"], played)


@pytest.mark.parametrize("played", CASES, ids=ids, indirect=True)
def test_no_seed_and_no_secret_move_before_the_end(played: Result) -> None:
    """Before the end no output (exports, history, posts, menus, images' text) holds the seed, its
    salt or an RNG cursor, and nobody but its author sees the text of a secret move (undo, skip,
    history and export included)."""
    assert not played.findings["secrets"], report(played.findings["secrets"], played)


@pytest.mark.parametrize("played", CASES, ids=ids, indirect=True)
def test_nothing_a_player_obtains_depends_on_the_others_secrets(played: Result) -> None:
    """ann's whole experience is the same when every other seat's secrets are dealt afresh."""
    found = played.findings[f"redeal {leaks.ANN.name}"]
    assert not found, report(found, played)


@pytest.mark.parametrize("played", CASES, ids=ids, indirect=True)
def test_nothing_an_onlooker_obtains_depends_on_any_secret(played: Result) -> None:
    """zed, watching without playing, obtains the same when every seat's secrets are dealt afresh."""
    found = played.findings[f"redeal {leaks.ZED.name}"]
    assert not found, report(found, played)


@pytest.mark.parametrize("played", CASES, ids=ids, indirect=True)
def test_the_harness_played_everything(played: Result) -> None:
    """A check that never ran proves nothing: every kind of command happened, the game ended, and
    the redeal check compared steps for both viewers."""
    case = played.case
    with plugin_registered():
        spec = games.get_game(case.slug)
        redeal = find_redeal(case.slug)
    wanted = {"refused", "skip", "substitute", "timer"}
    if case.windows == leaks.WINDOW_AT:
        # The secret-bringing option set of each game must reach everything; other option sets may
        # bring no secret move at all (Tiny Towns without monuments) or end before the kick.
        wanted |= {"a rival moderator skips ann", "kick"}
        if case.players == spec.max_players and case.players >= 2:
            wanted.add("bot")
        if spec.hidden_move is not None:
            wanted |= {"secret move", "undo of a secret move", "skip after a secret move"}
    assert wanted <= played.coverage, f"{case.id}: never did {sorted(wanted - played.coverage)}"
    assert played.finished, f"{case.id}: the game did not end"
    if redeal is not None:
        assert all(played.compared.values()), f"{case.id}: nothing compared: {played.compared}\n" + "\n".join(
            played.windows
        )


# ----------------------------------------------------------------- the harness has teeth


@pytest.fixture
def sabotaged(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A host with four leaks planted at once: every private line goes to whoever typed the command,
    undo echoes the move it takes back, and ``/game status`` shows the seed and the dice in all
    hands (Dice Duel)."""

    def describe(change: Change, batches: list[tuple[int | None, list[Any]]]) -> tuple[str, str, bool]:
        public, private, board = real_describe(change, batches)
        lines = [e["private"]["text"] for _, events in batches for e in events if e.get("private")]
        return public, "\n".join([private, *lines]).strip(), board

    real = {name: COMMANDS[name].handler for name in ("undo", "status")}

    async def undo(ctx: Ctx) -> Reply | Change:
        result = await real["undo"](ctx)
        if isinstance(result, Change):
            moves = await ctx.store.moves(ctx.game.row.id)
            result.public += " " + next(m.text for m in reversed(moves) if m.user_id == ctx.actor.user_id)
        return result

    async def status(ctx: Ctx) -> Reply | Change:
        result = await real["status"](ctx)
        state = ctx.game.row.state
        if isinstance(result, Reply) and state is not None:
            dice = sum(sum(player["hand"]) for player in state["players"])
            result.private += f"\nseed {ctx.game.row.seed}, {dice} pips in hands"
        return result

    real_describe = bot.commit.describe
    monkeypatch.setattr(bot.commit, "describe", describe)
    for name, handler in (("undo", undo), ("status", status)):
        monkeypatch.setitem(COMMANDS, name, dataclasses.replace(COMMANDS[name], handler=handler))
    yield


@pytest.mark.usefixtures("sabotaged")
def test_the_harness_catches_planted_leaks(tmp_path: Any) -> None:
    case = next(case for case in CASES if case.slug == PLUGIN_SLUG)
    with plugin_registered():
        found = asyncio.run(leaks.main_run(case, tmp_path)).findings
    assert any("private line" in f for f in found["private"]), found["private"][:3]
    assert any("the seed" in f for f in found["secrets"]), found["secrets"][:3]
    assert any("secret move `stash" in f and "the channel" in f for f in found["secrets"]), found["secrets"][:3]
    assert found["redeal ann"] and found["redeal zed"], (found["redeal ann"][:1], found["redeal zed"][:1])
