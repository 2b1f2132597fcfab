"""The two-player fast path: the whole game in registers.

Two players, at most 64 cards, every end convention, Super or Beggar jokers, shuffle_pile: the
common case of every table, and the one the throughput target is about. The state is eight
machine words - three bit-planes and a length per hand, the leader's hand first - so a trick costs
a handful of count-trailing-zeros, shifts and ORs, and Brent's loop check compares eight words.

The fast path plays a game only as far as it can prove the result: a win before any cut-off with
no repeated trick-boundary state. Anything else (a loop found, the card limit reached) is handed
back with status `FALLBACK`, and the caller replays the game with the exact driver (`exact.py`,
same deal, same stream), so the figures never depend on which path ran. The rules are asked of
`rulebook.py`.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from .kernel_cache import install as _install_kernel_cache
from .rng import scatter_planes
from .brent import snapshot_due, widen
from .constants import DONE, FALLBACK, NO_LIMIT
from .hands_bits import card_at, lay_paid, top_card
from .kernel_ops import cttz as _cttz
from .kernel_ops import shr as _shr
from .rulebook import next_demand_at, out_at_trick_end, owed_to_beggar, sole_holder_wins

__all__ = ["play_two", "TwoResult"]

# What `play_two` returns: DONE (won, the figures are final) or FALLBACK (replay with the exact
# driver); the cards and tricks played, the winner, each seat's fewest cards at a trick boundary,
# and the cards played when the loser went out.
TwoResult = namedtuple("TwoResult", "status cards tricks winner min0 min1 out_cards")

_ONE = np.uint64(1)
_TWO = np.uint64(2)
_ZERO = np.uint64(0)


_install_kernel_cache()  # compiled kernels go to the per-user cache (kernel_cache.py)


@njit(nogil=True, cache=True, inline="always")
def _won(winner, L, cards, tricks, m0, m1):
    """``winner`` takes the pile (a trick if it holds any card); the loser holds nothing."""
    if L > 0:
        tricks += 1
        if winner == 0:
            m1 = 0
        else:
            m0 = 0
    return TwoResult(DONE, cards, tricks, winner, m0, m1, cards)


@njit(nogil=True, cache=True, inline="always")
def _give_up(cards, tricks, m0, m1):
    return TwoResult(FALLBACK, cards, tricks, -1, m0, m1, 0)


@njit(nogil=True, cache=True, _nrt=False)
def play_two(a, b, end, beggar_mode, detect, shuffle, max_cards, stream):
    """Play a two-player game from the hands ``a`` (seat 0, leading) and ``b`` (seat 1), each a
    tuple (plane 0, plane 1, plane 2, length).

    The options come one by one, so that a constant passed for one compiles a version of its own
    with the constant folded in (the default rules' loop in `batch._two_pass`).

    Parameters
    ----------
    end : int
        The end convention (its code in constants.py). With two players 'empty' means: the
        moment a player plays their last card, the other wins (unless that card completes a
        tribute, when the other takes the pile first - the same winner and counts).
    beggar_mode : bool
        Jokers are Beggar jokers.
    detect : bool
        Run Brent's loop check (deterministic play); a loop found returns FALLBACK.
    shuffle : bool
        shuffle_pile: every pile taken is shuffled on ``stream`` first.
    max_cards : int
        The cut-off as a card count, -1 for none (a literal -1 compiles a version without it);
        reaching it returns FALLBACK.

    (exhausted_tribute, direction and leader make no difference with two players.)

    Returns
    -------
    TwoResult
    """
    # x: the leader's hand, y: the other's; lx: the leader's seat
    limit = max_cards if max_cards >= 0 else NO_LIMIT
    x0, x1, x2, nx = a
    y0, y1, y2, ny = b
    na = nx
    nb = ny
    lx = 0
    cards = 0
    tricks = 0
    m0 = na
    m1 = nb
    if na == 0 or nb == 0:
        return _give_up(0, 0, m0, m1)
    empty = sole_holder_wins(end)
    out_at_end = out_at_trick_end(end)
    # Brent: tortoise state (leader's seat, the leader's hand and length, the other hand)
    t0, t1, t2, tn, u0, u1, u2, tl = x0, x1, x2, nx, y0, y1, y2, lx
    power = 1
    lam = 1
    while True:
        # -- plain play: x leads, x's k-th card is play 2k, y's is play 2k+1; an event is a
        #    penalty card, a run-out, or (end `empty`) a hand's last card --
        ax = np.int64(_cttz(x0 | x1 | x2))
        lim = nx - 1 if empty else nx
        if lim < ax:
            ax = lim
        ay = np.int64(_cttz(y0 | y1 | y2))
        lim = ny - 1 if empty else ny
        if lim < ay:
            ay = lim
        xf = ax <= ay  # x's event first; selects below, as the outcome is a coin flip
        kx = ax if xf else ay + 1
        ky = ax if xf else ay
        x0 = _shr(x0, kx)
        x1 = _shr(x1, kx)
        x2 = _shr(x2, kx)
        nx -= kx
        y0 = _shr(y0, ky)
        y1 = _shr(y1, ky)
        y2 = _shr(y2, ky)
        ny -= ky
        L = kx + ky
        cards += L
        # O: the player whose event came first; P: the other one
        o0 = x0 if xf else y0
        o1 = x1 if xf else y1
        o2 = x2 if xf else y2
        no = nx if xf else ny
        p0 = y0 if xf else x0
        p1 = y1 if xf else x1
        p2 = y2 if xf else x2
        np_ = ny if xf else nx
        o_seat = lx if xf else 1 - lx
        if no == 0:
            # O must play and cannot: out; P wins and takes the pile
            if cards >= limit:
                return _give_up(cards, tricks, m0, m1)
            return _won(1 - o_seat, L, cards, tricks, m0, m1)
        # O turns its top card: a penalty card (or, end `empty`, its last card)
        v = top_card(o0, o1, o2)
        lb = np.uint64(L)
        q0 = (v & _ONE) << lb
        q1 = ((v >> _ONE) & _ONE) << lb
        q2 = (v >> _TWO) << lb
        L += 1
        cards += 1
        o0 >>= _ONE
        o1 >>= _ONE
        o2 >>= _ONE
        no -= 1
        if cards >= limit:
            return _give_up(cards, tricks, m0, m1)
        if empty and no == 0:
            return _won(1 - o_seat, L, cards, tricks, m0, m1)
        owed = np.int64(v)
        beg = owed_to_beggar(owed, beggar_mode)
        # -- tribute: P owes `owed` cards to O --
        while True:
            cp = next_demand_at(p0, p1, p2, beg)
            if empty:
                # P's first event: a penalty card, its last card, or the card completing the tribute
                e = cp
                if np_ - 1 < e:
                    e = np_ - 1
                if owed - 1 < e:
                    e = owed - 1
                if cards + e + 1 >= limit:
                    return _give_up(cards, tricks, m0, m1)
                if e == cp:
                    k = cp
                else:
                    # P plays e + 1 cards; then the pile is taken, or P played its last card
                    k = e + 1
                    q0, q1, q2 = lay_paid(q0, q1, q2, p0, p1, p2, k, L, beg)
                    p0 = _shr(p0, k)
                    p1 = _shr(p1, k)
                    p2 = _shr(p2, k)
                    np_ -= k
                    L += k
                    cards += k
                    if np_ == 0:
                        # P's last card (completing the tribute or not): O wins, holding the pile
                        return _won(o_seat, L, cards, tricks, m0, m1)
                    owed = 0
            elif cp < owed:
                k = cp
            elif np_ < owed:
                # the payer runs out: out; O wins and takes the pile
                cards += np_
                if cards >= limit:
                    return _give_up(cards, tricks, m0, m1)
                return _won(o_seat, L + np_, cards, tricks, m0, m1)
            else:
                k = -1
            if k >= 0 and owed > 0:
                # a penalty card turns up after k number cards: the obligation passes back
                if cards + k + 1 >= limit:
                    return _give_up(cards, tricks, m0, m1)
                v = card_at(p0, p1, p2, k)
                L += k
                lb = np.uint64(L)
                q0 |= (v & _ONE) << lb
                q1 |= ((v >> _ONE) & _ONE) << lb
                q2 |= (v >> _TWO) << lb
                L += 1
                cards += k + 1
                p0 = _shr(p0, k + 1)
                p1 = _shr(p1, k + 1)
                p2 = _shr(p2, k + 1)
                np_ -= k + 1
                if empty and np_ == 0:
                    return _won(o_seat, L, cards, tricks, m0, m1)
                owed = np.int64(v)
                beg = owed_to_beggar(owed, beggar_mode)
                o0, o1, o2, no, p0, p1, p2, np_ = p0, p1, p2, np_, o0, o1, o2, no
                o_seat = 1 - o_seat
                continue
            if owed > 0:
                # paid in full
                if cards + owed >= limit:
                    return _give_up(cards, tricks, m0, m1)
                q0, q1, q2 = lay_paid(q0, q1, q2, p0, p1, p2, owed, L, beg)
                cards += owed
                L += owed
                p0 = _shr(p0, owed)
                p1 = _shr(p1, owed)
                p2 = _shr(p2, owed)
                np_ -= owed
            # O takes the pile
            if shuffle and L > 1:
                q0, q1, q2 = scatter_planes(q0, q1, q2, L, stream)
            sh = np.uint64(no)
            o0 |= q0 << sh
            o1 |= q1 << sh
            o2 |= q2 << sh
            no += L
            tricks += 1
            break
        # -- trick boundary: O leads --
        x0, x1, x2, nx, y0, y1, y2, ny = o0, o1, o2, no, p0, p1, p2, np_
        lx = o_seat
        # selects, not branches: who took the pile is a coin flip for the branch predictor
        n_0 = nx if lx == 0 else ny
        n_1 = ny if lx == 0 else nx
        m0 = n_0 if n_0 < m0 else m0
        m1 = n_1 if n_1 < m1 else m1
        if ny == 0 and out_at_end:
            # end `trick`: the other player's hand is empty, out; the taker wins
            return TwoResult(DONE, cards, tricks, lx, m0, m1, cards)
        if detect:
            # one well-predicted test instead of a chain of short-circuit branches
            diff = ((x0 ^ t0) | (x1 ^ t1) | (x2 ^ t2) | (y0 ^ u0) | (y1 ^ u1) | (y2 ^ u2)
                    | np.uint64((lx ^ tl) | (nx ^ tn)))
            if diff == _ZERO:
                return _give_up(cards, tricks, m0, m1)
            if snapshot_due(power, lam):
                t0, t1, t2, tn, u0, u1, u2, tl = x0, x1, x2, nx, y0, y1, y2, lx
                power, lam = widen(power)
            lam += 1
