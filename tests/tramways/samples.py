"""Sample Tramways views for the image tests, the bench and the gallery (through the shared driver,
tests/rendering/samples.py): seeded games played through the game spec by its bots, captured at the
start (the draft when drafting), mid-game (an auction and an actions phase) and the end, for the
smallest and largest player counts and every option set.

``python -m tests.tramways.samples OUT_DIR`` writes every sample as a PNG (and a phone-width copy).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from tests.rendering.samples import Sample, State, Table, first_state, moment_samples, play, write_pngs

SLUG = "tramways"
NAMES = ("ann", "bob", "cat", "dan", "evelyn-the-long-named")
ALL_MODULES = "station=on exchange=on park=on master=on parcels=draft"
# The smallest and largest counts, then every option set.
TABLES = (
    Table(1, "", "1p"),
    Table(5, ALL_MODULES, "5p-all-modules"),
    Table(2, "station=on", "2p-station"),
    Table(3, "exchange=on park=on", "3p-exchange-park"),
    Table(4, "master=on", "4p-master"),
    Table(2, "parcels=draft", "2p-draft"),
)
MOMENTS = {
    "start": lambda states: states[0],
    "auction": first_state(lambda s: s["round"] == 3 and s["phase"] == "auction"),
    "mid": first_state(lambda s: s["round"] == 4 and s["phase"] == "actions"),
    "late": first_state(lambda s: s["round"] == 6 and s["phase"] == "actions"),
    "end": lambda states: states[-1],
}
PRIVATE = (("mid", lambda players: players - 1), ("start", lambda players: 0))


def states(players: int, options: str, seed: int, level: int = 0) -> list[State]:
    """Every state of a seeded bot game (the first, then one after each move)."""
    return play(SLUG, NAMES[:players], options, seed, level)


def samples(seed: int = 5, level: int = 0, tables: Iterable[Table] = TABLES) -> Iterator[Sample]:
    return moment_samples(SLUG, NAMES, tables, MOMENTS, PRIVATE, seed, level)


if __name__ == "__main__":
    write_pngs(samples(), "tramways")
