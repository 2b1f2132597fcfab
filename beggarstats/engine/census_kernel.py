"""Census kernels: a range of deal ranks played inside numba, deal after deal, in rank order.

`census_two` / `census_multi` take the first deal of the range as a sequence of kinds
(`rank.sequence_at`) and step it with `next_sequence` (no unranking, no random stream): each
deal goes into bit-planes and through the same fast pass as a random game (`kernel_two.play_two`,
`kernel_multi.play_multi`, the versions 'two_any' and 'multi_rules' of `passes.VERSIONS`). The deals a fast pass hands back (a loop, the cut-off) are rare;
`play_ranks` replays them with the exact driver through `batch.play_deals_bits`, the entry of given
deals, so the figures are those of every other tier. Two entries, so that a two-player census never
compiles the multi-player pass. Rules that draw random numbers during play are not for a census
(`run.census` refuses them): the kernels pass the fast passes an unused stream.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .kernel_cache import install as _install_kernel_cache
from .constants import FALLBACK
from .hands_bits import put_card
from .kernel_multi import new_table
from .passes import play_pair, play_table, record_win, setup
from .rank import hand_sizes, sequence_at

__all__ = ["step_sequence", "next_sequence", "sequence_planes", "census_two", "census_multi", "play_ranks"]

_install_kernel_cache()  # compiled kernels go to the per-user cache (kernel_cache.py)

_ZERO = np.uint64(0)
_pair, _table = setup("two_any"), setup("multi_rules")  # the versions a census compiles (`passes.VERSIONS`)


def step_sequence(seq) -> bool:
    """Step the sequence of kinds ``seq`` (int8 array) in place to the next rank (`rank.deal_rank`
    + 1): the next permutation of a multiset in lexicographic order. False (``seq`` unchanged) at
    the last rank. Plain Python; `next_sequence` is its numba compilation."""
    n = seq.shape[0]
    i = n - 2
    while i >= 0 and seq[i] >= seq[i + 1]:
        i -= 1
    if i < 0:
        return False
    j = n - 1
    while seq[j] <= seq[i]:
        j -= 1
    t = seq[i]
    seq[i] = seq[j]
    seq[j] = t
    a, b = i + 1, n - 1
    while a < b:
        t = seq[a]
        seq[a] = seq[b]
        seq[b] = t
        a += 1
        b -= 1
    return True


next_sequence = njit(nogil=True, cache=True, inline="always")(step_sequence)


@njit(nogil=True, cache=True, inline="always")
def _planes(seq, sizes, d0, d1, d2):
    """The deal ``seq`` (kinds, seat 0's hand first) into planes; only penalty cards set bits."""
    at = 0
    for s in range(sizes.shape[0]):
        a, b, c = _ZERO, _ZERO, _ZERO
        for k in range(sizes[s]):
            v = seq[at]
            if v != 0:
                a, b, c = put_card(a, b, c, np.uint64(v), k)
            at += 1
        d0[s], d1[s], d2[s] = a, b, c


sequence_planes = _planes  # public: the GPU census (engine.gpu_census) builds its deals with it


@njit(nogil=True, cache=True)
def census_two(seq, sizes, count, prm, out_u32, out_small, need):
    """Play ``count`` two-player deals from ``seq`` (int8 kinds, stepped in place to the last one
    played) in `kernel_two`; ``need[i] = 1`` for each deal the fast pass hands back. ``out_u32``
    uint32[6, count] and ``out_small`` int8[3, count] are `engine.fast`'s result rows (zeroed)."""
    d0 = np.zeros(2, np.uint64)
    d1 = np.zeros(2, np.uint64)
    d2 = np.zeros(2, np.uint64)
    stream = np.zeros(4, np.uint64)
    plan = _pair(prm)  # (a census plays no shuffled pile: a loop search, as in every deterministic table)
    for i in range(count):
        if i:
            next_sequence(seq)
        _planes(seq, sizes, d0, d1, d2)
        st, cards, tricks, w, _, _, _ = play_pair((d0[0], d1[0], d2[0], sizes[0]), (d0[1], d1[1], d2[1], sizes[1]),
                                                  plan, stream)
        if st == FALLBACK:
            need[i] = 1
        else:
            record_win(out_u32, out_small, i, cards, tricks, w)


@njit(nogil=True, cache=True)
def census_multi(seq, sizes, count, prm, out_u32, out_small, need):
    """`census_two` for three or more players, in `kernel_multi`."""
    n = sizes.shape[0]
    t = new_table(n)
    stream = np.zeros(4, np.uint64)
    plan = _table(prm)
    for i in range(count):
        if i:
            next_sequence(seq)
        _planes(seq, sizes, t.p0, t.p1, t.p2)
        for s in range(n):
            t.ln[s] = sizes[s]
        st, cards, tricks, w = play_table(t, plan, stream)
        if st == FALLBACK:
            need[i] = 1
        else:
            record_win(out_u32, out_small, i, cards, tricks, w)


def play_ranks(rules, lo: int, hi: int) -> dict[str, np.ndarray]:
    """Play the deals of ranks ``lo .. hi-1`` of ``rules`` (a deck of at most 64 cards, rules that
    draw no random numbers) and return `engine.fast.play_games`' arrays, row i for rank lo + i.

    Parameters
    ----------
    rules : Rules
    lo, hi : int
        A range of ranks, ``0 <= lo < hi <= rank.n_deals(rules)``.

    Returns
    -------
    dict of str to numpy.ndarray
        ``cards``, ``tricks``, ``outcome``, ``winner``, ``looped`` and the loop figures, as
        `play_games` without ``per_seat``.
    """
    from . import batch
    from .constants import pack_params
    from .fast import assemble, empty_raw

    count = hi - lo
    seq = sequence_at(lo, rules)
    sizes = np.asarray(hand_sizes(rules), np.int64)
    prm = pack_params(rules)
    out_u32, out_small, seat_out = empty_raw(count, rules.players)
    need = np.zeros(count, np.uint8)
    (census_two if rules.players == 2 else census_multi)(seq, sizes, count, prm, out_u32, out_small, need)
    rows = np.flatnonzero(need)
    if rows.size:  # loops and cut-offs: the exact driver, deal by deal
        p, width = rules.players, int(sizes.max())
        dh = np.zeros((rows.size, p, width), np.int8)
        for j, r in enumerate(rows):
            s = sequence_at(lo + int(r), rules)
            at = 0
            for seat in range(p):
                dh[j, seat, :sizes[seat]] = s[at:at + sizes[seat]]
                at += sizes[seat]
        dl = np.tile(sizes, (rows.size, 1))
        o32, osm, oseat = empty_raw(rows.size, p)
        batch.play_deals_bits(dh, dl, np.zeros((rows.size, 4), np.uint64), prm, o32, osm, oseat)
        out_u32[:, rows] = o32
        out_small[:, rows] = osm
    return assemble(out_u32, out_small, seat_out, None, False)
