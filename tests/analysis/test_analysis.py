"""Tests of beggarstats.analysis: hand-worked values, synthetic data with known answers, real games."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from beggarstats import analysis as A
from beggarstats.game.rules import Rules

from _frames import reference_frames, synthetic_games


@pytest.fixture(scope="module")
def real():
    """300 two-player and 150 three-player reference games (masked dtypes), and the 2p again in Arrow dtypes."""
    g2, s2 = reference_frames(300, Rules(players=2), seed=7)
    g3, s3 = reference_frames(150, Rules(players=3), seed=7)
    g2a, s2a = reference_frames(300, Rules(players=2), seed=7, arrow=True)
    games = pd.concat([g2, g3], ignore_index=True)
    seats = pd.concat([s2, s3], ignore_index=True)
    return games, seats, g2a, s2a


# -- intervals ----------------------------------------------------------------------------------
def test_wilson_matches_hand_computation():
    # 8 of 10: p = .8, z^2 = 3.8415; centre = (.8 + z^2/20)/(1 + z^2/10) = .71674,
    # half = z/(1 + z^2/10) * sqrt(.016 + z^2/400) = .22658.
    low, high = A.wilson_interval(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-4)
    assert high == pytest.approx(0.9433, abs=1e-4)


def test_wilson_extremes_and_arrays():
    low, high = A.wilson_interval(np.array([0, 10]), np.array([10, 10]))
    assert low[0] == pytest.approx(0) and high[1] == pytest.approx(1)
    assert high[0] == pytest.approx(0.2775, abs=1e-4)  # 0/10: z^2/(n + z^2)
    with pytest.raises(ValueError, match="successes"):
        A.wilson_interval(11, 10)


@pytest.mark.parametrize("n", [100, 500, 1000, 2000, 250_000])
def test_wilson_interval_always_holds_the_estimate(n):
    # rounding once put the low end at 3.5e-18 > 0/n and the high end just below n/n
    low, high = A.wilson_interval(np.array([0, n]), np.array([n, n]))
    assert low[0] <= 0 <= high[0] and low[1] <= 1 <= high[1]


def test_newcombe_matches_published_example():
    # Newcombe (1998), Statistics in Medicine 17:873, example (a): 56/70 - 48/80, method 10.
    low, high = A.newcombe_interval(56, 70, 48, 80)
    assert (low, high) == pytest.approx((0.0524, 0.3339), abs=1e-4)


def test_mean_interval_is_student_t():
    x = np.array([1.0, 2, 3, 4, 5])
    half = stats.t.ppf(0.975, 4) * np.std(x, ddof=1) / np.sqrt(5)
    assert A.mean_interval(x) == pytest.approx((3 - half, 3 + half))


# -- lengths ------------------------------------------------------------------------------------
def test_length_summary_known_values():
    data = synthetic_games(np.r_[np.arange(1, 101), [500, 500]], outcome=["win"] * 100 + ["cutoff", "loop"])
    row = A.length_summary(data).iloc[0]
    assert (row["games"], row["n"]) == (102, 100)      # cut-off and looped games left out of the stats
    assert row["mean"] == 50.5 and row["q50"] == 50.5 and row["max"] == 100
    assert row["sd"] == pytest.approx(np.std(np.arange(1, 101), ddof=1))
    assert row["q99"] == pytest.approx(99.01)
    assert row["share_cutoff"] == pytest.approx(1 / 102) and row["share_loop"] == pytest.approx(1 / 102)
    assert row["mean_low"] < 50.5 < row["mean_high"]
    every = A.length_summary(data, outcomes=("win", "cutoff", "loop"), measure="tricks").iloc[0]
    assert every["n"] == 102 and every["max"] == 500 // 8


def test_length_summary_groups_and_arrow(real):
    games, _, g2a, _ = real
    table = A.length_summary(games)
    assert list(table["players"]) == [2, 3] and list(table["games"]) == [300, 150]
    arrow = A.length_summary(g2a)
    pd.testing.assert_frame_equal(arrow.drop(columns=["players", "rules"]),
                                  table.iloc[[0]].drop(columns=["players", "rules"]).reset_index(drop=True),
                                  check_dtype=False)


# -- survival -----------------------------------------------------------------------------------
def test_kaplan_meier_hand_worked_example_with_censoring():
    # lengths 1, 2, 2+, 3, 4+, 5 ('+' censored). At risk 6, 5, 3, 2, 1.
    # S(1) = 5/6, S(2) = 5/6 * 4/5 = 2/3, S(3) = 2/3 * 2/3 = 4/9, S(4) = 4/9, S(5) = 0.
    data = synthetic_games([1, 2, 2, 3, 4, 5], outcome=["win", "win", "cutoff", "win", "cutoff", "win"])
    km = A.kaplan_meier(data, ci="plain")
    assert list(km["length"]) == [1, 2, 3, 4, 5]
    assert list(km["at_risk"]) == [6, 5, 3, 2, 1]
    assert list(km["censored"]) == [0, 1, 0, 1, 0]
    assert km["survival"].tolist() == pytest.approx([5 / 6, 2 / 3, 4 / 9, 4 / 9, 0])
    # Greenwood at 3: S^2 * (1/(6*5) + 1/(5*4) + 1/(3*2)) = (4/9)^2 * 1/4
    assert km["se"].iloc[2] == pytest.approx(4 / 9 * 0.5)
    assert km["low"].iloc[2] == pytest.approx(4 / 9 - 1.959964 * 2 / 9)
    assert km["high"].iloc[0] == 1.0  # plain interval clipped at 1


def test_a_loop_never_ends_so_the_curve_levels_off_at_the_loop_share():
    # The same games with the game of length 4 a loop: it is at risk at every length, so at 5 the
    # risk set is {5, loop}: S(5) = 4/9 * 1/2 = 2/9, and no row at 4 (nothing ended or was cut off there).
    data = synthetic_games([1, 2, 2, 3, 4, 5], outcome=["win", "win", "cutoff", "win", "loop", "win"])
    km = A.kaplan_meier(data, ci="plain")
    assert list(km["length"]) == [1, 2, 3, 5] and list(km["at_risk"]) == [6, 5, 3, 2]
    assert km["survival"].tolist() == pytest.approx([5 / 6, 2 / 3, 4 / 9, 2 / 9])
    # without cut-offs the curve ends exactly at the loop share; a censored loop would give 0
    data = synthetic_games([10, 20, 30, 15], outcome=["win", "win", "win", "loop"])
    assert A.kaplan_meier(data)["survival"].iloc[-1] == pytest.approx(1 / 4)
    # the end rate of the open band counts the loop's cards up to the longest game, and no event
    bands = A.hazard_bands(synthetic_games([10, 20, 30, 15], outcome=["win", "win", "win", "loop"]), start=0.25,
                           width=100, min_events=1)
    assert bands["events"].sum() == 2 and bands["exposure"].sum() == (20 - 10) + (30 - 10) + (30 - 10)


def test_kaplan_meier_log_log_interval():
    # S(1) = 5/6 with Greenwood sum 1/30; on the log(-log S) scale the half width is
    # z * sqrt(1/30) / |log(5/6)|, and the bounds are S ** exp(+-that).
    km = A.km_table([1, 2, 2, 3, 4, 5], [1, 1, 0, 1, 0, 1])
    w = 1.959964 * np.sqrt(1 / 30) / abs(np.log(5 / 6))
    assert km["low"].iloc[0] == pytest.approx((5 / 6) ** np.exp(w), rel=1e-5)
    assert km["high"].iloc[0] == pytest.approx((5 / 6) ** np.exp(-w), rel=1e-5)
    assert (km["low"] <= km["survival"]).all() and (km["survival"] <= km["high"]).all()


def test_km_without_censoring_equals_empirical_survival(real):
    games = real[0]
    km = A.kaplan_meier(games)
    ecdf = A.length_distribution(games)
    np.testing.assert_allclose(km["survival"], ecdf["survival"], atol=1e-12)
    assert (ecdf.groupby("players")["count"].sum() == [300, 150]).all()


def test_tail_rate_recovers_geometric_rate():
    rng = np.random.default_rng(3)
    p = 0.004
    x = 60 + rng.geometric(p, 20_000)
    cut = 1_000                                   # censor the longest games as a cut-off would
    data = synthetic_games(np.minimum(x, cut), outcome=np.where(x > cut, "cutoff", "win"))
    for method in ("mle", "slope"):
        row = A.tail_rate(data, method=method).iloc[0]
        assert row["rate"] == pytest.approx(p, rel=0.05), method
        assert row["threshold"] == pytest.approx(60 + np.log(2) / p, rel=0.05)  # the KM median
    mle = A.tail_rate(data).iloc[0]
    assert mle["rate_low"] < p < mle["rate_high"]
    assert mle["half_life"] == pytest.approx(np.log(2) / -np.log1p(-mle["rate"]))


def test_geometric_tail_is_the_poisson_rate_by_hand():
    # beyond 10 cards: 12 and 15 end (k = 2, 5), 20 is censored (k = 10): p = 2 / 17, and the GLM's
    # interval is exp(log p +- z / sqrt(2)).
    out = A.geometric_tail([5, 12, 15, 20], [True, True, True, False], threshold=10)
    assert (out["n_tail"], out["events"]) == (3, 2)
    half = 1.959964 / np.sqrt(2)
    assert (out["rate"], out["rate_low"], out["rate_high"]) == pytest.approx(
        (2 / 17, 2 / 17 * np.exp(-half), 2 / 17 * np.exp(half)), rel=1e-5)


def test_poisson_rates_by_hand():
    # 5 events in 100 cards and 10 in 400: rates 0.05 and 0.025; the Wald interval on the log rate
    # is exp(log r +- z / sqrt(d)); one common rate 15/500 = 0.03 gives the likelihood-ratio
    # statistic 2 * (5 log(0.05/0.03) + 10 log(0.025/0.03)) = 1.461824 on 1 degree of freedom.
    rate, low, high, chi2, dof, p = A.tail.poisson_rates([5, 10], [100, 400])
    assert rate == pytest.approx([0.05, 0.025])
    assert low[0] == pytest.approx(0.05 * np.exp(-1.959964 / np.sqrt(5)), rel=1e-5)
    assert high[1] == pytest.approx(0.025 * np.exp(1.959964 / np.sqrt(10)), rel=1e-5)
    assert (chi2, dof) == (pytest.approx(1.461824, rel=1e-5), 1)
    assert p == pytest.approx(stats.chi2.sf(1.461824, 1), rel=1e-5)


def test_hazard_bands_accept_a_geometric_tail_and_reject_a_changing_one():
    rng = np.random.default_rng(4)
    geometric = synthetic_games(60 + rng.geometric(0.004, 40_000))
    bands = A.hazard_bands(geometric, width=100, min_events=500)
    assert len(bands) >= 5 and np.isinf(bands["band_high"].iloc[-1])
    assert ((bands["low"] < 0.004) & (0.004 < bands["high"])).mean() >= 0.8
    # exposure adds up to every card played beyond the threshold
    x = 60 + rng.geometric(0.004, 40_000)
    assert bands["events"].sum() == A.tail_rate(geometric).iloc[0]["events"]
    test = A.tail_constancy_test(geometric, width=100, min_events=500).iloc[0]
    assert test["p_value"] > 0.001 and test["dof"] == len(bands) - 1
    # a tail whose rate halves after 600 cards
    slow = np.where(x > 600, 600 + rng.geometric(0.002, x.size), x)
    test = A.tail_constancy_test(synthetic_games(slow), width=100, min_events=500).iloc[0]
    assert test["p_value"] < 1e-6


def test_tail_rate_of_real_games_is_plausible(real):
    rates = A.tail_rate(real[0])
    assert ((rates["rate"] > 0.001) & (rates["rate"] < 0.05)).all()
    assert (rates["rate_low"] < rates["rate"]).all()


# -- seats --------------------------------------------------------------------------------------
def test_seat_rates_reject_a_biased_seat():
    winner = np.r_[np.zeros(600, int), np.ones(400, int), -np.ones(50, int)]
    data = synthetic_games(np.full(1050, 100), outcome=np.where(winner < 0, "loop", "win"), winner=winner)
    rates = A.seat_win_rates(data)
    assert list(rates["wins"]) == [600, 400] and (rates["games"] == 1000).all() and (rates["no_winner"] == 50).all()
    assert rates["low"].iloc[0] == pytest.approx(A.wilson_interval(600, 1000)[0])
    assert (rates["p_value"] < 1e-9).all()
    test = A.seat_fairness_test(data).iloc[0]
    assert test["chi2"] == pytest.approx(40.0) and test["dof"] == 1 and test["p_value"] < 1e-9
    adv = A.first_player_advantage(data).iloc[0]
    assert adv["advantage"] == pytest.approx(0.1)
    assert adv["low"] == pytest.approx(A.wilson_interval(600, 1000)[0] - 0.5)


def test_seat_rates_accept_a_fair_table_and_list_seats_without_wins():
    fair = synthetic_games(np.full(300, 100), winner=np.arange(300) % 3, players=3)
    assert A.seat_fairness_test(fair)["p_value"].iloc[0] == pytest.approx(1.0)
    one_sided = synthetic_games(np.full(10, 100), winner=np.zeros(10, int), players=4)
    assert list(A.seat_win_rates(one_sided)["wins"]) == [10, 0, 0, 0]


def test_seat_rates_on_real_games_sum_to_one(real):
    rates = A.seat_win_rates(real[0])
    assert rates.groupby("players")["rate"].sum().tolist() == pytest.approx([1, 1])
    assert len(A.first_player_advantage(real[0])) == 2


# -- variants -----------------------------------------------------------------------------------
def test_compare_variants_independent_when_the_deals_differ():
    rng = np.random.default_rng(5)
    base = synthetic_games(rng.normal(200, 20, 400).round(), winner=np.where(np.arange(400) < 200, 0, 1))
    var = synthetic_games(rng.normal(300, 30, 300).round(), winner=np.where(np.arange(300) < 210, 0, 1),
                          rules="italian deck")   # another deck: game g is another deal
    data = pd.concat([base, var], ignore_index=True)
    out = A.compare_variants(data).set_index("metric")
    assert set(out.index) == set(A.variants.METRICS) and (out["rules"] == "italian deck").all()
    assert (out["design"] == "independent").all()
    x1, x0 = var["cards"].to_numpy(float), base["cards"].to_numpy(float)
    diff = out.loc["mean_length_diff"]
    welch = stats.ttest_ind(x1, x0, equal_var=False)
    assert diff["estimate"] == pytest.approx(x1.mean() - x0.mean())
    assert diff["p_value"] == pytest.approx(welch.pvalue)
    assert (diff["low"], diff["high"]) == pytest.approx(tuple(welch.confidence_interval(0.95)))
    assert out.loc["mean_length_ratio", "estimate"] == pytest.approx(x1.mean() / x0.mean())
    assert out.loc["mean_length_ratio", "low"] < 1.5 < out.loc["mean_length_ratio", "high"]
    seat0 = out.loc["seat0_win_diff"]
    assert seat0["estimate"] == pytest.approx(0.7 - 0.5)
    assert (seat0["low"], seat0["high"]) == pytest.approx(A.newcombe_interval(210, 300, 200, 400))
    wald = A.compare_variants(data, interval="wald").set_index("metric").loc["seat0_win_diff"]
    half = 1.959964 * np.sqrt(0.7 * 0.3 / 300 + 0.25 / 400)
    assert wald["high"] == pytest.approx(0.2 + half, rel=1e-5)
    # a player count without baseline games is skipped with a warning, not an error
    other = synthetic_games(np.full(50, 100), players=3, rules="2 jokers (super)")
    with pytest.warns(UserWarning, match=r"No 'standard' games for \{'players': 3\}"):
        mixed = A.compare_variants(pd.concat([data, other], ignore_index=True))
    assert set(mixed["players"]) == {2} and len(mixed) == 3


def _shared_deals(n=2000, effect=2.0, seed=8):
    """A baseline whose lengths vary a lot from deal to deal and a variant that adds ``effect``
    cards (plus a little noise) to the same deals: the situation of a rule change on common deals."""
    rng = np.random.default_rng(seed)
    base = rng.normal(250, 150, n).round() + 400
    var = base + effect + rng.normal(0, 5, n).round()
    w0 = rng.integers(0, 2, n)
    w1 = np.where(rng.random(n) < 0.05, 0, w0)          # the variant turns some seat-1 wins into seat-0 wins
    data = pd.concat([synthetic_games(base, winner=w0), synthetic_games(var, winner=w1, rules="end=unable")],
                     ignore_index=True)
    return data, base, var, w0, w1


def test_pairing_detects_what_the_independent_comparison_cannot():
    data, base, var, _, _ = _shared_deals()
    paired = A.compare_variants(data).set_index("metric")
    independent = A.compare_variants(data, design="independent").set_index("metric")
    assert (paired["design"] == "paired").all() and (independent["design"] == "independent").all()
    p, i = paired.loc["mean_length_diff"], independent.loc["mean_length_diff"]
    assert p["estimate"] == pytest.approx(i["estimate"])               # same games, same mean difference
    assert p["low"] > 0 and p["p_value"] < 1e-10                        # paired: detected
    assert i["low"] < 0 < i["high"] and i["p_value"] > 0.05            # independent: not detected
    ci = stats.ttest_rel(var, base).confidence_interval(0.95)
    assert (p["low"], p["high"]) == pytest.approx((ci.low, ci.high))
    assert p["p_value"] == pytest.approx(stats.ttest_rel(var, base).pvalue)


def test_tables_that_number_games_twice_are_not_paired():
    data, _, _, _, _ = _shared_deals(n=200)
    twice = pd.concat([data, data[data["rules"] == "end=unable"]], ignore_index=True)   # two runs stacked
    assert (A.compare_variants(twice)["design"] == "independent").all()
    seeded = data.assign(seed=np.where(data["rules"] == "standard", 1, 2))               # other seed: other deals
    assert (A.compare_variants(seeded)["design"] == "independent").all()


def test_paired_seat0_difference_is_tangos_interval_of_the_discordant_pairs():
    from beggarstats.run.paired_props import tango_interval

    data, _, _, w0, w1 = _shared_deals()
    row = A.compare_variants(data).set_index("metric").loc["seat0_win_diff"]
    a, b = (w1 == 0).astype(float), (w0 == 0).astype(float)
    ci = tango_interval(np.sum((a == 1) & (b == 0)), np.sum((a == 0) & (b == 1)), a.size)
    assert row["estimate"] == pytest.approx(a.mean() - b.mean()) and row["interval"] == "Tango score"
    assert (row["low"], row["high"]) == pytest.approx(ci)
    assert row["discordant"] == np.sum(a != b) and row["n"] == 2000 and row["low"] > 0


def test_paired_proportion_difference_is_tangos_score_interval():
    # Fagerland, Lydersen & Laake (2014, Statistics in Medicine 33, 2850; and their 2017 book,
    # chapter 8): airway hyper-responsiveness before and after stem cell transplantation (Bentur et
    # al. 2009), n11 = 1, n12 = 1, n21 = 7, n22 = 12: difference -6/21 = -0.286, Tango's asymptotic
    # score interval -0.517 to -0.026; McNemar's asymptotic test (no continuity correction) p = 0.034.
    a = np.repeat([1, 1, 0, 0], [1, 1, 7, 12])
    b = np.repeat([1, 0, 1, 0], [1, 1, 7, 12])
    d, low, high, p = A.variants.paired_proportion_difference(a, b)
    assert d == pytest.approx(-6 / 21) and (low, high) == pytest.approx((-0.517, -0.026), abs=6e-4)
    assert p == pytest.approx(0.034, abs=6e-4)
    # worked by hand: with no discordant pair the restricted estimate of the discordant cell is 0 and
    # Z(delta) = -sqrt(n delta / (1 - delta)), so the ends are +-z^2 / (n + z^2) (p = 1)
    z2 = stats.norm.ppf(0.975) ** 2
    assert A.variants.paired_proportion_difference(a, a) == pytest.approx((0.0, -z2 / (21 + z2), z2 / (21 + z2), 1.0))


def test_tangos_closed_form_is_the_restricted_likelihood():
    """The closed-form restricted estimate in `tango_score` is the maximum of the multinomial
    likelihood under p_b - p_c = delta, found numerically; at each end of the interval |Z| = z."""
    from scipy import optimize

    from beggarstats.run.paired_props import tango_interval, tango_score

    for b, c, n in [(40, 20, 160), (3, 0, 300), (0, 9, 50), (12, 11, 1000)]:
        for delta in (-0.05, 0.0, 0.02, 0.1):
            def nll(q):
                return -(b * np.log(q + delta) + c * np.log(q) + (n - b - c) * np.log(1 - 2 * q - delta))
            lo, hi = max(0.0, -delta) + 1e-12, (1 - delta) / 2 - 1e-12
            if hi <= lo:
                continue
            q = optimize.minimize_scalar(nll, bounds=(lo, hi), method="bounded", options={"xatol": 1e-12}).x
            z = (b - c - n * delta) / np.sqrt(n * (2 * q + delta * (1 - delta)))
            assert tango_score(b, c, n, delta) == pytest.approx(z, rel=1e-4, abs=1e-6), (b, c, n, delta)
        low, high = tango_interval(b, c, n)
        q = stats.norm.ppf(0.975)
        assert tango_score(b, c, n, low) == pytest.approx(q, abs=1e-6)
        assert tango_score(b, c, n, high) == pytest.approx(-q, abs=1e-6)


def _skewed(n, seed=1):
    """Most pairs differ by 0 and a few by a lot (a rule that changes a few games much)."""
    rng = np.random.default_rng(seed)
    return np.where(rng.random(n) < 0.1, rng.exponential(50, n), 0.0) - 4.5


def test_paired_method_follows_the_skewness_rule():
    from beggarstats.run.compare import t_sample_size

    assert t_sample_size(0) == 28 and t_sample_size(-2) == 128   # 28 + 25 g1^2
    normal = np.random.default_rng(2).normal(1, 5, 200)
    assert A.variants.paired_method(normal) == "paired t"         # g1 ~ 0: 28 pairs do
    d = _skewed(400)
    assert 400 < t_sample_size(stats.skew(d))
    assert A.variants.paired_method(d) == "BCa bootstrap"
    big = _skewed(30_000)
    big[0] = 1e6                                                  # one huge difference: g1 ~ 170
    assert A.variants.paired_method(big) == "paired t (fewer pairs than its skewness needs)"


def test_paired_difference_is_scipys_bca_bootstrap_with_its_p_value(monkeypatch):
    monkeypatch.setattr(A.variants, "BOOTSTRAP_RESAMPLES", 999)  # 9999 in use; fewer keep the test quick
    d = _skewed(400)
    est, low, high, p = A.variants.paired_difference(d, np.zeros(400), seed=3)
    res = stats.bootstrap((d,), np.mean, method="BCa", n_resamples=999, rng=np.random.default_rng(3))
    assert (est, low, high) == pytest.approx((d.mean(), res.confidence_interval.low, res.confidence_interval.high))
    assert A.variants.paired_difference(d, np.zeros(400), seed=3) == (est, low, high, p)   # fixed seed
    # the p-value is where the BCa interval ends at 0: at level 1 - p, scipy's interval starts at 0
    assert 0.05 < p < 0.5
    at = stats.bootstrap((d,), np.mean, method="BCa", n_resamples=0, bootstrap_result=res,
                         confidence_level=1 - p).confidence_interval
    assert at.low == pytest.approx(0, abs=0.02 * (high - low))
    t = stats.ttest_1samp(d, 0).confidence_interval()
    assert low > t.low and high > t.high                          # right-skewed: the interval leans right


@pytest.mark.slow
def test_bca_covers_where_the_t_interval_does_not():
    """150 samples of 300 pairs from a known distribution (5% of pairs differ, by an exponential of
    mean 40: mean difference 2): the t interval covers significantly less than 95%, the BCa bootstrap
    is consistent with 95% (Clopper-Pearson on each coverage). About 9 s."""
    from statsmodels.stats.proportion import proportion_confint

    rng = np.random.default_rng(20)
    n, reps, mu = 300, 150, 0.05 * 40
    hit_t = hit_b = 0
    for i in range(reps):
        d = np.where(rng.random(n) < 0.05, rng.exponential(40, n), 0.0)
        assert A.variants.paired_method(d) == "BCa bootstrap"
        _, low, high, _ = A.variants.paired_difference(d, np.zeros(n), seed=i)
        hit_b += low <= mu <= high
        ci = stats.ttest_1samp(d, 0).confidence_interval()
        hit_t += ci.low <= mu <= ci.high
    assert proportion_confint(hit_t, reps, method="beta")[1] < 0.95
    low, high = proportion_confint(hit_b, reps, method="beta")
    assert low < 0.95 < high and hit_b > hit_t


def test_detectable_effect_is_the_normal_power_calculation():
    # (z_0.975 + z_0.8) se = (1.959964 + 0.841621) se = 2.801585 se
    assert A.variants.detectable_effect(0.5) == pytest.approx(2.801585 * 0.5, rel=1e-5)  # a numerical root
    assert A.variants.detectable_effect(1.0, power=0.9) == pytest.approx(1.959964 + 1.281552, rel=1e-5)
    data, *_ = _shared_deals()
    row = A.compare_variants(data).set_index("metric").loc["mean_length_diff"]
    assert row["detectable"] == pytest.approx(2.801585 * (row["high"] - row["low"]) / (2 * 1.959964), rel=1e-3)


def test_paired_ratio_of_means_by_hand():
    # x = 2, 4, 6 and y = 1, 2, 2: r = 4 / (5/3) = 2.4; var x = 4, var y = 1/3, cov = 1;
    # var(log r) = 4/(3*16) + (1/3)/(3*25/9) - 2*1/(3*4*5/3) = 1/12 + 1/25 - 1/10 = 0.0233333.
    r, low, high, _ = A.variants.ratio_of_means(np.array([2.0, 4, 6]), np.array([1.0, 2, 2]), paired=True)
    se = np.sqrt(1 / 12 + 1 / 25 - 1 / 10)
    assert (r, low, high) == pytest.approx((2.4, 2.4 * np.exp(-1.959964 * se), 2.4 * np.exp(1.959964 * se)), rel=1e-6)


def test_deal_key_tells_which_rules_share_deals():
    assert A.variants.deal_key("standard") == A.variants.deal_key("shuffle_pile, end=empty") == ""
    # jokers are slipped into the deal without them (RULES_VERSION 3): the same deals, paired
    assert A.variants.deal_key("1 joker (beggar)") == A.variants.deal_key("2 jokers (super)") == ""
    assert A.variants.deal_key("italian deck, ccw") == "italian deck"
    with pytest.raises(ValueError, match="`design` must be one of"):
        A.compare_variants(_shared_deals(n=20)[0], design="matched")


# -- hands --------------------------------------------------------------------------------------
def _two_player_seats(n_games=3000, beta=0.05, total=40, seed=11):
    """Seat 0 wins with probability logistic(beta * (x0 - x1)), x1 = total - x0; so for every seat
    logit P(win) = -beta * total + 2 * beta * x exactly."""
    rng = np.random.default_rng(seed)
    x0 = rng.integers(5, 36, n_games)
    win0 = rng.random(n_games) < 1 / (1 + np.exp(-beta * (2 * x0 - total)))
    return pd.DataFrame({
        "game": np.repeat(np.arange(n_games), 2), "players": 2, "rules": "standard",
        "seat": np.tile([0, 1], n_games), "tribute_total": np.column_stack([x0, total - x0]).ravel(),
        "aces": 0, "won": np.column_stack([win0, ~win0]).ravel(),
    })


def test_hand_strength_recovers_known_effect():
    seats = _two_player_seats()
    coef = A.hand_strength(seats, predictors=["tribute_total"]).set_index("term")
    slope = coef.loc["tribute_total"]
    assert slope["low"] < 0.1 < slope["high"] and slope["estimate"] == pytest.approx(0.1, rel=0.15)
    assert coef.loc["const", "low"] < -2 < coef.loc["const", "high"]
    assert slope["odds_ratio"] == pytest.approx(np.exp(slope["estimate"]))
    pred = A.hand_strength_predictions(seats, vary="tribute_total", values=[10, 20, 30], predictors=["tribute_total"])
    truth = 1 / (1 + np.exp(-(-2 + 0.1 * np.array([10, 20, 30]))))
    # 10 and 30 cards: the interval has width and holds the truth
    assert ((pred["low"] < truth) & (truth < pred["high"]))[[0, 2]].all()
    # the two rows of a game mirror each other (x and 40 - x), so the fitted curve is symmetric
    # about 20 cards, where it is 1/2 (the truth) with an interval of width zero up to rounding;
    # compare with a tolerance, never with a strict inequality that rounding decides
    assert pred["probability"].iloc[1] == pytest.approx(0.5, abs=1e-9)
    assert pred["low"].iloc[1] == pytest.approx(0.5, abs=1e-6) and pred["high"].iloc[1] == pytest.approx(0.5, abs=1e-6)
    assert pred["probability"].iloc[0] + pred["probability"].iloc[2] == pytest.approx(1, abs=1e-9)
    assert pred["probability"].is_monotonic_increasing


def test_logistic_fit_test_keeps_a_true_logistic_and_rejects_a_bend():
    """#38 item 4: the hand-strength figure says where a logistic in one predictor fails. The
    cells are the observed shares with Wilson intervals; the test is the clustered Wald test of the
    saturated model's extra terms, with the degrees of freedom of the design (2 players: the two
    hands mirror each other, so the mirror pairs of the values less one)."""
    seats = _two_player_seats(n_games=6000)
    cells = A.hand_strength_cells(seats, vary="tribute_total", min_seats=50)
    by_hand = seats.groupby("tribute_total")["won"].agg(["mean", "size"])
    assert cells["share"].to_numpy() == pytest.approx(by_hand["mean"].to_numpy())
    assert (cells["seats"].to_numpy() == by_hand["size"].to_numpy()).all()
    low, high = A.wilson_interval(cells["wins"], cells["seats"])
    assert cells["low"].to_numpy() == pytest.approx(low) and cells["high"].to_numpy() == pytest.approx(high)
    assert cells["fitted"].equals(cells["drawn"] & (cells["wins"] > 0) & (cells["wins"] < cells["seats"]))
    tests, curve = A.logistic_fit_test(seats, vary="tribute_total", min_seats=50)
    t = tests.iloc[0]
    assert t["p_value"] > 0.05 and t["cells"] == cells["fitted"].sum() == 31
    # mirrored: 31 values, 15 pairs {v, 40 - v} (20 is its own mirror), 14 antisymmetric constraints of a line
    assert t["dof"] == 14 and t["seats"] == 12000 and t["games"] == 6000
    assert curve["probability"].is_monotonic_increasing and set(curve["value"]) == set(cells["value"])
    # a step, not a logistic: seat 0 wins 20% below 20 points and 80% above; the test rejects it
    rng = np.random.default_rng(5)
    x0 = seats["tribute_total"].to_numpy()[::2]
    win0 = rng.random(len(x0)) < np.where(x0 < 20, 0.2, np.where(x0 > 20, 0.8, 0.5))
    step = seats.assign(won=np.column_stack([win0, ~win0]).ravel())
    bent = A.logistic_fit_test(step, vary="tribute_total", min_seats=50)[0].iloc[0]
    assert bent["p_value"] < 1e-6 and bent["max_gap"] > 0.05
    # three players, one winner a game: the rows of a game are not mirrors, every term counts
    rng = np.random.default_rng(6)
    x = rng.integers(0, 6, (4000, 3))
    winner = (rng.random((4000, 1)) < np.cumsum(np.full((4000, 3), 1 / 3), axis=1)).argmax(axis=1)
    three = pd.DataFrame({"game": np.repeat(np.arange(4000), 3), "players": 3, "rules": "standard",
                          "seat": np.tile([0, 1, 2], 4000), "tribute_total": 0, "aces": x.ravel(),
                          "won": (np.tile([0, 1, 2], 4000) == np.repeat(winner, 3))})
    t3 = A.logistic_fit_test(three, vary="aces")[0].iloc[0]
    assert (t3["cells"], t3["dof"]) == (6, 4) and t3["p_value"] > 0.01   # aces unrelated to winning: a flat logistic holds
    # too few seats for two cells: nothing tested, the tables keep their columns (the figures' small runs)
    none, flat = A.logistic_fit_test(three, vary="aces", min_seats=10**6)
    assert none.empty and list(none.columns[:3]) == ["players", "chi2", "dof"] and flat.empty and "value" in flat


def test_line_constraints_by_hand():
    """`line_constraints`: the rows vanish on every line; with the mirror, the one constraint of
    values 0-4 about T = 4 is (theta(1) - theta(3)) / -2 = (theta(0) - theta(4)) / -4, worked out
    by hand; the symmetric second differences are not among them."""
    from beggarstats.analysis.hands import line_constraints

    values = np.array([0.0, 1, 2, 3, 4])
    assert line_constraints(values, 4.0) == pytest.approx(np.array([[0.25, -0.5, 0, 0.5, -0.25]]))
    generic = line_constraints(values)
    assert generic.shape == (3, 5) and np.linalg.matrix_rank(generic) == 3
    for grid, total in ((values, None), (values, 4.0), (np.arange(5.0, 36), 40.0)):
        c = line_constraints(grid, total)
        assert c @ (-2 + 0.1 * grid) == pytest.approx(np.zeros(len(c)), abs=1e-12)  # every line passes
        if total:  # an antisymmetric bend does not
            assert not np.allclose(c @ (grid - total / 2) ** 3, 0)
    assert len(line_constraints(np.arange(5.0, 36), 40.0)) == 14
    assert len(line_constraints(np.array([1.0, 3]), 4.0)) == 0  # one pair: any antisymmetric pair is a line
    with pytest.raises(ValueError, match="mirror T - v"):
        line_constraints(np.array([0.0, 1, 2]), 4.0)


def test_logistic_fit_test_degrees_of_freedom_by_construction(monkeypatch):
    """#52 item 3: with two players the clustered covariance of the saturated model's extra terms is
    singular by construction, and its numerical rank was decided at rounding noise (aces printed 1
    df here and 2 on another machine). The degrees of freedom now come from the design: the same
    under a covariance perturbed far above rounding, where the numerical rank of the old test
    changes, with the statistic unmoved."""
    import statsmodels.api as sm

    seats = _two_player_seats(n_games=6000)
    aces = seats.assign(aces=np.column_stack([x := np.random.default_rng(3).integers(0, 5, 6000), 4 - x]).ravel())
    clean = {v: A.logistic_fit_test(d, vary=v, min_seats=50)[0].iloc[0]
             for v, d in (("tribute_total", seats), ("aces", aces))}
    assert (clean["tribute_total"]["dof"], clean["aces"]["dof"]) == (14, 1)
    assert A.hands.mirror_total(seats, "tribute_total") == 40 and A.hands.mirror_total(aces, "aces") == 4
    original, ranks = sm.Logit.fit, []
    for seed in range(3):
        rng = np.random.default_rng(seed)

        def noisy(self, *args, **kwargs):
            res = original(self, *args, **kwargs)
            c = res.cov_params_default
            e = rng.normal(size=c.shape) * 1e-10 * np.abs(c).max()
            res.cov_params_default = c + (e + e.T) / 2
            extra = np.eye(c.shape[0])[2:]  # the old test: the extra terms, on their numerical rank
            ranks.append((c.shape[0] - 2, np.linalg.matrix_rank(extra @ res.cov_params_default @ extra.T)))
            return res

        monkeypatch.setattr(sm.Logit, "fit", noisy)
        for v, d in (("tribute_total", seats), ("aces", aces)):
            t = A.logistic_fit_test(d, vary=v, min_seats=50)[0].iloc[0]
            assert t["dof"] == clean[v]["dof"] and t["chi2"] == pytest.approx(clean[v]["chi2"], rel=1e-4), (v, seed)
        monkeypatch.setattr(sm.Logit, "fit", original)
    # the perturbation reaches the old test: its rank became the full count of terms (29 and 3)
    assert {r for r in ranks if r[0] > 1} >= {(29, 29), (3, 3)}


def test_hand_strength_clusters_by_game():
    import statsmodels.api as sm

    seats = _two_player_seats()
    coef = A.hand_strength(seats, predictors=["tribute_total"]).set_index("term")
    X = sm.add_constant(seats["tribute_total"].to_numpy(float))
    y = seats["won"].to_numpy(float)
    clustered = sm.Logit(y, X).fit(disp=0, cov_type="cluster", cov_kwds={"groups": seats["game"].to_numpy()})
    naive = sm.Logit(y, X).fit(disp=0)
    assert coef["se"].to_numpy() == pytest.approx(clustered.bse)
    assert coef[["low", "high"]].to_numpy() == pytest.approx(clustered.conf_int(0.05))
    assert coef["p_value"].to_numpy() == pytest.approx(clustered.pvalues)
    # the two rows of a 2-player game mirror each other: counted as independent, the standard
    # error of the slope would be sqrt(2) too small
    assert coef.loc["tribute_total", "se"] / naive.bse[1] == pytest.approx(np.sqrt(2), rel=0.02)
    assert (coef["games"] == 3000).all()


def test_seat_position_model_separates_position_from_the_extra_card():
    # 3-6 players, 52 cards: the first 52 % n seats hold one card more. The winner is drawn with
    # odds exp(0.4 * extra_card) and no effect of position.
    rng = np.random.default_rng(12)
    rows = []
    for n in (3, 4, 5, 6):
        size = A.dealt_hand_size(n, np.arange(n))
        weight = np.exp(0.4 * (size - size.min()))
        winners = rng.choice(n, 6000, p=weight / weight.sum())
        seat = np.tile(np.arange(n), 6000)  # one row per seat of each game, game by game
        rows.append(pd.DataFrame(dict(game=np.repeat(np.arange(6000), n), players=n, rules="standard", seat=seat,
                                      hand_size=np.tile(size, 6000), won=seat == np.repeat(winners, n))))
    seats = pd.concat(rows, ignore_index=True)
    assert list(A.dealt_hand_size(5, np.arange(5))) == [11, 11, 10, 10, 10]
    model = A.seat_position_model(seats).set_index("term")
    assert model.loc["extra_card", "low"] > 0.2 and model.loc["extra_card", "p_value"] < 1e-6
    assert model.loc["seat", "low"] < 0 < model.loc["seat", "high"]
    assert model.loc["seat", "games"] == 24000
    rates = A.seat_win_rates(seats.loc[seats["won"], ["game", "players", "rules", "seat"]]
                             .rename(columns={"seat": "winner"}), n_cards=52)
    assert list(rates.loc[rates["players"] == 6, "hand_size"]) == [9, 9, 9, 9, 8, 8]


def test_seat_position_model_reports_its_fit_against_the_saturated_model():
    # Data the pooled model cannot fit: with 3 players only seat 2 gains, with 4 players only
    # seat 1, so no common per-seat step and card term fits both. Data it fits exactly: no effect.
    rng = np.random.default_rng(5)

    def table(probs_by_n, games):
        rows = []
        for n, probs in probs_by_n.items():
            winners = rng.choice(n, games, p=probs)
            seat = np.tile(np.arange(n), games)
            rows.append(pd.DataFrame(dict(game=np.repeat(np.arange(games), n), players=n, seat=seat,
                                          hand_size=np.tile(A.dealt_hand_size(n, np.arange(n)), games),
                                          won=seat == np.repeat(winners, n))))
        return pd.concat(rows, ignore_index=True)

    bad = A.seat_position_model(table({3: [0.3, 0.3, 0.4], 4: [0.22, 0.34, 0.22, 0.22]}, 20000)).iloc[0]
    assert bad["dof"] == 7 - 4 and bad["gof_p_value"] < 1e-6 and bad["max_abs_residual"] > 4
    # the deviance is G^2 of the multinomial against the saturated model (tests/analysis/test_seats.py: by hand)
    fair = A.seat_position_model(table({3: [1 / 3] * 3, 4: [0.25] * 4}, 20000)).iloc[0]
    assert fair["dof"] == 3 and fair["gof_p_value"] > 0.001 and fair["deviance"] < 30


def test_seat_contrasts_are_adjacent_differences_with_the_multinomial_variance():
    # 3 players, 52 cards: seat 0 holds 18, seats 1 and 2 hold 17. Winners drawn 0.30 / 0.32 / 0.38.
    rng = np.random.default_rng(9)
    w = rng.choice(3, 40000, p=[0.30, 0.32, 0.38])
    games = pd.DataFrame(dict(players=3, rules="standard", winner=pd.array(w, dtype="Int8")))
    c = A.seat_contrasts(games).set_index("seat")
    assert list(c.index) == [1, 2] and list(c["hand"]) == ["one fewer", "same"] and list(c["hand_size"]) == [17, 17]
    rate = np.bincount(w, minlength=3) / w.size
    assert c.loc[2, "estimate"] == pytest.approx(rate[2] - rate[1])
    # by hand: Var = (p1 + p2 - (p2 - p1)^2) / n for two cells of one multinomial
    se = np.sqrt((rate[1] + rate[2] - (rate[2] - rate[1]) ** 2) / (w.size - 1))
    assert (c.loc[2, "high"] - c.loc[2, "low"]) / 2 == pytest.approx(1.96 * se, rel=1e-3)
    assert c.loc[2, "low"] < 0.06 < c.loc[2, "high"] and c.loc[2, "p_value"] < 1e-10
    assert c.loc[1, "low"] < 0.02 < c.loc[1, "high"]
    # games without a winner are left out
    games.loc[:99, "winner"] = pd.NA
    assert (A.seat_contrasts(games)["games"] == 39900).all()


def test_hand_strength_drops_undecided_games(real):
    _, seats, _, s2a = real
    coef = A.hand_strength(seats)
    assert set(coef["term"]) == {"const", "tribute_total", "aces"} and set(coef["players"]) == {2, 3}
    looped = s2a.copy()
    looped["won"] = looped["won"] & (looped["game"] >= 10)   # games 0-9 now have no winner
    n = A.hand_strength(looped)["n"].iloc[0]
    assert n == 2 * 290
    pred = A.hand_strength_predictions(seats)
    assert set(pred["predictor"]) == {"aces"} and pred["value"].min() == 0


# -- comebacks ----------------------------------------------------------------------------------
def test_comebacks_definition():
    # Four decided 2-player games (winner's low points 2, 10, 6, 26 of a 26-card hand) and one undecided.
    low_points = [2, 10, 6, 26, 13]
    rows = []
    for g, low in enumerate(low_points):
        rows.append(dict(game=g, players=2, rules="standard", seat=0, hand_size=26, min_cards=low, won=g < 4))
        rows.append(dict(game=g, players=2, rules="standard", seat=1, hand_size=26, min_cards=0, won=False))
    data = pd.DataFrame(rows)
    row = A.comebacks(data).iloc[0]                     # <= 6.5 cards: games 0 and 2
    assert (row["games"], row["no_winner"], row["comebacks"]) == (4, 1, 2)
    assert (row["low"], row["high"]) == pytest.approx(A.wilson_interval(2, 4))
    assert A.comebacks(data, cards=5).iloc[0]["comebacks"] == 1
    assert A.comebacks(data, cards=0).iloc[0]["comebacks"] == 0
    assert row["median_low_point"] == 8


def test_comebacks_at_exactly_a_quarter_of_every_hand_size():
    # Winners' low points with a 26-card hand (t = 6.5) and an 11-card hand (t = 2.75): 6 counts 1,
    # 7 counts 0.5; 2 counts 1, 3 counts 0.75; anything higher 0.
    rows = []
    for g, (hand, low) in enumerate([(26, 6), (26, 7), (26, 8), (11, 2), (11, 3), (11, 4)]):
        rows.append(dict(game=g, players=2, rules="standard", seat=0, hand_size=hand, min_cards=low, won=True))
    row = A.comebacks(pd.DataFrame(rows), interpolate=True).iloc[0]
    assert row["comebacks"] == pytest.approx(1 + 0.5 + 1 + 0.75) and row["rate"] == pytest.approx(3.25 / 6)
    assert row["low"] < row["rate"] < row["high"] and row["threshold"] == "<= 25% of hand, interpolated"
    plain = A.comebacks(pd.DataFrame(rows)).iloc[0]
    assert plain["comebacks"] == 2  # whole cards only: <= 6 of 26 (23%), <= 2 of 11 (18%)


# -- bad input ----------------------------------------------------------------------------------
def test_errors_name_the_parameter(real):
    games, seats, _, _ = real
    with pytest.raises(ValueError, match=r"`measure` must be one of \['cards', 'tricks'\], but 'turns'"):
        A.length_summary(games, measure="turns")
    with pytest.raises(ValueError, match=r"`data` lacks the column\(s\) \['winner'\]"):
        A.seat_win_rates(games.drop(columns="winner"))
    with pytest.raises(TypeError, match="`data` must be a pandas DataFrame"):
        A.kaplan_meier(games.to_dict())
    with pytest.raises(ValueError, match="`by` names column"):
        A.tail_rate(games, by="deck")
    with pytest.raises(ValueError, match="`confidence` must be a number strictly between 0 and 1"):
        A.seat_win_rates(games, confidence=95)
    with pytest.raises(ValueError, match="`outcomes` must be one of"):
        A.length_summary(games, outcomes=("won",))
    with pytest.raises(ValueError, match=r"`baseline` must be one of \['standard'\]"):
        A.compare_variants(games, baseline="jokers")
    with pytest.raises(ValueError, match="`ci` must be one of"):
        A.kaplan_meier(games, ci="log")
    with pytest.raises(ValueError, match="`method` must be one of"):
        A.tail_rate(games, method="ols")
    with pytest.raises(ValueError, match="`vary` must be one of"):
        A.hand_strength_predictions(seats, vary="kings")
    with pytest.raises(ValueError, match="`fraction` must be a number from 0 to 1"):
        A.comebacks(seats, fraction=25)
    with pytest.raises(ValueError, match="`cards` must be a whole number"):
        A.comebacks(seats, cards=-1)


# -- the real contract --------------------------------------------------------------------------
@pytest.mark.usefixtures("warm_kernels")
def test_every_analysis_runs_on_simulate_output():
    from beggarstats.run.simulate import simulate

    games, seats = simulate(300, rules=Rules(players=2, max_cards=400), seed=2, per_seat=True)
    assert (games["outcome"] == "cutoff").any()
    row = A.length_summary(games).iloc[0]
    assert row["n"] + round(row["share_cutoff"] * 300) == 300 and row["max"] <= 400
    km = A.kaplan_meier(games)
    assert km["censored"].sum() == (games["outcome"] == "cutoff").sum() and km["length"].max() == 400
    assert A.tail_rate(games)["rate"].iloc[0] > 0
    rates = A.seat_win_rates(games)
    assert rates["no_winner"].iloc[0] == games["winner"].isna().sum()
    assert len(A.hand_strength(seats)) == 3 and A.comebacks(seats)["games"].iloc[0] == games["winner"].notna().sum()
