"""The tail of the length distribution: past some length, BMN games end at a roughly constant rate
per card (a geometric tail). `tail_rate` estimates that rate with a confidence interval."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from ._checks import check_by, check_choice, check_frame, check_level, group_items, numeric
from .intervals import z_value
from .lengths import MEASURES
from .survival import km_table

__all__ = ["tail_rate", "geometric_tail"]


def geometric_tail(lengths, ended, *, threshold: float, confidence: float = 0.95,
                   method: str = "mle") -> dict:
    """The per-unit end rate p of lengths beyond ``threshold``, from plain arrays.

    ``method='mle'``: games longer than ``threshold`` (u) are modelled as u + K with K geometric on
    1, 2, ... (P(K = k) = (1-p)^(k-1) p); censored games give K > k. The maximum-likelihood estimate
    is p = events / sum(k) and its interval is Wald on observed information. Censoring-aware and with
    honest standard errors.
    ``method='slope'``: least squares of log KM survival on length at event lengths beyond u;
    p = 1 - exp(slope). The classic picture; its interval ignores that KM points are correlated
    and is too narrow.

    Returns a dict: ``threshold``, ``n_tail``, ``events``, ``rate``, ``rate_low``, ``rate_high``,
    ``half_life`` (lengths for the survivors to halve: log 2 / -log(1 - p)).
    """
    check_choice("method", method, ("mle", "slope"))
    t = np.asarray(lengths, dtype=float)
    e = np.asarray(ended, dtype=bool)
    tail = t > threshold
    k, d = t[tail] - threshold, int(np.sum(e[tail]))
    out = dict(threshold=float(threshold), n_tail=int(tail.sum()), events=d)
    z = z_value(confidence)
    if method == "mle":
        if d == 0:
            p = low = high = np.nan
        else:
            p = d / k.sum()
            info = d / p**2 + (k.sum() - d) / (1 - p) ** 2 if p < 1 else np.inf
            half = z / np.sqrt(info)
            low, high = max(p - half, 0.0), min(p + half, 1.0)
    else:
        km = km_table(t, e)
        pts = km[(km["length"] > threshold) & (km["events"] > 0) & (km["survival"] > 0)]
        if len(pts) < 3:
            p = low = high = np.nan
        else:
            fit = stats.linregress(pts["length"], np.log(pts["survival"]))
            q = stats.t.ppf(0.5 + confidence / 2, len(pts) - 2)
            slope = np.array([fit.slope, fit.slope + q * fit.stderr, fit.slope - q * fit.stderr])
            p, low, high = 1 - np.exp(np.minimum(slope, 0))
    out.update(rate=p, rate_low=low, rate_high=high,
               half_life=np.log(2) / -np.log1p(-p) if 0 < p < 1 else np.nan)
    return out


def tail_rate(data: pd.DataFrame, *, measure: str = "cards", by=("players", "rules"), start: float = 0.5,
              method: str = "mle", confidence: float = 0.95) -> pd.DataFrame:
    """Per-card (or per-trick) end rate of long games, one row per group.

    Parameters
    ----------
    data : DataFrame
        One row per game: ``outcome`` and ``measure`` ('win' = ended, else censored).
    start : float
        Where the tail begins, as a KM quantile: the threshold is the shortest length by which this
        share of games has ended (0.5: the median length).
    method : {'mle', 'slope'}
        See `geometric_tail`.

    Returns
    -------
    DataFrame: ``by`` columns and the keys of `geometric_tail`.
    """
    check_choice("measure", measure, MEASURES)
    check_frame(data, ["outcome", measure])
    cols = check_by(data, by)
    check_level(confidence)
    check_level(start, name="start")
    check_choice("method", method, ("mle", "slope"))
    rows = []
    for key, sub in group_items(data, cols):
        t = numeric(sub[measure])
        e = sub["outcome"].astype(str).to_numpy() == "win"
        km = km_table(t, e)
        reached = km["length"][km["survival"] <= 1 - start]
        threshold = reached.iloc[0] if len(reached) else np.nan
        rows.append(dict(key, **geometric_tail(t, e, threshold=threshold, confidence=confidence, method=method)))
    return pd.DataFrame(rows)
