"""The state of one game in progress, by name: a record of arrays for each way of holding hands.

* `RingGame`: hands as ring buffers (``hands int8[n, N]``, ``head``), the pile as ``int8[N]``:
  any deck.
* `BitsGame`: hands as three uint64 bit-planes of their cards' tributes (bit i = the i-th card
  from the top), the pile likewise (``pile[0..2]``): decks of at most 64 cards.

Both carry the same per-seat arrays (``ln`` cards held, ``in_game``, ``min_cards``, ``out_cards``,
``place``) and one int64 array ``sc`` of the game's scalars, named by the ``S_*`` slots below. The
exact driver (`exact.py`) is written once against these names; what differs between the two
(playing a card, taking a pile, comparing states) is in `hands_ring.py` / `hands_bits.py`.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit, types

from .kernel_cache import install as _install_kernel_cache

__all__ = ["RingGame", "BitsGame", "new_ring_game", "new_bits_game", "is_bits", "SCALARS", "CUT_SET", "CUT_CARDS",
           "CUT_TRICKS", "CUT_SEATS", "CUT_HELD", "CUT_MIN", "CUT_OUT", "CUT_PLACE", "cut_slot", "cut_size"]

# -- the scalars of a game in progress (slots of ``sc``) ------------------------------------------
(S_LEADER, S_CARDS, S_TRICKS, S_OVER, S_WINNER, S_LEFT, S_PLEN, S_INTRICK, S_TURN, S_OWED, S_CLAIM,
 S_BEG, S_SHUF, S_RECORD) = range(14)
SCALARS = 14
# S_LEADER leads the next trick; S_CARDS / S_TRICKS the counts; S_OVER the game is won; S_WINNER;
# S_LEFT seats still in, which is also the place the next seat out gets; S_PLEN cards on the pile; S_INTRICK a
# trick was stopped at a cut-off and S_TURN, S_OWED, S_CLAIM, S_BEG are where it stood; S_SHUF piles
# are shuffled; S_RECORD per-seat figures are recorded (off while replaying past a cut-off).

# -- the figures saved at a cut-off (``cut``, int64[cut_size(n)]) -----------------------------------
CUT_SET, CUT_CARDS, CUT_TRICKS = 0, 1, 2     # saved (0/1), cards and tricks at the cut-off
CUT_SEATS = 4                                # then one block of n slots per seat figure:
CUT_HELD, CUT_MIN, CUT_OUT, CUT_PLACE = 0, 1, 2, 3  # cards held, min_cards, out_cards, place


@njit(nogil=True, cache=True, inline="always")
def cut_slot(figure, n, seat):
    """The slot of ``cut`` holding seat ``seat``'s figure ``figure`` (CUT_HELD ... CUT_PLACE) of ``n``."""
    return CUT_SEATS + figure * n + seat


@njit(nogil=True, cache=True, inline="always")
def cut_size(n):
    """The length of ``cut`` for ``n`` seats."""
    return CUT_SEATS + 4 * n


RingGame = namedtuple("RingGame", "hands head ln in_game pile sc min_cards out_cards place")
BitsGame = namedtuple("BitsGame", "p0 p1 p2 ln in_game pile sc min_cards out_cards place")

_install_kernel_cache()  # compiled kernels go to the per-user cache (kernel_cache.py)


def is_bits(state_type) -> bool:
    """For overloads: True if the numba type is that of a `BitsGame`."""
    return isinstance(state_type, types.BaseNamedTuple) and state_type.instance_class is BitsGame


@njit(nogil=True, cache=True)
def new_ring_game(n, N):
    """A `RingGame` for ``n`` seats and a deck of ``N`` cards (contents set by `reset`)."""
    return RingGame(np.zeros((n, N), dtype=np.int8), np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64),
                    np.zeros(n, dtype=np.uint8), np.zeros(N, dtype=np.int8), np.zeros(SCALARS, dtype=np.int64),
                    np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64))


@njit(nogil=True, cache=True)
def new_bits_game(n):
    """A `BitsGame` for ``n`` seats (contents set by `reset`)."""
    return BitsGame(np.zeros(n, dtype=np.uint64), np.zeros(n, dtype=np.uint64), np.zeros(n, dtype=np.uint64),
                    np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.uint8), np.zeros(3, dtype=np.uint64),
                    np.zeros(SCALARS, dtype=np.int64), np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64),
                    np.zeros(n, dtype=np.int64))
