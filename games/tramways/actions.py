"""The actions of the action phase and the passenger settlement.

apply hands each function a scratch copy of the state and throws it away on IllegalMove, so a
check may come after the cards are played: their money, worker, new-passenger and calm icons
take effect when played, before the action's own costs (a card's $2 can pay for the building it
builds). Settlement follows the Grand Station rulebook's order: (1) HP to link owners, (1½) the
Park, (2) the destination bonus, (3) money per rail tile in trip order, with the Stock
Exchange's $5 at the moment the passenger passes through it.
"""

from __future__ import annotations

from typing import Any

from games import cards
from games.base import Event, IllegalMove, Move, State
from games.json_copy import own_item
from games.tramways import links
from games.tramways.content import (
    BUILDING_CARD,
    BUILDING_NAMES,
    BUILDING_TYPES,
    SETTINGS,
    SIMPLE_ICONS,
    card,
    card_name,
    with_article,
)
from games.tramways.payment import Need, Token, check_pays, check_tokens, gains, parse_token, stress_of

SIMPLE = SIMPLE_ICONS


def add_stress(player: dict[str, Any], amount: int) -> None:
    player["stress"] = max(0, min(SETTINGS["stress_max"], player["stress"] + amount))


def pay_bank(player: dict[str, Any], amount: int) -> None:
    player["money"] -= amount


def tokens_of(move: Move) -> list[Token]:
    return [parse_token(word) for word in move.get("cards", [])]


def new_passenger_target(state: State, tokens: list[Token], at: Any) -> str | None:
    """Where the cards' new passengers go (IllegalMove unless a building with room is named
    exactly when they bring some)."""
    pax = gains(tokens).pax
    if not pax:
        if at:
            raise IllegalMove("Only a new passenger icon (pax) takes a building: at <building>.")
        return None
    endpoint = links.game_map(state).endpoint(str(at or ""))
    if endpoint is None or links.capacity(state, endpoint) == 0:
        raise IllegalMove("Say where the new passenger goes: at <building> (one with room).")
    room = links.capacity(state, endpoint) - state["passengers"].get(endpoint.label, 0)
    if room < pax:
        raise IllegalMove(f"{endpoint.label} has room for {max(0, room)} more passenger(s).")
    return endpoint.label


def play_cards(state: State, seat: int, tokens: list[Token], events: list[Event], at: str | None = None) -> str:
    """Move the cards from hand to discard, with the stress for extra icons, the effects of their
    money, worker, new-passenger and calm icons (new passengers go to ``at``, checked by
    new_passenger_target) and then the cards' consequences; returns a short public description."""
    player = state["players"][seat]
    cards.remove_cards(player["hand"], [slug for slug, _ in tokens])
    player["discard"].extend(sorted(slug for slug, _ in tokens))
    extra = stress_of(tokens)
    add_stress(player, extra)
    notes = []
    if extra:
        notes.append(f"+{extra} stress for extra icons")
    got = gains(tokens)
    if got.money:
        player["money"] += got.money
        notes.append(f"+${got.money}")
    if got.workers:
        player["workers"] += got.workers
        notes.append(f"+{got.workers} rail worker{'s' if got.workers > 1 else ''}")
    if got.calm:
        add_stress(player, -got.calm)
        notes.append(f"-{got.calm} stress")
    if got.pax and at is not None:
        state["passengers"][at] = state["passengers"].get(at, 0) + got.pax
        notes.append(f"{got.pax} new passenger{'s' if got.pax > 1 else ''} at {at}")
    for slug, _ in tokens:
        consequence = card(slug).consequence
        if consequence == "stress":
            add_stress(player, 1)
            notes.append(f"{card_name(slug)}: +1 stress")
        elif consequence == "pay":
            if player["money"] >= 1:
                player["money"] -= 1
                notes.append(f"{card_name(slug)}: pays $1")
            else:
                add_stress(player, SETTINGS["unpaid_stress_per_dollar"])
                notes.append(f"{card_name(slug)}: cannot pay $1, +1 stress")
    played = ", ".join(card_name(slug) for slug, _ in tokens)
    return f" (playing {played}{'; ' + '; '.join(notes) if notes else ''})"


def _need_money(player: dict[str, Any], amount: int, what: str) -> None:
    if player["money"] < amount:
        raise IllegalMove(f"{what} costs ${amount}; you have ${player['money']}.")


# ---------------------------------------------------------------- rails and links


def rails(state: State, seat: int, move: Move, events: list[Event]) -> None:
    player = state["players"][seat]
    plan = links.plan_rails(state, seat, list(move.get("cells", [])))
    gmap = links.game_map(state)
    k = len(plan.cells)
    if player["rails_left"] < k:
        raise IllegalMove(f"You have {player['rails_left']} rail tiles left.")
    tokens = tokens_of(move)
    check_tokens(player["hand"], tokens)
    if plan.end is not None:
        start, end = gmap.endpoint(plan.start), gmap.endpoint(plan.end)
        assert start is not None and end is not None
        dests = links.dest_icons(state, start) | links.dest_icons(state, end)
        need = Need((("rail", k),), True, dests)
        if player["workers"] + gains(tokens).workers < 1:
            raise IllegalMove("Completing a link costs a rail worker and you have none.")
    else:
        need = Need((("rail", k),))
    paid = check_pays(tokens, need)
    dest = move.get("dest")
    if (dest or None) != (paid.upper() if paid else None):
        if plan.end is None:
            raise IllegalMove("Only a rails action that completes a link names a destination (dest ...).")
        raise IllegalMove(f"Say the destination icon you play: dest {paid.upper() if paid else '?'}.")
    at = new_passenger_target(state, tokens, move.get("at"))
    name = state["names"][seat]
    note = play_cards(state, seat, tokens, events, at)
    if plan.end is not None and player["workers"] < 1:
        raise IllegalMove("Completing a link costs a rail worker and you have none.")
    cost = plan.hills * SETTINGS["hill_extra_cost"]
    _need_money(player, cost, f"Rails on {plan.hills} hill cell(s)")
    pay_bank(player, cost)
    if plan.link is None:
        link: dict[str, Any] = {"id": len(state["links"]) + 1, "owner": seat, "cells": [], "ends": [plan.start, None]}
        link["upgraded"] = False
        state["links"].append(link)
    else:
        link = state["links"][plan.link - 1]
    for cell in plan.cells:
        link["cells"].append(gmap.name(cell))
        state["rails"][gmap.name(cell)] = link["id"]
    player["rails_left"] -= k
    laid = " ".join(gmap.name(c) for c in plan.cells)
    text = f"{name} lays rails on {laid} (link {link['id']} from {plan.start})"
    if cost:
        text += f", paying ${cost} for hills"
    if plan.end is not None:
        link["ends"][1] = plan.end
        player["workers"] -= 1
        icon = BUILDING_NAMES.get(paid.upper(), "destination") if paid else "destination"
        text += f" and completes it to {plan.end} with {with_article(icon)} icon, spending a rail worker"
        if "STATION" in link["ends"] and state["modules"]["station"] and not player["station_link"]:
            player["station_link"] = True
            if state["station_cards"] > 0:
                state["station_cards"] -= 1
                player["hand"].append(BUILDING_CARD["S"])
                text += "; first link to the Station: takes a Station card"
    events.append({"text": text + note + "."})


def upgrade_link(state: State, seat: int, move: Move, events: list[Event]) -> None:
    player = state["players"][seat]
    link_id = int(move.get("link", 0))
    if not 1 <= link_id <= len(state["links"]):
        raise IllegalMove(f"There is no link {link_id}.")
    link = state["links"][link_id - 1]
    if link["owner"] != seat or link["ends"][1] is None or link["upgraded"]:
        raise IllegalMove(f"Link {link_id} is not a complete, not yet upgraded link of yours.")
    gmap = links.game_map(state)
    ends = [gmap.endpoint(label) for label in link["ends"]]
    dests = frozenset().union(*(links.dest_icons(state, e) for e in ends if e is not None))
    tokens = tokens_of(move)
    check_tokens(player["hand"], tokens)
    check_pays(tokens, Need((("up", 1),), True, dests))
    at = new_passenger_target(state, tokens, move.get("at"))
    note = play_cards(state, seat, tokens, events, at)
    cost = SETTINGS["upgrade_link_cost"]
    _need_money(player, cost, "Upgrading a link")
    pay_bank(player, cost)
    link["upgraded"] = True
    events.append({"text": f"{state['names'][seat]} upgrades link {link_id} ({'-'.join(link['ends'])}){note}."})


# ---------------------------------------------------------------- buildings


def build(state: State, seat: int, move: Move, events: list[Event]) -> None:
    player = state["players"][seat]
    label, kind = str(move.get("parcel", "")).upper(), str(move.get("type", "")).upper()
    if state["parcels"].get(label) != seat:
        mine = [p for p, s in sorted(state["parcels"].items(), key=lambda ps: int(ps[0][1:])) if s == seat]
        mine = [p for p in mine if p not in state["built"]]
        raise IllegalMove(f"{label} is not a parcel of yours. Yours to build on: {', '.join(mine) or 'none'}.")
    if label in state["built"]:
        raise IllegalMove(f"{label} is already built on.")
    if kind not in BUILDING_TYPES:
        raise IllegalMove(f"Build one of {', '.join(BUILDING_TYPES)}, not {kind}.")
    if state["building_tiles"][kind] <= 0:
        left = [t for t in BUILDING_TYPES if state["building_tiles"][t] > 0]
        raise IllegalMove(f"No {kind} building tiles are left; left: {', '.join(left) or 'none'}.")
    tokens = tokens_of(move)
    check_tokens(player["hand"], tokens)
    check_pays(tokens, Need((("build", 1),)))
    at = new_passenger_target(state, tokens, move.get("at"))
    note = play_cards(state, seat, tokens, events, at)
    cost = SETTINGS["build_cost"]
    _need_money(player, cost, "Building")
    pay_bank(player, cost)
    state["building_tiles"][kind] -= 1
    state["built"][label] = {"type": kind, "owner": seat, "upgraded": False}
    state["passengers"][label] = 1
    text = (
        f"{state['names'][seat]} builds {with_article(BUILDING_NAMES[kind])} ({kind}) building on {label} for ${cost}"
    )
    if state["building_cards"][kind] > 0:
        state["building_cards"][kind] -= 1
        player["hand"].append(BUILDING_CARD[kind])
        text += f" and takes {with_article(card_name(BUILDING_CARD[kind]))} card"
    events.append({"text": text + note + "."})


def upgrade_building(state: State, seat: int, move: Move, events: list[Event]) -> None:
    player = state["players"][seat]
    label = str(move.get("building", "")).upper()
    built = state["built"].get(label)
    if built is None or built["owner"] != seat or built["upgraded"]:
        raise IllegalMove(
            f"{label} is not a building of yours that can be upgraded (pre-printed buildings, the Station, "
            "the Stock Exchange and the Park belong to nobody)."
        )
    tokens = tokens_of(move)
    check_tokens(player["hand"], tokens)
    check_pays(tokens, Need((("build", 1),)))
    at = new_passenger_target(state, tokens, move.get("at"))
    note = play_cards(state, seat, tokens, events, at)
    cost = SETTINGS["upgrade_building_cost"]
    _need_money(player, cost, "Upgrading a building")
    pay_bank(player, cost)
    built["upgraded"] = True
    events.append({"text": f"{state['names'][seat]} upgrades {label} for ${cost}{note}."})


# ---------------------------------------------------------------- other icons


def use(state: State, seat: int, move: Move, events: list[Event]) -> None:
    """Money, worker, new-passenger and calm icons of one card, as an action of their own."""
    player = state["players"][seat]
    tokens = [parse_token(str(move.get("card", "")))]
    check_tokens(player["hand"], tokens)
    if any(icon not in SIMPLE for icon in tokens[0][1]):
        raise IllegalMove(f"/tram use plays only {', '.join(SIMPLE)} icons; the others belong to their actions.")
    at = new_passenger_target(state, tokens, move.get("at"))
    note = play_cards(state, seat, tokens, events, at)
    events.append({"text": f"{state['names'][seat]} uses icons{note}."})


# ---------------------------------------------------------------- trips


def _hp_choice(state: State, to_type: str, move: Move) -> int:
    hp = move.get("hp")
    if to_type == "C":
        if hp is None:
            raise IllegalMove("A trip to a Commercial building says how many HP you buy there: hp 0, 1 or 2.")
        bonus = SETTINGS["destination_bonus"]["C"]
        if not 0 <= int(hp) <= bonus["hp_max"]:
            raise IllegalMove(f"Buy 0 to {bonus['hp_max']} HP at a Commercial building.")
        return int(hp)
    if hp is not None:
        raise IllegalMove("Only a trip to a Commercial building buys HP (hp N).")
    return 0


def settle(state: State, seat: int, stops: list[str], via: list[int], hp: int, events: list[Event]) -> list[str]:
    """Apply a trip's three settlement steps for ``seat``; the public notes, in order."""
    player = state["players"][seat]
    names = state["names"]
    gmap = links.game_map(state)
    notes: list[str] = []
    factor = SETTINGS["upgraded_link_factor"]
    # (1) HP to the link owners, one (or two, upgraded) per link used.
    for link_id in via:
        link = state["links"][link_id - 1]
        gain = factor if link["upgraded"] else 1
        own_item(state["players"], link["owner"])["hp"] += gain
        notes.append(f"{names[link['owner']]} +{gain} HP (link {link_id})")
    # (1½) The Park: passing through it calms the mover.
    for stop in stops[1:-1]:
        if stop == "PARK":
            add_stress(player, SETTINGS["park_stress"])
            notes.append(f"Park: {names[seat]} {SETTINGS['park_stress']} stress")
    # (2) The destination bonus.
    end = gmap.endpoint(stops[-1])
    assert end is not None
    kind = links.kind_type(state, end)
    bonus = SETTINGS["destination_bonus"].get(kind, {}) if end.kind != "parcel" or stops[-1] in state["built"] else {}
    if bonus.get("stress"):
        add_stress(player, bonus["stress"])
        notes.append(f"{kind}: {bonus['stress']:+d} stress")
    if bonus.get("workers"):
        player["workers"] += bonus["workers"]
        notes.append(f"{kind}: +{bonus['workers']} rail worker")
    if hp:
        player["money"] -= hp * bonus["hp_price"]
        player["hp"] += hp
        notes.append(f"C: buys {hp} HP for ${hp * bonus['hp_price']}")
    if bonus.get("draw"):
        cards.draw(state, seat, player, bonus["draw"], events, card_name)
        notes.append(f"L: draws {bonus['draw']}")
    built = state["built"].get(stops[-1])
    if built and built["upgraded"]:
        extra = SETTINGS["upgraded_building_bonus_hp"]
        own_item(state["players"], built["owner"])["hp"] += extra
        notes.append(f"{names[built['owner']]} +{extra} HP (upgraded {stops[-1]})")
    # (3) Money per rail tile, in trip order, with the Stock Exchange's dividend on the way.
    for index, link_id in enumerate(via):
        link = state["links"][link_id - 1]
        per = factor if link["upgraded"] else 1
        amount = per * len(link["cells"])
        if link["owner"] == seat:
            player["money"] += amount
            notes.append(f"+${amount} own rails (link {link_id})")
        else:
            paid = min(amount, player["money"])
            player["money"] -= paid
            own_item(state["players"], link["owner"])["money"] += paid
            notes.append(f"pays {names[link['owner']]} ${paid} (link {link_id})")
            if paid < amount:
                add_stress(player, (amount - paid) * SETTINGS["unpaid_stress_per_dollar"])
                notes.append(f"cannot pay ${amount - paid}: +{amount - paid} stress")
        if stops[index + 1] == "EXCHANGE" and index + 1 < len(stops) - 1:
            player["money"] += SETTINGS["exchange_money"]
            notes.append(f"Stock Exchange +${SETTINGS['exchange_money']}")
    return notes


def _trip(state: State, seat: int, start: str, move: Move) -> tuple[list[str], list[int], int]:
    via = [int(v) for v in move.get("via", [])]
    if not via:
        raise IllegalMove("Say which links the trip uses: via <link> <link> ... (link numbers on the map).")
    if len(via) > SETTINGS["max_trip_links"]:
        raise IllegalMove(f"A trip uses at most {SETTINGS['max_trip_links']} links.")
    stops = links.trip_stops(state, start, via)
    to = str(move.get("to", "")).upper()
    if stops[-1] != to:
        raise IllegalMove(f"Those links lead from {start} to {stops[-1]}, not {to}.")
    gmap = links.game_map(state)
    end = gmap.endpoint(to)
    if end is None or not links.is_destination(state, end):
        raise IllegalMove(f"{to} is never a destination (the Park and the Stock Exchange are not).")
    hp = _hp_choice(state, links.kind_type(state, end) if end.kind != "parcel" or to in state["built"] else "P", move)
    return stops, via, hp


def move_passenger(state: State, seat: int, move: Move, events: list[Event]) -> None:
    player = state["players"][seat]
    start = str(move.get("from", "")).upper()
    tokens = tokens_of(move)
    at = new_passenger_target(state, tokens, move.get("at"))
    if state["passengers"].get(start, 0) <= 0 and at != start:
        waiting = [label for label, n in sorted(state["passengers"].items()) if n > 0]
        raise IllegalMove(f"No passenger waits at {start}. Passengers wait at: {', '.join(waiting) or 'nowhere'}.")
    stops, via, hp = _trip(state, seat, start, move)
    gmap = links.game_map(state)
    end = gmap.endpoint(stops[-1])
    assert end is not None
    check_tokens(player["hand"], tokens)
    check_pays(tokens, Need((("ticket", 1),), True, links.dest_icons(state, end)))
    note = play_cards(state, seat, tokens, events, at)
    price = hp * SETTINGS["destination_bonus"]["C"]["hp_price"]
    if player["money"] < price:
        raise IllegalMove(f"Buying {hp} HP costs ${price}; you will have ${player['money']}.")
    state["passengers"][start] -= 1
    mark = len(events)  # the trip's line goes before the Leisure draw's lines
    notes = settle(state, seat, stops, via, hp, events)
    if end.kind == "station":
        cap = SETTINGS["station_passengers"]
        state["passengers"]["STATION"] = min(cap, state["passengers"].get("STATION", 0) + 1)
        notes.append("the passenger stays at the Station")
    trip = " → ".join(stops)
    events.insert(mark, {"text": f"{state['names'][seat]} moves a passenger {trip}{note}: {'; '.join(notes)}."})


def master(state: State, seat: int, move: Move, events: list[Event]) -> None:
    info = state["master"]
    if info is None or not state["modules"]["master"]:
        raise IllegalMove("The Station Master is not in this game.")
    if info["moved"]:
        raise IllegalMove("The Station Master has already moved this round.")
    if seat != last_player(state):
        raise IllegalMove("Only the last player in turn order moves the Station Master.")
    if len(move.get("via", [])) != 1:
        raise IllegalMove("The Station Master travels exactly one link: /tram master <to> via <link>.")
    stops, via, hp = _trip(state, seat, info["at"], move)
    price = hp * SETTINGS["destination_bonus"]["C"]["hp_price"]
    _need_money(state["players"][seat], price, f"Buying {hp} HP")
    mark = len(events)
    notes = settle(state, seat, stops, via, hp, events)
    info["at"], info["moved"] = stops[-1], True
    events.insert(
        mark,
        {
            "text": f"{state['names'][seat]} moves the Station Master {stops[0]} → {stops[1]} (free): "
            + "; ".join(notes)
            + "."
        },
    )


def last_player(state: State) -> int:
    order = [s for s in state["order"] if not state["players"][s]["resigned"]]
    return order[-1] if order else -1
