"""Brent's cycle finding on trick-boundary states: the schedule every kernel follows.

A deterministic game that repeats a trick-boundary state loops for ever (docs/RULES.md section 5).
Brent's algorithm keeps one snapshot and compares each new boundary with it; the snapshot is
renewed after 1, 2, 4, 8, ... boundaries, so a cycle of length lam is noticed within a few
multiples of its first repeat, with one stored state and one comparison per trick. The kernels
hold states differently (arrays, planes in registers), so each compares its own way; when to renew
the snapshot is decided here, once.
"""

from __future__ import annotations

from numba import njit

from .kernel_cache import install as _install_kernel_cache

__all__ = ["snapshot_due", "widen"]

_install_kernel_cache()  # compiled kernels go to the per-user cache (kernel_cache.py)

# Every kernel runs the schedule the same way, with ``power = lam = 1`` and a snapshot of the deal
# at the start, after each trick boundary that differs from the snapshot:
#
#     if snapshot_due(power, lam):
#         <take this boundary as the snapshot>
#         power, lam = widen(power)
#     lam += 1
#
# A boundary equal to the snapshot is a cycle of length ``lam``. (To start over - a player went
# out, so no later state can equal the snapshot - a kernel sets ``lam = power``: the next boundary
# becomes the snapshot.)


@njit(nogil=True, cache=True, inline="always")
def snapshot_due(power, lam):
    """True when this boundary becomes the new snapshot: the window of ``power`` boundaries since
    the last one is used up."""
    return power == lam


@njit(nogil=True, cache=True, inline="always")
def widen(power):
    """After a new snapshot: (the next window, twice as long; ``lam`` counted again from 0)."""
    return power * 2, 0
