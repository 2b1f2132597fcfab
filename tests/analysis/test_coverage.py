"""The Monte Carlo held to the truth: the package's 95% intervals, computed on many independent
samples of a deck whose census is known, contain the exact value about 95% of the time."""

import numpy as np
import pytest

import beggarstats as bs
from beggarstats.analysis.coverage import exact_values, interval_coverage

pytestmark = pytest.mark.usefixtures("warm_census_kernels")  # runs censuses: their kernels compiled once a session


def test_exact_values_checked_by_hand():
    # Deck(1, 1, 0, 0, 0), two players: the two deals 'J/-' and '-/J', played by the reference engine
    rules = bs.Rules(deck=bs.Deck(1, 1, 0, 0, 0))
    c = bs.census(rules, n_jobs=1)
    by_hand = [bs.play(bs.format_deal(bs.deal_at(r, rules)), rules) for r in range(2)]
    wins0 = sum(g.winner == 0 for g in by_hand)
    values = exact_values(c)
    assert {k: values[k] for k in ("seat 0 win rate", "mean length (cards)", "loop share")} == {
        "seat 0 win rate": wins0 / 2, "mean length (cards)": sum(g.cards for g in by_hand) / 2, "loop share": 0.0}


def test_exact_tail_rate_is_events_over_exposure_beyond_the_median():
    from beggarstats.analysis.coverage import tail_threshold

    rules = bs.Rules(deck=bs.Deck(4, 1, 1, 1, 0))  # no loops: every deal ends
    c = bs.census(rules, n_jobs=1)
    cards = np.sort(np.array([bs.play(bs.format_deal(bs.deal_at(r, rules)), rules).cards for r in range(210)]))
    u = tail_threshold(c)
    assert u == np.quantile(cards, 0.5, method="inverted_cdf")  # the KM median of uncensored lengths
    beyond = cards[cards > u]
    assert exact_values(c)["tail rate"] == pytest.approx(beyond.size / (beyond - u).sum())
    with pytest.raises(ValueError, match="`census`"):
        exact_values(bs.summarize(10, rules=rules, seed=1, n_jobs=1))


def test_exact_survival_and_paired_difference_checked_by_hand():
    from beggarstats.analysis.coverage import exact_paired_difference, survival_lengths

    rules = bs.Rules(deck=bs.Deck(4, 1, 1, 1, 0))  # 210 deals, none loops
    c = bs.census(rules, n_jobs=1)
    deals = [bs.format_deal(bs.deal_at(r, rules)) for r in range(210)]
    a = np.array([bs.play(d, rules).cards for d in deals])
    b = np.array([bs.play(d, rules.replace(end="empty")).cards for d in deals])
    assert exact_paired_difference(c, rules.replace(end="empty")) == pytest.approx((a - b).mean())
    values = exact_values(c)
    for length, level in zip(survival_lengths(c), (0.75, 0.5, 0.25)):
        assert (a > length).mean() <= level < (a > length - 1).mean()  # the first length at or below the level
        assert values[f"survival at {length:g} cards"] == pytest.approx((a > length).mean())
    with pytest.raises(ValueError, match="`variant` must deal like the census"):
        exact_paired_difference(c, bs.Rules(players=3, deck=bs.Deck(4, 1, 1, 1, 0)))


@pytest.mark.slow
def test_intervals_cover_the_exact_values():
    census = bs.census(bs.Rules(deck=bs.Deck(7, 2, 2, 1, 0)), n_jobs=1)  # 23,760 deals, some loop
    table = interval_coverage(census, samples=400, games=1000,
                              variant=census.rules.replace(end="empty")).set_index("quantity")
    assert (table["samples"] == 400).all() and len(table) == 8
    # Wilson, t, the survival curve's log-log band and the paired t interval of the same deals under
    # end=trick and end=empty: the nominal level lies inside the binomial interval of the coverage
    survival = [q for q in table.index if q.startswith("survival at ")]
    assert len(survival) == 3
    for q in ("seat 0 win rate", "mean length (cards)", "paired difference (cards)", *survival):
        assert table.loc[q, "low"] <= 0.95 <= table.loc[q, "high"], table
    # Clopper-Pearson is exact, hence conservative: it covers at least the nominal level; so does the
    # tail rate's Poisson interval here (found: about 98%), never less
    for q in ("loop share", "tail rate"):
        assert table.loc[q, "high"] >= 0.95, table
