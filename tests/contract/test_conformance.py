"""The platform contract, checked generically for every registered game (and the test game).

Each game is played by seeded bots for every player count and a few option sets (see
``tests/contract/cases.py``); the recorded games are then checked from several sides. Nothing
here knows a game's rules: only ``GameSpec``, ``GameManifest`` and the declared verbs.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

import pytest

import rendering
from bot.replay import RESIGN, rebuild
from games.base import MOVE_KEY, State
from games.schema import verb_of
from storage.db import dumps
from tests.contract import checks
from tests.contract.cases import CASES, MAX_STEPS, Case, Trace, bot_cases, default_cases, playout
from tests.contract.registry import find_redeal, package_of, plugin_registered

pytestmark = pytest.mark.usefixtures("plugin_game")
PNG = b"\x89PNG\r\n\x1a\n"
CAP = 40  # candidate moves per seat and state for the rejection checks


def ids(case: Case) -> str:
    return case.id


def report(problems: list[str], trace: Trace) -> str:
    shown = "\n  ".join(problems[:12])
    more = f"\n  ... and {len(problems) - 12} more" if len(problems) > 12 else ""
    return f"{trace.describe()}: {len(problems)} problem(s)\n  {shown}{more}"


def finished_problems(trace: Trace) -> list[str]:
    problems = [trace.error] if trace.error else []
    if not trace.error and not trace.finished:
        problems.append(f"not finished after {MAX_STEPS} moves")
    for index, step in enumerate(trace.steps):
        missing = [seat for seat in step.to_act if not step.legal[seat]]
        if missing:
            problems.append(f"step {index}: seats {missing} are to act but have no legal move")
        if step.move is not None and step.move not in step.legal[step.seat]:
            problems.append(f"step {index}: the level-{trace.level} bot chose {step.text}, which is not listed")
    return problems


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_random_playouts_finish(case: Case) -> None:
    """Level-0 bots (random legal moves) finish within the host's step cap; every seat to act has a
    legal move and every bot move is one of them."""
    trace = playout(case)
    problems = finished_problems(trace)
    if not problems:
        problems = checks.standings_problems(case.spec, trace.final_state(), case.names)
    assert not problems, report(problems, trace)


@pytest.mark.parametrize("case", bot_cases(), ids=ids)
def test_bot_playouts_finish(case: Case) -> None:
    """Level-1 bots finish too, with their moves listed and well-formed final standings."""
    trace = playout(case, level=1)
    problems = finished_problems(trace)
    if not problems:
        problems = checks.standings_problems(case.spec, trace.final_state(), case.names)
    assert not problems, report(problems, trace)


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_every_listed_move_is_accepted(case: Case) -> None:
    """At states spread over the game, apply accepts every legal move of every seat to act, without
    changing the state it was given."""
    trace, spec = playout(case), case.spec
    problems = []
    for index in trace.samples():
        step = trace.steps[index]
        state = trace.state(index)
        for seat, moves in step.legal.items():
            for move in moves:
                try:
                    spec.apply(state, seat, move)
                except Exception as exc:
                    problems.append(
                        f"step {index}: listed {spec.format(move)} for seat {seat} but apply raised "
                        f"{type(exc).__name__}: {exc}"
                    )
        if dumps(state) != step.state:
            problems.append(f"step {index}: applying the listed moves changed the state they were given")
    assert not problems, report(problems, trace)


def texts_of(case: Case, state: State, seat: int) -> set[str]:
    return {case.spec.format(move) for move in case.spec.legal_moves(state, seat)}


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_rejected_moves_change_nothing(case: Case) -> None:
    """Moves that are not legal now raise IllegalMove and leave the state byte-identical: another
    seat's legal moves, the same seat's moves from a few steps later, and garbage command texts
    (which parse must refuse with IllegalMove, or turn into a move that apply refuses).

    A candidate whose canonical text is among the seat's listed moves is legal and skipped. Two
    acceptances of an unlisted move are allowed, because they cannot mislead a player: a no-op (a
    late "done" that changes nothing) and another spelling of a listed move (the same resulting
    state). Anything else apply accepts must be listed, or menus and bots miss it."""
    trace, spec = playout(case), case.spec
    problems: list[str] = []
    seats = range(case.players)
    for index in trace.samples():
        step, state = trace.steps[index], trace.state(index)
        own = {seat: texts_of(case, state, seat) for seat in seats}
        for seat in seats:
            others = [
                m
                for other, moves in step.legal.items()
                if other != seat
                for m in moves
                if spec.format(m) not in own[seat]
            ]
            for move in others[:CAP]:
                problems.append(
                    checks.expect_rejected(spec, state, seat, move, f"step {index}, another seat's move") or ""
                )
        for seat in step.to_act:
            later = [
                m
                for j in range(index + 1, min(index + 9, len(trace.steps)))
                for m in trace.steps[j].legal.get(seat, [])
                if spec.format(m) not in own[seat]
            ]
            for move in later[:CAP]:
                problems.append(checks.expect_rejected(spec, state, seat, move, f"step {index}, a later move") or "")
        for text in checks.garbage_texts(spec, sorted(own[step.seat]), seed=index):
            parsed, problem = checks.parse_problems(spec, text)
            problems.append(problem or "")
            if parsed is None:
                continue
            for seat in seats:
                if spec.format(parsed) not in own[seat]:
                    problems.append(
                        checks.expect_rejected(spec, state, seat, parsed, f"step {index}, text {text!r}") or ""
                    )
    problems = [p for p in problems if p]
    assert not problems, report(problems, trace)


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_parse_format_round_trip(case: Case) -> None:
    """``parse(format(m)) == m`` for every legal move seen, and the text starts with the game's group."""
    trace, spec = playout(case), case.spec
    problems = []
    seen: set[str] = set()
    for index, _, move in trace.legal_seen():
        text = spec.format(move)
        if text in seen:
            continue
        seen.add(text)
        if not text.startswith(f"/{spec.command_group} "):
            problems.append(f"step {index}: {text!r} does not start with /{spec.command_group}")
        try:
            again = spec.parse(text)
        except Exception as exc:
            problems.append(f"step {index}: parse({text!r}) raised {type(exc).__name__}: {exc}")
            continue
        if again != move:
            problems.append(f"step {index}: parse({text!r}) gives {again}, listed as {move}")
    assert seen, f"{trace.describe()}: no legal move was listed"
    assert not problems, report(problems, trace)


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_apply_and_queries_never_mutate_their_input(case: Case) -> None:
    """apply gets a state and returns a new one and well-formed events (Event keys and types): the
    input (deep-copied before) is unchanged after every move of the game. The queries (legal_moves,
    status, view, standings, bot_move, private_summary, move_label) leave the state unchanged too, at
    states spread over the game."""
    trace, spec = playout(case), case.spec
    problems = []
    for index, step in enumerate(trace.steps):
        if step.move is None:
            continue
        state = trace.state(index)
        frozen = copy.deepcopy(state)
        _, events = spec.apply(state, step.seat, step.move)
        if state != frozen:
            problems.append(f"step {index}: apply({step.text}) changed its input state")
        problems += [f"step {index}: {p}" for p in checks.event_problems(events, case.players)]
    for index in trace.samples():
        state, seat = trace.state(index), trace.steps[index].seat
        move = trace.steps[index].move
        queries: list[tuple[Callable[..., object], tuple[object, ...]]] = [
            (spec.legal_moves, (seat,)),
            (spec.status, ()),
            (spec.standings, ()),
            (spec.view, (seat,)),
            (spec.view, (None,)),
            (spec.bot_move, (seat, 0)),
        ]
        if spec.private_summary:
            queries.append((spec.private_summary, (seat,)))
        if spec.move_label and move is not None:
            queries.append((spec.move_label, (seat, move)))
        problems += [p for function, args in queries if (p := checks.unchanged(function, state, *args))]
    assert not problems, report(problems, trace)


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_replay_rebuilds_the_same_state(case: Case) -> None:
    """Setup from the seed plus the logged (seat, text) moves, through bot.replay.rebuild (undo,
    rollback and transcripts use it), gives the same state byte for byte, at the end and midway."""
    trace = playout(case)
    assert not trace.error, trace.error
    moves = trace.moves()
    again = rebuild(case.spec, case.names, case.parsed_options(), trace.seed, moves)
    assert dumps(again) == trace.final, f"{trace.describe()}: the replayed final state differs"
    middle = len(moves) // 2
    again = rebuild(case.spec, case.names, case.parsed_options(), trace.seed, moves[:middle])
    assert dumps(again) == trace.steps[middle].state, f"{trace.describe()}: the replay differs at step {middle}"


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_views_are_json_safe_with_the_header(case: Case) -> None:
    """Every viewer's view (each seat and a spectator) survives JSON unchanged and carries the
    ViewHeader keys with the right values: game, names, viewer, finished."""
    trace, spec = playout(case), case.spec
    states = [trace.state(index) for index in trace.samples()] + ([trace.final_state()] if trace.final else [])
    problems = []
    for state in states:
        for viewer in [None, *range(case.players)]:
            problems += checks.view_problems(spec, state, viewer, case.names)
    assert not problems, report(problems, trace)


def redeal_of(case: Case) -> Callable[[State, int, int], State]:
    helper = find_redeal(case.slug)
    if helper is not None:
        return helper
    package = package_of(case.slug)
    pytest.fail(
        f"{case.slug} declares hidden information {case.manifest.game_type.hidden} but neither "
        f"{package}.rules nor {package}.view has redeal(state, seat, seed) -> State (the state with "
        "that seat's private cards/choices dealt afresh from seed, public facts kept); the suite needs "
        "it to prove that views hide other seats' secrets"
    )


with plugin_registered():  # the test game's manifest is only found while it is registered
    HIDDEN_CASES = [case for case in CASES if case.manifest.game_type.hidden]
OPEN_CASES = [case for case in CASES if case not in HIDDEN_CASES]


@pytest.mark.parametrize("case", HIDDEN_CASES, ids=ids)
def test_hidden_information_stays_hidden(case: Case) -> None:
    """Re-dealing one seat's hidden information changes nothing that another viewer sees.

    A generic "same public history from another seed" is not practical (different dice or cards
    make different moves legal), so each game with ``GameType.hidden`` provides
    ``redeal(state, seat, seed) -> State`` in its rules or view module: the same state with that
    seat's private information dealt afresh and every public fact kept. At unfinished states spread
    over a game, for every seat and every other viewer (other seats and a spectator), the view of the
    re-dealt state must equal the original's, and so must the viewer's board image. Some re-deal must
    actually change the state, or the helper proves nothing.
    """
    trace = playout(case)
    problems = checks.hidden_problems(case.spec, trace, redeal_of(case))
    assert not problems, report(problems, trace)


@pytest.mark.parametrize("case", OPEN_CASES, ids=ids)
def test_a_game_without_hidden_information_shows_everyone_the_same(case: Case) -> None:
    """A game that declares no hidden information (``GameType.hidden`` empty) must mean it: at
    states spread over a game, every seat's view equals the spectator's but for the viewer field."""
    trace = playout(case)
    problems = []
    for index in trace.samples():
        state = trace.state(index)
        public = {**case.spec.view(state, None), "viewer": None}
        for seat in range(case.players):
            if {**case.spec.view(state, seat), "viewer": None} != public:
                problems.append(f"step {index}: seat {seat} sees something the spectator does not")
    assert not problems, report(problems, trace)


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_standings_are_well_formed(case: Case) -> None:
    """Standings during and after the game: the Standing keys (seat, player, score, rank, breakdown,
    optional title), 1-based ranks in order where only equal scores share a rank (1, 1, 3), every
    seat exactly once."""
    trace, spec = playout(case), case.spec
    states = [trace.state(index) for index in trace.samples()] + ([trace.final_state()] if trace.final else [])
    problems = [f"{p}" for state in states for p in checks.standings_problems(spec, state, case.names)]
    assert not problems, report(problems, trace)


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_declared_verbs_cover_every_legal_move(case: Case) -> None:
    """Every legal move's text uses a declared verb (the move names it under MOVE_KEY), splits into
    that verb's slot values, and joining the values back gives a text that parses to the same move:
    so every legal move can be made from the slash command's options."""
    trace, spec = playout(case), case.spec
    group = spec.command_group
    problems = []
    seen: set[str] = set()
    for index, _, move in trace.legal_seen():
        text = spec.format(move)
        if text in seen:
            continue
        seen.add(text)
        verb = verb_of(spec.verbs, text)
        if verb is None:
            problems.append(f"step {index}: {text!r} uses no declared verb ({[v.name for v in spec.verbs]})")
            continue
        if move.get(MOVE_KEY) != verb.name:
            problems.append(f"step {index}: {move} must name its verb under {MOVE_KEY!r} ({verb.name!r})")
        values = verb.split(group, text)
        if values is None:
            problems.append(f"step {index}: {text!r} cannot be split into the slots of {verb.name}")
            continue
        joined = verb.text(group, values)
        try:
            again = spec.parse(joined)
        except Exception as exc:
            problems.append(f"step {index}: {text!r} -> {values} -> {joined!r} does not parse: {exc}")
            continue
        if again != move:
            problems.append(f"step {index}: {text!r} -> {values} -> {joined!r} parses to {again}, not {move}")
    assert not problems, report(problems, trace)


@pytest.mark.parametrize("case", default_cases(), ids=ids)
def test_resigning_keeps_the_game_playable(case: Case) -> None:
    """A seat that resigns early is never asked to act again; the others play on to the end, the
    standings still list every seat, and the log (with /game resign) replays to the same state."""
    trace = playout(case, resign_at=3)
    problems = finished_problems(trace)
    resigned = next((step.seat for step in trace.steps if step.text == RESIGN), None)
    assert resigned is not None or trace.error or len(trace.steps) <= 3, f"{trace.describe()}: nobody resigned"
    after = False
    for index, step in enumerate(trace.steps):
        if after and resigned in step.to_act:
            problems.append(f"step {index}: seat {resigned} resigned but is asked to act")
        after = after or step.text == RESIGN
    if not problems:
        problems = checks.standings_problems(case.spec, trace.final_state(), case.names)
        again = rebuild(case.spec, case.names, case.parsed_options(), trace.seed, trace.moves())
        if dumps(again) != trace.final:
            problems.append("the log with the resignation does not replay to the same state")
    assert not problems, report(problems, trace)


@pytest.mark.parametrize("case", default_cases(), ids=ids)
def test_board_images_for_every_player_count(case: Case) -> None:
    """The game's renderer (found through its manifest) draws a PNG of the public board, a seat's
    private view focused on that seat, and the final board, for every player count."""
    trace, spec = playout(case), case.spec
    assert trace.steps, trace.error
    middle = trace.state(len(trace.steps) // 2)
    images = [rendering.render(spec.view(middle, None)), rendering.render(spec.view(middle, 0), 0)]
    if trace.final:
        images.append(rendering.render(spec.view(trace.final_state(), None)))
    assert all(image.startswith(PNG) for image in images)
