"""The card moves of the exact driver, for whichever way the game holds its hands.

Each name below is a numba `overload`: `exact.py` calls ``hands.play_top(G, seat)`` and numba
compiles in the version of `hands_ring.py` or `hands_bits.py` that fits the type of ``G``
(`state.RingGame` or `state.BitsGame`). So the driver - every rule of a trick, players going out,
the end conventions, Brent's loop finding, the cut-off - is written once and specialised for each
representation at compile time. The four that run for every card or trick (`play_top`,
`skip_plain`, `pile_under`, `same_state`) are inlined into the driver on bit-planes only: there it
makes the exact replays of a loop-heavy deck 1.3x as fast for 2.6 s more compile time (measured
side by side); on ring buffers, where a move is a loop over the cards, they stay calls. (The
functions have no Python version: they run compiled only.)
"""

from __future__ import annotations

from numba.core.extending import overload

from . import hands_bits, hands_ring
from .state import is_bits

__all__ = ["load_deal", "play_top", "skip_plain", "pile_under", "save_state", "same_state", "same_games"]


def _pick(G):
    return hands_bits if is_bits(G) else hands_ring


def _inline_on_planes(expr, caller, callee):
    """numba inline cost model: a move that runs for every card or trick is inlined into the driver
    on bit-planes (its body is a few word operations) and stays a call on ring buffers."""
    return is_bits(caller.signature.args[0])


def load_deal(G, deal):
    """Put a deal in the hands (the representation's own deal arrays)."""
    raise NotImplementedError("compiled into the numba kernels only")  # internal: a stub the numba kernels replace


@overload(load_deal, jit_options={"nogil": True})
def _load_deal(G, deal):
    return _pick(G).load_deal


def play_top(G, seat):
    """``seat`` turns its top card onto the pile; returns the card."""
    raise NotImplementedError("compiled into the numba kernels only")  # internal: a stub the numba kernels replace


@overload(play_top, jit_options={"nogil": True}, inline=_inline_on_planes)
def _play_top(G, seat):
    return _pick(G).play_top


def skip_plain(G, turn, owed, beggar_owed, limit, step, empty_end):
    """Play at once the cards that cannot matter; returns (turn, owed)."""
    raise NotImplementedError("compiled into the numba kernels only")  # internal: a stub the numba kernels replace


@overload(skip_plain, jit_options={"nogil": True}, inline=_inline_on_planes)
def _skip_plain(G, turn, owed, beggar_owed, limit, step, empty_end):
    return _pick(G).skip_plain


def pile_under(G, taker, shuffle, stream):
    """The pile goes under ``taker``'s hand (shuffled first if ``shuffle``)."""
    raise NotImplementedError("compiled into the numba kernels only")  # internal: a stub the numba kernels replace


@overload(pile_under, jit_options={"nogil": True}, inline=_inline_on_planes)
def _pile_under(G, taker, shuffle, stream):
    return _pick(G).pile_under


def save_state(G, snap):
    """Write the trick-boundary state to ``snap``."""
    raise NotImplementedError("compiled into the numba kernels only")  # internal: a stub the numba kernels replace


@overload(save_state, jit_options={"nogil": True})
def _save_state(G, snap):
    return _pick(G).save_state


def same_state(G, snap):
    """True if the boundary state equals the one in ``snap``."""
    raise NotImplementedError("compiled into the numba kernels only")  # internal: a stub the numba kernels replace


@overload(same_state, jit_options={"nogil": True}, inline=_inline_on_planes)
def _same_state(G, snap):
    return _pick(G).same_state


def same_games(G, B):
    """True if two games stand at the same boundary state."""
    raise NotImplementedError("compiled into the numba kernels only")  # internal: a stub the numba kernels replace


@overload(same_games, jit_options={"nogil": True})
def _same_games(G, B):
    return _pick(G).same_games
