"""Sample views of every registered game, made by playing seeded bot games through the game spec.

Used by the text-rules test (tests/rendering/test_text_rules.py) and the gallery
(bench/render_gallery.py): for each game, the smallest and largest player counts, every option
value (one at a time), and at the start, in the middle and at the end of a game, the public view
and one seat's private view, plus the final standings.
"""

from __future__ import annotations

import functools
import json
import random
from dataclasses import dataclass
from typing import Any

import games
from games.base import GameManifest, Standing
from games.options import parse_options

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
