"""The bit-plane numba kernel: every rule, decks of at most 64 cards.

A hand is three uint64 bit-planes of its cards' tributes (bit i = the i-th card from the top;
tribute 0..5 fits in 3 planes) plus a length; the pile likewise. Runs of number cards are skipped
in one step: count-trailing-zeros of ``p0 | p1 | p2`` finds a hand's next penalty card, and a run
of plain play round the table is distributed over the players arithmetically (player at offset j
of m in turn order plays card number ``a*m + j`` when it plays its ``a``-th card). Every card that
can matter - a penalty card, the card completing a tribute, a hand's last card (end `empty`), the
cut-off card, a player who cannot play - is played by the same one-card step as
`kernel_general.play_trick`, so the rules live in one shape in both kernels. A pile goes under a
hand with three shifts and ORs.

The driver (Brent's loop detection on boundary states, cycle start by a second pass, replay to the
first repeat) mirrors `kernel_general`; a boundary state here is (leader, in-game flags, lengths,
3 planes per hand): a few words per seat to compare.

`play_random_bits` first gives every game to a fast path - `kernel_two` for two players,
`kernel_multi` otherwise - which plays it only as far as it can prove the result; games with a
loop or a cut-off are replayed here from the same deal and stream (`play_one`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..kernel_cache import install as _install_kernel_cache
from ..rng import seed_into, shuffle_inplace
from .kernel_ops import cttz as _cttz
from .kernel_ops import shr as _shr
from .kernel_multi import play_multi
from .kernel_two import FALLBACK, _scatter_planes, play_two
from .kernel_general import (
    C_CUT, C_LAPSED, C_PAID, C_WIN, CUTOFF, END_EMPTY, END_TRICK, LOOP, NO_LIMIT, P_BEGGAR, P_END,
    P_MAX_CARDS, P_MOST, P_PASSES_ON, P_SHUFFLE_ON_LOOP, P_SHUFFLE_PILE, P_STEP, S_BEG, S_CARDS,
    S_CLAIM, S_INTRICK, S_LEADER, S_LEFT, S_OVER, S_OWED, S_PLEN, S_RECORD, S_REMAINING, S_SHUF,
    S_TRICKS, S_TURN, S_WINNER, SCALARS, WIN,
)

__all__ = ["supports", "play_random_bits", "play_deals_bits", "MAX_CARDS"]

MAX_CARDS = 64
_ONE = np.uint64(1)
_ZERO = np.uint64(0)


def supports(n_cards: int, players: int) -> bool:
    """True if the bit-plane kernel can play a deck of ``n_cards`` (every hand fits in 64 bits)."""
    return 0 < n_cards <= MAX_CARDS


_install_kernel_cache()  # compiled kernels go to the per-user cache (kernel_cache.py)


# ---------------------------------------------------------------------------------------------
# one game in progress: (p0, p1, p2, len, in_game, pile planes, scalars, min_cards, out_cards,
# place)
# ---------------------------------------------------------------------------------------------
@njit(nogil=True, cache=True)
def new_game(n):
    return (np.zeros(n, dtype=np.uint64), np.zeros(n, dtype=np.uint64), np.zeros(n, dtype=np.uint64),
            np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.uint8), np.zeros(3, dtype=np.uint64),
            np.zeros(SCALARS, dtype=np.int64), np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64),
            np.zeros(n, dtype=np.int64))


@njit(nogil=True, cache=True, _nrt=False)
def reset_game(G, d0, d1, d2, dl):
    """Set ``G`` to the deal given as planes ``d0, d1, d2`` and lengths ``dl``; seat 0 leads."""
    p0, p1, p2, ln, ing, pq, sc, minc, outc, place = G
    n = ln.shape[0]
    for s in range(n):
        p0[s] = d0[s]
        p1[s] = d1[s]
        p2[s] = d2[s]
        ln[s] = dl[s]
        ing[s] = 1
        minc[s] = dl[s]
        outc[s] = -1
        place[s] = -1
    pq[0] = _ZERO
    pq[1] = _ZERO
    pq[2] = _ZERO
    for k in range(SCALARS):
        sc[k] = 0
    sc[S_WINNER] = -1
    sc[S_REMAINING] = n
    sc[S_LEFT] = n
    sc[S_RECORD] = 1


@njit(nogil=True, cache=True, _nrt=False)
def _next_in(ing, seat, step):
    n = ing.shape[0]
    s = seat
    for _ in range(n):
        s += step
        if s >= n:
            s -= n
        if ing[s]:
            return s
    return -1


@njit(nogil=True, cache=True, _nrt=False)
def _append_pile(G, taker, stream):
    """The pile goes under the taker's hand (shuffled first when shuffling); taker leads."""
    p0, p1, p2, ln, ing, pq, sc, minc, outc, place = G
    n = ln.shape[0]
    L = sc[S_PLEN]
    q0 = pq[0]
    q1 = pq[1]
    q2 = pq[2]
    if sc[S_SHUF] and L > 1:
        q0, q1, q2 = _scatter_planes(q0, q1, q2, L, stream)
    h = ln[taker]
    if L > 0:
        sh = np.uint64(h)
        p0[taker] |= q0 << sh
        p1[taker] |= q1 << sh
        p2[taker] |= q2 << sh
    ln[taker] = h + L
    pq[0] = _ZERO
    pq[1] = _ZERO
    pq[2] = _ZERO
    sc[S_PLEN] = 0
    sc[S_TRICKS] += 1
    sc[S_LEADER] = taker
    sc[S_INTRICK] = 0
    if sc[S_RECORD]:
        for s in range(n):
            if ln[s] < minc[s]:
                minc[s] = ln[s]


@njit(nogil=True, cache=True, _nrt=False)
def _finish(G, winner, stream):
    sc = G[6]
    sc[S_WINNER] = winner
    sc[S_OVER] = 1
    if sc[S_PLEN] > 0:
        _append_pile(G, winner, stream)


@njit(nogil=True, cache=True, _nrt=False)
def _go_out_group(G, k, keep, stream):
    """The ``k`` in-game players with empty hands (all but ``keep`` when ``keep >= 0``) leave
    together and share a place; one player left wins."""
    p0, p1, p2, ln, ing, pq, sc, minc, outc, place = G
    n = ln.shape[0]
    pl = sc[S_REMAINING] - k + 1
    for s in range(n):
        if ing[s] and ((keep < 0 and ln[s] == 0) or (keep >= 0 and s != keep)):
            ing[s] = 0
            if sc[S_RECORD]:
                outc[s] = sc[S_CARDS]
                place[s] = pl
    sc[S_REMAINING] -= k
    sc[S_LEFT] -= k
    if sc[S_LEFT] == 1:
        for s in range(n):
            if ing[s]:
                _finish(G, s, stream)
                break


@njit(nogil=True, cache=True, _nrt=False)
def _take_pile(G, taker, prm, stream):
    """A trick; under end `trick` every player left with an empty hand goes out."""
    _append_pile(G, taker, stream)
    if prm[P_END] == END_TRICK:
        ln = G[3]
        ing = G[4]
        k = 0
        for s in range(ln.shape[0]):
            if ing[s] and ln[s] == 0:
                k += 1
        if k:
            _go_out_group(G, np.int64(k), np.int64(-1), stream)


@njit(nogil=True, cache=True, _nrt=False)
def check_empty_end(G, prm, stream):
    """End convention `empty`: if exactly one player holds cards, the others still in go out."""
    if prm[P_END] != END_EMPTY or G[6][S_OVER]:
        return
    ln = G[3]
    ing = G[4]
    holders = 0
    holder = -1
    for s in range(ln.shape[0]):
        if ln[s] > 0:
            holders += 1
            holder = s
    if holders == 1:
        k = 0
        for s in range(ln.shape[0]):
            if ing[s] and s != holder:
                k += 1
        if k:
            _go_out_group(G, np.int64(k), np.int64(holder), stream)


@njit(nogil=True, cache=True, _nrt=False)
def play_trick(G, prm, stream, limit):
    """As `kernel_general.play_trick` (same return codes), with runs of plain cards skipped."""
    p0, p1, p2, ln, ing, pq, sc, minc, outc, place = G
    step = prm[P_STEP]
    beggar_mode = prm[P_BEGGAR]
    empty_end = prm[P_END] == END_EMPTY
    if sc[S_INTRICK] == 0:
        sc[S_INTRICK] = 1
        sc[S_TURN] = sc[S_LEADER]
        sc[S_OWED] = 0
        sc[S_CLAIM] = -1
        sc[S_BEG] = 0
    turn = sc[S_TURN]
    owed = sc[S_OWED]
    claim = sc[S_CLAIM]
    beg = sc[S_BEG]
    while True:
        # -- skip the cards that cannot matter (never the limit card itself) --
        room = limit - sc[S_CARDS] - 1
        if room > 0:
            if owed > 0:
                # the payer's number cards before its next penalty card / last card / the
                # card completing the tribute
                h = ln[turn]
                k = owed - 1
                if not beg:
                    c = np.int64(_cttz(p0[turn] | p1[turn] | p2[turn]))
                    if c < k:
                        k = c
                lim = h - 1 if empty_end else h
                if lim < k:
                    k = lim
                if room < k:
                    k = room
                if k > 0:
                    if beg:
                        # penalty cards paid to a Beggar joker are plain but keep their kind
                        mask = (_ONE << np.uint64(k)) - _ONE
                        lb = np.uint64(sc[S_PLEN])
                        pq[0] |= (p0[turn] & mask) << lb
                        pq[1] |= (p1[turn] & mask) << lb
                        pq[2] |= (p2[turn] & mask) << lb
                    p0[turn] = _shr(p0[turn], k)
                    p1[turn] = _shr(p1[turn], k)
                    p2[turn] = _shr(p2[turn], k)
                    ln[turn] = h - k
                    owed -= k
                    sc[S_PLEN] += k
                    sc[S_CARDS] += k
            else:
                # plain play round the table: the player at offset j (of m) plays card number
                # a*m + j of the run when playing its a-th card
                m = sc[S_LEFT]
                best = NO_LIMIT
                s = turn
                for j in range(m):
                    a = np.int64(_cttz(p0[s] | p1[s] | p2[s]))
                    lim = ln[s] - 1 if empty_end else ln[s]
                    if lim < 0:
                        lim = 0
                    if lim < a:
                        a = lim
                    e = a * m + j
                    if e < best:
                        best = e
                        if e < m:
                            break
                    s = _next_in(ing, s, step)
                k = best
                if room < k:
                    k = room
                if k > 0:
                    q = k // m
                    r = k - q * m
                    s = turn
                    for j in range(m):
                        c = q + 1 if j < r else q
                        if c > 0:
                            p0[s] = _shr(p0[s], c)
                            p1[s] = _shr(p1[s], c)
                            p2[s] = _shr(p2[s], c)
                            ln[s] -= c
                        if j == r:
                            turn = s
                        s = _next_in(ing, s, step)
                    sc[S_PLEN] += k
                    sc[S_CARDS] += k
        # -- one card (or a player who cannot play), exactly as kernel_general --
        if ln[turn] == 0:
            _go_out_one(G, turn, stream)
            if sc[S_OVER]:
                return C_WIN
            if owed > 0 and prm[P_PASSES_ON] == 0:
                _take_pile(G, claim, prm, stream)
                if sc[S_OVER]:
                    return C_WIN
                return C_LAPSED
            turn = _next_in(ing, turn, step)
            continue
        card = np.int64((p0[turn] & _ONE) | ((p1[turn] & _ONE) << _ONE) | ((p2[turn] & _ONE) << np.uint64(2)))
        p0[turn] >>= _ONE
        p1[turn] >>= _ONE
        p2[turn] >>= _ONE
        ln[turn] -= 1
        L = np.uint64(sc[S_PLEN])
        cu = np.uint64(card)
        pq[0] |= (cu & _ONE) << L
        pq[1] |= ((cu >> _ONE) & _ONE) << L
        pq[2] |= (cu >> np.uint64(2)) << L
        sc[S_PLEN] += 1
        sc[S_CARDS] += 1
        tribute = 0 if beg else card
        if tribute > 0:
            claim = turn
            owed = tribute
            beg = 1 if (beggar_mode and card == 5) else 0
            turn = _next_in(ing, turn, step)
        elif owed > 0:
            owed -= 1
            if owed == 0:
                _take_pile(G, claim, prm, stream)
                if sc[S_OVER]:
                    return C_WIN
                return C_PAID
        else:
            turn = _next_in(ing, turn, step)
        if empty_end:
            check_empty_end(G, prm, stream)
            if sc[S_OVER]:
                return C_WIN
        if sc[S_CARDS] >= limit:
            sc[S_TURN] = turn
            sc[S_OWED] = owed
            sc[S_CLAIM] = claim
            sc[S_BEG] = beg
            return C_CUT


@njit(nogil=True, cache=True, _nrt=False)
def _go_out_one(G, seat, stream):
    p0, p1, p2, ln, ing, pq, sc, minc, outc, place = G
    ing[seat] = 0
    if sc[S_RECORD]:
        outc[seat] = sc[S_CARDS]
        place[seat] = sc[S_REMAINING]
    sc[S_REMAINING] -= 1
    sc[S_LEFT] -= 1
    if sc[S_LEFT] == 1:
        for s in range(ln.shape[0]):
            if ing[s]:
                _finish(G, s, stream)
                break


@njit(nogil=True, cache=True, _nrt=False)
def step_boundary(G, prm, stream):
    """Deterministic play to the next trick boundary, no limit. Returns True if the game ended."""
    code = play_trick(G, prm, stream, NO_LIMIT)
    if code == C_WIN:
        return True
    if code == C_PAID:
        check_empty_end(G, prm, stream)
        if G[6][S_OVER]:
            return True
    return False


@njit(nogil=True, cache=True, _nrt=False)
def save_state(G, snap):
    """Boundary state: leader, then per seat in-game flag, length and the three planes."""
    p0, p1, p2, ln, ing, pq, sc, minc, outc, place = G
    snap[0] = np.uint64(sc[S_LEADER])
    j = 1
    for s in range(ln.shape[0]):
        snap[j] = np.uint64(ln[s] * 2 + ing[s])
        snap[j + 1] = p0[s]
        snap[j + 2] = p1[s]
        snap[j + 3] = p2[s]
        j += 4


@njit(nogil=True, cache=True, _nrt=False)
def same_state(G, snap):
    p0, p1, p2, ln, ing, pq, sc, minc, outc, place = G
    if snap[0] != np.uint64(sc[S_LEADER]):
        return False
    j = 1
    for s in range(ln.shape[0]):
        if (snap[j] != np.uint64(ln[s] * 2 + ing[s]) or snap[j + 1] != p0[s] or snap[j + 2] != p1[s]
                or snap[j + 3] != p2[s]):
            return False
        j += 4
    return True


@njit(nogil=True, cache=True, _nrt=False)
def _same_games(GA, GB):
    if GA[6][S_LEADER] != GB[6][S_LEADER]:
        return False
    for s in range(GA[3].shape[0]):
        if (GA[3][s] != GB[3][s] or GA[4][s] != GB[4][s] or GA[0][s] != GB[0][s] or GA[1][s] != GB[1][s]
                or GA[2][s] != GB[2][s]):
            return False
    return True


@njit(nogil=True, cache=True, _nrt=False)
def _save_cut(G, cut):
    p0, p1, p2, ln, ing, pq, sc, minc, outc, place = G
    n = ln.shape[0]
    cut[0] = 1
    cut[1] = sc[S_CARDS]
    cut[2] = sc[S_TRICKS]
    for s in range(n):
        cut[4 + s] = ln[s]
        cut[4 + n + s] = minc[s]
        cut[4 + 2 * n + s] = outc[s]
        cut[4 + 3 * n + s] = place[s]


@njit(nogil=True, cache=True, _nrt=False)
def _run(G, prm, stream, limit, stop_r, detect, cut, snap):
    """As `kernel_general._run`: play from the deal; returns Brent's cycle length (0: none)."""
    sc = G[6]
    check_empty_end(G, prm, stream)
    if sc[S_OVER]:
        return 0
    power = 1
    lam = 1
    if detect:
        save_state(G, snap)
    cut_done = False
    t_cut = 0
    while True:
        code = play_trick(G, prm, stream, NO_LIMIT if cut_done else limit)
        if code == C_WIN:
            return 0
        if code == C_CUT:
            _save_cut(G, cut)
            cut_done = True
            t_cut = sc[S_TRICKS]
            sc[S_RECORD] = 0
            if not detect:
                return 0
            continue
        idx = sc[S_TRICKS]
        if idx == stop_r:
            if prm[P_SHUFFLE_ON_LOOP]:
                sc[S_SHUF] = 1
            else:
                return 0
        if detect:
            if same_state(G, snap):
                return lam
            if power == lam:
                save_state(G, snap)
                power *= 2
                lam = 0
            lam += 1
        if code == C_PAID:
            check_empty_end(G, prm, stream)
            if sc[S_OVER]:
                return 0
            if not cut_done and sc[S_CARDS] >= limit:
                _save_cut(G, cut)
                cut_done = True
                t_cut = sc[S_TRICKS]
                sc[S_RECORD] = 0
                if not detect:
                    return 0
        if cut_done and idx > 3 * t_cut + 3:
            # Brent finds a cycle whose first repeat R has R <= t_cut by boundary 3R at the latest.
            return 0


@njit(nogil=True, cache=True, _nrt=False)
def _find_mu(GA, GB, d0, d1, d2, dl, lam, prm, stream):
    reset_game(GA, d0, d1, d2, dl)
    reset_game(GB, d0, d1, d2, dl)
    GA[6][S_RECORD] = 0
    GB[6][S_RECORD] = 0
    check_empty_end(GA, prm, stream)
    check_empty_end(GB, prm, stream)
    for _ in range(lam):
        step_boundary(GB, prm, stream)
    mu = 0
    while not _same_games(GA, GB):
        step_boundary(GA, prm, stream)
        step_boundary(GB, prm, stream)
        mu += 1
    return mu, GA[6][S_CARDS], GB[6][S_CARDS]


# The exact replay passes typed values (np.int64(-1), np.bool_(...)), not literals, to `_run` and
# `_go_out_group`: numba compiles a function once per distinct literal argument, and this rare path
# gains nothing from the specialisations (benchmarks/cold_start.py).
@njit(nogil=True, cache=True, _nrt=False)
def play_one(d0, d1, d2, dl, stream, prm, G, GB, snap, cut, saved, i, out_u32, out_small, seat_out, per_seat):
    """Play one deal (as planes) and write row ``i`` of the result arrays (see kernel_general)."""
    p0, p1, p2, ln, ing, pq, sc, minc, outc, place = G
    n = ln.shape[0]
    maxc = prm[P_MAX_CARDS]
    limit = NO_LIMIT if maxc < 0 else maxc
    cut[0] = 0
    reset_game(G, d0, d1, d2, dl)
    lam = 0
    if prm[P_SHUFFLE_PILE]:
        sc[S_SHUF] = 1
        _run(G, prm, stream, limit, np.int64(-1), np.bool_(False), cut, snap)
    else:
        if prm[P_SHUFFLE_ON_LOOP]:
            for k in range(4):
                saved[k] = stream[k]
        lam = _run(G, prm, stream, limit, np.int64(-1), np.bool_(True), cut, snap)
    mu = 0
    c_mu = 0
    c_r = 0
    looped = False
    if lam > 0:
        mu, c_mu, c_r = _find_mu(GB, G, d0, d1, d2, dl, lam, prm, stream)
        if c_r <= limit:
            looped = True
            cut[0] = 0
            if prm[P_SHUFFLE_ON_LOOP]:
                for k in range(4):
                    stream[k] = saved[k]
            reset_game(G, d0, d1, d2, dl)
            _run(G, prm, stream, limit, mu + lam, np.bool_(False), cut, snap)
    if cut[0]:
        outcome = CUTOFF
        out_u32[0, i] = cut[1]
        out_u32[1, i] = cut[2]
        winner = -1
        if per_seat:
            for s in range(n):
                seat_out[i, 0, s] = cut[4 + n + s]
                seat_out[i, 1, s] = cut[4 + 3 * n + s]
                seat_out[i, 2, s] = cut[4 + 2 * n + s]
    else:
        outcome = WIN if sc[S_OVER] else LOOP
        out_u32[0, i] = sc[S_CARDS]
        out_u32[1, i] = sc[S_TRICKS]
        winner = sc[S_WINNER] if outcome == WIN else -1
        if per_seat:
            for s in range(n):
                seat_out[i, 0, s] = minc[s]
                seat_out[i, 1, s] = place[s]
                seat_out[i, 2, s] = outc[s]
        if winner >= 0 and per_seat:
            seat_out[i, 1, winner] = 1
    if outcome != WIN and prm[P_MOST]:
        best = -1
        count = 0
        for s in range(n):
            v = cut[4 + s] if cut[0] else ln[s]  # cards held at the end
            if v > best:
                best = v
                count = 1
                winner = s
            elif v == best:
                count += 1
        if count != 1:
            winner = -1
        elif per_seat:
            seat_out[i, 1, winner] = 1
    out_small[0, i] = outcome
    out_small[1, i] = winner
    out_small[2, i] = 1 if looped else 0
    if looped:
        out_u32[2, i] = mu
        out_u32[3, i] = c_mu
        out_u32[4, i] = lam
        out_u32[5, i] = c_r - c_mu
    else:
        for k in range(2, 6):
            out_u32[k, i] = 0


@njit(nogil=True, cache=True)
def play_random_bits(deck, n, prm, seed, games, out_u32, out_small, seat_out, init_out, per_seat):
    """Play the random games ``games`` of the table ``seed``; deals exactly as `deals.deal_into`
    (the deck in canonical order, Fisher-Yates on the game's stream, card i to seat i mod n)."""
    N = deck.shape[0]
    z = np.zeros(n, dtype=np.uint64)
    zi = np.zeros(n, dtype=np.int64)
    scratch = (np.zeros(N, dtype=np.int8), z.copy(), z.copy(), z.copy(), zi.copy(),
               np.zeros(4, dtype=np.uint64), np.zeros(4, dtype=np.uint64), np.zeros(4, dtype=np.uint64),
               np.zeros(1 + 4 * n, dtype=np.uint64), np.zeros(4 + 4 * n, dtype=np.int64),
               z.copy(), z.copy(), z.copy(), zi.copy(), np.zeros(n, dtype=np.uint8), np.zeros(4 * n, dtype=np.int64),
               zi.copy(), zi.copy(), zi.copy())
    _play_random_bits(deck, n, prm, seed, games, out_u32, out_small, seat_out, init_out, per_seat,
                      new_game(n), new_game(n), scratch, np.zeros(games.shape[0], dtype=np.uint8))


@njit(nogil=True, cache=True, _nrt=False)
def _deal(deck, n, seed, game, state, shuffled, d0, d1, d2, dl, init_out, i, per_seat):
    """Deal game ``game`` into planes, exactly as `deals.deal_into`; ``state`` ends after the deal."""
    N = deck.shape[0]
    seed_into(state, seed, np.uint64(game))
    for k in range(N):
        shuffled[k] = deck[k]
    shuffle_inplace(state, shuffled, N)
    for s in range(n):
        d0[s] = _ZERO
        d1[s] = _ZERO
        d2[s] = _ZERO
        dl[s] = N // n + (1 if s < N % n else 0)
        if per_seat:
            for k in range(7):
                init_out[i, k, s] = 0
            init_out[i, 0, s] = dl[s]
    # card k goes to seat k mod n at position k // n; only penalty cards set bits
    s = 0
    pos = 0
    for k in range(N):
        c = shuffled[k]
        if c != 0:
            cu = np.uint64(c)
            b = np.uint64(pos)
            us = np.uint64(s)
            d0[us] |= (cu & _ONE) << b
            d1[us] |= ((cu >> _ONE) & _ONE) << b
            d2[us] |= (cu >> np.uint64(2)) << b
            if per_seat:
                init_out[i, np.int64(c), s] += 1
                init_out[i, 6, s] += np.int64(c)
        s += 1
        if s == n:
            s = 0
            pos += 1


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def _record_win(out_u32, out_small, i, cards, tricks, w):
    """Game i was won by seat w (a fast pass proved it: no loop, no cut-off)."""
    out_u32[0, i] = cards
    out_u32[1, i] = tricks
    for k in range(2, 6):
        out_u32[k, i] = 0
    out_small[0, i] = WIN
    out_small[1, i] = w
    out_small[2, i] = 0


@njit(nogil=True, cache=True, _nrt=False)
def _two_pass(deck, prm, seed, games, out_u32, out_small, seat_out, init_out, per_seat, need, scratch):
    """Every game through `kernel_two`; ``need[i] = 1`` for those it hands back."""
    (shuffled, d0, d1, d2, dl, state, saved, saved2, snap, cut,
     h0, h1, h2, hl, ing, nxt, minc, outc, place) = scratch
    end = prm[P_END]
    beggar = prm[P_BEGGAR] != 0
    shuffle = prm[P_SHUFFLE_PILE] != 0
    maxc = prm[P_MAX_CARDS]
    # the default rules get a loop of their own with the options as constants, which the compiler
    # folds into play_two (a few per cent on the most common table)
    plain = end == 0 and not beggar and not shuffle and maxc < 0
    plain_shuffle = end == 0 and not beggar and shuffle and maxc < 0
    for i in range(games.shape[0]):
        _deal(deck, 2, seed, games[i], state, shuffled, d0, d1, d2, dl, init_out, i, per_seat)
        if plain:
            st, cards, tricks, w, m0, m1, oc = play_two(d0[0], d1[0], d2[0], dl[0], d0[1], d1[1], d2[1],
                                                        dl[1], 0, False, True, False, -1, state)
        elif plain_shuffle:
            # shuffle_pile with the other options at their defaults: constants as well
            st, cards, tricks, w, m0, m1, oc = play_two(d0[0], d1[0], d2[0], dl[0], d0[1], d1[1], d2[1],
                                                        dl[1], 0, False, False, True, -1, state)
        else:
            st, cards, tricks, w, m0, m1, oc = play_two(d0[0], d1[0], d2[0], dl[0], d0[1], d1[1], d2[1],
                                                        dl[1], end, beggar, not shuffle, shuffle, maxc, state)
        if st == FALLBACK:
            need[i] = 1
            continue
        _record_win(out_u32, out_small, i, cards, tricks, w)
        if per_seat:
            seat_out[i, 0, 0] = m0
            seat_out[i, 0, 1] = m1
            seat_out[i, 1, w] = 1
            seat_out[i, 1, 1 - w] = 2
            seat_out[i, 2, w] = -1
            seat_out[i, 2, 1 - w] = oc


@njit(nogil=True, cache=True, _nrt=False)
def _multi_pass(deck, n, prm, seed, games, out_u32, out_small, seat_out, init_out, per_seat, need, scratch):
    """Every game through `kernel_multi`; ``need[i] = 1`` for those it hands back."""
    (shuffled, d0, d1, d2, dl, state, saved, saved2, snap, cut,
     h0, h1, h2, hl, ing, nxt, minc, outc, place) = scratch
    limit = NO_LIMIT if prm[P_MAX_CARDS] < 0 else prm[P_MAX_CARDS]
    step = prm[P_STEP]
    end = prm[P_END]
    passes_on = prm[P_PASSES_ON] != 0
    beggar = prm[P_BEGGAR] != 0
    shuffle = prm[P_SHUFFLE_PILE] != 0
    plain = end == 0 and not beggar and not shuffle and limit == NO_LIMIT  # options as constants
    for i in range(games.shape[0]):
        _deal(deck, n, seed, games[i], state, shuffled, d0, d1, d2, dl, init_out, i, per_seat)
        for s in range(n):
            h0[s] = d0[s]
            h1[s] = d1[s]
            h2[s] = d2[s]
            hl[s] = dl[s]
        if plain:
            st, cards, tricks, w = play_multi(h0, h1, h2, hl, ing, nxt, minc, outc, place, snap, step, 0,
                                              passes_on, False, False, True, NO_LIMIT, state)
        else:
            st, cards, tricks, w = play_multi(h0, h1, h2, hl, ing, nxt, minc, outc, place, snap, step, end,
                                              passes_on, beggar, shuffle, not shuffle, limit, state)
        if st == FALLBACK:
            need[i] = 1
            continue
        _record_win(out_u32, out_small, i, cards, tricks, w)
        if per_seat:
            for s in range(n):
                seat_out[i, 0, s] = minc[s]
                seat_out[i, 1, s] = place[s]
                seat_out[i, 2, s] = outc[s]


@njit(nogil=True, cache=True, _nrt=False)
def _play_random_bits(deck, n, prm, seed, games, out_u32, out_small, seat_out, init_out, per_seat, G, GB,
                      scratch, need):
    # compiled without reference counting: every array is allocated by the caller. The fast pass
    # and the (rare) exact replays are separate loops, so the hot loop stays small.
    (shuffled, d0, d1, d2, dl, state, saved, saved2, snap, cut,
     h0, h1, h2, hl, ing, nxt, minc, outc, place) = scratch
    if n == 2:
        _two_pass(deck, prm, seed, games, out_u32, out_small, seat_out, init_out, per_seat, need, scratch)
    else:
        _multi_pass(deck, n, prm, seed, games, out_u32, out_small, seat_out, init_out, per_seat, need, scratch)
    for i in range(games.shape[0]):
        if need[i]:
            _deal(deck, n, seed, games[i], state, shuffled, d0, d1, d2, dl, init_out, i, per_seat)
            play_one(d0, d1, d2, dl, state, prm, G, GB, snap, cut, saved, i, out_u32, out_small, seat_out,
                     per_seat)


@njit(nogil=True, cache=True)
def play_deals_bits(dh, dl, streams, prm, out_u32, out_small, seat_out):
    """Play given deals: ``dh`` int8[m, n, W], ``dl`` int64[m, n], ``streams`` uint64[m, 4]."""
    m = dh.shape[0]
    n = dh.shape[1]
    d0 = np.zeros(n, dtype=np.uint64)
    d1 = np.zeros(n, dtype=np.uint64)
    d2 = np.zeros(n, dtype=np.uint64)
    saved = np.zeros(4, dtype=np.uint64)
    G = new_game(n)
    GB = new_game(n)
    snap = np.zeros(1 + 4 * n, dtype=np.uint64)
    cut = np.zeros(4 + 4 * n, dtype=np.int64)
    for i in range(m):
        for s in range(n):
            d0[s] = _ZERO
            d1[s] = _ZERO
            d2[s] = _ZERO
            for k in range(dl[i, s]):
                c = np.uint64(dh[i, s, k])
                b = np.uint64(k)
                d0[s] |= (c & _ONE) << b
                d1[s] |= ((c >> _ONE) & _ONE) << b
                d2[s] |= (c >> np.uint64(2)) << b
        play_one(d0, d1, d2, dl[i], streams[i], prm, G, GB, snap, cut, saved, i, out_u32, out_small,
                 seat_out, True)
