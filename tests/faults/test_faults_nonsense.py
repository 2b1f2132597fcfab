"""Nonsense is refused, never answered with numbers (issue #40, items 3 and 6). Before: `interval(1.5)`
and `interval(nan)` gave (nan, nan), `equivalence(-1)` 1.0, `detectable(power=2)` 7.2e7; the
`Summary` constructor took negative counts, wrong shapes and floats; `compare(n_games=10**13)` ran
without end; `--store ''` wrote into the current directory; `summarize(start=..., store=D)` refused
a directory holding another range only after computing; a census took a parquet store's directory;
a census of 7.8e9 deals for 3 players started instead of being refused with its count and time."""

from __future__ import annotations

import math
import time

import numpy as np
import pytest

import beggarstats as bs
import beggarstats.run.census as census_module
import beggarstats.run.summarize as summarize_module
from beggarstats.cli import main
from beggarstats.game.rules import Rules
from beggarstats.run.compare import PairedMoments
from beggarstats.run.summary import GAME_COLUMNS, LOOP_COLUMNS, Summary

STANDARD = Rules().to_dict()
# 1,000 pairs, mean 0, sd ~1, skewness 0: enough pairs for the t interval (28 at g1 = 0)
MOMENTS = PairedMoments(STANDARD, Rules(end="empty").to_dict(), 7, 1000, 1000, 0, 1000, 0, sum_d3=0)


@pytest.mark.parametrize("call, name", [
    (lambda m: m.interval(1.5), "confidence"), (lambda m: m.interval(float("nan")), "confidence"),
    (lambda m: m.interval(0), "confidence"), (lambda m: m.interval(1), "confidence"),
    (lambda m: m.interval("0.95"), "confidence"), (lambda m: m.interval(True), "confidence"),
    (lambda m: m.equivalence(-1), "margin"), (lambda m: m.equivalence(0), "margin"),
    (lambda m: m.equivalence(float("nan")), "margin"), (lambda m: m.equivalence(float("inf")), "margin"),
    (lambda m: m.equivalence("2"), "margin"),
    (lambda m: m.detectable(power=2), "power"), (lambda m: m.detectable(power=float("nan")), "power"),
    (lambda m: m.detectable(alpha=0), "alpha"), (lambda m: m.detectable(alpha=-0.05), "alpha"),
])
def test_paired_moments_refuse_nonsense_naming_the_parameter(call, name):
    with pytest.raises(ValueError, match=f"`{name}`") as info:
        call(MOMENTS)
    assert "must be" in str(info.value)


def test_paired_moments_still_answer_sense():
    low, high = MOMENTS.interval(0.95)
    assert low < 0 < high and math.isfinite(MOMENTS.detectable(power=0.8)) and 0 <= MOMENTS.equivalence(0.5) <= 1


def _summary(**change):
    base = dict(rules=Rules(), seed=1, ranges=((0, 10),), outcomes=np.array([10, 0, 0]), wins=np.array([4, 6]))
    return Summary(**{**base, **change})


def _records(columns, **values):
    return {c: np.array(values.get(c, [])) for c in columns}


SUMMARY_NONSENSE = {
    "rules None": dict(rules=None), "rules a string": dict(rules="standard"), "rules a number": dict(rules=3),
    "seed negative": dict(seed=-1), "seed past 2**64": dict(seed=2**64), "seed a float": dict(seed=1.5),
    "seed a string": dict(seed="1"), "cap 0": dict(cap=0), "cap a float": dict(cap=10.0), "top -1": dict(top=-1),
    "rules_version 0": dict(rules_version=0), "exact a string": dict(exact="yes"),
    "ranges not pairs": dict(ranges=((0, 10, 20),)), "ranges reversed": dict(ranges=((10, 0),)),
    "ranges negative": dict(ranges=((-5, 5),)), "ranges floats": dict(ranges=((0.0, 10.0),)),
    "ranges overlapping": dict(ranges=((0, 6), (4, 10)), outcomes=np.array([12, 0, 0])),
    "ranges past the ids": dict(ranges=((0, 2**64),)), "ranges not iterable": dict(ranges=5),
    "outcomes negative": dict(outcomes=np.array([11, -1, 0])), "outcomes of 2": dict(outcomes=np.array([10, 0])),
    "outcomes floats": dict(outcomes=np.array([9.5, 0.5, 0])), "outcomes 2-D": dict(outcomes=np.array([[10, 0, 0]])),
    "outcomes not the games": dict(outcomes=np.array([9, 0, 0])), "outcomes strings": dict(outcomes=["10", "0", "0"]),
    "outcomes past int64": dict(outcomes=[2**64, 0, 0]),
    "wins negative": dict(wins=np.array([-1, 11])), "wins of 3 seats": dict(wins=np.array([4, 3, 3])),
    "wins more than games": dict(wins=np.array([10, 10])), "wins floats": dict(wins=np.array([4.5, 5.5])),
    "cards not 3 histograms": dict(cards=[np.zeros(3, np.int64)]),
    "cards negative": dict(cards=[np.array([0, -1]), np.zeros(0), np.zeros(0)]),
    "cards counting more than the outcome": dict(cards=[np.array([0, 11]), np.zeros(0), np.zeros(0)]),
    "cards past the cap": dict(cap=2, cards=[np.array([0, 0, 0, 1]), np.zeros(0), np.zeros(0)]),
    "tricks a float histogram": dict(tricks=[np.array([0.5]), np.zeros(0), np.zeros(0)]),
    "loops missing a column": dict(loops=_records(GAME_COLUMNS)),
    "over_cap columns of different lengths": dict(over_cap=_records(GAME_COLUMNS, game=[1])),
    "longest a list": dict(longest=[1, 2, 3]),
    "over_cap a game outside": dict(cap=2, over_cap=_records(GAME_COLUMNS, game=[50], outcome=[0], winner=[0],
                                                           cards=[9], tricks=[1])),
    "loops an outcome of 7": dict(loops=_records(LOOP_COLUMNS, **{c: [7] if c == "outcome" else [1]
                                                                 for c in LOOP_COLUMNS})),
}


@pytest.mark.parametrize("case", list(SUMMARY_NONSENSE))
def test_the_summary_constructor_refuses_nonsense(case):
    with pytest.raises((TypeError, ValueError)) as info:
        _summary(**SUMMARY_NONSENSE[case])
    assert "\n" not in str(info.value) and ("`" in str(info.value) or "counts of a Summary" in str(info.value))


def test_the_summary_constructor_counts_its_refusals():
    assert len(SUMMARY_NONSENSE) >= 28
    s = _summary()  # a worked example by hand is still a Summary
    assert s.n_games == 10 and s.wins.dtype == np.int64 and isinstance(s.seed, int)


@pytest.mark.parametrize("n", [2**63, 10**13])
def test_compare_refuses_what_cannot_finish_before_playing(n):
    t0 = time.perf_counter()
    with pytest.raises(ValueError, match=r"`n_games`.*would take about .*(years|days)") as info:
        bs.compare(Rules(), Rules(end="empty"), n, seed=1, n_jobs=1)
    assert time.perf_counter() - t0 < 5 and f"{n:,}" in str(info.value)


def test_an_empty_store_path_is_refused(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    for argv in (["simulate", "--games", "10", "--store", ""], ["summarize", "--games", "10", "--store", ""],
                 ["census", "--counts", "2,1,1,1,1", "--store", ""], ["simulate", "--games", "10", "--out", ""]):
        assert main(argv) == 2
        assert "must name a" in capsys.readouterr().err
    for call in (lambda: bs.simulate(10, seed=1, store=""), lambda: bs.summarize(10, seed=1, store=""),
                 lambda: bs.simulate_to_store(10, seed=1, store="")):
        with pytest.raises(ValueError, match="`store` must name a directory"):
            call()
    assert list(tmp_path.iterdir()) == []  # nothing written into the current directory


def test_summarize_refuses_another_range_before_playing(tmp_path, monkeypatch):
    bs.summarize(100, seed=1, n_jobs=1, store=tmp_path)
    played = []
    real = summarize_module.summarize_chunk
    monkeypatch.setattr(summarize_module, "summarize_chunk", lambda *a, **k: played.append(a) or real(*a, **k))
    with pytest.raises(ValueError, match="holds games"):
        bs.summarize(100, seed=1, n_jobs=1, start=1000, store=tmp_path)
    assert played == []
    assert bs.summarize(200, seed=1, n_jobs=1, store=tmp_path).n_games == 200 and played  # a longer run resumes


def test_a_census_refuses_a_parquet_store_and_says_what_differs(tmp_path):
    bs.simulate_to_store(10, seed=1, store=tmp_path / "games", n_jobs=1)
    tiny = Rules(deck=bs.Deck(2, 1, 1, 0, 0))
    with pytest.raises(ValueError, match="parquet store"):
        bs.census(tiny, store=tmp_path / "games", n_jobs=1)
    bs.census(tiny, store=tmp_path / "census", n_jobs=1)
    with pytest.raises(ValueError, match=r"its exact differ"):
        bs.summarize(bs.n_deals(tiny), rules=tiny, seed=0, n_jobs=1, store=tmp_path / "census")


def test_a_census_too_long_for_here_is_refused_with_its_count_and_time(monkeypatch):
    monkeypatch.setattr(census_module, "MAX_CENSUS_SECONDS", 600)  # 7.8e9 deals in 10 minutes: no core does that
    rules = Rules(players=3, deck=bs.Deck(20, 2, 2, 2, 2))
    with pytest.raises(ValueError, match=r"7,832,424,600 deals .* would take about .* measured here") as info:
        bs.census(rules, n_jobs=1)
    assert "`max_deals`" in str(info.value)
