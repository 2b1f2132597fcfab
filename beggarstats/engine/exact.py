"""The exact driver: every rule of docs/RULES.md, one card (or one run of plain cards) at a time.

Written once against the named game state (`state.py`) and compiled for each way of holding
hands: ring buffers (`RingGame`, any deck) and bit-planes (`BitsGame`, at most 64 cards), whose
card moves come through `hands.py`. The rules themselves are asked of `rulebook.py`. It plays the
games the fast passes hand back (a loop, a cut-off, an unusual start) and every game of a deck
too large for the planes; `batch.py` holds the loops over a batch.

Loop detection is exact and memory-cheap: Brent's algorithm (`brent.py`) on trick-boundary states,
comparing full states (who leads, who is in, every hand). Brent notices a cycle some boundaries
after the first repeat ``R``; the cycle start ``mu`` is then found by a second pass (two copies of
the game from the deal, ``lam`` tricks apart, stepped together until their states agree), and a
last pass replays the game to ``R`` so every figure is the one at ``R``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .kernel_cache import install as _install_kernel_cache
from . import hands
from .brent import snapshot_due, widen
from .constants import (
    C_CUT, C_LAPSED, C_PAID, C_WIN, CUTOFF, LOOP, NO_LIMIT, R_CARDS, R_LOOP_CARDS, R_LOOP_START_CARDS,
    R_LOOP_START_TRICKS, R_LOOP_TRICKS, R_LOOPED, R_OUTCOME, R_TRICKS, R_WINNER, SEAT_MIN, SEAT_OUT, SEAT_PLACE,
    U32_ROWS, WIN,
)
from .rulebook import (
    cut_off, demand, lapses, most_cards_winner, next_in_game, next_leader, out_at_trick_end, owed_to_beggar,
    sole_holder_wins,
)
from .state import (
    CUT_CARDS, CUT_HELD, CUT_MIN, CUT_OUT, CUT_PLACE, CUT_SET, CUT_TRICKS, S_BEG, S_CARDS, S_CLAIM,
    S_INTRICK, S_LEADER, S_LEFT, S_OVER, S_OWED, S_PLEN, S_RECORD, S_SHUF, S_TRICKS, S_TURN, S_WINNER, SCALARS,
    cut_slot,
)

__all__ = ["reset", "play_trick", "play_one", "step_boundary", "check_empty_end", "play_to"]

_install_kernel_cache()  # compiled kernels go to the per-user cache (kernel_cache.py)


@njit(nogil=True, cache=True, _nrt=False)
def reset(G, deal):
    """Set ``G`` to the deal (its representation's arrays, hand lengths last); seat 0 leads."""
    hands.load_deal(G, deal)
    dl = deal[-1]
    for s in range(G.ln.shape[0]):
        G.ln[s] = dl[s]
        G.in_game[s] = 1
        G.min_cards[s] = dl[s]
        G.out_cards[s] = -1
        G.place[s] = -1
    sc = G.sc
    for k in range(SCALARS):
        sc[k] = 0
    sc[S_WINNER] = -1
    sc[S_LEFT] = G.ln.shape[0]
    sc[S_RECORD] = 1


# -- taking the pile, going out, winning ------------------------------------------------------------
@njit(nogil=True, cache=True, _nrt=False)
def _append_pile(G, taker, stream):
    """A trick: the pile goes under the taker's hand (shuffled first when shuffling)."""
    sc = G.sc
    hands.pile_under(G, taker, sc[S_SHUF] != 0, stream)
    sc[S_PLEN] = 0
    sc[S_TRICKS] += 1
    sc[S_LEADER] = taker
    sc[S_INTRICK] = 0
    if sc[S_RECORD]:
        for s in range(G.ln.shape[0]):
            if G.ln[s] < G.min_cards[s]:
                G.min_cards[s] = G.ln[s]


@njit(nogil=True, cache=True, _nrt=False)
def _finish(G, winner, stream):
    """The last player in wins and takes the pile (a trick if it holds any card)."""
    G.sc[S_WINNER] = winner
    G.sc[S_OVER] = 1
    if G.sc[S_PLEN] > 0:
        _append_pile(G, winner, stream)


@njit(nogil=True, cache=True, _nrt=False)
def _left_one(G, stream):
    if G.sc[S_LEFT] == 1:
        for s in range(G.ln.shape[0]):
            if G.in_game[s]:
                _finish(G, s, stream)
                break


@njit(nogil=True, cache=True, _nrt=False)
def _go_out_together(G, k, keep, stream):
    """The ``k`` players still in with empty hands (every player still in but ``keep`` when
    ``keep >= 0``) are out together and share a place."""
    sc = G.sc
    pl = sc[S_LEFT] - k + 1
    for s in range(G.ln.shape[0]):
        if G.in_game[s] and ((keep < 0 and G.ln[s] == 0) or (keep >= 0 and s != keep)):
            G.in_game[s] = 0
            if sc[S_RECORD]:
                G.out_cards[s] = sc[S_CARDS]
                G.place[s] = pl
    sc[S_LEFT] -= k
    _left_one(G, stream)


@njit(nogil=True, cache=True, _nrt=False)
def _go_out_one(G, seat, stream):
    """``seat`` must play and cannot: out."""
    sc = G.sc
    G.in_game[seat] = 0
    if sc[S_RECORD]:
        G.out_cards[seat] = sc[S_CARDS]
        G.place[seat] = sc[S_LEFT]
    sc[S_LEFT] -= 1
    _left_one(G, stream)


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def _take_pile(G, taker, last_payer, o, stream):
    """A trick is taken: players out at its end, then the next trick's leader. Inlined, as
    `check_empty_end`: called with the options record (ten fields), they cost the exact driver on ring
    buffers 4.5% more instructions a card than with the parameter array (6daff1f); inlined, 7.2% fewer
    (callgrind, 2,000 three-player games of 104 cards; benchmarks/README.md, issue #53)."""
    _append_pile(G, taker, stream)
    if out_at_trick_end(o.end):
        k = 0
        for s in range(G.ln.shape[0]):
            if G.in_game[s] and G.ln[s] == 0:
                k += 1
        if k:
            _go_out_together(G, np.int64(k), np.int64(-1), stream)
    if not G.sc[S_OVER]:
        G.sc[S_LEADER] = next_leader(o.leader, taker, next_in_game(G.in_game, last_payer, o.step))


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def check_empty_end(G, o, stream):
    """End 'empty': if exactly one player holds cards, the others still in are out (``o``: the
    options record, `options.Options`)."""
    if not sole_holder_wins(o.end) or G.sc[S_OVER]:
        return
    holders = 0
    holder = -1
    for s in range(G.ln.shape[0]):
        if G.ln[s] > 0:
            holders += 1
            holder = s
    if holders == 1:
        k = 0
        for s in range(G.ln.shape[0]):
            if G.in_game[s] and s != holder:
                k += 1
        if k:
            _go_out_together(G, np.int64(k), np.int64(holder), stream)


# -- one trick ---------------------------------------------------------------------------------------
@njit(nogil=True, cache=True, _nrt=False)
def play_trick(G, o, stream, limit):
    """Play on (from the lead, or resuming a trick stopped at a cut-off) until a pile is taken,
    the game is won, or ``limit`` cards have been played.

    Returns C_PAID (tribute paid, pile taken: the caller checks loop, then empty-end and cut-off),
    C_LAPSED (an exhausted tribute lapsed and the claimant took the pile: the caller checks the
    loop only), C_WIN (game over) or C_CUT (``limit`` reached mid-trick, game not over).
    """
    sc = G.sc
    step = o.step
    beggar_mode = o.beggar
    empty_end = sole_holder_wins(o.end)
    if sc[S_INTRICK] == 0:
        sc[S_INTRICK] = 1
        sc[S_TURN] = sc[S_LEADER]
        sc[S_OWED] = 0
        sc[S_CLAIM] = -1
        sc[S_BEG] = 0
    turn = sc[S_TURN]
    owed = sc[S_OWED]
    claim = sc[S_CLAIM]
    beg = sc[S_BEG] != 0
    while True:
        turn, owed = hands.skip_plain(G, turn, owed, beg, limit, step, empty_end)
        if G.ln[turn] == 0:
            # must play and cannot: out
            _go_out_one(G, turn, stream)
            if sc[S_OVER]:
                return C_WIN
            if owed > 0 and lapses(o.passes_on):
                _take_pile(G, claim, turn, o, stream)
                if sc[S_OVER]:
                    return C_WIN
                return C_LAPSED
            turn = next_in_game(G.in_game, turn, step)
            continue
        card = hands.play_top(G, turn)
        sc[S_CARDS] += 1
        tribute = demand(card, beg)
        if tribute > 0:
            claim = turn
            owed = tribute
            beg = owed_to_beggar(card, beggar_mode)
            turn = next_in_game(G.in_game, turn, step)
        elif owed > 0:
            owed -= 1
            if owed == 0:
                _take_pile(G, claim, turn, o, stream)
                if sc[S_OVER]:
                    return C_WIN
                return C_PAID
        else:
            turn = next_in_game(G.in_game, turn, step)
        if empty_end:
            check_empty_end(G, o, stream)
            if sc[S_OVER]:
                return C_WIN
        if cut_off(sc[S_CARDS], limit):
            sc[S_TURN] = turn
            sc[S_OWED] = owed
            sc[S_CLAIM] = claim
            sc[S_BEG] = 1 if beg else 0
            return C_CUT


@njit(nogil=True, cache=True, _nrt=False)
def step_boundary(G, o, stream):
    """Deterministic play to the next trick boundary, no limit. Returns True if the game ended."""
    code = play_trick(G, o, stream, NO_LIMIT)
    if code == C_WIN:
        return True
    if code == C_PAID:
        check_empty_end(G, o, stream)
        if G.sc[S_OVER]:
            return True
    return False


@njit(nogil=True, cache=True, _nrt=False)
def play_to(G, deal, o, stream, horizon, i, out_cards, out_over, out_leader, out_held):
    """Play the deal from one trick boundary to the first at or after ``horizon`` cards (or the end of the
    game), deterministic play, and write where it got to at row ``i``: cards played, whether the game
    ended, the seat to lead next, each seat's cards (the uneven deals' stretches: `uneven_play`,
    `uneven_kinds`)."""
    reset(G, deal)
    check_empty_end(G, o, stream)
    over = G.sc[S_OVER] != 0
    while not over and G.sc[S_CARDS] < horizon:
        over = step_boundary(G, o, stream)
    out_cards[i] = G.sc[S_CARDS]
    out_over[i] = over
    out_leader[i] = G.sc[S_LEADER]
    for j in range(G.ln.shape[0]):
        out_held[i, j] = G.ln[j]


# -- one game, from the deal to its end -------------------------------------------------------------
@njit(nogil=True, cache=True, _nrt=False)
def _save_cut(G, cut):
    """The figures at the cut-off: cards, tricks, then per seat cards held, min_cards, out_cards, place."""
    n = G.ln.shape[0]
    cut[CUT_SET] = 1
    cut[CUT_CARDS] = G.sc[S_CARDS]
    cut[CUT_TRICKS] = G.sc[S_TRICKS]
    for s in range(n):
        cut[cut_slot(CUT_HELD, n, s)] = G.ln[s]
        cut[cut_slot(CUT_MIN, n, s)] = G.min_cards[s]
        cut[cut_slot(CUT_OUT, n, s)] = G.out_cards[s]
        cut[cut_slot(CUT_PLACE, n, s)] = G.place[s]


@njit(nogil=True, cache=True, _nrt=False)
def _cut_here(G, cut):
    """The cut-off is reached: save the figures, stop recording (play may go on to look for a loop
    that starts before it). Returns the tricks played."""
    _save_cut(G, cut)
    G.sc[S_RECORD] = 0
    return G.sc[S_TRICKS]


@njit(nogil=True, cache=True, _nrt=False)
def _run(G, o, stream, limit, stop_r, detect, cut, snap):
    """Play the game in ``G`` from its deal.

    ``stop_r >= 0``: boundary ``stop_r`` is the first repeated state (loop, or start of shuffling
    under shuffle_on_loop). ``detect``: run Brent's algorithm; keep playing past the cut-off (not
    recording) until a loop is found or it is certain none is reached before the cut-off.
    ``cut`` (int64[state.cut_size(n)], slots `state.cut_slot`) receives the figures at the cut-off.
    Returns the cycle length found by Brent (0: none).
    """
    sc = G.sc
    check_empty_end(G, o, stream)
    if sc[S_OVER]:
        return 0
    power = 1
    lam = 1
    if detect:
        hands.save_state(G, snap)
    cut_done = False
    t_cut = 0
    while True:
        code = play_trick(G, o, stream, NO_LIMIT if cut_done else limit)
        if code == C_WIN:
            return 0
        if code == C_CUT:
            t_cut = _cut_here(G, cut)
            cut_done = True
            if not detect:
                return 0
            continue
        idx = sc[S_TRICKS]
        if idx == stop_r:
            if o.shuffle_on_loop:
                sc[S_SHUF] = 1
            else:
                return 0
        if detect:
            if hands.same_state(G, snap):
                return lam
            if snapshot_due(power, lam):
                hands.save_state(G, snap)
                power, lam = widen(power)
            lam += 1
        if code == C_PAID:
            check_empty_end(G, o, stream)
            if sc[S_OVER]:
                return 0
            if not cut_done and cut_off(sc[S_CARDS], limit):
                t_cut = _cut_here(G, cut)
                cut_done = True
                if not detect:
                    return 0
        if cut_done and idx > 3 * t_cut + 3:
            # Brent finds a cycle whose first repeat R has R <= t_cut by boundary 3R at the latest.
            return 0


@njit(nogil=True, cache=True, _nrt=False)
def _find_mu(GA, GB, deal, lam, o, stream):
    """Cycle start: two copies from the deal, ``lam`` boundaries apart, stepped until equal.
    Returns (mu, cards at mu, cards at mu + lam)."""
    reset(GA, deal)
    reset(GB, deal)
    GA.sc[S_RECORD] = 0
    GB.sc[S_RECORD] = 0
    check_empty_end(GA, o, stream)
    check_empty_end(GB, o, stream)
    for _ in range(lam):
        step_boundary(GB, o, stream)
    mu = 0
    while not hands.same_games(GA, GB):
        step_boundary(GA, o, stream)
        step_boundary(GB, o, stream)
        mu += 1
    return mu, GA.sc[S_CARDS], GB.sc[S_CARDS]


# The replay passes typed values (np.int64(-1), np.bool_(...)), not literals, to `_run`: numba
# compiles a function once per distinct literal argument, and this rare path gains nothing from
# the specialisations (benchmarks/cold_start.py).
@njit(nogil=True, cache=True, _nrt=False)
def play_one(deal, stream, o, G, GB, snap, cut, saved, i, out_u32, out_small, seat_out, per_seat):
    """Play one deal and write its figures to row ``i`` of the result arrays.

    ``deal``: the representation's deal arrays (`reset`). ``o``: the options record (`options.options_of`:
    the loop search and the cut-off as the fast passes read them). ``stream`` (uint64[4]): the game's
    random stream positioned after the deal (only the shuffle variants draw from it); ``saved``
    uint64[4] scratch. ``out_u32`` uint32[6, n_games]: cards, tricks, loop_start_tricks,
    loop_start_cards, loop_tricks, loop_cards. ``out_small`` int8[3, n_games]: outcome, winner,
    looped. ``seat_out`` int64[n_games, 3, n]: min_cards, place, out_cards (when ``per_seat``).
    """
    sc = G.sc
    n = G.ln.shape[0]
    limit = o.limit
    cut[CUT_SET] = 0
    reset(G, deal)
    lam = 0
    if o.shuffle:
        sc[S_SHUF] = 1  # every pile taken is shuffled
    if not o.detect:  # no loop search (a shuffled pile: `options.loop_search`)
        _run(G, o, stream, limit, np.int64(-1), np.bool_(False), cut, snap)
    else:
        if o.shuffle_on_loop:
            for k in range(4):
                saved[k] = stream[k]
        lam = _run(G, o, stream, limit, np.int64(-1), np.bool_(True), cut, snap)
    mu = 0
    c_mu = 0
    c_r = 0
    looped = False
    if lam > 0:
        mu, c_mu, c_r = _find_mu(GB, G, deal, lam, o, stream)
        if c_r <= limit:
            looped = True
            cut[CUT_SET] = 0
            if o.shuffle_on_loop:
                for k in range(4):
                    stream[k] = saved[k]
            reset(G, deal)
            _run(G, o, stream, limit, mu + lam, np.bool_(False), cut, snap)
    if cut[CUT_SET]:
        outcome = CUTOFF
        out_u32[R_CARDS, i] = cut[CUT_CARDS]
        out_u32[R_TRICKS, i] = cut[CUT_TRICKS]
        winner = -1
        if per_seat:
            for s in range(n):
                seat_out[i, SEAT_MIN, s] = cut[cut_slot(CUT_MIN, n, s)]
                seat_out[i, SEAT_PLACE, s] = cut[cut_slot(CUT_PLACE, n, s)]
                seat_out[i, SEAT_OUT, s] = cut[cut_slot(CUT_OUT, n, s)]
    else:
        # (a shuffle_on_loop game that looped was replayed with shuffling from R: it ends won)
        outcome = WIN if sc[S_OVER] else LOOP
        out_u32[R_CARDS, i] = sc[S_CARDS]
        out_u32[R_TRICKS, i] = sc[S_TRICKS]
        winner = sc[S_WINNER] if outcome == WIN else -1
        if per_seat:
            for s in range(n):
                seat_out[i, SEAT_MIN, s] = G.min_cards[s]
                seat_out[i, SEAT_PLACE, s] = G.place[s]
                seat_out[i, SEAT_OUT, s] = G.out_cards[s]
            if winner >= 0:
                seat_out[i, SEAT_PLACE, winner] = 1
    if outcome != WIN and o.most:
        # cards held at the end (at the cut-off: as saved then)
        if cut[CUT_SET]:
            winner = most_cards_winner(cut[cut_slot(CUT_HELD, n, 0):cut_slot(CUT_HELD, n, n)])
        else:
            winner = most_cards_winner(G.ln)
        if winner >= 0 and per_seat:
            seat_out[i, SEAT_PLACE, winner] = 1
    out_small[R_OUTCOME, i] = outcome
    out_small[R_WINNER, i] = winner
    out_small[R_LOOPED, i] = 1 if looped else 0
    if looped:
        out_u32[R_LOOP_START_TRICKS, i] = mu
        out_u32[R_LOOP_START_CARDS, i] = c_mu
        out_u32[R_LOOP_TRICKS, i] = lam
        out_u32[R_LOOP_CARDS, i] = c_r - c_mu
    else:
        for k in range(R_LOOP_START_TRICKS, U32_ROWS):
            out_u32[k, i] = 0
