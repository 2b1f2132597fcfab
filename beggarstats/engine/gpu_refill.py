"""The GPU's refill kernels: every deal made first, then one trick a loop step, a finished lane refilled.

A thread that plays a whole game before its next leaves the other 31 lanes of its warp waiting for the
warp's longest game: in 2^20 standard two-player games a warp's mean game is 28.6% of its longest, so
about 29% of the lanes work. Here a lane plays one trick a loop step - `passes.trick_pair` /
`trick_table`, the step the CPU's passes loop over (`kernel_two.trick_two`, `kernel_multi.trick_multi`)
- and a lane whose game has ended takes its block's next deal (a counter in shared memory) at the
next step, so the lanes of a warp stay busy until the block's deals run out.

The deals are made first, by a kernel of their own (`deal_kernel` for random games,
`gpu_census.deal_kernel` for a census), into a buffer: the planes of every hand and the stream after the deal, ``3n + 4``
words a game (80 bytes for two players). Chosen by design, since it could not be measured without a
GPU: a deal costs about 1,700 instructions, 8 tricks' worth, so a lane dealing on refill would hold
its whole warp for 8 trick steps; with a game ending every 35 tricks in a warp of 32 lanes, most steps
would have a lane refilling (1 - (34/35)^32 = 0.60) and a step would cost about 5.8 tricks instead
of one. Dealt first, every lane deals at once (the same work, no divergence), and a refill is a load
of a few words. The deal is the CPU's (`hands_bits.deal_planes`, the census's `rank.unrank_into`,
`census_kernel.next_sequence` and `sequence_planes`), so the games are the CPU's.

A game of three or more players runs `trick_table` steps until two seats are left, then `trick_pair`
steps on those two (`kernel_multi.two_left_hands`, `passes.two_left_options`), and its row is
`kernel_multi.two_left_result`'s: the path `kernel_multi._play` takes on the CPU. Its table (the
hands, the ring of seats, the per-seat figures, the snapshot) is tuples, which the pass reads and writes
by selects (`seats`), so that it stays in registers as a two-player game does: a thread's array indexed
by data would be in its local memory.

Imports numba's CUDA target: only `engine.gpu` imports this module, when a run asks for
``device="cuda"``.
"""

from __future__ import annotations

import os

import numpy as np

from .gpu_kernels import count_game, end_block, plain, start_block, table  # first: it mends numpy
from numba import cuda, int64, njit, uint64  # noqa: E402

from .constants import FALLBACK, GOING, TWO_LEFT  # noqa: E402
from .gpu_kernels import SEATS  # noqa: E402
from .hands_bits import deal_planes  # noqa: E402
from .kernel_multi import MultiResult, Table, start_multi, two_left_hands, two_left_result  # noqa: E402
from .kernel_two import TwoGame, TwoResult, start_two, trick_two  # noqa: E402
from .seats import Nibbles, Octets, filled, packed_words, with_seat  # noqa: E402
from .passes import VERSIONS, multi_row, setup, steps, trick_table, two_left_options, two_row  # noqa: E402

__all__ = ["deal_kernel", "refill_rows_kernel", "refill_summary_kernel", "deal_words", "store_deal", "KINDS"]

# the versions a refill kernel plays: the GPU's passes and the census's (`passes.VERSIONS`)
KINDS = tuple(name for name, v in VERSIONS.items() if "gpu" in v.callers or "census" in v.callers)
_kernels: dict = {}

# A multi-player lane's table (`kernel_multi.Table`) in registers: each field a tuple of its element type, or
# packed (`seats.Nibbles`, `seats.Octets`: a register holds one tuple element whatever its width) - the ring of
# seats (4n entries below 16) in 4-bit entries, the lengths, a seat's minimum and its place in 8-bit ones (at
# most 64); the planes, the cards a seat went out at and the snapshot as the CPU's
_TABLE_TYPES = (np.uint64, np.uint64, np.uint64, Octets, Nibbles, Octets, np.int64, Octets, np.uint64)


def _table_sizes(n):
    """The tuples' lengths of a lane's table of ``n`` seats (a packed field: its words)."""
    return tuple(packed_words(ty, 4 * n if f == "nxt" else n) if ty in (Nibbles, Octets) else 1 + 4 * n if f == "snap"
                 else n for ty, f in zip(_TABLE_TYPES, Table._fields))


if os.environ.get("NUMBA_ENABLE_CUDASIM", "0") == "1":
    _WORDS = {f"{h}{b}" for h in ("lead", "other", "tort", "tort_other") for b in range(3)}  # planes: uint64

    def _kept(g):
        """Under the simulator a lane's state comes back from the CPU as Python ints, which numba would
        type by their values (int64 or uint64, a new compile each way): the state with its own types."""
        return TwoGame(*(np.uint64(v) if f in _WORDS else np.int64(v) for f, v in zip(TwoGame._fields, g)))

    def _kept_table(t):
        """A lane's table, each tuple's elements with their own types (`_kept`)."""
        return Table(*(ty(tuple(np.uint64(v) for v in f.words)) if ty in (Nibbles, Octets) else tuple(ty(v) for v in f)
                       for ty, f in zip(_TABLE_TYPES, t)))

    def _blank_table(n):
        """The function making a lane's table of ``n`` seats, zero (`_TABLE_TYPES`)."""
        def blank():
            return Table(*(ty((np.uint64(0),) * k) if ty in (Nibbles, Octets) else (ty(0),) * k
                           for ty, k in zip(_TABLE_TYPES, _table_sizes(n))))

        return blank

else:
    @cuda.jit(device=True, inline=True)
    def _kept(g):
        """On a GPU the state stays in registers as it is."""
        return g

    @cuda.jit(device=True, inline=True)
    def _kept_table(t):
        """On a GPU the table stays in registers as it is."""
        return t

    def _blank_table(n):
        """The device function making a lane's table of ``n`` seats, zero: tuples (`seats.filled`), which
        the pass reads and writes by selects, so that they stay in registers (issue #54 item 2)."""
        by_seat, ring, snap = packed_words(Octets, n), packed_words(Nibbles, 4 * n), 1 + 4 * n

        @cuda.jit(device=True, inline=True)
        def blank():
            z = uint64(0)
            return Table(filled(n, z), filled(n, z), filled(n, z), Octets(filled(by_seat, z)), Nibbles(filled(ring, z)),
                         Octets(filled(by_seat, z)), filled(n, int64(0)), Octets(filled(by_seat, z)), filled(snap, z))

        return blank


def deal_words(n: int) -> int:
    """Words of the deal buffer a game of ``n`` players takes: three planes a hand, the stream."""
    return 3 * n + 4


def _cached(key, make):
    if key not in _kernels:
        _kernels[key] = make()
    return _kernels[key]


def deal_kernel(n: int):
    """The kernel dealing games into the buffer: ``kernel[blocks, threads](deck, seed, games, lo, count,
    dp, init_out, per_seat)`` deals game ``games[i]`` (or, ``games`` empty, ``lo + i``) for i < count into
    column i of ``dp`` uint64[`deal_words`(n), count] exactly as `hands_bits.deal_planes` does (row
    ``b * n + s``: plane b of seat s; rows ``3n ..``: the stream after the deal), the per-seat counts of
    the hands into ``init_out[i]`` with ``per_seat``."""
    return _cached(("deal", n), lambda: _deal(n))


def _check(kind, n):
    if kind not in KINDS:
        raise ValueError(f"The value for `kind` must be one of {', '.join(map(repr, KINDS))}, but {kind!r} was "
                         f"passed.")
    if (n == 2) != (VERSIONS[kind].players == 2) or not 2 <= n <= SEATS:
        raise ValueError(f"The value for `n` must be a number of players the pass {kind!r} plays (2 for the two-player "
                         f"passes, 3 to 6 for the others), but {n} was passed.")


def refill_rows_kernel(kind: str, n: int):
    """The refill kernel writing one row per game: ``kernel[blocks, threads](dp, sizes, prm, count,
    out_u32, out_small, seat_out, per_seat, need)``, the games dealt into ``dp`` (`deal_kernel`),
    ``sizes`` int64[n] their hands' lengths; the rows as `batch.fast_pass_two` writes them."""
    _check(kind, n)
    return _cached(("rows", kind, n), lambda: _refill(kind, n, True))


def refill_summary_kernel(kind: str, n: int):
    """The refill kernel counting games into histograms: ``kernel[blocks, threads](dp, sizes, prm, lo,
    count, cap, bar, hist_c, hist_t, wins, lists, n_listed)``, the game in column i of ``dp`` counted
    as game (or rank) ``lo + i``; the rest as `gpu_kernels.summary_kernel`."""
    _check(kind, n)
    return _cached(("summary", kind, n), lambda: _refill(kind, n, False))


def _deal(n):
    @cuda.jit
    def deal(deck, seed, games, lo, count, dp, init_out, per_seat):
        deck, games, dp, init_out = plain(deck), plain(games), plain(dp), plain(init_out)
        state, shuffled, t = table(n)
        given = games.shape[0] > 0
        i = cuda.grid(1)
        while i < count:
            game = games[i] if given else lo + i
            deal_planes(deck, n, seed, game, state, shuffled, t.p0, t.p1, t.p2, t.ln, init_out, i, per_seat)
            store_deal(dp, i, n, t, state)
            i += cuda.gridsize(1)

    return deal


@cuda.jit(device=True, inline=True)
def store_deal(dp, i, n, t, state):
    """Column ``i`` of the deal buffer (`deal_kernel`): the planes of the hands dealt into ``t``, then the
    stream."""
    for s in range(n):
        dp[s, i] = t.p0[s]
        dp[n + s, i] = t.p1[s]
        dp[2 * n + s, i] = t.p2[s]
    for k in range(4):
        dp[3 * n + k, i] = state[k]


@cuda.jit(device=True, inline=True)
def _stream(dp, k, n, state):
    """The stream after deal ``k`` (the pile shuffles draw from it)."""
    for w in range(4):
        state[w] = dp[3 * n + w, k]


@cuda.jit(device=True, inline=True)
def _pair(dp, k, sizes):
    """The two hands of deal ``k``, as `kernel_two.start_two` takes them."""
    return (dp[0, k], dp[2, k], dp[4, k], sizes[0]), (dp[1, k], dp[3, k], dp[5, k], sizes[1])


@cuda.jit(device=True, inline=True)
def _block_deals(count):
    """This block's deals ``first .. end - 1`` of ``count``: contiguous, as even as the blocks allow."""
    per = (count + cuda.gridDim.x - 1) // cuda.gridDim.x
    first = min(cuda.blockIdx.x * per, count)
    return first, min(first + per, count)


def _rows_end(n):
    """The last of a game: its row (`passes.two_row` / `multi_row`)."""
    if n == 2:
        @cuda.jit(device=True, inline=True)
        def end(res, t, i, ends, lo):
            out_u32, out_small, seat_out, per_seat, need = ends
            two_row(res, out_u32, out_small, seat_out, i, per_seat, need)
    else:
        @cuda.jit(device=True, inline=True)
        def end(res, t, i, ends, lo):
            out_u32, out_small, seat_out, per_seat, need = ends
            multi_row(res, t, n, out_u32, out_small, seat_out, i, per_seat, need)
    return end


def _summary_end(n):
    """The last of a game: counted in its block's histograms, or listed (`gpu_kernels.count_game`)."""
    @cuda.jit(device=True, inline=True)
    def end(res, t, i, ends, lo):
        cap, bar, sc, st, sw, hist_c, hist_t, lists, n_listed = ends
        count_game(lo + i, res.status, res.winner, res.cards, res.tricks, cap, bar, sc, st, sw, hist_c, hist_t, lists,
                   n_listed)
    return end


def _refill(kind, n, rows):
    plan_of = setup(kind)
    end = _rows_end(n) if rows else _summary_end(n)
    lanes = _lanes_two(plan_of, steps(kind).trick_pair, end) if n == 2 else _lanes_multi(plan_of, n, end)
    if rows:
        @cuda.jit
        def refill_rows(dp, sizes, prm, count, out_u32, out_small, seat_out, per_seat, need):
            dp, sizes, prm = plain(dp), plain(sizes), plain(prm)
            lanes(dp, sizes, prm, 0, count, (plain(out_u32), plain(out_small), plain(seat_out), per_seat, plain(need)))

        return refill_rows

    @cuda.jit
    def refill_summary(dp, sizes, prm, lo, count, cap, bar, hist_c, hist_t, wins, lists, n_listed):
        sc, st, sw = start_block()
        dp, sizes, prm, hist_c, hist_t = plain(dp), plain(sizes), plain(prm), plain(hist_c), plain(hist_t)
        wins, lists, n_listed = plain(wins), plain(lists), plain(n_listed)
        lanes(dp, sizes, prm, lo, count, (cap, bar, sc, st, sw, hist_c, hist_t, lists, n_listed))
        end_block(n, sc, st, sw, hist_c, hist_t, wins)

    return refill_summary


def _lanes_two(plan_of, trick_pair, end):
    """The lanes of a block playing its two-player deals one trick a step (the module's docstring), with
    the version's `passes.trick_pair` (`passes.steps`)."""
    @cuda.jit(device=True, inline=True)
    def lanes(dp, sizes, prm, lo, count, ends):
        plan = plan_of(prm)
        state = cuda.local.array(4, uint64)  # the stream: constant indices only, kept in registers
        nxt = cuda.shared.array(1, int64)
        first, last = _block_deals(count)
        if cuda.threadIdx.x == 0:
            nxt[0] = first
        cuda.syncthreads()
        i = cuda.atomic.add(nxt, 0, int64(1))
        k = i if i < last else 0  # (past the block's deals: any deal, never played)
        a, b = _pair(dp, k, sizes)
        _stream(dp, k, 2, state)
        res, g = start_two(a, b)
        g = _kept(g)
        if not plan[0]:  # a table the version was not made for: every game to the exact driver
            res = TwoResult(FALLBACK, 0, 0, -1, 0, 0, 0)
        while i < last:
            if res.status == GOING:
                res, g = trick_pair(g, plan, state)
                g = _kept(g)
            if res.status != GOING:
                end(res, g, i, ends, lo)
                i = cuda.atomic.add(nxt, 0, int64(1))
                k = i if i < last else 0
                a, b = _pair(dp, k, sizes)
                _stream(dp, k, 2, state)
                res, g = start_two(a, b)
                g = _kept(g)
                if not plan[0]:
                    res = TwoResult(FALLBACK, 0, 0, -1, 0, 0, 0)

    return lanes


@njit(nogil=True, _nrt=False, inline="always")
def _with_hands(t, planes, k, sizes):
    """The table ``t`` with the hands of column ``k`` of ``planes`` (row ``b * n + s``: plane b of seat s,
    as `deal_kernel` writes them) and their lengths ``sizes``: the deal `start_multi` takes."""
    p0, p1, p2, ln = t.p0, t.p1, t.p2, t.ln
    n = len(p0)  # (the planes: a tuple or an array a seat, where a packed container is not)
    for s in range(n):
        u = np.uint64(s)
        p0 = with_seat(p0, u, planes[s, k])
        p1 = with_seat(p1, u, planes[n + s, k])
        p2 = with_seat(p2, u, planes[2 * n + s, k])
        ln = with_seat(ln, u, sizes[s])
    return Table(p0, p1, p2, ln, t.nxt, t.min_cards, t.out_cards, t.place, t.snap)


def _lanes_multi(plan_of, n, end):
    """The lanes of a block playing its deals of ``n`` >= 3 players one trick a step: `trick_table`
    until two seats are left, then `trick_pair` on them (the module's docstring). The table is tuples
    (`_blank_table`), in registers."""
    blank = _blank_table(n)

    @cuda.jit(device=True, inline=True)
    def lanes(dp, sizes, prm, lo, count, ends):
        plan = plan_of(prm)
        state = cuda.local.array(4, uint64)  # the stream: constant indices only, kept in registers
        nxt = cuda.shared.array(1, int64)
        first, last = _block_deals(count)
        if cuda.threadIdx.x == 0:
            nxt[0] = first
        cuda.syncthreads()
        step = plan[2].step
        i = cuda.atomic.add(nxt, 0, int64(1))
        k = i if i < last else 0
        t = _kept_table(_with_hands(blank(), dp, k, sizes))
        _stream(dp, k, n, state)
        res, g, t = start_multi(t, step)
        t = _kept_table(t)
        if not plan[0]:
            res = MultiResult(FALLBACK, 0, 0, -1)
        a, _ = two_left_hands(t, 0)
        two, g2 = start_two(a, a)  # (typed here; set when two seats are left)
        g2 = _kept(g2)
        seat = 0  # the leader of the two seats left
        paired = False
        while i < last:
            if paired:
                # the options of the two-player finish, made again each step from the state of the game when
                # two seats were left (unchanged until it ends), not kept: registers, not a record of them
                two, g2 = trick_two(g2, two_left_options(plan, g.cards), state)
                g2 = _kept(g2)
                if two.status != GOING:
                    res, t = two_left_result(two, seat, t, g.left, g.cards, g.tricks)
                    t = _kept_table(t)
                    paired = False
            elif res.status == GOING:
                res, g, t = trick_table(t, g, plan, state)
                t = _kept_table(t)
                if res.status == TWO_LEFT:
                    seat = res.winner
                    a, b = two_left_hands(t, seat)
                    two, g2 = start_two(a, b)  # (both hold cards: going)
                    g2 = _kept(g2)
                    paired = True
            if not paired and res.status != GOING and res.status != TWO_LEFT:
                end(res, t, i, ends, lo)
                i = cuda.atomic.add(nxt, 0, int64(1))
                k = i if i < last else 0
                t = _kept_table(_with_hands(t, dp, k, sizes))
                _stream(dp, k, n, state)
                res, g, t = start_multi(t, step)
                t = _kept_table(t)
                if not plan[0]:
                    res = MultiResult(FALLBACK, 0, 0, -1)

    return lanes
