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

__all__ = ["tail_rate", "geometric_tail", "hazard_bands", "tail_constancy_test", "poisson_rates", "tail_prediction",
           "prediction_markdown", "record_odds", "record_range_markdown", "model_verdict", "TAIL_MODELS",
           "PREDICTION_SPLITS", "PASS_LEVEL"]

TAIL_MODELS = ("constant hazard", "log-linear hazard")
PREDICTION_SPLITS = (1500, 2000, 2500)  # cards: where the fit band of the committed 10^9 deals ends
PASS_LEVEL = 0.05  # a tail model passes out of sample where none of its tests rejects at this level


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


def _band_counts(x, ended, cens, lo, hi, width):
    """Ends and exposure (cards played) in the ``width``-card bands from ``lo`` to ``hi``, from the
    frequencies: ``ended[i]`` games ended at length ``x[i]``, ``cens[i]`` are still going there."""
    edges = np.arange(lo, hi, width, dtype=float)
    events = np.array([ended[(x > a) & (x <= min(a + width, hi))].sum() for a in edges], dtype=float)
    alive = ended + cens
    exposure = np.array([np.dot(np.clip(x[x > a], None, min(a + width, hi)) - a, alive[x > a]) for a in edges])
    return edges, events, exposure


def tail_prediction(summary, *, start: float = 0.99, fit_to: float = 2000, predict_to: float = 3000,
                    width: float = 100, min_expected: float = 5.0) -> pd.DataFrame:
    """A real out-of-sample check of the tail: fit the end rate per card on the band from the KM
    quantile ``start`` (u) to ``fit_to`` (m) only, then predict how the games still going at m end
    after it, and test the prediction.

    The fit sees each game only up to m: a game longer than m adds its m - u cards of exposure and
    no end, as if censored at m, so nothing it did after m enters. Two models, each a Poisson GLM
    of the ends in ``width``-card bands with log exposure as offset (statsmodels): ``constant
    hazard`` (one rate: the geometric tail of `tail_rate`) and ``log-linear hazard`` (the rate
    exp(a + b L) drifts with the band's middle L). For the N games longer than m the fitted
    per-card hazard h gives the expected ends in each ``width``-card cell from m to
    ``predict_to`` and the expected survivors beyond it, N (S(a) - S(a + width)) / S(m) with S(L) /
    S(m) = prod (1 - h(c)) over the cards c from m to L - 1; the last cells are merged until each
    expects at least ``min_expected`` games. Given N these counts are multinomial, so the
    likelihood-ratio (G) statistic of the observed against the expected counts
    (`scipy.stats.power_divergence`, 'log-likelihood') is chi-square with cells - 1 degrees of
    freedom: nothing of the predicted band was fitted. The fitted parameters' own uncertainty is left
    out (the fit band holds 30 to 200 times the games of the predicted one).

    Parameters
    ----------
    summary : Summary
        A `summarize` (or `census`) result; cut-off games beyond m are refused (they would end the
        multinomial early), and loops, which never end, are counted beyond every length.

    Returns
    -------
    DataFrame, one row per model: ``players``, ``model``, ``fit_from``, ``fit_to``, ``predict_to``
    (cards), ``at_risk`` (games longer than ``fit_to``), ``ended`` and ``expected`` (games ending
    between ``fit_to`` and ``predict_to``: seen and predicted), ``beyond`` and ``expected_beyond``
    (longer than ``predict_to``), ``cells``, ``deviance`` (G), ``dof``, ``p_value``.
    """
    import statsmodels.api as sm

    check_level(start, name="start")
    for name, value in (("fit_to", fit_to), ("predict_to", predict_to), ("width", width), ("min_expected", min_expected)):
        if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) or not value > 0:
            raise ValueError(f"The value for `{name}` must be a positive number, but {value!r} was passed.")
    xe, ce = summary.frequencies("cards", ("win",))
    xc, cc = summary.frequencies("cards", ("cutoff",))
    xl, cl = summary.frequencies("cards", ("loop",))
    if cc[xc > fit_to].sum():
        raise ValueError(f"The summary has cut-off games longer than `fit_to` ({fit_to:g} cards): their ends are "
                         "unknown, so the counts after it are not the prediction's.")
    x = np.concatenate([xe, xc, np.full(xl.size, np.inf)]).astype(float)
    ended = np.concatenate([ce, np.zeros(xc.size + xl.size)]).astype(float)
    cens = np.concatenate([np.zeros(xe.size), cc, cl]).astype(float)
    order = np.argsort(x, kind="stable")
    x, ended, cens = x[order], ended[order], cens[order]
    # the KM quantile `start` of length (loops never end): the shortest length by which that share ended
    n = ended.sum() + cens.sum()
    alive = n - np.cumsum(ended)
    u = float(x[np.argmax(alive <= (1 - start) * n)])
    if not u < fit_to < predict_to:
        raise ValueError(f"The fit band must start before `fit_to` and `predict_to` lie beyond it, but the tail starts "
                         f"at {u:g} cards, `fit_to` is {fit_to:g} and `predict_to` {predict_to:g}.")
    edges, events, exposure = _band_counts(x, ended, cens, u, fit_to, width)
    keep = exposure > 0
    mid = np.minimum(edges + width / 2, (edges + fit_to) / 2)[keep]
    at_risk = float(ended[x > fit_to].sum() + cens[x > fit_to].sum())
    cells = np.arange(fit_to, predict_to, width, dtype=float)
    bounds = np.append(np.minimum(cells + width, predict_to), np.inf)
    observed = np.array([ended[(x > a) & (x <= b)].sum() for a, b in zip(np.r_[fit_to, bounds[:-2]], bounds[:-1])]
                        + [at_risk - ended[(x > fit_to) & (x <= predict_to)].sum()])
    cards = np.arange(fit_to, predict_to, dtype=float)
    rows = []
    for model in TAIL_MODELS:
        design = np.ones((keep.sum(), 1)) if model == TAIL_MODELS[0] else sm.add_constant(mid)
        fit = sm.GLM(events[keep], design, family=sm.families.Poisson(), offset=np.log(exposure[keep])).fit()
        a, b = (fit.params[0], 0.0) if model == TAIL_MODELS[0] else fit.params
        surv = np.exp(np.cumsum(np.log1p(-np.minimum(np.exp(a + b * cards), 1 - 1e-12))))  # S(m + k + 1) / S(m)
        at = np.r_[1.0, surv[np.searchsorted(cards + 1, bounds[:-1])]]  # S at fit_to and each cell's upper edge
        expected = at_risk * np.r_[-np.diff(at), at[-1]]
        obs, exp = observed.astype(float), expected
        while exp.size > 2 and exp[-1] < min_expected:  # merge the last cells until each expects enough
            obs, exp = np.r_[obs[:-2], obs[-2:].sum()], np.r_[exp[:-2], exp[-2:].sum()]
        g, p = stats.power_divergence(obs, exp, lambda_="log-likelihood")
        rows.append(dict(players=summary.rules.players, model=model, fit_from=u, fit_to=float(fit_to),
                         predict_to=float(predict_to), at_risk=int(at_risk), ended=int(observed[:-1].sum()),
                         expected=float(expected[:-1].sum()), beyond=int(observed[-1]),
                         expected_beyond=float(expected[-1]), cells=int(obs.size), deviance=float(g),
                         dof=int(obs.size - 1), p_value=float(p)))
    return pd.DataFrame(rows)


def prediction_markdown(summary, splits=PREDICTION_SPLITS, *, span: float = 1000, start: float = 0.99,
                        verdicts: bool = False) -> str:
    """`tail_prediction` for each fit band ending at one of ``splits`` (predicting the next ``span``
    cards and beyond), as the markdown table quoted in docs/scaling.md; ``verdicts`` adds a column
    with each test's verdict under the record table's rule (`PASS_LEVEL`: a model passes where none
    of its tests rejects), as docs/gpu.md quotes it."""
    lines = ["| fitted on (cards) | model | predicts (cards) | games still going | ended there: seen | expected | "
             "longer: seen | expected | G (df) | p |" + (f" verdict at {PASS_LEVEL:g} |" if verdicts else ""),
             "|---|---|---|---:|---:|---:|---:|---:|---:|---:|" + ("---|" if verdicts else "")]
    for m in splits:
        for r in tail_prediction(summary, start=start, fit_to=m, predict_to=m + span).itertuples():
            p = "< 1e-10" if r.p_value < 1e-10 else f"{r.p_value:.2g}"
            said = f" rejected: the {r.model} fails |" if r.p_value < PASS_LEVEL else " not rejected |"
            said = said if verdicts else ""
            lines.append(f"| {r.fit_from:,.0f}-{r.fit_to:,.0f} | {r.model} | {r.fit_to:,.0f}-{r.predict_to:,.0f} | "
                         f"{r.at_risk:,} | {r.ended:,} | {r.expected:,.1f} | {r.beyond:,} | {r.expected_beyond:,.1f} | "
                         f"{r.deviance:.1f} ({r.dof}) | {p} |" + said)
    return "\n".join(lines)


def record_odds(summary, *, splits=PREDICTION_SPLITS, span: float = 1000, level: float = PASS_LEVEL,
                thresholds=None) -> dict:
    """The record's odds as the data allow, in the order they are to be said:

    * ``longest`` (cards, the longest game seen), ``record`` and ``beyond`` (cards the
      extrapolation runs past the longest game), ``games``;
    * ``fits``: `summaries.record_range` (geometric tails fitted beyond each cut, and the log-linear
      hazard beyond the longest 1%), each with its games and its sampling interval, and ``passes``:
      whether its model passes the out-of-sample test;
    * ``tests``: each model's out-of-sample test (`tail_prediction` fitted up to each of ``splits``,
      predicting the next ``span`` cards and beyond; its columns); a model passes where no split's
      p-value is below ``level``.

    ``thresholds``: the cuts of the geometric fits (default `summaries.RECORD_CUTS`).
    """
    from .summaries import RECORD_CARDS, RECORD_CUTS, record_range

    tests = pd.concat([tail_prediction(summary, fit_to=m, predict_to=m + span) for m in splits], ignore_index=True)
    passes = {m: bool((tests.loc[tests["model"] == m, "p_value"] >= level).all()) for m in TAIL_MODELS}
    fits = record_range(summary, thresholds=RECORD_CUTS if thresholds is None else thresholds)
    fits["passes"] = [passes[TAIL_MODELS[0] if m == "geometric" else m] for m in fits["model"]]
    longest = int(summary.longest["cards"][0])
    return dict(players=summary.rules.players, games=int(summary.n_games), longest=longest, record=RECORD_CARDS,
                beyond=RECORD_CARDS - longest, fits=fits, tests=tests, passes=passes)


def model_verdict(odds, model) -> str:
    """A model's out-of-sample verdict (`record_odds`) as the record tables say it: 'passes (lowest p
    0.35)' or 'fails (fitted up to 2,500 cards: p 0.038)'."""
    t = odds["tests"][odds["tests"]["model"] == model]
    worst = t.loc[t["p_value"].idxmin()]
    if odds["passes"][model]:
        return f"passes (lowest p {worst['p_value']:.2g})"
    return f"fails (fitted up to {worst['fit_to']:,.0f} cards: p {worst['p_value']:.2g})"


def record_range_markdown(summaries) -> str:
    """The record's odds as the data allow (`record_odds`), as quoted in README.md and
    docs/scaling.md: for each player count, first how far the extrapolation runs past the longest
    game seen, then the geometric fits by cut (the games beyond each cut, the sampling interval of
    each), then the log-linear hazard, each with whether its model passes its out-of-sample test.
    No row leads with one number: every figure is one fit's, labelled with its cut and model."""
    from .summaries import RECORD_CARDS

    splits = ", ".join(f"{m:,}" for m in PREDICTION_SPLITS)
    lines = [f"| players | longest game seen (cards) | the record ({RECORD_CARDS:,}) beyond it | tail model | fitted "
             f"beyond (cards) | games beyond | out of sample (fitted up to {splits} cards, the next 1,000 predicted) | "
             "random deals to expect one longer than the record (95%: sampling only) |",
             "|---:|---:|---:|---|---:|---:|---|---:|"]
    for s in summaries:
        odds = record_odds(s)
        first = True
        for r in odds["fits"].itertuples():
            model = TAIL_MODELS[0] if r.model == "geometric" else r.model
            head = (f"| {odds['players']} | {odds['longest']:,} of {odds['games']:,} | {odds['beyond']:,} cards "
                    f"({odds['record'] / odds['longest']:.2f}x) |") if first else "| | | |"
            name = "geometric (constant hazard)" if r.model == "geometric" else r.model
            lines.append(f"{head} {name} | {r.threshold:,.0f} | {r.games:,} | {model_verdict(odds, model)} | "
                         f"{r.deals:.2g} [{r.deals_low:.2g}, {r.deals_high:.2g}] |")
            first = False
    return "\n".join(lines)
