"""The Monte Carlo held to the truth: how often the package's intervals contain a census's exact value.

`interval_coverage` draws many independent samples of random games (`summarize` with seeds 1, 2,
...) of a deck whose census is known, computes on each the package's own intervals - the Wilson
interval of seat 0's win rate (`summaries.seat_win_rates`), the t interval of the mean length of
finished games (`summaries.length_summary`), the Clopper-Pearson interval of the loop share
(`summaries.loop_share`) and the Poisson-GLM interval of the tail's per-card end rate beyond the
census's median length (`summaries.tail_rate`; its exact value is that ratio, events over exposure,
over all deals) - and counts how often each contains the exact value. Each coverage comes
with its own Clopper-Pearson interval over the samples (statsmodels), so "95% intervals cover 95%
of the time" is a claim that can fail.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from statsmodels.stats.proportion import proportion_confint

from . import summaries as sa

__all__ = ["interval_coverage", "exact_values", "tail_threshold"]


def exact_values(census) -> dict:
    """The exact values the intervals are held to, from a census: seat 0's win share (of deals with a
    winner), the mean length in cards of the finished deals, the share of looping deals, and the
    tail's per-card end rate beyond the median length (`tail_threshold`)."""
    if not getattr(census, "exact", False):
        raise ValueError("The value for `census` must be a census (summary.exact), the exact values to check against.")
    x, c = census.frequencies("cards", ("win",))
    return {"seat 0 win rate": census.wins[0] / census.wins.sum(), "mean length (cards)": float((x * c).sum() / c.sum()),
            "loop share": census.outcomes[1] / census.n_games,
            "tail rate": float(sa.tail_rate(census, threshold=tail_threshold(census))["rate"].iloc[0])}


def tail_threshold(census) -> float:
    """The census's median length in cards (Kaplan-Meier, loops censored): the tail starts there."""
    return float(sa.tail_rate(census)["threshold"].iloc[0])


def interval_coverage(census, *, samples: int = 200, games: int = 1000, confidence: float = 0.95,
                      n_jobs: int = 1) -> pd.DataFrame:
    """Coverage of the package's ``confidence`` intervals over ``samples`` samples of ``games`` games.

    Parameters
    ----------
    census : Summary
        A census (`beggarstats.census`) of the rules to sample.
    samples, games : int
        Independent samples (seeds 1 .. samples) and games in each.
    confidence : float
        Level of the intervals checked (and of the interval on each coverage).

    Returns
    -------
    DataFrame
        One row per quantity: ``quantity``, ``exact``, ``samples``, ``covered``, ``coverage`` and its
        Clopper-Pearson ``low``/``high`` over the samples, ``nominal`` (= ``confidence``).
    """
    from ..run.summary import summarize

    truth = exact_values(census)
    u = tail_threshold(census)
    hits = dict.fromkeys(truth, 0)
    counted = dict.fromkeys(truth, 0)
    for seed in range(1, samples + 1):
        s = summarize(games, rules=census.rules, seed=seed, n_jobs=n_jobs)
        rate = sa.seat_win_rates(s, confidence=confidence).iloc[0]
        mean = sa.length_summary(s, confidence=confidence).iloc[0]
        loop = sa.loop_share(s, confidence=confidence).iloc[0]
        tail = sa.tail_rate(s, threshold=u, confidence=confidence).iloc[0]
        for name, (lo, hi) in {"seat 0 win rate": (rate["low"], rate["high"]),
                               "mean length (cards)": (mean["mean_low"], mean["mean_high"]),
                               "loop share": (loop["low"], loop["high"]),
                               "tail rate": (tail["rate_low"], tail["rate_high"])}.items():
            if np.isfinite(lo) and np.isfinite(hi):  # a sample too small for the interval is not counted
                counted[name] += 1
                hits[name] += bool(lo <= truth[name] <= hi)
    rows = []
    for name, exact in truth.items():
        k, n = hits[name], counted[name]
        low, high = proportion_confint(k, n, alpha=1 - confidence, method="beta") if n else (np.nan, np.nan)
        rows.append({"quantity": name, "exact": exact, "samples": n, "covered": k,
                     "coverage": k / n if n else np.nan, "low": low, "high": high, "nominal": confidence})
    return pd.DataFrame(rows)
