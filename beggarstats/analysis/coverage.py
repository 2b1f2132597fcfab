"""The Monte Carlo held to the truth: how often the package's intervals contain a census's exact value.

`interval_coverage` draws many independent samples of random games (`summarize` with seeds 1, 2,
...) of a deck whose census is known, computes on each the package's own intervals - the Wilson
interval of seat 0's win rate (`summaries.seat_win_rates`), the t interval of the mean length of
finished games (`summaries.length_summary`), the Clopper-Pearson interval of the loop share
(`summaries.loop_share`) and the Poisson-GLM interval of the tail's per-card end rate beyond the
census's median length (`summaries.tail_rate`; its exact value is that ratio, events over exposure,
over all deals), the log-log band of the survival curve (`summaries.kaplan_meier`) at the lengths
where the exact curve crosses 3/4, 1/2 and 1/4, and, given a ``variant`` of the rules, the paired
t interval of the mean length difference of the same deals (`run.compare`; its exact value is the
mean difference over every deal finished under both rules, each deal played under both by
`engine.census_kernel.play_ranks`) - and counts how often each contains the exact value. Each coverage comes
with its own Clopper-Pearson interval over the samples (statsmodels), so "95% intervals cover 95%
of the time" is a claim that can fail.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from statsmodels.stats.proportion import proportion_confint

from . import summaries as sa

__all__ = ["interval_coverage", "exact_values", "tail_threshold", "survival_lengths", "exact_paired_difference"]


def exact_values(census, variant=None) -> dict:
    """The exact values the intervals are held to, from a census: seat 0's win share (of deals with a
    winner), the mean length in cards of the finished deals, the share of looping deals, the tail's
    per-card end rate beyond the median length (`tail_threshold`), the survival P(length > L) at each
    length L of `survival_lengths` ("survival at L cards"), and with ``variant`` (rules that deal
    alike) the mean of cards(census.rules) - cards(variant) over the deals both finish."""
    if not getattr(census, "exact", False):
        raise ValueError("The value for `census` must be a census (summary.exact), the exact values to check against.")
    x, c = census.frequencies("cards", ("win",))
    values = {"seat 0 win rate": census.wins[0] / census.wins.sum(), "mean length (cards)": float((x * c).sum() / c.sum()),
              "loop share": census.outcomes[1] / census.n_games,
              "tail rate": float(sa.tail_rate(census, threshold=tail_threshold(census))["rate"].iloc[0])}
    km = sa.kaplan_meier(census)
    for length in survival_lengths(census):
        values[f"survival at {length:g} cards"] = _survival_at(km, length)[0]
    if variant is not None:
        values["paired difference (cards)"] = exact_paired_difference(census, variant)
    return values


def tail_threshold(census) -> float:
    """The census's median length in cards (Kaplan-Meier, loops censored): the tail starts there."""
    return float(sa.tail_rate(census)["threshold"].iloc[0])


def survival_lengths(census, levels=(0.75, 0.5, 0.25)) -> list[float]:
    """The shortest lengths (cards) at which the census's exact survival P(length > L) falls to each
    of ``levels`` or below: where the survival curve's coverage is checked."""
    km = sa.kaplan_meier(census)
    return [float(km["length"][km["survival"] <= q].iloc[0]) for q in levels]


def _survival_at(km, length: float) -> tuple:
    """(survival, low, high) of a Kaplan-Meier table at ``length`` (the step before it: 1 before the first event)."""
    before = km[km["length"] <= length]
    if not len(before):
        return 1.0, 1.0, 1.0
    r = before.iloc[-1]
    return float(r["survival"]), float(r["low"]), float(r["high"])


def exact_paired_difference(census, variant) -> float:
    """The mean of cards(census.rules) - cards(variant) over every deal that both rules finish: each
    distinct deal of the census played under both (`engine.census_kernel.play_ranks`), each equally
    likely in a random deal."""
    from ..engine.census_kernel import play_ranks
    from ..engine.rank import n_deals
    from ..game.rules import check_rules

    variant = check_rules(variant)
    rules = census.rules
    if (variant.players, variant.deck, variant.jokers) != (rules.players, rules.deck, rules.jokers):
        raise ValueError(f"The value for `variant` must deal like the census (the same players, deck and jokers), "
                         f"but {variant.name!r} was passed.")
    a, b = play_ranks(rules, 0, n_deals(rules)), play_ranks(variant, 0, n_deals(rules))
    both = (a["outcome"] == 0) & (b["outcome"] == 0)
    return float((a["cards"][both].astype(np.int64) - b["cards"][both].astype(np.int64)).mean())


def interval_coverage(census, *, samples: int = 200, games: int = 1000, confidence: float = 0.95,
                      n_jobs: int | None = None, variant=None) -> pd.DataFrame:
    """Coverage of the package's ``confidence`` intervals over ``samples`` samples of ``games`` games.

    Parameters
    ----------
    census : Summary
        A census (`beggarstats.census`) of the rules to sample.
    samples, games : int
        Independent samples (seeds 1 .. samples) and games in each.
    confidence : float
        Level of the intervals checked (and of the interval on each coverage).
    n_jobs : int, optional
        Workers of each sample's run (scikit-learn's convention: None is 1, -1 all cores).
    variant : Rules, optional
        Rules dealing like the census's: also checks the paired t interval of `run.compare` (the same
        ``games`` deals of each sample under both rules) against `exact_paired_difference`; a
        sample with fewer pairs than the interval needs at its skewness is not counted (the package
        refuses the interval there: `PairedMoments.t_pairs_needed`).

    Returns
    -------
    DataFrame
        One row per quantity: ``quantity``, ``exact``, ``samples``, ``covered``, ``coverage`` and its
        Clopper-Pearson ``low``/``high`` over the samples, ``nominal`` (= ``confidence``).
    """
    from ..run.compare import compare
    from ..run.summarize import summarize

    truth = exact_values(census, variant)
    u = tail_threshold(census)
    lengths = survival_lengths(census)
    hits = dict.fromkeys(truth, 0)
    counted = dict.fromkeys(truth, 0)
    for seed in range(1, samples + 1):
        s = summarize(games, rules=census.rules, seed=seed, n_jobs=n_jobs)
        rate = sa.seat_win_rates(s, confidence=confidence).iloc[0]
        mean = sa.length_summary(s, confidence=confidence).iloc[0]
        loop = sa.loop_share(s, confidence=confidence).iloc[0]
        tail = sa.tail_rate(s, threshold=u, confidence=confidence).iloc[0]
        km = sa.kaplan_meier(s, confidence=confidence)
        found = {"seat 0 win rate": (rate["low"], rate["high"]),
                 "mean length (cards)": (mean["mean_low"], mean["mean_high"]),
                 "loop share": (loop["low"], loop["high"]),
                 "tail rate": (tail["rate_low"], tail["rate_high"])}
        for length in lengths:
            found[f"survival at {length:g} cards"] = _survival_at(km, length)[1:]
        if variant is not None:
            moments = compare(census.rules, variant, games, seed=seed, n_jobs=n_jobs)
            # below the pairs its skewness needs the package refuses the t interval: not counted
            found["paired difference (cards)"] = (moments.interval(confidence) if moments.pairs >= moments.t_pairs_needed
                                                  else (np.nan, np.nan))
        for name, (lo, hi) in found.items():
            if np.isfinite(lo) and np.isfinite(hi):  # a sample too small for the interval is not counted
                counted[name] += 1
                hits[name] += bool(lo <= truth[name] <= hi)
    rows = []
    for name, exact in truth.items():
        k, n = hits[name], counted[name]
        low, high = proportion_confint(k, n, alpha=1 - confidence, method="beta") if n else (np.nan, np.nan)
        rows.append({"quantity": name, "exact": exact, "samples": n,
                     "covered": k, "coverage": k / n if n else np.nan, "low": low, "high": high, "nominal": confidence})
    return pd.DataFrame(rows)
