"""Hands as bit-planes (`state.BitsGame`): the card moves of the exact driver for decks of at
most 64 cards, and the plane operations the fast passes share.

A hand is three uint64 words: bit i of plane b is bit b of the i-th card's tribute (top card =
bit 0), with its length beside it; the pile likewise. Playing a card is three shifts, taking a
pile three shifts and ORs, and runs of number cards are skipped in one step: count-trailing-zeros
of ``p0 | p1 | p2`` finds a hand's next penalty card, and a plain run round the table is shared out
arithmetically (the player at offset j of m plays card ``a*m + j`` of the run with its a-th card).
Every card that can matter - a penalty card, the card completing a tribute, a hand's last card
(end 'empty'), the cut-off card, a player who cannot play - is left to the driver's one-card step.

The card moves themselves - turning a card onto the pile, paying, the split of a plain run, laying
the pile under a hand, comparing hands - are the numba functions of the section "card moves" below,
on plane words: the driver's primitives call them on its `BitsGame`, and the two fast passes
(`kernel_two`, `kernel_multi`) call the same functions on the words they keep in registers, so a
move is written once (docs/DESIGN.md lists every place each is made; tests/docs/test_rule_places.py
keeps that list true and fails if a pass shifts a plane itself).

`load_deal`, `play_top`, `skip_plain`, `pile_under`, `save_state`, `same_state`, `same_games` are
plain functions compiled into the driver through `hands.py`; the rest are numba functions.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .kernel_cache import install as _install_kernel_cache
from .constants import INIT_ACES, INIT_HELD, INIT_JACKS, INIT_JOKERS, INIT_KINGS, INIT_QUEENS, INIT_TRIBUTE
from .rng import JOKER_KIND, joker_gap, jokers_last, scatter_planes, seed_words, shuffle_words
from .kernel_ops import popcount
from .rulebook import next_demand_at, next_in_game
from .state import S_CARDS, S_LEADER, S_LEFT, S_PLEN

__all__ = ["MAX_CARDS", "supports", "top_card", "card_at", "put_card", "lay_paid", "deck_planes", "shuffled_planes",
           "deal_planes", "planes_of", "drop", "lay_top", "lay_at", "pay", "plain_run", "run_share", "pile_as_taken",
           "under", "planes_differ", "counts_differ"]

MAX_CARDS = 64
_ONE = np.uint64(1)
_TWO = np.uint64(2)
_ZERO = np.uint64(0)

_install_kernel_cache()  # compiled kernels go to the per-user cache (kernel_cache.py)


def supports(n_cards: int, players: int) -> bool:
    """True if a deck of ``n_cards`` fits the planes (every hand in 64 bits)."""
    return 0 < n_cards <= MAX_CARDS


# -- plane operations (numba, inlined) ------------------------------------------------------------
@njit(nogil=True, cache=True, inline="always")
def top_card(p0, p1, p2):
    """The tribute of a hand's top card."""
    return (p0 & _ONE) | ((p1 & _ONE) << _ONE) | ((p2 & _ONE) << _TWO)


@njit(nogil=True, cache=True, inline="always")
def card_at(p0, p1, p2, i):
    """The tribute of a hand's ``i``-th card from the top."""
    b = np.uint64(i)
    return ((p0 >> b) & _ONE) | (((p1 >> b) & _ONE) << _ONE) | (((p2 >> b) & _ONE) << _TWO)


@njit(nogil=True, cache=True, inline="always")
def put_card(q0, q1, q2, v, i):
    """The planes with card ``v`` (uint64 tribute) set at position ``i`` (which is empty)."""
    b = np.uint64(i)
    return q0 | ((v & _ONE) << b), q1 | (((v >> _ONE) & _ONE) << b), q2 | ((v >> _TWO) << b)


@njit(nogil=True, cache=True, inline="always")
def lay_paid(q0, q1, q2, p0, p1, p2, k, at, beggar_owed):
    """The pile's planes once a payer's top ``k`` cards, none of which demands a tribute, are laid
    on it from position ``at``: number cards set no bit; paid to a Beggar joker they may be penalty
    cards, which count as plain (`rulebook.demand`) but keep their kind."""
    if beggar_owed:
        mask = (_ONE << np.uint64(k)) - _ONE
        b = np.uint64(at)
        q0 |= (p0 & mask) << b
        q1 |= (p1 & mask) << b
        q2 |= (p2 & mask) << b
    return q0, q1, q2


# -- card moves (numba, inlined): the exact driver's primitives below and both fast passes ---------
# Each takes and returns plane words (and lengths), so the driver calls it on its arrays and a fast
# pass on its registers. Shifts are plain: every ``k`` a move is given is below 64 (a payment is at
# most a tribute, 5; a seat plays at most the shortest hand's length + 1 of a plain run, 33).
@njit(nogil=True, cache=True, inline="always")
def drop(p0, p1, p2, k):
    """A hand's planes once it has played its top ``k`` cards (0 <= k < 64)."""
    c = np.uint64(k)
    return p0 >> c, p1 >> c, p2 >> c


@njit(nogil=True, cache=True, inline="always")
def lay_top(p0, p1, p2, q0, q1, q2, L):
    """Pile append: a hand turns its top card onto a pile of ``L`` cards. Returns (the card as a uint64
    tribute, the hand's planes, the pile's planes)."""
    v = top_card(p0, p1, p2)
    q0, q1, q2 = put_card(q0, q1, q2, v, L)
    p0, p1, p2 = drop(p0, p1, p2, 1)
    return v, p0, p1, p2, q0, q1, q2


@njit(nogil=True, cache=True, inline="always")
def lay_at(p0, p1, p2, k, q0, q1, q2, L):
    """A payer's ``k`` number cards, then its card ``k`` (which demands a tribute), onto a pile of
    ``L`` cards (the number cards set no bit). Returns (the card, the hand's planes, the pile's)."""
    v = card_at(p0, p1, p2, k)
    q0, q1, q2 = put_card(q0, q1, q2, v, L + k)
    p0, p1, p2 = drop(p0, p1, p2, k + 1)
    return v, p0, p1, p2, q0, q1, q2


@njit(nogil=True, cache=True, inline="always")
def pay(p0, p1, p2, k, q0, q1, q2, L, beggar_owed):
    """A payer lays its top ``k`` cards, none of which demands a tribute, on a pile of ``L`` cards
    (`lay_paid`). Returns (the hand's planes, the pile's planes)."""
    q0, q1, q2 = lay_paid(q0, q1, q2, p0, p1, p2, k, L, beggar_owed)
    p0, p1, p2 = drop(p0, p1, p2, k)
    return p0, p1, p2, q0, q1, q2


@njit(nogil=True, cache=True, inline="always")
def plain_run(p0, p1, p2, n, empty_end, may_be_empty):
    """In plain play (nothing owed), how many cards a hand of ``n`` plays before its first that can
    matter: its next penalty card (`rulebook.next_demand_at`), its last card (end 'empty'), or none
    left. The event of a run round ``m`` seats is the least ``plain_run * m + offset``.

    An empty hand plays none. Under end 'empty' one can be in a run only with 3 or more players
    (with two the game ends when a hand empties), so the two-player pass passes a literal False for
    ``may_be_empty`` and compiles without the clamp: any clamp in its loop, a select or not, costs
    it 3-7% (benchmarks/side_by_side.py: LLVM then turns the selects of the run into branches)."""
    a = next_demand_at(p0, p1, p2, False)
    lim = n - 1 if empty_end else n
    a = a if a < lim else lim
    if may_be_empty:
        a = a if a > 0 else 0
    return a


@njit(nogil=True, cache=True, inline="always")
def run_share(a, j, jbest):
    """The plain-run split: when a run's event is card ``a`` of the seat at offset ``jbest``, the seat
    at offset ``j`` plays ``a + 1`` cards if it comes before it, else ``a``."""
    return a + 1 if j < jbest else a


@njit(nogil=True, cache=True, inline="always")
def pile_as_taken(q0, q1, q2, L, shuffle, stream):
    """The pile of ``L`` cards as it goes under the taker's hand: shuffled first under shuffle_pile
    (`rng.scatter_planes`; a pile of one card stays as it is)."""
    if shuffle and L > 1:
        return scatter_planes(q0, q1, q2, L, stream)
    return q0, q1, q2


@njit(nogil=True, cache=True, inline="always")
def under(p0, p1, p2, n, q0, q1, q2):
    """Pile-under: a hand of ``n`` cards (n < 64) with the pile's planes laid under it."""
    sh = np.uint64(n)
    return p0 | (q0 << sh), p1 | (q1 << sh), p2 | (q2 << sh)


@njit(nogil=True, cache=True, inline="always")
def planes_differ(a0, a1, a2, b0, b1, b2):
    """State comparison, hand by hand: non-zero if the planes differ (one test, not three branches)."""
    return (a0 ^ b0) | (a1 ^ b1) | (a2 ^ b2)


@njit(nogil=True, cache=True, inline="always")
def counts_differ(a, b):
    """State comparison of a count (a hand's length, the leader's seat): non-zero if they differ, as
    a word to OR with `planes_differ` (an XOR, which the fast passes' loop checks need: a compare
    turned into a word costs them 5-6% of their speed, benchmarks/side_by_side.py)."""
    return np.uint64(a) ^ np.uint64(b)


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def deck_planes(a, N):
    """The three planes of the cards ``a[:N]`` (N <= 64; bit k of plane b: bit b of card k),
    without a branch per card: number cards set no bit."""
    q0 = _ZERO
    q1 = _ZERO
    q2 = _ZERO
    for k in range(N):
        c = np.uint64(a[k])
        b = np.uint64(k)
        q0 |= (c & _ONE) << b
        q1 |= ((c >> _ONE) & _ONE) << b
        q2 |= (c >> _TWO) << b
    return q0, q1, q2


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def _even_bits(x):
    """Bits 0, 2, 4, ... of ``x`` packed into its low 32 bits (the cards of seat 0 of two)."""
    x &= np.uint64(0x5555555555555555)
    x = (x | (x >> _ONE)) & np.uint64(0x3333333333333333)
    x = (x | (x >> _TWO)) & np.uint64(0x0F0F0F0F0F0F0F0F)
    x = (x | (x >> np.uint64(4))) & np.uint64(0x00FF00FF00FF00FF)
    x = (x | (x >> np.uint64(8))) & np.uint64(0x0000FFFF0000FFFF)
    return (x | (x >> np.uint64(16))) & np.uint64(0x00000000FFFFFFFF)


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def _every_nth(x, first, n, m):
    """Bits ``first, first + n, ...`` (``m`` of them) of ``x`` packed into the low bits."""
    out = _ZERO
    b = np.uint64(first)
    un = np.uint64(n)
    for pos in range(m):
        out |= ((x >> b) & _ONE) << np.uint64(pos)
        b += un
    return out


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def _slip_in(q0, q1, q2, at, card):
    """The planes of ``at`` cards and more with ``card`` put in before card ``at``, the cards from
    there moving down one place (the 64th card, if any, drops out)."""
    b = np.uint64(at)
    keep = (_ONE << b) - _ONE
    c = np.uint64(card)
    return ((q0 & keep) | ((q0 & ~keep) << _ONE) | ((c & _ONE) << b),
            (q1 & keep) | ((q1 & ~keep) << _ONE) | (((c >> _ONE) & _ONE) << b),
            (q2 & keep) | ((q2 & ~keep) << _ONE) | ((c >> _TWO) << b))


@njit(nogil=True, cache=True, _nrt=False)
def shuffled_planes(deck, seed, game, state, shuffled):
    """The deck of game ``game`` of table ``seed`` shuffled exactly as `rng.deal_words` deals it
    and returned as its three planes (`deck_planes`); ``state`` ends after the shuffle. Every deal
    on bit-planes starts here. The random state stays in registers; ``shuffled`` is scratch: the
    cards other than jokers get their Fisher-Yates there (`rng.shuffle_words`), become planes, and
    each joker is slipped in on the planes at its gap (`rng.joker_gap`): a shift, where the array
    moves half the deck one place (benchmarks/README.md, issue #41)."""
    N = deck.shape[0]
    s0, s1, s2, s3 = seed_words(seed, game)
    for k in range(N):
        shuffled[k] = deck[k]
    jokers = jokers_last(shuffled, N)
    m = N - jokers
    s0, s1, s2, s3 = shuffle_words(shuffled, m, s0, s1, s2, s3)
    q0, q1, q2 = deck_planes(shuffled, m)
    for _ in range(jokers):
        gap, s0, s1, s2, s3 = joker_gap(m, s0, s1, s2, s3)
        q0, q1, q2 = _slip_in(q0, q1, q2, gap, JOKER_KIND)
        m += 1
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3
    return q0, q1, q2


@njit(nogil=True, cache=True, _nrt=False)
def deal_planes(deck, n, seed, game, state, shuffled, d0, d1, d2, dl, init_out, i, per_seat):
    """Deal game ``game`` of table ``seed`` into planes exactly as `deals.deal_into` (the deck in
    canonical order, Fisher-Yates on the game's stream, card k to seat k mod n); ``state`` ends
    after the deal. With ``per_seat``, row ``i`` of ``init_out`` gets each hand's size, penalty
    cards by kind and total tribute.

    Branch-free but for the loops: the random state stays in registers through the shuffle
    (`rng.deal_words`), the shuffled deck becomes three planes in one pass (`deck_planes`)
    and each seat's hand is every n-th bit of them (card k is seat k mod n's card k // n)."""
    N = deck.shape[0]
    q0, q1, q2 = shuffled_planes(deck, seed, game, state, shuffled)
    if n == 2:
        h = N - N // 2
        d0[0] = _even_bits(q0)
        d1[0] = _even_bits(q1)
        d2[0] = _even_bits(q2)
        d0[1] = _even_bits(q0 >> _ONE)
        d1[1] = _even_bits(q1 >> _ONE)
        d2[1] = _even_bits(q2 >> _ONE)
        dl[0] = h
        dl[1] = N - h
    else:
        for s in range(n):
            m = N // n + (1 if s < N % n else 0)
            d0[s] = _every_nth(q0, s, n, m)
            d1[s] = _every_nth(q1, s, n, m)
            d2[s] = _every_nth(q2, s, n, m)
            dl[s] = m
    if per_seat:
        for s in range(n):
            init_out[i, INIT_HELD, s] = dl[s]
            a0, a1, a2 = d0[s], d1[s], d2[s]
            init_out[i, INIT_JACKS, s] = np.int64(popcount(a0 & ~a1 & ~a2))   # J: tribute 1
            init_out[i, INIT_QUEENS, s] = np.int64(popcount(~a0 & a1 & ~a2))   # Q: 2
            init_out[i, INIT_KINGS, s] = np.int64(popcount(a0 & a1 & ~a2))    # K: 3
            init_out[i, INIT_ACES, s] = np.int64(popcount(~a0 & ~a1 & a2))   # A: 4
            init_out[i, INIT_JOKERS, s] = np.int64(popcount(a0 & ~a1 & a2))    # joker: 5
            init_out[i, INIT_TRIBUTE, s] = (np.int64(popcount(a0)) + 2 * np.int64(popcount(a1))
                                            + 4 * np.int64(popcount(a2)))


@njit(nogil=True, cache=True, _nrt=False)
def planes_of(dh, dl, d0, d1, d2):
    """A deal given as tributes (``dh[s, :dl[s]]``, top card first) into planes ``d0, d1, d2``."""
    for s in range(dl.shape[0]):
        d0[s] = _ZERO
        d1[s] = _ZERO
        d2[s] = _ZERO
        for k in range(dl[s]):
            d0[s], d1[s], d2[s] = put_card(d0[s], d1[s], d2[s], np.uint64(dh[s, k]), k)


# -- the driver's primitives (compiled through hands.py) ------------------------------------------
def load_deal(G, deal):
    """Put the deal ``(d0, d1, d2, dl)`` (planes and lengths) in the hands; the pile is empty."""
    d0, d1, d2, dl = deal
    for s in range(dl.shape[0]):
        G.p0[s] = d0[s]
        G.p1[s] = d1[s]
        G.p2[s] = d2[s]
    G.pile[0] = _ZERO
    G.pile[1] = _ZERO
    G.pile[2] = _ZERO


def play_top(G, seat):
    """``seat`` turns its top card onto the pile; returns the card."""
    v, G.p0[seat], G.p1[seat], G.p2[seat], G.pile[0], G.pile[1], G.pile[2] = lay_top(
        G.p0[seat], G.p1[seat], G.p2[seat], G.pile[0], G.pile[1], G.pile[2], G.sc[S_PLEN])
    G.ln[seat] -= 1
    G.sc[S_PLEN] += 1
    return np.int64(v)


def skip_plain(G, turn, owed, beggar_owed, limit, step, empty_end):
    """Play at once the cards before the next one that can matter (never the cut-off card itself);
    returns the new (turn, owed)."""
    sc = G.sc
    room = limit - sc[S_CARDS] - 1
    if room <= 0:
        return turn, owed
    if owed > 0:
        # the payer's cards before its next demanding card / last card / the card completing it
        h = G.ln[turn]
        k = owed - 1
        c = next_demand_at(G.p0[turn], G.p1[turn], G.p2[turn], beggar_owed)
        if c < k:
            k = c
        lim = h - 1 if empty_end else h
        if lim < k:
            k = lim
        if room < k:
            k = room
        if k > 0:
            G.p0[turn], G.p1[turn], G.p2[turn], G.pile[0], G.pile[1], G.pile[2] = pay(
                G.p0[turn], G.p1[turn], G.p2[turn], k, G.pile[0], G.pile[1], G.pile[2], sc[S_PLEN], beggar_owed)
            G.ln[turn] -= k
            owed -= k
            sc[S_PLEN] += k
            sc[S_CARDS] += k
        return turn, owed
    # plain play round the table (nothing owed, so only penalty cards demand)
    m = sc[S_LEFT]
    best = np.int64(2**62)
    s = turn
    for j in range(m):
        e = plain_run(G.p0[s], G.p1[s], G.p2[s], G.ln[s], empty_end, True) * m + j
        if e < best:
            best = e
            if e < m:
                break
        s = next_in_game(G.in_game, s, step)
    k = best
    if room < k:
        k = room
    if k > 0:
        q = k // m
        r = k - q * m
        s = turn
        for j in range(m):
            c = run_share(q, j, r)
            if c > 0:
                G.p0[s], G.p1[s], G.p2[s] = drop(G.p0[s], G.p1[s], G.p2[s], c)
                G.ln[s] -= c
            if j == r:
                turn = s
            s = next_in_game(G.in_game, s, step)
        sc[S_PLEN] += k
        sc[S_CARDS] += k
    return turn, owed


def pile_under(G, taker, shuffle, stream):
    """The pile goes under ``taker``'s hand in the order played (shuffled first if ``shuffle``)."""
    L = G.sc[S_PLEN]
    q0, q1, q2 = pile_as_taken(G.pile[0], G.pile[1], G.pile[2], L, shuffle, stream)
    h = G.ln[taker]
    if L > 0:
        G.p0[taker], G.p1[taker], G.p2[taker] = under(G.p0[taker], G.p1[taker], G.p2[taker], h, q0, q1, q2)
    G.ln[taker] = h + L
    G.pile[0] = _ZERO
    G.pile[1] = _ZERO
    G.pile[2] = _ZERO


def save_state(G, snap):
    """Boundary state: the leader, then per seat its length and in-game flag, and its planes."""
    snap[0] = np.uint64(G.sc[S_LEADER])
    j = 1
    for s in range(G.ln.shape[0]):
        snap[j] = np.uint64(G.ln[s] * 2 + G.in_game[s])
        snap[j + 1] = G.p0[s]
        snap[j + 2] = G.p1[s]
        snap[j + 3] = G.p2[s]
        j += 4


def same_state(G, snap):
    """True if ``G``'s boundary state is the one `save_state` wrote to ``snap``."""
    if counts_differ(snap[0], G.sc[S_LEADER]) != _ZERO:
        return False
    j = 1
    for s in range(G.ln.shape[0]):
        if (counts_differ(snap[j], G.ln[s] * 2 + G.in_game[s]) != _ZERO
                or planes_differ(snap[j + 1], snap[j + 2], snap[j + 3], G.p0[s], G.p1[s], G.p2[s]) != _ZERO):
            return False
        j += 4
    return True


def same_games(G, B):
    """True if two games stand at the same boundary state."""
    if G.sc[S_LEADER] != B.sc[S_LEADER]:
        return False
    for s in range(G.ln.shape[0]):
        if (G.ln[s] != B.ln[s] or G.in_game[s] != B.in_game[s]
                or planes_differ(G.p0[s], G.p1[s], G.p2[s], B.p0[s], B.p1[s], B.p2[s]) != _ZERO):
            return False
    return True
