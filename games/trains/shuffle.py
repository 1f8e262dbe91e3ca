"""games/rng.Rng.shuffled, the same lists and the same RNG state, in a few whole-number operations.

A Trains deck is reshuffled every few turns, and the shuffle was a tenth of a random game's time:
each of its 15 or so SplitMix64 steps is a dozen operations on 64-bit Python ints. The steps do
not depend on each other, though: step k mixes ``s0 + k * GOLDEN`` (mod 2**64), and a draw is
rejected (and the step repeated) only when its number lands in the last ``2**64 % n`` values,
odds of about n / 2**64. So all the steps are worked out at once, each in its own 128-bit lane of
one big int: a lane's products stay below 2**128, so no carry crosses into the next lane, and a
mask after every shift drops what came in from the neighbouring lane. The low 64 bits of every
lane are then read out as an array of unsigned 64-bit numbers. Should any draw be rejected, the
plain ``Rng.shuffled`` does the shuffle instead (tests/trains/test_fast_paths_shuffle.py checks
both ways against it, rejections included).
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Sequence
from functools import cache
from operator import mod
from typing import TypeVar

from games.rng import Rng

T = TypeVar("T")

_GOLDEN = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
_MASK = (1 << 64) - 1
# The lanes are read out through the machine's byte order, and each lane needs an 8-byte item.
_PACKED = sys.byteorder == "little" and array("Q").itemsize == 8


@cache
def _lanes(steps: int) -> tuple[int, int, int, tuple[int, ...], int, int, int]:
    """For a shuffle of ``steps + 1`` items: (one per lane, (k + 1) * GOLDEN in lane k, 64 low
    bits set in every lane, the n of each draw (steps + 1 down to 2), and for the rejection test
    bits 32-63 set in every lane, bit 32 in every lane and bit 64 in every lane)."""
    ones = sum(1 << (128 * k) for k in range(steps))
    golden = sum((k + 1) * _GOLDEN << (128 * k) for k in range(steps))
    sizes = tuple(range(steps + 1, 1, -1))
    return ones, golden, ones * _MASK, sizes, ones * (_MASK ^ _LOW32), ones << 32, ones << 64


_LOW32 = (1 << 32) - 1


def shuffled(rng_state: int, items: Sequence[T]) -> tuple[list[T], int]:
    """(``Rng(rng_state).shuffled(items)``, the Rng's state afterwards), computed in lanes."""
    result = list(items)
    steps = len(result) - 1
    if steps < 1 or not _PACKED or steps > 512:  # nothing to draw, or not worth a table
        rng = Rng(rng_state)
        return rng.shuffled(result), rng.state
    ones, golden, mask, sizes, high, carry, over = _lanes(steps)
    s0 = rng_state & _MASK
    # Lane k holds the state of step k + 1; the SplitMix64 output function, lane by lane.
    x = (s0 * ones + golden) & mask
    x = ((x ^ (x >> 30)) & mask) * _MIX1 & mask
    x = ((x ^ (x >> 27)) & mask) * _MIX2 & mask
    x ^= x >> 31
    # A draw for n is rejected when it lands in the last 2**64 % n < n <= 2**32 values, whose bits
    # 32-63 are all set; adding bit 32 to those bits carries into bit 64 only in such a lane. Any
    # lane that could be rejected (odds 2**-32 each) sends the shuffle to the plain loop.
    if ((x & high) + carry) & over:
        rng = Rng(rng_state)
        return rng.shuffled(result), rng.state
    drawn = array("Q", x.to_bytes(16 * steps, "little"))[::2]  # the low half of every lane
    for i, j in zip(range(steps, 0, -1), map(mod, drawn, sizes), strict=True):
        result[i], result[j] = result[j], result[i]
    return result, (s0 + steps * _GOLDEN) & _MASK
