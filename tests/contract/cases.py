"""What the conformance suite plays: every registered game, every player count, a few option sets.

The list is computed once, at collection time, from the registry (``games.available_slugs()``)
plus the test game from tests/plugins. Option sets come from each game's declared OptionSpecs:
the defaults, then each ``choice`` value and the non-default ``bool`` value of one option at a
time (and each module alone), then every ``GameType.modules`` option switched on together, then
everything non-default at once; a set that ``setup`` refuses
for a player count is left out for that count (the lobby would refuse it too).

Playouts are recorded once per (case, seed, level) and shared by the tests: each step keeps
the state before the move (as canonical JSON), who was to act, their legal moves and the move
made, so every check reads the same games without playing them again.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import games
from bot.replay import RESIGN
from games.base import GameManifest, GameSpec, IllegalMove, Move, OptionSpec, State
from games.options import parse_options
from storage.db import dumps
from tests.contract.registry import PLUGIN_SLUG, plugin_registered

NAMES = ("ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal")
MAX_STEPS = 2000  # the host's cap on bot moves in one command: a bot-only table must end within it
SAMPLES = 10  # states per playout that get the expensive checks (every move applied, views, hidden info)
SEED = 20240601


@dataclass(frozen=True)
class Case:
    slug: str
    players: int
    options: str  # as typed after /game new <game>, e.g. "map=osaka"
    label: str

    @property
    def id(self) -> str:
        return f"{self.slug}-{self.players}p-{self.label}"

    @property
    def names(self) -> list[str]:
        return list(NAMES[: self.players])

    @property
    def spec(self) -> GameSpec:
        return games.get_game(self.slug)

    @property
    def manifest(self) -> GameManifest:
        return games.get_manifest(self.slug)

    def parsed_options(self) -> dict[str, Any]:
        return parse_options(self.options, self.spec.options)

    def setup(self, seed: int) -> State:
        return self.spec.setup(self.names, self.parsed_options(), seed)


def _word(spec: OptionSpec, value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def option_sets(manifest: GameManifest) -> list[tuple[str, str]]:
    """(label, options text) pairs: defaults, one option changed at a time, then every module on."""
    found: list[tuple[str, str]] = [("defaults", "")]
    for spec in manifest.spec.options:
        if spec.kind == "choice":
            found += [(f"{spec.name}={c}", f"{spec.name}={c}") for c in spec.choices if c != spec.default]
        elif spec.kind == "bool":
            text = f"{spec.name}={_word(spec, not spec.default)}"
            found.append((text, text))
    modules = []
    by_name = {spec.name: spec for spec in manifest.spec.options}
    for name in manifest.game_type.modules:
        module = by_name.get(name)
        if module is None:
            continue  # test_manifest reports a module that is not an option
        if module.kind == "bool":
            modules.append(f"{name}=on")
        elif module.kind == "choice":
            others = [c for c in module.choices if c != module.default]
            modules += [f"{name}={others[-1]}"] if others else []
        else:
            modules.append(f"{name}=on")  # text/list modules: "on" is the conventional switch
    # A module that is not a plain switch (Tiny Towns' monuments list) is also played alone.
    found += [(m, m) for m in modules if by_name[m.split("=")[0]].kind not in ("bool", "choice")]
    if modules:
        found.append(("modules", " ".join(modules)))
    # Everything at once: every module on and every other choice and switch away from its default.
    rest = [text for label, text in found[1:] if "=" in text and " " not in text]
    everything = {t.split("=")[0]: t for t in rest} | {m.split("=")[0]: m for m in modules}
    if len(everything) > 1:
        found.append(("everything", " ".join(everything.values())))
    unique: dict[str, tuple[str, str]] = {}
    for label, text in found:
        key = " ".join(sorted(text.split()))
        unique.setdefault(key, (label, text))
    return list(unique.values())


def _accepted(manifest: GameManifest, players: int, text: str) -> bool:
    try:
        manifest.spec.setup(list(NAMES[:players]), parse_options(text, manifest.spec.options), 0)
    except IllegalMove:
        return False
    return True


def _collect() -> tuple[list[str], list[str], list[Case]]:
    builtin = games.available_slugs()
    with plugin_registered():
        slugs = [*builtin, PLUGIN_SLUG]
        cases = []
        for slug in slugs:
            manifest = games.get_manifest(slug)
            spec = manifest.spec
            for players in range(spec.min_players, spec.max_players + 1):
                cases += [
                    Case(slug, players, text, label)
                    for label, text in option_sets(manifest)
                    if _accepted(manifest, players, text)
                ]
    return builtin, slugs, cases


BUILTIN_SLUGS, SLUGS, CASES = _collect()


def bot_cases() -> list[Case]:
    """One case per (game, player count) for the slower level-1 playouts, the option sets taking turns."""
    chosen = []
    for slug in SLUGS:
        mine = [case for case in CASES if case.slug == slug]
        for players in sorted({case.players for case in mine}):
            options = [case for case in mine if case.players == players]
            chosen.append(options[players % len(options)])
    return chosen


def default_cases() -> list[Case]:
    """Default options, every (game, player count)."""
    return [case for case in CASES if case.label == "defaults"]


@dataclass(frozen=True)
class Step:
    seat: int
    text: str  # the canonical command text, or /game resign
    move: Move | None  # None for a resignation
    to_act: tuple[int, ...]
    legal: dict[int, list[Move]]  # every seat to act -> its legal moves
    state: str  # canonical JSON of the state before the move


@dataclass
class Trace:
    case: Case
    seed: int
    level: int
    steps: list[Step] = field(default_factory=list)
    final: str = ""
    finished: bool = False
    error: str = ""  # what broke the playout (an engine exception), if anything

    def state(self, index: int) -> State:
        state: State = json.loads(self.steps[index].state)
        return state

    def final_state(self) -> State:
        state: State = json.loads(self.final)
        return state

    def moves(self) -> list[tuple[int, str]]:
        return [(step.seat, step.text) for step in self.steps]

    def samples(self, count: int = SAMPLES) -> list[int]:
        """Step indices spread evenly over the game (first and last included)."""
        if not self.steps:
            return []
        last = len(self.steps) - 1
        return sorted({round(i * last / max(1, count - 1)) for i in range(count)})

    def legal_seen(self) -> Iterator[tuple[int, int, Move]]:
        """(step, seat, move) for every legal move listed during the game."""
        for index, step in enumerate(self.steps):
            for seat, moves in step.legal.items():
                for move in moves:
                    yield index, seat, move

    def describe(self) -> str:
        return f"{self.case.id} seed {self.seed} level {self.level}"


@functools.cache
def playout(case: Case, seed: int = SEED, level: int = 0, resign_at: int | None = None) -> Trace:
    """A seeded game played by bots of ``level``; the seat to move is picked at random among those
    to act (level 0) or the first (level 1, as the host runs bots). At step ``resign_at`` the seat
    to move resigns instead. The state goes through JSON between moves, as it does in the store."""
    spec = case.spec
    trace = Trace(case, seed, level)
    picker = random.Random(seed)
    state: State = {}
    try:
        state = case.setup(seed)
        for index in range(MAX_STEPS):
            status = spec.status(state)
            if status.finished:
                trace.finished = True
                break
            if not status.to_act:
                trace.error = f"step {index}: the game is not finished but nobody is to act ({status.summary})"
                break
            legal = {seat: spec.legal_moves(state, seat) for seat in status.to_act}
            seat = picker.choice(status.to_act) if level == 0 else status.to_act[0]
            frozen = dumps(state)
            if index == resign_at:
                state, _ = spec.resign(state, seat)
                trace.steps.append(Step(seat, RESIGN, None, status.to_act, legal, frozen))
            else:
                move = spec.bot_move(state, seat, level)
                text = spec.format(move)
                state, _ = spec.apply(state, seat, move)
                trace.steps.append(Step(seat, text, move, status.to_act, legal, frozen))
            state = json.loads(dumps(state))
    except Exception as exc:  # recorded, so each check still reads the steps played before the break
        trace.error = f"step {len(trace.steps)}: {type(exc).__name__}: {exc}"
        trace.final = dumps(state) if state else ""
        return trace
    trace.final = dumps(state)
    return trace
