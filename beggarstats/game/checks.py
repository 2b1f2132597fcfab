"""Argument checks shared by the public functions: errors name the parameter and what is allowed."""

from __future__ import annotations

import numbers
import os

import numpy as np

__all__ = ["whole", "check_level", "positive", "check_flag", "check_seed", "check_n_jobs", "cpu_count", "max_jobs", "JOBS_PER_CORE", "say", "MAX_HORIZON", "MAX_NODES",
           "MAX_DEALS_PER_STATE"]

JOBS_PER_CORE = 8  # more workers than this per core only adds threads, never speed
MAX_HORIZON = 10**6  # tricks a game is followed for (the record game has about 1,000)
MAX_NODES = 10**9  # states a backward search examines at most (its memory grows with them)
MAX_DEALS_PER_STATE = 2**22  # deals a tail chain plays from each state: one task, in memory at once


def say(name: str) -> str:
    """How an error names a parameter: a command-line option (``--jobs``) as is, else ```name```."""
    return name if name.startswith("--") else f"The value for `{name}`"


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


def _real(value) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))


def check_level(value, *, name: str = "confidence") -> float:
    """A confidence level, power or test level strictly between 0 and 1."""
    if not _real(value) or not 0 < value < 1:
        raise ValueError(f"The value for `{name}` must be a number strictly between 0 and 1, but {value!r} was passed.")
    return float(value)


def positive(name: str, value) -> float:
    """``value`` as a finite float > 0 (a margin, a width)."""
    if not _real(value) or not 0 < value < float("inf"):
        raise ValueError(f"The value for `{name}` must be a finite number > 0, but {value!r} was passed.")
    return float(value)


def check_flag(name: str, value) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"The value for `{name}` must be True or False, but {value!r} was passed.")
    return bool(value)


def check_seed(seed, *, name: str = "seed", none: bool = True):
    """``seed`` as an int ``0 .. 2**64 - 1``; None (fresh entropy, drawn by the caller) passes
    through when ``none``."""
    if seed is None and none:
        return None
    if not isinstance(seed, numbers.Integral) or isinstance(seed, (bool, np.bool_)) or not 0 <= seed <= 2**64 - 1:
        raise ValueError(f"{say(name)} must be a whole number from 0 to 2**64 - 1"
                         f"{' or None' if none and not name.startswith('--') else ''}, "
                         f"but {seed!r} was passed.")
    return int(seed)


def cpu_count() -> int:
    """The cores this process may run on (its affinity mask where the system has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def max_jobs() -> int:
    """The largest ``n_jobs`` accepted: `JOBS_PER_CORE` workers per core (at least 8)."""
    return max(8, JOBS_PER_CORE * cpu_count())


def check_n_jobs(n_jobs, *, name: str = "n_jobs"):
    """``n_jobs`` (scikit-learn's convention) as an int in ``1 .. max_jobs()`` or
    ``-cpu_count() .. -1`` (-1 all cores, -2 all but one, ...), or None (1 unless a joblib context
    says otherwise). Every worker is a thread or a process: an unbounded value would try to start
    that many (tens of thousands of threads fail half-way, and leave the ones started behind)."""
    if n_jobs is None:
        return None
    cores, most = cpu_count(), max_jobs()
    ok = isinstance(n_jobs, numbers.Integral) and not isinstance(n_jobs, (bool, np.bool_))
    if not ok or not (1 <= n_jobs <= most or -cores <= n_jobs <= -1):
        raise ValueError(f"{say(name)} must be a number of workers from 1 to {most} ({JOBS_PER_CORE} per core of "
                         f"the {cores} here), or from -1 (all cores) to -{cores} (one core)"
                         f"{'' if name.startswith('--') else ', or None'}, "
                         f"but {n_jobs!r} was passed.")
    return int(n_jobs)
