"""The pooled seat model as a multinomial (one winner per game) and the heterogeneity test of the
equal-hand steps (analysis/seats.py), each against a computation done another way."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.meta_analysis import combine_effects

from beggarstats import analysis as A


def _seats(probs_by_n, games, seed):
    """Per-seat rows of ``games`` games per player count, winners drawn with ``probs_by_n``."""
    rng = np.random.default_rng(seed)
    rows = []
    for n, probs in probs_by_n.items():
        winners = rng.choice(n, games, p=probs)
        seat = np.tile(np.arange(n), games)
        rows.append(pd.DataFrame(dict(game=np.repeat(np.arange(games), n) + 10 * games * n, players=n, rules="standard",
                                      seat=seat, hand_size=np.tile(A.dealt_hand_size(n, np.arange(n)), games),
                                      won=seat == np.repeat(winners, n))))
    return pd.concat(rows, ignore_index=True)


def test_seat_model_is_a_multinomial_with_its_g2_by_hand():
    probs = {2: [0.48, 0.52], 3: [0.36, 0.30, 0.34], 4: [0.24, 0.25, 0.26, 0.25], 5: [0.21, 0.21, 0.19, 0.19, 0.20]}
    seats = _seats(probs, 20000, 3)
    model = A.seat_position_model(seats).set_index("term")
    assert (model["model"] == "multinomial logit").all()
    b_seat, b_card = model.loc["seat", "estimate"], model.loc["extra_card", "estimate"]
    # by hand: the softmax over the seats of each player count, its expected wins and G^2
    observed, expected = [], []
    for n in probs:
        size = A.dealt_hand_size(n, np.arange(n))
        score = np.exp(b_seat * np.arange(n) + b_card * (size - size.min()))
        wins = seats[(seats["players"] == n) & seats["won"]].groupby("seat").size().reindex(range(n), fill_value=0)
        observed += list(wins)
        expected += list(wins.sum() * score / score.sum())  # each game's seats share one win: sums to the games
    observed, expected = np.array(observed, float), np.array(expected)
    g2 = 2 * np.sum(observed * np.log(observed / expected))
    assert model.loc["seat", "deviance"] == pytest.approx(g2, rel=1e-6)
    assert model.loc["seat", "dof"] == (1 + 2 + 3 + 4) - 2
    assert model.loc["seat", "gof_p_value"] == pytest.approx(stats.chi2.sf(g2, 8), rel=1e-6)
    # the maximum: the score equations say the fitted seat index and extra cards match the observed ones
    seat_index = np.concatenate([np.arange(n) for n in probs])
    extra = np.concatenate([A.dealt_hand_size(n, np.arange(n)) - A.dealt_hand_size(n, np.arange(n)).min() for n in probs])
    assert seat_index @ expected == pytest.approx(seat_index @ observed, rel=1e-6)
    assert extra @ expected == pytest.approx(extra @ observed, rel=1e-6)
    assert model.loc["seat", "games"] == 80000


def test_seat_model_matches_the_conditional_logit_of_the_seat_rows():
    from statsmodels.discrete.conditional_models import ConditionalLogit

    seats = _seats({3: [0.36, 0.30, 0.34], 5: [0.22, 0.22, 0.18, 0.19, 0.19]}, 1500, 8)
    model = A.seat_position_model(seats).set_index("term")
    size_min = seats.groupby("players")["hand_size"].transform("min")
    X = np.column_stack([seats["seat"], seats["hand_size"] - size_min]).astype(float)
    fit = ConditionalLogit(seats["won"].to_numpy(float), X, groups=seats["game"].to_numpy()).fit(disp=0)
    assert model[["estimate"]].to_numpy().ravel() == pytest.approx(fit.params, abs=1e-5)  # its optimizer's tolerance
    assert model[["se"]].to_numpy().ravel() == pytest.approx(fit.bse, rel=1e-3)


def _games(probs, games, seed, rules="standard"):
    rng = np.random.default_rng(seed)
    w = rng.choice(len(probs), games, p=probs)
    return pd.DataFrame(dict(players=len(probs), rules=rules, winner=pd.array(w, dtype="Int8")))


def test_step_heterogeneity_is_cochrans_q_for_independent_steps():
    # two independent 3-player runs: one equal-hand step each (seat 1 -> 2), Cochran's Q of two
    # effects with the multinomial variance of a difference of two cells, by hand
    a, b = _games([0.34, 0.31, 0.35], 30000, 1, "a"), _games([0.34, 0.34, 0.32], 30000, 2, "b")
    res = A.step_heterogeneity(pd.concat([a, b], ignore_index=True))
    d, v = [], []
    for g in (a, b):
        p = np.bincount(g["winner"].to_numpy(int), minlength=3) / len(g)
        d.append(p[2] - p[1])
        v.append((p[1] + p[2] - (p[2] - p[1]) ** 2) / len(g))
    assert res["q"] == pytest.approx(combine_effects(np.array(d), np.array(v)).q, rel=1e-9)
    assert res["dof"] == 1 and res["steps"] == 2


def test_step_heterogeneity_is_the_wald_test_of_equal_steps():
    # 4 players, 52 cards: three equal-hand steps of one multinomial, correlated; Q against the
    # Wald statistic of the two restrictions d1 = d2 = d3, computed from the restrictions
    g = _games([0.24, 0.26, 0.23, 0.27], 40000, 4)
    res = A.step_heterogeneity(g)
    p = np.bincount(g["winner"].to_numpy(int), minlength=4) / len(g)
    D = np.array([[-1, 1, 0, 0], [0, -1, 1, 0], [0, 0, -1, 1]], float)
    V = D @ (np.diag(p) - np.outer(p, p)) @ D.T / len(g)
    R = np.array([[1, -1, 0], [0, 1, -1]], float)
    r = R @ D @ p
    wald = r @ np.linalg.solve(R @ V @ R.T, r)
    assert res["q"] == pytest.approx(wald, rel=1e-9) and res["dof"] == 2
    assert res["p_value"] == pytest.approx(stats.chi2.sf(wald, 2), rel=1e-9)
    with pytest.raises(ValueError, match="at least 2"):
        A.step_heterogeneity(_games([0.3, 0.3, 0.4], 1000, 5))
