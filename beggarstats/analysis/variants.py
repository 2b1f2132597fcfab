"""Variants against a baseline: how much longer are games, and does the first player gain?

**Design.** `simulate` fixes game g of a table by (seed, g) alone, so two tables run with the same
seed, player count and deck deal the same cards to game g: the runs of `beggarstats figures` are
common random numbers on purpose. Such tables are compared **paired** (joined on ``game``); the
variation between deals then cancels and the interval measures only the effect of the rule.
Tables whose deals differ (another deck, jokers added) are compared as **independent** samples.
`compare_variants` decides per pair of tables (``design='auto'``) and says which in ``design``.
"""

from __future__ import annotations

import re
import warnings

import numpy as np
import pandas as pd
from scipy import stats
from statsmodels.stats.proportion import confint_proportions_2indep, proportions_ztest

from ._checks import check_by, check_choice, check_frame, check_level, check_outcomes, group_items, numeric
from .frames import check_games
from .intervals import z_value
from .lengths import MEASURES

__all__ = ["compare_variants", "METRICS", "DESIGNS", "welch_difference", "paired_difference",
           "ratio_of_means", "proportion_difference", "paired_proportion_difference", "deal_key",
           "detectable_effect"]


def detectable_effect(se, *, power: float = 0.8, alpha: float = 0.05):
    """The smallest true effect a two-sided level-``alpha`` test detects with probability ``power``
    when the estimate has standard error ``se`` (same units): (z_{1-alpha/2} + z_power) se, the
    normal power calculation (statsmodels `NormalIndPower`, one sample of one, ratio 0) - 2.80 se at
    80% power and 5%. NaN where ``se`` is."""
    from statsmodels.stats.power import NormalIndPower

    k = NormalIndPower().solve_power(nobs1=1, alpha=alpha, power=power, ratio=0)
    return k * np.asarray(se, dtype=float)

METRICS = ("mean_length_diff", "mean_length_ratio", "seat0_win_diff")
DESIGNS = ("auto", "paired", "independent")


def welch_difference(x, y, *, confidence: float = 0.95) -> tuple[float, float, float, float]:
    """mean(x) - mean(y) of independent samples, Welch t interval and p-value (`scipy.stats.ttest_ind`):
    (estimate, low, high, p_value)."""
    res = stats.ttest_ind(x, y, equal_var=False)
    ci = res.confidence_interval(confidence)
    return float(x.mean() - y.mean()), float(ci.low), float(ci.high), float(res.pvalue)


def paired_difference(x, y, *, confidence: float = 0.95) -> tuple[float, float, float, float]:
    """mean(x - y) of paired samples (x[i], y[i] from the same deal), paired t interval and p-value
    (`scipy.stats.ttest_rel`): (estimate, low, high, p_value).

    When every difference is the same (a rule that changes no game of the sample) the variance is 0:
    the interval is that difference exactly and the p-value 1 if it is 0 (0 otherwise).
    """
    x, y = np.asarray(x, float), np.asarray(y, float)
    d = x - y
    if d.size and np.all(d == d[0]):
        return float(d[0]), float(d[0]), float(d[0]), 1.0 if d[0] == 0 else 0.0
    res = stats.ttest_rel(x, y)
    ci = res.confidence_interval(confidence)
    return float(d.mean()), float(ci.low), float(ci.high), float(res.pvalue)


def ratio_of_means(x, y, *, confidence: float = 0.95, paired: bool = False) -> tuple[float, float, float, float]:
    """mean(x) / mean(y), interval by the delta method on the log ratio.

    Var(log r) ~ Var(x)/(n mx^2) + Var(y)/(n my^2) - 2 Cov(x, y)/(n mx my); the covariance term
    is there only when ``paired`` (no library offers this ratio; tests check it by hand).
    """
    mx, my = x.mean(), y.mean()
    var = x.var(ddof=1) / (x.size * mx**2) + y.var(ddof=1) / (y.size * my**2)
    if paired:
        var -= 2 * np.cov(x, y, ddof=1)[0, 1] / (x.size * mx * my)
    se = np.sqrt(max(var, 0.0))
    z, r = z_value(confidence), mx / my
    p = 2 * stats.norm.sf(abs(np.log(r)) / se) if se > 0 else (1.0 if r == 1 else 0.0)
    return float(r), float(r * np.exp(-z * se)), float(r * np.exp(z * se)), float(p)


def proportion_difference(k1, n1, k0, n0, *, confidence: float = 0.95, interval: str = "newcombe"):
    """k1/n1 - k0/n0 of independent samples: Newcombe hybrid-score or Wald interval
    (`statsmodels.stats.proportion.confint_proportions_2indep`) and the pooled z-test p-value
    (`proportions_ztest`)."""
    check_choice("interval", interval, ("newcombe", "wald"))
    d = k1 / n1 - k0 / n0
    low, high = confint_proportions_2indep(k1, n1, k0, n0, method="newcomb" if interval == "newcombe" else "wald",
                                           compare="diff", alpha=1 - check_level(confidence))
    if k1 + k0 in (0, n1 + n0):
        p = 1.0
    else:
        p = float(proportions_ztest([k1, k0], [n1, n0])[1])
    return float(d), float(low), float(high), p


def paired_proportion_difference(a, b, *, confidence: float = 0.95) -> tuple[float, float, float, float]:
    """mean(a) - mean(b) for paired 0/1 outcomes (a[i], b[i] from the same deal).

    Method: the paired t interval of the differences a[i] - b[i] (values -1, 0, 1), i.e.
    `scipy.stats.ttest_rel` on the indicators. Why this one: statsmodels has no interval for
    a difference of paired proportions (only McNemar's test), and the paired t interval is the
    Wald interval of that difference, (b - c)/n +- q sqrt((b + c - (b - c)^2/n) / (n (n - 1))) for
    b, c discordant pairs, with a t quantile; Newcombe's and Tango's score intervals differ from it
    only when the discordant pairs are few (tens). `compare_variants` reports their number
    (``discordant``) so a reader can see when that is the case. A sample without discordant pairs
    has no spread to measure; there the rule changed no winner of the sample, and the difference of
    the two rates is at most the share of discordant pairs in the population, whose exact
    Clopper-Pearson upper bound U (`statsmodels.stats.proportion.proportion_confint`, 'beta', at
    0 of n) gives the interval [-U, U] with p = 1: identical in every game of the sample, and
    an interval with width for the population.
    """
    a, b = np.asarray(a, float), np.asarray(b, float)
    if a.size and np.all(a == b):
        from statsmodels.stats.proportion import proportion_confint

        upper = float(proportion_confint(0, a.size, alpha=1 - confidence, method="beta")[1])
        return 0.0, -upper, upper, 1.0
    return paired_difference(a, b, confidence=confidence)


# The parts of a rules name (`Rules.name`) that change what is dealt: the deck and the number of jokers.
_DECK_PART = re.compile(r"^(?:.+ deck|\d+ jokers?)")


def deal_key(rules_name: str) -> str:
    """What decides the deal in a rules name: its deck and joker count ('' for the standard deck).
    Two tables with the same seed, player count and deal key deal the same cards to game g."""
    parts = [p.strip() for p in str(rules_name).split(",")]
    return ", ".join(m.group(0) for m in map(_DECK_PART.match, parts) if m)


def _same_seed(a: pd.DataFrame, b: pd.DataFrame) -> bool:
    if "seed" in a.columns and "seed" in b.columns:
        sa, sb = set(pd.unique(a["seed"])), set(pd.unique(b["seed"]))
        return len(sa) == 1 and sa == sb
    return True


def _rows(metric, common, est, n, n0, value, baseline_value, design, *, confidence, **extra):
    row = dict(common, metric=metric, **dict(zip(("estimate", "low", "high", "p_value"), est)),
               n=n, n_baseline=n0, value=value, baseline_value=baseline_value, design=design, **extra)
    # the se behind the interval, read back from its half width (normal scale; the ratio's is
    # on the log scale, so it gets none)
    half = (row["high"] - row["low"]) / (2 * z_value(confidence))
    row["detectable"] = float(detectable_effect(half)) if metric != "mean_length_ratio" else np.nan
    return row


def _independent(part, base, measure, outcomes, confidence, interval, common):
    def pieces(frame):
        x = numeric(frame[measure])[np.isin(frame["outcome"].astype(str), outcomes)]
        w = numeric(frame["winner"])
        return x[~np.isnan(x)], int(np.sum(w == 0)), int(np.sum(~np.isnan(w)))

    (x1, k1, n1), (x0, k0, n0) = pieces(part), pieces(base)
    ok = x1.size > 1 and x0.size > 1
    out = []
    for metric, fn in (("mean_length_diff", welch_difference), ("mean_length_ratio", ratio_of_means)):
        est = fn(x1, x0, confidence=confidence) if ok else (np.nan,) * 4
        out.append(_rows(metric, common, est, x1.size, x0.size, x1.mean() if x1.size else np.nan,
                         x0.mean() if x0.size else np.nan, "independent", confidence=confidence))
    est = proportion_difference(k1, n1, k0, n0, confidence=confidence, interval=interval) \
        if n1 and n0 else (np.nan,) * 4
    out.append(_rows("seat0_win_diff", common, est, n1, n0, k1 / n1 if n1 else np.nan,
                     k0 / n0 if n0 else np.nan, "independent", discordant=np.nan, confidence=confidence))
    return out


def _paired(part, base, measure, outcomes, confidence, common):
    cols = ["game", measure, "outcome", "winner"]
    both = part[cols].merge(base[cols], on="game", suffixes=("", "_base"), validate="one_to_one")
    done = np.isin(both["outcome"].astype(str), outcomes) & np.isin(both["outcome_base"].astype(str), outcomes)
    x1, x0 = numeric(both[measure])[done], numeric(both[f"{measure}_base"])[done]
    ok = x1.size > 1
    out = []
    est = paired_difference(x1, x0, confidence=confidence) if ok else (np.nan,) * 4
    out.append(_rows("mean_length_diff", common, est, x1.size, x1.size, x1.mean() if ok else np.nan,
                     x0.mean() if ok else np.nan, "paired", confidence=confidence))
    est = ratio_of_means(x1, x0, confidence=confidence, paired=True) if ok else (np.nan,) * 4
    out.append(_rows("mean_length_ratio", common, est, x1.size, x1.size, x1.mean() if ok else np.nan,
                     x0.mean() if ok else np.nan, "paired", confidence=confidence))
    w1, w0 = numeric(both["winner"]), numeric(both["winner_base"])
    decided = ~np.isnan(w1) & ~np.isnan(w0)
    a, b = (w1[decided] == 0).astype(float), (w0[decided] == 0).astype(float)
    est = paired_proportion_difference(a, b, confidence=confidence) if a.size > 1 else (np.nan,) * 4
    out.append(_rows("seat0_win_diff", common, est, a.size, a.size, a.mean() if a.size else np.nan,
                     b.mean() if b.size else np.nan, "paired", discordant=int(np.sum(a != b)), confidence=confidence))
    return out


def compare_variants(data: pd.DataFrame, *, baseline: str = "standard", measure: str = "cards",
                     by="players", outcomes=("win",), interval: str = "newcombe", design: str = "auto",
                     confidence: float = 0.95) -> pd.DataFrame:
    """Each ``rules`` value against ``baseline`` within each group, one row per (rules, metric).

    Parameters
    ----------
    data : DataFrame
        One row per game: ``rules``, ``outcome``, ``winner`` and ``measure``; ``game`` for paired
        comparisons, optionally ``seed``.
    baseline : str
        The ``rules`` value compared against. Groups without it are skipped with a warning.
    by : str, sequence of str or None
        Groups compared separately (default: player count).
    outcomes : sequence of {'win', 'loop', 'cutoff'}
        Games whose length enters the mean (default: finished games; paired: both games of the pair).
    interval : {'newcombe', 'wald'}
        Interval for the difference in seat-0 win rate between independent samples.
    design : {'auto', 'paired', 'independent'}
        'auto' pairs a variant with the baseline when the data have a ``game`` column and both
        deal the same cards (same `deal_key` of the rules name; same ``seed`` if that column is
        there) and ``game`` numbers each game once in both: games are joined on ``game`` and
        only games present in both enter. Paired: a
        paired t interval for the length difference (`paired_difference`), the delta method with
        the covariance for the ratio, and `paired_proportion_difference` for seat 0's win rate
        (games with a winner in both). Independent: Welch, delta method, Newcombe (or Wald).
        'paired' forces pairing on ``game`` (an error if ``game`` is missing).

    Returns
    -------
    DataFrame: ``by`` columns, ``rules``, ``baseline``, ``metric`` (one of `METRICS`),
    ``estimate``, ``low``, ``high``, ``p_value``, ``n``, ``n_baseline`` (games used; paired: both
    the number of pairs), ``value``, ``baseline_value`` (the two means or rates compared),
    ``detectable`` (the smallest effect the comparison detects at 80% power, two-sided 5%:
    `detectable_effect` of the interval's standard error; NaN for the ratio),
    ``design`` ('paired' or 'independent') and ``discordant`` (paired seat-0 rows: pairs whose
    seat-0 outcome differs; NaN elsewhere).
    """
    check_games(data)  # a frame of simulate's (analysis/frames.py)
    check_choice("measure", measure, MEASURES)
    check_frame(data, ["rules", "outcome", "winner", measure])
    cols = [c for c in check_by(data, by) if c != "rules"]
    outcomes = check_outcomes(outcomes)
    check_choice("interval", interval, ("newcombe", "wald"))
    check_choice("design", design, DESIGNS)
    if design == "paired":
        check_frame(data, ["game"])
    check_level(confidence)
    every = sorted({str(v) for v in pd.unique(data["rules"])})  # per distinct value, not per row
    if baseline not in every:
        raise ValueError(f"The value for `baseline` must be one of {every} (the rules in the data), "
                         f"but {baseline!r} was passed.")
    rows = []
    for key, sub in group_items(data, cols):
        names = sub["rules"].astype(str)
        if baseline not in set(names):
            warnings.warn(f"No {baseline!r} games for {key}: its rules are not compared.", stacklevel=2)
            continue
        parts = {name: part for name, part in sub.groupby(names, sort=True)}
        base = parts[baseline]
        for name, part in parts.items():
            if name == baseline:
                continue
            common = dict(key, rules=name, baseline=baseline)
            pair = design == "paired" or (design == "auto" and "game" in sub.columns
                                          and part["game"].is_unique and base["game"].is_unique
                                          and deal_key(name) == deal_key(baseline) and _same_seed(part, base))
            if pair:
                rows.extend(_paired(part, base, measure, outcomes, confidence, common))
            else:
                rows.extend(_independent(part, base, measure, outcomes, confidence, interval, common))
    return pd.DataFrame(rows)
