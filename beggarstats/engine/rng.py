"""The per-game random stream: xoshiro256** seeded through splitmix64 from (seed, game).

Every game of every table has its own stream, so a game is re-created from ``(seed, game)`` alone,
whatever ``n_jobs``, backend or chunking (docs/RULES.md section 7). The functions are numba-compiled and
work on a 4-word uint64 state array, so kernels and the reference engine share them exactly.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .kernel_ops import cttz
from .kernel_cache import install as _install_kernel_cache

__all__ = ["mix64", "stream_state", "seed_words", "seed_into", "xoshiro", "next_u64", "bounded32", "bounded",
           "shuffle_words", "shuffle_inplace", "jokers_last", "joker_gap", "deal_words", "deal_inplace", "JOKER_KIND",
           "scatter_inplace", "scatter_planes", "GameStream"]

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_GAME_MIX = np.uint64(0xD1B54A32D192ED03)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_MASK32 = np.uint64(0xFFFFFFFF)


_install_kernel_cache()  # compiled kernels go to the per-user cache (kernel_cache.py)


@njit(cache=True, inline="always")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True, inline="always")
def _splitmix(x):
    """One splitmix64 step: returns (new counter, output)."""
    x = x + _GOLDEN
    z = x
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return x, z ^ (z >> np.uint64(31))


def mix64(x: int) -> int:
    """One splitmix64 output for the counter ``x`` (for deriving seeds in Python)."""
    return int(_splitmix(np.uint64(x & 0xFFFFFFFFFFFFFFFF))[1])


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def seed_words(seed, game):
    """The four state words of game ``game`` of the table seeded ``seed`` (uint64 each), in
    registers: `seed_into` writes them to an array."""
    x, a = _splitmix(np.uint64(seed))
    # Mix the game id through a second, independent odd constant so nearby (seed, game) pairs are
    # unrelated streams.
    x = a ^ (np.uint64(game) * _GAME_MIX)
    x, s0 = _splitmix(x)
    x, s1 = _splitmix(x)
    x, s2 = _splitmix(x)
    x, s3 = _splitmix(x)
    return s0, s1, s2, s3


@njit(cache=True)
def seed_into(state, seed, game):
    """Fill ``state`` (uint64[4]) with the stream of game ``game`` of the table seeded ``seed``."""
    state[0], state[1], state[2], state[3] = seed_words(seed, game)


def stream_state(seed: int, game: int) -> np.ndarray:
    """A new state array for game ``game`` of the table seeded ``seed``."""
    state = np.empty(4, dtype=np.uint64)
    seed_into(state, np.uint64(seed), np.uint64(game))
    return state


@njit(cache=True, inline="always")
def xoshiro(s0, s1, s2, s3):
    """One xoshiro256** step on a state held in four words: (output, new state words).

    The one implementation of the generator: `next_u64` applies it to a state array, the
    bit-plane pile shuffle (`scatter_planes`) to a state kept in registers."""
    out = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return out, s0, s1, s2, s3


@njit(cache=True, inline="always")
def next_u64(s):
    """Next 64-bit output of xoshiro256** (advances the state array ``s`` in place)."""
    out, s[0], s[1], s[2], s[3] = xoshiro(s[0], s[1], s[2], s[3])
    return out


@njit(cache=True, inline="always")
def bounded32(bits, m, s0, s1, s2, s3):
    """Uniform integer in [0, m) from 32 random bits ``bits`` (Lemire's multiply-shift, drawing
    again on the biased sliver); returns (value, state words). The one implementation of it."""
    mm = np.uint64(m)
    prod = bits * mm
    low = prod & _MASK32
    if low < mm:
        thresh = (np.uint64(2**32) - mm) % mm
        while low < thresh:
            r, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
            prod = (r & _MASK32) * mm
            low = prod & _MASK32
    return np.int64(prod >> np.uint64(32)), s0, s1, s2, s3


@njit(cache=True, inline="always")
def _bounded32(s, bits, m):
    """`bounded32` on a state array."""
    v, s[0], s[1], s[2], s[3] = bounded32(bits, m, s[0], s[1], s[2], s[3])
    return v


@njit(cache=True, inline="always")
def bounded(s, m):
    """Uniform integer in [0, m) (m < 2**32) from one fresh 64-bit output."""
    return _bounded32(s, next_u64(s) & _MASK32, m)


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def shuffle_words(a, n, s0, s1, s2, s3):
    """Fisher-Yates shuffle of ``a[:n]`` (how a random deal is made) on a state held in four words;
    returns the state words after it. Two swap positions per 64-bit output, from the top down:
    the one implementation, which `shuffle_inplace` applies to a state array.

    The state never goes through memory (a store to ``a`` could alias a state array, so the
    compiler would reload it every step), and the swaps are unconditional: the only branches are
    the loop's and Lemire's rare redraw."""
    i = n - 1
    while i > 1:
        r, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
        j, s0, s1, s2, s3 = bounded32(r & _MASK32, i + 1, s0, s1, s2, s3)
        t = a[i]
        a[i] = a[j]
        a[j] = t
        j, s0, s1, s2, s3 = bounded32(r >> np.uint64(32), i, s0, s1, s2, s3)
        t = a[i - 1]
        a[i - 1] = a[j]
        a[j] = t
        i -= 2
    if i == 1:  # an odd number of positions left: the last output's high half is not used
        r, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
        j, s0, s1, s2, s3 = bounded32(r & _MASK32, 2, s0, s1, s2, s3)
        t = a[1]
        a[1] = a[j]
        a[j] = t
    return s0, s1, s2, s3


@njit(cache=True)
def shuffle_inplace(s, a, n):
    """Fisher-Yates shuffle of ``a[:n]`` on the state array ``s`` (advanced in place): `shuffle_words`."""
    s[0], s[1], s[2], s[3] = shuffle_words(a, n, s[0], s[1], s[2], s[3])


JOKER_KIND = 5  # the tribute a joker demands (game/cards.py), last in a deck's canonical order


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def jokers_last(a, n):
    """How many jokers end the deck ``a[:n]`` in canonical order (jokers last): the ones the deal
    slips in after the Fisher-Yates of the other cards (`deal_words`)."""
    jokers = 0
    while jokers < n and a[n - 1 - jokers] == JOKER_KIND:
        jokers += 1
    return jokers


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def joker_gap(m, s0, s1, s2, s3):
    """Where the deal slips the next joker in among the ``m`` cards laid so far: a uniform gap 0..m
    (before card ``gap``), from one fresh 64-bit output, its low half; returns (gap, state words).
    The one draw of it, which `deal_words` and `hands_bits.shuffled_planes` make."""
    r, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
    return bounded32(r & _MASK32, m + 1, s0, s1, s2, s3)


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def deal_words(a, n, s0, s1, s2, s3):
    """The deal's shuffle of the deck ``a[:n]`` in canonical order (jokers last), on a state held in
    four words; returns the state words after it (docs/RULES.md section 7, since RULES_VERSION 3).

    The cards other than jokers get the Fisher-Yates of `shuffle_words`, exactly the draws of the
    same deck without jokers; then each joker in turn is inserted at a uniform position among the
    ``m + 1`` gaps of the ``m`` cards laid so far (`joker_gap`). A uniform order of the m cards and
    a uniform gap make a uniform order of m + 1, so the deal stays uniform, and the cards other
    than jokers keep the order they have in the deal without jokers: game g with jokers is game g
    of the standard table with jokers slipped in (a paired design). No allocation: the cards after
    the gap move up one place in ``a`` (`hands_bits.shuffled_planes` makes the same deal on planes,
    with a shift instead)."""
    jokers = jokers_last(a, n)
    m = n - jokers
    s0, s1, s2, s3 = shuffle_words(a, m, s0, s1, s2, s3)
    for _ in range(jokers):
        gap, s0, s1, s2, s3 = joker_gap(m, s0, s1, s2, s3)
        k = m
        while k > gap:
            a[k] = a[k - 1]
            k -= 1
        a[gap] = JOKER_KIND
        m += 1
    return s0, s1, s2, s3


@njit(cache=True)
def deal_inplace(s, a, n):
    """The deal's shuffle of ``a[:n]`` on the state array ``s`` (advanced in place): `deal_words`."""
    s[0], s[1], s[2], s[3] = deal_words(a, n, s[0], s[1], s[2], s[3])


@njit(cache=True)
def scatter_inplace(s, a, n):
    """The pile shuffle of the shuffle variants: a uniformly random arrangement of the kinds ``a[:n]``.

    Only a card's kind matters (game/cards.py), so shuffling a pile means arranging its kinds at random.
    Each card that is not a number card, taken in pile order, goes to a uniformly random free slot
    (`bounded` over all ``n`` slots, drawn again while the slot is taken) and number cards fill the
    slots left over. Every arrangement of the pile comes out equally likely, as after a Fisher-Yates
    shuffle, for about one draw per court card instead of one per card. A pile of fewer than two
    cards draws nothing. Works in place: bits 3-5 of a slot hold the kind placed there and bit 6
    marks it taken, until the last pass. (RULES_VERSION 2; version 1 used `shuffle_inplace`.)
    """
    if n < 2:
        return
    for k in range(n):
        kind = a[k] & 7
        if kind:
            slot = bounded(s, n)
            while a[slot] & 64:
                slot = bounded(s, n)
            a[slot] |= 64 | (kind << 3)
    for k in range(n):
        a[k] = (a[k] >> 3) & 7


@njit(cache=True, _nrt=False, inline="always")
def scatter_planes(q0, q1, q2, n, s):
    """`scatter_inplace` on a pile of ``n >= 2`` kinds held as three bit-planes (bit i of plane b:
    bit b of the i-th card's kind): the same draws and the same slots, with the state words in
    registers. Number cards are the slots left over, so they cost nothing. Returns the planes."""
    s0 = s[0]
    s1 = s[1]
    s2 = s[2]
    s3 = s[3]
    one = np.uint64(1)
    court = q0 | q1 | q2
    free = ~np.uint64(0) >> np.uint64(64 - n)
    o0 = np.uint64(0)
    o1 = np.uint64(0)
    o2 = np.uint64(0)
    while court:
        b = np.uint64(cttz(court))
        court &= court - one
        r, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
        j, s0, s1, s2, s3 = bounded32(r & _MASK32, n, s0, s1, s2, s3)
        while not (free >> np.uint64(j)) & one:
            r, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
            j, s0, s1, s2, s3 = bounded32(r & _MASK32, n, s0, s1, s2, s3)
        uj = np.uint64(j)
        free ^= one << uj
        o0 |= ((q0 >> b) & one) << uj
        o1 |= ((q1 >> b) & one) << uj
        o2 |= ((q2 >> b) & one) << uj
    s[0] = s0
    s[1] = s1
    s[2] = s2
    s[3] = s3
    return o0, o1, o2


class GameStream:
    """A game's random stream for Python code (the reference engine's shuffles)."""

    def __init__(self, seed: int, game: int, state: np.ndarray | None = None):
        self.seed, self.game = int(seed), int(game)
        self.state = stream_state(seed, game) if state is None else state

    def shuffle(self, cards: list) -> list:
        """Shuffle the pile ``cards`` (kinds) in place exactly as the kernels do; returns it."""
        a = np.asarray(cards, dtype=np.int8)
        scatter_inplace(self.state, a, len(a))
        cards[:] = a.tolist()
        return cards
