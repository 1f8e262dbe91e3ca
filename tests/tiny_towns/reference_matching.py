"""The cell-by-cell pattern matcher the engine used before bitboards, kept as the reference the
bitboard matcher (games/tiny_towns/bitboard.py) is checked against."""

from __future__ import annotations

from games.tiny_towns.patterns import BY_MASK, PLACEMENTS, could_match, matches
from games.tiny_towns.town import cube_counts


def matching_masks(slug: str, marks: list[str]) -> list[int]:
    counts, wild = cube_counts(marks)
    if not could_match(slug, counts, wild):
        return []
    seen: list[int] = []
    for placement in PLACEMENTS[slug]:
        if placement.mask not in seen and matches(placement, marks):
            seen.append(placement.mask)
    return seen


def any_match(slug: str, marks: list[str]) -> bool:
    counts, wild = cube_counts(marks)
    return could_match(slug, counts, wild) and any(matches(placement, marks) for placement in PLACEMENTS[slug])


def mask_matches(slug: str, marks: list[str], mask: int) -> bool:
    return any(matches(p, marks) for p in BY_MASK[slug].get(mask, []))
