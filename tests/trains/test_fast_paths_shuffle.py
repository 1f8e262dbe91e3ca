"""The packed shuffle (games/trains/shuffle.py) against the plain ``Rng.shuffled``: the same list
and the same RNG state afterwards, for seeded states of every deck size a game can see, and for
states crafted so that one draw is rejected (the plain loop then draws again)."""

from __future__ import annotations

import pytest

from games.rng import Rng
from games.trains import shuffle

_GOLDEN = 0x9E3779B97F4A7C15
_MASK = (1 << 64) - 1


def _plain(state: int, items: list[str]) -> tuple[list[str], int]:
    rng = Rng(state)
    return rng.shuffled(items), rng.state


def test_seeded_states_and_sizes_shuffle_as_the_plain_rng() -> None:
    picker = Rng(2024)
    for trial in range(3000):
        size = trial % 70
        items = [f"c{picker.below(9)}" for _ in range(size)]
        state = picker.next_u64()
        assert shuffle.shuffled(state, items) == _plain(state, items)


def test_a_state_beyond_64_bits_is_masked_as_the_plain_rng_does() -> None:
    items = [str(i) for i in range(12)]
    for state in (1 << 64, (1 << 70) + 12345, -1):
        assert shuffle.shuffled(state, items) == _plain(state, items)


def _unmix(z: int) -> int:
    """The SplitMix64 state whose output is ``z`` (each step of the output function inverted)."""
    z ^= (z >> 31) ^ (z >> 62)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & _MASK
    z ^= (z >> 27) ^ (z >> 54)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & _MASK
    z ^= (z >> 30) ^ (z >> 60)
    return z


def test_unmix_inverts_the_rng_output() -> None:
    for seed in range(50):
        state = Rng(seed).next_u64()
        rng = Rng((_unmix(state) - _GOLDEN) & _MASK)
        assert rng.next_u64() == state


@pytest.mark.parametrize("size", [3, 4, 7, 12, 16, 33])
def test_a_rejected_draw_shuffles_as_the_plain_rng(size: int) -> None:
    items = [f"card{i}" for i in range(size)]
    steps = size - 1
    for step in range(steps):
        n = size - step  # the n of that draw
        limit = (1 << 64) - (1 << 64) % n
        if limit == 1 << 64:  # n a power of two: no draw of it is ever rejected
            continue
        for z in (limit, _MASK):  # the lowest and the highest rejected draw
            # The state that draws z at this step: its own state less the steps before it.
            state = (_unmix(z) - (step + 1) * _GOLDEN) & _MASK
            fast = shuffle.shuffled(state, items)
            assert fast == _plain(state, items)
            assert fast[1] != (state + steps * _GOLDEN) & _MASK  # the plain loop drew once more


@pytest.mark.parametrize("size", [2, 9, 16, 40])
def test_a_draw_that_may_look_rejected_but_is_not_shuffles_as_the_plain_rng(size: int) -> None:
    # Bits 32-63 set (the packed test's sign of a possible rejection) in a draw that is accepted:
    # the plain loop takes over and gives the same shuffle, with no draw repeated.
    items = [f"card{i}" for i in range(size)]
    steps = size - 1
    for step in range(steps):
        for z in (_MASK ^ ((1 << 32) - 1), _MASK - (1 << 20)):
            state = (_unmix(z) - (step + 1) * _GOLDEN) & _MASK
            fast = shuffle.shuffled(state, items)
            assert fast == _plain(state, items)
            assert fast[1] == (state + steps * _GOLDEN) & _MASK


def test_setup_draws_the_kingdom_and_decks_the_plain_rng_draws() -> None:
    # setup's random kingdom cards come from the packed shuffle: the plain Rng's, and so are the
    # starting decks shuffled after them (the Rng state carries on from the kingdom's draw).
    from games.rng import seed_state
    from games.trains import GAME
    from games.trains.content import CARDS, KINGDOM, RULES

    start = [slug for slug, n in RULES["starting_deck"].items() for _ in range(n)]
    for seed in range(150):
        chosen = list(KINGDOM[seed % 7 : seed % 7 + seed % 3])  # none, one or two named
        rng = Rng(seed_state(seed))
        drawn = rng.shuffled([k for k in KINGDOM if k not in chosen])[: 8 - len(chosen)]
        kingdom = sorted([*chosen, *drawn], key=lambda s: (CARDS[s].cost, s))
        decks = [rng.shuffled(start) for _ in range(3)]
        state = GAME.setup(["a", "b", "c"], {"kingdom": chosen}, seed)
        assert state["kingdom"] == kingdom
        assert [p["deck"] + p["hand"][::-1] for p in state["players"]] == decks
