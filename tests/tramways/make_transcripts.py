"""Generate the bot-played complete-game transcripts in tests/tramways/transcripts/ (not a test).

Run from the repo root:  python -m tests.tramways.make_transcripts
test_transcripts.py re-scores every final position independently of the engine's scoring.
"""

from __future__ import annotations

from pathlib import Path

from games.options import format_options
from games.tramways import GAME

OUT = Path(__file__).with_name("transcripts")
GAMES = [
    (
        "bots-2p-all-modules",
        5,
        ["ann", "bob"],
        {"station": True, "exchange": True, "park": True, "master": True},
        (1, 0),
    ),
    ("bots-3p-park-exchange", 8, ["ann", "bob", "cat"], {"exchange": True, "park": True}, (1, 1, 0)),
    ("bots-5p-station-master", 13, ["ann", "bob", "cat", "dan", "eve"], {"station": True, "master": True}, (1, 0)),
    ("bots-4p-base", 21, ["ann", "bob", "cat", "dan"], {}, (1,)),
    (
        "bots-4p-draft-all-modules",
        34,
        ["ann", "bob", "cat", "dan"],
        {"station": True, "exchange": True, "park": True, "master": True, "parcels": "draft"},
        (1, 0),
    ),
]


def main() -> None:
    for name, seed, players, options, levels in GAMES:
        state = GAME.setup(players, options, seed)
        lines = [
            f"# Tramways, {len(players)} players, made by tests/tramways/make_transcripts.py (bot levels {levels}).",
            "game: tramways",
            f"seed: {seed}",
            f"players: {', '.join(players)}",
            f"options: {format_options(options, GAME.options)}",
        ]
        while not GAME.status(state).finished:
            seat = GAME.status(state).to_act[0]
            move = GAME.bot_move(state, seat, levels[seat % len(levels)])
            lines.append(f"{players[seat]}: {GAME.format(move)}")
            state, _ = GAME.apply(state, seat, move)
        lines.append("standings: " + " ".join(f"{r['player']}={r['score']}" for r in GAME.standings(state)))
        (OUT / f"{name}.transcript").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
