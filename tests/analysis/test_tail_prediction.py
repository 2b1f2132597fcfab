"""The tail's out-of-sample check: fitted on one band of lengths, it predicts how the games still
going at the band's end finish, tested against what they did."""

import re
from pathlib import Path

import numpy as np
import pytest

from beggarstats.analysis import tail as T
from beggarstats.game.rules import Rules
from beggarstats.run.summary import Summary, load_summary

ROOT = Path(__file__).resolve().parents[2]


def _summary(hazard, n=10**11, longest=4000):
    """Games whose per-card end rate is ``hazard(L)`` at length L, as expected counts (rounded): no
    sampling noise, so a right model predicts them to within the rounding."""
    L = np.arange(1, longest + 1, dtype=float)
    h = hazard(L)
    surv = np.cumprod(1 - h)
    ended = np.round(n * np.r_[1.0, surv[:-1]] * h).astype(np.int64)
    hist = np.r_[0, ended]
    games = int(hist.sum())
    return Summary(rules=Rules(), seed=0, ranges=((0, games),), outcomes=np.array([games, 0, 0]),
                   wins=np.array([games - games // 2, games // 2]), cards=[hist, np.zeros(1, np.int64), np.zeros(1, np.int64)])


def test_a_geometric_tail_is_predicted_and_a_change_after_the_fit_band_is_caught():
    steady = T.tail_prediction(_summary(lambda L: np.full_like(L, 0.005)), fit_to=1500, predict_to=2500)
    assert list(steady["model"]) == list(T.TAIL_MODELS)
    assert (steady["p_value"] > 0.5).all() and (abs(steady["expected"] / steady["ended"] - 1) < 1e-3).all()
    assert (steady["at_risk"] == steady["ended"] + steady["beyond"]).all()
    # the rate doubles after 1,500 cards, past the fit band: the fit cannot see it, the test must
    changed = T.tail_prediction(_summary(lambda L: np.where(L > 1500, 0.01, 0.005)), fit_to=1500, predict_to=2500)
    assert (changed["p_value"] < 1e-10).all()
    assert (changed["expected_beyond"] > 10 * changed["beyond"]).all()
    # ... while inside the fit band the same change is what the fit sees (and no longer a prediction)
    seen = T.tail_prediction(_summary(lambda L: np.where(L > 1500, 0.01, 0.005)), fit_to=2000, predict_to=3000)
    assert seen.set_index("model").loc["constant hazard", "p_value"] < 1e-10  # one rate fits neither band


def test_a_drifting_hazard_is_predicted_by_the_log_linear_model_only():
    drift = T.tail_prediction(_summary(lambda L: 0.004 * np.exp(0.0003 * (L - 1000)), n=10**9), fit_to=1500,
                              predict_to=2500, min_expected=20)
    by = drift.set_index("model")
    assert by.loc["log-linear hazard", "p_value"] > 0.5 and by.loc["constant hazard", "p_value"] < 1e-10


def test_bad_bands_are_refused():
    s = _summary(lambda L: np.full_like(L, 0.005), n=10**6)
    with pytest.raises(ValueError, match="fit_to"):
        T.tail_prediction(s, fit_to=100, predict_to=2000)        # the tail starts beyond 100 cards
    with pytest.raises(ValueError, match="`width`"):
        T.tail_prediction(s, width=0)


def test_the_quoted_prediction_table_is_generated_from_the_committed_summary():
    text = (ROOT / "docs" / "scaling.md").read_text()
    quoted = re.search(r"<!-- scale tail prediction:.*?-->\n(.*?)\n<!-- end scale tail prediction -->", text, re.S)
    assert quoted.group(1).strip() == T.prediction_markdown(load_summary(ROOT / "data" / "summary-p2.json"))


def test_no_quoted_prediction_is_rejected_as_the_docs_say():
    s = load_summary(ROOT / "data" / "summary-p2.json")
    assert "none of the predictions below\nis rejected at the 5% level" in (ROOT / "docs" / "scaling.md").read_text()
    for m in T.PREDICTION_SPLITS:
        assert (T.tail_prediction(s, fit_to=m, predict_to=m + 1000)["p_value"] > 0.05).all()


@pytest.fixture(scope="module")
def record_table():
    return T.record_range_markdown([load_summary(p) for p in sorted((ROOT / "data").glob("summary-p*.json"))])


@pytest.mark.slow  # record_range draws 4,000 hazard curves per player count: about 7 s for the five
@pytest.mark.parametrize("doc", ["docs/scaling.md"])  # README.md's table is of the runs on file (test_record_odds.py)
def test_the_record_odds_come_with_their_model_range_wherever_printed(doc, record_table):
    text = (ROOT / doc).read_text()
    quoted = re.search(r"<!-- record range:.*?-->\n(.*?)\n<!-- end record range -->", text, re.S)
    assert quoted.group(1).strip() == record_table
    # the table of the one model's odds comes first, the range right after it
    assert text.index("random deals to expect one longer than 8,344 cards (2 players)") < quoted.start()


def test_tiny_shares_are_never_printed_as_percent_in_e_notation():
    from beggarstats.report.findings import fmt

    assert fmt(2.85e-18, "share") == "2.85e-18" and fmt(0.4977, "share") == "49.770%"
    for rel in ("figures/findings.md", "README.md", "docs/FIGURES.md", "docs/scaling.md"):
        assert not re.search(r"\de[-+]?\d+\s?%", (ROOT / rel).read_text()), rel  # "2.9e-16%" beside 2.85e-18


def test_a_rejected_constant_hazard_is_labelled_an_average():
    from beggarstats.report.findings import read_findings

    table = read_findings(ROOT / "figures" / "findings.csv").set_index("key")
    for p in range(2, 7):
        rejected = table.loc[f"tail_constancy_{p}p", "p_value"] < 0.05
        name = table.loc[f"tail_rate_{p}p", "finding"]
        assert name.startswith("average end rate per card of a changing hazard") == rejected, name
        assert ("tail decay rate" in name) == (not rejected), name
