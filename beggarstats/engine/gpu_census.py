"""The census on an NVIDIA GPU: deal ranks stepped on the GPU by the CPU census's own functions.

The deals are made first (`deal_kernel`): a thread takes a run of consecutive ranks, unranks the run's
first deal (`rank.unrank_into`, the source of `rank.sequence_at`, compiled in 64-bit arithmetic), steps
to the next ones with `census_kernel.next_sequence` and builds each deal's planes with
`census_kernel.sequence_planes`, into the buffer of `gpu_refill`. Then the refill kernel of the
version the CPU census plays (`census_kernel`: `passes.versions_of("census", n)`) plays them one trick a
loop step (an unused stream: a census has no random numbers) and counts each as the `summary` kernels
of `gpu_kernels` count a random game (histograms in shared memory, wins, and lists of the ranks handed
back, beyond the cap or at least ``bar`` cards long), so `engine.gpu.count_ranks_cuda` returns what
`count_games_cuda` returns, with ranks for ids.

Imports numba's CUDA target: only `engine.gpu` imports this module, when a run asks for
``device="cuda"``.
"""

from __future__ import annotations

from numba import njit

from .gpu_kernels import plain, table  # first: it mends numpy
from numba import cuda, int64  # noqa: E402

from .census_kernel import next_sequence, sequence_planes  # noqa: E402
from .gpu_refill import refill_summary_kernel, store_deal  # noqa: E402
from .passes import versions_of  # noqa: E402
from .rank import unrank_into  # noqa: E402

__all__ = ["census_kernel", "deal_kernel", "unrank"]

unrank = njit(nogil=True, inline="always")(unrank_into)
_kernels: dict = {}


def census_kernel(n: int):
    """The kernel counting the deals of ranks dealt by `deal_kernel` for ``n`` players:
    `gpu_refill.refill_summary_kernel` of the version the CPU census plays (`passes.versions_of`),
    ``kernel[blocks, threads](dp, sizes, prm, lo, count, cap, bar, hist_c, hist_t, wins, lists,
    n_listed)``, column i of ``dp`` counted as rank ``lo + i``."""
    _players(n)
    (version,) = versions_of("census", n)
    return refill_summary_kernel(version, n)


def deal_kernel(n: int):
    """The kernel dealing ranks into the buffer of `gpu_refill.deal_kernel`: ``kernel[blocks,
    threads](counts, total, sizes, lo, count, run, dp)`` - ``counts`` int64[6] the deck's cards by
    kind, ``total`` its number of deals, ``sizes`` int64[n] the hands, ranks ``lo .. lo + count - 1``
    into columns ``0 .. count - 1`` of ``dp``, a thread a run of ``run`` ranks (unranked once, then
    stepped); the stream zero (a census draws no random numbers)."""
    _players(n)
    if n not in _kernels:
        _kernels[n] = _deal(n)
    return _kernels[n]


def _players(n):
    if not 2 <= n <= 6:
        raise ValueError(f"The value for `n` must be 2 to 6 players, but {n!r} was passed.")


def _deal(n):
    @cuda.jit
    def deal(counts, total, sizes, lo, count, run, dp):
        counts, sizes, dp = plain(counts), plain(sizes), plain(dp)
        stream, kinds, t = table(n)
        n_cards = 0
        for s in range(n):
            n_cards += sizes[s]
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
                store_deal(dp, i, n, t, stream)
            j += cuda.gridsize(1)

    return deal
