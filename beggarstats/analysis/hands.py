"""Does a strong hand win? Logistic regression of winning on what a seat was dealt.

Input is the per-seat table (``simulate(..., per_seat=True)``): one row per game and seat. Games
without a winner (no seat has ``won``) are left out: nobody won them, so they say nothing about
what wins. The seats of one game are not independent (with 2 players one row is the mirror image
of the other), so every standard error is clustered by game (``cov_type='cluster'``, statsmodels'
sandwich estimator with its small-sample correction); intervals and p-values are the fit's own
(`conf_int`, `pvalues`, `get_prediction`).
"""

from __future__ import annotations


import numpy as np
import pandas as pd
import statsmodels.api as sm
from scipy import stats

from ._checks import check_by, check_frame, check_level, group_items, numeric
from .frames import check_games

__all__ = ["hand_strength", "hand_strength_predictions", "hand_strength_cells", "logistic_fit_test", "decided_seats",
           "game_groups", "mirror_total", "line_constraints"]

PREDICTORS = ("tribute_total", "aces")


def _predictors(data, predictors) -> list[str]:
    predictors = [predictors] if isinstance(predictors, str) else list(predictors)
    if not predictors:
        raise ValueError("The value for `predictors` must name at least one column.")
    check_frame(data, predictors)
    return predictors


def _codes(data: pd.DataFrame, columns) -> np.ndarray:
    """One integer per distinct combination of ``columns`` (numbered in order of first appearance),
    from each column's own codes (a categorical's codes, no strings): a few ms per million rows."""
    key = np.zeros(len(data), dtype=np.int64)
    for c in columns:
        codes, uniques = pd.factorize(data[c], use_na_sentinel=False)
        key = key * len(uniques) + codes
    return pd.factorize(key)[0]


def decided_seats(data: pd.DataFrame, *, by=("players", "rules")) -> pd.DataFrame:
    """The rows of games that someone won (a game is ``by`` + ``game``)."""
    check_frame(data, ["game", "won"])
    keys = check_by(data, by) + ["game"]
    won = data["won"].astype("boolean").fillna(False).to_numpy(dtype=bool)
    codes = _codes(data, keys)
    hit = np.zeros(codes.max() + 1 if codes.size else 0, dtype=bool)
    hit[codes[won]] = True
    return data[hit[codes]]


def game_groups(data: pd.DataFrame) -> np.ndarray:
    """One integer per game (the cluster of its seat rows), numbered in order of first appearance:
    ``game`` within its ``players`` and ``rules`` where those columns are there, since game numbers
    repeat across tables."""
    check_frame(data, ["game"])
    return _codes(data, [c for c in ("players", "rules", "game") if c in data])


def _fit(sub, predictors):
    X = sm.add_constant(np.column_stack([numeric(sub[p]) for p in predictors]), has_constant="add")
    y = sub["won"].astype("boolean").fillna(False).to_numpy(dtype=float)
    if y.min() == y.max():
        raise ValueError("The value for `data`: every seat in a group won or every seat lost, so there is nothing to "
                         "fit: pass rows with both winners and losers in each group.")
    groups = game_groups(sub)
    fit = sm.Logit(y, X).fit(disp=0, cov_type="cluster", cov_kwds={"groups": groups})
    fit.games = int(groups.max() + 1)  # the clusters, counted once
    return fit


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
    ``se`` (clustered by game), ``low``, ``high``, ``p_value``, ``odds_ratio``, ``n`` (seat rows
    fitted), ``games`` (clusters).
    """
    check_games(data)  # a frame of simulate's (analysis/frames.py)
    predictors = _predictors(data, predictors)
    cols, alpha = check_by(data, by), 1 - check_level(confidence)
    rows = []
    for key, sub in group_items(decided_seats(data, by=cols), cols):
        fit = _fit(sub, predictors)
        ci = fit.conf_int(alpha)
        for i, term in enumerate(["const"] + predictors):
            rows.append(dict(key, term=term, estimate=fit.params[i], se=fit.bse[i], low=ci[i, 0], high=ci[i, 1],
                             p_value=fit.pvalues[i], odds_ratio=np.exp(fit.params[i]), n=len(sub),
                             games=fit.games))
    return pd.DataFrame(rows)


def hand_strength_predictions(data: pd.DataFrame, *, vary: str = "aces", values=None, predictors=PREDICTORS,
                              by="players", confidence: float = 0.95) -> pd.DataFrame:
    """Predicted win probability as ``vary`` changes, the other predictors at their group mean.

    ``values`` defaults to every whole number from the smallest to the largest observed value.
    The interval is the fit's (``get_prediction(which='linear')``, clustered by game) on the
    log-odds scale, mapped through the logistic function.

    Returns ``by`` columns, ``predictor``, ``value``, ``probability``, ``low``, ``high``, ``seats``
    (seat rows observed at that value) and ``observed`` (their win share, NaN if none).
    """
    check_games(data)  # a frame of simulate's (analysis/frames.py)
    predictors = _predictors(data, predictors)
    if vary not in predictors:
        raise ValueError(f"The value for `vary` must be one of {predictors}, but {vary!r} was passed.")
    cols, alpha = check_by(data, by), 1 - check_level(confidence)
    rows = []
    for key, sub in group_items(decided_seats(data, by=cols), cols):
        fit = _fit(sub, predictors)
        x = numeric(sub[vary])
        grid = np.arange(np.nanmin(x), np.nanmax(x) + 1) if values is None else np.asarray(values, float)
        X = np.column_stack([np.ones_like(grid)] + [grid if p == vary else np.full_like(grid, np.nanmean(numeric(sub[p])))
                                                    for p in predictors])
        pred = fit.get_prediction(X, which="linear")
        # With 2 players the seats' hands add up to the deck, so the fit is symmetric and at the
        # deck's midpoint the clustered variance is 0 up to rounding (sometimes -1e-19): clip it.
        half = stats.norm.ppf(1 - alpha / 2) * np.sqrt(np.clip(pred.var_pred, 0, None))
        won = sub["won"].astype("boolean").fillna(False).to_numpy(dtype=bool)
        for v, e, lo, hi in zip(grid, pred.predicted, pred.predicted - half, pred.predicted + half):
            at = x == v
            rows.append(dict(key, predictor=vary, value=v, probability=1 / (1 + np.exp(-e)),
                             low=1 / (1 + np.exp(-lo)), high=1 / (1 + np.exp(-hi)),
                             seats=int(at.sum()), observed=won[at].mean() if at.any() else np.nan))
    return pd.DataFrame(rows)


def hand_strength_cells(data: pd.DataFrame, *, vary: str = "tribute_total", by="players", min_seats: int = 1,
                        confidence: float = 0.95) -> pd.DataFrame:
    """The observed win share of every value of ``vary`` dealt, with its Wilson interval: the
    empirical curve, with no model.

    The seats of one game are not independent, but at most one of them wins, so two seats of a game
    dealt the same value are negatively correlated and the Wilson interval (which assumes
    independence) is, if anything, too wide. Games nobody won are left out (`decided_seats`).

    Returns ``by`` columns, ``value``, ``seats`` (seat rows dealt it), ``wins``, ``share``, ``low``,
    ``high``, ``drawn`` (at least ``min_seats`` seats) and ``fitted`` (drawn, and neither every seat
    lost nor every seat won: a logistic fit needs both; `logistic_fit_test` uses these cells).
    """
    from .intervals import wilson_interval

    check_games(data)
    check_frame(data, [vary])
    cols = check_by(data, by)
    rows = []
    for key, sub in group_items(decided_seats(data, by=cols), cols):
        x = numeric(sub[vary])
        won = sub["won"].astype("boolean").fillna(False).to_numpy(dtype=bool)
        values, where = np.unique(x[~np.isnan(x)], return_inverse=True)
        seats = np.bincount(where, minlength=len(values))
        wins = np.bincount(where, weights=won[~np.isnan(x)], minlength=len(values)).astype(int)
        low, high = wilson_interval(wins, seats, confidence=confidence)
        for v, n, k, lo, hi in zip(values, seats, wins, low, high):
            drawn = bool(n >= min_seats)
            rows.append(dict(key, value=v, seats=int(n), wins=int(k), share=k / n, low=lo, high=hi, drawn=drawn,
                             fitted=drawn and 0 < k < n))
    return pd.DataFrame(rows)


def mirror_total(rows: pd.DataFrame, vary: str) -> float | None:
    """The total T of ``vary`` over both seats when every game of ``rows`` has exactly two seats
    whose values add up to the same T and exactly one winner (two players: one hand is the deck
    minus the other), else None. Such a design is symmetric under v -> T - v: every game puts a
    seat at v and one at T - v, and exactly one of them wins."""
    check_frame(rows, ["game", "won", vary])
    groups = game_groups(rows)
    if not len(groups) or not np.all(np.bincount(groups) == 2):
        return None
    x = numeric(rows[vary])
    won = rows["won"].astype("boolean").fillna(False).to_numpy(dtype=float)
    totals = np.bincount(groups, weights=x)
    if np.isnan(totals).any() or not np.all(totals == totals[0]) or not np.all(np.bincount(groups, weights=won) == 1):
        return None
    return float(totals[0])


def line_constraints(values, total: float | None = None) -> np.ndarray:
    """The linear constraints on the cell log-odds theta (one per value of ``values``, in that
    order) that hold exactly when logit P(win) is a line in the value: rows c with c . theta = 0.

    Without symmetry (``total`` None) they are the K - 2 of a saturated model's extra terms (every
    value but the first two, as `logistic_fit_test` parametrizes it), expressed on theta.

    With the mirror symmetry of `mirror_total` the saturated fit is antisymmetric in every sample,
    theta(T - v) = -theta(v) (the shares at v and T - v add up to one, game by game), and a game's
    score, the residual of one seat times the difference of the two seats' design rows, lies in
    the antisymmetric directions: the constraints' covariance has the rank of the constraints
    that are antisymmetric under v -> T - v, and the symmetric ones hold exactly, with no
    variance. The antisymmetric constraints of a line are that (theta(v) - theta(T - v)) / (2v - T)
    is one slope for all P mirror pairs {v, T - v} of ``values`` (v < T - v; the value T / 2 is its
    own mirror and drops out): P - 1 constraints, of full rank. That count, not a numerical rank of
    a singular matrix, is the test's degrees of freedom (aces with two players: values 0-4, pairs
    {0, 4} and {1, 3}, 1 df; 31 tribute totals: 15 pairs, 14 df).
    """
    values = np.asarray(values, dtype=float)
    k = len(values)
    if total is None:
        # theta = L beta with beta's extra terms the indicators of values[2:]: beta_extra = 0 is
        # c . theta = 0 for the c that pick each extra term out of theta (L's inverse, rows 2 on)
        L = np.column_stack([np.ones(k), values] + [(values == v).astype(float) for v in values[2:]])
        return np.linalg.solve(L, np.eye(k))[2:] if k > 2 else np.zeros((0, k))
    where = {v: i for i, v in enumerate(values)}
    missing = [v for v in values if total - v not in where]
    if missing:
        raise ValueError(f"The value for `values` must hold the mirror T - v of every value v (T = {total:g}) "
                         f"under the mirror symmetry, but lacks the mirrors of {missing}.")
    pairs = [(where[v], where[total - v], 2 * v - total) for v in sorted(values) if v < total - v]
    rows = []
    for (i0, j0, w0), (i, j, w) in zip(pairs[:1] * len(pairs), pairs[1:]):
        c = np.zeros(k)
        c[i], c[j] = 1 / w, -1 / w
        c[i0], c[j0] = -1 / w0, 1 / w0
        rows.append(c)
    return np.array(rows).reshape(len(rows), k)


def logistic_fit_test(data: pd.DataFrame, *, vary: str = "tribute_total", by="players", min_seats: int = 1,
                      confidence: float = 0.95) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Does win probability follow a logistic in ``vary`` alone? Its goodness of fit against the
    observed shares, per group.

    On the seats of the cells `hand_strength_cells` marks ``fitted`` (at least ``min_seats`` seats,
    winners and losers both), the logistic ``logit P(win) = b0 + b1 * vary`` is nested in the
    saturated model, one probability per value (``b0 + b1 * vary`` plus one term for every value but
    two). The test is the Wald test that the cell log-odds lie on a line (`line_constraints`), with
    the covariance clustered by game (statsmodels ``wald_test`` of the clustered fit): the seats of
    a game are not independent, so a likelihood-ratio test, which assumes they are, does not apply.

    The degrees of freedom come from the design, never from a numerical rank: values fitted minus
    two, or, where the two hands of every game add up to the deck (`mirror_total`: two players),
    the mirror pairs of the values fitted minus one, since there the clustered covariance of the
    extra terms is singular by construction and its rank, read off a matrix whose null directions
    are rounding noise, would change from machine to machine.

    Returns ``(tests, curve)``: ``tests`` has ``by`` columns, ``chi2``, ``dof``, ``p_value``,
    ``cells``, ``seats``, ``games`` and ``max_gap`` (largest |observed share - logistic| over the
    fitted cells, as a share); ``curve`` is `hand_strength_predictions` of the logistic fitted on the
    same seats (its line and 95% band, clustered by game).
    """
    check_games(data)
    cols, alpha = check_by(data, by), 1 - check_level(confidence)
    cells = hand_strength_cells(data, vary=vary, by=cols, min_seats=min_seats, confidence=confidence)
    tests, curves = [], []
    for key, sub in group_items(decided_seats(data, by=cols), cols):
        mine = cells
        for c, v in key.items():
            mine = mine[mine[c] == v]
        keep = mine.loc[mine["fitted"], "value"].to_numpy(float)
        x = numeric(sub[vary])
        rows = sub[np.isin(x, keep)]
        if len(keep) < 2:
            continue  # no line to fit through fewer than two values
        curve = hand_strength_predictions(rows, vary=vary, predictors=(vary,), by=cols or None,
                                          confidence=confidence)
        curves.append(curve.assign(**{c: v for c, v in key.items()}) if cols else curve)
        xs = numeric(rows[vary])
        y = rows["won"].astype("boolean").fillna(False).to_numpy(dtype=float)
        extra = keep[2:]  # the saturated model: one term for every value but two
        X = np.column_stack([np.ones_like(xs), xs] + [(xs == v).astype(float) for v in extra])
        groups = game_groups(rows)
        fit = sm.Logit(y, X).fit(disp=0, cov_type="cluster", cov_kwds={"groups": groups})
        cells_design = np.column_stack([np.ones_like(keep), keep] + [(keep == v).astype(float) for v in extra])
        C = line_constraints(keep, mirror_total(rows, vary))
        dof = len(C)
        if dof:
            # on the cell log-odds theta = cells_design @ beta; full rank by construction, so
            # statsmodels' own rank check agrees, and the df is the count above whatever it finds
            wald = fit.wald_test(C @ cells_design, use_f=False, scalar=True, df_constraints=dof)
            chi2, p = float(wald.statistic), float(wald.pvalue)
        else:
            chi2, p = 0.0, 1.0  # the line goes through every value (or both of a mirrored pair): nothing to test
        fitted = curve.set_index("value")["probability"]
        shares = mine[mine["fitted"]].set_index("value")["share"]
        gap = float(np.max(np.abs(shares - fitted.reindex(shares.index))))
        tests.append(dict(key, chi2=chi2, dof=dof, p_value=p, cells=len(keep), seats=len(rows),
                          games=int(groups.max() + 1), max_gap=gap))
    # with no group to test (too few seats for two cells) the tables are empty, their columns kept
    curve = pd.concat(curves, ignore_index=True) if curves else pd.DataFrame(
        columns=cols + ["predictor", "value", "probability", "low", "high", "seats", "observed"])
    return pd.DataFrame(tests, columns=cols + ["chi2", "dof", "p_value", "cells", "seats", "games", "max_gap"]), curve
