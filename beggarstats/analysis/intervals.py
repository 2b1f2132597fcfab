"""Confidence intervals for proportions and means: thin wrappers over statsmodels and scipy.

Each function keeps the signature the other modules (and the notebooks) use; the arithmetic is the
library's: `statsmodels.stats.proportion.proportion_confint` (Wilson),
`statsmodels.stats.proportion.confint_proportions_2indep` (Newcombe) and
`scipy.stats.ttest_1samp(...).confidence_interval` (Student t).
"""

from __future__ import annotations

import numpy as np
from scipy import stats
from statsmodels.stats.proportion import confint_proportions_2indep, proportion_confint

from ._checks import check_level

__all__ = ["wilson_interval", "newcombe_interval", "mean_interval", "z_value"]


def z_value(confidence: float) -> float:
    """The two-sided normal quantile for ``confidence`` (1.959964 for 0.95)."""
    return float(stats.norm.ppf(0.5 + check_level(confidence) / 2))


def wilson_interval(successes, trials, *, confidence: float = 0.95):
    """Wilson score interval of a binomial proportion (statsmodels ``method='wilson'``).

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
    alpha = 1 - check_level(confidence)
    with np.errstate(invalid="ignore", divide="ignore"):
        empty = n == 0
        low, high = proportion_confint(k, np.where(empty, 1, n), alpha=alpha, method="wilson")
        p = np.where(empty, np.nan, k / np.where(empty, 1, n))
        low, high = np.where(empty, np.nan, low), np.where(empty, np.nan, high)
    # The interval always contains k/n; rounding must not push a bound past it at k = 0 or k = n.
    low, high = np.minimum(np.clip(low, 0, 1), p), np.maximum(np.clip(high, 0, 1), p)
    if np.ndim(low) == 0:
        return float(low), float(high)
    return low, high


def newcombe_interval(k1, n1, k2, n2, *, confidence: float = 0.95):
    """Newcombe's hybrid score interval (his method 10) for the difference p1 - p2 of two
    independent proportions (statsmodels ``confint_proportions_2indep(method='newcomb')``)."""
    low, high = confint_proportions_2indep(k1, n1, k2, n2, method="newcomb", compare="diff",
                                           alpha=1 - check_level(confidence))
    return float(low), float(high)


def mean_interval(values, *, confidence: float = 0.95):
    """Student-t interval of the mean of ``values`` (NaN dropped); (nan, nan) for fewer than 2."""
    x = np.asarray(values, dtype=float)
    x = x[~np.isnan(x)]
    if x.size < 2:
        return float("nan"), float("nan")
    if np.all(x == x[0]):
        return float(x[0]), float(x[0])
    ci = stats.ttest_1samp(x, 0.0).confidence_interval(check_level(confidence))
    return float(ci.low), float(ci.high)
