"""What one seat (or a spectator, viewer None) may see.

Public: the board, supply, every player's deck/hand/discard sizes, top of each discard
pile, cards in play and gained this turn, track VP and current score. Private to the
owner: their hand, their discard pile contents and what their deck holds (not its order).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from games.base import MOVE_KEY, NAMES_KEY, State, View, ViewHeader
from games.trains import board, movegen
from games.trains.content import CARDS, MAPS
from games.trains.rules import status
from games.trains.scoring import breakdown, rails_on_board


@cache
def map_view(slug: str) -> dict[str, Any]:
    gmap = MAPS[slug]
    hexes = []
    for h, terrain in gmap.terrain.items():
        entry: dict[str, Any] = {"hex": h, "terrain": terrain}
        if h in gmap.cities:
            entry.update(name=gmap.cities[h].name, slots=gmap.cities[h].value)
        elif h in gmap.remotes:
            entry.update(name=gmap.remotes[h].name, value=gmap.remotes[h].value)
        hexes.append(entry)
    return {
        "slug": gmap.slug,
        "name": gmap.name,
        "source": gmap.source,
        "columns": gmap.columns,
        "rows": gmap.rows,
        "layout": "flat-top, odd columns shifted down",
        "hexes": hexes,
        "barriers": [list(b) for b in gmap.barriers],
    }


def _counts(cards: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for c in sorted(cards):
        out[c] = out.get(c, 0) + 1
    return out


def view(state: State, viewer: int | None) -> View:
    players = []
    for seat, p in enumerate(state["players"]):
        parts = breakdown(state, seat)
        players.append(
            {
                "seat": seat,
                "name": state["names"][seat],
                "hand_size": len(p["hand"]),
                "deck_size": len(p["deck"]),
                "discard_size": len(p["discard"]),
                "discard_top": p["discard"][-1] if p["discard"] else None,
                "play": list(p["play"]),
                "gained": list(p["gained"]),
                "rails_left": p["rails_left"],
                "rails_on_board": rails_on_board(state, seat),
                "track_vp": p["track_vp"],
                # Public: every Waste gained or returned is announced, so the total a player holds
                # is known to all (where it sits in the deck is not, and is not shown).
                "waste": sum(pile.count("waste") for pile in (p["hand"], p["deck"], p["discard"], p["play"])),
                "score": sum(parts.values()),
                "breakdown": parts,
                "resigned": p["resigned"],
                "kicked": bool(p.get("kicked")),
                "start": p["start"],
            }
        )
    supply = [
        {
            "card": slug,
            "name": CARDS[slug].name,
            "type": CARDS[slug].type,
            "cost": CARDS[slug].cost,
            "count": state["supply"][slug],
            "empty": state["supply"][slug] == 0,
        }
        for slug in [*state["piles"], "waste"]
    ]
    # The platform's header first: renderers and the standings chart read these in every game.
    header: ViewHeader = {
        "game": "trains",
        "names": list(state[NAMES_KEY]),
        "viewer": viewer,
        "finished": state["phase"] == "over",
    }
    out: View = {
        **header,
        "rules_version": state["rules_version"],
        "phase": state["phase"],
        "current": state["current"],
        "turn_number": state["turn_number"],
        "status": status(state).summary,
        "map": map_view(state["map"]),
        "rails": {h: list(s) for h, s in sorted(state["rails"].items())},
        "stations": dict(sorted(state["stations"].items())),
        "stations_left": state["stations_left"],
        "kingdom": list(state["kingdom"]),
        "supply": supply,
        "trash": dict(sorted(state["trash"].items())),
        "players": players,
        "turn": dict(state["turn"], seat=state["current"]),
        "end_reasons": list(state["end_reasons"]),
    }
    if viewer is not None and 0 <= viewer < len(state["players"]):
        mine = state["players"][viewer]
        out["hand"] = list(mine["hand"])
        out["discard"] = list(mine["discard"])
        out["deck_contents"] = _counts(mine["deck"])
        if state["phase"] == "play" and state["current"] == viewer and not mine["resigned"]:
            out["hints"] = _hints(state, viewer)
    return out


def _hints(state: State, seat: int) -> dict[str, Any]:
    """What autocomplete offers: playable cards, affordable piles, rail hexes with cost."""
    money = state["turn"]["money"]
    hand = state["players"][seat]["hand"]
    return {
        "playable": sorted({c for c in hand if CARDS[c].playable}),
        "affordable": [s for s in state["piles"] if state["supply"][s] > 0 and CARDS[s].cost <= money],
        "rails": [{"hex": h, "cost": board.rail_cost(state, seat, h)} for h in movegen.rail_options(state, seat)],
        "stations": board.station_hexes(state),
    }


def private_summary(state: State, seat: int) -> str:
    """Plain text for /game hand: the seat's hand, money and what it can do now."""
    player = state["players"][seat]
    counts = _counts(player["hand"])
    hand = ", ".join(f"{n}x {CARDS[c].name}" if n > 1 else CARDS[c].name for c, n in counts.items()) or "empty"
    lines = [
        f"Your hand: {hand}.",
        f"Deck {len(player['deck'])}, discard {len(player['discard'])}, rails left {player['rails_left']}.",
    ]
    if state["phase"] == "play" and state["current"] == seat and not player["resigned"]:
        hints = _hints(state, seat)
        lines.append(f"Money this turn: {state['turn']['money']}.")
        if hints["playable"]:
            lines.append("Play: " + ", ".join(f"/trains play {c}" for c in hints["playable"]))
        if hints["affordable"]:
            lines.append("Buy: " + ", ".join(hints["affordable"]))
        if hints["rails"]:
            rails = ", ".join(f"{r['hex']} ({r['cost']})" for r in hints["rails"])
            lines.append(f"Rail hexes (extra cost): {rails}")
    elif state["phase"] == "start" and state["current"] == seat:
        lines.append("Place your starting rail: /trains start HEX.")
    return "\n".join(lines)


def move_label(state: State, seat: int, move: dict[str, Any]) -> str:
    """What a legal move does to your turn, for autocomplete: the city or remote location its hexes
    are, terrain, price, money and Waste."""
    places = [board.place_name(state, word) for word in [move.get("hex", ""), *move.get("args", [])]]
    named = ", ".join(p for p in places if p)  # autocomplete shows the hex and its city: "H6 (Shinjuku, city)"
    label = _label(state, seat, move)
    return ", ".join(part for part in (named, label) if part)


def _label(state: State, seat: int, move: dict[str, Any]) -> str:
    from games.trains.rules import apply  # rules imports view's neighbours; keep this local

    verb = move.get(MOVE_KEY)
    if verb == "start":
        return board.game_map(state).terrain.get(move["hex"], "")
    if verb == "buy":
        card = CARDS[move["card"]]
        return f"costs {card.cost}, {state['supply'].get(card.slug, 0)} left"
    if verb != "play":
        return ""
    try:
        after, _ = apply(state, seat, move)
    except Exception:  # a label must never break autocomplete
        return ""
    before_money, after_money = state["turn"]["money"], after["turn"]["money"]
    waste = _waste_owned(after, seat) - _waste_owned(state, seat)
    parts = [f"money {before_money} → {after_money}"]
    if waste > 0:
        parts.append(f"+{waste} Waste")
    return ", ".join(parts)


def _waste_owned(state: State, seat: int) -> int:
    player = state["players"][seat]
    piles = ("hand", "deck", "discard", "play", "gained")
    return sum(1 for pile in piles for card in player.get(pile, []) if card == "waste")
