"""Is the game fair between seats? Win rates per seat, tests against 1/n, first-player advantage.

Games without a winner (loops and cut-offs under ``unfinished='none'``) are left out of every rate
and counted in ``no_winner``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import statsmodels.api as sm
from scipy import stats

from ._checks import check_by, check_frame, check_level, group_items, numeric
from .frames import check_games
from ._twins import accepts_summary
from .hands import decided_seats, game_groups
from .intervals import wilson_interval

__all__ = ["seat_win_rates", "seat_fairness_test", "first_player_advantage", "dealt_hand_size",
           "seat_position_model", "seat_contrasts", "step_heterogeneity"]


def dealt_hand_size(players: int, seat, n_cards: int = 52):
    """Cards dealt to ``seat``: the deck goes round one card at a time from seat 0, so the first
    ``n_cards % players`` seats get one card more than the others."""
    seat = np.asarray(seat)
    return n_cards // players + (seat < n_cards % players)


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


@accepts_summary
def seat_win_rates(data: pd.DataFrame, *, by=("players", "rules"), confidence: float = 0.95,
                   n_cards: int | None = None) -> pd.DataFrame:
    """Win rate of every seat with a Wilson interval and a two-sided binomial test against 1/n.

    Parameters
    ----------
    data : DataFrame
        One row per game: ``players`` and ``winner`` (nullable seat number).
    by : str, sequence of str or None
        Grouping columns; ``players`` is always one of them.
    n_cards : int, optional
        Cards in the deck; when given, a ``hand_size`` column says how many each seat was dealt.

    Returns
    -------
    DataFrame: ``by`` columns, ``seat``, ``wins``, ``games`` (games with a winner), ``no_winner``,
    ``rate``, ``low``, ``high``, ``expected`` (1/n), ``p_value`` (binomial test against 1/n), and
    ``hand_size`` with ``n_cards``. One row per game enters, so games are the independent units.
    """
    check_games(data)  # a frame of simulate's (analysis/frames.py)
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
            if n_cards is not None:
                rows[-1]["hand_size"] = int(dealt_hand_size(n, seat, n_cards))
    return pd.DataFrame(rows)


@accepts_summary
def seat_fairness_test(data: pd.DataFrame, *, by=("players", "rules")) -> pd.DataFrame:
    """Chi-square goodness-of-fit test of wins per seat against equal shares, one row per group:
    ``by`` columns, ``games``, ``no_winner``, ``chi2``, ``dof`` (n - 1), ``p_value``."""
    check_games(data)  # a frame of simulate's (analysis/frames.py)
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
    check_games(data)  # a frame of simulate's (analysis/frames.py)
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


def seat_contrasts(data: pd.DataFrame, *, by=("players", "rules"), n_cards: int = 52,
                   confidence: float = 0.95) -> pd.DataFrame:
    """Within one player count, the win rate of each seat minus that of the seat before it.

    Each contrast compares two adjacent seats of the same games, so it needs no model: the
    per-game value ``[winner == s + 1] - [winner == s]`` (-1, 0 or 1) has mean rate(s + 1) -
    rate(s), and its one-sample t interval and p-value (`scipy.stats.ttest_1samp`) are the Wald
    interval of a difference of two cells of one multinomial (the covariance of the two rates
    included). ``hand`` says whether the two seats were dealt the same number of cards ('same',
    the step of position alone) or the later one a card fewer ('one fewer': position and the
    extra card together), so the equal-hand steps show whether position acts alike along the table.

    Parameters
    ----------
    data : DataFrame
        One row per game: ``players`` and ``winner`` (nullable seat number).
    by : str, sequence of str or None
        Grouping columns; ``players`` is always one of them.
    n_cards : int
        Cards in the deck, which decide the dealt hand sizes (`dealt_hand_size`).

    Returns
    -------
    DataFrame: ``by`` columns, ``seat`` (the later seat s + 1), ``hand`` ('same' or 'one fewer'),
    ``hand_size`` (cards dealt to seat s + 1), ``estimate`` (rate(s + 1) - rate(s)), ``se`` (its
    standard error), ``low``, ``high``, ``p_value``, ``games`` (games with a winner).
    """
    level = check_level(confidence)
    check_frame(data, ["players", "winner"])
    cols = ["players"] + [c for c in check_by(data, by) if c != "players"]
    rows = []
    for key, sub in group_items(data, cols):
        n = int(key["players"])
        w = numeric(sub["winner"])
        w = w[~np.isnan(w)]
        sizes = dealt_hand_size(n, np.arange(n), n_cards)
        for s in range(n - 1):
            x = (w == s + 1).astype(float) - (w == s).astype(float)
            if w.size < 2:
                continue
            if np.all(x == x[0]):
                est = low = high = float(x[0])
                p, se = (1.0 if x[0] == 0 else 0.0), 0.0
            else:
                res = stats.ttest_1samp(x, 0.0)
                ci = res.confidence_interval(level)
                est, low, high, p = float(x.mean()), float(ci.low), float(ci.high), float(res.pvalue)
                se = float(stats.sem(x))
            rows.append(dict(key, seat=s + 1, hand="same" if sizes[s + 1] == sizes[s] else "one fewer",
                             hand_size=int(sizes[s + 1]), estimate=est, se=se, low=low, high=high, p_value=p,
                             games=int(w.size)))
    return pd.DataFrame(rows)


def seat_position_model(data: pd.DataFrame, *, confidence: float = 0.95) -> pd.DataFrame:
    """Separate a seat's place in the order of play from the size of its dealt hand, with one winner
    per game.

    A multinomial (softmax, conditional) logit over the seats of each decided game, all player
    counts together: P(seat s of an n-player game wins) = exp(b_seat s + b_card extra_s) /
    sum over the n seats j of exp(b_seat j + b_card extra_j), where ``extra_s`` is the seat's
    ``hand_size`` minus the smallest hand dealt at that player count (0 or 1 with the 52-card
    deck). The seats' chances add up to one in every game, as they must: a binomial model of each
    seat apart would let them not. The likelihood depends on the wins per player count and seat
    only, and is fitted as the Poisson log-linear model of those counts with one intercept per
    player count (statsmodels GLM; the multinomial-Poisson equivalence: the same estimates, standard
    errors and deviance, Baker 1994). The model assumes that one step later in the order changes the
    log-odds by the same ``b_seat`` at every seat of every table size and that the extra card adds
    the same ``b_card`` everywhere; its goodness of fit is G^2, the deviance against the saturated
    model of the wins per player count and seat (sum of (n - 1) over the player counts, less 2,
    degrees of freedom). Where G^2 rejects the model the two odds ratios are averages over effects
    that differ, not the effect of a seat or of a card.

    Parameters
    ----------
    data : DataFrame
        Per-seat rows (``simulate(..., per_seat=True)``): ``game``, ``players``, ``seat``,
        ``hand_size``, ``won``.

    Returns
    -------
    DataFrame: ``term`` ('seat', 'extra_card'), ``estimate`` (log-odds), ``se``, ``low``,
    ``high``, ``p_value``, ``odds_ratio``, ``odds_low``, ``odds_high``, ``n`` (seat rows),
    ``games`` (decided games), ``model`` ('multinomial logit'), and the model's fit (the same on
    both rows): ``deviance`` (G^2), ``dof``, ``gof_p_value``, ``max_abs_residual`` (Pearson).
    """
    check_games(data)  # a frame of simulate's (analysis/frames.py)
    check_frame(data, ["game", "players", "seat", "hand_size", "won"])
    alpha = 1 - check_level(confidence)
    sub = decided_seats(data, by=[c for c in ("players", "rules") if c in data.columns])
    players = numeric(sub["players"]).astype(int)
    hand = numeric(sub["hand_size"])
    smallest = pd.Series(hand).groupby(players).transform("min").to_numpy()
    won = sub["won"].astype("boolean").fillna(False).to_numpy(dtype=float)
    cells = pd.DataFrame({"players": players, "seat": numeric(sub["seat"]), "extra": hand - smallest, "won": won})
    cells = cells.groupby(["players", "seat", "extra"], as_index=False)["won"].sum()
    counts = sorted(set(players))
    X = np.column_stack([(cells["players"] == p).to_numpy(float) for p in counts]
                        + [cells["seat"].to_numpy(float), cells["extra"].to_numpy(float)])
    fit = sm.GLM(cells["won"].to_numpy(float), X, family=sm.families.Poisson()).fit()
    ci = fit.conf_int(alpha)
    dof = int(round(fit.df_resid))
    gof = dict(deviance=float(fit.deviance), dof=dof,
               gof_p_value=float(stats.chi2.sf(fit.deviance, dof)) if dof > 0 else np.nan,
               max_abs_residual=float(np.max(np.abs(fit.resid_pearson))))
    games = int(game_groups(sub).max() + 1)
    rows = []
    for term, i in (("seat", len(counts)), ("extra_card", len(counts) + 1)):
        rows.append(dict(term=term, estimate=fit.params[i], se=fit.bse[i], low=ci[i, 0], high=ci[i, 1],
                         p_value=fit.pvalues[i], odds_ratio=np.exp(fit.params[i]), odds_low=np.exp(ci[i, 0]),
                         odds_high=np.exp(ci[i, 1]), n=len(sub), games=games, model="multinomial logit", **gof))
    return pd.DataFrame(rows)


def step_heterogeneity(data: pd.DataFrame, *, by=("players", "rules"), n_cards: int = 52, hand: str = "same") -> dict:
    """Are the steps between adjacent seats one constant? Cochran's Q over every step of
    `seat_contrasts` whose two seats hold ``hand`` ('same': equal hands, where only the position
    differs), all groups (player counts) together.

    The steps d = D p of one group are differences of the cells p of one multinomial (the win rates
    of its seats), so their covariance is D (diag(p) - p p') D' / n: adjacent steps share a seat and
    are negatively correlated. Q is the generalized least-squares form (d - mu)' V^-1 (d - mu), V
    block-diagonal over the groups (independent runs) and mu the GLS common step; under one constant
    step it is chi-square with steps - 1 degrees of freedom. With one step per group V is diagonal
    and Q is the usual inverse-variance Cochran's Q (`statsmodels.stats.meta_analysis.combine_effects`,
    which the tests hold it to).

    Returns a dict: ``q``, ``dof``, ``p_value``, ``steps``, ``mean`` (mu, a share), ``games``.
    """
    from scipy.linalg import block_diag

    check_games(data)  # a frame of simulate's (analysis/frames.py)
    check_frame(data, ["players", "winner"])
    cols = ["players"] + [c for c in check_by(data, by) if c != "players"]
    d, blocks, games = [], [], 0
    for key, sub in group_items(data, cols):
        n = int(key["players"])
        w = numeric(sub["winner"])
        w = w[~np.isnan(w)].astype(int)
        p = np.bincount(w, minlength=n) / max(w.size, 1)
        sizes = dealt_hand_size(n, np.arange(n), n_cards)
        rows = [s for s in range(n - 1) if (sizes[s + 1] == sizes[s]) == (hand == "same")]
        if not rows or w.size < 2:
            continue
        D = np.zeros((len(rows), n))
        D[np.arange(len(rows)), np.array(rows) + 1] = 1.0
        D[np.arange(len(rows)), rows] = -1.0
        d.append(D @ p)
        blocks.append(D @ (np.diag(p) - np.outer(p, p)) @ D.T / w.size)
        games += w.size
    d = np.concatenate(d) if d else np.zeros(0)
    if d.size < 2:
        raise ValueError(f"`data` has {d.size} steps with hand={hand!r}: at least 2 are needed.")
    Vi = np.linalg.inv(block_diag(*blocks))
    one = np.ones(d.size)
    mu = float(one @ Vi @ d / (one @ Vi @ one))
    q = float((d - mu) @ Vi @ (d - mu))
    return dict(q=q, dof=d.size - 1, p_value=float(stats.chi2.sf(q, d.size - 1)), steps=int(d.size), mean=mu,
                games=int(games))
