"""Tiny Towns level 2: expectimax over the next resources with a town evaluation.

Every decision (which revealed resource to pick, where to put the cube, what to build) is
scored as a whole turn: the cube, then the best chain of builds, then the expected value over the
resource the next round may bring (depth 2: its best placement and builds), judged by
``evaluate``: the town's real points (buildings only) plus what its cubes and empty squares
promise. The search only models the bot's own town (``ai_model``); the real moves it sends are
always the engine's legal moves. With other players it also guesses, from their public towns, what
the next master builder will name, and as master builder it weighs what a resource gives the others.

What the bot may know: its own town, the building cards, the public revealed resources and, in
solo, its own earlier picks. It never reads the order of the face-down solo deck: after k picks
the deck is the unseen cards (their order unknown, taken as a multiset) followed by its own k
picks in order, so the next card is drawn from that multiset (or is known once k >= 11: one card
is left unseen). The search is fully deterministic (no clock; in solo, the sampled orders of the
unseen cards come from a seed made only of public facts, ``ai_solo_plan.sampled_decks``), so the
host may recompute a move.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

from games.base import MOVE_KEY, IllegalMove, Move, State
from games.tiny_towns import ai_model as model
from games.tiny_towns import ai_solo_plan, flow, rules
from games.tiny_towns.ai import named_resource
from games.tiny_towns.ai_model import EMPTY, LETTERS, Cells, Pattern
from games.tiny_towns.builds import build_moves
from games.tiny_towns.content import CATALOGUE, LETTER, RESOURCES, RULES
from games.tiny_towns.patterns import CELL_INDEX
from games.tiny_towns.scoring import score_town
from games.tiny_towns.town import factory_resources


@dataclass(frozen=True)
class Weights:
    """Evaluation weights (bot tuning, not rules): what cubes, empty squares and unfed Cottages
    promise, on top of the buildings' real points."""

    dead: float = -0.4  # a cube no pattern can use blocks its square (on top of its -1)
    empty: float = 0.3  # an empty square: room for a future building (on top of its -1)
    unfed_hope: float = 3.0  # an unfed Cottage while a feeder may still come
    feed_base: float = 0.25  # how sure that hope is, by the best feeder pattern's progress
    feed_grow: float = 0.6
    hope: float = 0.08  # an empty square's share of the best pattern it could join
    base: float = 0.3  # a cube's share of its pattern's building, by progress
    grow: float = 0.55
    ready: float = 0.75
    bonus: tuple[tuple[str, float], ...] = ()  # per building type, added to its estimated worth


# At the table (and the play-out's second rule, below). Farm +1.0 / Well -0.4 with a dead cube at -0.8
# scored 21.4 against 20.75 in 24 seeded solo games but fewer 4-player wins; in 40 seeded solo games
# (22.1 with these) a dead cube at -0.8 with Farm +1.0 and Well -0.4 scored 21.6, Farm +1.5 and Chapel
# +0.8 20.9, a dead cube at -0.8 with an empty square at +0.5 20.9, a dead cube at -0.2 20.8, an unfed
# Cottage's hope at 2.0 19.8, and Tavern +1.5, Chapel +1.0, Theater +1.0 18.6.
_TABLE = Weights()
# Solo until the deck is known (``Search`` takes these by the variant): the table's weights with a
# Theater worth 3 more. The table's estimate reads the Theater's lines as they are, but a solo town
# fills up only as fast as its cubes leave it and a Theater ends at 4-5 points. Told the true order
# from the first pick (a probe, not a bot), level 2 built 0.45 Theaters a game on seeds 0-19 (2.0
# points) against 0.15 (0.65). The play-out's estimate at the first pick with every card known
# (a probe), seeds 0-39: 28.43 with the table's weights; Theater +1.5 30.03, +3 30.48, +4.5 30.53,
# +3 with Tavern +1 30.53, with Chapel +1 30.23, with Well -0.5 30.48; Chapel +1 and Well -0.5
# alone 28.55. Whole games: Theater +3 32.9 on seeds 0-19 (30.15 with the table's) and 32.88 on
# seeds 20-59, with Tavern +1 32.78. The 200-game bench: 32.56 against 30.55 (Theaters 4.67 points
# a game; seeds 0-19 with the table's: 0.65), decision p99 1.17 s.
_SOLO = Weights(bonus=(("theater", 3.0),))
# The play-out's greedy rules (solo once every card is known, ``Search(stationary=True)``): a step is
# judged by the best final score of their greedy plays to the end (``ai_solo_plan.first_steps``); the
# first also ranks the squares to try. The first was tuned, one weight at a time, for the final score
# of its own greedy play on the true deck order of seeded games 1000-1199 (a probe, not a bot): 13.7
# with the table's weights, 19.0 with these (seeds 0-199: 14.9 and 18.3). Level 2, seeds 0-39: the
# table's weights alone 28.48; these alone 28.63; both 29.68 (decision CPU p99 0.95 s); with a third
# rule (Farm +1.5, Cottage +0.5) 28.98, before every rule's own steps and builds were tried. The third
# rule here leans to Chapels over Wells (a Chapel counts every fed Cottage, a Well only its
# neighbours), for lines the other two miss: seeds 0-19 with the second look
# (``ai_solo_plan.second_look``) 30.55 against 29.55 without it.
_PLAY_OUTS = (
    Weights(
        dead=-0.6,
        empty=0.6,
        feed_grow=0.8,
        hope=0.13,
        base=0.15,
        ready=0.65,
        bonus=(("cottage", -0.4), ("farm", 0.8), ("factory", 0.4)),
    ),
    _TABLE,
    Weights(bonus=(("chapel", 1.0), ("well", -0.5))),
)


# Search sizes (bot tuning, not rules): a decision has far more time to spare (0.1 s CPU p99 at 4 and
# 4, against 2 s allowed) and a wider search pays. Seeded 4-player games against three level-1 bots,
# seeds 0-47: 12 and 12 won 82% (24.2 points against 16.9), 8 and 8 62% (22.6), 4 and 4 62% (20.9);
# seeds 48-143: 12 and 12 won 69% (24.1 against 16.9). Solo (the placements before the deck is known;
# ai_solo_plan plans the picks): 12 and 12 scored 24.9 on seeds 0-39 and 23.4 on seeds 40-79, against
# 23.55 and 22.5 at 4 and 4; 20 and 20 scored 24.1 on seeds 0-39. Decision p99 0.2-0.7 s CPU.
# With other players (never solo), the bot models them from public information only (their towns;
# their secret monuments are blanked out, ``public_view``). _GUESS: how sure it is that the next
# master builder names the resource that best fits their own town (what level 1 names; the rest of
# the chance is spread evenly over the five letters, as people do not all name like level 1).
# _DENIAL: how much of the other players' mean gain from a resource counts against naming it.
# Seeded 4-player games against three level-1 bots, seeds 200-295 (win %, level 2 against level 1
# points, decision CPU p99): neither 70.3% (22.85 against 16.93, 0.66 s); denial 0.5 alone 70.3%
# (23.2 against 16.63); guess 0.5 73.4% (23.71 against 15.94); guess 0.5 and denial 0.5 75.0%
# (22.79 against 14.79), denial 0.7 74.0%; guess 0.8 83.3% (23.79 against 15.12, 0.73 s); guess 0.8
# and denial 0.5 80.7% (23.44 against 14.07, 0.81 s): denial costs the others about a point a game
# in each pair, so both stay. Bench seeds 0-199 with both: 73.8% (22.97 against 15.47, 0.75 s),
# against 67.2% before.
_GUESS = 0.8
_DENIAL = 0.5
_TOP = 12  # first-level candidates that get the depth-2 look-ahead
_WIDTH = 12  # placements searched per resource offer at depth 2


class Analysis(NamedTuple):
    value: float
    complete: list[Pattern]


class Search:
    def __init__(self, state: State, seat: int, stationary: bool = False, weights: Weights | None = None) -> None:
        """``stationary``: weigh the buildings as for an empty town, so that the weights (and the
        greedy play they steer) stay the same from one decision to the next as the town grows; such
        a search uses the play-out's first greedy rule unless ``weights`` are given. Otherwise a
        search uses the table's weights (``_TABLE``), or ``_SOLO`` in a solo game."""
        from games.tiny_towns.ai import estimated_points  # the level-1 estimates, once per decision

        self.state, self.seat = state, seat
        self.town = state["towns"][seat]
        mine = self.town.get("monument")
        self.monument = mine if mine and not self.town.get("monument_built") else None
        kinds = list(state["buildings"])
        if self.monument and state["phase"] != "monuments":
            kinds.append(self.monument)
        solo = state["variant"] == "solo"
        self.w = w = weights or (_PLAY_OUTS[0] if stationary else _SOLO if solo else _TABLE)
        bonus = dict(w.bonus)
        counts: dict[str, int] = {}
        judged = state
        if stationary:
            towns = list(state["towns"])
            towns[seat] = {**self.town, "cells": [None] * len(self.town["cells"])}
            judged = {**state, "towns": towns}
        else:
            for cell in self.town["cells"]:
                if cell and "building" in cell:
                    counts[cell["building"]] = counts.get(cell["building"], 0) + 1
        self.weights = {
            slug: max(
                0.0, _future_points(slug, counts, estimated_points(judged, seat, slug)) + 1.0 + bonus.get(slug, 0.0)
            )
            for slug in kinds
        }
        self.patterns = [p for p in model.patterns_for(kinds) if self.weights[p.slug] > 0.05]
        feeders = [s for s in kinds if CATALOGUE[s].get("feeds")]
        self.feeders = set(feeders)
        # The patterns as flat rows for the hot loop of ``analyse``.
        self._rows = [
            (p, p.mask, p.size, self.weights[p.slug], p.slug in self.feeders, tuple(zip(p.cells, p.need, strict=True)))
            for p in self.patterns
        ]
        self._all_rows, self._apart, self._open = _open_tables(tuple(self.patterns))
        self._scores: dict[tuple[str, ...], tuple[float, int]] = {}  # by the buildings alone
        self._points: dict[Cells, tuple[float, int]] = {}  # the same, by the whole town
        self._evals: dict[Cells, Analysis] = {}
        self._gains: dict[Cells, dict[tuple[int, str], float]] = {}
        self._built: dict[Cells, tuple[float, Cells]] = {}

    # ---------------------------------------------------------------- evaluation

    def points(self, cells: Cells) -> tuple[float, int]:
        """Real points of the buildings (empty squares not counted) and the unfed Cottages."""
        found = self._points.get(cells)  # most towns asked for have been asked for before
        if found is not None:
            return found
        key = tuple(t if len(t) > 1 else EMPTY for t in cells)
        if key not in self._scores:
            monument = self.town.get("monument")
            town = {**self.town, "cells": model.to_engine(key, monument)}
            if self.monument and self.monument in key:
                town["monument_built"] = True
            towns = list(self.state["towns"])
            towns[self.seat] = town
            result = score_town({**self.state, "towns": towns}, self.seat)
            total = float(result["total"]) - float(result["breakdown"].get("Empty squares", 0))
            fed = result["fed"]
            unfed = sum(1 for i, t in enumerate(key) if t == "cottage" and not fed >> i & 1)
            self._scores[key] = (total, unfed)
        self._points[cells] = self._scores[key]
        return self._scores[key]

    def final_score(self, cells: Cells) -> float:
        """The score if the game ended now (cubes and empty squares at -1 each)."""
        return self.points(cells)[0] - sum(1 for t in cells if len(t) <= 1)

    def evaluate(self, cells: Cells) -> float:
        return self.analyse(cells)[0]

    def analyse(self, cells: Cells) -> Analysis:
        """The score if the game ended now, plus what cubes in viable patterns and empty squares
        promise (a cube in a complete pattern is worth a little less than its building, so the
        search builds); also the complete patterns."""
        found = self._evals.get(cells)
        if found is not None:
            return found
        w = self.w
        open_rows, occupied, star = self._open_rows(cells)
        best = [w.dead] * 16
        empty_hope = [0.0] * 16
        complete: list[Pattern] = []
        feeder = -1.0  # progress of the best viable feeder pattern (-1: none fits any more)
        rows = self._rows
        base, grow, ready, share = w.base, w.grow, w.ready, w.hope  # locals: the loop is hot
        while open_rows:
            low = open_rows & -open_rows
            open_rows ^= low
            p, pm, size, weight, feeds, squares = rows[low.bit_length() - 1]
            hit = pm & occupied  # the row is open: each of its occupied squares fits it
            matched = hit.bit_count()
            progress = matched / size
            if matched == size and hit & ~star:  # not made of Trading Posts alone
                complete.append(p)
            if feeds and progress > feeder:
                feeder = progress
            # A pattern is worth its building (a square that scores instead of costing 1); each cube
            # holds a share of it, growing with the pattern's progress.
            value = weight / size * (base + grow * progress if matched < size else ready)
            hope = weight * share * (matched + 1) / size
            for c, _ in squares:
                if hit >> c & 1:
                    if value > best[c]:
                        best[c] = value
                elif hope > empty_hope[c]:
                    empty_hope[c] = hope
        total, unfed = self.points(cells)
        if EMPTY not in cells and not complete:  # nothing more can happen: the final score
            total -= sum(1 for t in cells if len(t) <= 1)
            result = Analysis(total, complete)
            self._evals[cells] = result
            return result
        if unfed and feeder >= 0:  # a feeder can still be built: the closer it is, the surer the food
            total += w.unfed_hope * min(unfed, 4) * (w.feed_base + w.feed_grow * feeder)
        for c, t in enumerate(cells):
            if t == EMPTY:
                total += empty_hope[c] + w.empty - 1.0
            elif len(t) == 1:
                total += best[c] - 1.0
        result = Analysis(total, complete)
        self._evals[cells] = result
        return result

    def gains(self, cells: Cells) -> dict[tuple[int, str], float]:
        """Per (empty square, letter), how much a cube there would advance a viable pattern (to pick
        the placements worth a closer look). Apart from ``analyse``: most towns analysed are never
        asked for it."""
        found = self._gains.get(cells)
        if found is not None:
            return found
        open_rows, occupied, _ = self._open_rows(cells)
        gains: dict[tuple[int, str], float] = {}
        rows = self._rows
        while open_rows:
            low = open_rows & -open_rows
            open_rows ^= low
            _, pm, size, weight, _, squares = rows[low.bit_length() - 1]
            hit = pm & occupied
            step = weight * (hit.bit_count() + 1) / size
            for c, letter in squares:
                if not hit >> c & 1 and step > gains.get((c, letter), 0.0):
                    gains[(c, letter)] = step
        self._gains[cells] = gains
        return gains

    def _open_rows(self, cells: Cells) -> tuple[int, int, int]:
        """The rows ``cells`` leave open (a bitset over ``_rows``), its occupied squares and its
        Trading Posts, as bits."""
        open_rows = self._all_rows
        occupied = star = 0
        fits, apart = self._open, self._apart
        for c, t in enumerate(cells):
            if t:
                occupied |= 1 << c
                open_rows &= fits[c].get(t, apart[c])
                if t == "trading-post":
                    star |= 1 << c
        return open_rows, occupied, star

    def after_builds(self, cells: Cells) -> tuple[float, Cells]:
        """The best value reachable by building now (any number of builds, greedily)."""
        found = self._built.get(cells)
        if found is not None:
            return found
        start = cells
        value, complete = self.analyse(cells)
        while complete:
            chosen = None
            for p in complete:
                # Where the building stands matters for its points (judged by the cheap cached
                # score); only the best squares by points get the full analysis.
                trials = [model.build(cells, p, at) for at in p.cells if cells[at] != "trading-post"]
                scored = [(self.points(t)[0], t) for t in trials]
                top = max(v for v, _ in scored)
                for v0, trial in scored:
                    if v0 < top - 1e-9:
                        continue
                    v = self.analyse(trial)[0]
                    if v > value + 1e-9:
                        value, chosen = v, trial
            if chosen is None:
                break
            cells = chosen
            complete = self.analyse(cells)[1]
        self._built[start] = (value, cells)
        return value, cells

    def turn(self, cells: Cells, letters: tuple[str, ...]) -> float:
        """Best value of a round offering ``letters`` (place one, then build). Only the few
        placements that advance patterns most are searched (and one square for a dead cube)."""
        empties = [i for i, t in enumerate(cells) if t == EMPTY]
        if not empties:
            return self.after_builds(cells)[0]
        gains = self.gains(cells)
        ranked = sorted(((gains.get((i, x), 0.0), i, x) for x in letters for i in empties), reverse=True)
        return max(self.after_builds(model.place(cells, i, x))[0] for _, i, x in ranked[:_WIDTH])

    def lookahead(self, cells: Cells, chances: list[tuple[float, tuple[str, ...]]]) -> float:
        """Expected best value of the next round (``chances``: probability, letters offered)."""
        if EMPTY not in cells:  # the town is complete after this round
            return self.points(cells)[0] - sum(1 for t in cells if len(t) <= 1)
        return sum(p * self.turn(cells, letters) for p, letters in chances)

    # ---------------------------------------------------------------- what the next round brings

    def next_chances(self, picked: str | None) -> list[tuple[float, tuple[str, ...]]]:
        state = self.state
        wild = self.factory_letters()
        if state["variant"] == "solo":
            solo = state["solo"]
            revealed = [LETTER[r] for r in solo["revealed"]]
            if picked is None:  # placing: the next round's three cards are already face up
                return [(1.0, self._with_factory(tuple(revealed), wild))]
            rest = list(revealed)
            rest.remove(picked)
            out = []
            for letter, p in _next_card(state).items():
                out.append((p, self._with_factory(tuple(sorted({*rest, letter})), wild)))
            return out
        if state["variant"] == "standard":
            mb = (
                flow.next_master_builder(state, state["master_builder"])
                if state["master_builder"] is not None
                else None
            )
            if mb == self.seat:
                return [(1.0, LETTERS)]
            if mb is not None:
                guess = LETTER[named_resource(public_view(state, self.seat), mb)]
                spread = (1.0 - _GUESS) / len(LETTERS)
                return [
                    (spread + (_GUESS if letter == guess else 0.0), self._with_factory((letter,), wild))
                    for letter in LETTERS
                ]
        return [(1.0 / len(LETTERS), self._with_factory((letter,), wild)) for letter in LETTERS]

    def factory_letters(self) -> set[str]:
        return {LETTER[r] for r in factory_resources(self.town["cells"]) if r}

    def _with_factory(self, letters: tuple[str, ...], wild: set[str]) -> tuple[str, ...]:
        if wild & set(letters):
            return LETTERS
        return letters

    # ---------------------------------------------------------------- decisions

    def rank(
        self, options: list[tuple[Any, Cells, list[tuple[float, tuple[str, ...]]]]], offsets: list[float] | None = None
    ) -> Any:
        """The option (key, town after it, chances of the next round) with the best look-ahead value
        (plus its offset, if any). Keys break ties, so the answer is the same on every machine."""
        extra = offsets or [0.0] * len(options)
        first = sorted(
            ((self.after_builds(cells)[0] + extra[i], i) for i, (_, cells, _) in enumerate(options)), reverse=True
        )
        best_key, best_value = None, None
        for _, i in first[:_TOP]:
            key, cells, chances = options[i]
            built = self.after_builds(cells)[1]
            value = self.lookahead(built, chances) + extra[i]
            if best_value is None or value > best_value + 1e-9:
                best_key, best_value = key, value
        return best_key


@lru_cache(maxsize=64)
def _open_tables(patterns: tuple[Pattern, ...]) -> tuple[int, list[int], list[dict[str, int]]]:
    """Every row, and per square the rows (bitsets over ``patterns``) that a token there leaves
    open: the rows apart from the square, plus, for a cube, the rows needing its letter there (a
    Trading Post keeps every row; any other building only the rows apart). A town's open rows are
    the AND over its occupied squares, so ``analyse`` visits only those (about 24 of 284 half-way
    through a solo game) instead of testing every row. Built once per set of patterns: every
    decision asks."""
    every = (1 << len(patterns)) - 1
    apart = [every & ~sum(1 << k for k, p in enumerate(patterns) if p.mask >> c & 1) for c in range(16)]
    tables: list[dict[str, int]] = []
    for c in range(16):
        kept = dict.fromkeys(LETTERS, apart[c])
        for k, p in enumerate(patterns):
            if p.mask >> c & 1:
                kept[p.need[p.cells.index(c)]] |= 1 << k
        tables.append({**kept, "trading-post": every})
    return every, apart, tables


def _future_points(slug: str, counts: dict[str, int], level1: float) -> float:
    """What one more ``slug`` will likely be worth at the end of the game (level 1 judges by the
    town as it is now, which undervalues a Chapel before the Cottages come)."""
    effect = CATALOGUE[slug]["effect"]
    kind = effect["kind"]
    cottages = counts.get("cottage", 0)
    if CATALOGUE[slug].get("feeds"):  # its worth is counted as hope for the unfed Cottages
        return 0.5
    if kind == "fed":
        return float(effect["vp"])
    if kind == "per_fed_cottage":
        return effect["vp_each"] * max(cottages, 4) * 0.9
    if kind == "count_table":
        table, n = effect["table"], counts.get(slug, 0)
        last = len(table) - 1
        return max(table[min(n + 1, last)] - table[min(n, last)], (table[min(n + 2, last)] - table[min(n, last)]) / 2)
    if kind == "adjacent_cottages":
        return 0.6 + 0.15 * min(cottages, 3)  # it takes a square a Cottage could use
    if kind == "types_in_lines":
        return 2.5 + 0.3 * min(len(counts), 5)
    return level1


def _next_card(state: State) -> dict[str, float]:
    """The next solo card's resource letter by probability, from what the player has seen."""
    solo = state["solo"]
    deck_size = len(solo["deck"])
    picks = state["round"] - 1 if state["phase"] == "announce" else state["round"]
    if picks >= deck_size:  # every card in the deck was put there by the player, in known order
        return {LETTER[solo["deck"][0]]: 1.0}
    # The unseen part: every card minus the revealed ones minus the player's own picks (the last
    # ``picks`` cards of the deck, which the player put there). Only the counts are used.
    per = RULES["solo"]["cards_per_resource"]
    counts = {r: per for r in RESOURCES}
    for r in solo["revealed"]:
        counts[r] -= 1
    for r in solo["deck"][deck_size - picks :] if picks else []:
        counts[r] -= 1
    total = sum(counts.values())
    return {LETTER[r]: n / total for r, n in counts.items() if n > 0}


def choose(state: State, seat: int) -> Move | None:
    """The level-2 move, or None where level 1 decides (monuments, Opaleye claims)."""
    phase = state["phase"]
    town = state["towns"][seat]
    if phase == "monuments" or (phase == "place" and town["placed"] and flow.claimable(town)):
        return None
    solo = state["variant"] == "solo"
    known = solo and not ai_solo_plan.solo_deck(state).unseen  # every card to come is known
    # Stationary weights once every card is known: the play-out's greedy rule is then the same at
    # every decision, so the line planned is the line played (seeds 0-39: 28.48 against 27.57 with
    # weights from the town as it grows; stationary in every solo round: 28.35).
    greedy = play_out_rules(state, seat) if known else []
    search = greedy[0] if known else Search(state, seat)
    cells = model.from_engine(town["cells"])
    empties = [i for i, t in enumerate(cells) if t == EMPTY]
    if phase == "announce":
        moves = rules.legal_moves(state, seat)
        if solo:  # planned on sampled orders of the unseen cards (ai_solo_plan)
            return ai_solo_plan.choose_pick(search, state, moves, cells, greedy) or (moves[0] if moves else None)
        options = []
        for move in moves:
            letter = LETTER[move["resource"]]
            chances = search.next_chances(letter)
            for i in empties:
                options.append(((RESOURCES.index(move["resource"]), i), model.place(cells, i, letter), chances))
        if not options:
            return moves[0] if moves else None
        offsets = None
        if len(state["towns"]) > 1:  # solo returned above
            gains = opponent_gains(state, seat)
            offsets = [-_DENIAL * gains[LETTER[RESOURCES[key[0]]]] for key, _, _ in options]
        index, _ = search.rank(options, offsets)
        return next(m for m in moves if RESOURCES.index(m["resource"]) == index)
    if not town["placed"]:
        if known:
            return ai_solo_plan.choose_place(search, state, rules.place_moves(state, seat), cells, greedy)
        return _choose_place(search, state, seat, cells)
    return _choose_build(search, state, seat, cells, greedy)


def play_out_rules(state: State, seat: int) -> list[Search]:
    """The play-out's greedy rules for ``seat`` (stationary searches; the first ranks and builds)."""
    return [Search(state, seat, stationary=True, weights=w) for w in _PLAY_OUTS]


def public_view(state: State, seat: int) -> State:
    """``state`` as ``seat`` may know it, for modelling the other players: their unbuilt monuments
    (secret cards) and the RNG cursor are blanked out."""
    towns = [
        town if s == seat or town.get("monument_built") else {**town, "monument": None, "monument_options": None}
        for s, town in enumerate(state["towns"])
    ]
    return {**state, "towns": towns, "rng": 0}


def opponent_gains(state: State, seat: int) -> dict[str, float]:
    """Per letter, the other active players' mean value after their best placement of that letter
    and builds (level 2's evaluation of their towns): what naming it gives them."""
    view = public_view(state, seat)
    others = [s for s in flow.active_seats(state) if s != seat]
    gains = dict.fromkeys(LETTERS, 0.0)
    for other in others:
        search = Search(view, other)
        cells = model.from_engine(view["towns"][other]["cells"])
        for letter in LETTERS:
            gains[letter] += search.turn(cells, (letter,)) / len(others)
    return gains


def _choose_place(search: Search, state: State, seat: int, cells: Cells) -> Move:
    moves = rules.place_moves(state, seat)
    if not moves:
        raise IllegalMove("The bot has nothing to do now.")
    chances = search.next_chances(None)
    options = [(k, after_place(cells, move, state["resource"]), chances) for k, move in enumerate(moves)]
    return moves[search.rank(options)]


def after_place(cells: Cells, move: Move, named: str | None) -> Cells:
    """The bot's own town after one of its place-phase moves: the cube on its square, or a Warehouse
    swap's cube put back; the cave sets the cube aside, which leaves the town unchanged."""
    if move[MOVE_KEY] == "place":
        i = CELL_INDEX[move["cell"]]
        if cells[i] == EMPTY:
            return model.place(cells, i, LETTER[str(move.get("resource") or named)])
    elif move[MOVE_KEY] == "store" and move.get("swap"):
        return model.place(cells, CELL_INDEX[move["to"]], LETTER[move["swap"]])
    return cells


def _choose_build(search: Search, state: State, seat: int, cells: Cells, greedy: list[Search]) -> Move:
    from games.tiny_towns.ai import after_build_cells, candidate_builds

    if state["towns"][seat]["done"]:
        raise IllegalMove("The bot has nothing to do now.")
    moves = candidate_builds(state, seat, build_moves(state, seat, guild_replacements=False))
    if greedy:  # every card is known: build to the town of the best play-out, the line planned
        deck = ai_solo_plan.solo_deck(state)
        target = ai_solo_plan.best_build(greedy, cells, deck.revealed, list(deck.known), search.factory_letters())[1]
        for move in moves:
            after = model.from_engine(after_build_cells(state, seat, move))
            if after != cells and any(rule.after_builds(after)[1] == target for rule in greedy):
                return move
        return {MOVE_KEY: "done"}
    chances = search.next_chances(None)
    options: list[tuple[Any, Cells, list[tuple[float, tuple[str, ...]]]]] = []
    for k, move in enumerate(moves):
        options.append((k, model.from_engine(after_build_cells(state, seat, move)), chances))
    # Done: no more builds this round, so the look-ahead starts from the town as it is.
    done_value = search.lookahead(cells, chances)
    if not options:
        return {MOVE_KEY: "done"}
    k = search.rank(options)
    built = search.after_builds(options[k][1])[1]
    if search.lookahead(built, chances) > done_value + 1e-9:
        return moves[k]
    return {MOVE_KEY: "done"}


__all__ = ["Search", "Weights", "choose", "play_out_rules"]
