"""Event rates with exposure: the Poisson GLM that the tail statistics (`tail`) and the summaries'
twins (`beggarstats.analysis.summaries`) share. Kept apart from the functions that accept a
`Summary`, so that the summaries can use it without a cycle."""

from __future__ import annotations

import warnings

import numpy as np
import statsmodels.api as sm
from scipy import stats

from ._checks import check_level

__all__ = ["poisson_rates"]


def poisson_rates(events, exposure, *, confidence: float = 0.95):
    """Rates events / exposure with Poisson-GLM intervals, one per cell, and the likelihood-ratio
    test of one common rate: (rates, lows, highs, chi2, dof, p_value).

    The cells are fitted jointly (one indicator per cell, log exposure as offset); the test
    compares that fit with the intercept-only one. Cells without exposure are NaN.
    """
    d, x = np.asarray(events, float), np.asarray(exposure, float)
    use = x > 0
    rates, lows, highs = (np.full(d.size, np.nan) for _ in range(3))
    if not use.any() or d[use].sum() == 0:
        return rates, lows, highs, np.nan, 0, np.nan
    alpha = 1 - check_level(confidence)
    with warnings.catch_warnings():
        # One indicator per cell is a saturated fit: statsmodels warns about its 0 residual
        # degrees of freedom (and 'separation' for a 1-cell fit), which a Poisson fit (scale 1) does not use.
        warnings.simplefilter("ignore")
        full = sm.GLM(d[use], np.eye(int(use.sum())), family=sm.families.Poisson(), exposure=x[use]).fit()
        one = sm.GLM(d[use], np.ones((int(use.sum()), 1)), family=sm.families.Poisson(), exposure=x[use]).fit()
    ci = np.exp(full.conf_int(alpha))
    rates[use], lows[use], highs[use] = d[use] / x[use], ci[:, 0], ci[:, 1]
    lows[use & (d == 0)] = 0.0  # no events: the estimate is 0 and the Wald interval degenerate
    dof = int(use.sum()) - 1
    chi2 = max(2 * (full.llf - one.llf), 0.0)
    return rates, lows, highs, float(chi2), dof, float(stats.chi2.sf(chi2, dof)) if dof else np.nan
