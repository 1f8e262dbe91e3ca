"""Texts for /game rules [topic], built partly from the data files so they never drift."""

from __future__ import annotations

from games.tiny_towns.content import BASE_BUILDINGS, CATALOGUE, COLOURS, MONUMENTS, RULES, pattern_text

OVERVIEW = """\
Tiny Towns: build the best 4x4 town. Each round the Master Builder names a resource (wood, wheat, brick, \
glass, stone) and every player must place that cube on an empty square of their own town. Cubes that form \
a building's pattern (rotated or mirrored) can be turned into that building: the cubes are removed and the \
building goes on one of the freed squares. When your town is full and you cannot or will not build, it is \
complete. The game ends when every town is complete. Empty squares (and leftover cubes) score -1 each. \
Ties: fewer times Master Builder, then fewer empty squares, then more Cottages, else shared. \
Squares are A1 (top left) to D4: column letter, then row number."""

COMMANDS = """\
/tt monument <name>: keep one of your two dealt monuments (start of game, when monuments are on).
/tt announce <resource>: the Master Builder names this round's resource (solo: pick one of the 3 revealed).
/tt place <square> [<resource>]: place this round's cube. Give a resource in a free-choice round (Town Hall), \
or to place a different one when your Factory holds the named resource. With Statue of the Bondmaker, name \
one of your Cottages' squares to put the cube there.
/tt store <warehouse square> [swap <resource> to <square>]: put a resource named by another player on your \
Warehouse instead, or swap it with a stored cube which goes to an empty square.
/tt cave: (cave rule) set aside a resource named by another player, at most twice.
/tt build <building> <square> <square> ... [at <square>] [with <resource>]: build from the cubes (and Trading \
Posts) on those squares. 'at' = the square that gets the building: one of the squares whose cubes were used \
(a Trading Post stays), or for a Shed (and after your Obelisk) any empty square. Leave 'at' out only when \
exactly one square is possible, e.g. a Well made of one cube and a Trading Post. 'with' = the resource a \
Factory or Bank holds. Example: /tt build cottage B1 A2 B2 at B2.
  Architect's Guild: add 'replace <square> <building>' up to twice. Grove University: add 'add <building> \
<square>'. Opaleye's Watch: add 'aside <building> <building> <building>'.
/tt claim <building> <square>: take a building from your Opaleye's Watch after a neighbour built that type.
/tt done: you have finished building this round. Players with nothing to build are done automatically; \
/tt done is still accepted after your placement (it then changes nothing). A full town is complete when you \
are done."""


# A Discord message holds 2000 characters; each topic must fit in one.
MESSAGE_LIMIT = 2000
_CHUNK = 1950  # leaves room for the "More: /game rules ..." pointer


def _split(topic: str, header: str, lines: list[str]) -> dict[str, str]:
    """Pack lines into topics 'topic', 'topic-2', ... each short enough for one message."""
    chunks: list[list[str]] = [[header]]
    for line in lines:
        if len("\n".join(chunks[-1] + [line])) > _CHUNK:
            chunks.append([f"{header.rstrip(':')} (continued):"])
        chunks[-1].append(line)
    names = [topic] + [f"{topic}-{i}" for i in range(2, len(chunks) + 1)]
    out = {}
    for i, (name, chunk) in enumerate(zip(names, chunks, strict=True)):
        more = [f"More: `/game rules tiny-towns {names[i + 1]}`"] if i + 1 < len(names) else []
        out[name] = "\n".join(chunk + more)
    return out


def _buildings() -> dict[str, str]:
    header = (
        "Building patterns (W wood, H wheat, B brick, G glass, S stone, . = not part of it; rows top to "
        "bottom; any rotation or mirror):"
    )
    lines = []
    for colour in COLOURS:
        for slug in BASE_BUILDINGS:
            entry = CATALOGUE[slug]
            if entry["colour"] == colour:
                lines.append(f"{slug} ({colour}) [{pattern_text(slug)}]: {entry['text']}")
    return _split("buildings", header, lines)


def _monuments() -> dict[str, str]:
    header = "Monuments (each player keeps one secretly and may build only their own, once):"
    lines = [f"{slug} [{pattern_text(slug)}]: {CATALOGUE[slug]['text']}" for slug in MONUMENTS]
    return _split("monuments", header, lines)


def _variants() -> str:
    solo = RULES["solo"]
    hall = RULES["town_hall"]
    titles = ", ".join(f"{t} {title}" if t > -1000 else f"below: {title}" for t, title in solo["titles"])
    removed = ", ".join(CATALOGUE[s]["name"] for s in solo["removed"])
    return (
        "Options: buildings=random|first-game|<list of 6, one per colour>, monuments=off|on|<list dealt 2 per "
        "seat>, cave=on|off, variant=standard|town-hall.\n"
        f"Town Hall: a deck of {hall['cards_per_resource']} cards per resource, {hall['discard_face_down']} "
        "discarded face down. In each 3-round cycle rounds 1 and 2 use a card drawn by the Mayor (seat 0); in "
        "round 3 everyone chooses any resource (not one held on your Banks; a Fort Ironweed owner takes none "
        "unless alone). Reshuffle and discard 5 again when the deck runs out.\n"
        f"Solo (1 player): {removed} are not used. {solo['revealed']} resource cards are revealed; pick one "
        "with /tt announce, it goes to the bottom and a new card is revealed. Factory, Warehouse and Statue "
        f"react to every pick. Feast Hall scores 2 each. Titles: {titles}.\n"
        f"Cave rule: up to {RULES['cave']['max_uses']} times, set aside a resource named by another player."
    )


def _decisions() -> dict[str, str]:
    lines = [f"{i}. {text}" for i, text in enumerate(RULES["decisions"], 1)]
    return _split("decisions", "Project decisions:", lines)


def _help() -> dict[str, str]:
    topics: dict[str, str] = {"overview": OVERVIEW, "commands": COMMANDS}
    topics.update(_buildings())
    topics.update(_monuments())
    topics["variants"] = _variants()
    topics.update(_decisions())
    for name, text in topics.items():
        if len(text) > MESSAGE_LIMIT:  # one entry alone too long: shorten its text in data/*.json
            raise ValueError(f"tiny_towns rules topic {name!r} is {len(text)} characters, over {MESSAGE_LIMIT}")
    return topics


RULES_HELP: dict[str, str] = _help()
