"""Engine-level transcript replayer for the Tramways tests and the transcript generator (the format
is bot/transcript_format.py's: header lines, ``name: /command``, ``!name:`` must be rejected,
``# comments`` and a final ``standings:`` line in rank order)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from games.base import IllegalMove
from games.options import parse_options
from games.tramways import GAME


def replay(path: Path) -> tuple[dict[str, Any], str | None]:
    header: dict[str, str] = {}
    state: dict[str, Any] | None = None
    names: list[str] = []
    expected: str | None = None
    for number, raw in enumerate(path.read_text().splitlines(), start=1):
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
            assert header.get("game") == "tramways", f"{path}: not a tramways transcript"
            names = [n.strip() for n in header["players"].split(",")]
            state = GAME.setup(names, parse_options(header.get("options", ""), GAME.options), int(header["seed"]))
        must_fail = key.startswith("!")
        seat = names.index(key.lstrip("!"))
        try:
            state, _ = GAME.resign(state, seat) if rest == "/game resign" else GAME.apply(state, seat, GAME.parse(rest))
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
