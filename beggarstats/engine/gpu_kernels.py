"""The fast passes on an NVIDIA GPU: the CPU's own functions, compiled by numba's CUDA target.

Nothing here plays a card. A kernel gives each thread one game and calls, unchanged, the functions
the CPU batch loops call (`engine/batch.py`): `hands_bits.deal_planes` (the deal, from the game's
own stream), `kernel_two.play_two` or `kernel_multi.play_multi` (the fast pass, which asks every
rule of `rulebook.py` and moves cards with `hands_bits.py`), and `batch.two_row` / `multi_row`
(the row written). numba compiles a CPU function called from a CUDA kernel for the GPU from the
same Python source, so there is no third copy of any rule. Only the working arrays differ: the
CPU allocates them once a batch (`batch._scratch`), a thread here takes them from its local memory.

Which fast pass a table gets is `engine.fast`'s choice (`_fast_pass`: 'two', 'two_empty',
'two_beggar', 'two_rules', 'multi', 'multi_rules'), mirrored option for option below, so a table
plays exactly the version of `play_two` / `play_multi` it plays on the CPU. A game the pass hands
back (``need``) is replayed on the CPU by the exact driver, as on the CPU.

Two kinds of kernel per pass:

* ``rows``: one row per game in the arrays of `engine.fast.empty_raw` (simulate, compare);
* ``summary``: each block counts its games' lengths in histograms in shared memory and adds them
  to the grid's at the end; the games handed back, the games longer than the histograms' cap and
  the games at least ``bar`` cards long (the candidates for the longest) are listed one by one.

This module imports numba's CUDA target (`numba-cuda`), so only `engine.gpu` imports it, and only
when a run asks for ``device="cuda"``.
"""

from __future__ import annotations

import os

import numpy as np

if not hasattr(np, "row_stack"):  # numba-cuda 0.30 registers np.row_stack, which numpy 2.5 removed
    np.row_stack = np.vstack

from numba import cuda, int32, int64, uint64  # noqa: E402

from .batch import multi_row, two_row  # noqa: E402
from .constants import DONE, P_LEADER, P_PASSES_ON, P_STEP  # noqa: E402
from .hands_bits import MAX_CARDS, deal_planes  # noqa: E402
from .kernel_multi import Table, play_multi  # noqa: E402
from .kernel_two import play_two  # noqa: E402
from .options import (COMMON, ENTRIES, ONLY_SHUFFLE, Options, folded, folded_values, options_of,  # noqa: E402
                      table_kind)

__all__ = ["rows_kernel", "summary_kernel", "SHARED_CARDS", "SHARED_TRICKS", "LIST_COLUMNS", "SEATS", "RING", "SNAP",
           "plain", "start_block", "count_game", "end_block", "two_game"]

# Lengths below these are counted in each block's shared memory first (int32, 10 KiB together)
SHARED_CARDS = 2048
SHARED_TRICKS = 512
SEATS = 6  # the most players a table has (local arrays are cut to the table's)
RING = 24  # 4 * SEATS: `kernel_multi.Table.nxt` (a local array's size must be a literal)
SNAP = 25  # 1 + 4 * SEATS: `kernel_multi.Table.snap`
# the columns of a listed game (the summary kernels' lists): id, status, winner, cards, tricks
LIST_COLUMNS = ("game", "status", "winner", "cards", "tricks")

if os.environ.get("NUMBA_ENABLE_CUDASIM", "0") == "1":
    def _folded(kind, step, passes_on, leader):
        """Under the simulator the kernels run as Python, where `options.folded` (an intrinsic) cannot:
        the same record, its fields plain values (the CPU pass then compiles a version for them)."""
        return Options(*folded_values(kind), step, passes_on, leader)

    def _plain(a):
        """Under numba's CUDA simulator a kernel's array is a wrapper the CPU functions cannot take:
        the numpy array it wraps (the simulated device memory itself)."""
        return getattr(a, "_ary", a)
else:
    _folded = folded

    @cuda.jit(device=True, inline=True)
    def _plain(a):
        """On a GPU a kernel's array is what the functions it calls take."""
        return a


_PASSES = ("two", "two_empty", "two_beggar", "two_rules", "multi", "multi_rules")
_FOLDED_TWO = {name: table for table, name in ENTRIES[2].items()}  # the two-player entries with constants
_kernels: dict = {}


def _two_game(kind):
    """The device function playing one two-player game of the pass ``kind`` from its deal, with the
    options exactly as `batch._two_pass` (folded constants) or `batch._two_pass_rules` give them."""
    if kind in _FOLDED_TWO:
        table = _FOLDED_TWO[kind]

        @cuda.jit(device=True, inline=True)
        def play(a, b, prm, state):
            return play_two(a, b, _folded(table, prm[P_STEP], prm[P_PASSES_ON] != 0, prm[P_LEADER]), state)
    else:
        @cuda.jit(device=True, inline=True)
        def play(a, b, prm, state):
            if table_kind(prm) == ONLY_SHUFFLE:
                return play_two(a, b, _folded(ONLY_SHUFFLE, prm[P_STEP], prm[P_PASSES_ON] != 0, prm[P_LEADER]), state)
            return play_two(a, b, options_of(prm), state)
    return play


def _multi_game(kind):
    """The device function playing one game of 3-6 players: `batch._multi_pass` (the common options
    folded) or `batch._multi_pass_rules`."""
    if kind == "multi":
        @cuda.jit(device=True, inline=True)
        def play(t, prm, state):
            return play_multi(t, _folded(COMMON, prm[P_STEP], prm[P_PASSES_ON] != 0, prm[P_LEADER]), state)
    else:
        @cuda.jit(device=True, inline=True)
        def play(t, prm, state):
            return play_multi(t, options_of(prm), state)
    return play


def _check(kind, n):
    if kind not in _PASSES:
        raise ValueError(f"The value for `kind` must be one of {', '.join(map(repr, _PASSES))}, but {kind!r} was "
                         f"passed.")
    if (n == 2) != kind.startswith("two") or not 2 <= n <= 6:
        raise ValueError(f"The value for `n` must be a number of players the pass {kind!r} plays (2 for the two-player "
                         f"passes, 3 to 6 for the others), but {n} was passed.")


def rows_kernel(kind: str, n: int):
    """The kernel writing one row per game, for the fast pass ``kind`` and ``n`` players:
    ``kernel[blocks, threads](deck, prm, seed, games, out_u32, out_small, seat_out, init_out, per_seat,
    need)``, the arguments of `batch.fast_pass_two` (thread i plays ``games[i]``)."""
    _check(kind, n)
    key = ("rows", kind, n)
    if key not in _kernels:
        _kernels[key] = (_rows_two if n == 2 else _rows_multi)(kind, n)
    return _kernels[key]


def summary_kernel(kind: str, n: int):
    """The kernel counting games ``lo .. lo + count - 1`` into histograms (see the module's
    docstring): ``kernel[blocks, threads](deck, prm, seed, lo, count, cap, bar, hist_c, hist_t,
    wins, lists, n_listed)``; ``hist_c``, ``hist_t`` uint64[cap + 1], ``wins`` uint64[n]; ``lists``
    int64[3, capacity, 5] (games handed back, games beyond ``cap``, finished games of at least ``bar``
    cards; columns `LIST_COLUMNS`), ``n_listed`` int64[3] (how many each got; beyond the capacity
    they are counted, not kept)."""
    _check(kind, n)
    key = ("summary", kind, n)
    if key not in _kernels:
        _kernels[key] = (_summary_two if n == 2 else _summary_multi)(kind, n)
    return _kernels[key]


def _rows_two(kind, n):
    play = _two_game(kind)

    @cuda.jit
    def rows(deck, prm, seed, games, out_u32, out_small, seat_out, init_out, per_seat, need):
        i = cuda.grid(1)
        if i >= games.shape[0]:
            return
        deck, prm, games = _plain(deck), _plain(prm), _plain(games)
        out_u32, out_small = _plain(out_u32), _plain(out_small)
        seat_out, init_out, need = _plain(seat_out), _plain(init_out), _plain(need)
        state = cuda.local.array(4, uint64)
        shuffled = cuda.local.array(MAX_CARDS, np.int8)
        d0 = cuda.local.array(2, uint64)
        d1 = cuda.local.array(2, uint64)
        d2 = cuda.local.array(2, uint64)
        dl = cuda.local.array(2, int64)
        deal_planes(deck, 2, seed, games[i], state, shuffled, d0, d1, d2, dl, init_out, i, per_seat)
        res = play((d0[0], d1[0], d2[0], dl[0]), (d0[1], d1[1], d2[1], dl[1]), prm, state)
        two_row(res, out_u32, out_small, seat_out, i, per_seat, need)

    return rows


def _rows_multi(kind, n):
    play = _multi_game(kind)

    @cuda.jit
    def rows(deck, prm, seed, games, out_u32, out_small, seat_out, init_out, per_seat, need):
        i = cuda.grid(1)
        if i >= games.shape[0]:
            return
        deck, prm, games = _plain(deck), _plain(prm), _plain(games)
        out_u32, out_small = _plain(out_u32), _plain(out_small)
        seat_out, init_out, need = _plain(seat_out), _plain(init_out), _plain(need)
        state = cuda.local.array(4, uint64)
        shuffled = cuda.local.array(MAX_CARDS, np.int8)
        d0 = cuda.local.array(SEATS, uint64)[:n]
        d1 = cuda.local.array(SEATS, uint64)[:n]
        d2 = cuda.local.array(SEATS, uint64)[:n]
        dl = cuda.local.array(SEATS, int64)[:n]
        deal_planes(deck, n, seed, games[i], state, shuffled, d0, d1, d2, dl, init_out, i, per_seat)
        # `batch._dealt_table`: the pass's arrays, the hands just dealt in their planes
        t = Table(d0, d1, d2, dl, cuda.local.array(SEATS, np.uint8)[:n], cuda.local.array(RING, int64)[:4 * n],
                  cuda.local.array(SEATS, int64)[:n], cuda.local.array(SEATS, int64)[:n],
                  cuda.local.array(SEATS, int64)[:n], cuda.local.array(SNAP, uint64)[:1 + 4 * n])
        multi_row(play(t, prm, state), t, n, out_u32, out_small, seat_out, i, per_seat, need)

    return rows


@cuda.jit(device=True, inline=True)
def _start_block(sc, st, sw):
    """Zero the block's shared histograms and wins."""
    tid = cuda.threadIdx.x
    for k in range(tid, SHARED_CARDS, cuda.blockDim.x):
        sc[k] = 0
    for k in range(tid, SHARED_TRICKS, cuda.blockDim.x):
        st[k] = 0
    if tid < 6:
        sw[tid] = 0
    cuda.syncthreads()


@cuda.jit(device=True, inline=True)
def _count(game, status, w, cards, tricks, cap, bar, sc, st, sw, hist_c, hist_t, lists, n_listed):
    """One game into the block's counts, or onto a list."""
    if status != DONE:
        _list(lists, n_listed, 0, game, status, w, cards, tricks)
        return
    cuda.atomic.add(sw, w, 1)
    if cards > cap:
        _list(lists, n_listed, 1, game, status, w, cards, tricks)
    else:
        if cards < SHARED_CARDS:
            cuda.atomic.add(sc, cards, 1)
        else:
            cuda.atomic.add(hist_c, cards, uint64(1))
        if tricks < SHARED_TRICKS:
            cuda.atomic.add(st, tricks, 1)
        else:
            cuda.atomic.add(hist_t, tricks, uint64(1))
    if cards >= bar:
        _list(lists, n_listed, 2, game, status, w, cards, tricks)


@cuda.jit(device=True, inline=True)
def _end_block(n, sc, st, sw, hist_c, hist_t, wins):
    """Add the block's counts to the grid's."""
    cuda.syncthreads()
    tid = cuda.threadIdx.x
    for k in range(tid, SHARED_CARDS, cuda.blockDim.x):
        if sc[k]:
            cuda.atomic.add(hist_c, k, uint64(sc[k]))
    for k in range(tid, SHARED_TRICKS, cuda.blockDim.x):
        if st[k]:
            cuda.atomic.add(hist_t, k, uint64(st[k]))
    if tid < n and sw[tid]:
        cuda.atomic.add(wins, tid, uint64(sw[tid]))


def _summary_two(kind, n):
    play = _two_game(kind)

    @cuda.jit
    def summary(deck, prm, seed, lo, count, cap, bar, hist_c, hist_t, wins, lists, n_listed):
        sc = cuda.shared.array(SHARED_CARDS, int32)
        st = cuda.shared.array(SHARED_TRICKS, int32)
        sw = cuda.shared.array(6, int32)
        _start_block(sc, st, sw)
        deck, prm, hist_c, hist_t, wins = _plain(deck), _plain(prm), _plain(hist_c), _plain(hist_t), _plain(wins)
        lists, n_listed = _plain(lists), _plain(n_listed)
        state = cuda.local.array(4, uint64)
        shuffled = cuda.local.array(MAX_CARDS, np.int8)
        d0 = cuda.local.array(2, uint64)
        d1 = cuda.local.array(2, uint64)
        d2 = cuda.local.array(2, uint64)
        dl = cuda.local.array(2, int64)
        no_seats = cuda.local.array((1, 1, 1), int64)
        i = cuda.grid(1)
        while i < count:
            game = lo + i
            deal_planes(deck, 2, seed, game, state, shuffled, d0, d1, d2, dl, no_seats, 0, False)
            status, cards, tricks, w, _, _, _ = play((d0[0], d1[0], d2[0], dl[0]), (d0[1], d1[1], d2[1], dl[1]),
                                                     prm, state)
            _count(game, status, w, cards, tricks, cap, bar, sc, st, sw, hist_c, hist_t, lists, n_listed)
            i += cuda.gridsize(1)
        _end_block(2, sc, st, sw, hist_c, hist_t, wins)

    return summary


def _summary_multi(kind, n):
    play = _multi_game(kind)

    @cuda.jit
    def summary(deck, prm, seed, lo, count, cap, bar, hist_c, hist_t, wins, lists, n_listed):
        sc = cuda.shared.array(SHARED_CARDS, int32)
        st = cuda.shared.array(SHARED_TRICKS, int32)
        sw = cuda.shared.array(6, int32)
        _start_block(sc, st, sw)
        deck, prm, hist_c, hist_t, wins = _plain(deck), _plain(prm), _plain(hist_c), _plain(hist_t), _plain(wins)
        lists, n_listed = _plain(lists), _plain(n_listed)
        state = cuda.local.array(4, uint64)
        shuffled = cuda.local.array(MAX_CARDS, np.int8)
        d0 = cuda.local.array(SEATS, uint64)[:n]
        d1 = cuda.local.array(SEATS, uint64)[:n]
        d2 = cuda.local.array(SEATS, uint64)[:n]
        dl = cuda.local.array(SEATS, int64)[:n]
        no_seats = cuda.local.array((1, 1, 1), int64)
        t = Table(d0, d1, d2, dl, cuda.local.array(SEATS, np.uint8)[:n], cuda.local.array(RING, int64)[:4 * n],
                  cuda.local.array(SEATS, int64)[:n], cuda.local.array(SEATS, int64)[:n],
                  cuda.local.array(SEATS, int64)[:n], cuda.local.array(SNAP, uint64)[:1 + 4 * n])
        i = cuda.grid(1)
        while i < count:
            game = lo + i
            deal_planes(deck, n, seed, game, state, shuffled, d0, d1, d2, dl, no_seats, 0, False)
            status, cards, tricks, w = play(t, prm, state)
            _count(game, status, w, cards, tricks, cap, bar, sc, st, sw, hist_c, hist_t, lists, n_listed)
            i += cuda.gridsize(1)
        _end_block(n, sc, st, sw, hist_c, hist_t, wins)

    return summary


@cuda.jit(device=True, inline=True)
def _list(lists, n_listed, which, game, status, w, cards, tricks):
    """Append a game to list ``which`` (counted always, kept while there is room)."""
    k = cuda.atomic.add(n_listed, which, 1)
    if k < lists.shape[1]:
        lists[which, k, 0] = game
        lists[which, k, 1] = status
        lists[which, k, 2] = w
        lists[which, k, 3] = cards
        lists[which, k, 4] = tricks


# The pieces other kernels share (`engine.gpu_census`): a kernel's array as the CPU functions take
# it, a block's counts (zeroed, one game added, added to the grid's) and the two-player passes
plain, start_block, count_game, end_block, two_game = _plain, _start_block, _count, _end_block, _two_game
