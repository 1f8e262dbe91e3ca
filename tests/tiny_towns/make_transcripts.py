"""Generate the complete-game transcripts in tests/tiny_towns/transcripts/ (a helper, not a test).

    python -m tests.tiny_towns.make_transcripts

Games are played by the level-1 bot, nudged to build every building type in play and every
player's monument at least once (a build of a type nobody has built yet is taken when possible),
so that across the files every building and every monument is built. Seeds are searched until
a game achieves that coverage. The expected standings line comes from the engine; the files
carry hand-checked comments for a few towns.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from games.base import IllegalMove
from games.options import format_options, parse_options
from games.tiny_towns import GAME, rules
from games.tiny_towns.ai import _Policy
from games.tiny_towns.builds import build_moves

OUT = Path(__file__).with_name("transcripts")
NAMES = ["ann", "bob", "cat", "dan", "eve", "fay"]

# (file stem, players, option text, monument each seat keeps, filler dealt with it)
GAMES: list[tuple[str, int, str, list[str], list[str]]] = [
    (
        "standard_first_game_set",
        4,
        "buildings=farm,well,chapel,tavern,theater,factory",
        ["fort-ironweed", "grove-university", "architects-guild", "opaleyes-watch"],
        ["starloom", "cathedral", "shrine", "silva-forum"],
    ),
    (
        "town_hall_granary_bank",
        4,
        "variant=town-hall buildings=granary,fountain,abbey,almshouse,bakery,bank",
        ["barrett-castle", "cathedral-of-caterina", "grand-mausoleum", "mandras-palace"],
        ["fort-ironweed", "starloom", "obelisk", "statue"],
    ),
    (
        "cave_greenhouse_trading_post",
        4,
        "cave=on buildings=greenhouse,millstone,cloister,inn,market,trading-post",
        ["obelisk-of-the-crescent", "shrine-of-the-elder-tree", "silva-forum", "statue-of-the-bondmaker"],
        ["fort-ironweed", "archive", "cathedral", "grove"],
    ),
    (
        "orchard_feast_hall_warehouse",
        3,
        "buildings=orchard,shed,temple,feast-hall,tailor,warehouse",
        ["archive-of-the-second-age", "sky-baths", "starloom"],
        ["barrett-castle", "mausoleum", "mandras"],
    ),
]


def _policy(state: dict[str, Any], seat: int, built: set[str]) -> dict[str, Any]:
    """Level-1 bot aiming harder at types nobody has built yet, and taking any such build."""
    town = state["towns"][seat]
    if state["phase"] == "monuments":
        return {"verb": "monument", "monument": town["monument_options"][0]}
    unbuilt = [b for b in [*state["buildings"], town.get("monument")] if b and b not in built]
    focus = {b: (7.0 if b == town.get("monument") else 5.0) for b in unbuilt}
    policy = _Policy(state, seat, focus=focus)
    if state["phase"] == "place" and town["placed"] and not town["done"] and not rules.flow.claimable(town):
        fresh = [m for m in build_moves(state, seat, guild_replacements=False) if m["building"] in unbuilt]
        if fresh:
            fresh.sort(key=lambda m: (m["building"] != town.get("monument"), m["building"]))
            return policy._candidates([fresh[0]])[0]  # the bot's own choice of monument extras
    return policy.choose()


def play(players: int, options_text: str, seed: int) -> tuple[list[str], dict[str, Any], set[str]]:
    options = parse_options(options_text, GAME.options)
    names = NAMES[:players]
    state = GAME.setup(names, options, seed)
    lines: list[str] = []
    built: set[str] = set()
    rejected_once = {"announce": False, "occupied": False}
    for _ in range(5000):
        status = GAME.status(state)
        if status.finished:
            break
        seat = status.to_act[0]
        if state["phase"] == "announce" and players > 1 and not rejected_once["announce"]:
            other = (state["master_builder"] + 1) % players
            _expect_reject(state, other, "/tt announce wood")
            lines.append(f"!{names[other]}: /tt announce wood   # only the Master Builder names")
            rejected_once["announce"] = True
        move = _policy(state, seat, built)
        if move["verb"] == "place" and not rejected_once["occupied"]:
            taken = next((i for i, c in enumerate(state["towns"][seat]["cells"]) if c), None)
            if taken is not None:
                cell = "ABCD"[taken % 4] + str(taken // 4 + 1)
                _expect_reject(state, seat, f"/tt place {cell}")
                lines.append(f"!{names[seat]}: /tt place {cell}   # occupied square")
                rejected_once["occupied"] = True
        text = GAME.format(move)
        state, _ = GAME.apply(state, seat, GAME.parse(text))
        lines.append(f"{names[seat]}: {text}")
        if move["verb"] == "build":
            built.add(move["building"])
            for _, slug in move.get("replace") or []:
                built.add(slug)
    else:
        raise RuntimeError("game did not end")
    return lines, state, built


def _expect_reject(state: dict[str, Any], seat: int, text: str) -> None:
    try:
        GAME.apply(state, seat, GAME.parse(text))
    except IllegalMove:
        return
    raise RuntimeError(f"{text} was not rejected")


def write(stem: str, players: int, options_text: str, seed: int, lines: list[str], state: dict[str, Any]) -> Path:
    options = parse_options(options_text, GAME.options)
    table = GAME.standings(state)
    header = [
        "# Tiny Towns complete game, generated by tests/tiny_towns/make_transcripts.py (level-1 bots).",
        "game: tiny-towns",
        f"seed: {seed}",
        f"players: {', '.join(NAMES[:players])}",
        f"options: {format_options(options, GAME.options)}",
    ]
    footer = ["# Final towns, rows top to bottom (lower-case letter = leftover cube, fed/unfed marked):"]
    view = GAME.view(state, None)
    for seat, town in enumerate(view["towns"]):
        rows = []
        for r in range(4):
            rows.append(" ".join(_token(cell) for cell in town["cells"][r * 4 : r * 4 + 4]))
        footer.append(f"#   {NAMES[seat]}: " + " / ".join(rows))
    footer.append(
        "# Scores (rank order): "
        + "; ".join(
            f"{row['player']} {row['score']} = " + ", ".join(f"{k} {v}" for k, v in row["breakdown"].items())
            for row in table
        )
    )
    footer.append("standings: " + " ".join(f"{row['player']}={row['score']}" for row in table))
    path = OUT / f"{stem}.transcript"
    path.write_text("\n".join(header + lines + footer) + "\n", encoding="utf-8")
    return path


def _token(cell: dict[str, Any] | None) -> str:
    if cell is None:
        return "."
    if "resource" in cell:
        return cell["resource"][0]
    text = cell["building"]
    if "fed" in cell:
        text += "(fed)" if cell["fed"] else "(unfed)"
    if cell.get("holds"):
        text += f"[{cell['holds']}]"
    if cell.get("stored"):
        text += "[" + "+".join(cell["stored"]) + "]"
    if cell.get("bond"):
        text += "^" + cell["bond"][0]
    return text


def main() -> None:
    OUT.mkdir(exist_ok=True)
    for stem, players, opts, keep, filler in GAMES:
        deal = ",".join(m for pair in zip(keep, filler, strict=True) for m in pair)
        options_text = f"{opts} monuments={deal}"
        in_play = GAME.setup(NAMES[:players], parse_options(options_text, GAME.options), 0)["buildings"]
        targets = set(in_play) | {GAME.parse(f"/tt monument {m}")["monument"] for m in keep}
        for seed in range(1, 400):
            lines, state, built = play(players, options_text, seed)
            if targets <= built:
                print(f"{stem}: seed {seed}, {len(lines)} lines", file=sys.stderr)
                write(stem, players, options_text, seed, lines, state)
                break
        else:
            raise RuntimeError(f"{stem}: no seed covered {sorted(targets)}")
    lines, state, _ = play(1, "monuments=on", 7)
    write("solo", 1, "monuments=on", 7, lines, state)


if __name__ == "__main__":
    main()
