"""The census on an NVIDIA GPU: deal ranks stepped on the GPU by the CPU census's own functions.

A thread takes a run of consecutive ranks: it unranks the run's first deal (`rank.unrank_into`,
the source of `rank.sequence_at`, compiled in 64-bit arithmetic), steps to the next ones with
`census_kernel.next_sequence`, builds each deal's planes with `census_kernel.sequence_planes` and
plays it with `kernel_two.play_two` (through `gpu_kernels`' two-player passes) / `kernel_multi.play_multi`
with the option values `census_kernel.census_two` / `census_multi` pass them (an unused stream: a census has no random
numbers). Each game is counted as the `summary` kernels of `gpu_kernels` count a random game
(histograms in shared memory, wins, and lists of the ranks handed back, beyond the cap or at least
``bar`` cards long), so `engine.gpu.count_ranks_cuda` returns what `count_games_cuda` returns, with
ranks for ids.

Imports numba's CUDA target: only `engine.gpu` imports this module, when a run asks for
``device="cuda"``.
"""

from __future__ import annotations

from numba import njit

from .gpu_kernels import count_game, end_block, plain, start_block, table, two_game  # first: it mends numpy
from numba import cuda, int64  # noqa: E402

from .census_kernel import next_sequence, sequence_planes  # noqa: E402
from .kernel_multi import play_multi  # noqa: E402
from .options import options_of  # noqa: E402
from .rank import unrank_into  # noqa: E402

__all__ = ["census_kernel"]

unrank = njit(nogil=True, inline="always")(unrank_into)
_kernels: dict = {}


def census_kernel(n: int, plain_rules: bool):
    """The kernel counting ranks ``lo .. lo + count - 1`` of a deck for ``n`` players:
    ``kernel[blocks, threads](counts, total, sizes, prm, lo, count, run, cap, bar, hist_c, hist_t,
    wins, lists, n_listed)``: ``counts`` int64[6] the deck's cards by kind, ``total`` its number of
    deals, ``sizes`` int64[n] the hands, ``run`` ranks a thread steps through from one unranking;
    the rest as `gpu_kernels.summary_kernel`. ``plain_rules`` (two players): the rules
    `census_two` plays with constants (end 'trick', no Beggar joker, no cut-off)."""
    if not 2 <= n <= 6:
        raise ValueError(f"The value for `n` must be 2 to 6 players, but {n!r} was passed.")
    key = (n, bool(plain_rules) and n == 2)
    if key not in _kernels:
        _kernels[key] = _census(n, _play_two(key[1]) if n == 2 else _play_multi(n))
    return _kernels[key]


def _play_two(plain_rules):
    """One two-player deal, its planes in ``t``: `census_two`'s options. A census has no shuffled
    pile, so `gpu_kernels`' passes 'two' (constants) and 'two_rules' pass exactly those."""
    play = two_game("two" if plain_rules else "two_rules")

    @cuda.jit(device=True, inline=True)
    def deal(t, sizes, prm, stream):
        status, cards, tricks, w, _, _, _ = play((t.p0[0], t.p1[0], t.p2[0], sizes[0]),
                                                 (t.p0[1], t.p1[1], t.p2[1], sizes[1]), prm, stream)
        return status, cards, tricks, w

    return deal


def _play_multi(n):
    """One deal of 3-6 players, its planes in ``t``: `census_multi`'s options."""
    @cuda.jit(device=True, inline=True)
    def deal(t, sizes, prm, stream):
        for s in range(n):
            t.ln[s] = sizes[s]
        return play_multi(t, options_of(prm), stream)

    return deal


def _census(n, deal):
    @cuda.jit
    def census(counts, total, sizes, prm, lo, count, run, cap, bar, hist_c, hist_t, wins, lists, n_listed):
        sc, st, sw = start_block()
        counts, sizes, prm, hist_c, hist_t = plain(counts), plain(sizes), plain(prm), plain(hist_c), plain(hist_t)
        wins, lists, n_listed = plain(wins), plain(lists), plain(n_listed)
        n_cards = 0
        for s in range(n):
            n_cards += sizes[s]
        stream, kinds, t = table(n)  # the stream unused: a census draws no random numbers
        seq = kinds[:n_cards]  # the deal, card kind by card kind
        left = cuda.local.array(6, int64)
        for k in range(4):
            stream[k] = 0
        j = cuda.grid(1)
        while j * run < count:  # a run of ranks: unranked once, then stepped
            first = j * run
            last = min(first + run, count)
            for k in range(6):
                left[k] = counts[k]
            unrank(lo + first, total, left, seq)
            for i in range(first, last):
                if i > first:
                    next_sequence(seq)
                sequence_planes(seq, sizes, t.p0, t.p1, t.p2)
                status, cards, tricks, w = deal(t, sizes, prm, stream)
                count_game(lo + i, status, w, cards, tricks, cap, bar, sc, st, sw, hist_c, hist_t, lists, n_listed)
            j += cuda.gridsize(1)
        end_block(n, sc, st, sw, hist_c, hist_t, wins)

    return census
