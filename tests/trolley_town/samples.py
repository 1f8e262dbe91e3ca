"""Sample My Trolley Town views for the image tests and the gallery: seeded games played through the
game spec by its bots, captured at the start, mid-game and the end, for the smallest and largest
player counts and every option set (as the conformance suite builds games generically).

``python -m tests.trolley_town.samples OUT_DIR`` writes every sample as a PNG (and a phone-width copy).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import games
from games.options import parse_options

SLUG = "trolley-town"
NAMES = ("ann", "bob", "cat", "dmitri-the-long-named")
# (players, options text, label): the smallest and largest counts, then every option set.
TABLES = (
    (1, "", "1p"),
    (4, "", "4p"),
    (2, "first_game=on", "2p-first-game"),
    (3, "expert=all", "3p-expert"),
    (1, "basics=field,meadow,charcoal-kiln,charcoal-kiln,bakery,bakery,ranch first_game=on", "1p-basics"),
)


@dataclass(frozen=True)
class Sample:
    label: str  # e.g. "4p-mid"
    view: dict[str, Any]
    focus: int | None  # the seat drawn large (the private view), or None for the whole table


def _play(players: int, options: str, seed: int, level: int) -> list[dict[str, Any]]:
    """Every state of a bot game (the first, then one after each move)."""
    spec = games.get_game(SLUG)
    state = spec.setup(list(NAMES[:players]), parse_options(options, spec.options), seed)
    states = [state]
    while not spec.status(state).finished:
        seat = spec.status(state).to_act[0]
        state, _ = spec.apply(state, seat, spec.bot_move(state, seat, level))
        states.append(state)
        assert len(states) < 5000, "the bots did not finish the game"
    return states


def samples(seed: int = 11, level: int = 0, tables: tuple[tuple[int, str, str], ...] = TABLES) -> Iterator[Sample]:
    spec = games.get_game(SLUG)
    for players, options, label in tables:
        states = _play(players, options, seed, level)
        picks = {"start": states[0], "mid": states[len(states) // 2], "late": states[(len(states) * 7) // 8]}
        picks["end"] = states[-1]
        for moment, state in picks.items():
            yield Sample(f"{label}-{moment}", spec.view(state, None), None)
        last = players - 1
        yield Sample(f"{label}-mid-private", spec.view(picks["mid"], last), last)
        yield Sample(f"{label}-late-private", spec.view(picks["late"], 0), 0)


def main(out: str) -> None:
    from PIL import Image

    from rendering import trolley_town

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    for sample in samples():
        png = trolley_town.render_board(sample.view, sample.focus)
        path = folder / f"trolley-{sample.label}.png"
        path.write_bytes(png)
        image = Image.open(path)
        phone = image.resize((400, round(image.height * 400 / image.width)), Image.Resampling.LANCZOS)
        phone.save(folder / f"trolley-{sample.label}-phone.png")
        print(path, image.size, len(png))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/gallery_b")
