"""Sample views of every registered game, made by playing seeded bot games through the game spec: the one
sample driver of the image tests, the render benches and the gallery.

``playouts(slug)`` (the text-rules test, tests/rendering/test_text_rules.py, and bench/render_gallery.py):
for each game, the smallest and largest player counts, every option value (one at a time), and at the
start, in the middle and at the end of a game, the public view and one seat's private view, plus the
final standings. ``play`` and ``moment_samples`` serve the per-game tables (tests/tramways/samples.py,
tests/trolley_town/samples.py): chosen moments of a game's states, public and private, by label.
"""

from __future__ import annotations

import functools
import json
import random
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import games
from games.base import GameManifest, Standing
from games.options import parse_options
from rendering import renderer_for, theme

NAMES = ("ann", "bob", "cat", "dmitri", "eve", "fitzgerald-longname")
MAX_STEPS = 3000


@dataclass(frozen=True)
class Sample:
    """One view to draw: ``focus`` None is the public board, a seat is that seat's private view."""

    slug: str
    label: str  # e.g. "2p-defaults-mid-seat0"
    view: dict[str, Any]
    focus: int | None


@dataclass(frozen=True)
class Playout:
    slug: str
    players: int
    options: str
    samples: tuple[Sample, ...]
    final_view: dict[str, Any]
    standings: tuple[Standing, ...]
    finished: bool


def option_sets(manifest: GameManifest) -> list[str]:
    """The defaults, then each non-default choice and flipped bool, one option at a time."""
    found = [""]
    for spec in manifest.spec.options:
        if spec.kind == "choice":
            found += [f"{spec.name}={choice}" for choice in spec.choices if choice != spec.default]
        elif spec.kind == "bool":
            found.append(f"{spec.name}={'off' if spec.default else 'on'}")
        elif spec.name in manifest.game_type.modules:
            found.append(f"{spec.name}=on")  # text/list modules (Tiny Towns monuments): "on" switches them on
    return found


def _label(players: int, options: str) -> str:
    return f"{players}p-{options.replace('=', '-').replace(' ', '_') or 'defaults'}"


@functools.cache
def playout(slug: str, players: int, options: str, seed: int = 7) -> Playout | None:
    """A seeded level-0 bot game; None when ``setup`` refuses the options for this player count."""
    spec = games.get_game(slug)
    names = list(NAMES[:players])
    try:
        state = spec.setup(names, parse_options(options, spec.options), seed)
    except Exception:
        return None
    picker = random.Random(seed)
    states = [state]
    for _ in range(MAX_STEPS):
        status = spec.status(state)
        if status.finished or not status.to_act:
            break
        seat = picker.choice(status.to_act)
        state, _ = spec.apply(state, seat, spec.bot_move(state, seat, 0))
        state = json.loads(json.dumps(state))
        states.append(state)
    finished = spec.status(state).finished
    base = _label(players, options)
    samples: list[Sample] = []
    moments = (("start", states[0]), ("mid", states[len(states) // 2]), ("end", states[-1]))
    for moment, moment_state in moments:
        samples.append(Sample(slug, f"{base}-{moment}", spec.view(moment_state, None), None))
        seat = (len(states) // 3) % players if moment == "mid" else 0
        samples.append(Sample(slug, f"{base}-{moment}-seat{seat}", spec.view(moment_state, seat), seat))
    final_view = spec.view(state, None)
    return Playout(slug, players, options, tuple(samples), final_view, tuple(spec.standings(state)), finished)


def playouts(slug: str) -> list[Playout]:
    """Smallest and largest player counts with default options; every option set at the largest count
    (falling back to the smallest when refused)."""
    manifest = games.get_manifest(slug)
    low, high = manifest.spec.min_players, manifest.spec.max_players
    found: list[Playout] = []
    for players in sorted({low, high}):
        result = playout(slug, players, "")
        if result is not None:
            found.append(result)
    for options in option_sets(manifest)[1:]:
        result = playout(slug, high, options) or playout(slug, low, options)
        if result is not None:
            found.append(result)
    return found


# --- Per-game tables: chosen moments of seeded games (tests/tramways/samples.py, tests/trolley_town/samples.py)

State = dict[str, Any]


@dataclass(frozen=True)
class Table:
    """One seeded game to sample: ``label`` prefixes every sample's label (e.g. "5p-all-modules")."""

    players: int
    options: str
    label: str


def play(slug: str, names: Iterable[str], options: str, seed: int, level: int = 0, limit: int = 20000) -> list[State]:
    """Every state of a bot game at ``level`` (the first, then one after each move), the first seat
    to act moving each time, until the game ends."""
    spec = games.get_game(slug)
    state = spec.setup(list(names), parse_options(options, spec.options), seed)
    states = [state]
    while not spec.status(state).finished:
        seat = spec.status(state).to_act[0]
        state, _ = spec.apply(state, seat, spec.bot_move(state, seat, level))
        states.append(state)
        assert len(states) < limit, f"the {slug} bots did not finish the game"
    return states


def first_state(test: Callable[[State], bool]) -> Callable[[list[State]], State]:
    """A moment picker: the first state passing ``test`` (else the middle one)."""
    return lambda states: next((state for state in states if test(state)), states[len(states) // 2])


def at_fraction(numerator: int, denominator: int) -> Callable[[list[State]], State]:
    """A moment picker: the state ``numerator / denominator`` of the way through the game."""
    return lambda states: states[(len(states) * numerator) // denominator]


def moment_samples(
    slug: str,
    names: tuple[str, ...],
    tables: Iterable[Table],
    moments: Mapping[str, Callable[[list[State]], State]],
    private: Iterable[tuple[str, Callable[[int], int]]],
    seed: int,
    level: int = 0,
) -> Iterator[Sample]:
    """For each table: the public view at each of ``moments`` ("start", "mid", ...), then the private
    views in ``private`` (a moment and the seat, from the player count), labelled "<table>-<moment>"
    and "<table>-<moment>-private"."""
    spec = games.get_game(slug)
    for table in tables:
        states = play(slug, names[: table.players], table.options, seed, level)
        picked = {moment: pick(states) for moment, pick in moments.items()}
        for moment, state in picked.items():
            yield Sample(slug, f"{table.label}-{moment}", spec.view(state, None), None)
        for moment, seat_of in private:
            seat = seat_of(table.players)
            yield Sample(slug, f"{table.label}-{moment}-private", spec.view(picked[moment], seat), seat)


def clear_renderer_caches(slug: str) -> None:
    """Empty every drawing cache of ``slug``'s renderer, so cached layers and tiles draw (and record)
    their text again.

    Palettes stay: a renderer makes its palette once per process from sample drawings that are part
    of no board (the bot never empties it), and making it again here would only leave those samples'
    pieces cached, unrecorded, for the board to reuse."""
    for name, cached in vars(renderer_for(slug)).items():
        if callable(getattr(cached, "cache_clear", None)) and "palette" not in name:
            cached.cache_clear()


def record(sample: Sample) -> tuple[list[theme.DrawnText], bytes]:
    """Every text ``sample``'s board draws (from empty caches) and its PNG."""
    clear_renderer_caches(sample.slug)
    with theme.recording() as drawn:
        png = renderer_for(sample.slug).render_board(sample.view, sample.focus)
    return drawn, png


def write_pngs(found: Iterable[Sample], prefix: str, argv: list[str] | None = None) -> None:
    """Write every sample as a PNG and a phone-width copy into ``argv[1]`` (``python -m tests.<game>.samples OUT``)."""
    from PIL import Image

    argv = sys.argv if argv is None else argv
    folder = Path(argv[1] if len(argv) > 1 else "/tmp/gallery_b")
    folder.mkdir(parents=True, exist_ok=True)
    for sample in found:
        png = renderer_for(sample.slug).render_board(sample.view, sample.focus)
        path = folder / f"{prefix}-{sample.label}.png"
        path.write_bytes(png)
        with Image.open(path) as image:
            phone = image.resize((400, round(image.height * 400 / image.width)), Image.Resampling.LANCZOS)
            size = image.size
        phone.save(folder / f"{prefix}-{sample.label}-phone.png")
        print(path, size, len(png))
