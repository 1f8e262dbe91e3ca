"""Text for `/game rules trolley-town [topic]`, built from the data files so it never drifts."""

from __future__ import annotations

from games.help_pages import pages
from games.trolley_town.content import RULES, TILES, Tile
from games.trolley_town.effects import describe


def _paged(name: str, header: str, lines: list[str]) -> dict[str, str]:
    return pages("trolley-town", name, header, lines)


def _cost(tile: Tile) -> str:
    parts = [f"{n} {r}" for r, n in tile.cost.items()]
    return " + ".join(parts) or "free"


def _line(tile: Tile) -> str:
    star = " *" if tile.star else ""
    copies = f" x{tile.copies}" if tile.copies > 1 else ""
    return (
        f"- {tile.name}{star}{copies} (`{tile.slug}`, {_cost(tile)}, {tile.spaces} spaces) "
        f"[{tile.source}]: {describe(tile)}"
    )


def _tiles() -> dict[str, str]:
    found: dict[str, str] = {}
    groups = (
        ("basics", "Starting and basic buildings", ("start", "basic", "rebuild")),
        ("tiles-a", "Special buildings A (* = starred)", ("A",)),
        ("tiles-b", "Special buildings B (* = starred)", ("B",)),
        ("tiles-v", "Special buildings V (victory)", ("V",)),
    )
    for name, header, piles in groups:
        lines = [_line(t) for t in TILES.values() if t.pile in piles]
        found.update(_paged(name, f"{header}: name (`slug`, cost, spaces) [source]: effect", lines))
    return found


TITLES = ", ".join(f"{vp} {title}" for vp, title in RULES.titles)

RULES_HELP: dict[str, str] = {
    "overview": (
        "My Trolley Town (1-4 players, 4 rounds). You start with a Forest (0,0) and a Mountain (1,0). Each round: "
        "1 Production - every tile's production effect once, pieces only into empty spaces (choices: "
        "/trolley choose). 2 Construction - turns from the start player: build 1 building, or lay/upgrade any "
        "number of routes, or pass (a hard pass for the round). 3 Transport - everyone at once moves goods along "
        "routes, then /trolley done; processing follows at once (every conversion as many times as possible). "
        "In round 4 you may transport and process again and again; say done twice to finish. Then game-end "
        "effects score; most VP wins, ties share the victory. Topics: commands, grid, transport, market, "
        "solo, basics, tiles-a, tiles-b, tiles-v, decisions."
    ),
    "commands": (
        "/trolley build TILE x,y [rebuild] [pay wood 0,0 stone 1,0] - build a face-up building next to your town.\n"
        "/trolley route KIND x,y ROTATION ... - lay routes (straight/curve: 1 wood or stone; junction: 2); "
        "several in one turn, and `upgrade x,y ROTATION` entries too.\n"
        "/trolley upgrade x,y ROTATION ... - turn a route into a junction (1 wood or stone) keeping its path.\n"
        "/trolley move RESOURCE FROM TO ... - transport pieces (several in one command).\n"
        "/trolley choose x,y RESOURCE ... - answer a choice (Wasteland: wood or stone).\n"
        "/trolley remove TILE TILE TILE - solo, end of round.\n"
        "/trolley expert off - drop the expert transport rule.\n"
        "/trolley pass - construction; /trolley done - transport."
    ),
    "grid": (
        "Cells are x,y from your Forest at 0,0: x grows to the right, y downward (the Mountain is 1,0); negative "
        "numbers go left/up. A new tile must share an edge with one of yours. Rotations are degrees clockwise: at 0 "
        "a straight opens west-east, a curve west-south, a junction west-east-south; each 90 turns every opening "
        "one edge clockwise (a curve at 90 opens north-west). Upgrading to a junction must keep the old openings."
    ),
    "transport": (
        "Goods move only along routes: two neighbouring cells are linked when both open on their shared edge and "
        "at least one is a route (buildings are open on all sides, but two buildings side by side are not linked). "
        "Goods may pass through buildings. The destination needs an empty space and must draw that resource in "
        "its effect. Expert rule (per player, option expert=name,...): goods may not pass through a building that "
        "does not draw them; /trolley expert off drops it for good. Tiles that pull goods at transport start "
        "take pieces from any tile without a route."
    ),
    "market": (
        "Basic piles: only the top tile is face up; after one is built the next stays face down until the next "
        "round. 4 players: the Rebuild tile (1 wood) turns a face-down basic tile up to build at once, once per "
        "round (/trolley build field 2,0 rebuild). V: two face-up piles, tops buildable. A/B: a row of 6 slots "
        "with the round marker; round r has r-1 A slots left of it and 7-r B slots right. A built slot is filled "
        "by sliding that side toward the marker and refilling its outer end from the pile. The A and B pile tops "
        "can be built too. Between rounds the marker moves right: the B tile it jumps goes under the B pile and "
        "the top A tile takes its slot. Option first_game=on puts starred tiles at the bottom of their piles."
    ),
    "solo": (
        "Solo: choose 7 basic buildings (option basics=field,field,meadow,meadow,charcoal-kiln,bakery,ranch is the "
        "default), all face up, no Rebuild tile. At the end of rounds 1-3 remove 1 V tile and 2 A/B tiles of your "
        f"choice from those visible (/trolley remove ...), then the market refills. Titles: {TITLES}."
    ),
    **_tiles(),
    **_paged(
        "decisions",
        "Our decisions (edit games/trolley_town/data/rules.json and tiles.json to change):",
        [f"- {line}" for line in RULES.decisions],
    ),
}
