"""The pile shuffle of the shuffle variants (`rng.scatter_inplace`) and its bit-plane twin."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest
from scipy import stats

from beggarstats.engine.rng import next_u64, scatter_inplace, scatter_planes, stream_state


def scattered(pile, state):
    a = np.array(pile, dtype=np.int8)
    scatter_inplace(state, a, len(a))
    return tuple(a.tolist())


def test_every_arrangement_equally_likely():
    # J - Q - J has 5! / (2! 2! 1!) = 30 distinct arrangements; a uniform shuffle (Fisher-Yates on
    # the five cards) gives each the same chance, 1/30.
    pile = (1, 0, 2, 0, 1)
    state = stream_state(11, 0)
    n = 60_000
    counts = Counter(scattered(pile, state) for _ in range(n))
    expected = set(itertools.permutations(pile))
    assert set(counts) == expected and len(expected) == 30
    chi2 = stats.chisquare(list(counts.values()))
    assert chi2.pvalue > 1e-4, counts


def test_keeps_the_pile_and_changes_its_order():
    state = stream_state(3, 7)
    pile = (4, 0, 0, 3, 0, 0, 0, 2, 0, 1, 5, 0)
    out = [scattered(pile, state) for _ in range(50)]
    assert all(sorted(o) == sorted(pile) for o in out)
    assert len(set(out)) > 40


def test_draws_one_output_per_court_card_into_a_free_slot():
    # The first court card always finds a free slot: exactly one draw (Lemire rejects with chance
    # below n / 2**32). A pile of number cards, or of fewer than two cards, draws nothing.
    for pile, draws in [((0, 0, 0), 0), ((3,), 0), ((), 0), ((0, 2, 0, 0), 1)]:
        state = stream_state(5, 1)
        a = np.array(pile, dtype=np.int8)
        scatter_inplace(state, a, len(a))
        ref = stream_state(5, 1)
        for _ in range(draws):
            next_u64(ref)
        np.testing.assert_array_equal(state, ref)


def test_is_seeded_by_the_stream():
    pile = tuple([1, 2, 3, 4] + [0] * 20)
    assert scattered(pile, stream_state(1, 2)) == scattered(pile, stream_state(1, 2))
    assert scattered(pile, stream_state(1, 2)) != scattered(pile, stream_state(1, 3))


def planes(pile):
    q = [0, 0, 0]
    for i, kind in enumerate(pile):
        for p in range(3):
            q[p] |= ((kind >> p) & 1) << i
    return [np.uint64(x) for x in q]


def unplane(q, n):
    return tuple(sum(((int(q[p]) >> i) & 1) << p for p in range(3)) for i in range(n))


@pytest.mark.parametrize("n", [2, 3, 21, 22, 32, 33, 52, 63, 64])
def test_bit_planes_scatter_exactly_like_the_reference(n):
    """The kernels' register version draws the same numbers and lands every card in the same slot."""
    rng = np.random.default_rng(n)
    for trial in range(200):
        pile = tuple(int(k) for k in rng.choice(6, size=n, p=[0.55, 0.1, 0.1, 0.1, 0.1, 0.05]))
        s_ref = stream_state(n, trial)
        s_planes = s_ref.copy()
        want = scattered(pile, s_ref)
        got = unplane(scatter_planes(*planes(pile), n, s_planes), n)
        assert got == want, (pile, trial)
        np.testing.assert_array_equal(s_planes, s_ref)
