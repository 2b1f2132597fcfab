"""The backward search of `engine.backward` compiled: a long game's trick-boundary states and the
states before them, run back depth first, at machine speed.

`extend_deal` does for one deal what `run.search` did in Python with `backward.main_path` and
`backward.predecessors`: it plays the deal forward to its trick-boundary states (while every player
holds cards), then from each boundary in turn (the deal first) runs the tricks back depth first,
the predecessors of a state in the order `backward.predecessors` lists them, the deal's own path
left out (it is searched from the boundary before), for up to ``nodes`` states in all. Every state
met whose hands have the round deal's sizes, seats turned to put its leader at seat 0, is a deal
that runs into the long game; the longest of them is returned. Same states, same order, same count
as the Python search (tests/run/test_search.py compares them).

One fact makes the kernel short: a trick ends at the first face card followed by as many number
cards as it asks, whoever plays them, so a pile that ends a trick early does so for every longer
pile too, and the run over pile lengths stops there.

A state is ``hands`` (players x cards, int8 tributes, top card first) with ``lens`` (cards held).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .kernel_cache import install as _install_kernel_cache

__all__ = ["extend_deal_hands", "extend_deal", "predecessor_list", "OUT_FIELDS", "STACK"]

_install_kernel_cache()  # compiled kernels go to the per-user cache (kernel_cache.py)

STACK = 1 << 17  # states waiting on the depth-first stack at most
OUT_FIELDS = ("cards", "boundary", "depth", "back", "states", "found", "overflow", "boundaries")


@njit(nogil=True, cache=True)
def _step(h, ln, leader, n, d, out_h, out_ln, played):
    """One trick from (h, ln, leader) into (out_h, out_ln); returns (taker, cards) or (-1, 0) if a
    player must play and has no card."""
    pos = np.zeros(n, np.int64)
    npile = 0
    turn, owed, claimant = leader, 0, -1
    while True:
        if pos[turn] >= ln[turn]:
            return -1, 0
        c = h[turn, pos[turn]]
        pos[turn] += 1
        played[npile] = c
        npile += 1
        if c > 0:
            claimant, owed, turn = turn, c, (turn + d) % n
        elif owed > 0:
            owed -= 1
            if owed == 0:
                for s in range(n):
                    m = ln[s] - pos[s]
                    for i in range(m):
                        out_h[s, i] = h[s, pos[s] + i]
                    out_ln[s] = m
                for i in range(npile):
                    out_h[claimant, out_ln[claimant] + i] = played[i]
                out_ln[claimant] += npile
                return claimant, npile
        else:
            turn = (turn + d) % n


@njit(nogil=True, cache=True)
def _preds(h, ln, taker, n, d, keep_taker, pk, pf):
    """The predecessors of (h, ln, taker) as (pile length, first player) pairs into pk, pf, in the
    order of `backward.predecessors`; returns how many."""
    m = ln[taker]
    count = 0
    if m < 2 or h[taker, m - 1] != 0:
        return 0
    top = m - (1 if keep_taker else 0)
    for k in range(2, top + 1):
        base = m - k
        early = False
        for first in range(n):
            turn, owed, claimant, ok = first, 0, -1, False
            for i in range(k):
                c = h[taker, base + i]
                if c > 0:
                    claimant, owed, turn = turn, c, (turn + d) % n
                elif owed > 0:
                    owed -= 1
                    if owed == 0:
                        if i == k - 1:
                            ok = claimant == taker
                        else:
                            early = True
                        break
                else:
                    turn = (turn + d) % n
            if early:
                break  # the trick ends before the pile does, whoever leads, for every longer pile too
            if ok:
                pk[count] = k
                pf[count] = first
                count += 1
        if early:
            break
    return count


@njit(nogil=True, cache=True)
def _unplay(h, ln, taker, n, d, k, first, out_h, out_ln, played_by):
    """The state before (h, ln) whose trick of the last ``k`` cards of the taker's hand was led by
    ``first``: each player's cards of that pile back on top of their hand."""
    m = ln[taker]
    base = m - k
    cnt = np.zeros(n, np.int64)
    turn, owed = first, 0
    for i in range(k):
        c = h[taker, base + i]
        played_by[i] = turn
        cnt[turn] += 1
        if c > 0:
            owed, turn = c, (turn + d) % n
        elif owed > 0:
            owed -= 1
        else:
            turn = (turn + d) % n
    for s in range(n):
        keep = base if s == taker else ln[s]
        for i in range(keep):
            out_h[s, cnt[s] + i] = h[s, i]
        out_ln[s] = cnt[s] + keep
    fill = np.zeros(n, np.int64)
    for i in range(k):
        s = played_by[i]
        out_h[s, fill[s]] = h[taker, base + i]
        fill[s] += 1


@njit(nogil=True, cache=True)
def _is_deal(ln, leader, n, sizes):
    for s in range(n):
        if ln[(leader + s) % n] != sizes[s]:
            return False
    return True


@njit(nogil=True, cache=True)
def extend_deal(deal_h, deal_ln, ccw, keep_taker, sizes, cards, nodes, max_boundaries, best_h, best_ln, out):
    """Run a deal's trick-boundary states back, depth first, for up to ``nodes`` states.

    Parameters
    ----------
    deal_h, deal_ln : int8 (players, deck), int64 (players)
        The deal (seat 0 leads).
    ccw, keep_taker : bool
        Counter-clockwise play; ``end='empty'`` (a trick must leave its taker a card of their own).
    sizes : int64 (players)
        The round deal's hand sizes.
    cards : int
        The deal's length (its game is finished): a state ``at`` cards into it has ``cards - at``
        left, and one found ``back`` cards before it lasts ``cards - at + back``.
    nodes : int
        States examined at most (each boundary counts one, as in the Python search).
    max_boundaries : int
        Room for the trick-boundary states (more than the game's tricks).
    best_h, best_ln : out
        The longest deal found (seats turned, its leader at seat 0), if one beats ``cards``.
    out : int64 (8,) out
        `OUT_FIELDS`: its length (``cards`` if none better), the boundary, tricks and cards back
        it was found at, states examined, found (0/1), overflow (1 if the stack filled: the
        search stopped there), boundaries of the game.
    """
    n = deal_h.shape[0]
    width = deal_h.shape[1]
    d = n - 1 if ccw else 1
    played = np.zeros(width, np.int8)
    played_by = np.zeros(width, np.int64)
    # the trick-boundary states while every player holds cards (`backward.main_path`)
    ph = np.zeros((max_boundaries, n, width), np.int8)
    pln = np.zeros((max_boundaries, n), np.int64)
    plead = np.zeros(max_boundaries, np.int64)
    pat = np.zeros(max_boundaries, np.int64)
    ph[0] = deal_h
    pln[0] = deal_ln
    nb = 1
    while nb < max_boundaries:
        taker, c = _step(ph[nb - 1], pln[nb - 1], plead[nb - 1], n, d, ph[nb], pln[nb], played)
        if taker < 0:
            break
        empty = False
        for s in range(n):
            if pln[nb, s] == 0:
                empty = True
        if empty:
            break
        plead[nb] = taker
        pat[nb] = pat[nb - 1] + c
        nb += 1
    sh = np.zeros((STACK, n, width), np.int8)
    sln = np.zeros((STACK, n), np.int64)
    slead = np.zeros(STACK, np.int64)
    sback = np.zeros(STACK, np.int64)
    sdepth = np.zeros(STACK, np.int64)
    pk = np.zeros(width * n, np.int64)
    pf = np.zeros(width * n, np.int64)
    best = cards
    out[:] = 0
    out[0] = cards
    out[7] = nb
    used = 0
    for b in range(nb):
        at = pat[b]
        ex_k = pat[b] - pat[b - 1] if b > 0 else -1
        ex_f = plead[b - 1] if b > 0 else -1
        cnt = _preds(ph[b], pln[b], plead[b], n, d, keep_taker, pk, pf)
        top = 0
        for j in range(cnt - 1, -1, -1):  # pushed in reverse: the first predecessor is popped first
            if pk[j] == ex_k and pf[j] == ex_f:
                continue
            if top >= STACK:
                out[6] = 1
                break
            _unplay(ph[b], pln[b], plead[b], n, d, pk[j], pf[j], sh[top], sln[top], played_by)
            slead[top] = pf[j]
            sback[top] = pk[j]
            sdepth[top] = 1
            top += 1
        used += 1
        while top > 0 and used < nodes:
            top -= 1
            lead, back, depth = slead[top], sback[top], sdepth[top]
            if _is_deal(sln[top], lead, n, sizes):
                length = cards - at + back
                if length > best:
                    best = length
                    for s in range(n):
                        t = (lead + s) % n
                        best_ln[s] = sln[top, t]
                        for i in range(sln[top, t]):
                            best_h[s, i] = sh[top, t, i]
                    out[0], out[1], out[2], out[3], out[5] = length, b, depth, back, 1
            used += 1
            cnt = _preds(sh[top], sln[top], lead, n, d, keep_taker, pk, pf)
            if top + cnt > STACK:
                out[6] = 1
                break
            # children overwrite the popped slot upwards: copy the parent out of the way first
            src = top + cnt
            if cnt > 0:
                if src >= STACK:
                    out[6] = 1
                    break
                sh[src] = sh[top]
                sln[src] = sln[top]
            for jj in range(cnt):
                j = cnt - 1 - jj
                _unplay(sh[src], sln[src], lead, n, d, pk[j], pf[j], sh[top + jj], sln[top + jj], played_by)
                slead[top + jj] = pf[j]
                sback[top + jj] = back + pk[j]
                sdepth[top + jj] = depth + 1
            top += cnt
        if out[6] == 1 or used >= nodes:
            break
    out[4] = used
    return best


@njit(nogil=True, cache=True)
def predecessor_list(h, ln, taker, ccw, keep_taker, out_h, out_ln, out_lead, out_k):
    """Every predecessor of one state (for tests and the Python search): returns how many, the
    states in out_h/out_ln, their leaders and pile lengths in out_lead/out_k."""
    n = h.shape[0]
    width = h.shape[1]
    d = n - 1 if ccw else 1
    pk = np.zeros(width * n, np.int64)
    pf = np.zeros(width * n, np.int64)
    played_by = np.zeros(width, np.int64)
    cnt = _preds(h, ln, taker, n, d, keep_taker, pk, pf)
    for j in range(cnt):
        _unplay(h, ln, taker, n, d, pk[j], pf[j], out_h[j], out_ln[j], played_by)
        out_lead[j] = pf[j]
        out_k[j] = pk[j]
    return cnt


def extend_deal_hands(hands, cards: int, sizes, nodes: int, *, ccw: bool = False, keep_taker: bool = False) -> dict:
    """`extend_deal` on a deal given as a tuple of hands (seat 0 leads) that lasts ``cards`` cards.

    Returns
    -------
    dict
        ``deal`` (the longest deal found as a tuple of hands, None if none beats ``cards``),
        ``cards`` (its length), ``boundary``, ``depth``, ``back``, ``states``, ``overflow`` (the
        depth-first stack filled up and the search of this deal stopped there), ``boundaries``.
    """
    n = len(hands)
    width = sum(len(h) for h in hands)
    deal_h = np.zeros((n, width), np.int8)
    deal_ln = np.zeros(n, np.int64)
    for s, h in enumerate(hands):
        deal_h[s, : len(h)] = h
        deal_ln[s] = len(h)
    best_h = np.zeros((n, width), np.int8)
    best_ln = np.zeros(n, np.int64)
    out = np.zeros(len(OUT_FIELDS), np.int64)
    extend_deal(deal_h, deal_ln, bool(ccw), bool(keep_taker), np.asarray(sizes, np.int64), int(cards), int(nodes),
                int(cards) // 2 + 2, best_h, best_ln, out)
    got = dict(zip(OUT_FIELDS, (int(x) for x in out)))
    got["deal"] = (tuple(tuple(int(c) for c in best_h[s, : best_ln[s]]) for s in range(n)) if got["found"] else None)
    got["overflow"] = bool(got["overflow"])
    return got
