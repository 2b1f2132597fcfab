"""Random uneven deals: given hand sizes and a given leader, from the same random stream as every deal.

Every trick boundary of a game is itself a deal (the pile is empty): hands of uneven sizes and a
seat to lead. `uneven_deal` and its kernel twin `deal_uneven_planes` make such deals at random
and reproducibly: game ``g`` of the table ``seed`` shuffles the deck on ``rng.stream_state(seed,
g)`` exactly as `deals.deal_into` does (Fisher-Yates, the deck in canonical order), then cuts the
shuffled deck into consecutive blocks, seat 0's ``sizes[0]`` cards first (top card first), then
seat 1's, and so on. For a uniform shuffle every such cut is a uniform deal with those sizes.

The kernels always start with seat 0 to lead, so the deal is handed to them rotated: play seat
``j`` holds the hand of seat ``(leader + j) % n``. A rotation keeps every seat's neighbours in
either direction of play, so the game is the same game; `rotated` converts.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..game.checks import whole
from .hands_bits import MAX_CARDS, shuffled_planes
from .kernel_cache import install as _install_kernel_cache
from .rng import GameStream, deal_inplace, stream_state

__all__ = ["check_uneven", "uneven_deal", "deal_uneven_planes", "rotated"]

_ONE = np.uint64(1)

_install_kernel_cache()  # compiled kernels go to the per-user cache (kernel_cache.py)


def check_uneven(rules, sizes, leader) -> tuple[np.ndarray, int]:
    """Check hand sizes and leader against ``rules``; return them as (int64 array, int).

    Raises ValueError (TypeError for something not a sequence) naming ``sizes`` or ``leader``: one size per
    seat, each at least 1, summing to the deck's cards (at most 64: the bit-plane kernels); the
    leader a seat number.
    """
    n = rules.players
    try:
        values = list(sizes)
    except TypeError:
        raise TypeError(f"`sizes` must be a sequence of {n} hand sizes (one per seat), "
                        f"but {type(sizes).__name__} was passed.") from None
    if len(values) != n:
        raise ValueError(f"`sizes` must give one hand size per seat ({n} for {n} players), "
                         f"but {len(values)} were passed.")
    out = np.zeros(n, dtype=np.int64)
    for s, v in enumerate(values):
        out[s] = whole(f"sizes[{s}]", v, 1)  # every seat holds a card
    total = rules.n_cards
    if int(out.sum()) != total:
        raise ValueError(f"`sizes` must add up to the deck's {total} cards, but they add up to {int(out.sum())}.")
    if total > MAX_CARDS:
        raise ValueError(f"Uneven deals are played on bit-planes: a deck of at most {MAX_CARDS} cards, "
                         f"but `rules` has {total}.")
    return out, whole("leader", leader, 0, n - 1)


def rotated(n: int, leader: int) -> np.ndarray:
    """``order[j]`` = the seat that is play seat ``j`` (the leader is play seat 0)."""
    return (np.arange(n) + leader) % n


def uneven_deal(seed: int, game: int, rules, sizes, leader: int = 0):
    """The uneven deal of game ``game`` of the table ``seed``: hands by seat (top card first) and
    the stream positioned after the deal (the shuffle variants draw from it).

    Parameters
    ----------
    seed, game : int
        The table seed and game id, as for `deals.random_deal`.
    rules : Rules
    sizes : sequence of int
        The hand size of each seat (cards), summing to the deck.
    leader : int
        The seat to lead (0-based). The hands are by seat; the reference engine starts with seat
        0 to lead, so play ``hands[leader:] + hands[:leader]`` there.
    """
    sizes, leader = check_uneven(rules, sizes, leader)
    deck = rules.deck_cards()
    state = stream_state(seed, game)
    shuffled = deck.copy()
    deal_inplace(state, shuffled, len(shuffled))
    bounds = np.concatenate(([0], np.cumsum(sizes)))
    hands = tuple(tuple(int(c) for c in shuffled[bounds[s]:bounds[s + 1]]) for s in range(rules.players))
    return hands, GameStream(seed, game, state)


@njit(nogil=True, cache=True, _nrt=False)
def deal_uneven_planes(deck, sizes, leader, seed, game, state, shuffled, d0, d1, d2, dl):
    """Deal game ``game`` of table ``seed`` with ``sizes[s]`` cards to seat s (as `uneven_deal`)
    into planes, rotated so that the leader is play seat 0; ``state`` ends after the deal.

    The shuffle keeps the random state in registers (`rng.deal_words`), the shuffled deck
    becomes three planes in one pass (`hands_bits.shuffled_planes`) and each hand is one block of
    bits of them: no branch per card."""
    n = sizes.shape[0]
    q0, q1, q2 = shuffled_planes(deck, seed, game, state, shuffled)
    at = np.uint64(0)
    for s in range(n):
        j = s - leader
        if j < 0:
            j += n
        m = sizes[s]  # 1 <= m <= 63: every other seat holds a card
        mask = (_ONE << np.uint64(m)) - _ONE
        d0[j] = (q0 >> at) & mask
        d1[j] = (q1 >> at) & mask
        d2[j] = (q2 >> at) & mask
        dl[j] = m
        at += np.uint64(m)
