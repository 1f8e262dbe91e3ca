"""Bot players for My Trolley Town.

Level 0 plays random legal moves, leaning toward ending its turn so random tables finish.

Level 1 plans. Every decision is judged by a *rollout*: the town is played to the end of the
game without building anything more (production, a recipe-aware transport plan, processing, the
repeatable last round, game-end scoring). Three things keep that judgement from being myopic:

- **Completion.** A building away from the network, or a converter whose inputs nothing in the
  town makes, is worth nothing to a plain rollout. So a construction candidate (one building,
  one route, one upgrade, or pass) is judged by the town it leaves *completed*: the cheapest
  offered producer bought for each unsupplied input, and the cheapest routes joining every
  goods-moving building to the main network (one network: every building can serve every later
  one). The pieces in hand pay what they can now; what next round's income must pay is debt,
  and those parts only start working next round (this round runs the town as it stands). A
  half-built engine keeps its value and the moves that finish it soonest score best.
- **Latent value.** Wheat, coal or sheep the town makes but cannot use, and wood and stone a
  later round produces, are credited at a share of what they usually become; the share shrinks
  as the game runs out. A later round's wood goes into converters in a rollout only when they
  pay more than construction would.
- **The last round repeats.** Transport and processing repeat in round 4, so a converter's room
  no longer limits it; the pieces do. The planner reserves them for the conversions that score
  most per set (a coal waits for the full Bakery rather than going to the Coal Merchant now).

Transport uses the same planner as the rollouts: complete input sets for the most valuable
conversions first, then sheep and spare pieces to the tiles that score or store them, then
pieces staged off producers onto converters waiting for them, so the producers refill. Choices
(Trading Post, Supply Cart) are tried one by one with rollouts; solo removals take the visible
tiles the town would gain least from next round. Every move is one listed by
``rules.legal_moves`` (one building, one route, one upgrade or one piece at a time), and every
decision is deterministic (no hash-order dependence: searches run over sorted cells).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations
from typing import Any

from games.base import MOVE_KEY, IllegalMove, Move, State
from games.rng import Rng
from games.trolley_town import effects, market, rules
from games.trolley_town.content import RESOURCES, RULES, TILES, Effect
from games.trolley_town.payment import Need, building_need, default_payment, route_need
from games.trolley_town.town import (
    DISTINCT_ROTATIONS,
    OPPOSITE,
    Cell,
    Town,
    add_piece,
    buildings,
    cell_openings,
    edge_neighbours,
    frontier,
    holdings,
    is_route,
    links,
    openings,
    reachable,
    room,
    surroundings,
    take_piece,
    tile_of,
    upgrade_rotations,
    xy,
)

# ---------------------------------------------------------------- tuning
# (values found by self-play: solo averages over seeded games, bench/bench_trolley_town.py)

# Typical VP one piece becomes in a good converter (Bakery: wheat + coal -> 6, Ranch: 3 a sheep);
# "build": what a wood or stone piece a later round produces is worth to that round's
# construction. Both are credited times LATENT_SHARE.
NOMINAL = {"wheat": 2.5, "coal": 2.5, "sheep": 3.0, "wood": 0.5, "stone": 0.5, "build": 5.0}
# What burning a later round's wood or stone in a converter gives up (times LATENT_SHARE):
# that round's construction. A rollout burns it only in conversions that pay more.
BURN_COST = 5.0
# Share of those values a stranded piece (or a later round's wood and stone) is credited with,
# by the round the decision is made in: early there is time to use it, in round 4 there is none.
LATENT_SHARE = {1: 0.6, 2: 0.5, 3: 0.35, 4: 0.0}
LATENT_CAP = 8  # stranded pieces of one resource counted in full (a converter could not keep up)
LATENT_EXTRA = 0.25  # share for stranded pieces beyond the cap
KEEP = 0.8  # wood or stone kept off its producer for the next construction (rounds 1-3)
STAGED_COST = 0.3  # moving a piece that already waits on a converter (discourages shuffling)
DEBT_COST = 3.0  # VP charged for each piece the completion must pay from next round's income
MIN_GAIN = 0.05
MAX_PATH = 5  # longest route path a completion considers
PORT_VALUE = 0.8  # an open route end facing an empty cell (up to PORTS_COUNTED), before round 4
PORTS_COUNTED = 2
CELLS_PER_TILE = 2  # candidate cells for tiles whose surroundings matter (others: the best one)
CROWD = 2.0  # cell pre-score penalty for each goods-moving building beside a goods-moving tile
ROLLOUT_STEPS = 12  # cap on repeated transport/processing steps in the last round


# ---------------------------------------------------------------- what each tile does with pieces


@dataclass(frozen=True)
class Recipe:
    named: tuple[tuple[str, int], ...]
    any: int
    different: int
    vp: int
    goods: tuple[tuple[str, int], ...]

    @property
    def size(self) -> int:
        return sum(n for _, n in self.named) + self.any + self.different


@dataclass(frozen=True)
class Info:
    recipes: tuple[Recipe, ...]  # processing conversions
    end_recipes: tuple[Recipe, ...]  # game-end conversions: pieces wait here until the end
    holds: tuple[tuple[str, int, str, int, int], ...]  # (resource, vp, timing, bonus at, bonus vp)
    produces: frozenset[str]  # refilled at production: a piece moved away is replaced
    makes: frozenset[str]  # resources it puts on itself (produces, gains, converts into)
    uses: frozenset[str]  # resources it converts or scores
    storage: frozenset[str]  # accepted but neither used nor produced: a safe shelf


def _recipe(effect: Effect) -> Recipe:
    need = effect.get("from")
    out = effect.get("to")
    return Recipe(
        named=tuple((r, n) for r, n in need.items() if r in RESOURCES),
        any=int(need.get("any", 0)),
        different=int(need.get("any_different", 0)),
        vp=int(out.get("vp", 0)),
        goods=tuple((r, n) for r, n in out.items() if r != "vp"),
    )


def _gains(effect: Effect) -> set[str]:
    resource = effect.get("resource")
    if resource == "choice":
        options = effect.get("options")
        return set(RESOURCES) if options == ["any"] else set(options)
    return {resource}


@cache
def info(slug: str) -> Info:
    tile = TILES[slug]
    recipes: list[Recipe] = []
    end_recipes: list[Recipe] = []
    holds: list[tuple[str, int, str, int, int]] = []
    produces: set[str] = set()
    makes: set[str] = set()
    for effect in tile.effects:
        if effect.do == "convert":
            recipe = _recipe(effect)
            (recipes if effect.when == "processing" else end_recipes).append(recipe)
            makes |= {r for r, _ in recipe.goods}
        elif effect.do == "gain":
            makes |= _gains(effect)
            if effect.when == "production":
                produces |= _gains(effect)
        elif effect.do == "score":
            per = effect.get("per")
            if isinstance(per, dict) and per.get("count") == "here":
                bonus = effect.get("bonus") or {"at": 0, "vp": 0}
                holds.append((per["resource"], int(effect.get("vp")), effect.when, bonus["at"], bonus["vp"]))
    uses: set[str] = {h[0] for h in holds}
    for recipe in (*recipes, *end_recipes):
        uses |= {r for r, _ in recipe.named}
        if recipe.any or recipe.different:
            uses |= set(RESOURCES)
    return Info(
        recipes=tuple(recipes),
        end_recipes=tuple(end_recipes),
        holds=tuple(holds),
        produces=frozenset(produces),
        makes=frozenset(makes),
        uses=frozenset(uses),
        storage=frozenset(tile.accepts - uses - produces),
    )


def _hold_value(slug: str, resource: str, prod_left: int, count: int) -> float:
    """VP one more ``resource`` piece is worth on this tile (which already holds ``count``)."""
    best = 0.0
    for held, vp, when, at, bonus in info(slug).holds:
        if held != resource:
            continue
        value = vp * prod_left if when == "production" else float(vp)
        if at and count < at:
            value += bonus / at  # the bonus, spread over the pieces that reach it
        best = max(best, value)
    return best


# ---------------------------------------------------------------- which buildings a piece reaches


class Net:
    """Reachability in a town whose routes do not change while a plan or rollout runs.

    With the basic rules routes pass through every building, so a piece reaches exactly the
    other buildings of its connected part; the expert rule asks ``town.reachable`` per piece."""

    def __init__(self, cells: dict[str, Cell], expert: bool) -> None:
        self.cells = cells
        self.expert = expert
        self.part: dict[str, int] = {}
        self.members: list[frozenset[str]] = []
        self._memo: dict[tuple[str, str], frozenset[str]] = {}
        self._uses: dict[tuple[str, str], bool] = {}
        if not expert:
            self._label()

    def _label(self) -> None:
        for start in self.cells:
            if start in self.part:
                continue
            index = len(self.members)
            found = [start]
            self.part[start] = index
            queue = [start]
            while queue:
                key = queue.pop()
                for other in links(self.cells, key):
                    if other not in self.part:
                        self.part[other] = index
                        found.append(other)
                        queue.append(other)
            self.members.append(frozenset(k for k in found if "t" in self.cells[k]))

    def uses(self, key: str, resource: str) -> bool:
        """Whether the tile at ``key`` can really do something with ``resource``: it scores it,
        takes any piece, or converts it and its other inputs are made somewhere it is joined to."""
        memo = self._uses.get((key, resource))
        if memo is None:
            memo = self._really_uses(key, resource)
            self._uses[(key, resource)] = memo
        return memo

    def _really_uses(self, key: str, resource: str) -> bool:
        here = info(self.cells[key]["t"])
        if resource not in here.uses:
            return False
        if any(h[0] == resource for h in here.holds):
            return True
        for recipe in (*here.recipes, *here.end_recipes):
            if recipe.any or recipe.different:
                return True
            named = [r for r, _ in recipe.named]
            if resource in named and all(r == resource or self.supplied(key, r) for r in named):
                return True
        return False

    def supplied(self, key: str, resource: str) -> bool:
        """Whether some tile joined to ``key`` (or ``key`` itself) makes ``resource``."""
        if resource in info(self.cells[key]["t"]).makes:
            return True
        return any(resource in info(self.cells[o]["t"]).makes for o in self.reach(key, resource))

    def joined(self, source: str, target: str, resource: str) -> bool:
        """Whether a ``resource`` piece can travel from ``source`` to ``target`` along routes."""
        if not self.expert:
            return source != target and self.part[source] == self.part[target]
        return target in self.reach(source, resource)

    def reach(self, source: str, resource: str) -> frozenset[str]:
        if not self.expert:
            resource = ""  # the same for every resource
        memo = self._memo.get((source, resource))
        if memo is not None:
            return memo
        if not self.expert:
            memo = self.members[self.part[source]] - {source}
            self._memo[(source, resource)] = memo
            return memo
        if memo is None:
            memo = frozenset(reachable(self.cells, source, resource, True))
            self._memo[(source, resource)] = memo
        return memo


# ---------------------------------------------------------------- transport planning


def _strip_sets(left: dict[str, int], recipe: Recipe) -> int:
    """Remove from ``left`` every complete input set of ``recipe`` it holds (as the engine pays
    them); returns how many there were."""
    count = 0
    while _pay_once(left, recipe):
        count += 1
    return count


def _pay_once(left: dict[str, int], recipe: Recipe) -> bool:
    """Take one input set of ``recipe`` out of ``left`` as the engine pays it (effects._pay):
    named resources first, then "different" and "any" from the most plentiful pieces."""
    for resource, amount in recipe.named:
        if left.get(resource, 0) < amount:
            return False
    if not recipe.any and not recipe.different:  # the common case, kept cheap
        for resource, amount in recipe.named:
            if left[resource] == amount:
                del left[resource]
            else:
                left[resource] -= amount
        return True
    trial = dict(left)
    for resource, amount in recipe.named:
        trial[resource] -= amount
    kinds = [r for r in sorted(RESOURCES, key=lambda r: -trial.get(r, 0)) if trial.get(r, 0) > 0]
    if len(kinds) < recipe.different:
        return False
    for resource in kinds[: recipe.different]:
        trial[resource] -= 1
    for _ in range(recipe.any):
        resource = max(RESOURCES, key=lambda r: trial.get(r, 0))
        if trial.get(resource, 0) <= 0:
            return False
        trial[resource] -= 1
    left.clear()
    left.update({r: n for r, n in trial.items() if n > 0})
    return True


@dataclass
class Basket:
    """The pieces gathered for one conversion set on ``target``."""

    target: str
    allow: dict[str, int] | None  # last round: how many of each resource the target may use
    held: dict[str, int]  # pieces on the target already
    picks: list[tuple[str, str]] = field(default_factory=list)  # (resource, source)
    taken: dict[tuple[str, str], int] = field(default_factory=dict)
    paid: float = 0.0
    pulled: int = 0

    def take(self, planner: Planner, resource: str) -> bool:
        if self.allow is not None:
            coming = sum(1 for r, _ in self.picks if r == resource)
            if self.held.get(resource, 0) + coming >= self.allow.get(resource, 0):
                return False  # kept for a better conversion in a later step
        found = planner.best_source(self.target, resource, self.taken, self.pulled)
        if found is None:
            return False
        cost, source, pulled = found
        self.taken[(source, resource)] = self.taken.get((source, resource), 0) + 1
        self.picks.append((resource, source))
        self.paid += cost
        self.pulled += int(pulled)
        return True


class Planner:
    """One transport step for one town: which pieces to move where (mutates the town's pieces).

    ``prod_left`` is the number of production phases still to come (what a piece left on its
    producer blocks); ``share`` is the latent share of the decision's round (what an output
    nobody here uses is still worth). Spare pieces (those not already forming a complete set
    where they lie) are tracked per tile so each choice is a short scan."""

    def __init__(
        self, town: Town, net: Net, prod_left: int, share: float, pull: dict[str, int], build_cost: float = 0.0
    ) -> None:
        self.town = town
        self.cells: dict[str, Cell] = town["cells"]
        self.net = net
        self.share = share
        self.order = [key for key, _ in buildings(self.cells)]
        self.slug = {key: str(self.cells[key]["t"]) for key in self.order}
        self.info = {key: info(slug) for key, slug in self.slug.items()}
        self.converters = [(k, r) for k in self.order for r in self.info[k].recipes]
        self._outputs: dict[tuple[str, str], float] = {}
        self._bonus: dict[str, int] = {}
        self.refresh(prod_left, pull, build_cost)

    def refresh(self, prod_left: int, pull: dict[str, int], build_cost: float) -> None:
        """Start a new transport step on the same town (pieces may have changed, routes not)."""
        self.prod_left = prod_left
        self.pull = dict(pull)
        self.build_cost = build_cost
        self.moves: list[list[str]] = []
        self.spare = {key: self._spare_of(key) for key in self.order}
        self.free = {key: room(self.cells[key]) for key in self.order}
        self.holders: dict[str, set[str]] = {r: set() for r in RESOURCES}
        for key, spare in self.spare.items():
            for resource, count in spare.items():
                if count > 0:
                    self.holders[resource].add(key)
        self.allow = self._allowances() if not prod_left else None

    def _allowances(self) -> list[dict[str, int]]:
        """Last round: transport and processing repeat, so a converter's room no longer limits
        it; the pieces do. Reserve them for the conversions that score most per set, and let
        each converter use only what the better ones leave (a coal in a Bakery beats a coal
        in a Coal Merchant even if the Bakery is full this step)."""
        totals: dict[int, dict[str, int]] = {}
        for key in self.order:
            counts = totals.setdefault(self.net.part.get(key, 0), {})
            for resource, count in self.cells[key].get("r", {}).items():
                counts[resource] = counts.get(resource, 0) + count
        ranked = sorted(
            range(len(self.converters)),
            key=lambda i: (-(self.converters[i][1].vp + self.bonus(self.converters[i][0])), i),
        )
        reserved: dict[int, dict[str, int]] = {g: {} for g in totals}
        allow: list[dict[str, int]] = [{} for _ in self.converters]
        for index in ranked:
            key, recipe = self.converters[index]
            part = self.net.part.get(key, 0)
            free = {r: totals[part].get(r, 0) - reserved[part].get(r, 0) for r in RESOURCES}
            allow[index] = free
            if not recipe.vp or recipe.any or recipe.different or not recipe.named:
                continue
            sets = min(free[r] // n for r, n in recipe.named)
            for resource, amount in recipe.named:
                reserved[part][resource] = reserved[part].get(resource, 0) + sets * amount
        return allow

    def process(self) -> int:
        """The processing phase as the engine runs it (effects.convert_all), without the
        event text: each conversion as often as possible in build order, repeated until
        nothing fires. Returns the VP scored."""
        scored = 0
        changed = True
        while changed:
            changed = False
            for key, recipe in self.converters:
                cell = self.cells[key]
                spaces = TILES[cell["t"]].spaces
                goods = sum(n for _, n in recipe.goods)
                while True:
                    held = cell.get("r", {})
                    left = dict(held)
                    if not _pay_once(left, recipe):
                        break
                    if sum(left.values()) + goods > spaces:
                        break
                    for resource, amount in recipe.goods:
                        left[resource] = left.get(resource, 0) + amount
                    cell["r"] = left
                    points = recipe.vp + (self.bonus(key) if recipe.vp else 0)
                    scored += points
                    changed = True
        if scored:
            effects.score(self.town, scored, "processing")
        return scored

    # -------------------------------------------------------- bookkeeping

    def _spare_of(self, key: str) -> dict[str, int]:
        left = dict(self.cells[key].get("r", {}))
        for recipe in self.info[key].recipes:
            _strip_sets(left, recipe)
        return left

    def move(self, resource: str, source: str, target: str) -> None:
        if not self.net.joined(source, target, resource):
            self.pull[target] -= 1
        take_piece(self.cells[source], resource)
        add_piece(self.cells[target], resource)
        self.spare[source][resource] -= 1
        if self.spare[source][resource] <= 0:
            self.holders[resource].discard(source)
        for old in self.spare[target]:
            self.holders[old].discard(target)
        self.spare[target] = self._spare_of(target)
        for new, count in self.spare[target].items():
            if count > 0:
                self.holders[new].add(target)
        self.free[source] += 1
        self.free[target] -= 1
        self.moves.append([resource, source, target])

    def cost(self, key: str, resource: str) -> float:
        """What moving a piece away from ``key`` gives up."""
        here = self.info[key]
        if here.holds and any(h[0] == resource for h in here.holds):
            count = self.cells[key]["r"].get(resource, 0)
            return _hold_value(self.slug[key], resource, self.prod_left, count - 1)
        if resource in here.uses:
            return STAGED_COST
        if resource in ("wood", "stone"):
            if self.build_cost:
                return self.build_cost
            if self.prod_left and resource not in here.produces:
                return KEEP
        return 0.0

    def best_source(
        self, target: str, resource: str, taken: dict[tuple[str, str], int] | None = None, pulled: int = 0
    ) -> tuple[float, str, bool] | None:
        """The cheapest tile that can send a spare ``resource`` piece to ``target``: (cost, tile,
        whether it needs the target's pull allowance). Producers first among equals (they refill)."""
        best: tuple[float, int, int, str, bool] | None = None
        for key in self.holders[resource]:
            spare = self.spare[key].get(resource, 0)
            if taken:
                spare -= taken.get((key, resource), 0)
            if spare <= 0 or key == target:
                continue
            routed = self.net.joined(key, target, resource)
            if not routed and self.pull.get(target, 0) <= pulled:
                continue
            producer = 0 if resource in self.info[key].produces else 1
            option = (self.cost(key, resource), producer, -spare, key, not routed)
            if best is None or option < best:
                best = option
        return None if best is None else (best[0], best[3], best[4])

    def output_value(self, key: str, resource: str) -> float:
        """What a converted piece (coal from a Kiln) is worth: its share of the best conversion
        it can reach (the set's VP less the other inputs' usual worth), latent if none."""
        cached = self._outputs.get((key, resource))
        if cached is None:
            cached = NOMINAL[resource] * self.share
            for other in self.net.reach(key, resource):
                if self.net.uses(other, resource):
                    cached = max(cached, self.use_value(other, resource))
            self._outputs[(key, resource)] = cached
        return cached

    def use_value(self, key: str, resource: str) -> float:
        here = self.info[key]
        best = NOMINAL[resource]
        for recipe in here.recipes:
            amount = dict(recipe.named).get(resource, 0)
            if amount and recipe.vp:
                others = sum(NOMINAL[r] * n for r, n in recipe.named if r != resource)
                best = max(best, (recipe.vp + self.bonus(key) - others) / amount)
        return best

    def bonus(self, key: str) -> int:
        """VP neighbour-bonus tiles add each time this converter scores."""
        total = self._bonus.get(key)
        if total is None:
            total = 0
            for other in surroundings(key):
                cell = self.cells.get(other)
                if cell is not None and "t" in cell:
                    total += sum(int(e.get("vp")) for e in tile_of(cell).effects if e.do == "neighbour_bonus")
            self._bonus[key] = total
        return total

    # -------------------------------------------------------- complete sets

    def completion(self, index: int) -> tuple[float, list[tuple[str, str]]] | None:
        """The cheapest pieces that complete one more set of converter ``index`` (its tile and
        recipe), and the set's net value."""
        key, recipe = self.converters[index]
        left = dict(self.spare[key])
        basket = Basket(key, self.allow[index] if self.allow is not None else None, self.cells[key].get("r", {}))
        for resource, amount in recipe.named:
            use = min(left.get(resource, 0), amount)
            left[resource] = left.get(resource, 0) - use
            for _ in range(amount - use):
                if not basket.take(self, resource):
                    return None
        chosen: set[str] = set()
        for _ in range(recipe.different):
            here = next((r for r in RESOURCES if left.get(r, 0) > 0 and r not in chosen), None)
            if here is not None:
                left[here] -= 1
                chosen.add(here)
                continue
            wanted = self._cheapest(key, [r for r in RESOURCES if r not in chosen], basket)
            if wanted is None or not basket.take(self, wanted):
                return None
            chosen.add(wanted)
        for _ in range(recipe.any):
            here = next((r for r in RESOURCES if left.get(r, 0) > 0), None)
            if here is not None:
                left[here] -= 1
                continue
            wanted = self._cheapest(key, list(RESOURCES), basket)
            if wanted is None or not basket.take(self, wanted):
                return None
        if not basket.picks or len(basket.picks) > self.free[key]:
            return None
        value: float = recipe.vp + (self.bonus(key) if recipe.vp else 0)
        value += sum(self.output_value(key, r) * n for r, n in recipe.goods)
        return value - basket.paid, basket.picks

    def _cheapest(self, key: str, wanted: list[str], basket: Basket) -> str | None:
        best: tuple[float, int, str] | None = None
        for resource in wanted:
            found = self.best_source(key, resource, basket.taken, basket.pulled)
            if found is not None:
                option = (found[0], RESOURCES.index(resource), resource)
                if best is None or option < best:
                    best = option
        return None if best is None else best[2]

    def fill_sets(self) -> None:
        """Complete the most valuable conversion sets first; keep filling the chosen converter
        while it stays at least as good as the runner-up."""
        while True:
            ranked: list[tuple[float, int, list[tuple[str, str]]]] = []
            for index in range(len(self.converters)):
                found = self.completion(index)
                if found is not None and found[0] > MIN_GAIN:
                    ranked.append((found[0], index, found[1]))
            if not ranked:
                return
            ranked.sort(key=lambda item: (-item[0], item[1]))
            value, index, picks = ranked[0]
            runner_up = ranked[1][0] if len(ranked) > 1 else MIN_GAIN
            key, recipe = self.converters[index]
            while True:
                for resource, source in picks:
                    self.move(resource, source, key)
                found = self.completion(index)
                if found is None or found[0] < max(runner_up, MIN_GAIN):
                    break
                picks = found[1]

    # -------------------------------------------------------- shelves and staging

    def shelves(self) -> list[tuple[str, str]]:
        """(tile, resource) pairs where a piece scores or is kept: holding tiles, end converters,
        and plain storage for wood and stone while constructions remain."""
        found = []
        for key in self.order:
            here = self.info[key]
            for resource, *_ in here.holds:
                found.append((key, resource))
            for recipe in here.end_recipes:
                wanted = RESOURCES if recipe.any or recipe.different else tuple(r for r, _ in recipe.named)
                found += [(key, r) for r in wanted]
            if self.prod_left:
                found += [(key, r) for r in sorted(here.storage & {"wood", "stone"})]
        return found

    def shelf_value(self, key: str, resource: str) -> float:
        here = self.info[key]
        held = self.cells[key].get("r", {})
        if here.holds:
            value = _hold_value(self.slug[key], resource, self.prod_left, held.get(resource, 0))
            if value:
                return value
        for recipe in here.end_recipes:
            per_piece = recipe.vp / max(1, recipe.size)
            if recipe.different:
                return per_piece if not held.get(resource) else 0.0
            return per_piece * (0.9 if recipe.any else 1.0)  # a store that pays a little at the end
        return KEEP if resource in here.storage else 0.0

    def is_shelf(self, key: str, resource: str) -> bool:
        here = self.info[key]
        return bool(here.end_recipes) or resource in here.storage or any(h[0] == resource for h in here.holds)

    def fill_shelves(self) -> None:
        shelves = self.shelves()
        while shelves:
            best: tuple[float, str, str, str] | None = None
            for target, resource in shelves:
                if self.free[target] <= 0:
                    continue
                found = self._shelf_source(target, resource)
                if found is None:
                    continue
                cost, source = found
                if cost == 0.0 and resource in self.info[source].produces and self.prod_left:
                    gain = self.shelf_value(target, resource)  # the producer refills: pure gain
                else:
                    gain = self.shelf_value(target, resource) - cost
                if gain > MIN_GAIN and (best is None or gain > best[0]):
                    best = (gain, resource, source, target)
            if best is None:
                return
            _, resource, source, target = best
            self.move(resource, source, target)

    def _shelf_source(self, target: str, resource: str) -> tuple[float, str] | None:
        best: tuple[float, int, str] | None = None
        for key in self.holders[resource]:
            if key == target or self.spare[key].get(resource, 0) <= 0 or self.is_shelf(key, resource):
                continue
            if not self.net.joined(key, target, resource) and self.pull.get(target, 0) <= 0:
                continue
            option = (self.cost(key, resource), 0 if resource in self.info[key].produces else 1, key)
            if best is None or option < best:
                best = option
        return None if best is None else (best[0], best[2])

    def stage(self) -> None:
        """Move pieces off producers onto converters waiting for them, leaving room for the rest
        of a set, so the producers refill next round."""
        if not self.prod_left:
            return
        for key, recipe in self.converters:
            if recipe.any or recipe.different:
                continue
            # as many sets as fit: the other inputs of each keep their room
            sets = max(1, TILES[self.slug[key]].spaces // max(1, recipe.size))
            for resource, _ in recipe.named:
                if not self.net.uses(key, resource):
                    continue
                while True:
                    held = self.cells[key].get("r", {})
                    missing = sum(max(0, n * sets - held.get(r, 0)) for r, n in recipe.named if r != resource)
                    if self.free[key] - missing <= 0:
                        break
                    found = self.best_source(key, resource)
                    if found is None or found[0] > 0.0 or found[2] or resource not in self.info[found[1]].produces:
                        break
                    self.move(resource, found[1], key)

    def run(self) -> list[list[str]]:
        self.fill_sets()
        self.fill_shelves()
        self.stage()
        return self.moves


def plan_transport(town: Town, round_now: int, pull: dict[str, int] | None = None) -> list[list[str]]:
    """The moves of one transport step (mutates ``town``)."""
    net = Net(town["cells"], bool(town["expert"]))
    prod_left = RULES.rounds - round_now
    planner = Planner(town, net, prod_left, LATENT_SHARE.get(round_now, 0.0), pull or {})
    return planner.run()


# ---------------------------------------------------------------- rollouts


def copy_town(town: Town) -> Town:
    """A copy whose pieces can change (route cells are never changed by a rollout)."""
    cells = {}
    for key, cell in town["cells"].items():
        if "t" in cell:
            cells[key] = {"t": cell["t"], "r": dict(cell.get("r", {})), "n": cell["n"]}
        else:
            cells[key] = dict(cell)
    new = dict(town)
    new["cells"] = cells
    new["scored"] = dict(town["scored"])
    new["pending"] = [dict(c) for c in town["pending"]]
    new["pull"] = dict(town.get("pull", {}))
    return new


def _settle_default(town: Town) -> None:
    """Answer pending choices as the engine's default does (the resource held least)."""
    held = holdings(town)
    for choice in town["pending"]:
        order = sorted(choice["options"], key=lambda r: (held.get(r, 0), RULES.default_order.index(r)))
        picks = order[: choice["amount"]] if choice["different"] else [order[0]] * choice["amount"]
        for resource in picks:
            add_piece(town["cells"][choice["cell"]], resource)
    town["pending"] = []


class Rollout:
    """Plays one town to the end of the game without further building (mutates it)."""

    def __init__(self, town: Town, round_now: int) -> None:
        self.town = town
        self.round_now = round_now
        self.share = LATENT_SHARE.get(round_now, 0.0)
        self.net = Net(town["cells"], bool(town["expert"]))
        self.bank: dict[str, int] = {}
        self.planner: Planner | None = None
        self.pulls = effects.pull_allowances(town)

    def step(self, round_no: int) -> bool:
        """One transport step and processing; True if anything moved or scored."""
        build_cost = BURN_COST * self.share if round_no > self.round_now else 0.0
        prod_left = RULES.rounds - round_no
        if self.planner is None:
            self.planner = Planner(self.town, self.net, prod_left, self.share, self.pulls, build_cost)
        else:
            self.planner.refresh(prod_left, self.pulls, build_cost)
        moved = self.planner.run()
        scored = self.planner.process()
        return bool(moved) or bool(scored)

    def play_round(self, round_no: int) -> None:
        steps = ROLLOUT_STEPS if round_no >= RULES.rounds else 1
        for _ in range(steps):
            if not self.step(round_no):
                break

    def run(self, this_round: bool = True) -> float:
        if this_round:
            self.play_round(self.round_now)
            self.bank_stranded()
        for round_no in range(self.round_now + 1, RULES.rounds + 1):
            effects.produce(self.town, "")
            _settle_default(self.town)
            self.play_round(round_no)
            self.bank_stranded()
            self.bank_building()
        effects.game_end(self.town, "")
        return float(self.town["vp"]) + self.latent()

    def bank_building(self) -> None:
        """Wood and stone a later round did not burn went into that round's construction."""
        if not self.share:
            return
        for cell in self.town["cells"].values():
            held = cell.get("r")
            for resource in ("wood", "stone"):
                if held and held.get(resource):
                    self.bank["build"] = self.bank.get("build", 0) + held.pop(resource)

    def bank_stranded(self) -> None:
        """Take away wheat, coal and sheep no connected tile can use, crediting them as latent."""
        if not self.share:
            return
        cells = self.town["cells"]
        for key, cell in cells.items():
            held = cell.get("r")
            if not held or "t" not in cell:
                continue
            for resource in list(held):
                if resource not in ("wheat", "coal", "sheep") or self.net.uses(key, resource):
                    continue
                if any(self.net.uses(o, resource) for o in self.net.reach(key, resource)):
                    continue
                self.bank[resource] = self.bank.get(resource, 0) + held[resource]
                del held[resource]

    def latent(self) -> float:
        total = 0.0
        for resource, count in self.bank.items():
            full = count if resource == "build" else min(count, LATENT_CAP)
            total += (full + LATENT_EXTRA * (count - full)) * NOMINAL[resource] * self.share
        return total


def rollout_value(town: Town, round_now: int, this_round: bool = True) -> float:
    """Final VP plus latent value if the town builds nothing more (``town`` is not changed)."""
    return Rollout(copy_town(town), round_now).run(this_round)


# ---------------------------------------------------------------- route paths

_SHAPES: dict[frozenset[str], tuple[str, int]] = {}
for _kind in ("straight", "curve"):
    for _turn in DISTINCT_ROTATIONS[_kind]:
        _SHAPES.setdefault(openings(_kind, _turn), (_kind, _turn))


def _upgrade_to(cell: Cell, edge: str) -> int | None:
    """A junction rotation that keeps the route's openings and opens ``edge`` too."""
    if cell["route"] == "junction":
        return None
    for turn in upgrade_rotations(cell["route"], cell["rot"]):
        if edge in openings("junction", turn):
            return turn
    return None


@dataclass
class Path:
    cost: int
    routes: list[tuple[str, str, int]]  # (kind, cell, rotation), in laying order
    upgrades: list[tuple[str, int]]  # (cell, junction rotation)


def find_path(cells: dict[str, Cell], sources: set[str], targets: set[str]) -> Path | None:
    """The cheapest new routes (and upgrades of existing ones) that link the part of the town
    ``sources`` to ``targets``. Routes cost 1 each, an upgrade to a junction 1. A* search: the
    distance to the nearest target bounds the routes still needed."""
    heap: list[tuple[int, int, int, str, str]] = []
    spots = [xy(k) for k in targets]
    guess: dict[str, int] = {}

    def remaining(key: str) -> int:
        found = guess.get(key)
        if found is None:
            x, y = xy(key)
            found = max(0, min(abs(x - tx) + abs(y - ty) for tx, ty in spots) - 1)
            guess[key] = found
        return found

    # state (cell, entry edge) -> (cost, previous state or None, upgrade made at the start)
    best: dict[tuple[str, str], tuple[int, tuple[str, str] | None, tuple[str, int] | None]] = {}
    tick = 0
    direct: list[tuple[int, Path]] = []

    def push(cost: int, key: str, entry: str, prev: tuple[str, str] | None, upgrade: tuple[str, int] | None) -> None:
        nonlocal tick
        state = (key, entry)
        if (state in best and best[state][0] <= cost) or cost + remaining(key) > MAX_PATH:
            return
        best[state] = (cost, prev, upgrade)
        tick += 1
        heapq.heappush(heap, (cost + remaining(key), cost, tick, key, entry))

    for source in sorted(sources, key=xy):
        cell = cells[source]
        opens = cell_openings(cell)
        for edge, other in edge_neighbours(source):
            there = cells.get(other)
            if there is None:
                if edge in opens:
                    push(1, other, OPPOSITE[edge], None, None)
                elif (turn := _upgrade_to(cell, edge)) is not None:
                    push(2, other, OPPOSITE[edge], None, (source, turn))
            elif other in targets:
                joined = _join_upgrade(cells, source, edge, other)
                if joined is not None:
                    direct.append((1, Path(1, [], [joined])))
    found: tuple[int, tuple[str, str], str, tuple[str, int] | None] | None = None
    while heap:
        bound, cost, _, key, entry = heapq.heappop(heap)
        if best[(key, entry)][0] != cost:
            continue
        if found is not None and bound >= found[0]:
            break
        for edge, other in edge_neighbours(key):
            if edge == entry:
                continue
            there = cells.get(other)
            if there is None:
                push(cost + 1, other, OPPOSITE[edge], (key, entry), None)
                continue
            if other not in targets:
                continue
            if "t" in there or OPPOSITE[edge] in cell_openings(there):
                end_cost, upgrade = cost, None
            else:
                turn = _upgrade_to(there, OPPOSITE[edge])
                if turn is None:
                    continue
                end_cost, upgrade = cost + 1, (other, turn)
            if found is None or end_cost < found[0]:
                found = (end_cost, (key, entry), edge, upgrade)
    options = [p for _, p in direct]
    if found is not None:
        options.append(_trace(best, found))
    return min(options, key=lambda p: p.cost) if options else None


def _join_upgrade(cells: dict[str, Cell], source: str, edge: str, other: str) -> tuple[str, int] | None:
    """An upgrade that links two neighbouring cells of different parts (one of them a route)."""
    mine, theirs = cells[source], cells[other]
    if is_route(mine) and (not is_route(theirs) or OPPOSITE[edge] in cell_openings(theirs)):
        turn = _upgrade_to(mine, edge)
        return (source, turn) if turn is not None else None
    if is_route(theirs) and edge in cell_openings(mine):
        turn = _upgrade_to(theirs, OPPOSITE[edge])
        return (other, turn) if turn is not None else None
    return None


def _trace(
    best: dict[tuple[str, str], tuple[int, tuple[str, str] | None, tuple[str, int] | None]],
    found: tuple[int, tuple[str, str], str, tuple[str, int] | None],
) -> Path:
    cost, state, exit_edge, end_upgrade = found
    routes: list[tuple[str, str, int]] = []
    upgrades: list[tuple[str, int]] = []
    current: tuple[str, str] | None = state
    out = exit_edge
    while current is not None:
        key, entry = current
        kind, turn = _SHAPES[frozenset((entry, out))]
        routes.append((kind, key, turn))
        _, prev, upgrade = best[current]
        if upgrade is not None:
            upgrades.append(upgrade)
        if prev is not None:
            # the previous cell's exit edge points at this cell
            out = next(e for e, k in edge_neighbours(prev[0]) if k == key)
        current = prev
    routes.reverse()
    if end_upgrade is not None:
        upgrades.append(end_upgrade)
    return Path(cost, routes, upgrades)


def parts(cells: dict[str, Cell]) -> tuple[dict[str, int], list[set[str]]]:
    """Connected parts of the town (routes and buildings, basic rules)."""
    part: dict[str, int] = {}
    members: list[set[str]] = []
    for start in cells:
        if start in part:
            continue
        index = len(members)
        group = {start}
        part[start] = index
        queue = [start]
        while queue:
            key = queue.pop()
            for other in links(cells, key):
                if other not in part:
                    part[other] = index
                    group.add(other)
                    queue.append(other)
        members.append(group)
    return part, members


def trade(a: str, b: str) -> bool:
    """Whether pieces flow between two tiles (either makes something the other uses)."""
    ia, ib = info(a), info(b)
    return bool(ia.makes & ib.uses or ib.makes & ia.uses)


@cache
def _counts_network(slug: str) -> bool:
    """Tiles that score buildings connected by route want to be on the main network."""
    return any(_counter(e) == "connected_buildings" for e in TILES[slug].effects)


def _counter(effect: Effect) -> str:
    per = effect.get("per")
    return str(per.get("count", "")) if isinstance(per, dict) else ""


# ---------------------------------------------------------------- hypothetical construction


class Trial:
    """A copy of a town with some construction applied and paid for. Pieces the town lacks are
    owed (debt, paid from next round's income) up to ``credit``; with ``cash`` False nothing is
    paid from the pieces in hand (a plan that starts next round)."""

    def __init__(self, town: Town, credit: int = 0, cash: bool = True) -> None:
        self.town = copy_town(town)
        self.debt = 0
        self.credit = credit
        self.cash = cash
        self.short = False  # something could not be paid

    def pay(self, need: Need) -> bool:
        if not self.cash:
            return False
        try:
            paid = default_payment(self.town, need)
        except IllegalMove:
            return False
        for resource, key in paid:
            take_piece(self.town["cells"][key], resource)
        return True

    def affords(self, pieces_needed: int) -> bool:
        if (self.pieces() if self.cash else 0) + self.credit - self.debt >= pieces_needed:
            return True
        self.short = True
        return False

    def pay_route(self, pieces_needed: int) -> None:
        can = min(pieces_needed, self.pieces()) if self.cash else 0
        if can:
            self.pay(route_need(can))
        self.debt += pieces_needed - can

    def pay_short(self, need: Need) -> None:
        """Pay what the town holds toward ``need``; the rest becomes debt."""
        held = holdings(self.town) if self.cash else {}
        wood, stone = min(held.get("wood", 0), need.wood), min(held.get("stone", 0), need.stone)
        if wood + stone:
            self.pay(Need(wood, stone))
        self.debt += max(0, need.wood + need.stone - need.discount - wood - stone)

    def build(self, slug: str, key: str, rebuild: bool, on_credit: bool = False) -> bool:
        need = building_need(self.town, slug, key, rebuild)
        if not self.pay(need):
            if not on_credit or not self.affords(need.wood + need.stone - need.discount):
                return False
            self.pay_short(need)
        town = self.town
        town["cells"][key] = {"t": slug, "r": {}, "n": town["placed"]}
        town["placed"] += 1
        effects.immediate(town, key, "")
        effects.on_construction(town, key, "")
        return True

    def route(self, kind: str, key: str, turn: int) -> None:
        self.pay_route(RULES.junction_cost if kind == "junction" else RULES.route_cost)
        self.town["cells"][key] = {"route": kind, "rot": turn, "n": self.town["placed"]}
        self.town["placed"] += 1

    def upgrade(self, key: str, turn: int) -> None:
        self.pay_route(RULES.upgrade_cost)
        cell = self.town["cells"][key]
        cell["route"], cell["rot"] = "junction", turn

    def pieces(self) -> int:
        held = holdings(self.town)
        return held.get("wood", 0) + held.get("stone", 0)

    def apply(self, move: Move) -> None:
        """A route or upgrade move, paid (short payment is debt)."""
        if move[MOVE_KEY] == "route":
            for kind, key, turn in move["routes"]:
                self.route(kind, key, turn)
        else:
            for key, turn in move["cells"]:
                self.upgrade(key, turn)

    def lay(self, path: Path) -> None:
        for key, turn in path.upgrades:
            self.upgrade(key, turn)
        for kind, key, turn in path.routes:
            self.route(kind, key, turn)


def _path_moves(path: Path, source_side: set[str]) -> list[Move]:
    """The path as single-route moves in an order that is always legal (each new route touches
    the town): upgrades on the source side first, the routes from the source, then the rest."""
    moves: list[Move] = []
    late: list[Move] = []
    for key, turn in path.upgrades:
        (moves if key in source_side else late).append({MOVE_KEY: "upgrade", "cells": [[key, turn]]})
    for kind, key, turn in path.routes:
        moves.append({MOVE_KEY: "route", "routes": [[kind, key, turn]]})
    return moves + late


class Builder:
    """A construction turn.

    Every candidate (pass, one building, one route or upgrade) is judged by the town it leaves
    once *completed*: every goods-moving building joined to the main network by the cheapest
    routes, and the cheapest offered producer bought for each converter input nothing in the
    town makes. What the completion costs beyond the pieces in hand waits for next round: it is
    charged as debt and the completed parts only start working next round. So a half-built
    engine keeps its value, and the moves that finish it soonest score best."""

    def __init__(self, state: State, seat: int) -> None:
        self.state = state
        self.town: Town = state["towns"][seat]
        self.round = int(state["round"])
        self.last = self.round >= RULES.rounds
        self.cells: dict[str, Cell] = self.town["cells"]
        held = holdings(self.town)
        self.wood, self.stone = held.get("wood", 0), held.get("stone", 0)
        self.part, self.members = parts(self.cells)
        self.offered = self.targets()
        self.income = _income(self.town)
        self._base: list[Move] | None = None
        self._fields: dict[frozenset[int], dict[str, int]] = {}

    def targets(self) -> list[tuple[str, bool]]:
        found = [(s, False) for s in market.buildable(self.state["market"])]
        found += [(s, True) for s in market.rebuild_targets(self.state["market"])]
        return found

    # -------------------------------------------------------- choosing

    def choose(self) -> Move:
        best: tuple[float, Move] = (self.evaluate(self.town, passing=True) + MIN_GAIN, {MOVE_KEY: "pass"})
        for move, trial in self.candidates():
            value = self.evaluate(trial.town, passing=False)
            if value > best[0]:
                best = (value, move)
        return best[1]

    def candidates(self) -> Iterator[tuple[Move, Trial]]:
        """One building on a few promising cells per offered tile, and the first steps of the
        routes the town's completion needs."""
        open_cells = frontier(self.cells)
        for slug, rebuild in self.offered:
            groups = self.partner_groups(slug)
            partners = set().union(*groups) if groups else set()
            need = [building_need(self.town, slug, key, rebuild) for key in open_cells]
            cells = [key for key, n in zip(open_cells, need, strict=True) if n.affordable(self.wood, self.stone)]
            for key in self.shortlist(slug, cells, partners):
                trial = Trial(self.town)
                if trial.build(slug, key, rebuild):
                    settle_choices(trial.town, self.round)
                    move: Move = {MOVE_KEY: "build", "tile": slug, "cell": key}
                    if rebuild:
                        move["rebuild"] = True
                    yield move, trial
        if self.wood + self.stone < RULES.route_cost:
            return
        seen: list[Move] = []
        for move in self.base_work():
            if move[MOVE_KEY] != "build" and move not in seen and self._can_now(move):
                seen.append(move)
                trial = Trial(self.town)
                trial.apply(move)
                yield move, trial

    def evaluate(self, town: Town, passing: bool) -> float:
        """Final VP (plus latent value) of ``town`` after its completion, less the debt.

        The completion is paid from the pieces in hand (unless passing) and next round's
        income; what next round pays waits for next round: the town runs as it stands this
        round and completed from the next."""
        hint = None if passing else self.base_work()
        trial = Trial(town, 0, cash=not passing)
        self.complete(trial, hint)  # what the pieces in hand finish this round
        later: list[Move] = []
        if trial.short and not self.last:
            now = copy_town(trial.town)
            trial.credit = self.income
            later = self.complete(trial, hint)  # the rest, paid from next round's income
        if not later:
            value = rollout_value(trial.town, self.round)
        else:
            value = _this_round(now, self.round) + rollout_value(trial.town, self.round, this_round=False)
            value -= DEBT_COST * trial.debt
        if not self.last:  # open route ends save a route for the next building
            value += PORT_VALUE * min(len(route_ends(trial.town["cells"])), PORTS_COUNTED)
        return value

    # -------------------------------------------------------- completion

    def complete(self, trial: Trial, hint: list[Move] | None = None) -> list[Move]:
        """Finish ``trial``'s town (mutated) as far as its pieces and credit go: suppliers for
        unsupplied converters, then routes joining every goods-moving part to the main network.
        Returns the moves, in an order that stays legal. ``hint``: the completion of the town
        before this turn's move, replayed first where it still fits (it mostly does, and path
        searches are the expensive part)."""
        moves = self.replay(trial, hint) if hint else []
        moves += self.buy_suppliers(trial)
        moves += self.join_network(trial)
        return moves

    def base_work(self) -> list[Move]:
        """The completion of the town as it stands (computed once per turn)."""
        if self._base is None:
            self._base = self.complete(Trial(self.town, 0 if self.last else self.income))
        return self._base

    def replay(self, trial: Trial, moves: list[Move]) -> list[Move]:
        done: list[Move] = []
        cells = trial.town["cells"]
        slugs = {c["t"] for c in cells.values() if "t" in c}
        for move in moves:
            verb = move[MOVE_KEY]
            if verb == "build":
                if move["cell"] in cells or move["tile"] in slugs:
                    continue
                if not trial.build(move["tile"], move["cell"], bool(move.get("rebuild")), on_credit=True):
                    continue
                _settle_default(trial.town)
                slugs.add(move["tile"])
            elif verb == "route":
                kind, key, turn = move["routes"][0]
                cost = RULES.junction_cost if kind == "junction" else RULES.route_cost
                if key in cells or not trial.affords(cost):
                    continue
                trial.route(kind, key, turn)
            else:
                key, turn = move["cells"][0]
                cell = cells.get(key)
                if cell is None or not is_route(cell) or cell["route"] == "junction" or not trial.affords(1):
                    continue
                if not openings(cell["route"], cell["rot"]) <= openings("junction", turn):
                    continue
                trial.upgrade(key, turn)
            done.append(move)
        return done

    def buy_suppliers(self, trial: Trial) -> list[Move]:
        cells = trial.town["cells"]
        made = {r for c in cells.values() if "t" in c for r in info(c["t"]).makes}
        bought: set[str] = {c["t"] for c in cells.values() if "t" in c and c["t"] not in self.cells_slugs()}
        moves: list[Move] = []
        for key, cell in list(buildings(cells)):
            for resource in _inputs(cell["t"]):
                if resource in made:
                    continue
                options = [
                    (TILES[slug].cost_total + int(rebuild), slug, rebuild)
                    for slug, rebuild in self.offered
                    if slug not in bought and resource in info(slug).makes and all(r in made for r in _inputs(slug))
                ]
                if not options:
                    continue
                _, slug, rebuild = min(options)
                spot = _near_cell(cells, key, slug)
                if spot is None:
                    continue
                if not trial.build(slug, spot, rebuild, on_credit=True):
                    continue
                _settle_default(trial.town)
                bought.add(slug)
                made |= info(slug).makes
                move: Move = {MOVE_KEY: "build", "tile": slug, "cell": spot}
                if rebuild:
                    move["rebuild"] = True
                moves.append(move)
        return moves

    def cells_slugs(self) -> set[str]:
        return {c["t"] for c in self.cells.values() if "t" in c}

    def join_network(self, trial: Trial) -> list[Move]:
        """Join goods-moving parts of the town to the main one, nearest first."""
        moves: list[Move] = []
        for _ in range(8):
            cells = trial.town["cells"]
            part, members = parts(cells)
            main = _main_part(cells, part)
            if main is None:
                return moves
            waiting: set[str] = set()
            for index, group in enumerate(members):
                if index != main and any("t" in cells[k] and _moves_goods(cells[k]["t"]) for k in group):
                    waiting |= group
            if not waiting:
                return moves
            path = find_path(cells, members[main], waiting)
            if path is None:
                return moves
            if not trial.affords(path.cost):
                return moves
            trial.lay(path)
            moves += _path_moves(path, members[main])
        return moves

    # -------------------------------------------------------- where to build

    def partner_groups(self, slug: str) -> list[set[str]]:
        """The parts of the town a new ``slug`` should be joined to (see _network_groups)."""
        return _network_groups(self.cells, slug, None, (self.part, self.members))

    def shortlist(self, slug: str, cells: list[str], partners: set[str]) -> list[str]:
        if not cells:
            return []
        distance = self.distance_field(partners) if partners else {}
        ports = route_ends(self.cells)
        ranked = sorted(cells, key=lambda key: _cell_rank(self.cells, slug, key, distance, ports, bool(partners)))
        return ranked[: CELLS_PER_TILE if _layout_matters(slug) else 1]

    def distance_field(self, partners: set[str]) -> dict[str, int]:
        tag = frozenset(self.part[k] for k in partners)
        if tag not in self._fields:
            self._fields[tag] = distance_field(self.cells, partners)
        return self._fields[tag]

    def _can_now(self, move: Move) -> bool:
        """Whether ``move`` is legal in the real town now (plans are laid out in a copy)."""
        if move[MOVE_KEY] == "upgrade":
            key = move["cells"][0][0]
            cell = self.cells.get(key)
            return cell is not None and is_route(cell) and cell["route"] != "junction" and self.wood + self.stone >= 1
        if move[MOVE_KEY] == "route":
            key = move["routes"][0][1]
            kind = move["routes"][0][0]
            cost = RULES.junction_cost if kind == "junction" else RULES.route_cost
        else:
            key = move["cell"]
            cost = 0
        if key in self.cells or not any(o in self.cells for _, o in edge_neighbours(key)):
            return False
        if move[MOVE_KEY] == "route":
            return self.wood + self.stone >= cost
        need = building_need(self.town, move["tile"], key, bool(move.get("rebuild")))
        return need.affordable(self.wood, self.stone)


def _income(town: Town) -> int:
    """Wood and stone the town's producers make in a round (with empty tiles)."""
    total = 0
    for cell in town["cells"].values():
        if "t" not in cell:
            continue
        tile = tile_of(cell)
        for effect in tile.effects:
            if effect.when == "production" and effect.do == "gain" and _gains(effect) & {"wood", "stone"}:
                amount = effect.get("amount")
                total += tile.spaces if amount == "fill" else min(int(amount), tile.spaces)
    return total


def _this_round(town: Town, round_now: int) -> float:
    """VP ``town`` as it stands scores in this round's transport and processing."""
    trial = copy_town(town)
    Rollout(trial, round_now).play_round(round_now)
    return float(trial["vp"] - town["vp"])


def _main_part(cells: dict[str, Cell], part: dict[str, int]) -> int | None:
    """The part with most goods-moving buildings (the Forest's on a tie)."""
    weight: dict[int, int] = {}
    for key, cell in cells.items():
        if "t" in cell and _moves_goods(cell["t"]):
            weight[part[key]] = weight.get(part[key], 0) + 1
    if not weight:
        return None
    start = part.get("0,0", -1)
    return max(weight, key=lambda p: (weight[p], p == start, -p))


def _inputs(slug: str) -> list[str]:
    """Named resources a tile converts or scores (what a supplier must bring it)."""
    here = info(slug)
    found = [r for recipe in (*here.recipes, *here.end_recipes) for r, _ in recipe.named]
    found += [h[0] for h in here.holds]
    return list(dict.fromkeys(found))


def _moves_goods(slug: str) -> bool:
    """Tiles that send or receive pieces (or count the network) belong on the route network."""
    here = info(slug)
    return bool(here.makes or here.uses) or _counts_network(slug)


def _network_groups(
    cells: dict[str, Cell],
    slug: str,
    key: str | None,
    split: tuple[dict[str, int], list[set[str]]] | None = None,
) -> list[set[str]]:
    """The parts of the town a tile should be joined to: the main network (the part with most
    goods-moving buildings, the Forest's on a tie) and every part it trades with. Keeping one
    network means every building can serve every later one."""
    if not _moves_goods(slug):
        return []
    part, members = split if split is not None else parts(cells)
    weight: dict[int, int] = {}
    chosen: set[int] = set()
    for other, cell in cells.items():
        if "t" not in cell or other == key:
            continue
        if _moves_goods(cell["t"]):
            weight[part[other]] = weight.get(part[other], 0) + 1
        if trade(slug, cell["t"]):
            chosen.add(part[other])
    if weight:
        start = part.get("0,0", -1)
        chosen.add(max(weight, key=lambda p: (weight[p], p == start, -p)))
    if key is not None:
        chosen.discard(part[key])
    return [members[index] for index in sorted(chosen)]


def _near_cell(cells: dict[str, Cell], anchor: str | None, slug: str) -> str | None:
    """An empty cell for a supplier of the tile at ``anchor``: cheap to join to it and to the
    main network, away from other goods-moving buildings."""
    options = frontier(cells)
    if not options or anchor is None:
        return options[0] if options else None
    part, members = parts(cells)
    partners = set(members[part[anchor]])
    main = _main_part(cells, part)
    if main is not None:
        partners |= members[main]
    field = distance_field(cells, partners)
    ports = route_ends(cells)
    return min(options, key=lambda key: _cell_rank(cells, slug, key, field, ports, True))


def distance_field(cells: dict[str, Cell], partners: set[str]) -> dict[str, int]:
    """Routes needed to join a building on each empty cell to ``partners`` (an estimate that
    ignores turns): 0 on a route end facing the cell, else the nearest empty neighbour's cost,
    a route beside a partner building (or facing out of a partner route) costing 1."""
    route_cost: dict[str, int] = {}
    ports: set[str] = set()
    queue: list[str] = []
    for key in sorted(partners, key=xy):
        cell = cells[key]
        opens = cell_openings(cell)
        for edge, other in edge_neighbours(key):
            if other in cells:
                continue
            if is_route(cell) and edge in opens:
                ports.add(other)
            if (not is_route(cell) or edge in opens) and other not in route_cost:
                route_cost[other] = 1
                queue.append(other)
    xs = [xy(k)[0] for k in cells]
    ys = [xy(k)[1] for k in cells]
    box = (min(xs) - 3, max(xs) + 3, min(ys) - 3, max(ys) + 3)
    head = 0
    while head < len(queue):
        key = queue[head]
        head += 1
        for _, other in edge_neighbours(key):
            x, y = xy(other)
            if other in cells or other in route_cost or not (box[0] <= x <= box[1] and box[2] <= y <= box[3]):
                continue
            route_cost[other] = route_cost[key] + 1
            queue.append(other)
    field: dict[str, int] = {}
    for key in frontier(cells):
        if key in ports:
            field[key] = 0
            continue
        near = [route_cost[o] for _, o in edge_neighbours(key) if o in route_cost]
        field[key] = min(near) if near else MAX_PATH + 1
    return field


def _cell_rank(
    cells: dict[str, Cell], slug: str, key: str, field: dict[str, int], ports: set[str], joined: bool
) -> tuple[float, int, int]:
    """Lower is better: routes needed to join the network, goods-moving neighbours in the way
    (side by side is not linked), less what the surroundings add."""
    crowd = sum(1 for _, o in edge_neighbours(key) if o in cells and "t" in cells[o] and _moves_goods(cells[o]["t"]))
    if joined:
        far = field.get(key, MAX_PATH + 1)
        score = 2.0 * far + CROWD * crowd
        if far and crowd >= 3:
            score += 4.0  # hemmed in by buildings: hard to reach by route later
    else:
        score = (3.0 if key in ports else 0.0) + 0.3 * crowd  # keep route ends for tiles that need them
    x, y = xy(key)
    return (score - _layout_score(cells, slug, key), y, x)


@cache
def _layout_matters(slug: str) -> bool:
    """Tiles whose effects count their surroundings, or reach their neighbours."""
    return any(
        _counter(e).startswith("surrounding") or e.do in ("trigger", "neighbour_bonus", "discount") or e.get("where")
        for e in TILES[slug].effects
    )


def route_ends(cells: dict[str, Cell]) -> set[str]:
    """Empty cells an open route end faces: a building placed there is joined at once."""
    found = set()
    for key, cell in cells.items():
        if is_route(cell):
            opens = cell_openings(cell)
            found |= {o for e, o in edge_neighbours(key) if e in opens and o not in cells}
    return found


def _layout_score(cells: dict[str, Cell], slug: str, key: str) -> float:
    """A cheap guess of what a cell adds through the tile's and its neighbours' surroundings."""
    score = 0.0
    tile = TILES[slug]
    around = [cells[o] for o in surroundings(key) if o in cells]
    near_buildings = [c for c in around if "t" in c]
    for effect in tile.effects:
        per = effect.get("per")
        kind = per.get("count") if isinstance(per, dict) else None
        if kind == "surrounding_tiles":
            score += len(around)
        elif kind in ("surrounding_buildings", "surrounding_buildings_with", "surrounding_processors"):
            score += len(near_buildings)
        elif kind == "surrounding_distinct_resources":
            score += len({r for c in near_buildings for r in tile_of(c).drawn})
        if effect.do in ("trigger", "neighbour_bonus") or effect.get("where") == "surrounding":
            score += len(near_buildings)
    for cell in near_buildings:
        for effect in tile_of(cell).effects:
            if (
                effect.do in ("trigger", "neighbour_bonus", "discount")
                or effect.get("where") == "surrounding"
                or _counter(effect).startswith("surrounding")
            ):
                score += 1
    return score * 0.5


# ---------------------------------------------------------------- choices


def _choice_options(choice: dict[str, Any]) -> list[list[str]]:
    options = list(choice["options"])
    amount = int(choice["amount"])
    if choice["different"]:
        return [list(c) for c in combinations(options, amount)]
    return [[r] * amount for r in options]


def settle_choices(town: Town, round_now: int) -> None:
    """Answer pending choices of a hypothetical town by trying each resource (or each set of
    different resources) and keeping the best rollout."""
    while town["pending"]:
        choice = town["pending"][0]
        if set(choice["options"]) <= {"wood", "stone"}:
            _settle_default(town)
            continue
        best: tuple[float, list[str]] | None = None
        for picked in _choice_options(choice):
            trial = copy_town(town)
            trial["pending"] = []
            for resource in picked:
                add_piece(trial["cells"][choice["cell"]], resource)
            value = rollout_value(trial, round_now)
            if best is None or value > best[0]:
                best = (value, picked)
        assert best is not None
        for resource in best[1]:
            add_piece(town["cells"][choice["cell"]], resource)
        town["pending"].pop(0)


def _choose(state: State, seat: int) -> Move:
    town = state["towns"][seat]
    choice = town["pending"][0]
    if set(choice["options"]) <= {"wood", "stone"}:
        return rules.default_choice(state, seat)
    round_now = int(state["round"])
    best: tuple[float, Move] | None = None
    for move in rules.legal_moves(state, seat):
        if move.get(MOVE_KEY) != "choose":
            continue
        trial = copy_town(town)
        trial["pending"] = trial["pending"][1:]
        for resource in move["resources"]:
            add_piece(trial["cells"][choice["cell"]], resource)
        _settle_default(trial)
        value = rollout_value(trial, round_now)
        if best is None or value > best[0]:
            best = (value, move)
    return best[1] if best is not None else rules.default_choice(state, seat)


# ---------------------------------------------------------------- solo removals


def _removal(state: State) -> Move:
    """Solo: remove the visible tiles this town would gain least from building next round."""
    moves = rules.removal_moves(state)
    builder = _next_round_builder(state)
    base = builder.evaluate(builder.town, passing=False)
    worth = {slug: _tile_worth(builder, slug) - base for _, slug in market.visible(state["market"])}
    return min(moves, key=lambda m: (sum(worth[s] for s in m["tiles"]), moves.index(m)))


def _next_round_builder(state: State) -> Builder:
    """A Builder for the solo town at the start of next round's construction (after production)."""
    view = dict(state)
    town = copy_town(state["towns"][0])
    effects.produce(town, "")
    _settle_default(town)
    view["towns"] = [town]
    view["round"] = min(int(state["round"]) + 1, RULES.rounds)
    return Builder(view, 0)


def _tile_worth(builder: Builder, slug: str) -> float:
    """The best evaluation of the town with ``slug`` built (on its shortlisted cells)."""
    groups = builder.partner_groups(slug)
    partners = set().union(*groups) if groups else set()
    best = float("-inf")
    for key in builder.shortlist(slug, frontier(builder.cells), partners):
        trial = Trial(builder.town, builder.income, cash=True)
        if trial.build(slug, key, False, on_credit=True):
            settle_choices(trial.town, builder.round)
            best = max(best, builder.evaluate(trial.town, passing=False) - DEBT_COST * trial.debt)
    return best if best > float("-inf") else -100.0


# ---------------------------------------------------------------- entry point


def _random_move(state: State, seat: int) -> Move:
    moves = rules.legal_moves(state, seat)
    if not moves:
        raise IllegalMove("This seat has nothing to do now.")
    salt = ((seat + 1) * 0x9E3779B97F4A7C15) ^ (state["move_number"] * 0xBF58476D1CE4E5B9)
    rng = Rng(state["rng"] ^ salt)
    enders = [m for m in moves if m[MOVE_KEY] in ("pass", "done")]
    others = [m for m in moves if m[MOVE_KEY] not in ("pass", "done", "expert")]
    # End the turn now and then, so a random table finishes: transport could go on forever.
    if enders and (not others or rng.below(100) < (20 if enders[0][MOVE_KEY] == "pass" else 35)):
        return enders[0]
    if not others:
        return moves[0]
    kinds = sorted({m[MOVE_KEY] for m in others})
    kind = kinds[rng.below(len(kinds))]
    return rng.choice([m for m in others if m[MOVE_KEY] == kind])


def _transport(state: State, seat: int) -> Move:
    town = state["towns"][seat]
    trial = copy_town(town)
    pull = effects.pull_allowances(trial) if town["step"] == "processed" else dict(town["pull"])
    moves = plan_transport(trial, int(state["round"]), pull)
    if moves:  # one piece per command: bots play listed moves, one at a time
        return {MOVE_KEY: "move", "moves": moves[:1]}
    return {MOVE_KEY: "done"}


def bot_move(state: State, seat: int, level: int) -> Move:
    if seat not in rules.to_act(state):
        raise IllegalMove("This seat has nothing to do now.")
    if level <= 0:
        return _random_move(state, seat)
    town = state["towns"][seat]
    if town["pending"]:
        return _choose(state, seat)
    phase = state["phase"]
    if phase == "construction":
        return Builder(state, seat).choose()
    if phase == "cleanup":
        return _removal(state)
    return _transport(state, seat)


__all__ = ["bot_move", "find_path", "plan_transport", "rollout_value"]
