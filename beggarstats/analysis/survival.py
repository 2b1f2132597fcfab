"""Distribution and survival of game length: cut-off games censored, looped games never ending.

A game that ended (outcome 'win') is an *event* at its length. A cut-off game is censored at
``cards`` (it would have lasted longer, by how much nobody knows). A looped game is neither: the
loop is a proof that the game never ends, so it stays at risk at every length, and the survival
curve levels off at the share of games that loop instead of falling to 0 (censoring a loop at
the length where it was found would assume it might still end, which it cannot).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from statsmodels.duration.survfunc import SurvfuncRight

from ._checks import check_by, check_choice, check_frame, check_level, check_outcomes, group_items, numeric
from .frames import check_games
from ._twins import accepts_summary
from .bands import km_band
from .lengths import MEASURES

__all__ = ["length_distribution", "kaplan_meier", "km_table"]


@accepts_summary
def length_distribution(data: pd.DataFrame, *, measure: str = "cards", by=("players", "rules"),
                        outcomes=("win",)) -> pd.DataFrame:
    """Empirical distribution of length among games with the given ``outcomes``.

    Returns ``by`` columns, ``length``, ``count``, ``share`` (of the group's counted games), ``cdf``
    (share with length <= this) and ``survival`` (share with length > this), one row per observed
    length.
    """
    check_games(data)  # a frame of simulate's (analysis/frames.py)
    check_choice("measure", measure, MEASURES)
    check_frame(data, ["outcome", measure])
    cols, outcomes = check_by(data, by), check_outcomes(outcomes)
    parts = []
    for key, sub in group_items(data, cols):
        x = numeric(sub[measure])[np.isin(sub["outcome"].astype(str).to_numpy(), outcomes)]
        x = x[~np.isnan(x)]
        values, counts = np.unique(x, return_counts=True)
        share = counts / max(x.size, 1)
        cdf = np.cumsum(share)
        parts.append(pd.DataFrame(dict(key, length=values, count=counts, share=share, cdf=cdf,
                                       survival=1 - cdf)))
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


def km_table(lengths, ended, *, confidence: float = 0.95, ci: str = "log-log") -> pd.DataFrame:
    """Kaplan-Meier estimate from plain arrays: the statistic behind `kaplan_meier`.

    The estimate and its Greenwood standard error are statsmodels' (`SurvfuncRight`). statsmodels
    has no pointwise band, so the log-log band is computed here (tested against a value worked by
    hand): Greenwood's variance carried to the log(-log S) scale, S ** exp(+-z se_ll).

    Parameters
    ----------
    lengths : array of numbers
        Observed length of each game (cards or tricks); ``inf`` for a game that never ends (a
        loop): at risk at every length, never an event, so the curve levels off at their share.
    ended : array of bool
        True when the game ended there (event), False when censored there.
    ci : {'log-log', 'plain'}
        Greenwood interval on the log(-log S) scale (stays inside [0, 1]) or S +/- z se, clipped.

    Returns
    -------
    DataFrame with one row per distinct observed length: ``length``, ``at_risk`` (games lasting at
    least this long), ``events``, ``censored``, ``survival`` (P(length > t)), ``se`` (Greenwood),
    ``low``, ``high``.
    """
    check_choice("ci", ci, ("log-log", "plain"))
    t = np.asarray(lengths, dtype=float)
    e = np.asarray(ended, dtype=bool)
    if t.shape != e.shape:
        raise ValueError("`lengths` and `ended` must have the same length.")
    keep = ~np.isnan(t)
    t, e = t[keep], e[keep]
    never = np.isinf(t) & (t > 0)
    if np.any(never & e):
        raise ValueError("A game of infinite length (a loop) cannot be an event (`ended`).")
    if never.any():
        # statsmodels needs finite times: a game that never ends is censored beyond every finite
        # length, which keeps it at risk at each of them; that one synthetic row is dropped below.
        beyond = (t[~never].max() if (~never).any() else 0.0) + 1.0
        t = np.where(never, beyond, t)
    times, where = np.unique(t, return_inverse=True)
    events = np.bincount(where[e], minlength=times.size)
    total = np.bincount(where, minlength=times.size)
    at_risk = t.size - np.concatenate([[0], np.cumsum(total)[:-1]])
    surv, se = np.ones(times.size), np.zeros(times.size)
    if events.any():
        km = SurvfuncRight(t, e.astype(float))
        # statsmodels lists event times only; a censoring-only length keeps the value before it.
        at = np.searchsorted(km.surv_times, times, side="right") - 1
        seen = at >= 0
        surv[seen] = km.surv_prob[at[seen]]
        se[seen] = np.nan_to_num(km.surv_prob_se[at[seen]], nan=0.0)
    low, high = km_band(surv, se, confidence=confidence, ci=ci)
    table = pd.DataFrame({"length": times, "at_risk": at_risk, "events": events,
                          "censored": total - events, "survival": surv, "se": se,
                          "low": low, "high": high})
    return table.iloc[:-1].reset_index(drop=True) if never.any() else table


@accepts_summary
def kaplan_meier(data: pd.DataFrame, *, measure: str = "cards", by=("players", "rules"),
                 confidence: float = 0.95, ci: str = "log-log") -> pd.DataFrame:
    """Kaplan-Meier survival of game length, P(length > t), per group (see `km_table` for columns).

    ``data`` is one row per game with ``outcome`` and ``measure``; 'win' games are events,
    'cutoff' games censored at their length, and 'loop' games never end (at risk at every length:
    the curve levels off at the loop share).
    """
    check_games(data)  # a frame of simulate's (analysis/frames.py)
    check_choice("measure", measure, MEASURES)
    check_frame(data, ["outcome", measure])
    cols = check_by(data, by)
    check_level(confidence)
    parts = []
    for key, sub in group_items(data, cols):
        outcome = sub["outcome"].astype(str).to_numpy()
        lengths = np.where(outcome == "loop", np.inf, numeric(sub[measure]))
        table = km_table(lengths, outcome == "win", confidence=confidence, ci=ci)
        for c, v in reversed(key.items()):
            table.insert(0, c, v)
        parts.append(table)
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()
