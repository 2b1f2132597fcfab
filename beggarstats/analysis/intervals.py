"""Confidence intervals for proportions and means: small pieces the other modules build on."""

from __future__ import annotations

import numpy as np
from scipy import stats

from ._checks import check_level

__all__ = ["wilson_interval", "newcombe_interval", "mean_interval", "z_value"]


def z_value(confidence: float) -> float:
    """The two-sided normal quantile for ``confidence`` (1.959964 for 0.95)."""
    return float(stats.norm.ppf(0.5 + check_level(confidence) / 2))


def wilson_interval(successes, trials, *, confidence: float = 0.95):
    """Wilson score interval of a binomial proportion.

    Parameters
    ----------
    successes, trials : int or array of int
        Counts (games); ``trials`` may be 0, which gives NaN.
    confidence : float
        Two-sided level.

    Returns
    -------
    (low, high) : floats or arrays
    """
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    if np.any(k < 0) or np.any(k > n):
        raise ValueError("`successes` must lie between 0 and `trials`.")
    z = z_value(confidence)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z / (1 + z * z / n) * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    # The interval always contains k/n; rounding must not push a bound past it at k = 0 or k = n.
    low = np.minimum(np.clip(centre - half, 0, 1), p)
    high = np.maximum(np.clip(centre + half, 0, 1), p)
    if low.ndim == 0:
        return float(low), float(high)
    return low, high


def newcombe_interval(k1, n1, k2, n2, *, confidence: float = 0.95):
    """Newcombe's hybrid score interval (his method 10) for the difference p1 - p2."""
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson_interval(k1, n1, confidence=confidence)
    l2, u2 = wilson_interval(k2, n2, confidence=confidence)
    d = p1 - p2
    low = d - np.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + np.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return float(low), float(high)


def mean_interval(values, *, confidence: float = 0.95):
    """Student-t interval of the mean of ``values`` (NaN dropped); (nan, nan) for fewer than 2."""
    x = np.asarray(values, dtype=float)
    x = x[~np.isnan(x)]
    if x.size < 2:
        return float("nan"), float("nan")
    m, se = x.mean(), x.std(ddof=1) / np.sqrt(x.size)
    t = stats.t.ppf(0.5 + check_level(confidence) / 2, x.size - 1)
    return float(m - t * se), float(m + t * se)
