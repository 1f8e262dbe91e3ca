"""Tiny Towns level 2, solo: the pick (and, once the deck is known, the placement) chosen by
planning on the deck.

The one-turn search (``ai_search``) judges a town by a hand-weighted evaluation two rounds ahead.
In solo the bot can look further: the deck is the unseen cards (a known multiset, order unknown)
followed by its own earlier picks in the order it made them, so once the unseen cards are put in
some order the rounds to come depend only on its own choices. For the few best candidate turns,
the bot samples a few orders of the unseen cards (the same ones for every candidate), searches its
best line a few rounds ahead on each as if that order were known (a beam search over its own
picks, placements and builds), and keeps the candidate with the best average. After 11 picks
every card is known (the one still unseen follows from those seen) and one exact order remains:
the bot then plays the game out (``play_out``), trying each promising first step with quick
greedy plays to the end on that order (``rollout``, one per greedy rule), judges the best few once
more by the best play-out of their own next steps (``second_look``), and takes the step that scores
best; it builds to the town that step's best play-out started from (``best_build``), so the line
it plays is the line it planned.

Hidden information: the order of the unseen cards is never read; the samples come from a seeded
SplitMix64 whose seed is made only of what the player sees (own town, face-up cards, own picks,
round), so a choice is deterministic and the same for any order of the unseen cards.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from games.base import MOVE_KEY, IllegalMove, Move, State
from games.rng import Rng
from games.tiny_towns import ai_model as model
from games.tiny_towns.ai_model import EMPTY, LETTERS, Cells
from games.tiny_towns.content import LETTER, RESOURCES, RULES
from games.tiny_towns.patterns import CELL_INDEX

if TYPE_CHECKING:  # ai_search imports this module
    from games.tiny_towns.ai_search import Search

# Search sizes (bot tuning, not rules): counts, never a clock, bound the work of a decision.
# 40 seeded solo games: 21.9 average against 20.7 for the two-round look-ahead (see the report).
_CANDIDATES = 4  # turns (pick and square) that get planned, by their one-turn value
_SAMPLES = 3  # sampled orders of the unseen cards (one once the whole deck is known)
_BEAM = 2  # towns kept per round of the plan search
_DEPTH = 3  # rounds the plan search looks ahead
_SPREAD = 2  # squares tried per offered letter, by the pattern gain
# Once every card to come is known (after 11 picks) the rest of the game is a puzzle the bot can
# solve by playing it out: every first step (an offered letter on one of the _PILOT_SPREAD squares
# that advance a pattern most) is judged by the final score of a greedy play to the end on the known
# order (``rollout``; _GREEDY_SPREAD squares per letter each round). The greedy play's own next step
# is always among those tried, so the line played never scores less than the greedy play from the
# same town (a rollout algorithm's guarantee). Solo, seeds 0-39 (200-game bench: see the report):
#   beam plans blended with one rollout (before): 24.9; pilot 4 squares, greedy 2: 26.57;
#   6 and 2: 27.38; 4 and 3: 27.15; 8 and 3: 27.57 (decision CPU p99 0.47 s); 16 and 3: 27.6;
#   8 and 3 with stationary weights (``Search(stationary=True)``, see ``ai_search.choose``): 28.48,
#   decision CPU p99 0.43 s. Told the true order from the first pick (a probe, not a bot), the same
#   play-out scored no better on seeds 0-6: the greedy play, not the unknown cards, limits it.
# Each step is judged by several greedy rules' plays (``ai_search._PLAY_OUTS``): 29.68 against 28.63
# for the first rule alone; the 3 best steps judged once more by the best play-out of their own next
# steps (``second_look``, 4 squares a letter): 30.15, decision CPU p99 1.42 s beside tests (seeds
# 0-19: 29.55; the 6 best: 30.0 at p99 2.27 s). With a third rule (Chapel +1, Well -0.5), seeds 0-19:
# the 3 best looked at twice 30.7 at p99 2.30 s, the 2 best 30.55 at p99 1.76 s; once the search
# visited only the open patterns (half the CPU), the 3 best (kept) at p99 1.08 s, the 6 best 30.75
# (p99 1.74 s), the 3 best with 6 squares a letter 30.6, every step with 4 empty squares or fewer
# 30.65, greedy plays on 4 squares a letter 30.1, a fourth rule (Tavern +1.5) 30.55 at p99 3.4 s,
# and before the deck is known 6 sampled orders for 6 candidates 29.8. The 200-game bench (all 200
# seeds): 30.29 with the 3 best; with the deck known a pick earlier (the last unseen card follows from
# those seen, ``solo_deck``) 30.55 at p99 1.10 s (seeds 0-39: 30.68 against 30.58). Dropped:
# play-outs before the deck is known on 2 guessed orders of the unseen cards (first rule) 29.58 (p99
# 1.40 s). Earlier, with one rule: a beam search over whole lines to the end (16 towns a round, the
# best line's first step) replanned at every decision scored 22 on seeds 0-5 against 24: a beam's
# answer from the next town is not the tail of its answer from this one, so the plans drifted; the
# same play-outs before the deck is known, averaged over 4 guessed orders of the unseen cards for
# the 8 best turns, scored 26.45 against 26.57 at three times the CPU (p99 1.67 s).
_PILOT_SPREAD = 8
_GREEDY_SPREAD = 3
_LOOK_AGAIN = 3  # the best steps judged once more by their own next steps (``second_look``)
_LOOK_SPREAD = 4  # the first rule's squares a letter for those next steps
_ROLLOUT_ROUNDS = 40  # a bound only: a town fills up well before
# Tried and dropped before the deck is known (seeds 0-19, where these settings scored 30.15 before
# the solo Theater weight, ``ai_search._SOLO``): a wider plan search (8 candidates 30.2, 6 sampled
# orders 30.2, 4 rounds deep 30.4, a beam of 4 30.3), the plan search placing the cube too (29.85),
# and with 4 cards unseen or fewer the play-outs averaged
# over every order the unseen cards may lie in (at most 24): for the picks 30.05, the picks and
# placements 31.1, the placements alone 31.6 (seeds 20-39 31.2 and 40-79 30.98, against 31.2 and 31.0
# then); the 200-game bench 30.68 against 30.55, decision p99 1.35 s against 1.11 s (max 3.8 s): too
# little for the time. The same with 6 unseen or fewer on 12 sampled orders: 29.75 (a greedy play-out
# from further back misleads). A probe told the true order (not a bot): 33.6 from the first pick,
# 32.05 from the 5th, 31.5 from the 9th: the unseen cards hide points that averaging over their orders
# does not win. What won them: the probe's towns held three times the Theaters, and a Theater counted
# 3 more until the deck is known (``ai_search._SOLO``) scores 32.56 on the 200-game bench.


class Deck(NamedTuple):
    """What the solo player knows of the resource cards, as letters."""

    revealed: tuple[str, ...]
    unseen: tuple[str, ...]  # the cards on top of the deck, order unknown: a sorted multiset
    known: tuple[str, ...]  # below them, in order: the player's own picks, oldest first (under the
    # unseen cards themselves when those can lie in one order only: the last one, or all alike)


def solo_deck(state: State) -> Deck:
    """The solo cards as the player knows them (never the order of the unseen cards)."""
    solo = state["solo"]
    deck = solo["deck"]
    picks = state["round"] - 1 if state["phase"] == "announce" else state["round"]
    own = min(picks, len(deck))
    known = tuple(LETTER[r] for r in deck[len(deck) - own :]) if own else ()
    counts = {LETTER[r]: RULES["solo"]["cards_per_resource"] for r in RESOURCES}
    for r in solo["revealed"]:
        counts[LETTER[r]] -= 1
    for letter in known:
        counts[letter] -= 1
    unseen = tuple(sorted(letter for letter, n in counts.items() for _ in range(max(0, n))))[: len(deck) - own]
    revealed = tuple(LETTER[r] for r in solo["revealed"])
    if len(set(unseen)) == 1:  # one card left unseen (after 11 picks), or all alike: one order
        return Deck(revealed, (), unseen + known)
    return Deck(revealed, unseen, known)


def sampled_decks(deck: Deck, cells: Cells, round_no: int) -> list[list[str]]:
    """Orders of the whole deck to plan on, from a seed of public facts only."""
    if not deck.unseen:
        return [list(deck.known)]
    public = json.dumps([cells, deck, round_no], separators=(",", ":"))
    rng = Rng(zlib.crc32(public.encode()))
    return [[*rng.shuffled(deck.unseen), *deck.known] for _ in range(_SAMPLES)]


def _take(revealed: tuple[str, ...], card: str, deck: list[str]) -> tuple[str, ...]:
    """The face-up cards after picking ``card``: it goes under the deck and the top card replaces it."""
    out = list(revealed)
    index = out.index(card)
    deck.append(card)
    out[index] = deck.pop(0)
    return tuple(out)


def planned(
    search: Search,
    cells: Cells,
    revealed: tuple[str, ...],
    deck: list[str],
    wild: set[str],
    sizes: tuple[int, int, int] | None = None,
) -> float:
    """The best value the bot can reach ``_DEPTH`` rounds ahead when it knows every card to come:
    its own choices alone decide the future, so the best line (searched with a beam of the most
    promising towns each round) is what it can count on. ``sizes``: depth, beam and spread."""
    depth, width, spread = sizes or (_DEPTH, _BEAM, _SPREAD)
    beam: list[tuple[float, Cells, tuple[str, ...], list[str]]] = [(search.evaluate(cells), cells, revealed, deck)]
    ended: list[float] = []
    for _ in range(depth):
        children: list[tuple[float, Cells, tuple[str, ...], list[str]]] = []
        for _, town, shown, order in beam:
            empties = [i for i, t in enumerate(town) if t == EMPTY]
            if not empties:
                ended.append(search.evaluate(town))
                continue
            wilds = [card for card in shown if card in wild]
            gains = search.gains(town)
            for x in LETTERS if wilds else tuple(sorted(set(shown))):
                ranked = sorted(((gains.get((i, x), 0.0), i) for i in empties), reverse=True)
                for _, i in ranked[:spread]:
                    value, after = search.after_builds(model.place(town, i, x))
                    rest = list(order)
                    children.append((value, after, _take(shown, x if x in shown else wilds[0], rest), rest))
        if not children:
            beam = []
            break
        children.sort(key=lambda child: -child[0])  # stable: equal values keep their order
        beam = children[:width]
    return max([*ended, *(value for value, *_ in beam)])


def rollout(search: Search, cells: Cells, revealed: tuple[str, ...], deck: list[str], wild: set[str]) -> float:
    """The final score of a quick greedy play to the end of the game on a known deck order (``deck``
    is used up): a picture of the final town that the cards to come allow."""
    for _ in range(_ROLLOUT_ROUNDS):
        if EMPTY not in cells:
            break
        card, cells = _greedy_turn(search, cells, revealed, wild)
        revealed = _take(revealed, card, deck)
    return search.final_score(cells)


def _greedy_turn(search: Search, cells: Cells, revealed: tuple[str, ...], wild: set[str]) -> tuple[str, Cells]:
    """One round of the rollout: of the few squares per offered letter that advance a pattern most,
    the cube whose town (after the best builds) the evaluation values most. Returns the card taken
    and the town."""
    empties = [i for i, t in enumerate(cells) if t == EMPTY]
    wilds = [card for card in revealed if card in wild]
    gains = search.gains(cells)
    best: tuple[float, str, Cells] | None = None
    for x in LETTERS if wilds else tuple(sorted(set(revealed))):
        ranked = sorted(empties, key=lambda i: -gains.get((i, x), 0.0))  # stable: lower squares first
        for i in ranked[:_GREEDY_SPREAD]:
            value, after = search.after_builds(model.place(cells, i, x))
            if best is None or value > best[0] + 1e-9:
                best = (value, x, after)
    assert best is not None  # the town has an empty square and three cards are face up
    _, x, after = best
    return (x if x in revealed else wilds[0]), after


class Step(NamedTuple):
    """The first round of a planned line: the card picked, the square and the letter placed."""

    card: str
    square: int
    letter: str


class Judged(NamedTuple):
    """A first step with what the bot can count on after it, every card being known."""

    final: float  # the best final score of the greedy rules' plays after it (``best_build``)
    value: float  # the evaluation of the town after it, for ties
    step: Step
    town: Cells  # after the step and the build its best play-out starts from
    revealed: tuple[str, ...]  # the face-up cards after it
    deck: tuple[str, ...]  # the deck after it, top first


def judged(rules: Sequence[Search], town: Cells, revealed: tuple[str, ...], deck: list[str], wild: set[str]) -> float:
    """The best final score of the greedy ``rules``' plays to the end from ``town`` on ``deck``."""
    return max(rollout(rule, town, revealed, list(deck), wild) for rule in rules)


def first_steps(
    search: Search,
    cells: Cells,
    revealed: tuple[str, ...],
    deck: list[str],
    wild: set[str],
    letters: tuple[str, ...] | None = None,
    rules: Sequence[Search] = (),
    spread: int | None = None,
) -> list[Judged]:
    """Each offered letter on the ``spread`` squares (``_PILOT_SPREAD`` unless given) that advance a
    pattern most (by ``search``, and each greedy rule's own next squares), then each rule's builds:
    its best final score by the rules' greedy plays to the end on ``deck`` (``judged``; by default
    ``search`` is the one rule) and its evaluation. Every rule's own next step is tried, so what a
    rule's play reaches from here is never lost. ``letters``: the letters the cube may be once a
    card is picked (it is already under the deck); else any face-up card may be picked. Empty if
    the town is full."""
    empties = [i for i, t in enumerate(cells) if t == EMPTY]
    if not empties:
        return []
    rules = rules or (search,)
    wilds = [card for card in revealed if card in wild]
    offered = letters if letters else (LETTERS if wilds else tuple(sorted(set(revealed))))
    out: list[Judged] = []
    for x in offered:
        squares: dict[int, None] = {}
        for k, rule in enumerate((search, *rules)):
            gains = rule.gains(cells)
            ranked = sorted(empties, key=lambda i: -gains.get((i, x), 0.0))  # as _greedy_turn ranks them
            squares.update(dict.fromkeys(ranked[: (spread or _PILOT_SPREAD) if k == 0 else _GREEDY_SPREAD]))
        for i in squares:
            placed = model.place(cells, i, x)
            card = x if x in revealed else (wilds[0] if wilds else x)
            rest = list(deck)
            shown = revealed if letters else _take(revealed, card, rest)
            final, town = best_build(rules, placed, shown, rest, wild)
            out.append(Judged(final, search.after_builds(placed)[0], Step(card, i, x), town, shown, tuple(rest)))
    return out


def second_look(search: Search, steps: list[Judged], wild: set[str], rules: Sequence[Search] = ()) -> list[Judged]:
    """``steps`` with the ``_LOOK_AGAIN`` best judged once more: by the best of their own next
    steps (``first_steps`` from the town after them, ``_LOOK_SPREAD`` squares a letter). Each rule's
    next step is among those, so a step's value never falls; the next decision tries every step
    this look tried (its squares include these), so neither does the value of the line played."""
    order = sorted(range(len(steps)), key=lambda k: (-steps[k].final, -steps[k].value))  # stable
    out = list(steps)
    for k in order[:_LOOK_AGAIN]:
        line = steps[k]
        after = first_steps(search, line.town, line.revealed, list(line.deck), wild, None, rules, _LOOK_SPREAD)
        if after:
            out[k] = line._replace(final=max(line.final, max(a.final for a in after)))
    return out


def best_build(
    rules: Sequence[Search], cells: Cells, revealed: tuple[str, ...], deck: list[str], wild: set[str]
) -> tuple[float, Cells]:
    """Of the greedy ``rules``' builds from ``cells`` (its cube placed), the town whose play-outs
    score best on ``deck`` (``judged``; the first on ties), with that score. ``first_steps`` judges
    a step by it and the bot builds to it once every card is known."""
    best: tuple[float, Cells] | None = None
    for town in dict.fromkeys(rule.after_builds(cells)[1] for rule in rules):
        final = judged(rules, town, revealed, deck, wild)
        if best is None or final > best[0]:
            best = (final, town)
    assert best is not None  # there is at least one rule
    return best


def play_out(steps: list[Judged]) -> tuple[float, Step] | None:
    """The best final score the bot can count on with every card to come known, and the first step
    of its line: of ``first_steps`` (looked at again by ``second_look``), the step whose play-outs
    score best, the evaluation breaking ties (then the order tried). None if there is no step (the
    town is full)."""
    best: Judged | None = None
    for line in steps:
        if best is None or (line.final, line.value) > (best.final + 1e-9, best.value):
            best = line
    return None if best is None else (best.final, best.step)


def looked(
    search: Search,
    cells: Cells,
    revealed: tuple[str, ...],
    deck: list[str],
    wild: set[str],
    letters: tuple[str, ...] | None,
    rules: Sequence[Search],
) -> tuple[float, Step] | None:
    """The bot's line once every card is known: ``play_out`` of the ``second_look`` at the
    ``first_steps``."""
    return play_out(second_look(search, first_steps(search, cells, revealed, deck, wild, letters, rules), wild, rules))


def best_turn(
    search: Search,
    options: list[tuple[Any, Cells, str | None]],
    deck: Deck,
    decks: list[list[str]],
) -> Any:
    """The key of the option (key, town after the cube, card picked or None once picked) whose
    planned values over the sampled decks average best. Candidates are the best few by their
    one-turn value; keys break ties."""
    wild = search.factory_letters()
    first = sorted(((search.after_builds(cells)[0], i) for i, (_, cells, _) in enumerate(options)), reverse=True)
    best_key, best_value = None, None
    for _, i in first[:_CANDIDATES]:
        key, cells, card = options[i]
        built = search.after_builds(cells)[1]
        total = 0.0
        for order in decks:
            rest = list(order)
            revealed = _take(deck.revealed, card, rest) if card is not None else deck.revealed
            total += planned(search, built, revealed, rest, wild)
        value = total / len(decks)
        if best_value is None or value > best_value + 1e-9:
            best_key, best_value = key, value
    return best_key


def choose_pick(
    search: Search, state: State, moves: list[Move], cells: Cells, rules: Sequence[Search] = ()
) -> Move | None:
    """The solo pick: every face-up card with every square (any letter for a Factory's card)."""
    deck = solo_deck(state)
    wild = search.factory_letters()
    empties = [i for i, t in enumerate(cells) if t == EMPTY]
    options: list[tuple[Any, Cells, str | None]] = []
    for move in moves:
        card = LETTER[move["resource"]]
        for letter in LETTERS if card in wild else (card,):
            for i in empties:
                options.append(((RESOURCES.index(move["resource"]), i, letter), model.place(cells, i, letter), card))
    if not options:
        return None
    if not deck.unseen:  # every card to come is known: play the game out
        line = looked(search, cells, deck.revealed, list(deck.known), wild, None, rules)
        if line is not None:
            return next(m for m in moves if LETTER[m["resource"]] == line[1].card)
    index = best_turn(search, options, deck, sampled_decks(deck, cells, state["round"]))[0]
    return next(m for m in moves if RESOURCES.index(m["resource"]) == index)


def choose_place(search: Search, state: State, moves: list[Move], cells: Cells, rules: Sequence[Search] = ()) -> Move:
    """The solo placement of the picked card once every card is known: the first step of the
    played-out line (the look-ahead of ``ai_search`` places before that: it already knows the next
    face-up cards exactly). A place-phase move other than a cube (a Warehouse's) falls back to the
    plan search."""
    if not moves:
        raise IllegalMove("The bot has nothing to do now.")
    from games.tiny_towns.ai_search import after_place

    deck = solo_deck(state)
    named = state["resource"]
    letters = tuple(sorted({LETTER[str(m.get("resource") or named)] for m in moves if m[MOVE_KEY] == "place"}))
    wild = search.factory_letters()
    line = looked(search, cells, deck.revealed, list(deck.known), wild, letters, rules)
    if line is not None:
        _, step = line
        for move in moves:
            if move[MOVE_KEY] != "place" or CELL_INDEX[move["cell"]] != step.square:
                continue
            if LETTER[str(move.get("resource") or named)] == step.letter:
                return move
    options: list[tuple[Any, Cells, str | None]] = [
        (k, after_place(cells, move, state["resource"]), None) for k, move in enumerate(moves)
    ]
    return moves[best_turn(search, options, deck, sampled_decks(deck, cells, state["round"]))]


__all__ = [
    "Deck",
    "Judged",
    "Step",
    "best_turn",
    "choose_pick",
    "choose_place",
    "planned",
    "best_build",
    "first_steps",
    "judged",
    "looked",
    "play_out",
    "rollout",
    "sampled_decks",
    "second_look",
    "solo_deck",
]
