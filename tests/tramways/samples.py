"""Sample Tramways views for the image tests, the bench and the gallery: seeded games played through
the game spec by its bots, captured at the start (the draft when drafting), mid-game (an auction and
an actions phase) and the end, for the smallest and largest player counts and every option set.

``python -m tests.tramways.samples OUT_DIR`` writes every sample as a PNG (and a phone-width copy).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import games
from games.options import parse_options

SLUG = "tramways"
NAMES = ("ann", "bob", "cat", "dan", "evelyn-the-long-named")
ALL_MODULES = "station=on exchange=on park=on master=on parcels=draft"
# (players, options text, label): the smallest and largest counts, then every option set.
TABLES = (
    (1, "", "1p"),
    (5, ALL_MODULES, "5p-all-modules"),
    (2, "station=on", "2p-station"),
    (3, "exchange=on park=on", "3p-exchange-park"),
    (4, "master=on", "4p-master"),
    (2, "parcels=draft", "2p-draft"),
)


@dataclass(frozen=True)
class Sample:
    label: str
    view: dict[str, Any]
    focus: int | None  # the seat whose private view this is, or None for the public board


def play(players: int, options: str, seed: int, level: int = 0) -> list[dict[str, Any]]:
    """Every state of a bot game (the first, then one after each move)."""
    spec = games.get_game(SLUG)
    state = spec.setup(list(NAMES[:players]), parse_options(options, spec.options), seed)
    states = [state]
    while not spec.status(state).finished:
        seat = spec.status(state).to_act[0]
        state, _ = spec.apply(state, seat, spec.bot_move(state, seat, level))
        states.append(state)
        assert len(states) < 20000, "the bots did not finish the game"
    return states


def _first(states: list[dict[str, Any]], test: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    return next((state for state in states if test(state)), states[len(states) // 2])


def samples(seed: int = 5, level: int = 0, tables: tuple[tuple[int, str, str], ...] = TABLES) -> Iterator[Sample]:
    spec = games.get_game(SLUG)
    for players, options, label in tables:
        states = play(players, options, seed, level)
        picks = {
            "start": states[0],
            "auction": _first(states, lambda s: s["round"] == 3 and s["phase"] == "auction"),
            "mid": _first(states, lambda s: s["round"] == 4 and s["phase"] == "actions"),
            "late": _first(states, lambda s: s["round"] == 6 and s["phase"] == "actions"),
            "end": states[-1],
        }
        for moment, state in picks.items():
            yield Sample(f"{label}-{moment}", spec.view(state, None), None)
        last = players - 1
        yield Sample(f"{label}-mid-private", spec.view(picks["mid"], last), last)
        yield Sample(f"{label}-start-private", spec.view(picks["start"], 0), 0)


def main(out: str) -> None:
    from PIL import Image

    from rendering import tramways

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    for sample in samples():
        png = tramways.render_board(sample.view, sample.focus)
        path = folder / f"tramways-{sample.label}.png"
        path.write_bytes(png)
        image = Image.open(path)
        phone = image.resize((400, round(image.height * 400 / image.width)), Image.Resampling.LANCZOS)
        phone.save(folder / f"tramways-{sample.label}-phone.png")
        print(path, image.size, len(png))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/gallery_b")
