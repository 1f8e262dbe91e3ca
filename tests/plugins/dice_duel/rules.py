"""Dice Duel rules: setup, legal moves, apply, status, resign.

Each player keeps a private hand of dice that is topped up to three when their turn begins.
On a turn you may roll dice of your hand again (twice), must bank one die face up (it scores),
may once a game stash a die face down (it scores at the end), then end the turn with done.
After the last round the stashes are revealed and the highest total wins.
"""

from __future__ import annotations

import copy
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from games.base import MOVE_KEY, NAMES_KEY, Event, IllegalMove, Move, State, Status
from games.rng import Rng, seed_state

from .content import FACES, HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS, REROLLS, ROUND_CHOICES, SLUG
from .notation import VERB_NAMES, die_value
from .scoring import standings


def setup(players: Sequence[str], options: Mapping[str, Any], seed: int) -> State:
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise IllegalMove(f"Dice Duel is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}.")
    rounds = str(options.get("rounds", ROUND_CHOICES[0]))
    if rounds not in ROUND_CHOICES:
        raise IllegalMove(f"rounds must be one of {', '.join(ROUND_CHOICES)}, not {rounds}.")
    rng = Rng(seed_state(seed))
    seats = [{"hand": _roll(rng, HAND_SIZE), "banked": [], "stash": None, "resigned": False} for _ in players]
    return {
        "game": SLUG,
        NAMES_KEY: list(players),
        "rng": rng.state,
        "rounds": int(rounds),
        "doubles": bool(options.get("doubles", False)),
        "round": 1,
        "current": 0,
        "rerolls": REROLLS,
        "banked_now": False,
        "finished": False,
        "players": seats,
    }


def _roll(rng: Rng, count: int) -> list[int]:
    return sorted(1 + rng.below(FACES) for _ in range(count))


def _may_stash(state: State, seat: int) -> bool:
    """Once a game, and never the last die of a hand that still has to bank one."""
    player = state["players"][seat]
    return player["stash"] is None and len(player["hand"]) > (0 if state["banked_now"] else 1)


def legal_moves(state: State, seat: int) -> list[Move]:
    if state["finished"] or seat != state["current"]:
        return []
    values = sorted(set(state["players"][seat]["hand"]))
    moves: list[Move] = []
    if not state["banked_now"]:
        if state["rerolls"] > 0:
            moves += [{MOVE_KEY: "reroll", "die": v} for v in values]
        moves += [{MOVE_KEY: "bank", "die": v} for v in values]
    if _may_stash(state, seat):
        moves += [{MOVE_KEY: "stash", "die": v} for v in values]
    if state["banked_now"]:
        moves.append({MOVE_KEY: "done"})
    return moves


def status(state: State) -> Status:
    names = state[NAMES_KEY]
    if state["finished"]:
        winners = [s["player"] for s in standings(state) if s["rank"] == 1]
        return Status((), True, f"Game over: {' and '.join(winners)} won")
    current = state["current"]
    doing = "to end the turn" if state["banked_now"] else "to bank a die"
    return Status((current,), False, f"{names[current]} {doing} (round {state['round']} of {state['rounds']})")


def apply(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    """The new state and events; the input state is never changed (work happens on a copy)."""
    if state["finished"]:
        raise IllegalMove("The game is over.")
    if seat != state["current"]:
        raise IllegalMove(f"It is {state[NAMES_KEY][state['current']]}'s turn.")
    verb = move.get(MOVE_KEY) if isinstance(move, dict) else None
    if verb not in VERB_NAMES:
        raise IllegalMove(f"Unknown command {verb!r}: use {', '.join(VERB_NAMES)}.")
    new = copy.deepcopy(state)
    name = new[NAMES_KEY][seat]
    player = new["players"][seat]
    if verb == "done":
        if not new["banked_now"]:
            raise IllegalMove("Bank a die first: /dd bank <die>.")
        events: list[Event] = [{"text": f"{name} ends the turn."}]
        return new, events + _advance(new)
    die = die_value(move.get("die"))
    if die not in player["hand"]:
        raise IllegalMove(f"You have no {die} in your hand ({' '.join(map(str, player['hand']))}).")
    if verb == "stash":
        if not _may_stash(new, seat):
            raise IllegalMove(
                "You already stashed a die this game."
                if player["stash"] is not None
                else "Keep a die to bank this turn; stash one of the others."
            )
        player["hand"].remove(die)
        player["stash"] = die
        return new, [
            {"text": f"{name} stashes a die face down.", "private": {"seat": seat, "text": f"You stashed a {die}."}}
        ]
    if new["banked_now"]:
        raise IllegalMove("You already banked a die this turn: /dd done ends it.")
    if verb == "reroll":
        if new["rerolls"] <= 0:
            raise IllegalMove("No rerolls left this turn: bank a die.")
        rng = Rng(new["rng"])
        player["hand"].remove(die)
        rolled = 1 + rng.below(FACES)
        player["hand"] = sorted([*player["hand"], rolled])
        new["rng"] = rng.state
        new["rerolls"] -= 1
        return new, [
            {
                "text": f"{name} rolls a die again.",
                "irreversible": True,
                "private": {"seat": seat, "text": f"You rolled a {rolled}."},
            }
        ]
    player["hand"].remove(die)
    player["banked"].append(die)
    new["banked_now"] = True
    # The die was private until now: a reveal, so there is no taking it back.
    return new, [{"text": f"{name} banks a {die}.", "irreversible": True}]


def _advance(state: State) -> list[Event]:
    """Pass the turn to the next player still in (a new round after the last), or end the game."""
    active = [seat for seat, player in enumerate(state["players"]) if not player["resigned"]]
    later = [seat for seat in active if seat > state["current"]]
    if not later:
        state["round"] += 1
    if not active or state["round"] > state["rounds"] or (len(state["players"]) > 1 and len(active) < 2):
        state["finished"] = True
        state["banked_now"] = False
        return [{"text": "The last round is over: stashes are revealed.", "post_board": True, "irreversible": True}]
    state["current"] = later[0] if later else active[0]
    state["rerolls"] = REROLLS
    state["banked_now"] = False
    player = state["players"][state["current"]]
    rng = Rng(state["rng"])
    player["hand"] = sorted(player["hand"] + _roll(rng, HAND_SIZE - len(player["hand"])))
    state["rng"] = rng.state
    return [{"post_board": True, "irreversible": True}]


def resign(state: State, seat: int) -> tuple[State, list[Event]]:
    if state["finished"]:
        raise IllegalMove("The game is over.")
    if state["players"][seat]["resigned"]:
        raise IllegalMove("You have already resigned.")
    new = copy.deepcopy(state)
    new["players"][seat]["resigned"] = True
    events: list[Event] = [{"text": f"{new[NAMES_KEY][seat]} resigned."}]
    active = [s for s, player in enumerate(new["players"]) if not player["resigned"]]
    if seat == new["current"] or len(active) < 2:
        events += _advance(new)
    return new, events


def undo_scope(state: State) -> Hashable:
    """A turn: its player may take back a stash until it ends."""
    return (state["round"], state["current"], state["finished"])


def redeal(state: State, seat: int, seed: int) -> State:
    """``state`` with ``seat``'s private dice (hand and stash) rolled afresh from ``seed``.

    Nothing public changes (hand size, whether a die is stashed), so no other seat's view may
    change; the conformance suite uses this to prove views hide what they must.
    """
    new = copy.deepcopy(state)
    player = new["players"][seat]
    rng = Rng(seed_state(seed))
    player["hand"] = _roll(rng, len(player["hand"]))
    if player["stash"] is not None:
        player["stash"] = 1 + rng.below(FACES)
    return new
