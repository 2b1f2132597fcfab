"""Is the game fair between seats? Win rates per seat, tests against 1/n, first-player advantage.

Games without a winner (loops and cut-offs under ``unfinished='none'``) are left out of every rate
and counted in ``no_winner``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from ._checks import check_by, check_frame, check_level, group_items, numeric
from .intervals import wilson_interval

__all__ = ["seat_win_rates", "seat_fairness_test", "first_player_advantage"]


def _groups(data, by):
    """Per (players, ``by``...) group: key, wins per seat (array of n), games with a winner, without."""
    check_frame(data, ["players", "winner"])
    cols = ["players"] + [c for c in check_by(data, by) if c != "players"]
    for key, sub in group_items(data, cols):
        n = int(key["players"])
        w = numeric(sub["winner"])
        won = w[~np.isnan(w)].astype(int)
        if np.any((won < 0) | (won >= n)):
            raise ValueError(f"`data` has a `winner` outside seats 0..{n - 1} for players={n}.")
        yield key, np.bincount(won, minlength=n), won.size, int(np.isnan(w).sum())


def seat_win_rates(data: pd.DataFrame, *, by=("players", "rules"), confidence: float = 0.95) -> pd.DataFrame:
    """Win rate of every seat with a Wilson interval and a two-sided binomial test against 1/n.

    Parameters
    ----------
    data : DataFrame
        One row per game: ``players`` and ``winner`` (nullable seat number).
    by : str, sequence of str or None
        Grouping columns; ``players`` is always one of them.

    Returns
    -------
    DataFrame: ``by`` columns, ``seat``, ``wins``, ``games`` (games with a winner), ``no_winner``,
    ``rate``, ``low``, ``high``, ``expected`` (1/n), ``p_value``.
    """
    check_level(confidence)
    rows = []
    for key, wins, games, none in _groups(data, by):
        n = len(wins)
        low, high = wilson_interval(wins, np.full(n, games), confidence=confidence)
        for seat in range(n):
            p = stats.binomtest(int(wins[seat]), games, 1 / n).pvalue if games else np.nan
            rows.append(dict(key, seat=seat, wins=int(wins[seat]), games=games, no_winner=none,
                             rate=wins[seat] / games if games else np.nan,
                             low=low[seat], high=high[seat], expected=1 / n, p_value=p))
    return pd.DataFrame(rows)


def seat_fairness_test(data: pd.DataFrame, *, by=("players", "rules")) -> pd.DataFrame:
    """Chi-square goodness-of-fit test of wins per seat against equal shares, one row per group:
    ``by`` columns, ``games``, ``no_winner``, ``chi2``, ``dof`` (n - 1), ``p_value``."""
    rows = []
    for key, wins, games, none in _groups(data, by):
        chi2, p = stats.chisquare(wins) if games else (np.nan, np.nan)
        rows.append(dict(key, games=games, no_winner=none, chi2=float(chi2), dof=len(wins) - 1, p_value=float(p)))
    return pd.DataFrame(rows)


def first_player_advantage(data: pd.DataFrame, *, by=("players", "rules"), confidence: float = 0.95) -> pd.DataFrame:
    """How much more often seat 0 (who leads) wins than a fair 1/n, per group.

    Returns ``by`` columns, ``games``, ``no_winner``, ``rate`` (seat 0), ``expected`` (1/n),
    ``advantage`` (rate - 1/n), ``low``, ``high`` (Wilson interval shifted by 1/n, which is fixed),
    ``p_value`` (two-sided binomial test).
    """
    rates = seat_win_rates(data, by=by, confidence=confidence)
    if rates.empty:
        return rates
    first = rates[rates["seat"] == 0].drop(columns=["seat", "wins"]).reset_index(drop=True)
    first = first.rename(columns={"low": "rate_low", "high": "rate_high"})
    first["advantage"] = first["rate"] - first["expected"]
    first["low"] = first["rate_low"] - first["expected"]
    first["high"] = first["rate_high"] - first["expected"]
    keys = [c for c in first.columns if c not in ("games", "no_winner", "rate", "rate_low", "rate_high",
                                                  "expected", "advantage", "low", "high", "p_value")]
    return first[keys + ["games", "no_winner", "rate", "expected", "advantage", "low", "high", "p_value"]]
