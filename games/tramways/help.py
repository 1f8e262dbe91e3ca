"""Text for `/game rules tramways [topic]`, built from the data files so it never drifts."""

from __future__ import annotations

from games.help_pages import pages
from games.tramways.content import CARDS, SETTINGS
from games.tramways.notation import USAGE

RECONSTRUCTION = (
    "The base game here is a RECONSTRUCTION: the base Tramways rulebook is not available to this project. "
    "What reviews publish is followed; everything else is our decision, listed under `/game rules decisions` "
    "and kept in the game's data files so a group owning the game can correct it. The Grand Station "
    "expansion (Station, Stock Exchange, Park, Station Master) follows its rulebook exactly."
)

OVERVIEW = f"""**Tramways with the Grand Station expansion** (1-5 players, {SETTINGS["rounds"]} rounds)
{RECONSTRUCTION}
Each round: an auction for turn order (bids are paid at once and add up; first to pass goes last; \
the first player gains stress), auction cards taken in turn order, then one action each and two \
actions each, then administration (discard, buy a development card, draw to {SETTINGS["hand_limit"]}, \
passengers refill). Build rails between buildings, complete links, and move passengers over them: \
link owners earn HP, the mover gets the destination bonus and money for their own rails while paying \
other owners. Most HP wins; stress costs HP at the end, every ${SETTINGS["money_per_hp"]} left is 1 HP.
Topics: actions, cards, icons, modules, commands, scoring, decisions."""

ACTIONS = """**Actions** (one per move; the cards and icons that pay are part of the command)
- rails: 1-3 rail tiles (one rail icon each, $1 more per hill). Start on a cell of a building, an owned \
parcel or an expansion tile (or on the last rail of your unfinished link); end on another building's \
cell to complete the link: play a destination icon matching one end, spend a rail worker.
- upgrade-link: up icon + a destination icon of one end: the link then pays 2 HP and $2 per tile.
- build (build icon, $2) on your parcel; upgrade-building (build icon, $3).
- move: ticket + the destination's icon; settle (1) HP to link owners (1½) Park: stress -1 \
(2) destination bonus (3) money per rail tile in trip order; $5 passing the Stock Exchange.
- use: money, worker, new passenger or calm icons of one card, as an action of their own.
Using more than one icon of a card costs +1 stress per extra icon. The cards paying for an action may \
also use their $, worker, pax and calm icons within it (each a further icon): they take effect when \
played, before the action's costs, e.g. `/tram build P3 R with investor:build+$2`; new passengers \
go where `at <building>` says."""

MODULES = """**Grand Station modules** (options station=on exchange=on park=on master=on)
- Station (S, 2 cells, 2 passengers, not next to a parcel, not on water): completing a link to it needs the \
other end's icon until you have an S icon; your first link there gives you a Station card (players-1 cards, \
at least 1 solo and 2 with two). Passengers delivered there stay (at most 2). Each round starts with 2 there.
- Stock Exchange (2 cells, may be on water): never a destination, no passengers; passing through is a stop \
(HP for the links before and after) and pays the mover $5 at that moment of the trip.
- Park (1 cell, its 4 neighbours empty): links to it are complete; never a destination; passing through: \
stress -1 after the HP step.
- Station Master (needs the Station, so master=on brings the Station too): the last player in turn \
order moves him once per round for free along one link (HP, bonus and money as for a passenger); not \
moved by the end of their 3 actions: +2 stress.
- Parcel draft (parcels=draft, recommended by the rulebook with these modules): the starting parcels \
are drafted one at a time, in seat order and back (`/tram draft P4`), instead of dealt at random."""

SCORING = """**Scoring**: HP + 1 per $5 - stress penalty (0-2: 0, 3-5: -2, 6-8: -5, 9-11: -9, 12+: -14). \
At stress 12+ you also lose 1 HP at each end of round. Ties: lower stress, then more money, else shared."""


def _cards() -> str:
    lines = ["**Cards** (icons; consequence; cost)"]
    for slug, c in CARDS.items():
        extra = f"; {c.consequence}" if c.consequence else ""
        cost = f"; ${c.cost}" if c.cost else ""
        lines.append(f"- {slug} ({c.group}): {'+'.join(c.icons)}{extra}{cost}")
    lines.append("- parcel-pN (one per parcel): the parcel's icon + $1")
    return "\n".join(lines)


def _decisions() -> dict[str, str]:
    """The decisions list, split into pages of one Discord message each (decisions, decisions-2)."""
    lines = [f"- [{tag}] {text}" for tag, text in SETTINGS["decisions"]]
    return pages("tramways", "decisions", "**Sources and decisions** (published / expansion / project)", lines)


RULES_HELP: dict[str, str] = {
    "overview": OVERVIEW,
    "actions": ACTIONS,
    "icons": "Icons: rail, up (upgrade link), build, ticket, r/c/i/l/s destinations, pN (parcel), $1, $2, "
    "worker, pax (new passenger), calm (stress -1). Card tokens in commands: card:icon+icon.",
    "cards": _cards(),
    "modules": MODULES,
    "commands": "\n".join(USAGE.values()),
    "scoring": SCORING,
    **_decisions(),
    "reconstruction": RECONSTRUCTION,
}
