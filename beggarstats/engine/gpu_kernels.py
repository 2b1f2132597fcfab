"""The fast passes on an NVIDIA GPU: the CPU's own functions, compiled by numba's CUDA target.

Nothing here plays a card. A kernel gives each thread a game at a time and calls, unchanged, the
functions the CPU batch loops call (`engine/batch.py`): `hands_bits.deal_planes` (the deal, from
the game's own stream), the step of `passes` (`passes.setup` once, then `play_pair` / `play_table`,
calling `kernel_two.play_two` or `kernel_multi.play_multi`, which ask every rule of `rulebook.py` and
move cards with `hands_bits.py`), and `passes.two_row` / `multi_row` (the row written). numba compiles a CPU function called from a CUDA kernel for the GPU from the
same Python source, so there is no third copy of any rule. Only the working arrays differ: the
CPU allocates them once a batch (`batch._scratch`), a thread here takes them from its local memory.

Which version of the fast pass a table gets is `engine.fast.fast_pass`'s choice, one of `PASSES` (the
rows of `passes.VERSIONS` the GPU compiles), and its plan is `passes.setup`'s, the CPU's own, so a table
plays exactly the version of `play_two` / `play_multi` it plays on the CPU. A game the pass hands
back (``need``) is replayed on the CPU by the exact driver, as on the CPU.

Two kinds of kernel per pass:

* ``rows``: one row per game in the arrays of `engine.fast.empty_raw` (simulate, compare);
* ``summary``: each block counts its games' lengths in histograms in shared memory and adds them
  to the grid's at the end; the games handed back, the games longer than the histograms' cap and
  the games at least ``bar`` cards long (the candidates for the longest) are listed one by one.

and two ways (``lanes``, `LANES`) to share a launch's games among its threads, which play the same
games to the same results (a game's result depends on its id alone; counts are sums, each listed game
carries its id and the host sorts the lists, a row is written at its game's index):

* ``"refill"`` (the default): the games dealt first, then played one trick a loop step, a lane whose
  game has ended taking its block's next deal (`gpu_refill`, the kernels there);
* ``"fixed"``: thread g plays games g, g + G, g + 2G, ... (G threads in the grid), a whole game at a
  time, as measured on the H200 on 2026-12-04: the kernels here.

This module imports numba's CUDA target (`numba-cuda`), so only `engine.gpu` imports it, and only
when a run asks for ``device="cuda"``.
"""

from __future__ import annotations

import os

import numpy as np

if not hasattr(np, "row_stack"):  # numba-cuda 0.30 registers np.row_stack, which numpy 2.5 removed
    np.row_stack = np.vstack

from numba import cuda, int32, int64, uint64  # noqa: E402

from .numba_inline import install as _one_memo_inliner  # noqa: E402

_one_memo_inliner("cuda")  # the CUDA target's inliner copying a helper once, not once a block (numba_inline.py)

from .constants import DONE, FALLBACK  # noqa: E402
from .hands_bits import MAX_CARDS, deal_planes  # noqa: E402
from .kernel_multi import Table  # noqa: E402
from .passes import VERSIONS, multi_row, setup, steps, two_row  # noqa: E402

__all__ = ["rows_kernel", "summary_kernel", "SHARED_CARDS", "SHARED_TRICKS", "LIST_COLUMNS", "LANES", "SEATS",
           "RING", "SNAP", "PASSES", "plain", "table", "start_block", "count_game", "end_block", "play_dealt"]

# Lengths below these are counted in each block's shared memory first (int32, 10 KiB together)
SHARED_CARDS = 2048
SHARED_TRICKS = 512
SEATS = 6  # the most players a table has (local arrays are cut to the table's)
RING = 24  # 4 * SEATS: `kernel_multi.Table.nxt` (a local array's size must be a literal)
SNAP = 25  # 1 + 4 * SEATS: `kernel_multi.Table.snap`
# the columns of a listed game (the summary kernels' lists): id, status, winner, cards, tricks
LIST_COLUMNS = ("game", "status", "winner", "cards", "tricks")
# How the threads share out a launch's games: 'refill' (one trick a loop step, a finished lane taking
# its block's next deal: `gpu_refill`) or 'fixed' (thread g plays every G-th game from g, a whole game at a
# time: the kernels here); the module's docstring
LANES = ("refill", "fixed")
# the versions of the fast passes the GPU compiles: the rows of `passes.VERSIONS` it calls, the CPU
# batch's (`engine.fast.fast_pass` chooses one for a table, for both)
PASSES = tuple(name for name, v in VERSIONS.items() if "gpu" in v.callers)

if os.environ.get("NUMBA_ENABLE_CUDASIM", "0") == "1":
    def _plain(a):
        """Under numba's CUDA simulator a kernel's array is a wrapper the CPU functions cannot take:
        the numpy array it wraps (the simulated device memory itself)."""
        return getattr(a, "_ary", a)
else:
    @cuda.jit(device=True, inline=True)
    def _plain(a):
        """On a GPU a kernel's array is what the functions it calls take."""
        return a


_kernels: dict = {}


def _play_dealt(kind, n):
    """The device function playing the game dealt into a `kernel_multi.Table` with the plan of the
    version ``kind`` (`passes.setup`): ``play(t, plan, state)``, its `passes.play_pair` on seats 0 and 1
    for two players, its `passes.play_table` for more (`passes.steps`) - the CPU's own step. (Under the simulator the kernels run
    as Python: the plan's records come back from the CPU as plain values, and the CPU compiles the
    pass for them with the options as variables; the games are the same.)"""
    step = steps(kind)
    if n == 2:
        play_pair = step.play_pair

        @cuda.jit(device=True, inline=True)
        def play(t, plan, state):
            return play_pair((t.p0[0], t.p1[0], t.p2[0], t.ln[0]), (t.p0[1], t.p1[1], t.p2[1], t.ln[1]), plan, state)
    else:
        play_table = step.play_table

        @cuda.jit(device=True, inline=True)
        def play(t, plan, state):
            return play_table(t, plan, state)
    return play


def _check(kind, n):
    if kind not in PASSES:
        raise ValueError(f"The value for `kind` must be one of {', '.join(map(repr, PASSES))}, but {kind!r} was "
                         f"passed.")
    if (n == 2) != (VERSIONS[kind].players == 2) or not 2 <= n <= 6:
        raise ValueError(f"The value for `n` must be a number of players the pass {kind!r} plays (2 for the two-player "
                         f"passes, 3 to 6 for the others), but {n} was passed.")


def rows_kernel(kind: str, n: int):
    """The 'fixed' kernel writing one row per game, for the fast pass ``kind`` and ``n`` players:
    ``kernel[blocks, threads](deck, prm, seed, games, out_u32, out_small, seat_out, init_out, per_seat,
    need)``, the arguments of `batch.fast_pass_two`. Row i is ``games[i]``'s."""
    _check(kind, n)
    key = ("rows", kind, n)
    if key not in _kernels:
        _kernels[key] = _rows(kind, n)
    return _kernels[key]


def summary_kernel(kind: str, n: int):
    """The 'fixed' kernel counting games ``lo .. lo + count - 1`` into histograms (see the module's
    docstring): ``kernel[blocks, threads](deck, prm, seed, lo, count, cap, bar, hist_c, hist_t,
    wins, lists, n_listed)``; ``hist_c``, ``hist_t`` uint64[cap + 1], ``wins`` uint64[n]; ``lists``
    int64[3, capacity, 5] (games handed back, games beyond ``cap``, finished games of at least ``bar``
    cards; columns `LIST_COLUMNS`, in no particular order), ``n_listed`` int64[3] (how many each got;
    beyond the capacity they are counted, not kept)."""
    _check(kind, n)
    key = ("summary", kind, n)
    if key not in _kernels:
        _kernels[key] = _summary(kind, n)
    return _kernels[key]


@cuda.jit(device=True, inline=True)
def _table(n):
    """A thread's working arrays for one game of ``n`` players, in its local memory: the random
    stream, the shuffled deck and a `kernel_multi.Table` (`batch._scratch`; the hands are dealt into
    its planes and lengths, all a two-player pass reads). Inlined in numba's IR, so the arrays are the
    kernel's own."""
    return (cuda.local.array(4, uint64), cuda.local.array(MAX_CARDS, np.int8),
            Table(cuda.local.array(SEATS, uint64)[:n], cuda.local.array(SEATS, uint64)[:n],
                  cuda.local.array(SEATS, uint64)[:n], cuda.local.array(SEATS, int64)[:n],
                  cuda.local.array(RING, int64)[:4 * n],
                  cuda.local.array(SEATS, int64)[:n], cuda.local.array(SEATS, int64)[:n],
                  cuda.local.array(SEATS, int64)[:n], cuda.local.array(SNAP, uint64)[:1 + 4 * n]))


def _game(kind, n):
    """(plan, play, row): device functions of the version ``kind`` (`passes.VERSIONS`): its plan of a
    parameter array (`passes.setup`), the game dealt into a `Table` played with it (`_play_dealt`), and
    its row written (``row(res, t, out_u32, out_small, seat_out, i, per_seat, need)``: `passes.two_row` /
    `multi_row`)."""
    if n == 2:
        @cuda.jit(device=True, inline=True)
        def row(res, t, out_u32, out_small, seat_out, i, per_seat, need):
            two_row(res, out_u32, out_small, seat_out, i, per_seat, need)
    else:
        @cuda.jit(device=True, inline=True)
        def row(res, t, out_u32, out_small, seat_out, i, per_seat, need):
            multi_row(res, t, n, out_u32, out_small, seat_out, i, per_seat, need)
    return setup(kind), _play_dealt(kind, n), row


def _rows(kind, n):
    plan_of, play, row = _game(kind, n)

    @cuda.jit
    def rows(deck, prm, seed, games, out_u32, out_small, seat_out, init_out, per_seat, need):
        deck, prm, games = _plain(deck), _plain(prm), _plain(games)
        out_u32, out_small = _plain(out_u32), _plain(out_small)
        seat_out, init_out, need = _plain(seat_out), _plain(init_out), _plain(need)
        state, shuffled, t = _table(n)
        plan = plan_of(prm)
        i = cuda.grid(1)
        while i < games.shape[0]:
            deal_planes(deck, n, seed, games[i], state, shuffled, t.p0, t.p1, t.p2, t.ln, init_out, i, per_seat)
            if plan[0]:
                row(play(t, plan, state), t, out_u32, out_small, seat_out, i, per_seat, need)
            else:  # a table the version was not made for: every game to the exact driver, as on the CPU
                need[i] = 1
            i += cuda.gridsize(1)

    return rows


@cuda.jit(device=True, inline=True)
def _start_block():
    """The block's histograms of cards and tricks and its wins, in shared memory, zeroed (inlined in
    numba's IR: the kernel's own arrays, one line each as numba's simulator needs)."""
    sc = cuda.shared.array(SHARED_CARDS, int32)
    st = cuda.shared.array(SHARED_TRICKS, int32)
    sw = cuda.shared.array(6, int32)
    tid = cuda.threadIdx.x
    for k in range(tid, SHARED_CARDS, cuda.blockDim.x):
        sc[k] = 0
    for k in range(tid, SHARED_TRICKS, cuda.blockDim.x):
        st[k] = 0
    if tid < 6:
        sw[tid] = 0
    cuda.syncthreads()
    return sc, st, sw


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


def _summary(kind, n):
    plan_of, play, _ = _game(kind, n)

    @cuda.jit
    def summary(deck, prm, seed, lo, count, cap, bar, hist_c, hist_t, wins, lists, n_listed):
        sc, st, sw = _start_block()
        deck, prm, hist_c, hist_t, wins = _plain(deck), _plain(prm), _plain(hist_c), _plain(hist_t), _plain(wins)
        lists, n_listed = _plain(lists), _plain(n_listed)
        state, shuffled, t = _table(n)
        no_seats = cuda.local.array((1, 1, 1), int64)
        plan = plan_of(prm)
        i = cuda.grid(1)
        while i < count:
            game = lo + i
            deal_planes(deck, n, seed, game, state, shuffled, t.p0, t.p1, t.p2, t.ln, no_seats, 0, False)
            if plan[0]:
                res = play(t, plan, state)
                _count(game, res.status, res.winner, res.cards, res.tricks, cap, bar, sc, st, sw, hist_c, hist_t,
                       lists, n_listed)
            else:  # every game to the exact driver (`_rows`)
                _count(game, FALLBACK, -1, 0, 0, cap, bar, sc, st, sw, hist_c, hist_t, lists, n_listed)
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
# it, a thread's working arrays, the step playing a dealt game, and a block's counts (zeroed, one game
# added, added to the grid's)
plain, table, play_dealt = _plain, _table, _play_dealt
start_block, count_game, end_block = _start_block, _count, _end_block
