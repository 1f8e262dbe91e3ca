"""Helpers for the My Trolley Town rule tests: games from setup, towns edited cell by cell,
moves played through ``GAME.parse`` + ``GAME.apply``, and the phase drivers the scenarios need.

Towns are edited only on a state fresh from ``GAME.setup`` (or between real moves); every
result the tests check comes from real moves run by the engine.
"""

from __future__ import annotations

import json
from typing import Any

from games.base import Event, IllegalMove
from games.trolley_town import GAME
from games.trolley_town.content import TILES
from games.trolley_town.town import canonical_rotation

State = dict[str, Any]
NAMES = ("ann", "bob", "cat", "dan")


def game(players: int = 2, seed: int = 1, **options: Any) -> State:
    """A new game in round 1 (construction, the start player to act)."""
    return GAME.setup(list(NAMES[:players]), options, seed)


def copy(state: State) -> State:
    return json.loads(json.dumps(state))


def town(state: State, seat: int = 0) -> dict[str, Any]:
    return state["towns"][seat]


def cell(state: State, key: str, seat: int = 0) -> dict[str, Any]:
    return state["towns"][seat]["cells"][key]


def res(state: State, key: str, seat: int = 0) -> dict[str, int]:
    """The pieces on one tile (an empty dict when there are none)."""
    return dict(state["towns"][seat]["cells"][key].get("r", {}))


def vp(state: State, seat: int = 0) -> int:
    return int(state["towns"][seat]["vp"])


def totals(state: State, seat: int = 0) -> dict[str, int]:
    found: dict[str, int] = {}
    for c in state["towns"][seat]["cells"].values():
        for r, n in c.get("r", {}).items():
            found[r] = found.get(r, 0) + n
    return {r: n for r, n in sorted(found.items()) if n}


def _next_n(t: dict[str, Any]) -> int:
    n = int(t["placed"])
    t["placed"] = n + 1
    return n


def put(state: State, key: str, slug: str, seat: int = 0, **pieces: int) -> State:
    """Place building ``slug`` at ``key`` (placed after everything there), holding ``pieces``."""
    assert slug in TILES, slug
    t = state["towns"][seat]
    assert pieces_fit(slug, pieces), (slug, pieces)
    t["cells"][key] = {"t": slug, "r": {r: n for r, n in pieces.items() if n}, "n": _next_n(t)}
    return state


def pieces_fit(slug: str, pieces: dict[str, int]) -> bool:
    return sum(pieces.values()) <= TILES[slug].spaces


def lay(state: State, key: str, kind: str, rot: int = 0, seat: int = 0) -> State:
    """Place a route tile at ``key`` (stored the way the engine stores it)."""
    t = state["towns"][seat]
    t["cells"][key] = {"route": kind, "rot": canonical_rotation(kind, rot), "n": _next_n(t)}
    return state


def hold(state: State, key: str, seat: int = 0, **pieces: int) -> State:
    """Set exactly the pieces on the tile at ``key``."""
    c = state["towns"][seat]["cells"][key]
    c["r"] = {r: n for r, n in pieces.items() if n}
    assert pieces_fit(c["t"], c["r"]), (c["t"], c["r"])
    return state


def empty_start(state: State, seat: int = 0) -> State:
    """Take the starting wood and stone off the Forest and Mountain."""
    hold(state, "0,0", seat)
    hold(state, "1,0", seat)
    return state


def _places(market: dict[str, Any]) -> list[tuple[list[Any], int]]:
    """Every (list, index) position of a special tile in the market."""
    found = [(market["row"], i) for i in range(len(market["row"]))]
    found += [(market[p], i) for p in ("a", "b") for i in range(len(market[p]))]
    found += [(pile, i) for pile in market["v"] for i in range(len(pile))]
    return found


def offer(state: State, slug: str, slot: int = 0) -> State:
    """Swap special tile ``slug`` into market row slot ``slot`` (V tiles: onto V pile ``slot``'s top),
    so every tile stays in the market exactly once."""
    market = state["market"]
    if TILES[slug].pile == "V":
        target: tuple[list[Any], int] = (market["v"][slot], 0)
    else:
        target = (market["row"], slot)
    where = next((lst, i) for lst, i in _places(market) if lst[i] == slug)
    (a, i), (b, j) = where, target
    a[i], b[j] = b[j], a[i]
    return state


def play(state: State, seat: int, text: str) -> tuple[State, list[Event]]:
    return GAME.apply(state, seat, GAME.parse(text))


def do(state: State, seat: int, text: str) -> State:
    return play(state, seat, text)[0]


def texts(events: list[Event]) -> list[str]:
    return [e["text"] for e in events if "text" in e]


def rejected(state: State, seat: int, text: str) -> str:
    """Assert ``text`` is rejected and the state is byte-identical afterwards; return the message."""
    before = json.dumps(state, sort_keys=True)
    try:
        GAME.apply(state, seat, GAME.parse(text))
    except IllegalMove as exc:
        assert json.dumps(state, sort_keys=True) == before
        return exc.message
    raise AssertionError(f"{text!r} was accepted")


def to_act(state: State) -> tuple[int, ...]:
    return GAME.status(state).to_act


def pass_all(state: State) -> State:
    """Everyone passes until construction ends (the transport phase starts)."""
    assert state["phase"] == "construction", state["phase"]
    while state["phase"] == "construction":
        state = do(state, to_act(state)[0], "/trolley pass")
    return state


def done_all(state: State) -> State:
    """Every player still transporting says done (processing runs) until the phase ends."""
    assert state["phase"] == "transport", state["phase"]
    while state["phase"] == "transport":
        state = do(state, to_act(state)[0], "/trolley done")
    return state


def to_transport(state: State) -> State:
    return pass_all(state)


def next_round(state: State) -> State:
    """From construction: everyone passes, transports nothing, processes; solo removals are the
    first legal removal; returns the next round's state after its production (pending choices
    answered by the engine's default)."""
    round_ = state["round"]
    state = done_all(pass_all(state))
    if state["phase"] == "cleanup":
        state = GAME.apply(state, 0, GAME.skip_move(state, 0))[0]
    assert state["phase"] == "finished" or state["round"] == round_ + 1
    return state


def finish(state: State) -> State:
    """From a construction phase: play empty rounds (pass, done) to the end of the game."""
    while state["round"] < 4:
        state = answer_defaults(next_round(state))
    return done_all(pass_all(state))


def answer_defaults(state: State) -> State:
    """Answer every pending production choice with the engine's default (the moderator skip)."""
    while state["phase"] != "finished" and any(t["pending"] for t in state["towns"]):
        seat = next(s for s, t in enumerate(state["towns"]) if t["pending"])
        state = GAME.apply(state, seat, GAME.skip_move(state, seat))[0]
    return state


def standings(state: State) -> list[tuple[str, int, int]]:
    return [(row["player"], row["score"], row["rank"]) for row in GAME.standings(state)]


def same(a: State, b: State) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
