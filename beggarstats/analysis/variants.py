"""Variants against a baseline: how much longer are games, and does the first player gain?"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
from scipy import stats

from ._checks import check_by, check_choice, check_frame, check_level, check_outcomes, group_items, numeric
from .intervals import newcombe_interval, z_value
from .lengths import MEASURES

__all__ = ["compare_variants", "METRICS", "welch_difference", "ratio_of_means", "proportion_difference"]

METRICS = ("mean_length_diff", "mean_length_ratio", "seat0_win_diff")


def welch_difference(x, y, *, confidence: float = 0.95) -> tuple[float, float, float, float]:
    """mean(x) - mean(y) with a Welch t interval: (estimate, low, high, p_value)."""
    vx, vy = x.var(ddof=1) / x.size, y.var(ddof=1) / y.size
    se = np.sqrt(vx + vy)
    df = (vx + vy) ** 2 / (vx**2 / (x.size - 1) + vy**2 / (y.size - 1))
    t = stats.t.ppf(0.5 + confidence / 2, df)
    d = x.mean() - y.mean()
    p = stats.ttest_ind(x, y, equal_var=False).pvalue
    return d, d - t * se, d + t * se, float(p)


def ratio_of_means(x, y, *, confidence: float = 0.95) -> tuple[float, float, float, float]:
    """mean(x) / mean(y), interval by the delta method on the log ratio."""
    mx, my = x.mean(), y.mean()
    se = np.sqrt(x.var(ddof=1) / (x.size * mx**2) + y.var(ddof=1) / (y.size * my**2))
    z, r = z_value(confidence), mx / my
    p = 2 * stats.norm.sf(abs(np.log(r)) / se)
    return r, r * np.exp(-z * se), r * np.exp(z * se), float(p)


def proportion_difference(k1, n1, k0, n0, *, confidence: float = 0.95, interval: str = "newcombe"):
    """k1/n1 - k0/n0 with a Newcombe hybrid-score or Wald interval and a pooled z-test p-value."""
    check_choice("interval", interval, ("newcombe", "wald"))
    p1, p0 = k1 / n1, k0 / n0
    d = p1 - p0
    if interval == "newcombe":
        low, high = newcombe_interval(k1, n1, k0, n0, confidence=confidence)
    else:
        half = z_value(confidence) * np.sqrt(p1 * (1 - p1) / n1 + p0 * (1 - p0) / n0)
        low, high = d - half, d + half
    pool = (k1 + k0) / (n1 + n0)
    se0 = np.sqrt(pool * (1 - pool) * (1 / n1 + 1 / n0))
    p = 2 * stats.norm.sf(abs(d) / se0) if se0 > 0 else (1.0 if d == 0 else 0.0)
    return d, low, high, float(p)


def compare_variants(data: pd.DataFrame, *, baseline: str = "standard", measure: str = "cards",
                     by="players", outcomes=("win",), interval: str = "newcombe",
                     confidence: float = 0.95) -> pd.DataFrame:
    """Each ``rules`` value against ``baseline`` within each group, one row per (rules, metric).

    Parameters
    ----------
    data : DataFrame
        One row per game: ``rules``, ``outcome``, ``winner`` and ``measure``.
    baseline : str
        The ``rules`` value compared against. Groups without it are skipped with a warning.
    by : str, sequence of str or None
        Groups compared separately (default: player count).
    outcomes : sequence of {'win', 'loop', 'cutoff'}
        Games whose length enters the mean (default: finished games).
    interval : {'newcombe', 'wald'}
        Interval for the difference in seat-0 win rate (among games with a winner).

    Returns
    -------
    DataFrame: ``by`` columns, ``rules``, ``baseline``, ``metric`` (one of `METRICS`),
    ``estimate``, ``low``, ``high``, ``p_value``, ``n``, ``n_baseline`` (games used),
    ``value``, ``baseline_value`` (the two means or rates compared).
    """
    check_choice("measure", measure, MEASURES)
    check_frame(data, ["rules", "outcome", "winner", measure])
    cols = [c for c in check_by(data, by) if c != "rules"]
    outcomes = check_outcomes(outcomes)
    check_choice("interval", interval, ("newcombe", "wald"))
    check_level(confidence)
    every = sorted(set(data["rules"].astype(str)))
    if baseline not in every:
        raise ValueError(f"The value for `baseline` must be one of {every} (the rules in the data), "
                         f"but {baseline!r} was passed.")
    rows = []
    for key, sub in group_items(data, cols):
        names = sub["rules"].astype(str)
        if baseline not in set(names):
            warnings.warn(f"No {baseline!r} games for {key}: its rules are not compared.", stacklevel=2)
            continue
        pieces = {}
        for name, part in sub.groupby(names, sort=True):
            x = numeric(part[measure])[np.isin(part["outcome"].astype(str), outcomes)]
            w = numeric(part["winner"])
            pieces[name] = (x[~np.isnan(x)], int(np.sum(w == 0)), int(np.sum(~np.isnan(w))))
        x0, k0, n0 = pieces[baseline]
        for name, (x1, k1, n1) in pieces.items():
            if name == baseline:
                continue
            common = dict(key, rules=name, baseline=baseline)
            for metric, fn in (("mean_length_diff", welch_difference), ("mean_length_ratio", ratio_of_means)):
                ok = x1.size > 1 and x0.size > 1
                est = fn(x1, x0, confidence=confidence) if ok else (np.nan,) * 4
                rows.append(dict(common, metric=metric, **dict(zip(("estimate", "low", "high", "p_value"), est)),
                                 n=x1.size, n_baseline=x0.size, value=x1.mean() if x1.size else np.nan,
                                 baseline_value=x0.mean() if x0.size else np.nan))
            est = proportion_difference(k1, n1, k0, n0, confidence=confidence, interval=interval) \
                if n1 and n0 else (np.nan,) * 4
            rows.append(dict(common, metric="seat0_win_diff", **dict(zip(("estimate", "low", "high", "p_value"), est)),
                             n=n1, n_baseline=n0, value=k1 / n1 if n1 else np.nan,
                             baseline_value=k0 / n0 if n0 else np.nan))
    return pd.DataFrame(rows)
