"""Engine-level transcript replayer for the Trains tests and the transcript generator.

Format (shared with bot/transcript.py): header lines ``game:``, ``seed:``, ``players:``,
``options:``; then ``name: /command`` lines (``!name:`` must be rejected), ``#`` comments,
and an optional final ``standings: ann=28 bob=19`` line in rank order.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from games.base import IllegalMove
from games.options import parse_options
from games.trains import GAME


def replay(
    path: Path,
    on_move: Callable[[dict[str, Any], dict[str, Any]], None] | None = None,
) -> tuple[dict[str, Any], str | None]:
    """Replay a transcript; returns the final state and the expected standings text (if any).

    ``on_move(before, after)`` is called after every accepted move.
    """
    header: dict[str, str] = {}
    state: dict[str, Any] | None = None
    names: list[str] = []
    expected: str | None = None
    for number, raw in enumerate(path.read_text().splitlines(), start=1):
        if raw.startswith("# expect (game in progress):"):
            # Scenarios that stop mid-game state their current standings in a comment, since
            # a standings line promises a finished game.
            expected = raw.split(":", 1)[1].strip()
            continue
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, _, rest = line.partition(":")
        rest = rest.strip()
        if key in ("game", "seed", "players", "options") and state is None:
            header[key] = rest
            continue
        if key == "standings":
            expected = rest
            continue
        if state is None:
            assert header.get("game") == "trains", f"{path}: not a trains transcript"
            names = [n.strip() for n in header["players"].split(",")]
            options = parse_options(header.get("options", ""), GAME.options)
            state = GAME.setup(names, options, int(header["seed"]))
        must_fail = key.startswith("!")
        seat = names.index(key.lstrip("!"))
        before = state
        try:
            if rest in ("/game resign", "/game resign confirm"):
                state, _ = GAME.resign(state, seat)
            else:
                state, _ = GAME.apply(state, seat, GAME.parse(rest))
            if on_move is not None and not must_fail:
                on_move(before, state)
        except IllegalMove:
            if must_fail:
                continue
            raise AssertionError(f"{path}:{number}: rejected: {raw}") from None
        if must_fail:
            raise AssertionError(f"{path}:{number}: should have been rejected: {raw}")
    assert state is not None, f"{path}: no moves"
    return state, expected


def standings_line(state: dict[str, Any]) -> str:
    return " ".join(f"{row['player']}={row['score']}" for row in GAME.standings(state))
