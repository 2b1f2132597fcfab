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

__all__ = ["brent_next"]

_install_kernel_cache()  # compiled kernels go to the per-user cache (kernel_cache.py)


@njit(nogil=True, cache=True, inline="always")
def brent_next(power, lam):
    """After a boundary that differs from the snapshot taken ``lam`` boundaries ago (``power`` the
    current window): (renew the snapshot with this boundary?, new power, new lam). Start with
    ``power = lam = 1`` and the snapshot of the deal; a match at distance ``lam`` is a cycle of
    length ``lam``."""
    if power == lam:
        return True, power * 2, 1
    return False, power, lam + 1
