"""A tiny seeded RNG whose whole state is one integer, so it lives inside game state.

SplitMix64: good statistical quality, trivially serialisable, identical on every
platform and Python version (unlike ``random.Random`` whose algorithms may change).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1
_SPAN = 1 << 64


class Rng:
    """Mutable cursor over the integer RNG state; write ``rng.state`` back when done."""

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    def next_u64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in ``[0, n)`` without modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = _SPAN - _SPAN % n
        s = self.state
        while True:  # next_u64 inlined (engines draw on every bot move and every shuffle)
            s = (s + 0x9E3779B97F4A7C15) & _MASK
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            z ^= z >> 31
            if z < limit:
                self.state = s
                return z % n

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """Fisher–Yates shuffle returning a new list."""
        # ``below`` inlined (the same numbers in the same order): decks are reshuffled every few
        # turns, and the calls were a quarter of a shuffle's time.
        result = list(items)
        s = self.state
        for i in range(len(result) - 1, 0, -1):
            n = i + 1
            limit = _SPAN - _SPAN % n
            while True:
                s = (s + 0x9E3779B97F4A7C15) & _MASK
                z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
                z ^= z >> 31
                if z < limit:
                    break
            j = z % n
            result[i], result[j] = result[j], result[i]
        self.state = s
        return result

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]


def seed_state(seed: int) -> int:
    """Derive the initial RNG state from a user-facing seed."""
    return Rng(seed).next_u64()
