"""The general numba kernel: every rule of docs/RULES.md, one step per card.

Hands are ring buffers (``int8[n, N]``, N = cards in the deck), so any deck and 2..12 players
work. It is the correctness kernel: `fast.play_games` uses it whenever the bit-plane kernel
(`kernel_bits`) does not apply, and the bit-plane kernel is tested against it and against the
reference engine.

Loop detection is exact and memory-cheap: Brent's algorithm on trick-boundary states, comparing
full states (who leads, who is in, every hand). Brent notices a cycle some boundaries after the
first repeat ``R``; the cycle start ``mu`` is then found by a second pass (two copies of the game
from the deal, ``lam`` tricks apart, stepped together until their states agree), and a last
"record" pass replays the game to ``R`` so every figure is the one at ``R``.

All functions take plain arrays; the game state ``G`` is a tuple of arrays (see `new_game`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..kernel_cache import install as _install_kernel_cache
from ..deals import deal_into
from ..rng import scatter_inplace, seed_into

__all__ = ["play_random_general", "play_deals_general", "PARAMS", "pack_params"]

# -- rule parameters, packed in an int64 array (numba kernels take no Python objects) ----------
P_END, P_PASSES_ON, P_STEP, P_BEGGAR, P_SHUFFLE_PILE, P_SHUFFLE_ON_LOOP, P_MAX_CARDS, P_MOST = range(8)
PARAMS = 8
END_TRICK, END_EMPTY, END_UNABLE = 0, 1, 2
NO_LIMIT = np.int64(2**62)

# -- scalar slots of a game in progress (int64 array ``sc``) -----------------------------------
S_LEADER, S_CARDS, S_TRICKS, S_OVER, S_WINNER, S_REMAINING, S_LEFT, S_PLEN = range(8)
S_INTRICK, S_TURN, S_OWED, S_CLAIM, S_BEG, S_SHUF, S_RECORD = range(8, 15)
SCALARS = 15

# play_trick return codes
C_PAID, C_WIN, C_CUT, C_LAPSED = 0, 1, 2, 3

# outcome codes of the result arrays
WIN, LOOP, CUTOFF = 0, 1, 2


def pack_params(rules) -> np.ndarray:
    """The rules as the int64 parameter array the kernels read."""
    p = np.zeros(PARAMS, dtype=np.int64)
    p[P_END] = ("trick", "empty", "unable").index(rules.end)
    p[P_PASSES_ON] = rules.exhausted_tribute == "passes_on"
    p[P_STEP] = 1 if rules.direction == "cw" else rules.players - 1
    p[P_BEGGAR] = rules.joker_mode == "beggar"
    p[P_SHUFFLE_PILE] = bool(rules.shuffle_pile)
    p[P_SHUFFLE_ON_LOOP] = bool(rules.shuffle_on_loop)
    p[P_MAX_CARDS] = -1 if rules.max_cards is None else int(rules.max_cards)
    p[P_MOST] = rules.unfinished == "most_cards"
    return p


_install_kernel_cache()  # compiled kernels go to the per-user cache (kernel_cache.py)


# ---------------------------------------------------------------------------------------------
# one game in progress
# ---------------------------------------------------------------------------------------------
@njit(nogil=True, cache=True)
def new_game(n, N):
    """Allocate a game: (hands ring, head, len, in_game, pile, scalars, min_cards, out_cards, place)."""
    return (np.zeros((n, N), dtype=np.int8), np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64),
            np.zeros(n, dtype=np.uint8), np.zeros(N, dtype=np.int8), np.zeros(SCALARS, dtype=np.int64),
            np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64))


@njit(nogil=True, cache=True, _nrt=False)
def reset_game(G, dh, dl):
    """Set ``G`` to the deal ``dh[s, :dl[s]]`` (top card first), seat 0 to lead."""
    hands, head, ln, ing, pile, sc, minc, outc, place = G
    n = ln.shape[0]
    for s in range(n):
        for k in range(dl[s]):
            hands[s, k] = dh[s, k]
        head[s] = 0
        ln[s] = dl[s]
        ing[s] = 1
        minc[s] = dl[s]
        outc[s] = -1
        place[s] = -1
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
def _take_pile(G, taker, final, prm, stream):
    """A trick: the pile goes under the taker's hand; under end `trick` empty hands go out."""
    _append_pile(G, taker, stream)
    if final:
        return
    ln = G[2]
    ing = G[3]
    if prm[P_END] == END_TRICK:
        k = 0
        for s in range(ln.shape[0]):
            if ing[s] and ln[s] == 0:
                k += 1
        if k:
            _go_out_empty(G, k, -1, prm, stream)


@njit(nogil=True, cache=True, _nrt=False)
def _append_pile(G, taker, stream):
    """The pile goes under the taker's hand (shuffled first when shuffling); taker leads."""
    hands, head, ln, ing, pile, sc, minc, outc, place = G
    n = ln.shape[0]
    N = pile.shape[0]
    plen = sc[S_PLEN]
    if sc[S_SHUF]:
        scatter_inplace(stream, pile, plen)
    pos = head[taker] + ln[taker]
    for k in range(plen):
        if pos >= N:
            pos -= N
        hands[taker, pos] = pile[k]
        pos += 1
    ln[taker] += plen
    sc[S_PLEN] = 0
    sc[S_TRICKS] += 1
    sc[S_LEADER] = taker
    sc[S_INTRICK] = 0
    if sc[S_RECORD]:
        for s in range(n):
            if ln[s] < minc[s]:
                minc[s] = ln[s]


@njit(nogil=True, cache=True, _nrt=False)
def _go_out_empty(G, k, keep, prm, stream):
    """The ``k`` in-game players with empty hands (all in-game players but ``keep`` when
    ``keep >= 0``) leave together and share a place; one player left wins."""
    hands, head, ln, ing, pile, sc, minc, outc, place = G
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
                _finish(G, s, prm, stream)
                break


@njit(nogil=True, cache=True, _nrt=False)
def _go_out_one(G, seat, prm, stream):
    hands, head, ln, ing, pile, sc, minc, outc, place = G
    ing[seat] = 0
    if sc[S_RECORD]:
        outc[seat] = sc[S_CARDS]
        place[seat] = sc[S_REMAINING]
    sc[S_REMAINING] -= 1
    sc[S_LEFT] -= 1
    if sc[S_LEFT] == 1:
        for s in range(ln.shape[0]):
            if ing[s]:
                _finish(G, s, prm, stream)
                break


@njit(nogil=True, cache=True, _nrt=False)
def _finish(G, winner, prm, stream):
    sc = G[5]
    sc[S_WINNER] = winner
    sc[S_OVER] = 1
    if sc[S_PLEN] > 0:
        _append_pile(G, winner, stream)


@njit(nogil=True, cache=True, _nrt=False)
def check_empty_end(G, prm, stream):
    """End convention `empty`: if exactly one player holds cards, the others still in go out."""
    if prm[P_END] != END_EMPTY or G[5][S_OVER]:
        return
    ln = G[2]
    ing = G[3]
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
            _go_out_empty(G, k, holder, prm, stream)


@njit(nogil=True, cache=True, _nrt=False)
def play_trick(G, prm, stream, limit):
    """Play on (from the lead, or resuming a trick stopped at a cut-off) until a pile is taken,
    the game is won, or ``limit`` cards have been played.

    Returns C_PAID (tribute paid, pile taken: the caller checks loop, then empty-end and cut-off),
    C_LAPSED (an exhausted tribute lapsed and the claimant took the pile: the caller checks the
    loop only), C_WIN (game over) or C_CUT (``limit`` reached mid-trick, game not over).
    """
    hands, head, ln, ing, pile, sc, minc, outc, place = G
    N = pile.shape[0]
    step = prm[P_STEP]
    beggar_mode = prm[P_BEGGAR]
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
        if ln[turn] == 0:
            # must play and cannot: out
            _go_out_one(G, turn, prm, stream)
            if sc[S_OVER]:
                return C_WIN
            if owed > 0 and prm[P_PASSES_ON] == 0:
                _take_pile(G, claim, False, prm, stream)
                if sc[S_OVER]:
                    return C_WIN
                return C_LAPSED
            turn = _next_in(ing, turn, step)
            continue
        card = hands[turn, head[turn]]
        h = head[turn] + 1
        head[turn] = 0 if h == N else h
        ln[turn] -= 1
        pile[sc[S_PLEN]] = card
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
                _take_pile(G, claim, False, prm, stream)
                if sc[S_OVER]:
                    return C_WIN
                return C_PAID
        else:
            turn = _next_in(ing, turn, step)
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
def step_boundary(G, prm, stream):
    """Deterministic play to the next trick boundary, no limit. Returns True if the game ended."""
    code = play_trick(G, prm, stream, NO_LIMIT)
    if code == C_WIN:
        return True
    if code == C_PAID:
        check_empty_end(G, prm, stream)
        if G[5][S_OVER]:
            return True
    return False


# -- trick-boundary states ---------------------------------------------------------------------
@njit(nogil=True, cache=True, _nrt=False)
def save_state(G, snap):
    """Write the boundary state (leader, in_game, hand lengths, every hand in order) to ``snap``."""
    hands, head, ln, ing, pile, sc, minc, outc, place = G
    n = ln.shape[0]
    N = pile.shape[0]
    snap[0] = sc[S_LEADER]
    j = 1
    for s in range(n):
        snap[j] = ing[s]
        snap[j + 1] = ln[s]
        j += 2
    for s in range(n):
        pos = head[s]
        for k in range(ln[s]):
            snap[j] = hands[s, pos]
            j += 1
            pos += 1
            if pos == N:
                pos = 0


@njit(nogil=True, cache=True, _nrt=False)
def same_state(G, snap):
    """True if ``G``'s boundary state equals the one saved in ``snap`` (full comparison)."""
    hands, head, ln, ing, pile, sc, minc, outc, place = G
    n = ln.shape[0]
    N = pile.shape[0]
    if snap[0] != sc[S_LEADER]:
        return False
    j = 1
    for s in range(n):
        if snap[j] != ing[s] or snap[j + 1] != ln[s]:
            return False
        j += 2
    for s in range(n):
        pos = head[s]
        for k in range(ln[s]):
            if snap[j] != hands[s, pos]:
                return False
            j += 1
            pos += 1
            if pos == N:
                pos = 0
    return True


# ---------------------------------------------------------------------------------------------
# one game, start to end
# ---------------------------------------------------------------------------------------------
@njit(nogil=True, cache=True, _nrt=False)
def _run(G, prm, stream, limit, stop_r, detect, cut, snap):
    """Play the game in ``G`` from its deal.

    ``stop_r >= 0``: boundary ``stop_r`` is the first repeated state (loop, or start of shuffling
    under shuffle_on_loop). ``detect``: run Brent's algorithm; keep playing past the cut-off (not
    recording) until a loop is found or it is certain none is reached before the cut-off.
    ``cut`` (int64[4 + 4n]) receives the figures at the cut-off: tricks, hand sizes, min_cards,
    out_cards, place. Returns the cycle length found by Brent (0: none).
    """
    hands, head, ln, ing, pile, sc, minc, outc, place = G
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
def _save_cut(G, cut):
    hands, head, ln, ing, pile, sc, minc, outc, place = G
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
def _find_mu(GA, GB, dh, dl, lam, prm, stream):
    """Cycle start: two copies from the deal, ``lam`` boundaries apart, stepped until equal.
    Returns (mu, cards at mu, cards at mu + lam)."""
    reset_game(GA, dh, dl)
    reset_game(GB, dh, dl)
    GA[5][S_RECORD] = 0
    GB[5][S_RECORD] = 0
    check_empty_end(GA, prm, stream)
    check_empty_end(GB, prm, stream)
    for _ in range(lam):
        step_boundary(GB, prm, stream)
    # compare (leader, in_game, hands) directly between the two copies
    mu = 0
    while not _same_games(GA, GB):
        step_boundary(GA, prm, stream)
        step_boundary(GB, prm, stream)
        mu += 1
    return mu, GA[5][S_CARDS], GB[5][S_CARDS]


@njit(nogil=True, cache=True, _nrt=False)
def _same_games(GA, GB):
    ha, hda, la, ia, pa, sa = GA[0], GA[1], GA[2], GA[3], GA[4], GA[5]
    hb, hdb, lb, ib, pb, sb = GB[0], GB[1], GB[2], GB[3], GB[4], GB[5]
    N = pa.shape[0]
    if sa[S_LEADER] != sb[S_LEADER]:
        return False
    for s in range(la.shape[0]):
        if ia[s] != ib[s] or la[s] != lb[s]:
            return False
    for s in range(la.shape[0]):
        x = hda[s]
        y = hdb[s]
        for k in range(la[s]):
            if ha[s, x] != hb[s, y]:
                return False
            x += 1
            y += 1
            if x == N:
                x = 0
            if y == N:
                y = 0
    return True


@njit(nogil=True, cache=True)
def play_one(dh, dl, stream, prm, G, GB, snap, cut, i, out_u32, out_small, seat_out):
    """Play one deal and write its figures to row ``i`` of the result arrays.

    ``stream`` (uint64[4]) is the game's random stream positioned after the deal (used only by
    the shuffle variants). ``out_u32`` uint32[6, n_games]: cards, tricks, loop_start_tricks,
    loop_start_cards, loop_tricks, loop_cards. ``out_small`` int8[3, n_games]: outcome, winner,
    looped. ``seat_out`` int64[n_games, 3, n]: min_cards, place, out_cards.
    """
    n = dl.shape[0]
    sc = G[5]
    maxc = prm[P_MAX_CARDS]
    limit = NO_LIMIT if maxc < 0 else maxc
    cut[0] = 0
    saved = stream.copy()
    reset_game(G, dh, dl)
    lam = 0
    if prm[P_SHUFFLE_PILE]:
        sc[S_SHUF] = 1
        _run(G, prm, stream, limit, -1, False, cut, snap)
    else:
        lam = _run(G, prm, stream, limit, -1, True, cut, snap)
    mu = 0
    c_mu = 0
    c_r = 0
    looped = False
    if lam > 0:
        mu, c_mu, c_r = _find_mu(GB, G, dh, dl, lam, prm, stream)
        if c_r <= limit:
            looped = True
            cut[0] = 0
            for k in range(4):
                stream[k] = saved[k]
            reset_game(G, dh, dl)
            _run(G, prm, stream, limit, mu + lam, False, cut, snap)
    hands, head, ln, ing, pile, sc, minc, outc, place = G
    if cut[0]:
        outcome = CUTOFF
        out_u32[0, i] = cut[1]
        out_u32[1, i] = cut[2]
        winner = -1
        for s in range(n):
            seat_out[i, 0, s] = cut[4 + n + s]
            seat_out[i, 1, s] = cut[4 + 3 * n + s]
            seat_out[i, 2, s] = cut[4 + 2 * n + s]
    else:
        outcome = WIN if sc[S_OVER] else LOOP
        if looped and prm[P_SHUFFLE_ON_LOOP]:
            outcome = WIN  # shuffle_on_loop games always end (the cut-off case is handled above)
        out_u32[0, i] = sc[S_CARDS]
        out_u32[1, i] = sc[S_TRICKS]
        winner = sc[S_WINNER] if outcome == WIN else -1
        for s in range(n):
            seat_out[i, 0, s] = minc[s]
            seat_out[i, 1, s] = place[s]
            seat_out[i, 2, s] = outc[s]
        if winner >= 0:
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
        else:
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
def play_random_general(deck, n, prm, seed, games, out_u32, out_small, seat_out, init_out):
    """Play the random games ``games`` of the table ``seed`` (one row each).

    ``init_out`` int64[n_games, 7, n]: initial hand size, J, Q, K, A, jokers, total tribute.
    """
    N = deck.shape[0]
    W = (N + n - 1) // n
    dh = np.zeros((n, W), dtype=np.int8)
    dl = np.zeros(n, dtype=np.int64)
    state = np.zeros(4, dtype=np.uint64)
    G = new_game(n, N)
    GB = new_game(n, N)
    snap = np.zeros(1 + 2 * n + N, dtype=np.int64)
    cut = np.zeros(4 + 4 * n, dtype=np.int64)
    for i in range(games.shape[0]):
        seed_into(state, np.uint64(seed), np.uint64(games[i]))
        deal_into(state, deck, n, dh, dl)
        for s in range(n):
            for k in range(7):
                init_out[i, k, s] = 0
            init_out[i, 0, s] = dl[s]
            for k in range(dl[s]):
                c = dh[s, k]
                if c > 0:
                    init_out[i, c, s] += 1
                    init_out[i, 6, s] += c
        play_one(dh, dl, state, prm, G, GB, snap, cut, i, out_u32, out_small, seat_out)


@njit(nogil=True, cache=True)
def play_deals_general(dh, dl, streams, prm, out_u32, out_small, seat_out):
    """Play given deals: ``dh`` int8[m, n, W], ``dl`` int64[m, n], ``streams`` uint64[m, 4]."""
    m = dh.shape[0]
    n = dh.shape[1]
    N = 0
    for s in range(n):
        N += dl[0, s]
    G = new_game(n, N)
    GB = new_game(n, N)
    snap = np.zeros(1 + 2 * n + N, dtype=np.int64)
    cut = np.zeros(4 + 4 * n, dtype=np.int64)
    for i in range(m):
        play_one(dh[i], dl[i], streams[i], prm, G, GB, snap, cut, i, out_u32, out_small, seat_out)
