"""What one seat (or a spectator, viewer None) may see.

Public: banked dice, scores so far, how many dice each hand holds, whether a die is stashed.
Private to the owner until the game ends: the values in their hand and their stash.
"""

from __future__ import annotations

from games.base import MOVE_KEY, NAMES_KEY, Move, State, View

from .scoring import breakdown


def view(state: State, viewer: int | None) -> View:
    finished = bool(state["finished"])
    players = []
    for seat, player in enumerate(state["players"]):
        shown = finished or seat == viewer
        parts = breakdown(state, seat)
        players.append(
            {
                "name": state[NAMES_KEY][seat],
                "banked": list(player["banked"]),
                "score": sum(parts.values()),
                "breakdown": parts,
                "hand_size": len(player["hand"]),
                "hand": list(player["hand"]) if shown else None,
                "stashed": player["stash"] is not None,
                "stash": player["stash"] if shown else None,
                "resigned": bool(player["resigned"]),
            }
        )
    return {
        "game": state["game"],
        "names": list(state[NAMES_KEY]),
        "viewer": viewer,
        "finished": finished,
        "round": state["round"],
        "rounds": state["rounds"],
        "current": None if finished else state["current"],
        "rerolls": state["rerolls"],
        "banked_now": bool(state["banked_now"]),
        "doubles": bool(state["doubles"]),
        "players": players,
    }


def private_summary(state: State, seat: int) -> str:
    """For /game hand: the seat's own dice in words."""
    player = state["players"][seat]
    hand = " ".join(str(d) for d in player["hand"]) or "no dice"
    stash = f"a {player['stash']} in your stash" if player["stash"] is not None else "nothing stashed yet"
    return f"Your hand: {hand}; {stash}."


def move_label(state: State, seat: int, move: Move) -> str:
    """A few words beside a move in menus."""
    verb = move[MOVE_KEY]
    if verb == "bank":
        banked = state["players"][seat]["banked"]
        bonus = state["doubles"] and bool(banked) and banked[-1] == move["die"]
        return f"+{move['die']}{' +2 doubles' if bonus else ''}"
    if verb == "reroll":
        return f"{state['rerolls']} rerolls left"
    if verb == "stash":
        return f"+{move['die']} at the end"
    return "next player"
