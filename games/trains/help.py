"""Text for `/game rules trains [topic]`, built from the data files so it never drifts."""

from __future__ import annotations

from games.help_pages import pages
from games.trains.content import CARDS, DECISIONS, MAPS, RULES, Card, station_slots_total
from games.trains.effects import usage


def _pages(name: str, header: str, lines: list[str], footer: str = "") -> dict[str, str]:
    return pages("trains", name, header, lines, footer)


def _card_line(card: Card) -> str:
    cost = card.sources.get("cost", card.source)
    line = (
        f"- {card.name} ({card.type}, cost {card.cost}, value {card.money}"
        f"{f', {card.vp} VP' if card.vp else ''}) [{card.source}; cost {cost}]: {card.text}"
    )
    if card.playable:
        line += f"  `{usage(card)}`"
    return line


def _cards() -> dict[str, str]:
    basic = [_card_line(c) for c in CARDS.values() if not c.kingdom and c.slug != "waste"]
    basic.append("- Waste: does nothing; never bought; return all Waste in hand with /trains pass.")
    kingdom = [_card_line(c) for c in CARDS.values() if c.kingdom]
    return {
        **_pages("cards", "Basic cards (cost / value / VP; [source]). Play with the choices shown:", basic),
        **_pages("kingdom", "Kingdom cards, 8 per game ([source]; [project] = our design):", kingdom),
    }


def _maps() -> str:
    lines = []
    for gmap in MAPS.values():
        lines.append(
            f"{gmap.name} [{gmap.source}]: {len(gmap.land)} land hexes, {len(gmap.cities)} cities "
            f"({station_slots_total(gmap.slug)} station slots), {len(gmap.remotes)} remote locations, "
            f"{len(gmap.barriers)} barrier edges. {gmap.about}"
        )
        lines.append("  Remote locations: " + ", ".join(f"{p.name} {h} ({p.value})" for h, p in gmap.remotes.items()))
    lines.append(
        "Both maps are project designs: the printed boards were not available. Edit "
        "games/trains/data/maps/*.json to correct them."
    )
    return "\n".join(lines)


RULES_HELP: dict[str, str] = {
    "overview": (
        "Trains: a deck-building rail game for 2-4 players. Everyone starts with 7 Normal Train, 2 Lay Rails "
        "and 1 Station Expansion and draws 5. Each player first places one free starting rail. On your turn "
        "play cards (money lasts this turn only) and buy cards in any order, then end your turn: everything "
        "goes to your discard pile and you draw 5 (reshuffling only when a draw needs it). "
        "Laying rails costs "
        "extra money by terrain and gives Waste when you share a hex. The game ends after the turn in which "
        f"{RULES['end_empty_piles']} supply piles are empty, a player has placed all "
        f"{RULES['rails_per_player']} rails, or all {RULES['stations_total']} stations are out. "
        "Score: each of "
        "your rails in a city by its stations (0/2/4/8), each rail on a remote location its number, VP cards "
        "and track VP. Ties: most rails on the board."
    ),
    "commands": (
        "/trains start HEX - place your free starting rail (not sea, remote location, or another start).\n"
        "/trains play CARD [choices] - e.g. /trains play lay-rails E5, /trains play station-expansion F3, "
        "/trains play amusement-park express-train, /trains play command-central train, "
        "/trains play mail-train waste waste, /trains play central-station rail E5, "
        "/trains play dispatcher central-station rail E5 then money. 'skip' plays a card for its value "
        "without its effect.\n"
        "/trains buy CARD [top] - 'top' puts it on your deck when Early Train is active.\n"
        "/trains play all-trains - play every train card in your hand that needs no choices at once (not "
        "Freight or Mail Train, nor Commuter Rush).\n"
        "Hexes: a label like E5, or the name of a city or remote location (shinjuku, mt-takao).\n"
        "/trains pass - only if you have neither played nor bought: return all Waste in hand and end "
        "the turn.\n"
        "/trains end - end your turn (clean up, draw 5)."
    ),
    **_cards(),
    "maps": _maps(),
    **_pages(
        "decisions",
        "Rule decisions ([source]; edit games/trains/data/rules.json to change):",
        [f"- {d['topic']} [{d['source']}]: {d['text']}" for d in DECISIONS],
        "Card numbers marked [project], kingdom cards 11-30 and both maps are project designs.",
    ),
}
