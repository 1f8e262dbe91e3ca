"""Transcripts: a game as text, one command per line, replayable through the host core.

    game: tiny-towns
    seed: 42
    players: ann, bob
    options: monuments=off
    moderators: mod           # optional: these names may use moderator commands
    ann: /tt announce wood
    !bob: /tt place Z9        # a line starting with ! must be rejected
    standings: ann=28 bob=19  # optional: expected scores, in rank order

``/game export`` writes this format (``export``); ``bot/transcript.py`` replays it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from games.base import GameSpec
from games.options import format_options
from storage import GameRow, MoveRow, SeatRow

HEADER_KEYS = ("game", "seed", "salt", "commitment", "players", "options", "moderators")
MAX_SEED = 2**63 - 1  # what the database stores


class TranscriptError(Exception):
    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


@dataclass(frozen=True)
class Line:
    number: int
    player: str
    text: str
    expect_reject: bool


@dataclass(frozen=True)
class Transcript:
    game: str
    seed: int
    players: tuple[str, ...]
    options: str
    moderators: tuple[str, ...]
    lines: tuple[Line, ...]
    standings: tuple[tuple[str, int], ...] | None
    standings_line: int = 0
    # A finished game's export carries the salt and the commitment posted at its start.
    salt: str | None = None
    commitment: str | None = None


def _strip_comment(raw: str) -> str:
    return raw.split("#", 1)[0].strip()


def parse_transcript(text: str) -> Transcript:
    header: dict[str, str] = {}
    lines: list[Line] = []
    standings: list[tuple[str, int]] | None = None
    standings_line = 0
    for number, raw in enumerate(text.splitlines(), 1):
        line = _strip_comment(raw)
        if not line:
            continue
        reject = line.startswith("!")
        body = line[1:].strip() if reject else line
        if ":" not in body:
            raise TranscriptError(number, 'expected "name: /command" or a header like "seed: 42"')
        key, value = (part.strip() for part in body.split(":", 1))
        if key.lower() == "standings" and not reject:
            standings, standings_line = _parse_standings(number, value), number
        elif key.lower() in HEADER_KEYS and not value.startswith("/") and not reject:
            if lines:
                raise TranscriptError(number, f'header "{key}" must come before the first command')
            header[key.lower()] = value
        else:
            if not value.startswith("/"):
                raise TranscriptError(number, f'"{value}" is not a command (commands start with /)')
            lines.append(Line(number, key, value, reject))
    for key in ("game", "players"):
        if key not in header:
            raise TranscriptError(1, f'missing header "{key}:"')
    players = tuple(p.strip() for p in header["players"].split(",") if p.strip())
    if "seed" not in header and "commitment" in header:
        raise TranscriptError(
            1,
            "this is the public record of a game in progress: its seed stays secret until the "
            "game ends, so it cannot be replayed yet",
        )
    seed_text = header.get("seed", "0")
    if not (seed_text.isascii() and seed_text.isdigit()) or len(seed_text) > 19 or int(seed_text) > MAX_SEED:
        raise TranscriptError(1, f'seed must be a whole number from 0 to {MAX_SEED}, not "{seed_text[:40]}"')
    return Transcript(
        game=header["game"],
        seed=int(seed_text),
        players=players,
        options=header.get("options", ""),
        moderators=tuple(p.strip() for p in header.get("moderators", "").split(",") if p.strip()),
        lines=tuple(lines),
        standings=tuple(standings) if standings is not None else None,
        standings_line=standings_line,
        salt=header.get("salt"),
        commitment=header.get("commitment"),
    )


def _parse_standings(number: int, value: str) -> list[tuple[str, int]]:
    result = []
    for word in value.split():
        match = re.fullmatch(r"(.+)=(-?\d+)", word)
        if not match:
            raise TranscriptError(number, f'standings entries look like name=score, not "{word}"')
        result.append((match.group(1), int(match.group(2))))
    return result


def load(path: str | Path) -> Transcript:
    try:
        text = Path(path).read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TranscriptError(1, f"the file is not UTF-8 text (byte {exc.start})") from None
    return parse_transcript(text)


def _safe_name(name: str, taken: set[str]) -> str:
    base = re.sub(r"[\s:,#!=]+", "-", name.strip()).strip("-") or "player"
    candidate, n = base, 2
    while candidate.lower() in taken or candidate.lower() in HEADER_KEYS or candidate.lower() == "standings":
        candidate, n = f"{base}-{n}", n + 1
    taken.add(candidate.lower())
    return candidate


def export(spec: GameSpec, row: GameRow, seats: Sequence[SeatRow], moves: Sequence[MoveRow]) -> str:
    """The transcript of a started game (public information only: moves are public commands)."""
    taken: set[str] = set()
    names = [_safe_name(seat.display_name, taken) for seat in seats]
    lines = [f"# {spec.name}, game {row.id}, exported by Tabletop Conductor", f"game: {spec.slug}"]
    if row.status == "finished":
        # Revealed at the end: `conductor verify` checks them against the commitment posted at the start.
        lines.append(f"seed: {row.seed}")
        lines += [f"salt: {row.salt}", f"commitment: {row.commitment}"] if row.salt and row.commitment else []
    else:
        lines.append("# The public record of a game in progress: the seed stays secret until the game ends, so this")
        lines.append("# cannot be replayed yet. The commitment below lets anyone check the seed revealed at the end.")
        lines += [f"commitment: {row.commitment}"] if row.commitment else []
    lines.append(f"players: {', '.join(names)}")
    options = format_options(row.options, spec.options)
    if options:
        lines.append(f"options: {options}")
    # A redacted secret move arrives as "# ..." and stays a comment, so the file still parses.
    lines += [
        f"# {names[m.seat]}: {m.text[2:]}" if m.text.startswith("#") else f"{names[m.seat]}: {m.text}" for m in moves
    ]
    if row.status == "finished" and row.state is not None:
        standings = spec.standings(row.state)
        lines.append("standings: " + " ".join(f"{names[s['seat']]}={s['score']}" for s in standings))
    return "\n".join(lines) + "\n"
