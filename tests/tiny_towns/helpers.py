"""Helpers for Tiny Towns tests: build towns from compact text, play moves, check invariants."""

from __future__ import annotations

import json
from typing import Any

from games.base import Event, IllegalMove
from games.options import parse_options
from games.rng import Rng
from games.tiny_towns import GAME
from games.tiny_towns.content import CATALOGUE, RESOURCE_OF
from games.tiny_towns.scoring import score_town
from games.tiny_towns.town import new_building

State = dict[str, Any]


def cell_from_token(token: str) -> Any:
    """'.' empty, 'W'/'H'/'B'/'G'/'S' a cube, 'cottage' a building; 'factory:wheat' holds,
    'warehouse:wood+stone' stored cubes, 'cottage^stone' a Statue cube, '!' suffix = monument."""
    if token == ".":
        return None
    if token in RESOURCE_OF:
        return {"resource": RESOURCE_OF[token]}
    bond = None
    if "^" in token:
        token, bond = token.split("^")
    extra = None
    if ":" in token:
        token, extra = token.split(":")
    slug = token.rstrip("!")
    assert slug in CATALOGUE, slug
    entry = new_building(slug, monument=CATALOGUE[slug]["monument"])
    if extra is not None:
        if "stored" in entry:
            entry["stored"] = [r for r in extra.split("+") if r]
        else:
            entry["holds"] = extra
    if bond:
        entry["bond"] = [bond]
    return entry


def grid(text: str) -> list[Any]:
    """Rows separated by '/', squares by spaces, top row first."""
    rows = [row.split() for row in text.split("/")]
    assert len(rows) == 4 and all(len(r) == 4 for r in rows), text
    return [cell_from_token(tok) for row in rows for tok in row]


def game(
    players: int = 2,
    buildings: str = "first-game",
    seed: int = 1,
    **options: Any,
) -> State:
    opts = {"buildings": buildings, **options}
    return GAME.setup([f"p{i}" for i in range(players)], opts, seed)


def with_town(state: State, seat: int, text: str, monument: str | None = None, **fields: Any) -> State:
    new = json.loads(json.dumps(state))
    town = new["towns"][seat]
    town["cells"] = grid(text)
    if monument:
        town["monument"] = monument
        town["monument_built"] = any(c and c.get("building") == monument for c in town["cells"])
        if town["monument_built"]:
            town["monument_round"] = 0
    town.update(fields)
    return new


def score(state: State, seat: int = 0) -> int:
    return score_town(state, seat)["total"]


def breakdown(state: State, seat: int = 0) -> dict[str, int]:
    return score_town(state, seat)["breakdown"]


def play(state: State, seat: int, text: str) -> tuple[State, list[Event]]:
    return GAME.apply(state, seat, GAME.parse(text))


def play_all(state: State, lines: list[tuple[int, str]]) -> State:
    for seat, text in lines:
        state, _ = play(state, seat, text)
    return state


def rejected(state: State, seat: int, text: str) -> str:
    """Assert a command is rejected without touching the state; return the message."""
    before = json.dumps(state, sort_keys=True)
    try:
        play(state, seat, text)
    except IllegalMove as exc:
        assert json.dumps(state, sort_keys=True) == before
        return exc.message
    raise AssertionError(f"{text!r} was accepted")


def at_place_phase(state: State, resource: str = "wood") -> State:
    """Standard game: the master builder names `resource`."""
    mb = state["master_builder"]
    state, _ = play(state, mb, f"/tt announce {resource}")
    return state


def check_invariants(state: State) -> None:
    """Things that must hold after every move."""
    text = json.dumps(state, sort_keys=True)
    again = json.loads(text)
    assert json.dumps(again, sort_keys=True) == text
    for seat, town in enumerate(state["towns"]):
        assert len(town["cells"]) == 16
        for cell in town["cells"]:
            assert cell is None or ("resource" in cell) != ("building" in cell)
            if cell and "stored" in cell:
                assert len(cell["stored"]) <= 3
        assert score_town(again, seat) == score_town(state, seat)
        assert town["cave_used"] <= 2
        if town["complete"]:
            assert all(c is not None for c in town["cells"])
    if state["phase"] == "finished":
        assert GAME.status(state).finished


def seeded_states(players: int, options: str, seed: int) -> list[State]:
    """Every state of one seeded random game, the finished one last."""
    state = GAME.setup([f"p{i}" for i in range(players)], parse_options(options, GAME.options), seed)
    picker = Rng(seed)
    states = [state]
    while not GAME.status(state).finished:
        seat = picker.choice(GAME.status(state).to_act)
        state, _ = GAME.apply(state, seat, picker.choice(GAME.legal_moves(state, seat)))
        states.append(state)
    return states
