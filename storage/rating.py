"""The skill rating: openskill's Plackett-Luce model, multiplayer with ties, as pure functions.

Ratings are a fold over finished games in the order they were rated, so the same games in the
same order always give the same floats: ``conductor check`` recomputes them and compares.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

_MODEL = PlackettLuce()


@dataclass(frozen=True)
class Rating:
    player: str
    display_name: str
    kind: str  # "human" | "bot"
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        """What the leaderboard sorts by: a conservative skill estimate (mu - 3 sigma)."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class Placing:
    """One seat of a finished multiplayer game, as the rating needs it."""

    player: str
    display_name: str
    kind: str
    rank: int


def fresh(player: str, display_name: str, kind: str) -> Rating:
    return Rating(player, display_name, kind, _MODEL.mu, _MODEL.sigma, 0)


def rate(current: Mapping[str, Rating], placings: Sequence[Placing]) -> list[Rating]:
    """The new ratings of the players of one game (solo games and games of one player change nothing).

    A player seated twice (two seats of the same bot level) is rated once, by their best rank.
    """
    best: dict[str, Placing] = {}
    for placing in placings:
        if placing.player not in best or placing.rank < best[placing.player].rank:
            best[placing.player] = placing
    if len(best) < 2:
        return []
    players = list(best.values())
    before = [current.get(p.player) or fresh(p.player, p.display_name, p.kind) for p in players]
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = _MODEL.rate(teams, ranks=[float(p.rank) for p in players])
    return [
        Rating(p.player, p.display_name, p.kind, float(team[0].mu), float(team[0].sigma), r.games + 1)
        for p, r, team in zip(players, before, after, strict=True)
    ]


def replay(games: Iterable[Sequence[Placing]]) -> dict[str, Rating]:
    """Every player's rating after ``games`` (each a finished game's placings), in order."""
    ratings: dict[str, Rating] = {}
    for placings in games:
        for rating in rate(ratings, placings):
            ratings[rating.player] = rating
    return ratings
