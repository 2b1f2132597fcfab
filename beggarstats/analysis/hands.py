"""Does a strong hand win? Logistic regression of winning on what a seat was dealt.

Input is the per-seat table (``simulate(..., per_seat=True)``): one row per game and seat. Games
without a winner (no seat has ``won``) are left out: nobody won them, so they say nothing about
what wins.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import statsmodels.api as sm
from scipy import stats

from ._checks import check_by, check_frame, check_level, group_items, numeric
from .intervals import z_value

__all__ = ["hand_strength", "hand_strength_predictions", "decided_seats"]

PREDICTORS = ("tribute_total", "aces")


def _predictors(data, predictors) -> list[str]:
    predictors = [predictors] if isinstance(predictors, str) else list(predictors)
    if not predictors:
        raise ValueError("The value for `predictors` must name at least one column.")
    check_frame(data, predictors)
    return predictors


def decided_seats(data: pd.DataFrame, *, by=("players", "rules")) -> pd.DataFrame:
    """The rows of games that someone won (a game is ``by`` + ``game``)."""
    check_frame(data, ["game", "won"])
    keys = check_by(data, by) + ["game"]
    won = data["won"].astype("boolean").fillna(False).astype(bool)
    decided = won.groupby([data[k] for k in keys], observed=True).transform("any")
    return data[decided.to_numpy()]


def _fit(sub, predictors):
    X = sm.add_constant(np.column_stack([numeric(sub[p]) for p in predictors]), has_constant="add")
    y = sub["won"].astype("boolean").fillna(False).to_numpy(dtype=float)
    if y.min() == y.max():
        raise ValueError("Every seat in a group won or every seat lost: there is nothing to fit.")
    return sm.Logit(y, X).fit(disp=0)


def hand_strength(data: pd.DataFrame, *, predictors=PREDICTORS, by="players",
                  confidence: float = 0.95) -> pd.DataFrame:
    """Coefficients of logit P(win) = b0 + b . predictors, one fit per group.

    Parameters
    ----------
    data : DataFrame
        Per-seat rows: ``game``, ``won`` and the ``predictors`` columns.
    predictors : sequence of str
        Columns describing the dealt hand (default: ``tribute_total``, ``aces``).
    by : str, sequence of str or None
        One model per group (default: player count, since hands are smaller with more players).

    Returns
    -------
    DataFrame: ``by`` columns, ``term`` ('const' or a predictor), ``estimate`` (log-odds per unit),
    ``se``, ``low``, ``high``, ``p_value``, ``odds_ratio``, ``n`` (seat rows fitted).
    """
    predictors = _predictors(data, predictors)
    cols, z = check_by(data, by), z_value(check_level(confidence))
    rows = []
    for key, sub in group_items(decided_seats(data, by=cols), cols):
        fit = _fit(sub, predictors)
        for term, b, se in zip(["const"] + predictors, fit.params, fit.bse):
            rows.append(dict(key, term=term, estimate=b, se=se, low=b - z * se, high=b + z * se,
                             p_value=2 * stats.norm.sf(abs(b / se)), odds_ratio=np.exp(b), n=len(sub)))
    return pd.DataFrame(rows)


def hand_strength_predictions(data: pd.DataFrame, *, vary: str = "aces", values=None, predictors=PREDICTORS,
                              by="players", confidence: float = 0.95) -> pd.DataFrame:
    """Predicted win probability as ``vary`` changes, the other predictors at their group mean.

    ``values`` defaults to every whole number from the smallest to the largest observed value.
    The interval is the Wald interval of the linear predictor, mapped through the logistic function.

    Returns ``by`` columns, ``predictor``, ``value``, ``probability``, ``low``, ``high``, ``seats``
    (seat rows observed at that value) and ``observed`` (their win share, NaN if none).
    """
    predictors = _predictors(data, predictors)
    if vary not in predictors:
        raise ValueError(f"The value for `vary` must be one of {predictors}, but {vary!r} was passed.")
    cols, z = check_by(data, by), z_value(check_level(confidence))
    rows = []
    for key, sub in group_items(decided_seats(data, by=cols), cols):
        fit = _fit(sub, predictors)
        x = numeric(sub[vary])
        grid = np.arange(np.nanmin(x), np.nanmax(x) + 1) if values is None else np.asarray(values, float)
        X = np.column_stack([np.ones_like(grid)] + [grid if p == vary else np.full_like(grid, np.nanmean(numeric(sub[p])))
                                                    for p in predictors])
        eta = X @ fit.params
        se = np.sqrt(np.einsum("ij,jk,ik->i", X, fit.cov_params(), X))
        won = sub["won"].astype("boolean").fillna(False).to_numpy(dtype=bool)
        for v, e, s in zip(grid, eta, se):
            at = x == v
            rows.append(dict(key, predictor=vary, value=v, probability=1 / (1 + np.exp(-e)),
                             low=1 / (1 + np.exp(-(e - z * s))), high=1 / (1 + np.exp(-(e + z * s))),
                             seats=int(at.sum()), observed=won[at].mean() if at.any() else np.nan))
    return pd.DataFrame(rows)
