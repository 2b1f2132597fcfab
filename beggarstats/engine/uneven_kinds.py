"""Random uneven deals with given penalty cards in each hand, played to a horizon.

`uneven.py` deals hands of given sizes; this module also fixes which hand holds the penalty
cards: seat s holds ``sizes[s]`` cards of which ``kinds[s][t - 1]`` are of tribute t (J, Q, K, A,
and jokers if the rules have them), the rest number cards, each hand in a uniformly random order.
It is the measurement of the tail chain whose state is the hand sizes and the penalty cards of the
hands (`run.tail_chain_cards`).

Game ``g`` of the table ``seed`` is fixed by (seed, g, sizes, kinds, leader): on the game's stream
(`rng.stream_state(seed, g)`), seat 0's hand is laid out in canonical order (numbers, J, Q, K, A,
jokers) and Fisher-Yates shuffled (`rng.shuffle_words`, as every deal), then seat 1's on the same
stream, and so on; `kinds_deal` (Python) and `deal_kinds_planes` (kernel) are the two forms of it.
As in `uneven.py`, the kernels start with seat 0 to lead, so the deal is handed to them rotated.

`kinds_steps` plays each deal with the exact driver to the first trick boundary at or after
``horizon`` cards (as `uneven_play.uneven_steps`) and also returns the penalty cards each hand
holds there.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..game.checks import MAX_HORIZON, whole
from .constants import pack_params
from .exact import play_to
from .hands_bits import deck_planes
from .kernel_cache import install as _install_kernel_cache
from .kernel_ops import popcount
from .options import options_of
from .rng import GameStream, seed_words, shuffle_inplace, shuffle_words, stream_state
from .state import new_bits_game
from .uneven import check_uneven, rotated

__all__ = ["KINDS", "check_kinds", "kinds_deal", "deal_kinds_planes", "kinds_steps"]

KINDS = 5  # the penalty tributes 1..5: J, Q, K, A, joker

_ONE = np.uint64(1)

_install_kernel_cache()  # compiled kernels go to the per-user cache (kernel_cache.py)


def check_kinds(rules, sizes, kinds, leader) -> tuple[np.ndarray, np.ndarray, int]:
    """Check a deal's hand sizes, penalty cards and leader against ``rules``.

    ``kinds``: one row per seat, the count of each penalty tribute (J, Q, K, A, and a fifth column
    for jokers, which may be left out when the rules have none). Returns (sizes int64[n],
    held int64[n, 6] - every seat's count of each tribute 0..5, number cards first - leader).
    Raises ValueError naming ``kinds`` (or ``sizes`` / ``leader``, via `uneven.check_uneven`).
    """
    sizes, leader = check_uneven(rules, sizes, leader)
    n = rules.players
    try:
        rows = [list(r) for r in kinds]
    except TypeError:
        raise TypeError(f"`kinds` must be {n} rows (one per seat) of penalty-card counts (J, Q, K, A[, joker]), "
                        f"but {type(kinds).__name__} was passed.") from None
    if len(rows) != n or any(len(r) not in (KINDS - 1, KINDS) for r in rows):
        raise ValueError(f"`kinds` must be {n} rows (one per seat) of {KINDS - 1} or {KINDS} counts "
                         f"(J, Q, K, A[, joker]), but {[len(r) for r in rows]} counts per row were passed.")
    held = np.zeros((n, 6), dtype=np.int64)
    for s, row in enumerate(rows):
        for t, v in enumerate(row):
            held[s, t + 1] = whole(f"kinds[{s}][{t}]", v, 0)
    counts = np.array(rules.counts, dtype=np.int64)
    if not np.array_equal(held[:, 1:].sum(axis=0), counts[1:]):
        raise ValueError(f"`kinds` must share out the deck's penalty cards {counts[1:].tolist()} (J, Q, K, A, joker), "
                         f"but its columns add up to {held[:, 1:].sum(axis=0).tolist()}.")
    held[:, 0] = sizes - held[:, 1:].sum(axis=1)
    if (held[:, 0] < 0).any():
        s = int(np.argmax(held[:, 0] < 0))
        raise ValueError(f"`kinds[{s}]` holds {int(held[s, 1:].sum())} penalty cards, more than the "
                         f"{int(sizes[s])} cards of `sizes[{s}]`.")
    return sizes, held, leader


def kinds_deal(seed: int, game: int, rules, sizes, kinds, leader: int = 0):
    """The deal of game ``game`` of the table ``seed`` with ``sizes[s]`` cards and the penalty cards
    ``kinds[s]`` in seat s's hand: hands by seat (top card first) and the stream after the deal.

    The reference engine starts with seat 0 to lead: play ``hands[leader:] + hands[:leader]``.
    """
    sizes, held, leader = check_kinds(rules, sizes, kinds, leader)
    state = stream_state(seed, game)
    hands = []
    for s in range(rules.players):
        hand = np.repeat(np.arange(6, dtype=np.int8), held[s])
        shuffle_inplace(state, hand, len(hand))
        hands.append(tuple(int(c) for c in hand))
    return tuple(hands), GameStream(seed, game, state)


@njit(nogil=True, cache=True, _nrt=False)
def deal_kinds_planes(held, leader, seed, game, state, buf, d0, d1, d2, dl):
    """Deal game ``game`` of table ``seed`` (as `kinds_deal`: seat s holds ``held[s, t]`` cards of
    tribute t) into planes, rotated so that the leader is play seat 0; ``state`` ends after the deal."""
    n = held.shape[0]
    s0, s1, s2, s3 = seed_words(seed, game)
    for s in range(n):
        m = 0
        for t in range(6):
            for _ in range(held[s, t]):
                buf[m] = t
                m += 1
        s0, s1, s2, s3 = shuffle_words(buf, m, s0, s1, s2, s3)
        j = s - leader
        if j < 0:
            j += n
        d0[j], d1[j], d2[j] = deck_planes(buf, m)
        dl[j] = m
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3


@njit(nogil=True, cache=True, inline="always")
def _count_kinds(p0, p1, p2, out):
    """``out[t - 1]`` = cards of tribute t (1..5) in a hand held as three planes."""
    out[0] = popcount(p0 & ~p1 & ~p2)
    out[1] = popcount(~p0 & p1 & ~p2)
    out[2] = popcount(p0 & p1 & ~p2)
    out[3] = popcount(~p0 & ~p1 & p2)
    out[4] = popcount(p0 & ~p1 & p2)


@njit(nogil=True, cache=True)
def _steps(prm, seed, games, held, leader, horizon, out_cards, out_over, out_leader, out_held, out_kinds):
    n = held.shape[0]
    G = new_bits_game(n)
    state = np.zeros(4, dtype=np.uint64)
    buf = np.zeros(64, dtype=np.int8)
    d0 = np.zeros(n, dtype=np.uint64)
    d1 = np.zeros(n, dtype=np.uint64)
    d2 = np.zeros(n, dtype=np.uint64)
    dl = np.zeros(n, dtype=np.int64)
    o = options_of(prm)
    for i in range(games.shape[0]):
        deal_kinds_planes(held, leader, seed, games[i], state, buf, d0, d1, d2, dl)
        play_to(G, (d0, d1, d2, dl), o, state, horizon, i, out_cards, out_over, out_leader, out_held)
        for j in range(n):
            _count_kinds(G.p0[j], G.p1[j], G.p2[j], out_kinds[i, j])


def kinds_steps(rules, seed: int, games, sizes, kinds, leader: int, horizon: int) -> dict[str, np.ndarray]:
    """Play each deal ``games`` of the table ``seed`` (`kinds_deal`) with the exact driver up to the
    first trick boundary at or after ``horizon`` cards, or to its end.

    Parameters
    ----------
    rules : Rules
        Deterministic play (no ``shuffle_on_loop``), a deck of at most 64 cards.
    seed : int
        Table seed (0 <= seed < 2**64).
    games : array_like of int64
        Game ids.
    sizes, kinds, leader
        As for `kinds_deal`.
    horizon : int
        Cards to play at least (>= 1) before stopping at a trick boundary.

    Returns
    -------
    dict of str to numpy.ndarray
        As `uneven_play.uneven_steps` (``cards``, ``over``, ``leader``, ``held``, by seat of the
        deal), and ``kinds`` int64[m, players, 5]: the cards of tribute 1..5 each seat holds there.
    """
    sizes, held, leader = check_kinds(rules, sizes, kinds, leader)
    if rules.shuffle_on_loop:
        raise ValueError("Uneven deals are played without `shuffle_on_loop` (a loop of a stretch of play "
                         "is not a loop of the game); pass rules without it.")
    horizon = whole("horizon", horizon, 1, MAX_HORIZON)
    games = np.ascontiguousarray(games, dtype=np.int64)
    m, n = len(games), rules.players
    cards = np.zeros(m, dtype=np.int64)
    over = np.zeros(m, dtype=np.bool_)
    lead = np.zeros(m, dtype=np.int64)
    out_held = np.zeros((m, n), dtype=np.int64)
    out_kinds = np.zeros((m, n, KINDS), dtype=np.int64)
    _steps(pack_params(rules), np.uint64(int(seed) % 2**64), games, held, leader, horizon, cards, over, lead,
           out_held, out_kinds)
    order = rotated(n, leader)
    seat_held = np.zeros_like(out_held)
    seat_held[:, order] = out_held
    seat_kinds = np.zeros_like(out_kinds)
    seat_kinds[:, order] = out_kinds
    return {"cards": cards, "over": over, "leader": order[lead], "held": seat_held, "kinds": seat_kinds}
