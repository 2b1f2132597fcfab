"""The bit-plane fast path for any number of players and every rule: one game in one function.

Same bit-plane ideas as `kernel_two` (hands as three uint64 planes, runs of number cards skipped
with count-trailing-zeros, a plain run round the table distributed arithmetically: the player at
offset j of m plays card ``a*m + j`` of the run with its a-th card), for 2..12 players, every end
convention, exhausted-tribute rule, direction, joker mode and shuffle_pile. The seats still in the
game are kept as a ring (``nxt[s]``: the next seat in the direction of play), and every scalar of
the game lives in a local variable. The per-seat values (the `Table`) are read and written through
`seats.seat` / `seats.with_seat`: arrays changed in place on the CPU, so a trick touches memory only
for them; tuples and packed words on the GPU, so a thread's game stays in registers.

Every card move (turning a card onto the pile, paying, the plain-run split, laying the pile under a
hand, comparing hands) is the exact driver's own, from `hands_bits.py`, called on the seats' words.

Like `kernel_two` it only plays a game as far as it can prove the result: a win before any
cut-off, with no repeated trick-boundary state. Otherwise it returns `FALLBACK` and the caller
replays the game with the exact driver (`exact.py`).

The loop check (Brent's algorithm on the states of the seats still in) only starts after
`_BRENT_FROM` tricks: in 1,000,000 standard deals for 3-6 players no game looped with more than
two players left, and none took more than 210 tricks to get down to two, while the check cost
~10% of the time. Starting it late is exact all the same: a deterministic game that repeats a
state loops for ever, so it never ends in a win here and is handed back whenever the loop is
seen. A player going out restarts it (a state with fewer players never repeats one with more).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from .kernel_cache import install as _install_kernel_cache
from .brent import snapshot_due, widen
from .constants import DONE, FALLBACK, GOING, TWO_LEFT
from .hands_bits import (counts_differ, drop, lay_at, lay_top, pay, pile_as_taken, plain_run, planes_differ, run_share,
                         under)
from .kernel_two import play_two
from .options import record, with_limit
from .seats import kept, seat, with_seat
from .rulebook import (cut_off, demand, lapses, next_demand_at, next_leader, out_at_trick_end, owed_to_beggar,
                       sole_holder_wins)

__all__ = ["play_multi", "start_multi", "trick_multi", "two_left_hands", "two_left_result", "Table", "new_table", "MultiResult", "MultiGame"]

# The per-seat values of one multi-player game (arrays on the CPU, registers on the GPU: `seats`): each
# seat's planes and length, the ring of seats still in (`_ring`), the per-seat figures - a seat's place is
# -1 while it is in, so it also says who is in - and Brent's snapshot (uint64[1 + 4n]).
Table = namedtuple("Table", "p0 p1 p2 ln nxt min_cards out_cards place snap")
# What `play_multi` returns: DONE or FALLBACK, the cards and tricks played, the winner (-1: none).
MultiResult = namedtuple("MultiResult", "status cards tricks winner")
# A game between tricks (`start_multi`, `trick_multi`): the cards and tricks played, the seat to lead, the
# seats still in (also the place the next one out gets), Brent's schedule (`brent.py`); the hands and the
# per-seat figures are the `Table`'s.
MultiGame = namedtuple("MultiGame", "cards tricks leader left power lam")

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_FAR = np.int64(2**62)  # beyond any play of a run
_BRENT_FROM = 256  # the loop check starts at this trick (see the module docstring)


_install_kernel_cache()  # compiled kernels go to the per-user cache (kernel_cache.py)


@njit(nogil=True, cache=True, _nrt=False)
def _ring(place, nxt, step, n):
    """Rebuild the ring of seats still in the game (only when players go out: rare); returns ``nxt``
    and the number of seats in (a tuple: numba returns an array alone only where it is an argument).

    ``nxt`` holds 4n entries: ``nxt[s]`` the next seat in play after ``s`` (s < n); from n, the
    m seats still in, in the order of play, written twice (``nxt[n + k]``, k < 2m), so a run
    round the table from any seat reads consecutive entries (independent loads, not a chain of
    dependent ones); ``nxt[3n + s]``: the position of seat ``s`` in that order."""
    # selects and fixed trip counts (which seats are in is data, the exits would mispredict):
    # going round twice against the direction of play, t is the last seat in seen, that is the
    # next one in play; the first round only sets t
    t = 0
    first = 0
    m = 0
    if step == 1:
        for i in range(2 * n - 1, -1, -1):
            s = i - n if i >= n else i
            nxt = with_seat(nxt, s, t)
            t = s if seat(place, s) < 0 else t
    else:
        for i in range(2 * n):
            s = i - n if i >= n else i
            nxt = with_seat(nxt, s, t)
            t = s if seat(place, s) < 0 else t
    for s in range(n - 1, -1, -1):
        first = s if seat(place, s) < 0 else first
        m += 1 if seat(place, s) < 0 else 0
    t = first
    for k in range(m):
        nxt = with_seat(nxt, n + k, t)
        nxt = with_seat(nxt, n + m + k, t)
        nxt = with_seat(nxt, 3 * n + t, k)
        t = seat(nxt, t)
    return nxt, m


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def _scan(h0, h1, h2, ln, nxt, base, m, empty_end):
    """A plain run from offset 0 of the play order at ``base``: the first event is card ``abest``
    of the seat at offset ``jbest`` (play ``abest * m + jbest``). Selects, fixed trip count."""
    best = _FAR
    abest = best
    jbest = 0
    for j in range(m):
        u = np.uint64(seat(nxt, np.uint64(base + j)))
        a = plain_run(seat(h0, u), seat(h1, u), seat(h2, u), seat(ln, u), empty_end, True)
        e = a * m + j
        better = e < best
        best = e if better else best
        abest = a if better else abest
        jbest = j if better else jbest
    return abest, jbest


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def _advance(h0, h1, h2, ln, nxt, base, m, abest, jbest):
    """Play the run found by `_scan`: offsets before ``jbest`` play ``abest + 1`` cards, the rest
    ``abest`` (`hands_bits.run_share`; all of them, also for a run of no card: no branch).
    Returns the seat at ``jbest`` and the hands."""
    turn = 0
    for j in range(m):
        s = seat(nxt, np.uint64(base + j))
        u = np.uint64(s)
        c = run_share(abest, j, jbest)
        a0, a1, a2 = drop(seat(h0, u), seat(h1, u), seat(h2, u), c)
        h0, h1, h2 = with_seat(h0, u, a0), with_seat(h1, u, a1), with_seat(h2, u, a2)
        ln = with_seat(ln, u, seat(ln, u) - c)
        turn = s if j == jbest else turn
    return turn, h0, h1, h2, ln


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def _plain_run(h0, h1, h2, ln, nxt, base, m, empty_end):
    """`_scan` then `_advance`: play the run; returns (cards played, the seat of its event, the hands)."""
    abest, jbest = _scan(h0, h1, h2, ln, nxt, base, m, empty_end)
    turn, h0, h1, h2, ln = _advance(h0, h1, h2, ln, nxt, base, m, abest, jbest)
    return abest * m + jbest, turn, h0, h1, h2, ln


@njit(nogil=True, cache=True)
def new_table(n):
    """A `Table` for ``n`` seats (the deal goes into ``p0, p1, p2, ln``)."""
    z = np.zeros(n, dtype=np.uint64)
    zi = np.zeros(n, dtype=np.int64)
    return Table(z.copy(), z.copy(), z.copy(), zi.copy(), np.zeros(4 * n, dtype=np.int64), zi.copy(), zi.copy(),
                 zi.copy(), np.zeros(1 + 4 * n, dtype=np.uint64))


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def play_multi(t, o, stream):
    """Play the deal in the `Table` ``t`` (planes ``p0, p1, p2`` and lengths ``ln``); seat 0 leads.

    The arrays are modified in place; ``min_cards``, ``out_cards``, ``place`` receive the per-seat
    figures (place of the winner included). ``o`` is the options record of every fast pass
    (`options.Options`: ``step`` 1 or n - 1, ``end`` END_*, ``limit`` the cut-off (NO_LIMIT: none),
    ``leader`` LEADER_*, ...); a record of constants (`options.folded`) compiles a version of its own.
    Returns a `MultiResult`; FALLBACK means "replay this game with the exact driver" (a loop, the
    cut-off, or an unusual start).
    """
    return _play(t, o.step, o.end, o.passes_on, o.beggar, o.shuffle, o.detect, o.limit, o.leader, stream)


@njit(nogil=True, cache=True, _nrt=False)
def _play(t, step, end, passes_on, beggar_mode, shuffle, detect, limit, leader_rule, stream):
    """`play_multi`, the record's fields as arguments one by one (its only caller is `play_multi`,
    inlined), in the order of efde310's `play_multi` arguments. Why one by one, and why this order:
    LLVM allocates the registers of this loop by its arguments. With the record as one argument the
    loop took 1.1% more instructions on three-player games (128.3 M against 126.9 M on 20,000 games,
    callgrind), and the record's own fields put in this order moved 0.7-1.1% onto the other rows
    (benchmarks/README.md, issue #41); so an argument added here, or moved, is counted again with
    `benchmarks/instructions.py` before it is kept. A field given as a constant stays one here, and in
    the record `_two_left` hands to `play_two` (`options.record`). A negative ``limit`` hands the game
    back at its first cut-off test (`rulebook.cut_off`), never plays it for ever. The table's arrays
    are changed in place (`seats`), so the loop's table is the one it was given."""
    res, g, t = start_multi(t, step)
    while res.status == GOING:
        res, g, t = trick_multi(t, g, step, end, passes_on, beggar_mode, shuffle, detect, limit, leader_rule, stream)
    if res.status == TWO_LEFT:
        o = record(end, beggar_mode, detect, shuffle, limit, step, passes_on, leader_rule)
        return _two_left(res.winner, t, g.left, o, stream, g.cards, g.tricks)
    return res


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def _put(h0, h1, h2, u, a0, a1, a2):
    """The planes of every seat with seat ``u``'s set to ``a0, a1, a2``."""
    return with_seat(h0, u, a0), with_seat(h1, u, a1), with_seat(h2, u, a2)


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def start_multi(t, step):
    """The state (`MultiGame`) of the game dealt into the `Table` ``t`` (planes ``p0, p1, p2`` and
    lengths ``ln``; seat 0 leads) before its first trick, and the table with its other values set
    (every seat in, the ring of seats for the direction ``step``, the per-seat figures), with its
    `MultiResult`: GOING, or FALLBACK for an empty hand at the deal (the exact driver plays it).
    Returns (result, state, table)."""
    h0, h1, h2, ln, nxt, minc, outc, place, snap = t
    n = len(h0)
    left = 0
    for s in range(n):
        u = np.uint64(s)
        minc = with_seat(minc, u, seat(ln, u))
        outc = with_seat(outc, u, -1)
        place = with_seat(place, u, -1)
        if seat(ln, u) > 0:
            left += 1
    g = MultiGame(0, 0, 0, n, 1, 1)  # seats still in: also the place the next seat out gets
    if left < n:
        # an empty hand at the deal: leave it to the exact kernel
        return MultiResult(FALLBACK, 0, 0, -1), g, Table(h0, h1, h2, ln, nxt, minc, outc, place, snap)
    nxt = kept(_ring(place, nxt, step, n)[0], nxt)
    snap = with_seat(snap, 0, np.uint64(n))  # no snapshot yet: the first comparison fails
    return MultiResult(GOING, 0, 0, -1), g, Table(h0, h1, h2, ln, nxt, minc, outc, place, snap)


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def _after(new, old):
    """The table ``new`` that a call not inlined (`_won`, `_empty_win`) made of ``old``, field by field as
    `seats.kept` takes it: on the CPU ``old``'s arrays, which the compiler then knows unchanged."""
    return Table(kept(new.p0, old.p0), kept(new.p1, old.p1), kept(new.p2, old.p2), kept(new.ln, old.ln),
                 kept(new.nxt, old.nxt), kept(new.min_cards, old.min_cards), kept(new.out_cards, old.out_cards),
                 kept(new.place, old.place), kept(new.snap, old.snap))


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def _ended(res, g, t):
    """`trick_multi`'s return at the end of a game decided in `_won` or `_empty_win`: ``res`` (DONE or
    FALLBACK), the state ``g`` and the table ``t``, the status a constant on each path. Those two are not
    inlined, so LLVM cannot see that their status ends the game, and their returns ran back through the
    test of `_play`'s loop, a second way into the trick; with the constants every end leaves the loop
    (issue #53 item 8)."""
    if res.status == DONE:
        return MultiResult(DONE, res.cards, res.tricks, res.winner), g, t
    return MultiResult(FALLBACK, res.cards, res.tricks, -1), g, t


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def trick_multi(t, g, step, end, passes_on, beggar_mode, shuffle, detect, limit, leader_rule, stream):
    """One trick of the game in the `Table` ``t`` and the state ``g`` (`MultiGame`), the options as
    `_play` takes them: from the lead to the pile taken, then the players out, the next leader, the
    loop check and the end of the game. Returns (`MultiResult`, the state after the trick, the table):
    status GOING while the game goes on, DONE (won: final, the table holds the per-seat figures),
    FALLBACK (replay with the exact driver), or TWO_LEFT: two seats left, both holding cards, ``winner``
    the one to lead - the rest of the game is a two-player game (`kernel_two`). The step every caller
    shares: `_play` loops over it, the GPU's refill kernels call it once a loop step. The table's
    values are read with `seats.seat` and written with `seats.with_seat`: arrays changed in place on
    the CPU, tuples in registers on the GPU."""
    h0, h1, h2, ln, nxt, minc, outc, place, snap = t
    n = len(h0)
    empty_end = sole_holder_wins(end)
    out_at_end = out_at_trick_end(end)
    cards, tricks, leader, left, power, lam = g
    # ---------------- one trick ----------------
    turn = leader
    owed = 0
    claim = -1
    beg = False
    L = 0
    q0 = _ZERO
    q1 = _ZERO
    q2 = _ZERO
    taker = -1
    lapsed = False
    while True:
        if owed == 0:
            # plain play round the table. Fixed trip counts and selects instead of early
            # exits: the branches here are data-dependent and mispredictions dominated.
            m = left
            base = n + seat(nxt, np.uint64(3 * n + turn))
            # the number of seats as a constant where it is common: unrolled, no loop branches
            if m == 3:
                k, turn, h0, h1, h2, ln = _plain_run(h0, h1, h2, ln, nxt, base, 3, empty_end)
            elif m == 4:
                k, turn, h0, h1, h2, ln = _plain_run(h0, h1, h2, ln, nxt, base, 4, empty_end)
            elif m == 5:
                k, turn, h0, h1, h2, ln = _plain_run(h0, h1, h2, ln, nxt, base, 5, empty_end)
            elif m == 6:
                k, turn, h0, h1, h2, ln = _plain_run(h0, h1, h2, ln, nxt, base, 6, empty_end)
            else:
                k, turn, h0, h1, h2, ln = _plain_run(h0, h1, h2, ln, nxt, base, m, empty_end)
            if cut_off(cards + k + 1, limit):
                # (the hands are already advanced: the caller replays the game from its deal)
                return (MultiResult(FALLBACK, cards, tricks, -1), g,
                        Table(h0, h1, h2, ln, nxt, minc, outc, place, snap))
            L += k
            cards += k
        elif not beg and not empty_end:
            # the whole tribute in one step: the payer's first penalty card, run-out or payment
            u = np.uint64(turn)
            h = seat(ln, u)
            a0, a1, a2 = seat(h0, u), seat(h1, u), seat(h2, u)
            cp = next_demand_at(a0, a1, a2, False)
            if cp < owed:
                if cut_off(cards + cp + 1, limit):
                    return (MultiResult(FALLBACK, cards, tricks, -1), g,
                            Table(h0, h1, h2, ln, nxt, minc, outc, place, snap))
                v, a0, a1, a2, q0, q1, q2 = lay_at(a0, a1, a2, cp, q0, q1, q2, L)
                h0, h1, h2 = _put(h0, h1, h2, u, a0, a1, a2)
                ln = with_seat(ln, u, h - cp - 1)
                L += cp + 1
                cards += cp + 1
                claim = turn
                owed = np.int64(v)
                beg = owed_to_beggar(owed, beggar_mode)
                turn = seat(nxt, u)
                continue
            if h >= owed:
                if cut_off(cards + owed, limit):
                    return (MultiResult(FALLBACK, cards, tricks, -1), g,
                            Table(h0, h1, h2, ln, nxt, minc, outc, place, snap))
                a0, a1, a2, q0, q1, q2 = pay(a0, a1, a2, owed, q0, q1, q2, L, False)
                h0, h1, h2 = _put(h0, h1, h2, u, a0, a1, a2)
                ln = with_seat(ln, u, h - owed)
                L += owed
                cards += owed
                taker = claim
                break
            # runs out: plays its h cards, then cannot play (the one-card step below)
            if cut_off(cards + h, limit):
                return (MultiResult(FALLBACK, cards, tricks, -1), g,
                        Table(h0, h1, h2, ln, nxt, minc, outc, place, snap))
            a0, a1, a2, q0, q1, q2 = pay(a0, a1, a2, h, q0, q1, q2, L, False)
            h0, h1, h2 = _put(h0, h1, h2, u, a0, a1, a2)
            ln = with_seat(ln, u, 0)
            owed -= h
            L += h
            cards += h
        else:
            # the payer's cards that cannot matter
            u = np.uint64(turn)
            h = seat(ln, u)
            k = owed - 1
            c = next_demand_at(seat(h0, u), seat(h1, u), seat(h2, u), beg)
            if c < k:
                k = c
            lim = h - 1 if empty_end else h
            if lim < k:
                k = lim
            if k > 0:
                if cut_off(cards + k + 1, limit):
                    return (MultiResult(FALLBACK, cards, tricks, -1), g,
                            Table(h0, h1, h2, ln, nxt, minc, outc, place, snap))
                a0, a1, a2, q0, q1, q2 = pay(seat(h0, u), seat(h1, u), seat(h2, u), k, q0, q1, q2, L, beg)
                h0, h1, h2 = _put(h0, h1, h2, u, a0, a1, a2)
                ln = with_seat(ln, u, h - k)
                owed -= k
                L += k
                cards += k
        # one card, or a player who must play and cannot
        u = np.uint64(turn)
        if seat(ln, u) == 0:
            after = seat(nxt, u)
            minc = with_seat(minc, u, 0)
            snap = with_seat(snap, 0, np.uint64(n))  # no leader: the next comparison fails, then a new snapshot
            lam = power
            outc = with_seat(outc, u, cards)
            place = with_seat(place, u, left)
            left -= 1
            nxt = kept(_ring(place, nxt, step, n)[0], nxt)
            if left == 1:
                w = after
                for s in range(n):
                    if seat(place, np.uint64(s)) < 0:
                        w = s
                res, h0, h1, h2, ln, minc, place = _won(w, L, q0, q1, q2, h0, h1, h2, ln, minc, place, cards,
                                                        tricks, limit)
                return _ended(res, g, _after(Table(h0, h1, h2, ln, nxt, minc, outc, place, snap), t))
            if owed > 0 and lapses(passes_on):
                taker = claim
                lapsed = True
                break
            turn = after
            continue
        v, a0, a1, a2, q0, q1, q2 = lay_top(seat(h0, u), seat(h1, u), seat(h2, u), q0, q1, q2, L)
        h0, h1, h2 = _put(h0, h1, h2, u, a0, a1, a2)
        ln = with_seat(ln, u, seat(ln, u) - 1)
        L += 1
        cards += 1
        card = np.int64(v)
        if demand(card, beg) > 0:
            claim = turn
            owed = card
            beg = owed_to_beggar(card, beggar_mode)
            turn = seat(nxt, u)
        elif owed > 0:
            owed -= 1
            if owed == 0:
                taker = claim
                break
        else:
            turn = seat(nxt, u)
        if empty_end and seat(ln, u) == 0:  # (u: the seat that played)
            holder = _sole_holder(ln, n)
            if holder >= 0:
                res, outc, place, h0, h1, h2, ln, minc = _empty_win(holder, outc, place, left, L, q0, q1,
                                                                         q2, h0, h1, h2, ln, minc, cards, tricks,
                                                                         limit)
                return _ended(res, g, _after(Table(h0, h1, h2, ln, nxt, minc, outc, place, snap), t))
        if cut_off(cards, limit):
            return MultiResult(FALLBACK, cards, tricks, -1), g, Table(h0, h1, h2, ln, nxt, minc, outc, place, snap)
    # ---------------- the pile is taken: a trick boundary ----------------
    q0, q1, q2 = pile_as_taken(q0, q1, q2, L, shuffle, stream)
    u = np.uint64(taker)
    a0, a1, a2 = under(seat(h0, u), seat(h1, u), seat(h2, u), seat(ln, u), q0, q1, q2)
    h0, h1, h2 = _put(h0, h1, h2, u, a0, a1, a2)
    ln = with_seat(ln, u, seat(ln, u) + L)
    tricks += 1
    k = 0
    m = left
    for j in range(m):
        # only the seats still in (one out holds nothing and has its minimum 0); selects, not
        # branches: whose minimum moves is data-dependent
        us = np.uint64(seat(nxt, np.uint64(n + j)))
        x = seat(ln, us)
        mo = seat(minc, us)
        minc = with_seat(minc, us, x if x < mo else mo)
        k += 1 if x == 0 else 0
    if out_at_end:
        if k > 0:
            pl = left - k + 1
            for s in range(n):
                us = np.uint64(s)
                if seat(place, us) < 0 and seat(ln, us) == 0:
                    outc = with_seat(outc, us, cards)
                    place = with_seat(place, us, pl)
            left -= k
            nxt = kept(_ring(place, nxt, step, n)[0], nxt)
            snap = with_seat(snap, 0, np.uint64(n))
            lam = power
            if left == 1:
                if cut_off(cards, limit + 1):  # cut off only past the limit card's own consequences
                    return (MultiResult(FALLBACK, cards, tricks, -1), g,
                            Table(h0, h1, h2, ln, nxt, minc, outc, place, snap))
                place = with_seat(place, u, 1)  # (u: the taker)
                return MultiResult(DONE, cards, tricks, taker), g, Table(h0, h1, h2, ln, nxt, minc, outc, place,
                                                                          snap)
    # the next trick's leader; ``turn`` is the last payer (``nxt`` names the next seat still in
    # after any seat, in or out)
    leader = next_leader(leader_rule, taker, seat(nxt, np.uint64(turn)))
    if detect and tricks >= _BRENT_FROM:
        # Brent on the seats still in; a player going out restarts it (lam = power above): a
        # state with fewer players never repeats one with more
        m = left
        diff = counts_differ(seat(snap, 0), leader)
        for j in range(m):
            s = seat(nxt, np.uint64(n + j))
            us = np.uint64(s)
            i4 = np.uint64(1 + 4 * s)
            diff |= (counts_differ(seat(snap, i4), seat(ln, us))
                     | planes_differ(seat(snap, i4 + _ONE), seat(snap, i4 + np.uint64(2)), seat(snap, i4 + np.uint64(3)),
                                     seat(h0, us), seat(h1, us), seat(h2, us)))
        if diff == _ZERO:
            return MultiResult(FALLBACK, cards, tricks, -1), g, Table(h0, h1, h2, ln, nxt, minc, outc, place, snap)
        if snapshot_due(power, lam):
            snap = with_seat(snap, 0, np.uint64(leader))
            for j in range(m):
                s = seat(nxt, np.uint64(n + j))
                us = np.uint64(s)
                i4 = np.uint64(1 + 4 * s)
                snap = with_seat(snap, i4, np.uint64(seat(ln, us)))
                snap = with_seat(snap, i4 + _ONE, seat(h0, us))
                snap = with_seat(snap, i4 + np.uint64(2), seat(h1, us))
                snap = with_seat(snap, i4 + np.uint64(3), seat(h2, us))
            power, lam = widen(power)
        lam += 1
    t = Table(h0, h1, h2, ln, nxt, minc, outc, place, snap)
    if empty_end and not lapsed:
        holder = _sole_holder(ln, n)
        if holder >= 0:
            res, outc, place, h0, h1, h2, ln, minc = _empty_win(holder, outc, place, left, 0, _ZERO, _ZERO,
                                                                     _ZERO, h0, h1, h2, ln, minc, cards, tricks, limit)
            return _ended(res, g, _after(Table(h0, h1, h2, ln, nxt, minc, outc, place, snap), t))
    if cut_off(cards, limit):
        return MultiResult(FALLBACK, cards, tricks, -1), g, t
    if left == 2:
        # two players left (most of the late game): the rest of it in the register loop of
        # `kernel_two`, which plays a two-player game from any state (its own loop check)
        ul = np.uint64(leader)
        if seat(ln, ul) > 0 and seat(ln, np.uint64(seat(nxt, ul))) > 0:
            return MultiResult(TWO_LEFT, cards, tricks, leader), MultiGame(cards, tricks, leader, left, power, lam), t
    return MultiResult(GOING, cards, tricks, -1), MultiGame(cards, tricks, leader, left, power, lam), t


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def _two_left(a, t, left, o, stream, cards, tricks):
    """Finish a game with two seats left, ``a`` the leader, in `play_two` (the table's arrays
    completed in place)."""
    h, other = two_left_hands(t, a)
    res, _ = two_left_result(play_two(h, other, with_limit(o, o.limit - cards), stream), a, t, left, cards, tricks)
    return res


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def two_left_hands(t, a):
    """The hands (planes, length) of the two seats left, ``a`` (the leader) and the next, as a
    two-player pass takes them."""
    ua = np.uint64(a)
    ub = np.uint64(seat(t.nxt, ua))
    return ((seat(t.p0, ua), seat(t.p1, ua), seat(t.p2, ua), np.int64(seat(t.ln, ua))),
            (seat(t.p0, ub), seat(t.p1, ub), seat(t.p2, ub), np.int64(seat(t.ln, ub))))


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def two_left_result(res, a, t, left, cards, tricks):
    """The game's `MultiResult` once its two-player finish (from `two_left_hands`, after ``cards`` and
    ``tricks``) has given the `kernel_two.TwoResult` ``res``, and the table with its per-seat figures
    completed."""
    h0, h1, h2, ln, nxt, minc, outc, place, snap = t
    st, c2, t2, w2, m0, m1, oc = res
    if st == FALLBACK:
        return MultiResult(FALLBACK, cards, tricks, -1), t
    ua = np.uint64(a)
    b = seat(nxt, ua)
    ub = np.uint64(b)
    total = seat(ln, ua) + seat(ln, ub)
    if m0 < seat(minc, ua):
        minc = with_seat(minc, ua, m0)
    if m1 < seat(minc, ub):
        minc = with_seat(minc, ub, m1)
    w = a if w2 == 0 else b
    lo = b if w2 == 0 else a
    ulo = np.uint64(lo)
    uw = np.uint64(w)
    ln = with_seat(ln, uw, total)
    ln = with_seat(ln, ulo, 0)
    outc = with_seat(outc, ulo, cards + oc)
    place = with_seat(place, ulo, left)
    place = with_seat(place, uw, 1)
    return MultiResult(DONE, cards + c2, tricks + t2, w), Table(h0, h1, h2, ln, nxt, minc, outc, place, snap)


@njit(nogil=True, cache=True, _nrt=False)
def _sole_holder(ln, n):
    """The only seat of ``n`` holding cards, or -1 if none or several do."""
    holder = -1
    for s in range(n):
        if seat(ln, np.uint64(s)) > 0:
            if holder >= 0:
                return -1
            holder = s
    return holder


@njit(nogil=True, cache=True, _nrt=False)
def _won(w, L, q0, q1, q2, h0, h1, h2, ln, minc, place, cards, tricks, limit):
    """The last player in wins and takes the pile (a trick if it holds any card). Returns the result
    and the values it changed: (result, h0, h1, h2, ln, minc, place)."""
    # a win decided by the consequences of the limit card itself stands (RULES.md): cut off only past them
    if cut_off(cards, limit + 1):
        return MultiResult(FALLBACK, cards, tricks, -1), h0, h1, h2, ln, minc, place
    u = np.uint64(w)
    if L > 0:
        a0, a1, a2 = under(seat(h0, u), seat(h1, u), seat(h2, u), seat(ln, u), q0, q1, q2)
        h0, h1, h2 = _put(h0, h1, h2, u, a0, a1, a2)
        ln = with_seat(ln, u, seat(ln, u) + L)
        tricks += 1
        for s in range(len(h0)):
            us = np.uint64(s)
            if seat(ln, us) < seat(minc, us):
                minc = with_seat(minc, us, seat(ln, us))
    place = with_seat(place, u, 1)
    return MultiResult(DONE, cards, tricks, w), h0, h1, h2, ln, minc, place


@njit(nogil=True, cache=True, _nrt=False)
def _empty_win(holder, outc, place, left, L, q0, q1, q2, h0, h1, h2, ln, minc, cards, tricks,
               limit):
    """End `empty`: the sole holder wins; the others still in go out together. Returns the result and
    the values it changed: (result, outc, place, h0, h1, h2, ln, minc)."""
    k = 0
    for s in range(len(h0)):
        if seat(place, np.uint64(s)) < 0 and s != holder:
            k += 1
    pl = left - k + 1
    for s in range(len(h0)):
        us = np.uint64(s)
        if seat(place, us) < 0 and s != holder:
            outc = with_seat(outc, us, cards)
            place = with_seat(place, us, pl)
    res, h0, h1, h2, ln, minc, place = _won(holder, L, q0, q1, q2, h0, h1, h2, ln, minc, place, cards, tricks, limit)
    return res, outc, place, h0, h1, h2, ln, minc
