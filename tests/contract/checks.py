"""Checks shared by the conformance tests. Each returns a list of problems (empty when fine), so
a test can report every problem of a game at once instead of stopping at the first."""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Callable
from typing import Any, NotRequired, get_origin, get_type_hints

import rendering
from games.base import Event, GameSpec, IllegalMove, Move, Standing, State, ViewHeader
from storage.db import dumps
from tests.contract.cases import Trace

HEADER = get_type_hints(ViewHeader)  # game: str, names: list[str], viewer: int | None, finished: bool
EVENT = get_type_hints(Event)  # text: str, private: PrivateText, irreversible: bool, post_board: bool
# games/base.py postpones annotations, so TypedDict's own required/optional split misses NotRequired.
_STANDING = get_type_hints(Standing, include_extras=True)
STANDING_OPTIONAL = {key for key, hint in _STANDING.items() if get_origin(hint) is NotRequired}
STANDING_KEYS = set(_STANDING) - STANDING_OPTIONAL
JUNK = ("zz9", "0", "-1", "99999999999999999999", "x" * 300, "é☃", "at", "with", "to", "A1", "E5", "6")


def expect_rejected(spec: GameSpec, state: State, seat: int, move: Move, why: str) -> str | None:
    """``move`` is not among ``seat``'s listed moves: apply must raise IllegalMove and change nothing.

    Two acceptances are not errors: a no-op (a late "done" that changes nothing) and another
    spelling of a listed move (the same resulting state, e.g. naming the resource that is implied).
    """
    before = dumps(state)
    try:
        after, _ = spec.apply(state, seat, move)
    except IllegalMove:
        if dumps(state) != before:
            return f"{why}: rejected {move} for seat {seat} but changed the state it was given"
        return None
    except Exception as exc:
        return f"{why}: {move} for seat {seat} raised {type(exc).__name__}: {exc} (must be IllegalMove)"
    result = dumps(after)
    if result == before or any(
        result == dumps(spec.apply(state, seat, listed)[0]) for listed in spec.legal_moves(state, seat)
    ):
        return None
    return f"{why}: accepted {move} for seat {seat}, which legal_moves does not list (nor an equivalent)"


def garbage_texts(spec: GameSpec, legal_texts: list[str], seed: int) -> list[str]:
    """Command texts a player might type that are (almost always) not a legal move now."""
    group = f"/{spec.command_group}"
    texts = [
        "",
        "hello",
        "/",
        group,
        f"{group} ",
        f"{group} xyzzy",
        f"{group}{spec.command_group}",
        "/game",
        f"/not-{spec.command_group} {spec.verbs[0].name if spec.verbs else 'move'}",
    ]
    for verb in spec.verbs:
        texts.append(f"{group} {verb.name}")
        texts += [f"{group} {verb.name} {junk}" for junk in JUNK]
        texts.append(f"{group} {verb.name} {' '.join(JUNK)}")
    rng = random.Random(seed)
    for text in rng.sample(legal_texts, min(8, len(legal_texts))):
        words = text.split()
        texts += [
            " ".join(words[:-1]),
            f"{text} {rng.choice(JUNK)}",
            f"{text} {words[-1]}",
            " ".join(words[:2] + [rng.choice(JUNK)] + words[3:]),
            text.upper(),
        ]
    return texts


def parse_problems(spec: GameSpec, text: str) -> tuple[Move | None, str | None]:
    """(move, None) when ``text`` parses, (None, None) for an IllegalMove, (None, problem) otherwise."""
    try:
        return spec.parse(text), None
    except IllegalMove as exc:
        if not exc.message:
            return None, f"parse({text!r}) raised IllegalMove without a message"
        return None, None
    except Exception as exc:
        return None, f"parse({text!r}) raised {type(exc).__name__}: {exc} (must be IllegalMove)"


def view_problems(spec: GameSpec, state: State, viewer: int | None, names: list[str]) -> list[str]:
    """JSON-safe, round-trips unchanged, starts with the ViewHeader keys, and changes nothing."""
    before = dumps(state)
    view = spec.view(state, viewer)
    problems = []
    if dumps(state) != before:
        problems.append(f"view(state, {viewer}) changed the state")
    try:
        text = json.dumps(view)
    except (TypeError, ValueError) as exc:
        return [*problems, f"view for {viewer} is not JSON-safe: {exc}"]
    if json.loads(text) != view:
        problems.append(f"view for {viewer} changes through JSON (tuples, non-string keys?)")
    missing = [key for key in HEADER if key not in view]
    if missing:
        return [*problems, f"view for {viewer} lacks the ViewHeader keys {missing}"]
    if list(view)[: len(HEADER)] != list(HEADER):
        problems.append(f"view for {viewer} must start with the ViewHeader keys {list(HEADER)}, not {list(view)[:4]}")
    expected = {"game": spec.slug, "names": names, "viewer": viewer, "finished": spec.status(state).finished}
    for key, value in expected.items():
        if view[key] != value or type(view[key]) is not type(value):
            problems.append(f"view for {viewer}: {key} is {view[key]!r}, expected {value!r}")
    return problems


def event_problems(events: Any, players: int) -> list[str]:
    """A list of Event dicts: known keys only, with their documented types."""
    if not isinstance(events, list):
        return [f"events must be a list, not {type(events).__name__}"]
    problems = []
    for event in events:
        if not isinstance(event, dict) or not set(event) <= set(EVENT):
            problems.append(f"event {event!r} must be a dict with keys among {sorted(EVENT)}")
            continue
        for key in ("irreversible", "post_board"):
            if key in event and not isinstance(event[key], bool):
                problems.append(f"event {key} must be True or False: {event}")
        if "text" in event and not isinstance(event["text"], str):
            problems.append(f"event text must be text: {event}")
        private = event.get("private")
        if private is not None and not (
            isinstance(private, dict)
            and set(private) == {"seat", "text"}
            and private["seat"] in range(players)
            and isinstance(private["text"], str)
        ):
            problems.append(f"a private event is {{seat, text}} for a seat of the game: {event}")
    return problems


def standings_problems(spec: GameSpec, state: State, names: list[str]) -> list[str]:
    """Standing keys and types, 1-based ranks in order, ties only between equal scores, each seat once."""
    before = dumps(state)
    table: list[Any] = spec.standings(state)
    problems = [] if dumps(state) == before else ["standings() changed the state"]
    if not isinstance(table, list):
        return [*problems, f"standings must be a list, not {type(table).__name__}"]
    seats = [entry.get("seat") for entry in table if isinstance(entry, dict)]
    if sorted(s for s in seats if isinstance(s, int)) != list(range(len(names))) or len(seats) != len(names):
        problems.append(f"every seat must appear once, got seats {seats}")
    previous: dict[str, Any] | None = None
    for position, entry in enumerate(table, start=1):
        if not isinstance(entry, dict):
            problems.append(f"entry {position} is not a dict")
            continue
        keys = set(entry)
        if not keys >= STANDING_KEYS or not keys <= STANDING_KEYS | STANDING_OPTIONAL:
            problems.append(
                f"entry {position} has keys {sorted(keys)}, expected {sorted(STANDING_KEYS)} "
                f"(+ optional {sorted(STANDING_OPTIONAL)})"
            )
            continue
        seat, rank, score = entry["seat"], entry["rank"], entry["score"]
        if not (isinstance(seat, int) and isinstance(rank, int) and isinstance(score, int)):
            problems.append(f"entry {position}: seat, rank and score must be int: {entry}")
            continue
        if 0 <= seat < len(names) and entry["player"] != names[seat]:
            problems.append(f"entry {position}: player {entry['player']!r} is not seat {seat}'s name")
        breakdown = entry["breakdown"]
        if not isinstance(breakdown, dict) or not all(
            isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) for k, v in breakdown.items()
        ):
            problems.append(f"entry {position}: breakdown must map labels to whole numbers: {breakdown}")
        if "title" in entry and not isinstance(entry["title"], str):
            problems.append(f"entry {position}: title must be text")
        if previous is None:
            if rank != 1:
                problems.append(f"the first entry must rank 1, not {rank}")
        elif rank == previous["rank"]:
            if score != previous["score"]:
                problems.append(f"entries {position - 1} and {position} share rank {rank} with different scores")
        elif rank != position:
            problems.append(
                f"entry {position} ranks {rank}: after a tie ranks skip (1, 1, 3), so it must be {position}"
            )
        previous = entry
    return problems


def unchanged(function: Callable[..., Any], state: State, *args: Any) -> str | None:
    """Call ``function(state, *args)``; a problem if it changed ``state``."""
    before = dumps(state)
    with contextlib.suppress(IllegalMove):  # a refusal is fine here; only a changed state is a problem
        function(state, *args)
    if dumps(state) != before:
        return f"{getattr(function, '__qualname__', function)} changed the state it was given"
    return None


def hidden_problems(spec: GameSpec, trace: Trace, redeal: Callable[[State, int, int], State]) -> list[str]:
    """Views (and one board image) of other viewers are the same after ``redeal`` of a seat, at
    unfinished states spread over ``trace``; some redeal must change the state."""
    players = trace.case.players
    problems: list[str] = []
    changed, drawn = 0, False
    for index in trace.samples(6):
        state = trace.state(index)
        for seat in range(players):
            other = redeal(state, seat, 1000 + index * 10 + seat)
            if dumps(state) != trace.steps[index].state:
                problems.append(f"step {index}: redeal changed the state it was given")
                state = trace.state(index)
            changed += dumps(other) != dumps(state)
            for viewer in [None, *(v for v in range(players) if v != seat)]:
                mine, theirs = spec.view(state, viewer), spec.view(other, viewer)
                if dumps(mine) != dumps(theirs):
                    keys = sorted(k for k in set(mine) | set(theirs) if mine.get(k) != theirs.get(k))
                    problems.append(
                        f"step {index}: re-dealing seat {seat} changes what viewer {viewer} sees (keys {keys})"
                    )
                elif not drawn and viewer is not None and dumps(other) != dumps(state):
                    drawn = True  # one image per game: the viewer's own board for both deals
                    if rendering.render(mine, viewer) != rendering.render(theirs, viewer):
                        problems.append(f"step {index}: viewer {viewer}'s image changes when seat {seat} is re-dealt")
    if not changed and players > 1:
        problems.append("redeal never changed a state: it must deal the seat's private information afresh")
    return problems
