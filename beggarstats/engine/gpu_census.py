"""The census on an NVIDIA GPU: deal ranks stepped on the GPU by the CPU census's own functions.

A thread takes a run of consecutive ranks: it unranks the run's first deal (`rank.unrank_into`,
the source of `rank.sequence_at`, compiled in 64-bit arithmetic), steps to the next ones with
`census_kernel.next_sequence`, builds each deal's planes with `census_kernel.sequence_planes` and
plays it with the step of `passes`, in the version the CPU census plays (`passes.versions_of`; an unused
stream: a census has no random numbers). Each game is counted as the `summary` kernels of `gpu_kernels` count a random game
(histograms in shared memory, wins, and lists of the ranks handed back, beyond the cap or at least
``bar`` cards long), so `engine.gpu.count_ranks_cuda` returns what `count_games_cuda` returns, with
ranks for ids.

Imports numba's CUDA target: only `engine.gpu` imports this module, when a run asks for
``device="cuda"``.
"""

from __future__ import annotations

from numba import njit

from .gpu_kernels import count_game, end_block, plain, play_dealt, start_block, table  # first: it mends numpy
from numba import cuda, int64  # noqa: E402

from .census_kernel import next_sequence, sequence_planes  # noqa: E402
from .constants import FALLBACK  # noqa: E402
from .passes import setup, versions_of  # noqa: E402
from .rank import unrank_into  # noqa: E402

__all__ = ["census_kernel"]

unrank = njit(nogil=True, inline="always")(unrank_into)
_kernels: dict = {}


def census_kernel(n: int):
    """The kernel counting ranks ``lo .. lo + count - 1`` of a deck for ``n`` players:
    ``kernel[blocks, threads](counts, total, sizes, prm, lo, count, run, cap, bar, hist_c, hist_t,
    wins, lists, n_listed)``: ``counts`` int64[6] the deck's cards by kind, ``total`` its number of
    deals, ``sizes`` int64[n] the hands, ``run`` ranks a thread steps through from one unranking;
    the rest as `gpu_kernels.summary_kernel`. The version of the fast pass is the CPU census's
    (`passes.versions_of("census", n)`)."""
    if not 2 <= n <= 6:
        raise ValueError(f"The value for `n` must be 2 to 6 players, but {n!r} was passed.")
    if n not in _kernels:
        (version,) = versions_of("census", n)
        _kernels[n] = _census(n, setup(version), play_dealt(n))
    return _kernels[n]


def _census(n, plan_of, play):
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
        plan = plan_of(prm)
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
                for s in range(n):
                    t.ln[s] = sizes[s]
                if plan[0]:
                    res = play(t, plan, stream)
                    count_game(lo + i, res[0], res[3], res[1], res[2], cap, bar, sc, st, sw, hist_c, hist_t, lists,
                               n_listed)
                else:  # (the census's versions play every table: `passes.VERSIONS`)
                    count_game(lo + i, FALLBACK, -1, 0, 0, cap, bar, sc, st, sw, hist_c, hist_t, lists, n_listed)
            j += cuda.gridsize(1)
        end_block(n, sc, st, sw, hist_c, hist_t, wins)

    return census
