"""Random uneven deals played: whole games (`play_uneven`) or a stretch of cards (`uneven_steps`).

`play_uneven` is `fast.play_games` for the deals of `uneven.py` (given hand sizes and leader):
the same tiers (`batch.play_uneven_bits`), the same result arrays, winners as seats of the deal.
`uneven_steps` plays each deal with the exact driver from one trick boundary to the first trick
boundary at or after ``horizon`` cards (or the end of the game) and returns where it got to: the
transitions of the tail chain (`run.tail_chain`).

API kept stable for other callers: ``play_uneven(rules, seed, games, sizes, leader=0)`` and
``uneven_steps(rules, seed, games, sizes, leader, horizon)``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..game.checks import MAX_HORIZON, whole
from . import batch
from .constants import pack_params
from .exact import play_to
from .fast import assemble, empty_raw
from .kernel_cache import install as _install_kernel_cache
from .options import options_of
from .state import new_bits_game
from .uneven import check_uneven, deal_uneven_planes, rotated

__all__ = ["play_uneven", "uneven_steps"]

_install_kernel_cache()  # compiled kernels go to the per-user cache (kernel_cache.py)


def _rules_ok(rules) -> None:
    if rules.shuffle_on_loop:
        raise ValueError("Uneven deals are played without `shuffle_on_loop` (a loop of a stretch of play "
                         "is not a loop of the game); pass rules without it.")


def play_uneven(rules, seed: int, games, sizes, leader: int = 0) -> dict[str, np.ndarray]:
    """Play the random uneven games ``games`` of the table ``seed``: seat s holds ``sizes[s]``
    cards, seat ``leader`` leads (deals of `uneven.uneven_deal`).

    Parameters
    ----------
    rules : Rules
        Any rules of a deck of at most 64 cards.
    seed : int
        Table seed (0 <= seed < 2**64); game ``g`` is fixed by (seed, g, sizes, leader).
    games : array_like of int64
        Game ids.
    sizes : sequence of int
        Cards held by each seat, each at least 1, summing to the deck.
    leader : int
        The seat to lead the first trick.

    Returns
    -------
    dict of str to numpy.ndarray
        The figures of `fast.play_games` without the per-seat ones; ``winner`` is a seat of the
        deal (-1 none).
    """
    sizes, leader = check_uneven(rules, sizes, leader)
    games = np.ascontiguousarray(games, dtype=np.int64)
    n = rules.players
    out_u32, out_small, seat_out = empty_raw(len(games), n)
    batch.play_uneven_bits(rules.deck_cards(), n, pack_params(rules), np.uint64(int(seed) % 2**64), games, sizes,
                           leader, out_u32, out_small, seat_out)
    res = assemble(out_u32, out_small, seat_out, None, False)
    w = res["winner"]
    res["winner"] = np.where(w >= 0, rotated(n, leader)[w], -1).astype(np.int8)
    return res


@njit(nogil=True, cache=True)
def _steps(deck, prm, seed, games, sizes, leader, horizon, out_cards, out_over, out_leader, out_held):
    n = sizes.shape[0]
    N = deck.shape[0]
    G = new_bits_game(n)
    state = np.zeros(4, dtype=np.uint64)
    shuffled = np.zeros(N, dtype=np.int8)
    d0 = np.zeros(n, dtype=np.uint64)
    d1 = np.zeros(n, dtype=np.uint64)
    d2 = np.zeros(n, dtype=np.uint64)
    dl = np.zeros(n, dtype=np.int64)
    o = options_of(prm)
    for i in range(games.shape[0]):
        deal_uneven_planes(deck, sizes, leader, seed, games[i], state, shuffled, d0, d1, d2, dl)
        play_to(G, (d0, d1, d2, dl), o, state, horizon, i, out_cards, out_over, out_leader, out_held)


def uneven_steps(rules, seed: int, games, sizes, leader: int, horizon: int) -> dict[str, np.ndarray]:
    """Play each random uneven game ``games`` (as `play_uneven`) with the exact driver up to the
    first trick boundary at or after ``horizon`` cards, or to its end.

    Parameters
    ----------
    rules, seed, games, sizes, leader
        As for `play_uneven`.
    horizon : int
        Cards to play at least (>= 1) before stopping at a trick boundary.

    Returns
    -------
    dict of str to numpy.ndarray
        ``cards`` int64[m] (cards played: at the boundary, or to the end of the game), ``over``
        bool[m] (the game ended), ``leader`` int64[m] (the seat of the deal to lead next),
        ``held`` int64[m, players] (cards each seat of the deal holds; 0 for a seat out).
    """
    sizes, leader = check_uneven(rules, sizes, leader)
    _rules_ok(rules)
    horizon = whole("horizon", horizon, 1, MAX_HORIZON)
    games = np.ascontiguousarray(games, dtype=np.int64)
    m, n = len(games), rules.players
    cards = np.zeros(m, dtype=np.int64)
    over = np.zeros(m, dtype=np.bool_)
    lead = np.zeros(m, dtype=np.int64)
    held = np.zeros((m, n), dtype=np.int64)
    _steps(rules.deck_cards(), pack_params(rules), np.uint64(int(seed) % 2**64), games, sizes, leader, horizon,
           cards, over, lead, held)
    order = rotated(n, leader)
    seat_held = np.zeros_like(held)
    seat_held[:, order] = held
    return {"cards": cards, "over": over, "leader": order[lead], "held": seat_held}
