"""The map side of the rules: rail costs, where a player may lay, stations.

Functions here read or change the board part of a (copied) state; card effects in
effects.py call them, so every surcharge rule lives in exactly one place.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from itertools import filterfalse

from games.base import IllegalMove, State
from games.trains.content import MAPS, RULES, GameMap
from games.trains.deck import gain_waste


def game_map(state: State) -> GameMap:
    return MAPS[state["map"]]


def place_word(name: str) -> str:
    """How a city or remote location is typed in place of its hex: "Mt. Takao" -> ``mt-takao``."""
    return "-".join(name.lower().replace(".", " ").split())


# Every city and remote location name, as typed, -> {map slug: its hex}. Hex arguments accept them
# (``/trains play station-expansion shinjuku``); the game's map decides the hex when the move is applied.
PLACE_WORDS: dict[str, dict[str, str]] = {}
for _map in MAPS.values():
    for _hex, _place in (*_map.cities.items(), *_map.remotes.items()):
        PLACE_WORDS.setdefault(place_word(_place.name), {})[_map.slug] = _hex


def place_hex(state: State, word: str) -> str:
    """The hex a hex argument names on this game's map: a label (E5) as it is, a place name resolved."""
    found = PLACE_WORDS.get(word.lower())
    if found is None:
        return word
    gmap = game_map(state)
    if gmap.slug not in found:
        raise IllegalMove(f'There is no "{word}" on the {gmap.name} map.')
    return found[gmap.slug]


def place_name(state: State, hexname: str) -> str:
    """The city or remote location on ``hexname`` ('' for other hexes)."""
    gmap = game_map(state)
    place = gmap.cities.get(hexname) or gmap.remotes.get(hexname)
    return place.name if place is not None else ""


def frontier(state: State, seat: int) -> list[str]:
    """Land hexes adjacent (across no barrier) to one of the seat's rails, without its own rail."""
    own = own_rails(state["rails"], seat)
    key = (state["map"], own)
    found = _FRONTIERS.get(key)
    if found is None:
        found = _frontier_of(game_map(state), own)
        if len(_FRONTIERS) >= _FRONTIERS_KEPT:
            _FRONTIERS.clear()
        _FRONTIERS[key] = found
    return list(found)


def own_rails(rails: dict[str, list[int]], seat: int) -> tuple[str, ...]:
    """The hexes of ``rails`` (a state's hex -> seats) holding a rail of ``seat``, in board order.

    Kept per rails dict (by identity, for the dict's lifetime in _OWN): the engine never changes
    a state's rails dict or its seat lists in place but replaces the dict (copying.fork shares it
    between states, board.lay_rail and rules.kick make a new one), so one dict keeps the same
    answer, and it is asked for on most moves while a new dict comes only with a new rail. The
    size is checked too, so a dict grown or shrunk in place (a test's hand-made board) is read
    afresh. lay_rail carries the answers over to the dict it makes (``_carry_own``).
    """
    entry = _OWN.get(id(rails))
    if entry is None or entry[0] is not rails or entry[1] != len(rails):
        if len(_OWN) >= _OWN_KEPT:
            _OWN.clear()
        entry = _OWN[id(rails)] = (rails, len(rails), {})
    found = entry[2].get(seat)
    if found is None:
        found = entry[2][seat] = tuple([h for h, seats in rails.items() if seat in seats])
    return found


# id(rails dict) -> (that dict, its size, seat -> own_rails). The dict itself is held, so its id
# cannot be reused by another while the entry lives; bounded (cleared when full): a game's
# successive states share one rails dict until the next rail, so few entries are live at a time.
_OWN: dict[int, tuple[dict[str, list[int]], int, dict[int, tuple[str, ...]]]] = {}
_OWN_KEPT = 64


def _carry_own(old: dict[str, list[int]], new: dict[str, list[int]], seat: int, hexname: str) -> None:
    """Keep for ``new`` (``old`` with one more rail, ``seat``'s on ``hexname``: lay_rail's new dict)
    the own_rails answers known for ``old``: the other seats' hexes are the same, and ``seat``'s
    gain ``hexname`` at the end when it is a new key (the place of a key already on the board is
    kept, so that answer is left to be read afresh). A new rail comes every few moves of a game,
    and reading a board for each seat was a twentieth of a listing's work."""
    entry = _OWN.get(id(old))
    if entry is None or entry[0] is not old or entry[1] != len(old):
        return
    known = entry[2].copy()  # one C-level step: another thread may add to the old entry meanwhile
    mine = known.pop(seat, None)
    if mine is not None and hexname not in old:
        known[seat] = (*mine, hexname)
    if len(_OWN) >= _OWN_KEPT:
        _OWN.clear()
    _OWN[id(new)] = (new, len(new), known)


def _frontier_of(gmap: GameMap, own: tuple[str, ...]) -> tuple[str, ...]:
    found: set[str] = set()
    for h in own:
        found.update(gmap.neighbours[h])
    found.difference_update(own)
    return tuple(sorted(found))


# (map, the seat's rail hexes in board order) -> frontier. The frontier depends on nothing else, and
# it is asked for on most moves while a seat's rails change only a few times a game; a bounded memo
# of pure data (cleared when full), so the same rails are never worked out twice in a row.
_FRONTIERS: dict[tuple[str, tuple[str, ...]], tuple[str, ...]] = {}
_FRONTIERS_KEPT = 4096


_NOTHING: frozenset[str] = frozenset()


def _waived(state: State, waive: Iterable[str]) -> frozenset[str] | set[str]:
    turn_waive = state["turn"]["waive"]
    return set(waive) | set(turn_waive) if waive or turn_waive else _NOTHING  # usually nothing waived


def _extra(state: State, seat: int, hexname: str, waived: frozenset[str] | set[str]) -> tuple[int, int]:
    """(extra money, other players' rails on the hex): the surcharge rules, in one place."""
    gmap = game_map(state)
    table = RULES["surcharge"]
    terrain = gmap.terrain[hexname]
    money = 0
    if terrain == "river" and "river" not in waived:
        money += table["river"]
    elif terrain == "mountain" and "mountain" not in waived:
        money += table["mountain"]
    elif terrain == "city" and "city" not in waived:
        money += table["city_base"] + table["city_per_station"] * state["stations"].get(hexname, 0)
    elif terrain == "remote" and "remote" not in waived:
        money += gmap.remotes[hexname].value
    seats = state["rails"].get(hexname)
    others = sum(1 for s in seats if s != seat) if seats else 0
    if others and "rails" not in waived:
        money += table["per_other_rail"] * others
    return money, others


@cache
def surcharge_table(map_slug: str, waived: frozenset[str]) -> dict[str, int]:
    """Hex -> the extra money its terrain costs with ``waived`` (a city's base, not its stations;
    not other players' rails): the terrain part of ``_extra``, worked out once per map and waiver
    set (pure data from content, so a module-level cache is safe)."""
    gmap = MAPS[map_slug]
    table = RULES["surcharge"]
    by_terrain = {"river": table["river"], "mountain": table["mountain"], "city": table["city_base"]}
    out: dict[str, int] = {}
    for h, terrain in gmap.terrain.items():
        if terrain in waived:
            out[h] = 0
        elif terrain == "remote":
            out[h] = gmap.remotes[h].value
        else:
            out[h] = by_terrain.get(terrain, 0)
    return out


def surcharge(state: State, seat: int, hexname: str, waive: Iterable[str] = ()) -> tuple[int, int]:
    """(extra money, Waste gained) for laying on ``hexname`` before any Signal Box discount."""
    money, others = _extra(state, seat, hexname, _waived(state, waive))
    waste = 0
    if others:
        waste = others if RULES["share_waste"] == "per_token" else 1
    return money, waste


def rail_cost(state: State, seat: int, hexname: str, waive: Iterable[str] = (), free: bool = False) -> int:
    if free:
        return 0
    money, _ = surcharge(state, seat, hexname, waive)
    return max(0, money - state["turn"]["discount"])


def affordable_rails(
    state: State, seat: int, hexes: Iterable[str], waive: Iterable[str] = (), free: bool = False
) -> list[str]:
    """The hexes of ``hexes`` whose rail_cost is within the turn's money (for legal-move
    generation: the same sums as ``_extra``, with the terrain part read from a per-map table)."""
    turn = state["turn"]
    money = turn["money"]
    if free or money < 0:
        return [h for h in hexes if money >= 0]
    waived = _waived(state, waive)
    terrain_cost = surcharge_table(state["map"], frozenset(waived))
    table = RULES["surcharge"]
    per_station = 0 if "city" in waived else table["city_per_station"]
    per_rail = 0 if "rails" in waived else table["per_other_rail"]
    # max(0, extra - discount) <= money is extra <= money + discount when money >= 0.
    budget = money + turn["discount"]
    stations = state["stations"] if per_station else {}
    rails = state["rails"] if per_rail else {}
    out = []
    for h in hexes:
        cost = terrain_cost[h]
        if h in stations:  # stations stand on cities only
            cost += per_station * stations[h]
        seats = rails.get(h)
        if seats:  # a seat has at most one rail per hex
            cost += per_rail * (len(seats) - (seat in seats))
        if cost <= budget:
            out.append(h)
    return out


def open_rails(state: State, seat: int, waive: tuple[str, ...] = ()) -> list[str]:
    """``affordable_rails`` over the seat's ``frontier``: where one rail can go now, if the seat has
    rails left (legal-move generation asks on every move with a rail card in hand).

    The frontier with each hex's terrain cost is kept per (map, the seat's rails, waivers), in
    frontier order; only the money and what other seats have built since are checked per call."""
    turn = state["turn"]
    money = turn["money"]
    if money < 0:
        return []
    turn_waive = turn["waive"]
    waived = frozenset((*waive, *turn_waive)) if waive or turn_waive else _NOTHING  # usually nothing
    rails = state["rails"]
    key = (state["map"], own_rails(rails, seat), waived)
    costs = _OPEN.get(key)
    if costs is None:
        terrain_cost = surcharge_table(key[0], waived)
        costs = tuple((h, terrain_cost[h]) for h in _frontier_of(MAPS[key[0]], key[1]))
        if len(_OPEN) >= _FRONTIERS_KEPT:
            _OPEN.clear()
        _OPEN[key] = costs
    table = RULES["surcharge"]
    per_station = 0 if "city" in waived else table["city_per_station"]
    per_rail = 0 if "rails" in waived else table["per_other_rail"]
    # max(0, extra - discount) <= money is extra <= money + discount when money >= 0; the
    # stations and other seats' rails only add to the terrain cost, so a hex whose terrain alone
    # is beyond the budget is out without a look at them.
    budget = money + turn["discount"]
    stations = state["stations"]
    out = []
    for h, cost in costs:
        if cost > budget:
            continue
        if h in stations:  # stations stand on cities only
            cost += per_station * stations[h]
        seats = rails.get(h)
        if seats:  # a frontier hex holds no rail of the seat's own
            cost += per_rail * len(seats)
        if cost <= budget:
            out.append(h)
    return out


# (map, the seat's rail hexes in board order, waived terrains) -> the frontier's (hex, terrain
# cost) pairs: pure data from content, bounded like _FRONTIERS.
_OPEN: dict[tuple[str, tuple[str, ...], frozenset[str]], tuple[tuple[str, int], ...]] = {}


def rail_problem(state: State, seat: int, hexname: str, waive: Iterable[str] = (), free: bool = False) -> str:
    """Why the seat cannot lay a rail on ``hexname`` now ('' when it can)."""
    return _rail_check(state, seat, hexname, waive, free)[0]


def _rail_check(state: State, seat: int, hexname: str, waive: Iterable[str], free: bool) -> tuple[str, int, int]:
    """(rail_problem, rail_cost, sharing Waste) for one rail: the surcharge worked out once."""
    gmap = game_map(state)
    terrain = gmap.terrain.get(hexname)
    if terrain is None:
        return f"{hexname} is not on the {gmap.name} map.", 0, 0
    if terrain == "sea":
        return f"{hexname} is sea; rails cannot be laid there.", 0, 0
    player = state["players"][seat]
    if player["rails_left"] <= 0:
        return "You have no rail tokens left.", 0, 0
    rails = state["rails"]
    if seat in rails.get(hexname, ()):
        return f"You already have a rail on {hexname}.", 0, 0
    if not any(seat in rails.get(n, ()) for n in gmap.neighbours[hexname]):
        text = f"{hexname} is not adjacent to one of your rails (barrier edges do not connect)."
        return text + _options_text(state, seat, waive, free), 0, 0
    extra, waste = surcharge(state, seat, hexname, waive)
    cost = 0 if free else max(0, extra - state["turn"]["discount"])
    money = state["turn"]["money"]
    if cost > money:
        text = f"A rail on {hexname} costs {cost} extra money; you have {money}."
        return text + _options_text(state, seat, waive, free, affordable=True), cost, waste
    return "", cost, waste


def _options_text(state: State, seat: int, waive: Iterable[str], free: bool, affordable: bool = False) -> str:
    """' You can lay on: E4 (0), F5 (1).' — the hexes open to the seat now, with their extra cost."""
    money = state["turn"]["money"]
    costs = [(h, rail_cost(state, seat, h, waive, free)) for h in frontier(state, seat)]
    if affordable:
        costs = [(h, c) for h, c in costs if c <= money]
        if not costs:
            return " No hex next to your rails is within your money: play more money first."
    shown = ", ".join(f"{h} ({c})" for h, c in costs[:16]) + (", ..." if len(costs) > 16 else "")
    what = "Within your money now" if affordable else "Hexes next to your rails (extra cost)"
    return f" {what}: {shown}." if costs else ""


def lay_rail(state: State, seat: int, hexname: str, waive: Iterable[str] = (), free: bool = False) -> str:
    """Lay one rail (paying its surcharge and taking sharing Waste); returns a short description."""
    problem, cost, waste = _rail_check(state, seat, hexname, waive, free)
    if problem:
        raise IllegalMove(problem)
    turn = state["turn"]
    turn["money"] -= cost
    turn["discount"] = 0
    turn["rails_laid"] += 1
    # A new dict and a new list, never a change in place: apply's copy of the state shares the
    # rails dict with the old state (copying.fork), and every copy shares the seat lists.
    rails = state["rails"]
    state["rails"] = laid = {**rails, hexname: [*rails.get(hexname, ()), seat]}
    _carry_own(rails, laid, seat, hexname)
    state["players"][seat]["rails_left"] -= 1
    text = f"rail on {hexname}" + (f" ({cost} money)" if cost else "")
    if waste:
        got = gain_waste(state, seat, waste)
        if got:
            text += f", {got} Waste for sharing"
    return text


def station_problem(state: State, hexname: str) -> str:
    gmap = game_map(state)
    if hexname not in gmap.terrain:
        return f"{hexname} is not on the {gmap.name} map."
    city = gmap.cities.get(hexname)
    if city is None:
        return f"{hexname} is not a city; stations go on cities."
    if state["stations_left"] <= 0:
        return "All station tokens are on the board."
    if state["stations"].get(hexname, 0) >= city.value:
        return f"{city.name} ({hexname}) has no free station slot."
    return ""


def place_station(state: State, hexname: str) -> str:
    problem = station_problem(state, hexname)
    if problem:
        raise IllegalMove(problem)
    stations = state["stations"]  # replaced, not changed: apply's copy shares it (copying.fork)
    state["stations"] = placed = {**stations, hexname: stations.get(hexname, 0) + 1}
    state["stations_left"] -= 1
    _carry_free(state["map"], stations, placed, hexname)
    return f"station in {game_map(state).cities[hexname].name} ({hexname})"


@cache
def _city_slots(map_slug: str) -> tuple[tuple[str, int], ...]:
    return tuple((h, c.value) for h, c in MAPS[map_slug].cities.items())


def station_hexes(state: State) -> list[str]:
    """Cities with a free slot, in map order (kept per stations dict, ``_FREE``)."""
    if state["stations_left"] <= 0:
        return []
    stations = state["stations"]
    map_slug = state["map"]
    entry = _FREE.get(id(stations))
    if entry is not None and entry[1] is stations and entry[2] == len(stations) and entry[0] == map_slug:
        return list(entry[3])
    free = tuple([h for h, slots in _city_slots(map_slug) if stations.get(h, 0) < slots])
    _keep_free(map_slug, stations, free)
    return list(free)


def _keep_free(map_slug: str, stations: dict[str, int], free: tuple[str, ...]) -> None:
    if len(_FREE) >= _FREE_KEPT:
        _FREE.clear()
    _FREE[id(stations)] = (map_slug, stations, len(stations), free)


def _carry_free(map_slug: str, old: dict[str, int], new: dict[str, int], hexname: str) -> None:
    """Keep for ``new`` (``old`` with one more station, on ``hexname``: place_station's new dict)
    the station_hexes answer known for ``old``, less ``hexname`` if that city is now full. Each
    stations dict is asked about once or twice before the next station replaces it, and the look
    at all 20 cities was a twelfth of a listing's work."""
    entry = _FREE.get(id(old))
    if entry is None or entry[1] is not old or entry[2] != len(old) or entry[0] != map_slug:
        return
    free = entry[3]
    if new[hexname] >= MAPS[map_slug].cities[hexname].value:
        free = tuple([h for h in free if h != hexname])
    _keep_free(map_slug, new, free)


# id(stations dict) -> (map, that dict, its size, station_hexes' answer), kept as own_rails keeps
# its answers: the engine replaces a state's stations dict rather than change it (place_station),
# the dict is held so its id cannot be reused while the entry lives, and a dict grown or shrunk in
# place (a test's hand-made board) is read afresh. Bounded (cleared when full): a game's states
# share one stations dict until the next station.
_FREE: dict[int, tuple[str, dict[str, int], int, tuple[str, ...]]] = {}
_FREE_KEPT = 64


def start_problem(state: State, seat: int, hexname: str) -> str:
    gmap = game_map(state)
    terrain = gmap.terrain.get(hexname)
    if terrain is None:
        return f"{hexname} is not on the {gmap.name} map."
    if terrain == "sea":
        return f"{hexname} is sea; start on land."
    if terrain == "remote":
        return f"{hexname} is a remote location; starting rails cannot go there."
    if state["rails"].get(hexname):
        return f"Another player started on {hexname}."
    return ""


@cache
def _start_candidates(map_slug: str) -> tuple[str, ...]:
    """Land hexes other than remote locations, in map order."""
    gmap = MAPS[map_slug]
    return tuple(h for h in gmap.land if gmap.terrain[h] != "remote")


def start_hexes(state: State) -> list[str]:
    rails = state["rails"]
    candidates = _start_candidates(state["map"])
    if not rails:
        return list(candidates)
    # The candidates less the hexes holding a rail, filtered by C code (a map has some 130).
    taken = {h for h, seats in rails.items() if seats}
    return list(filterfalse(taken.__contains__, candidates))
