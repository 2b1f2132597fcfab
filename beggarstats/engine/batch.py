"""Batches of games inside numba: deal each game, play it in the fastest tier that can, write its row.

* `fast_pass_two`, `fast_pass_two_empty`, `fast_pass_two_beggar`, `fast_pass_two_rules`,
  `fast_pass_multi`, `fast_pass_multi_rules` (one entry a version of the fast pass, `passes.VERSIONS`),
  then `replay_bits` - decks of at most 64 cards. Every game first goes to a fast pass
  (`kernel_two.play_two` for two players, `kernel_multi.play_multi` for more, through the step of
  `passes`), which plays it as far as it can prove the result; the games it hands back (a loop, a
  cut-off, an unusual start) are dealt again and played by the exact driver (`exact.play_one`) on
  bit-planes, from the same deal and stream, so the figures never depend on which tier ran. Seven
  entries, each compiled only by the first run that needs it (and, by `run.warmup`, side by side in
  separate processes): most tables never need the exact driver, and a table needs one fast pass.
* `play_random_general` - any deck: the exact driver on ring buffers, every game.
* `play_deals_bits` / `play_deals_general` - given deals (the conformance and kernel tests, through
  tests/_kernel_deals.py).
* `play_uneven_bits` - random uneven deals (`uneven.py`: given hand sizes and leader), fast pass
  then the exact driver, in one entry.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import literally, njit

from .deals import deal_into
from .kernel_cache import install as _install_kernel_cache
from .rng import seed_into
from .constants import FALLBACK, INIT_HELD, INIT_ROWS, INIT_TRIBUTE
from .exact import play_one
from .hands_bits import deal_planes, planes_of
from .kernel_multi import new_table
from .options import options_of
from .passes import multi_row, play_pair, play_table, record_win, setup, two_row
from .state import cut_size, new_bits_game, new_ring_game
from .uneven import deal_uneven_planes

__all__ = ["fast_pass_two", "fast_pass_two_rules", "fast_pass_two_empty", "fast_pass_two_beggar", "fast_pass_multi",
           "fast_pass_multi_rules",
           "replay_bits", "play_deals_bits", "play_random_general",
           "play_deals_general", "play_uneven_bits"]

# the working arrays of a bit-plane batch, allocated once per batch
Scratch = namedtuple("Scratch", "shuffled d0 d1 d2 dl state saved snap cut table")

_install_kernel_cache()  # compiled kernels go to the per-user cache (kernel_cache.py)


@njit(nogil=True, cache=True)
def _scratch(N, n):
    z = np.zeros(n, dtype=np.uint64)
    return Scratch(np.zeros(N, dtype=np.int8), z.copy(), z.copy(), z.copy(), np.zeros(n, dtype=np.int64),
                   np.zeros(4, dtype=np.uint64), np.zeros(4, dtype=np.uint64),
                   np.zeros(1 + 4 * n, dtype=np.uint64), np.zeros(cut_size(n), dtype=np.int64), new_table(n))


# The fast-pass entries: one a version of `passes.VERSIONS` (its "batch" rows), each compiling only the
# versions of `play_two` / `play_multi` its row names, so a first run compiles the one its table needs (a
# standard table: one version, not all of them) and `run.warmup` can compile several at once. An entry
# given rules it was not made for hands every game to the exact driver: slower, never wrong.
_two, _two_empty, _two_beggar, _two_rules = (setup(v) for v in ("two", "two_empty", "two_beggar", "two_rules"))
_multi, _multi_rules, _two_any = setup("multi"), setup("multi_rules"), setup("two_any")


@njit(nogil=True, cache=True)
def fast_pass_two(deck, prm, seed, games, out_u32, out_small, seat_out, init_out, per_seat, need):
    """Deal the random two-player games ``games`` of the table ``seed`` exactly as `deals.deal_into`
    and play each in `kernel_two`, writing its row; ``need[i] = 1`` for every game the pass hands
    back, whose row `replay_bits` writes. ``init_out`` int64[n_games, 7, 2]: initial hand size, J, Q,
    K, A, jokers, total tribute (when ``per_seat``). The version 'two' (`passes.VERSIONS`)."""
    _two_pass(deck, seed, games, out_u32, out_small, seat_out, init_out, per_seat, need, _scratch(deck.shape[0], 2),
              _two(prm))


@njit(nogil=True, cache=True)
def fast_pass_two_empty(deck, prm, seed, games, out_u32, out_small, seat_out, init_out, per_seat, need):
    """`fast_pass_two`, the version 'two_empty'."""
    _two_pass(deck, seed, games, out_u32, out_small, seat_out, init_out, per_seat, need, _scratch(deck.shape[0], 2),
              _two_empty(prm))


@njit(nogil=True, cache=True)
def fast_pass_two_beggar(deck, prm, seed, games, out_u32, out_small, seat_out, init_out, per_seat, need):
    """`fast_pass_two`, the version 'two_beggar'."""
    _two_pass(deck, seed, games, out_u32, out_small, seat_out, init_out, per_seat, need, _scratch(deck.shape[0], 2),
              _two_beggar(prm))


@njit(nogil=True, cache=True)
def fast_pass_two_rules(deck, prm, seed, games, out_u32, out_small, seat_out, init_out, per_seat, need):
    """`fast_pass_two`, the version 'two_rules': every other two-player table."""
    _two_pass(deck, seed, games, out_u32, out_small, seat_out, init_out, per_seat, need, _scratch(deck.shape[0], 2),
              _two_rules(prm))


@njit(nogil=True, cache=True)
def fast_pass_multi(deck, n, prm, seed, games, out_u32, out_small, seat_out, init_out, per_seat, need):
    """The same as `fast_pass_two` for ``n`` >= 3 players, in `kernel_multi`: the version 'multi'."""
    _multi_pass(deck, n, seed, games, out_u32, out_small, seat_out, init_out, per_seat, need,
                _scratch(deck.shape[0], n), _multi(prm))


@njit(nogil=True, cache=True)
def fast_pass_multi_rules(deck, n, prm, seed, games, out_u32, out_small, seat_out, init_out, per_seat, need):
    """`fast_pass_multi`, the version 'multi_rules': every other table of 3 or more players."""
    _multi_pass(deck, n, seed, games, out_u32, out_small, seat_out, init_out, per_seat, need,
                _scratch(deck.shape[0], n), _multi_rules(prm))


@njit(nogil=True, cache=True)
def replay_bits(deck, n, prm, seed, games, rows, out_u32, out_small, seat_out, init_out, per_seat):
    """Deal again the games ``games[rows]`` and play them with the exact driver on bit-planes
    (rows a fast pass handed back: a loop, a cut-off, an unusual start). A separate entry, so
    that it is compiled only when a run first needs it: most tables never do."""
    x = _scratch(deck.shape[0], n)
    _replay_bits(deck, n, prm, seed, games, rows, out_u32, out_small, seat_out, init_out, per_seat,
                 new_bits_game(n), new_bits_game(n), x)


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def _dealt_table(x, n):
    """The multi-player pass's table of scratch ``x`` holding the hands just dealt into its planes."""
    t = x.table
    for s in range(n):
        t.p0[s] = x.d0[s]
        t.p1[s] = x.d1[s]
        t.p2[s] = x.d2[s]
        t.ln[s] = x.dl[s]
    return t


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def _dealt_pair(deck, seed, game, x, init_out, i, per_seat):
    """Deal two-player game ``game`` into scratch ``x``: the hands (planes, length) of seats 0 and 1."""
    deal_planes(deck, 2, seed, game, x.state, x.shuffled, x.d0, x.d1, x.d2, x.dl, init_out, i, per_seat)
    return (x.d0[0], x.d1[0], x.d2[0], x.dl[0]), (x.d0[1], x.d1[1], x.d2[1], x.dl[1])


@njit(nogil=True, cache=True, _nrt=False)
def _two_pass(deck, seed, games, out_u32, out_small, seat_out, init_out, per_seat, need, x, plan):
    """Every game through `kernel_two` with the version whose ``plan`` it is given (`passes.setup`):
    each version compiles a pass of its own, the options of its constants folded into play_two (a few
    per cent on the most common table, about a seventh on ``end='empty'`` and Beggar jokers against
    the options as variables; passed as plain values they cost the standard table a quarter of its
    speed: benchmarks/README.md). ``need[i] = 1`` for the games it hands back."""
    if not plan[0]:
        need[:] = 1
        return
    for i in range(games.shape[0]):
        a, b = _dealt_pair(deck, seed, games[i], x, init_out, i, per_seat)
        two_row(play_pair(a, b, plan, x.state), out_u32, out_small, seat_out, i, per_seat, need)


@njit(nogil=True, cache=True, _nrt=False)
def _multi_pass(deck, n, seed, games, out_u32, out_small, seat_out, init_out, per_seat, need, x, plan):
    """Every game through `kernel_multi` with the version whose ``plan`` it is given (`passes.setup`);
    ``need[i] = 1`` for the games it hands back."""
    if not plan[0]:
        need[:] = 1
        return
    for i in range(games.shape[0]):
        deal_planes(deck, n, seed, games[i], x.state, x.shuffled, x.d0, x.d1, x.d2, x.dl, init_out, i, per_seat)
        t = _dealt_table(x, n)
        res = play_table(t, plan, x.state)
        multi_row(res, t, n, out_u32, out_small, seat_out, i, per_seat, need)


@njit(nogil=True, cache=True, _nrt=False)
def _replay_bits(deck, n, prm, seed, games, rows, out_u32, out_small, seat_out, init_out, per_seat, G, GB, x):
    # compiled without reference counting: every array is allocated by the caller
    o = options_of(prm)
    for r in range(rows.shape[0]):
        i = rows[r]
        deal_planes(deck, n, seed, games[i], x.state, x.shuffled, x.d0, x.d1, x.d2, x.dl, init_out, i, per_seat)
        play_one((x.d0, x.d1, x.d2, x.dl), x.state, o, G, GB, x.snap, x.cut, x.saved, i, out_u32, out_small,
                 seat_out, per_seat)


@njit(nogil=True, cache=True)
def play_deals_bits(dh, dl, streams, prm, out_u32, out_small, seat_out):
    """Play given deals on bit-planes: ``dh`` int8[m, n, W], ``dl`` int64[m, n], ``streams`` uint64[m, 4]."""
    m = dh.shape[0]
    n = dh.shape[1]
    d0 = np.zeros(n, dtype=np.uint64)
    d1 = np.zeros(n, dtype=np.uint64)
    d2 = np.zeros(n, dtype=np.uint64)
    saved = np.zeros(4, dtype=np.uint64)
    G = new_bits_game(n)
    GB = new_bits_game(n)
    snap = np.zeros(1 + 4 * n, dtype=np.uint64)
    cut = np.zeros(cut_size(n), dtype=np.int64)
    o = options_of(prm)
    for i in range(m):
        planes_of(dh[i], dl[i], d0, d1, d2)
        play_one((d0, d1, d2, dl[i]), streams[i], o, G, GB, snap, cut, saved, i, out_u32, out_small, seat_out,
                 True)


@njit(nogil=True, cache=True)
def play_random_general(deck, n, prm, seed, games, out_u32, out_small, seat_out, init_out):
    """Play the random games ``games`` of the table ``seed`` on ring buffers (any deck)."""
    N = deck.shape[0]
    W = (N + n - 1) // n
    dh = np.zeros((n, W), dtype=np.int8)
    dl = np.zeros(n, dtype=np.int64)
    state = np.zeros(4, dtype=np.uint64)
    saved = np.zeros(4, dtype=np.uint64)
    G = new_ring_game(n, N)
    GB = new_ring_game(n, N)
    snap = np.zeros(1 + 2 * n + N, dtype=np.int64)
    cut = np.zeros(cut_size(n), dtype=np.int64)
    o = options_of(prm)
    for i in range(games.shape[0]):
        seed_into(state, np.uint64(seed), np.uint64(games[i]))
        deal_into(state, deck, n, dh, dl)
        for s in range(n):
            for k in range(INIT_ROWS):
                init_out[i, k, s] = 0
            for k in range(dl[s]):  # no branch per card: number cards count in slot 0, then overwritten
                c = dh[s, k]
                init_out[i, c, s] += 1
                init_out[i, INIT_TRIBUTE, s] += c
            init_out[i, INIT_HELD, s] = dl[s]
        play_one((dh, dl), state, o, G, GB, snap, cut, saved, i, out_u32, out_small, seat_out, True)


@njit(nogil=True, cache=True)
def play_deals_general(dh, dl, streams, prm, out_u32, out_small, seat_out):
    """Play given deals on ring buffers: ``dh`` int8[m, n, W], ``dl`` int64[m, n], ``streams`` uint64[m, 4]."""
    m = dh.shape[0]
    n = dh.shape[1]
    N = 0
    for s in range(n):
        N += dl[0, s]
    saved = np.zeros(4, dtype=np.uint64)
    G = new_ring_game(n, N)
    GB = new_ring_game(n, N)
    snap = np.zeros(1 + 2 * n + N, dtype=np.int64)
    cut = np.zeros(cut_size(n), dtype=np.int64)
    o = options_of(prm)
    for i in range(m):
        play_one((dh[i], dl[i]), streams[i], o, G, GB, snap, cut, saved, i, out_u32, out_small, seat_out, True)


@njit(nogil=True, cache=True)
def play_uneven_bits(deck, n, prm, seed, games, sizes, leader, out_u32, out_small, seat_out):
    """Play the random uneven games ``games`` of the table ``seed`` (``sizes[s]`` cards to seat s,
    seat ``leader`` to lead: `uneven.deal_uneven_planes`, rotated so the leader is seat 0 of the
    rows): each through the fast pass of its table size, the games it hands back dealt again and
    played by the exact driver. Winners are play seats (the caller rotates them back)."""
    x = _scratch(deck.shape[0], n)
    G = new_bits_game(n)
    GB = new_bits_game(n)
    o = options_of(prm)
    pair = _two_any(prm)  # the versions of `passes.VERSIONS` the uneven deals compile
    table = _multi_rules(prm)
    for i in range(games.shape[0]):
        deal_uneven_planes(deck, sizes, leader, seed, games[i], x.state, x.shuffled, x.d0, x.d1, x.d2, x.dl)
        if n == 2:
            a = (x.d0[0], x.d1[0], x.d2[0], x.dl[0])
            b = (x.d0[1], x.d1[1], x.d2[1], x.dl[1])
            st, cards, tricks, w, _, _, _ = play_pair(a, b, pair, x.state)
        else:
            st, cards, tricks, w = play_table(_dealt_table(x, n), table, x.state)
        if st != FALLBACK:
            record_win(out_u32, out_small, i, cards, tricks, w)
            continue
        deal_uneven_planes(deck, sizes, leader, seed, games[i], x.state, x.shuffled, x.d0, x.d1, x.d2, x.dl)
        play_one((x.d0, x.d1, x.d2, x.dl), x.state, o, G, GB, x.snap, x.cut, x.saved, i, out_u32, out_small,
                 seat_out, False)
