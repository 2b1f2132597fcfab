"""Statistics from a `Summary` (no rows needed): the exact length distribution is enough.

Each function mirrors the frame-based one in `beggarstats.analysis` and returns the same columns
for the summary's one group (``players``, ``rules``):

* `length_summary` - mean (t interval), sd, quantiles, max, outcome shares;
* `kaplan_meier` - survival of length, wins as events, cut-offs censored, loops never ending (statsmodels
  ``SurvfuncRight`` with frequency weights);
* `length_distribution` - the empirical distribution (count, share, cdf, survival per length);
* `seat_win_rates` - Wilson intervals (statsmodels) and binomial tests (scipy) against 1/n;
* `seat_fairness_test` - chi-square test of wins per seat against equal shares (scipy);
* `tail_rate` - the geometric tail's per-card end rate (maximum likelihood on the frequencies);
* `loop_share` - loops among all games with the exact Clopper-Pearson interval (statsmodels);
* `tail_extrapolation` - P(length > L) for lengths beyond those seen, from the fitted tail;
* `scale_findings` - the rows a large run adds to the findings table.

Every table has a ``design`` column: ``"sample"`` for the games of `summarize` (random deals: the
intervals and tests are about sampling error), ``"census"`` for `census` (every distinct deal once,
``summary.exact``). A census's values are exact, not estimates: its rows carry no sampling interval
(the ``low``/``high`` columns are NaN, and so are the p-values of the tests against 1/n and the
Greenwood standard error), its sd is the population's (over all deals, not n - 1), and a model
fitted to it (the geometric tail) has no sampling error, only that of the model itself.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats
from statsmodels.duration.survfunc import SurvfuncRight
from statsmodels.stats.proportion import proportion_confint

from .rates import poisson_rates
from .bands import km_band
from ..engine.fast import OUTCOME_CODES
from ..run.summary import Summary

__all__ = ["design", "record_range", "length_summary", "length_distribution", "kaplan_meier", "seat_win_rates", "seat_fairness_test", "tail_rate", "loop_share",
           "tail_extrapolation", "scale_findings", "findings_markdown", "extrapolation_markdown", "TAIL_CHECKS", "RECORD_CARDS",
           "RECORD_CUTS", "weighted_quantile"]

RECORD_CARDS = 8344  # the longest known game (R. Nessler, 2022; data/records.csv)
TAIL_CHECKS = (1500, 2000, 2500, 3000, 3500, 4000, 4500, RECORD_CARDS)  # lengths the quoted check lists


def _check_summary(summary):
    if not isinstance(summary, Summary):
        raise ValueError(f"The value for `summary` must be a Summary (from summarize()), but {type(summary).__name__} "
                         f"was passed.")
    return {"players": summary.rules.players, "rules": summary.rules.name, "design": design(summary)}


def design(summary) -> str:
    """``"census"`` for a census (every deal once: exact values, no sampling interval), else ``"sample"``."""
    return "census" if summary.exact else "sample"


def _check_level(value, name="confidence"):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < 1:
        raise ValueError(f"The value for `{name}` must be a number between 0 and 1, but {value!r} was passed.")
    return float(value)


def weighted_quantile(values, counts, q: float) -> float:
    """``np.quantile`` (linear interpolation) of the data in which ``values[i]`` occurs ``counts[i]``
    times, without expanding it. ``values`` ascending."""
    cum = np.cumsum(counts)
    n = int(cum[-1])
    h = (n - 1) * q
    lo = int(np.floor(h))
    hi = min(lo + 1, n - 1)
    x_lo = values[np.searchsorted(cum, lo, side="right")]
    x_hi = values[np.searchsorted(cum, hi, side="right")]
    return float(x_lo + (h - lo) * (x_hi - x_lo))


def length_summary(summary: Summary, *, measure: str = "cards", outcomes=("win",), quantiles=(0.5, 0.9, 0.99),
                   confidence: float = 0.95) -> pd.DataFrame:
    """`analysis.length_summary` of a summary: one row, the same columns (and ``design``). For a
    census the mean is exact (``mean_low``/``mean_high`` NaN) and ``sd`` is the population's."""
    key = _check_summary(summary)
    confidence = _check_level(confidence)
    x, c = summary.frequencies(measure, outcomes)
    qs = np.atleast_1d(np.asarray(quantiles, dtype=float))
    if np.any((qs < 0) | (qs > 1)):
        raise ValueError(f"The value for `quantiles` must hold numbers from 0 to 1, but {list(quantiles)!r} was passed.")
    n = int(c.sum())
    xf = x.astype(float)
    mean = float(np.dot(xf, c) / n) if n else np.nan
    exact = summary.exact  # a census: the population's sd, and no interval around the exact mean
    ddof = 0 if exact else 1
    sd = float(np.sqrt(np.dot(c, (xf - mean) ** 2) / (n - ddof))) if n > ddof else np.nan
    if n > 1 and not exact:
        half = stats.t.ppf(0.5 + confidence / 2, n - 1) * sd / np.sqrt(n)
        low, high = mean - half, mean + half
    else:
        low = high = np.nan
    row = dict(key, games=summary.n_games, n=n, mean=mean, mean_low=low, mean_high=high, sd=sd)
    for q in qs:
        row[f"q{100 * q:g}"] = weighted_quantile(x, c, q) if n else np.nan
    row["max"] = float(x[-1]) if n else np.nan
    for o, k in zip(OUTCOME_CODES, summary.outcomes):
        row[f"share_{o}"] = k / summary.n_games if summary.n_games else np.nan
    return pd.DataFrame([row])


def length_distribution(summary: Summary, *, measure: str = "cards", outcomes=("win",)) -> pd.DataFrame:
    """`analysis.length_distribution` of a summary: ``length``, ``count``, ``share``, ``cdf``,
    ``survival`` (share longer), one row per length seen among games with the given ``outcomes``."""
    key = _check_summary(summary)
    x, c = summary.frequencies(measure, outcomes)
    share = c / max(int(c.sum()), 1)
    cdf = np.cumsum(share)
    return pd.DataFrame(dict(key, length=x, count=c, share=share, cdf=cdf, survival=1 - cdf))


def _events_and_censored(summary, measure):
    xe, ce = summary.frequencies(measure, ("win",))
    xc, cc = summary.frequencies(measure, ("loop", "cutoff"))
    return xe, ce, xc, cc


def kaplan_meier(summary: Summary, *, measure: str = "cards", confidence: float = 0.95) -> pd.DataFrame:
    """Kaplan-Meier survival P(length > t) at every length where a game ended: ``length``,
    ``at_risk``, ``events``, ``survival``, ``se`` (Greenwood) and the pointwise ``confidence``
    band ``low``, ``high`` on the log-log scale (`analysis.bands.km_band`, as the frames' curve). Wins are events; cut-offs are
    censored at their length; loops never end (at risk at every length). statsmodels' ``SurvfuncRight`` with frequency weights gives the curve.
    For a census the curve is exact and ``se`` NaN."""
    key = _check_summary(summary)
    xe, ce = summary.frequencies(measure, ("win",))
    xc, cc = summary.frequencies(measure, ("cutoff",))
    xl, cl = summary.frequencies(measure, ("loop",))
    # a loop never ends: at risk at every length, so it is censored beyond the longest game (as
    # `analysis.km_table` does) and the curve levels off at the loop share
    beyond = float(max([x.max() for x in (xe, xc, xl) if x.size], default=0)) + 1
    xc, cc = np.concatenate([xc, np.full(xl.size, beyond)]), np.concatenate([cc, cl])
    time = np.concatenate([xe, xc]).astype(float)
    status = np.concatenate([np.ones(xe.size), np.zeros(xc.size)])
    weights = np.concatenate([ce, cc]).astype(float)
    if not time.size or not xe.size:
        return pd.DataFrame(columns=[*key, "length", "at_risk", "events", "survival", "se", "low", "high"])
    sf = SurvfuncRight(time, status, freq_weights=weights)
    # With frequency weights statsmodels reports Tsiatis' standard error of the cumulative hazard,
    # not of S; Greenwood's, as `analysis.km_table` gives, is S * sqrt(sum d / (n (n - d))).
    n, d = sf.n_risk, sf.n_events
    with np.errstate(divide="ignore", invalid="ignore"):
        se = sf.surv_prob * np.sqrt(np.cumsum(d / (n * (n - d))))
    if summary.exact:  # every deal: the curve is the exact survival function, with no sampling error
        se = low = high = np.full(se.shape, np.nan)
    else:
        low, high = km_band(sf.surv_prob, se, confidence=_check_level(confidence))
    df = pd.DataFrame({"length": sf.surv_times, "at_risk": n, "events": d, "survival": sf.surv_prob, "se": se,
                       "low": low, "high": high})
    for i, (k, v) in enumerate(key.items()):
        df.insert(i, k, v)
    return df


def seat_win_rates(summary: Summary, *, confidence: float = 0.95) -> pd.DataFrame:
    """`analysis.seat_win_rates` of a summary: per seat ``wins``, ``games`` (with a winner),
    ``no_winner``, ``rate``, Wilson ``low``/``high``, ``expected`` (1/n) and the binomial ``p_value``
    (a census: the exact share, ``low``/``high``/``p_value`` NaN)."""
    key = _check_summary(summary)
    confidence = _check_level(confidence)
    wins = summary.wins
    games = int(wins.sum())
    n = len(wins)
    rows = []
    for seat in range(n):
        k = int(wins[seat])
        sampled = games and not summary.exact
        low, high = proportion_confint(k, games, alpha=1 - confidence, method="wilson") if sampled else (np.nan, np.nan)
        rows.append(dict(key, seat=seat, wins=k, games=games, no_winner=summary.n_games - games,
                         rate=k / games if games else np.nan, low=low, high=high, expected=1 / n,
                         p_value=stats.binomtest(k, games, 1 / n).pvalue if sampled else np.nan))
    return pd.DataFrame(rows)


def seat_fairness_test(summary: Summary) -> pd.DataFrame:
    """`analysis.seat_fairness_test` of a summary: chi-square goodness of fit of wins per seat
    against equal shares: ``games`` (with a winner), ``no_winner``, ``chi2``, ``dof``, ``p_value``.
    A census is not a sample, so there is nothing to test (``chi2``, ``p_value`` NaN): its seat shares
    are exact (`seat_win_rates`)."""
    key = _check_summary(summary)
    games = int(summary.wins.sum())
    chi2, p = stats.chisquare(summary.wins) if games and not summary.exact else (np.nan, np.nan)
    return pd.DataFrame([dict(key, games=games, no_winner=summary.n_games - games, chi2=float(chi2),
                              dof=len(summary.wins) - 1, p_value=float(p))])


def loop_share(summary: Summary, *, confidence: float = 0.95) -> pd.DataFrame:
    """Share of games whose state repeated, with the exact (Clopper-Pearson) interval. With no loop
    seen, ``high`` is the exact upper bound: the largest share still consistent with seeing none.
    A census's share is exact (``low``/``high`` NaN)."""
    key = _check_summary(summary)
    confidence = _check_level(confidence)
    k, n = int(summary.loops["game"].size), summary.n_games
    sampled = n and not summary.exact
    low, high = proportion_confint(k, n, alpha=1 - confidence, method="beta") if sampled else (np.nan, np.nan)
    return pd.DataFrame([dict(key, games=n, loops=k, share=k / n if n else np.nan, low=low, high=high)])


def _threshold(summary, measure, start):
    """The shortest length by which a share ``start`` of the games has ended (KM quantile)."""
    km = kaplan_meier(summary, measure=measure)
    reached = km["length"][km["survival"] <= 1 - start]
    return float(reached.iloc[0]) if len(reached) else np.nan


def tail_rate(summary: Summary, *, measure: str = "cards", start: float = 0.5, threshold=None,
              confidence: float = 0.95) -> pd.DataFrame:
    """The per-card (per-trick) end rate p of games longer than a threshold u, as
    `analysis.geometric_tail` (method 'mle'): a game longer than u lasts u + K with K geometric on
    1, 2, ...; censored games (loops, cut-offs) give K > k. p = events / sum(k), the Poisson GLM's
    rate with exposure sum(k), and its interval (`analysis.rates.poisson_rates`). ``threshold`` defaults to the KM quantile ``start`` (0.5: median).

    Returns one row: ``threshold``, ``n_tail``, ``events``, ``rate``, ``rate_low``, ``rate_high``,
    ``half_life``, and ``survival_at_threshold`` (share of all games longer than u, counting loops
    and cut-offs as longer). For a census the rate is exact (events over exposure of every deal) and
    ``rate_low``/``rate_high`` NaN; whether a geometric tail describes it is another question.
    """
    key = _check_summary(summary)
    confidence = _check_level(confidence)
    _check_level(start, "start")
    u = _threshold(summary, measure, start) if threshold is None else float(threshold)
    xe, ce, xc, cc = _events_and_censored(summary, measure)
    te, tc = xe > u, xc > u
    d = int(ce[te].sum())
    n_tail = d + int(cc[tc].sum())
    exposure = float(np.dot(xe[te] - u, ce[te]) + np.dot(xc[tc] - u, cc[tc]))
    if d == 0:
        p = low = high = np.nan
    else:  # the same Poisson GLM with exposure as `analysis.geometric_tail`
        rates, lows, highs, *_ = poisson_rates([d], [exposure], confidence=confidence)
        p, low, high = rates[0], lows[0], min(highs[0], 1.0)
        if summary.exact:  # events over exposure of every deal: exact, no sampling interval
            low = high = np.nan
    return pd.DataFrame([dict(key, threshold=u, n_tail=n_tail, events=d, rate=p, rate_low=low, rate_high=high,
                              half_life=np.log(2) / -np.log1p(-p) if 0 < p < 1 else np.nan,
                              survival_at_threshold=n_tail / summary.n_games if summary.n_games else np.nan)])


def tail_extrapolation(summary: Summary, lengths, *, measure: str = "cards", start: float = 0.5,
                       threshold=None, confidence: float = 0.95) -> pd.DataFrame:
    """The fitted geometric tail against the games seen: for each L in ``lengths``, the expected
    number of games longer than L, n S(u) (1 - p)^(L - u), beside the number ``seen``; and the
    implied probability and expected number of random deals to get one game longer than L
    (1 / probability), with the rate's interval carried through (the uncertainty of S(u) is
    negligible beside it and left out; a census has no sampling interval, only the model's error).
    """
    tail = tail_rate(summary, measure=measure, start=start, threshold=threshold, confidence=confidence).iloc[0]
    x, c = summary.frequencies(measure, ("win", "loop", "cutoff"))
    u, s_u, n = tail["threshold"], tail["survival_at_threshold"], summary.n_games
    rows = []
    for L in np.atleast_1d(lengths):
        L = float(L)
        probs = [s_u * (1 - r) ** (L - u) for r in (tail["rate"], tail["rate_high"], tail["rate_low"])]
        rows.append({"players": summary.rules.players, "rules": summary.rules.name, "design": design(summary),
                     "length": L,
                     "seen": int(c[x > L].sum()), "expected": n * probs[0],
                     "probability": probs[0], "probability_low": probs[1], "probability_high": probs[2],
                     "deals_to_exceed": 1 / probs[0], "deals_low": 1 / probs[2], "deals_high": 1 / probs[1]})
    return pd.DataFrame(rows)


RECORD_CUTS = (None, 1500, 2000, 2500, 3000, 3500)  # cards: where the geometric tails of `record_range` start


def record_range(summary: Summary, record: int = RECORD_CARDS, *, thresholds=RECORD_CUTS,
                 start: float = 0.99, width: int = 100, confidence: float = 0.95, draws: int = 4000,
                 seed: int = 0) -> pd.DataFrame:
    """The record extrapolated under several tail models, so that its spread shows what the data
    cannot tell apart: one row per model with ``model``, ``threshold`` (cards), ``games`` (the
    games longer than the threshold, which the fit rests on), ``probability`` (P(a random deal
    lasts longer than ``record`` cards): beating the record is lasting longer than it), ``low``,
    ``high`` (95%, the fit's sampling error only), ``deals`` (1 / probability), ``deals_low``,
    ``deals_high``.

    * geometric tails fitted beyond each of ``thresholds`` (None: the KM quantile ``start``), as
      `tail_extrapolation` (the interval carries the rate's sampling error);
    * a log-linear hazard: a Poisson GLM (statsmodels) of the games ending in each ``width``-card
      band beyond the KM quantile ``start``, with log exposure as offset and the band's middle as
      covariate, so the end rate per card may drift with length, h(L) = exp(a + b L); then
      P = S(u) prod (1 - h(L)) over the cards from u to ``record``, and the interval is the 2.5%
      and 97.5% quantiles of P over ``draws`` draws of (a, b) from the fit's normal approximation
      (numpy, ``seed``). A census's models have no sampling interval (``low``/``high`` NaN): their
      spread is the whole uncertainty.
    """
    import statsmodels.api as sm

    rows = []
    for u in thresholds:
        ext = tail_extrapolation(summary, [record], start=start, threshold=u, confidence=confidence).iloc[0]
        tail = tail_rate(summary, start=start, threshold=u, confidence=confidence).iloc[0]
        rows.append(dict(model="geometric", threshold=float(tail["threshold"]), games=int(tail["n_tail"]),
                         probability=ext["probability"], low=ext["probability_low"], high=ext["probability_high"]))
    u = _threshold(summary, "cards", start)
    x, c = summary.frequencies("cards", ("win", "loop", "cutoff"))
    xe, ce = summary.frequencies("cards", ("win",))
    edges = np.arange(u, x.max() + width, width)
    events = np.array([ce[(xe > a) & (xe <= a + width)].sum() for a in edges])
    exposure = np.array([np.dot(np.clip(x[x > a], None, a + width) - a, c[x > a]) for a in edges])
    keep = exposure > 0
    mid = (edges + width / 2)[keep]
    fit = sm.GLM(events[keep], sm.add_constant(mid), family=sm.families.Poisson(),
                 offset=np.log(exposure[keep])).fit()
    s_u = float(c[x > u].sum()) / summary.n_games
    cards = np.arange(u, record, dtype=float)

    def prob(a, b):
        return s_u * np.exp(np.sum(np.log1p(-np.minimum(np.exp(a + b * cards), 1 - 1e-12))))

    rng = np.random.default_rng(seed)
    sample = rng.multivariate_normal(fit.params, fit.cov_params(), size=draws)
    probs = np.array([prob(a, b) for a, b in sample])
    q = (1 - confidence) / 2
    low, high = (np.nan, np.nan) if summary.exact else (float(np.quantile(probs, q)), float(np.quantile(probs, 1 - q)))
    rows.append(dict(model="log-linear hazard", threshold=float(u), games=int(c[x > u].sum()),
                     probability=prob(*fit.params), low=low, high=high))
    df = pd.DataFrame(rows)
    df["deals"], df["deals_low"], df["deals_high"] = 1 / df["probability"], 1 / df["high"], 1 / df["low"]
    df.insert(0, "players", summary.rules.players)
    df.insert(1, "design", design(summary))
    return df


def scale_findings(summary: Summary, *, record: int = RECORD_CARDS, start: float = 0.99,
                   confidence: float = 0.95) -> pd.DataFrame:
    """The findings of one large run, one row each: ``finding``, ``estimate``, ``low``, ``high``,
    ``games``, ``method``.

    * the share of deals that loop (exact Clopper-Pearson interval; with none seen ``high`` is the
      exact upper bound);
    * the per-card end rate of games beyond the KM quantile ``start`` (default: the longest 1%);
    * P(a random deal lasts longer than ``record`` cards), extrapolated with that rate, and the
      expected number of random deals to beat the record (its reciprocal). The interval carries
      the rate's uncertainty only: it assumes the tail stays geometric out to ``record``, which
      `tail_extrapolation` checks against the counts seen at shorter lengths;
    * the longest finished game seen (cards), with its game id in ``method``.
    """
    key = _check_summary(summary)
    n = summary.n_games
    loops = loop_share(summary, confidence=confidence).iloc[0]
    tail = tail_rate(summary, start=start, confidence=confidence).iloc[0]
    ext = tail_extrapolation(summary, [record], start=start, confidence=confidence).iloc[0]
    p = key["players"]
    rows = [
        dict(finding=f"share of random deals that loop ({p} players)", estimate=loops["share"], low=loops["low"],
             high=loops["high"], games=n, method=f"{int(loops['loops'])} loops; "
             + ("census: exact, every deal" if summary.exact else "exact Clopper-Pearson")),
        dict(finding=f"end rate per card beyond {tail['threshold']:,.0f} cards ({p} players)", estimate=tail["rate"],
             low=tail["rate_low"], high=tail["rate_high"], games=n,
             method=f"geometric tail MLE on the longest {100 * (1 - start):g}%"),
        dict(finding=f"P(random deal lasts longer than {record:,} cards) ({p} players)", estimate=ext["probability"],
             low=ext["probability_low"], high=ext["probability_high"], games=n,
             method="geometric tail extrapolated; interval: sampling only (the record odds by cut and model: below)"),
        dict(finding=f"random deals to expect one longer than {record:,} cards ({p} players)",
             estimate=ext["deals_to_exceed"], low=ext["deals_low"], high=ext["deals_high"], games=n,
             method="1 / P, geometric tail extrapolated; interval: sampling only"),
    ]
    if summary.longest["game"].size:
        rows.append(dict(finding=f"longest game found, cards ({p} players)", estimate=float(summary.longest["cards"][0]),
                         low=np.nan, high=np.nan, games=n,
                         method=f"seed {summary.seed}, game {int(summary.longest['game'][0])}"))
    df = pd.DataFrame(rows)
    for i, (k, v) in enumerate(key.items()):
        df.insert(i, k, v)
    return df


def _fmt(x) -> str:
    if x is None or (isinstance(x, float) and np.isnan(x)):
        return "-"
    x = float(x)
    if x == 0:
        return "0"
    if x.is_integer() and abs(x) < 1e6:
        return f"{x:,.0f}"
    if abs(x) >= 1e6 or abs(x) < 1e-3:
        return f"{x:.2e}"
    return f"{x:.4g}" if abs(x) < 1 else f"{x:,.1f}"


def findings_markdown(findings: pd.DataFrame) -> str:
    """`scale_findings` rows as the markdown table quoted in README.md and docs/scaling.md (a test
    regenerates it from the committed summaries, so the quoted numbers cannot go stale)."""
    lines = ["| finding | estimate | 95% interval | games | how |", "|---|---:|---:|---:|---|"]
    for r in findings.itertuples():
        interval = "-" if np.isnan(r.low) else f"[{_fmt(r.low)}, {_fmt(r.high)}]"
        lines.append(f"| {r.finding} | {_fmt(r.estimate)} | {interval} | {r.games:,} | {r.method} |")
    return "\n".join(lines)


def extrapolation_markdown(summary: Summary, lengths=TAIL_CHECKS, *, start: float = 0.99) -> str:
    """`tail_extrapolation` as the markdown table quoted in docs/scaling.md: games seen longer than
    L beside the number the fitted tail expects, and the deals needed to expect one."""
    ext = tail_extrapolation(summary, lengths, start=start)
    lines = ["| longer than (cards) | games seen | expected by the tail | deals to expect one | 95% interval |",
             "|---:|---:|---:|---:|---:|"]
    for r in ext.itertuples():
        lines.append(f"| {r.length:,.0f} | {r.seen:,} | {_fmt(r.expected)} | {_fmt(r.deals_to_exceed)} | "
                     f"[{_fmt(r.deals_low)}, {_fmt(r.deals_high)}] |")
    return "\n".join(lines)
