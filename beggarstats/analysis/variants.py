"""Variants against a baseline: how much longer are games, and does the first player gain?

**Design.** `simulate` fixes game g of a table by (seed, g) alone, so two tables run with the same
seed, player count and deck deal the same cards to game g: the runs of `beggarstats figures` are
common random numbers on purpose. Such tables are compared **paired** (joined on ``game``); the
variation between deals then cancels and the interval measures only the effect of the rule.
A table with jokers deals game g as the same table without them, the jokers slipped in
(docs/RULES.md section 7), so it too is paired. Tables whose decks differ are compared as
**independent** samples.
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
           "detectable_effect", "paired_method", "bca_p_value", "PAIRED_INTERVALS",
           "BOOTSTRAP_PAIRS", "BOOTSTRAP_RESAMPLES"]


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


BOOTSTRAP_PAIRS = 20_000  # pairs: up to here the BCa bootstrap is affordable (scipy's jackknife is O(n^2))
BOOTSTRAP_RESAMPLES = 9999
BOOTSTRAP_BATCH = 1000  # resamples at a time (at 10,000 pairs: 0.4 GB, against 2.5 GB for all 9,999)
PAIRED_INTERVALS = ("identical in every game", "paired t", "BCa bootstrap",
                    "paired t (fewer pairs than its skewness needs)")


def paired_method(d) -> str:
    """Which interval `paired_difference` gives for the per-pair differences ``d``, one of
    `PAIRED_INTERVALS`: 'identical in every game' when every difference is the same (exact: the
    sample has no spread); 'paired t' when there are at least `run.compare.t_sample_size` of the
    differences' skewness (28 + 25 g1^2 pairs, Sugden, Smith & Jones' rule); else the 'BCa
    bootstrap' up to `BOOTSTRAP_PAIRS` pairs, and beyond that the t interval labelled as having
    fewer pairs than its skewness needs. Why: most pairs of a rule variant differ by 0 and a few by
    hundreds of cards (end=empty, 2 players: skewness -34); there the t interval at 5,000 pairs
    covered 91.2% of 1,000 samples against a 10^7-pair truth, and the BCa bootstrap at 2,000 pairs
    90.0%, better than the t interval's 84.8% there but still short (docs/FIGURES.md)."""
    from ..run.compare import t_sample_size  # the rule compare() enforces on its moments

    d = np.asarray(d, dtype=float)
    if d.size and np.all(d == d[0]):  # for win indicators: no discordant pair
        return PAIRED_INTERVALS[0]
    if d.size >= t_sample_size(stats.skew(d)):
        return PAIRED_INTERVALS[1]
    return PAIRED_INTERVALS[2] if d.size <= BOOTSTRAP_PAIRS else PAIRED_INTERVALS[3]


def bca_p_value(d, boot_means) -> float:
    """Two-sided p-value of mean(d) = 0 that matches the BCa interval of the mean: 1 - the level at
    which a BCa interval from the bootstrap means ``boot_means`` ends at 0. With z0 = Phi^-1 of the
    share of bootstrap means below mean(d) (ties half, as scipy) and the jackknife acceleration of
    the mean, a = sum (d - mean)^3 / (6 (sum (d - mean)^2)^1.5), the BCa percentile of 0 inverts to
    z = w / (1 + a w) - z0 with w = Phi^-1(share of bootstrap means <= 0) - z0; p = 2 min(Phi(z),
    1 - Phi(z)). When every bootstrap mean lies on one side of 0 the share is taken as half a
    resample, so a tiny p is only as small as the resamples resolve (tests/analysis/test_analysis.py holds
    p to scipy's own BCa interval at the level 1 - p, which ends at 0)."""
    d, b = np.asarray(d, dtype=float), np.asarray(boot_means, dtype=float)
    m = d.mean()
    z0 = stats.norm.ppf((np.sum(b < m) + np.sum(b <= m)) / (2 * b.size))
    dev = d - m
    a = np.sum(dev**3) / (6 * np.sum(dev**2) ** 1.5)
    share = np.clip(np.mean(b <= 0), 0.5 / b.size, 1 - 0.5 / b.size)
    w = stats.norm.ppf(share) - z0
    z = w / (1 + a * w) - z0
    return float(2 * min(stats.norm.cdf(z), stats.norm.sf(z)))


def paired_difference(x, y, *, confidence: float = 0.95, seed: int = 0) -> tuple[float, float, float, float]:
    """mean(x - y) of paired samples (x[i], y[i] from the same deal), with the interval
    `paired_method` chooses: (estimate, low, high, p_value).

    * 'paired t': `scipy.stats.ttest_rel`, interval and p-value;
    * 'BCa bootstrap': `scipy.stats.bootstrap` of the mean difference (method 'BCa',
      `BOOTSTRAP_RESAMPLES` resamples, a numpy generator seeded by ``seed``, so the interval is the
      same on every run) and the p-value of that interval (`bca_p_value`);
    * 'identical in every game': every difference is the same (a rule that changes no game of the
      sample): the interval is that difference exactly and the p-value 1 if it is 0 (0 otherwise).
    """
    x, y = np.asarray(x, float), np.asarray(y, float)
    d = x - y
    method = paired_method(d)
    if method == PAIRED_INTERVALS[0]:
        return float(d[0]), float(d[0]), float(d[0]), 1.0 if d[0] == 0 else 0.0
    if method == PAIRED_INTERVALS[2]:
        # in batches of resamples: the same draws and interval, without holding them all at once
        res = stats.bootstrap((d,), np.mean, method="BCa", n_resamples=BOOTSTRAP_RESAMPLES, batch=BOOTSTRAP_BATCH,
                              confidence_level=check_level(confidence), rng=np.random.default_rng(seed))
        ci = res.confidence_interval
        return float(d.mean()), float(ci.low), float(ci.high), bca_p_value(d, res.bootstrap_distribution)
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
    """mean(a) - mean(b) for paired 0/1 outcomes (a[i], b[i] from the same deal): (estimate, low,
    high, p_value).

    Method: Tango's score interval for the difference of paired proportions (`paired_props.tango_interval`)
    from the discordant pairs (b: a[i] = 1, b[i] = 0; c: the reverse) and McNemar's test without
    continuity correction, the score test it inverts (`paired_props.paired_proportion_test`). Few
    discordant pairs, mostly on one side, make the differences a[i] - b[i] skewed; there the Wald
    interval and the BCa bootstrap of the indicators cover far below their level (#39: the BCa
    bootstrap covered 7 of the 25 samples of 300 pairs sent to it, 28%), and Tango's interval was made
    for them. A sample
    without discordant pairs is 'identical in every game' (the rule changed no winner of the sample)
    and gets Tango's interval at b = c = 0, which is not [0, 0], with p = 1.
    """
    from ..run.paired_props import paired_proportion_test, tango_interval

    a, b = np.asarray(a, float), np.asarray(b, float)
    k, l = int(np.sum((a == 1) & (b == 0))), int(np.sum((a == 0) & (b == 1)))
    low, high = tango_interval(k, l, a.size, confidence=confidence)
    return (k - l) / a.size, low, high, paired_proportion_test(k, l)


# The part of a rules name (`Rules.name`) that changes what is dealt: the deck. Jokers do not
# (since RULES_VERSION 3): game g with jokers is game g without them with the jokers slipped in.
_DECK_PART = re.compile(r"^(?:.+ deck)")


def deal_key(rules_name: str) -> str:
    """What decides the deal in a rules name: its deck ('' for the standard deck). Two tables with
    the same seed, player count and deal key deal the same cards to game g, the jokers apart (a
    joker deal is the deal without them with the jokers inserted: docs/RULES.md section 7)."""
    parts = [p.strip() for p in str(rules_name).split(",")]
    return ", ".join(m.group(0) for m in map(_DECK_PART.match, parts) if m)


def _same_seed(a: pd.DataFrame, b: pd.DataFrame) -> bool:
    if "seed" in a.columns and "seed" in b.columns:
        sa, sb = set(pd.unique(a["seed"])), set(pd.unique(b["seed"]))
        return len(sa) == 1 and sa == sb
    return True


def _rows(metric, common, est, n, n0, value, baseline_value, design, *, confidence, interval, **extra):
    row = dict(common, metric=metric, **dict(zip(("estimate", "low", "high", "p_value"), est)),
               n=n, n_baseline=n0, value=value, baseline_value=baseline_value, design=design,
               interval=interval, **extra)
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
    for metric, fn, how in (("mean_length_diff", welch_difference, "Welch t"),
                            ("mean_length_ratio", ratio_of_means, "delta method")):
        est = fn(x1, x0, confidence=confidence) if ok else (np.nan,) * 4
        out.append(_rows(metric, common, est, x1.size, x0.size, x1.mean() if x1.size else np.nan,
                         x0.mean() if x0.size else np.nan, "independent", confidence=confidence, interval=how))
    est = proportion_difference(k1, n1, k0, n0, confidence=confidence, interval=interval) \
        if n1 and n0 else (np.nan,) * 4
    out.append(_rows("seat0_win_diff", common, est, n1, n0, k1 / n1 if n1 else np.nan,
                     k0 / n0 if n0 else np.nan, "independent", discordant=np.nan, confidence=confidence,
                     interval="Newcombe score" if interval == "newcombe" else "Wald"))
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
                     x0.mean() if ok else np.nan, "paired", confidence=confidence,
                     interval=paired_method(x1 - x0) if ok else ""))
    est = ratio_of_means(x1, x0, confidence=confidence, paired=True) if ok else (np.nan,) * 4
    out.append(_rows("mean_length_ratio", common, est, x1.size, x1.size, x1.mean() if ok else np.nan,
                     x0.mean() if ok else np.nan, "paired", confidence=confidence, interval="delta method (paired)"))
    w1, w0 = numeric(both["winner"]), numeric(both["winner_base"])
    decided = ~np.isnan(w1) & ~np.isnan(w0)
    a, b = (w1[decided] == 0).astype(float), (w0[decided] == 0).astype(float)
    est = paired_proportion_difference(a, b, confidence=confidence) if a.size > 1 else (np.nan,) * 4
    out.append(_rows("seat0_win_diff", common, est, a.size, a.size, a.mean() if a.size else np.nan,
                     b.mean() if b.size else np.nan, "paired", discordant=int(np.sum(a != b)), confidence=confidence,
                     interval="Tango score" if a.size > 1 else ""))
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
        only games present in both enter. Paired: `paired_difference` for the length difference
        (paired t where the pairs are enough for the differences' skewness, else a BCa bootstrap),
        the delta method with the covariance for the ratio, and `paired_proportion_difference`
        (Tango's score interval of paired proportions, McNemar's test) for seat 0's win rate
        (games with a winner in both). Independent: Welch, delta method, Newcombe (or Wald).
        'paired' forces pairing on ``game`` (an error if ``game`` is missing).

    Returns
    -------
    DataFrame: ``by`` columns, ``rules``, ``baseline``, ``metric`` (one of `METRICS`),
    ``estimate``, ``low``, ``high``, ``p_value``, ``n``, ``n_baseline`` (games used; paired: both
    the number of pairs), ``value``, ``baseline_value`` (the two means or rates compared),
    ``detectable`` (the smallest effect the comparison detects at 80% power, two-sided 5%:
    `detectable_effect` of the interval's standard error; NaN for the ratio),
    ``design`` ('paired' or 'independent'), ``interval`` (which interval the row gives: one of
    `PAIRED_INTERVALS`, 'Tango score', 'Welch t', 'delta method', 'delta method
    (paired)', 'Newcombe score' or 'Wald') and ``discordant`` (paired seat-0 rows: pairs whose
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
