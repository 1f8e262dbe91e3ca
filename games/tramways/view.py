"""What one seat (or a spectator, viewer None) may see.

Public: the map with rails, links, buildings, passengers and parcel owners; money, HP, stress,
rail workers, rail tiles and hand/deck/discard sizes of everyone; bids (what each seat has paid
this round, who holds the high bid, who passed) and turn order; the auction and development
displays; the parcels left in the draft. Private to the owner: their hand and what their deck holds
(not its order). The RNG never appears in a view.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from games import cards
from games.base import MOVE_KEY, NAMES_KEY, Move, State, View, ViewHeader
from games.tramways import links
from games.tramways.board import CityMap
from games.tramways.content import SETTINGS, card, card_name
from games.tramways.rules import active, master_available, status
from games.tramways.scoring import breakdown

TERRAIN_CHAR = {"plain": ".", "hill": "^", "water": "~", "object": "#"}


@lru_cache(maxsize=32)
def _terrain_rows(gmap: CityMap) -> tuple[str, ...]:
    return tuple(
        "".join(TERRAIN_CHAR[gmap.terrain[r * gmap.width + c]] for c in range(gmap.width)) for r in range(gmap.height)
    )


def _endpoints(state: State) -> list[dict[str, Any]]:
    gmap = links.game_map(state)
    out = []
    for endpoint in gmap.endpoints:
        built = state["built"].get(endpoint.label)
        owner = built["owner"] if built else state["parcels"].get(endpoint.label)
        out.append(
            {
                "label": endpoint.label,
                "kind": endpoint.kind,
                "type": links.kind_type(state, endpoint),
                "cells": [gmap.name(c) for c in endpoint.cells],
                "owner": owner,
                "upgraded": bool(built and built["upgraded"]),
                "passengers": state["passengers"].get(endpoint.label, 0),
                "capacity": links.capacity(state, endpoint),
            }
        )
    return out


def view(state: State, viewer: int | None) -> View:
    gmap = links.game_map(state)
    players = []
    for seat, p in enumerate(state["players"]):
        parts = breakdown(state, seat)
        players.append(
            {
                "seat": seat,
                "name": state["names"][seat],
                "money": p["money"],
                "hp": p["hp"],
                "stress": p["stress"],
                "workers": p["workers"],
                "rails_left": p["rails_left"],
                "hand_size": len(p["hand"]),
                "deck_size": len(p["deck"]),
                "discard_size": len(p["discard"]),
                "station_link": p["station_link"],
                "resigned": p["resigned"],
                "kicked": bool(p.get("kicked")),
                "score": sum(parts.values()),
                "breakdown": parts,
            }
        )
    header: ViewHeader = {
        "game": "tramways",
        "names": list(state[NAMES_KEY]),
        "viewer": viewer,
        "finished": state["phase"] == "over",
    }
    auction = state["auction"]
    out: View = {
        **header,
        "rules_version": state["rules_version"],
        "round": state["round"],
        "rounds": SETTINGS["rounds"],
        "phase": state["phase"],
        "current": state["current"],
        "order": active(state),
        "last": active(state)[-1] if active(state) else None,
        "status": status(state).summary,
        "modules": dict(state["modules"]),
        "map": {"width": gmap.width, "height": gmap.height, "terrain": list(_terrain_rows(gmap))},
        "endpoints": _endpoints(state),
        "links": [
            {
                "id": link["id"],
                "owner": link["owner"],
                "cells": list(link["cells"]),
                "ends": list(link["ends"]),
                "upgraded": link["upgraded"],
                "complete": link["ends"][1] is not None,
            }
            for link in state["links"]
        ],
        "master": dict(state["master"]) if state["master"] else None,
        "auction": (
            {
                "high": auction.get("high", 0),
                "leader": auction.get("leader"),
                "paid": dict(sorted(auction.get("paid", {}).items())),  # seat (as text) -> dollars bid this round
                "passed": list(auction.get("passed", [])),
                "queue": list(auction.get("queue", [])),
            }
            if auction
            else None
        ),
        "display": list(state["display"]),
        "dev_display": list(state["dev_display"]),
        "dev_costs": {slug: card(slug).cost for slug in state["dev_display"]},
        "building_tiles": dict(state["building_tiles"]),
        "building_cards": dict(state["building_cards"]),
        "station_cards": state["station_cards"],
        "turn": dict(state["turn"]),
        "draft": (
            {"pool": list(state["draft"]["pool"]), "picks": list(state["draft"]["picks"])} if "draft" in state else None
        ),
        "players": players,
    }
    if viewer is not None and 0 <= viewer < len(state["players"]):
        mine = state["players"][viewer]
        out["hand"] = sorted(mine["hand"])
        out["hand_icons"] = {slug: list(card(slug).icons) for slug in sorted(set(mine["hand"]))}
        out["deck_contents"] = cards.counted(mine["deck"])
    return out


def _hand_line(hand: list[str]) -> str:
    parts = []
    for slug, n in cards.counted(hand).items():
        icons = "+".join(card(slug).icons)
        parts.append(f"{n}x {slug} [{icons}]" if n > 1 else f"{slug} [{icons}]")
    return ", ".join(parts) or "empty"


def private_summary(state: State, seat: int) -> str:
    """Plain text for /game hand: the seat's hand with icons, and its resources."""
    player = state["players"][seat]
    lines = [
        f"Your hand: {_hand_line(player['hand'])}.",
        f"${player['money']}, {player['hp']} HP, stress {player['stress']}, {player['workers']} rail workers, "
        f"{player['rails_left']} rail tiles; deck {len(player['deck'])}, discard {len(player['discard'])}.",
    ]
    if state["phase"] == "actions" and state["current"] == seat:
        lines.append(f"Actions left this turn: {state['turn']['actions_left']}.")
        if master_available(state, seat):
            lines.append("You may move the Station Master for free: /tram master <to> via <link>.")
    return "\n".join(lines)


def move_label(state: State, seat: int, move: Move) -> str:
    """What a legal move costs or gains, for autocomplete: money and stress (and HP)."""
    from games.tramways.rules import apply

    verb = move.get(MOVE_KEY)
    if verb in ("take", "pass", "done", "draft"):
        return card_name(move["card"]) if verb == "take" else ""
    if verb == "buy":
        return f"costs ${card(move['card']).cost}"
    try:
        after, _ = apply(state, seat, move)
    except Exception:  # a label must never break autocomplete
        return ""
    before, now = state["players"][seat], after["players"][seat]
    parts = []
    if now["money"] != before["money"]:
        parts.append(f"${before['money']} → ${now['money']}")
    if now["stress"] != before["stress"]:
        parts.append(f"stress {now['stress'] - before['stress']:+d}")
    if now["hp"] != before["hp"]:
        parts.append(f"HP {now['hp'] - before['hp']:+d}")
    return ", ".join(parts) or "free"
