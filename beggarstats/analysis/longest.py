"""What a random search should find: the longest of n random deals, from a summary's geometric tail.

Beyond a threshold u a share S(u) of the games is still going and each further card ends a game
with probability p (`summaries.tail_rate`), so P(L > x) = S(u) (1 - p)^(x - u). The longest of n
independent deals then has P(max <= x) = exp(-n P(L > x)) (Poisson count of the deals beyond x),
a Gumbel law with location u + ln(n S(u)) / b and scale 1 / b, b = -ln(1 - p) (`scipy.stats.gumbel_r`
gives its mean and quantiles). Lengths are whole cards; the continuous law is a close approximation
(its scale is about 200 cards).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from .summaries import tail_rate

__all__ = ["expected_longest"]


def expected_longest(summary, n_deals, *, start: float = 0.99, quantiles=(0.05, 0.95)) -> pd.DataFrame:
    """The longest of ``n_deals`` random deals expected from the geometric tail of ``summary``.

    Parameters
    ----------
    summary : Summary
        Random deals of the rules searched (e.g. the committed ``data/summary-p2.json``).
    n_deals : int or sequence of int
        Deals tried.
    start : float
        The tail is fitted beyond this quantile of the length (default: the longest 1%, as the
        scale findings).
    quantiles : pair of float
        The range of the longest reported.

    Returns
    -------
    pandas.DataFrame
        One row per ``n_deals``: ``deals``, ``mean`` and ``median`` (cards), ``low`` and ``high``
        (the ``quantiles`` of the longest, cards), ``rate`` (p per card) and ``threshold`` (u).
    """
    tail = tail_rate(summary, start=start).iloc[0]
    u, s_u, p = float(tail["threshold"]), float(tail["survival_at_threshold"]), float(tail["rate"])
    b = -np.log1p(-p)
    rows = []
    for n in np.atleast_1d(n_deals):
        if not n >= 1:
            raise ValueError(f"The value for `n_deals` must be a number of deals >= 1, but {n!r} was passed.")
        law = stats.gumbel_r(loc=u + np.log(float(n) * s_u) / b, scale=1 / b)
        rows.append({"deals": float(n), "mean": law.mean(), "median": law.median(), "low": law.ppf(quantiles[0]),
                     "high": law.ppf(quantiles[1]), "rate": p, "threshold": u})
    return pd.DataFrame(rows)
