"""`analysis.overview`: the numbers `beggarstats simulate` and `summarize` print, computed in the
analysis layer from a games frame or a `Summary`, the same either way."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from beggarstats import analysis as an
from beggarstats.cli.simulate import overview_text, summary
from beggarstats.game.rules import Rules
from beggarstats.run.simulate import simulate
from beggarstats.run.summarize import summarize

pytestmark = pytest.mark.usefixtures("warm_kernels")  # plays games through the kernels


def test_seat_shares_worked_by_hand():
    shares = an.seat_shares([30, 10])
    assert shares["seat"].tolist() == [0, 1] and shares["wins"].tolist() == [30, 10]
    assert shares["games"].tolist() == [40, 40]
    assert shares["rate"].tolist() == [0.75, 0.25]
    # Wilson at 95%: centre (k + z²/2) / (n + z²), half-width z·sqrt(k(n-k)/n + z²/4) / (n + z²)
    z = 1.959963984540054
    centre = (30 + z * z / 2) / (40 + z * z)
    half = z * np.sqrt(30 * 10 / 40 + z * z / 4) / (40 + z * z)
    assert shares.loc[0, "low"] == pytest.approx(centre - half) and shares.loc[0, "high"] == pytest.approx(centre + half)
    assert shares.loc[1, "low"] == pytest.approx(1 - shares.loc[0, "high"])   # the interval is symmetric in k, n - k


def test_seat_shares_without_a_winner_and_bad_input():
    none = an.seat_shares(np.zeros(3, np.int64))
    assert none["games"].tolist() == [0, 0, 0] and none[["rate", "low", "high"]].isna().all().all()
    with pytest.raises(ValueError, match="`wins` must be a sequence of win counts >= 0"):
        an.seat_shares([3, -1])
    with pytest.raises(ValueError, match="`confidence`"):
        an.seat_shares([3, 1], confidence=1.5)


@pytest.fixture(scope="module")
def games():
    return simulate(3000, rules=Rules(players=3, max_cards=400), seed=12)


def test_overview_of_a_frame(games):
    o = an.overview(games)
    assert (o.games, o.seed, o.start, o.rules, o.players) == (3000, 12, 0, games["rules"].iloc[0], 3)
    assert o.outcomes == {k: int((games["outcome"] == k).sum()) for k in ("win", "loop", "cutoff")}
    assert o.outcomes["cutoff"] > 0                               # some games have no winner
    cards = games["cards"].to_numpy()
    assert o.lengths["cards"] == {"mean": cards.mean(), "median": np.median(cards), "max": cards.max()}
    rates = an.seat_win_rates(games, by=None)
    pd.testing.assert_frame_equal(o.seats[["seat", "wins", "games", "rate", "low", "high"]],
                                  rates[["seat", "wins", "games", "rate", "low", "high"]], check_dtype=False)


def test_a_summary_gives_the_same_overview(games):
    """`summarize` keeps histograms, not rows: the same games give the same numbers."""
    a = an.overview(games)
    b = an.overview(summarize(3000, rules=Rules(players=3, max_cards=400), seed=12, n_jobs=1))
    assert (a.games, a.seed, a.start, a.rules, a.players, a.outcomes) == (b.games, b.seed, b.start, b.rules, b.players,
                                                                          b.outcomes)
    for col in ("cards", "tricks"):
        assert a.lengths[col]["max"] == b.lengths[col]["max"]
        assert a.lengths[col]["median"] == b.lengths[col]["median"]
        assert a.lengths[col]["mean"] == pytest.approx(b.lengths[col]["mean"], rel=1e-12)
    pd.testing.assert_frame_equal(a.seats, b.seats, check_dtype=False)


def test_the_command_line_formats_the_overview(games):
    text = summary(games)
    assert text == overview_text(an.overview(games))
    o = an.overview(games)
    assert f"seat 0: {100 * o.seats['rate'][0]:.2f}% [{100 * o.seats['low'][0]:.2f}%, {100 * o.seats['high'][0]:.2f}%]" in text
    assert f"of {o.seats['games'][0]:,} games with a winner" in text
