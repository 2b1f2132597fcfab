"""The tail of the length distribution: how fast long games end, per card.

`tail_rate` fits one rate beyond a threshold (a geometric tail); `hazard_bands` estimates the rate
separately in bands of length and `tail_constancy_test` asks whether one rate fits them all. Every
estimate is a Poisson GLM with the cards played as exposure (statsmodels): with K cards played
beyond the threshold and d games ending there, the one-rate fit gives d / sum(K), the
maximum-likelihood estimate of the geometric tail, and its interval is the GLM's (Wald on the log
rate)."""

from __future__ import annotations


import numpy as np
import pandas as pd
from scipy import stats

from ._checks import check_by, check_choice, check_frame, check_level, group_items, numeric
from .frames import check_games
from ._twins import accepts_summary
from .lengths import MEASURES
from .rates import poisson_rates
from .survival import km_table

__all__ = ["tail_rate", "geometric_tail", "hazard_bands", "tail_constancy_test", "poisson_rates"]


def geometric_tail(lengths, ended, *, threshold: float, confidence: float = 0.95,
                   method: str = "mle") -> dict:
    """The per-unit end rate p of lengths beyond ``threshold``, from plain arrays.

    ``method='mle'``: games longer than ``threshold`` (u) are modelled as u + K with K geometric on
    1, 2, ... (P(K = k) = (1-p)^(k-1) p); censored games give K > k. The maximum-likelihood estimate
    p = events / sum(k) is the Poisson GLM's rate with exposure sum(k) (`poisson_rates`), and so is
    its interval (Wald on the log rate). Censoring-aware.
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
    if method == "mle":
        if d == 0:
            p = low = high = np.nan
        else:
            rates, lows, highs, *_ = poisson_rates([d], [k.sum()], confidence=confidence)
            p, low, high = rates[0], lows[0], min(highs[0], 1.0)
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


@accepts_summary
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
    check_games(data)  # a frame of simulate's (analysis/frames.py)
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


def _threshold(t, e, start):
    km = km_table(t, e)
    reached = km["length"][km["survival"] <= 1 - start]
    return reached.iloc[0] if len(reached) else np.nan


def _bands(t, e, threshold, width, min_events):
    """Band edges from ``threshold`` in steps of ``width``; the last band is open and starts
    where fewer than ``min_events`` events remain beyond it."""
    edges = [threshold]
    while np.sum(e & (t > edges[-1] + width)) >= min_events:
        edges.append(edges[-1] + width)
    return np.array(edges + [np.inf])


def hazard_bands(data: pd.DataFrame, *, measure: str = "cards", by=("players", "rules"), start: float = 0.5,
                 width: float = 100, min_events: int = 1000, confidence: float = 0.95) -> pd.DataFrame:
    """The end rate per card (or trick) in bands of length beyond the tail's start, with intervals.

    A game longer than a band's lower edge ``lo`` adds min(length, hi) - lo cards of exposure to
    the band [lo, hi) and one event if it ended inside it ('win'; cut-offs are censored). A loop
    never ends: it adds the whole width of every band and, to the open last band, the cards up to
    the longest game of the group (the data say nothing beyond it), so a loop-prone deck's rate
    falls instead of counting loops as games that might still end.
    The rate is events / exposure with its Poisson-GLM interval (`poisson_rates`).

    Parameters
    ----------
    start : float
        The first band starts at the KM quantile ``start`` (0.5: the median length), as in `tail_rate`.
    width : float
        Band width in ``measure`` units.
    min_events : int
        Bands continue while at least this many events lie beyond the next edge; the rest is one
        open band (``band_high`` = inf).

    Returns
    -------
    DataFrame: ``by`` columns, ``band_low``, ``band_high``, ``games`` (reaching the band), ``events``,
    ``exposure``, ``rate``, ``low``, ``high``.
    """
    check_games(data)  # a frame of simulate's (analysis/frames.py)
    check_choice("measure", measure, MEASURES)
    check_frame(data, ["outcome", measure])
    cols = check_by(data, by)
    check_level(confidence)
    check_level(start, name="start")
    if not isinstance(width, (int, float, np.integer, np.floating)) or isinstance(width, bool) or not width > 0:
        raise ValueError(f"The value for `width` must be a positive number, but {width!r} was passed.")
    if not isinstance(min_events, (int, np.integer)) or isinstance(min_events, bool) or min_events < 1:
        raise ValueError(f"The value for `min_events` must be a whole number >= 1, but {min_events!r} was passed.")
    parts = []
    for key, sub in group_items(data, cols):
        outcome = sub["outcome"].astype(str).to_numpy()
        t = numeric(sub[measure])
        e = outcome == "win"
        keep = ~np.isnan(t)
        t, e, loop = t[keep], e[keep], outcome[keep] == "loop"
        if loop.any():
            t = np.where(loop, np.inf, t)
        u = _threshold(t, e, start)
        if np.isnan(u):
            continue
        edges = _bands(t, e, u, width, min_events)
        lo, hi = edges[:-1], edges[1:]
        games = np.array([np.sum(t > a) for a in lo])
        events = np.array([np.sum(e & (t > a) & (t <= b)) for a, b in zip(lo, hi)])
        longest = t[np.isfinite(t)].max()
        exposure = np.array([np.sum(np.clip(t[t > a], None, b if np.isfinite(b) else longest) - a)
                             for a, b in zip(lo, hi)])
        rate, low, high, *_ = poisson_rates(events, exposure, confidence=confidence)
        parts.append(pd.DataFrame(dict(key, band_low=lo, band_high=hi, games=games, events=events,
                                       exposure=exposure, rate=rate, low=low, high=high)))
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


def tail_constancy_test(data: pd.DataFrame, *, measure: str = "cards", by=("players", "rules"), start: float = 0.5,
                        width: float = 100, min_events: int = 1000) -> pd.DataFrame:
    """Does one rate per card fit every band of `hazard_bands`? Likelihood-ratio test of the
    band-by-band Poisson GLM against the one-rate fit, one row per group: ``by`` columns,
    ``threshold``, ``bands``, ``chi2``, ``dof`` (bands - 1), ``p_value``, ``rate_min``, ``rate_max``
    (the smallest and largest band rates)."""
    check_games(data)  # a frame of simulate's (analysis/frames.py)
    bands = hazard_bands(data, measure=measure, by=by, start=start, width=width, min_events=min_events)
    cols = check_by(data, by)
    rows = []
    for key, sub in group_items(bands, cols) if len(bands) else ():
        *_, chi2, dof, p = poisson_rates(sub["events"], sub["exposure"])
        rows.append(dict(key, threshold=float(sub["band_low"].min()), bands=len(sub), chi2=chi2, dof=dof,
                         p_value=p, rate_min=float(sub["rate"].min()), rate_max=float(sub["rate"].max())))
    return pd.DataFrame(rows)
