"""Sample My Trolley Town views for the image tests and the gallery (through the shared driver,
tests/rendering/samples.py): seeded games played through the game spec by its bots, captured at the
start, mid-game and the end, for the smallest and largest player counts and every option set.

``python -m tests.trolley_town.samples OUT_DIR`` writes every sample as a PNG (and a phone-width copy).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from tests.rendering.samples import Sample, State, Table, at_fraction, moment_samples, play, write_pngs

SLUG = "trolley-town"
NAMES = ("ann", "bob", "cat", "dmitri-the-long-named")
# The smallest and largest counts, then every option set.
TABLES = (
    Table(1, "", "1p"),
    Table(4, "", "4p"),
    Table(2, "first_game=on", "2p-first-game"),
    Table(3, "expert=all", "3p-expert"),
    Table(1, "basics=field,meadow,charcoal-kiln,charcoal-kiln,bakery,bakery,ranch first_game=on", "1p-basics"),
)
MOMENTS = {
    "start": lambda states: states[0],
    "mid": at_fraction(1, 2),
    "late": at_fraction(7, 8),
    "end": lambda states: states[-1],
}
PRIVATE = (("mid", lambda players: players - 1), ("late", lambda players: 0))


def states(players: int, options: str, seed: int, level: int = 0) -> list[State]:
    """Every state of a seeded bot game (the first, then one after each move)."""
    return play(SLUG, NAMES[:players], options, seed, level, limit=5000)


def samples(seed: int = 11, level: int = 0, tables: Iterable[Table] = TABLES) -> Iterator[Sample]:
    return moment_samples(SLUG, NAMES, tables, MOMENTS, PRIVATE, seed, level)


if __name__ == "__main__":
    write_pngs(samples(), "trolley")
