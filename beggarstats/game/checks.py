"""Argument checks shared by the public functions: errors name the parameter and what is allowed."""

from __future__ import annotations

import numbers

import numpy as np

__all__ = ["whole", "check_flag", "check_seed", "check_n_jobs"]


def whole(name: str, value, low: int, high: int | None = None, *, none: bool = False):
    """``value`` as an int in ``[low, high]`` (``None`` passes through when ``none``)."""
    if value is None and none:
        return None
    ok = isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))
    if not ok or value < low or (high is not None and value > high):
        bound = f"from {low} to {high}" if high is not None else f">= {low}"
        raise ValueError(f"The value for `{name}` must be a whole number {bound}{' or None' if none else ''}, "
                         f"but {value!r} was passed.")
    return int(value)


def check_flag(name: str, value) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"The value for `{name}` must be True or False, but {value!r} was passed.")
    return bool(value)


def check_seed(seed):
    """A seed is None (fresh entropy, drawn by the caller) or a whole number below 2**64."""
    return whole("seed", seed, 0, 2**64 - 1, none=True)


def check_n_jobs(n_jobs):
    """scikit-learn convention: None (1 unless a joblib context says otherwise), -1 all cores, never 0."""
    if n_jobs is not None and (not isinstance(n_jobs, numbers.Integral) or isinstance(n_jobs, bool) or n_jobs == 0):
        raise ValueError(f"The value for `n_jobs` must be a non-zero whole number or None, but {n_jobs!r} was passed.")
    return n_jobs
