"""Provably fair shuffles: the server draws the seed, posts a commitment at the start and reveals
the seed and its salt when the game ends, so anyone can check the deal was fixed in advance."""

from __future__ import annotations

import hashlib
import secrets


def new_salt() -> str:
    return secrets.token_hex(16)


def commitment(seed: int, salt: str) -> str:
    """SHA-256 of ``seed:salt`` in hex: posted at the start, checked by ``conductor verify``."""
    return hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest()


def matches(seed: int, salt: str, posted: str) -> bool:
    return secrets.compare_digest(commitment(seed, salt), posted.strip().lower())
