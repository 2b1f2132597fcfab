"""How long games are: one summary row per player count and rules."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._checks import OUTCOMES, check_by, check_choice, check_frame, check_level, check_outcomes, group_items, numeric
from .frames import check_games
from ._twins import accepts_summary
from .intervals import mean_interval

__all__ = ["length_summary", "MEASURES"]

MEASURES = ("cards", "tricks")


@accepts_summary
def length_summary(data: pd.DataFrame, *, measure: str = "cards", by=("players", "rules"),
                   outcomes=("win",), quantiles=(0.5, 0.9, 0.99), confidence: float = 0.95) -> pd.DataFrame:
    """Length statistics of games, one row per group.

    Parameters
    ----------
    data : DataFrame
        One row per game (``simulate()``): ``outcome`` and the ``measure`` column.
    measure : {'cards', 'tricks'}
        Length in cards played or in tricks taken.
    by : str, sequence of str or None
        Grouping columns.
    outcomes : sequence of {'win', 'loop', 'cutoff'}
        Which games enter the length statistics. Default: finished games only, because a looped
        game's count is where its cycle was found and a cut-off game's is the limit (censored; see
        `kaplan_meier` for an estimate that uses them).
    quantiles : sequence of float
        Reported as columns ``q50``, ``q90``, ... (percent, rounded).
    confidence : float
        Level of the t-interval of the mean.

    Returns
    -------
    DataFrame
        ``by`` columns, ``games`` (all games of the group), ``n`` (games used), ``mean``,
        ``mean_low``, ``mean_high``, ``sd``, one ``q..`` column per quantile, ``max``, and
        ``share_win``, ``share_loop``, ``share_cutoff`` (of all games of the group).
    """
    check_games(data)  # a frame of simulate's (analysis/frames.py)
    check_choice("measure", measure, MEASURES)
    check_frame(data, ["outcome", measure])
    cols = check_by(data, by)
    outcomes = check_outcomes(outcomes)
    check_level(confidence)
    qs = np.atleast_1d(np.asarray(quantiles, dtype=float))
    if np.any((qs < 0) | (qs > 1)):
        raise ValueError(f"The value for `quantiles` must hold numbers from 0 to 1, but {list(quantiles)!r} was passed.")
    rows = []
    for key, sub in group_items(data, cols):
        outcome = sub["outcome"].astype(str).to_numpy()
        x = numeric(sub[measure])[np.isin(outcome, outcomes)]
        low, high = mean_interval(x, confidence=confidence)
        row = dict(key, games=len(sub), n=x.size,
                   mean=x.mean() if x.size else np.nan, mean_low=low, mean_high=high,
                   sd=x.std(ddof=1) if x.size > 1 else np.nan)
        for q in qs:
            row[f"q{100 * q:g}"] = np.quantile(x, q) if x.size else np.nan
        row["max"] = x.max() if x.size else np.nan
        for o in OUTCOMES:
            row[f"share_{o}"] = float(np.mean(outcome == o)) if len(sub) else np.nan
        rows.append(row)
    return pd.DataFrame(rows)
