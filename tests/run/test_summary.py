"""`summarize()` and `Summary`: equal to aggregating `simulate()` rows, independent of chunking,
n_jobs and merge order, resumable after a kill, the same on a Dask cluster; the adapters agree with
the frame-based analysis; the committed findings replay with the reference engine."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import joblib
import numpy as np
import pandas as pd
import pytest

import beggarstats as bs
from beggarstats.analysis import summaries as sa
from beggarstats.analysis import (geometric_tail, km_table, length_distribution, length_summary,
                                  seat_fairness_test, seat_win_rates)
from beggarstats.engine.fast import OUTCOME_CODES
from beggarstats.game.decks import Deck
from beggarstats.game.rules import Rules
from beggarstats.run.simulate import simulate
from beggarstats.run.summarize import summarize
from beggarstats.run.summary import GAME_COLUMNS, LOOP_COLUMNS, Summary, load_summary

pytestmark = pytest.mark.usefixtures("warm_kernels")  # plays games through the kernels

ROOT = Path(__file__).resolve().parents[2]

# Every rule family and player count, several with loops, cut-offs or games beyond the cap.
FAMILIES = [
    Rules(),
    Rules(players=3),
    Rules(players=4, end="empty"),
    Rules(players=5, exhausted_tribute="passes_on"),
    Rules(players=6, direction="ccw"),
    Rules(players=3, end="unable"),
    Rules(jokers=2, joker_mode="super"),
    Rules(players=3, jokers=2, joker_mode="beggar"),
    Rules(shuffle_pile=True),
    Rules(players=3, shuffle_on_loop=True),
    Rules(deck="italian"),
    Rules(max_cards=300),
    Rules(players=4, max_cards=400, unfinished="most_cards"),
    Rules(deck=Deck(numbers=8, jacks=2, queens=0, kings=0, aces=0)),  # small deck: many loops
    Rules(players=3, deck=Deck(numbers=10, jacks=1, queens=1, kings=0, aces=0), shuffle_on_loop=True),
    Rules(deck=Deck(numbers=50, jacks=4, queens=4, kings=4, aces=4)),  # 66 cards: the general kernel
    *[Rules(players=p) for p in range(7, 13)],  # every other player count the engines allow
]
CAP = 250  # small, so that the games beyond the cap are exercised


def expected_summary(games: pd.DataFrame, rules: Rules, seed: int, cap: int, top: int) -> dict:
    """The summary worked out from the rows with pandas, independently of `summarize`."""
    outcome = games["outcome"].astype(str)
    winner = games["winner"].astype("Int64")
    within = games["cards"] <= cap
    hist = {}
    for m in ("cards", "tricks"):
        hist[m] = {}
        for o in OUTCOME_CODES:
            counts = games.loc[within & (outcome == o), m].astype(int).value_counts().sort_index()
            hist[m][o] = [counts.index.tolist(), counts.tolist()]

    def rows(df, columns):
        df = df.assign(outcome=df["outcome"].astype(str).map(OUTCOME_CODES.index),
                       winner=df["winner"].astype("Int64").fillna(-1))
        return {c: df[c].astype(np.int64).tolist() for c in columns}

    looped = games[games["loop_cards"].notna()]
    wins = games[outcome == "win"].sort_values(["cards", "game"], ascending=[False, True]).head(top)
    return {"rules": rules.to_dict(), "seed": seed, "rules_version": bs.RULES_VERSION, "cap": cap, "top": top,
            "ranges": [[int(games["game"].min()), int(games["game"].max()) + 1]],
            "outcomes": [int((outcome == o).sum()) for o in OUTCOME_CODES],
            "wins": [int((winner == s).sum()) for s in range(rules.players)],
            "cards": hist["cards"], "tricks": hist["tricks"],
            "over_cap": rows(games[~within], GAME_COLUMNS), "loops": rows(looped, LOOP_COLUMNS),
            "longest": rows(wins, GAME_COLUMNS)}


@pytest.mark.parametrize("rules", FAMILIES, ids=lambda r: f"p{r.players}-{r.name}")
def test_summarize_equals_aggregated_simulate_rows(rules):
    games = simulate(500, rules=rules, seed=7, start=100, n_jobs=1)
    got = summarize(500, rules=rules, seed=7, start=100, n_jobs=2, chunk_size=64, cap=CAP, top=10)
    assert got.n_games == 500
    assert got.to_dict() == expected_summary(games, rules, 7, CAP, 10)


def test_families_exercise_every_list():
    """The families above really produce loops, cut-offs and games beyond the cap."""
    total = {"loop": 0, "cutoff": 0, "over": 0}
    for rules in FAMILIES:
        s = summarize(500, rules=rules, seed=7, start=100, n_jobs=1, cap=CAP, top=10)
        total["loop"] += s.loops["game"].size
        total["cutoff"] += int(s.outcomes[2])
        total["over"] += s.over_cap["game"].size
    assert min(total.values()) > 0, total


def test_independent_of_chunking_jobs_and_merge_order():
    rules = Rules(players=3)
    ref = summarize(3000, rules=rules, seed=3, n_jobs=1, chunk_size=3000, cap=CAP)
    assert summarize(3000, rules=rules, seed=3, n_jobs=2, chunk_size=97, cap=CAP) == ref
    # Pieces of different sizes added in different orders and groupings.
    cuts = [0, 1, 700, 701, 1900, 3000]
    pieces = [summarize(hi - lo, rules=rules, seed=3, start=lo, n_jobs=1, cap=CAP) for lo, hi in zip(cuts, cuts[1:])]
    rng = np.random.default_rng(0)
    for _ in range(5):
        order = rng.permutation(len(pieces))
        assert sum(pieces[i] for i in order) == ref
    a, b, c = pieces[0] + pieces[1], pieces[2], pieces[3] + pieces[4]
    assert (a + b) + c == a + (b + c) == ref
    assert ref.ranges == ((0, 3000),)


@pytest.mark.slow  # worker processes are another backend (seconds to start): the slow tier
def test_identical_on_the_loky_backend():
    rules = Rules(players=3)
    ref = summarize(3000, rules=rules, seed=3, n_jobs=1, chunk_size=3000, cap=CAP)
    with joblib.parallel_config(backend="loky", n_jobs=2):
        assert summarize(3000, rules=rules, seed=3, chunk_size=500, cap=CAP) == ref


def test_adding_overlapping_or_different_runs_is_refused():
    a = summarize(100, seed=1, n_jobs=1)
    with pytest.raises(ValueError, match="share games"):
        a + summarize(100, seed=1, start=50, n_jobs=1)
    with pytest.raises(ValueError, match="seed"):
        a + summarize(100, seed=2, start=100, n_jobs=1)


def test_to_frame_tables_and_bad_table():
    rules = Rules(max_cards=300)
    s = summarize(400, rules=rules, seed=5, n_jobs=1, cap=CAP)
    games = simulate(400, rules=rules, seed=5)
    lengths = s.to_frame("lengths")
    for (o, m), sub in lengths.groupby(["outcome", "measure"], observed=True):
        counts = games.loc[games["outcome"].astype(str) == o, m].astype(int).value_counts().sort_index()
        assert sub["length"].tolist() == counts.index.tolist() and sub["games"].tolist() == counts.tolist()
    outcomes = s.to_frame("outcomes")
    assert outcomes["games"].tolist() == [int((games["outcome"] == o).sum()) for o in OUTCOME_CODES]
    assert outcomes["share"].sum() == pytest.approx(1)
    assert s.to_frame("seats")["wins"].sum() == games["winner"].notna().sum()
    longest = s.to_frame("longest")
    assert (longest["players"] == 2).all() and longest["cards"].is_monotonic_decreasing
    with pytest.raises(ValueError, match="`table`"):
        s.to_frame("rows")


def test_save_load_and_damaged_file(tmp_path):
    s = summarize(300, rules=Rules(players=3, shuffle_on_loop=True), seed=9, n_jobs=1)
    path = s.save(tmp_path / "s.json")
    assert load_summary(path) == s
    text = path.read_text()
    path.write_text(text.replace('"outcomes":[', '"outcomes":[1', 1))
    with pytest.raises(ValueError, match="damaged"):
        load_summary(path)
    path.write_text(text[: len(text) // 2])
    with pytest.raises(ValueError, match="damaged"):
        load_summary(path)


@pytest.mark.parametrize("kwargs, name", [
    (dict(n_games=-1), "n_games"), (dict(n_games=10, seed=-3), "seed"), (dict(n_games=10, start=1.5), "start"),
    (dict(n_games=10, n_jobs=0), "n_jobs"), (dict(n_games=10, cap=0), "cap"), (dict(n_games=10, top=-1), "top"),
    (dict(n_games=10, rules="standard"), "rules"), (dict(n_games=10, store=True), "store"),
    (dict(n_games=10, checkpoint=-1), "checkpoint"), (dict(n_games=10, chunk_size=0), "chunk_size"),
])
def test_bad_arguments_name_the_parameter(kwargs, name):
    n = kwargs.pop("n_games")
    with pytest.raises(ValueError, match=f"`{name}`"):
        summarize(n, **kwargs)


def test_store_resumes_and_refuses_another_run(tmp_path):
    first = summarize(2000, seed=4, n_jobs=1, store=tmp_path, checkpoint=0)
    assert load_summary(tmp_path / "summary.json") == first
    # More games: only the new ids are played; the result equals a fresh run.
    assert summarize(5000, n_jobs=2, store=tmp_path) == summarize(5000, seed=4, n_jobs=1)
    with pytest.raises(ValueError, match="seed"):
        summarize(5000, seed=5, store=tmp_path)
    with pytest.raises(ValueError, match="cannot be split"):
        summarize(100, seed=4, store=tmp_path)


_KILLED_RUN = """
import sys, time
import beggarstats.run.device as device
import beggarstats.run.summarize as summarize
real = device._batch_engine()
def slow(rules, seed, ids, **kw):
    time.sleep(0.05)
    return real(rules, seed, ids, **kw)
device._batch_engine = lambda: slow
summarize.summarize(200_000, seed=11, n_jobs=1, chunk_size=1000, store=sys.argv[1], checkpoint=0)
"""


def test_resumes_after_a_kill(tmp_path):
    """SIGKILL in the middle of a run: the saved summary is a consistent part of it, and the same
    call finishes the run with exactly the result of an uninterrupted one."""
    proc = subprocess.Popen([sys.executable, "-c", _KILLED_RUN, str(tmp_path)], cwd=ROOT)
    path = tmp_path / "summary.json"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and not (path.exists() and load_summary(path).n_games >= 3000):
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    partial = load_summary(path)
    assert 3000 <= partial.n_games < 200_000
    assert not [p for p in os.listdir(tmp_path) if p not in ("summary.json", ".summary.lock") and not p.endswith(".tmp")]
    resumed = summarize(200_000, n_jobs=2, store=tmp_path)
    assert resumed == summarize(200_000, seed=11, n_jobs=2)


_INTERRUPTED_RUN = """
import signal, sys, time
signal.signal(signal.SIGINT, signal.default_int_handler)  # as on a terminal: a shell that ran the tests in the background left it ignored
from pathlib import Path
import beggarstats.run.device as device
import beggarstats.run.summarize as summarize
from beggarstats.cli import main
real, calls = device._batch_engine(), []
def slow(rules, seed, ids, **kw):
    calls.append(1)
    if len(calls) > 6:  # one worker: the 6 chunks before this one are finished and added up
        Path(sys.argv[1], "started").touch()  # the test's cue for Ctrl-C, which this chunk waits for
        deadline = time.monotonic() + 120  # (at most 120 s), however loaded the machine
        while time.monotonic() < deadline:
            time.sleep(0.05)
    return real(rules, seed, ids, **kw)
device._batch_engine = lambda: slow
summarize.DEFAULT_CHECKPOINT = 10**6
sys.exit(main(["summarize", "--games", "200000", "--seed", "11", "--jobs", "1", "--chunk-size", "1000",
               "--store", sys.argv[1]]))
"""


def test_ctrl_c_saves_everything_finished(tmp_path):
    """Ctrl-C (SIGINT) on the command line: exit status 130, and the summary of every finished chunk
    is saved on the way out (no periodic save happens in this run), so nothing computed is lost.
    The Ctrl-C comes while the 7th chunk waits for it, after the 6th has finished (with one worker a
    chunk starts once the one before is added up), so exactly 6 chunks are done: no race with the
    machine's load (#50: the cue was once given as the 6th chunk started, and 5,000 games were saved)."""
    proc = subprocess.Popen([sys.executable, "-c", _INTERRUPTED_RUN, str(tmp_path)], cwd=ROOT,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and not (tmp_path / "started").exists():
        time.sleep(0.05)
    # only the empty summary written before the run (checking the file is writable), no periodic save
    assert load_summary(tmp_path / "summary.json").n_games == 0
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130 and "interrupted" in err and "Traceback" not in err
    partial = load_summary(tmp_path / "summary.json")
    assert partial.n_games == 6000  # the 6 chunks finished before the 7th was interrupted
    assert summarize(200_000, n_jobs=2, store=tmp_path) == summarize(200_000, seed=11, n_jobs=2)


# worker processes (seconds to start, each importing numba and loading the kernels) are another
# backend, in the slow tier as tests/run/test_scaling.py's are; the quick tier keeps the dask path itself
@pytest.mark.parametrize("processes", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["threads", "processes"])
def test_dask_cluster(processes):
    import dask.distributed as distributed

    rules = Rules(players=3, max_cards=400, unfinished="most_cards")
    expected = summarize(1500, rules=rules, seed=21, n_jobs=1, cap=CAP)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=processes,
                                  dashboard_address=None) as cluster, distributed.Client(cluster):
        with joblib.parallel_config(backend="dask"):
            got = summarize(1500, rules=rules, seed=21, chunk_size=100, cap=CAP)
    assert got == expected


# -- the analysis of a summary equals the analysis of the rows ------------------------------------
@pytest.fixture(scope="module")
def pair():
    rules = Rules(players=3, max_cards=700)
    return summarize(4000, rules=rules, seed=2, n_jobs=2, cap=CAP), simulate(4000, rules=rules, seed=2, n_jobs=2)


def test_length_summary_matches_rows(pair):
    s, games = pair
    for measure in ("cards", "tricks"):
        for outcomes in (("win",), ("win", "cutoff")):
            want = length_summary(games, measure=measure, outcomes=outcomes)
            got = sa.length_summary(s, measure=measure, outcomes=outcomes)
            pd.testing.assert_frame_equal(got[want.columns], want, check_dtype=False)


def test_length_distribution_matches_rows(pair):
    s, games = pair
    for outcomes in (("win",), ("cutoff",)):
        want = length_distribution(games, measure="tricks", outcomes=outcomes)
        got = sa.length_distribution(s, measure="tricks", outcomes=outcomes)
        pd.testing.assert_frame_equal(got[want.columns], want, check_dtype=False)


def test_kaplan_meier_matches_rows(pair):
    s, games = pair
    want = km_table(games["cards"].to_numpy(float), games["outcome"].astype(str).to_numpy() == "win")
    want = want[want["events"] > 0].reset_index(drop=True)
    got = sa.kaplan_meier(s)
    np.testing.assert_allclose(got["length"], want["length"])
    np.testing.assert_allclose(got["at_risk"], want["at_risk"])
    np.testing.assert_allclose(got["survival"], want["survival"], rtol=1e-12)
    np.testing.assert_allclose(got["se"], want["se"], rtol=1e-9)
    np.testing.assert_allclose(got[["low", "high"]], want[["low", "high"]], rtol=1e-9)  # the frames' log-log band


def test_seat_win_rates_match_rows(pair):
    s, games = pair
    want = seat_win_rates(games)
    got = sa.seat_win_rates(s)
    pd.testing.assert_frame_equal(got[want.columns], want, check_dtype=False)


def test_seat_fairness_test_matches_rows(pair):
    s, games = pair
    want = seat_fairness_test(games)
    pd.testing.assert_frame_equal(sa.seat_fairness_test(s)[want.columns], want, check_dtype=False)


def test_tail_rate_matches_geometric_tail(pair):
    s, games = pair
    t = games["cards"].to_numpy(float)
    ended = games["outcome"].astype(str).to_numpy() == "win"
    for threshold in (300.0, 500.0):
        want = geometric_tail(t, ended, threshold=threshold)
        got = sa.tail_rate(s, threshold=threshold).iloc[0]
        for k in ("n_tail", "events", "rate", "rate_low", "rate_high", "half_life"):
            assert got[k] == pytest.approx(want[k], rel=1e-12), k
        assert got["survival_at_threshold"] == pytest.approx((t > threshold).mean())


def test_tail_extrapolation_by_hand():
    """A worked example: 10 games ended at 1..10 cards, threshold 4: 6 events over k = 1..6, sum 21,
    so p = 6/21 = 2/7, S(4) = 6/10, and P(length > 11) = 0.6 * (5/7)^7."""
    s = Summary(rules=Rules(), seed=0, ranges=((0, 10),), outcomes=np.array([10, 0, 0]),
                wins=np.array([5, 5]), cards=[np.array([0] + [1] * 10), np.zeros(0, np.int64), np.zeros(0, np.int64)])
    t = sa.tail_rate(s, threshold=4).iloc[0]
    assert t["rate"] == pytest.approx(2 / 7) and t["events"] == 6 and t["survival_at_threshold"] == 0.6
    row = sa.tail_extrapolation(s, [11], threshold=4).iloc[0]
    assert row["probability"] == pytest.approx(0.6 * (5 / 7) ** 7)
    assert row["deals_to_exceed"] == pytest.approx(1 / (0.6 * (5 / 7) ** 7))
    assert row["seen"] == 0 and row["expected"] == pytest.approx(10 * 0.6 * (5 / 7) ** 7)
    assert sa.weighted_quantile(np.array([1, 2, 10]), np.array([2, 1, 1]), 0.5) == np.quantile([1, 1, 2, 10], 0.5)


def test_loop_share_clopper_pearson_by_hand():
    """No loop in n games: the exact two-sided 95% upper bound is 1 - 0.025^(1/n)."""
    s = Summary(rules=Rules(), seed=0, ranges=((0, 1000),), outcomes=np.array([1000, 0, 0]))
    row = sa.loop_share(s).iloc[0]
    assert row["loops"] == 0 and row["low"] == 0
    assert row["high"] == pytest.approx(1 - 0.025 ** (1 / 1000), rel=1e-9)


# -- the committed findings ---------------------------------------------------------------------
FINDINGS = sorted((ROOT / "data").glob("summary-*.json"))


def test_findings_files_are_committed():
    assert FINDINGS, "data/summary-*.json are missing"


@pytest.mark.parametrize("path", FINDINGS, ids=lambda p: p.stem)
def test_committed_longest_games_replay_with_the_reference_engine(path):
    s = load_summary(path)
    assert s.n_games >= 10**8 and s.longest["game"].size > 0
    assert path.stat().st_size < 100_000  # "a few tens of kB" (docs/scaling.md)
    for i in range(s.longest["game"].size):
        _, r = bs.replay(s.seed, int(s.longest["game"][i]), s.rules, trace=False)
        assert (r.outcome, r.winner, r.cards, r.tricks) == (
            "win", int(s.longest["winner"][i]), int(s.longest["cards"][i]), int(s.longest["tricks"][i]))
    for i in range(s.loops["game"].size):
        _, r = bs.replay(s.seed, int(s.loops["game"][i]), s.rules, trace=False)
        assert r.loop_cards == int(s.loops["loop_cards"][i])


def _quoted_table(text: str, marker: str) -> str:
    start = text.index(f"<!-- {marker}")
    start = text.index("\n", start) + 1
    return text[start: text.index(f"<!-- end {marker} -->", start)].strip()


@pytest.mark.parametrize("doc", ["README.md", "docs/scaling.md"])
def test_quoted_findings_are_generated_from_the_committed_summaries(doc):
    table = sa.findings_markdown(pd.concat([sa.scale_findings(load_summary(p)) for p in FINDINGS],
                                           ignore_index=True))
    assert _quoted_table((ROOT / doc).read_text(), "scale findings") == table


def test_quoted_tail_check_is_generated_from_the_committed_summary():
    table = sa.extrapolation_markdown(load_summary(ROOT / "data" / "summary-p2.json"))
    assert _quoted_table((ROOT / "docs" / "scaling.md").read_text(), "scale tail checks") == table


def test_the_billion_deal_run():
    """What docs/scaling.md says of the committed run: 10^9 two-player deals, no loop, no game beyond
    the cap, the tail fitted on the longest 1% predicts the counts seen; and the file is small."""
    path = ROOT / "data" / "summary-p2.json"
    s = load_summary(path)
    assert s.n_games == 10**9 and s.rules == Rules() and s.loops["game"].size == 0 and s.over_cap["game"].size == 0
    assert path.stat().st_size < 100_000
    ext = sa.tail_extrapolation(s, [1500, 2000, 2500, 3000, 3500, 4000], start=0.99)
    # seen ~ Poisson(expected): every count within 3 standard deviations of the tail's prediction
    assert (abs(ext["seen"] - ext["expected"]) < 3 * np.sqrt(ext["expected"]) + 1).all()


def test_the_record_comes_with_the_range_of_its_tail_models():
    """Geometric tails from later thresholds and a log-linear hazard, fitted to the committed 10^9
    deals, put the record's odds over a range far wider than the one model's interval."""
    s = load_summary(ROOT / "data" / "summary-p2.json")
    models = sa.record_range(s)
    geo = models[models["model"] == "geometric"]
    assert list(geo["threshold"]) == [996, 1500, 2000, 2500, 3000, 3500]
    assert (np.diff(geo["games"].to_numpy()) < 0).all() and geo["games"].iloc[-2] == 564  # the games beyond each cut
    first = sa.tail_extrapolation(s, [sa.RECORD_CARDS], start=0.99).iloc[0]
    assert geo["probability"].iloc[0] == pytest.approx(first["probability"])  # the table's own model first
    assert (models["low"] <= models["probability"]).all() and (models["probability"] <= models["high"]).all()
    assert models["deals"].to_numpy() == pytest.approx(1 / models["probability"].to_numpy())
    spread = models["deals_high"].max() / models["deals_low"].min()
    one = first["deals_high"] / first["deals_low"]
    assert one < 1.1 and spread > 10  # one model's +-2% against a factor of tens across models
    hazard = models[models["model"] == "log-linear hazard"].iloc[0]
    assert hazard["low"] < first["probability"] < hazard["high"]


def test_a_loop_never_ends_in_the_summary_survival_curve():
    # 3 games end at 1, 2 and 3 cards, 1 loops (found at 2 cards): S levels off at 1/4
    s = Summary(rules=Rules(), seed=0, ranges=((0, 4),), outcomes=np.array([3, 1, 0]), wins=np.array([2, 1]),
                cards=[np.array([0, 1, 1, 1]), np.array([0, 0, 1]), np.zeros(0, np.int64)])
    km = sa.kaplan_meier(s)
    assert km["survival"].tolist() == pytest.approx([3 / 4, 1 / 2, 1 / 4])


# -- the command line ------------------------------------------------------------------------------
def test_cli_prints_what_simulate_prints(capsys, tmp_path):
    from beggarstats.cli import main

    args = ["--players", "3", "--games", "3000", "--seed", "5", "--start", "10", "--max-cards", "500"]
    assert main(["simulate", *args]) == 0
    want = capsys.readouterr().out
    assert main(["summarize", *args, "--jobs", "2", "--store", str(tmp_path / "st"),
                 "--out", str(tmp_path / "s.json")]) == 0
    got = capsys.readouterr().out.splitlines()
    assert got[:-2] == want.splitlines()
    assert got[-2:] == [f"store:    {tmp_path / 'st'}", f"written:  {tmp_path / 's.json'}"]
    assert load_summary(tmp_path / "s.json") == load_summary(tmp_path / "st" / "summary.json")


@pytest.mark.parametrize("args, flag", [
    (["--games", "0"], "--games"), (["--seed", "-1"], "--seed"), (["--jobs", "0"], "--jobs"),
    (["--top", "-2"], "--top"), (["--out", "x.csv"], "--out"), (["--players", "1"], "players"),
])
def test_cli_bad_input_exit_2(capsys, args, flag):
    from beggarstats.cli import main

    assert main(["summarize", *args]) == 2
    err = capsys.readouterr().err
    assert flag in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_cli_refuses_a_store_of_another_run(capsys, tmp_path):
    from beggarstats.cli import main

    assert main(["summarize", "--games", "100", "--seed", "1", "--store", str(tmp_path)]) == 0
    capsys.readouterr()
    assert main(["summarize", "--games", "100", "--seed", "2", "--store", str(tmp_path)]) == 2
    assert "--store" in capsys.readouterr().err


def test_the_findings_table_carries_the_scale_rows():
    """`beggarstats figures` puts the committed large runs' findings into figures/findings.csv (outside
    the Holm family: they test nothing), equal to `scale_findings` of the committed summaries."""
    from beggarstats.report.figures import scale_rows
    from beggarstats.report.findings import read_findings

    table = read_findings(ROOT / "figures" / "findings.csv").set_index("key")
    rows = scale_rows(ROOT / "data")
    # scale_findings' five, the record's distance beyond the longest game, its fits beyond three cuts and
    # the log-linear hazard, and six out-of-sample tail predictions
    assert len(rows) == 16 * len(FINDINGS)
    for row in rows:
        got = table.loc[row["key"]]
        assert got["finding"] == row["finding"] and got["n_games"] == row["n_games"]
        assert got["estimate"] == pytest.approx(row["estimate"], rel=1e-5)  # the table keeps 6 digits
        assert pd.isna(got["holm_reject"])  # outside the Holm family; only the predictions test (their fit)
        assert np.isnan(got["p_value"]) != (got["test"] == "fit" and row["key"].startswith("scale_prediction_"))
    fits = [r for r in rows if r["key"].startswith(("scale_record_cut", "scale_record_loglinear_"))]
    assert len(fits) == 4 * len(FINDINGS) and all(r["low"] < r["estimate"] < r["high"] for r in fits)
    assert all("sampling only" in r["finding"] for r in fits)
    rows = [r for r in rows if not r["key"].startswith(("scale_record_", "scale_prediction_"))]
    direct = pd.concat([sa.scale_findings(load_summary(p)) for p in FINDINGS], ignore_index=True)
    assert [r["estimate"] for r in rows] == pytest.approx(direct["estimate"].tolist(), rel=1e-12)
    assert scale_rows(ROOT / "notebooks") == []  # no summaries there: no rows


def test_the_scale_rows_of_a_file_are_computed_once_per_state_of_the_file(tmp_path, monkeypatch):
    """`beggarstats figures` and the tests ask for the same committed runs' rows again and again
    (seconds of tail-model fits each time): a file read before gives its rows again, a changed file
    is read afresh, and the rows handed out are copies."""
    import shutil

    from beggarstats.report import figures

    shutil.copy(FINDINGS[0], tmp_path / "summary-p2.json")
    calls = []
    models = pd.DataFrame({"model": ["geometric"] * 3 + ["log-linear hazard"],
                           "threshold": [2500.0, 3000.0, 3500.0, 1200.0], "games": [30, 20, 10, 90],
                           "deals": [2e9, 2e9, 2e9, 3e9], "deals_low": [1e9] * 4, "deals_high": [5e9] * 3 + [9e9]})
    # the fits themselves are test_the_findings_table_carries_the_scale_rows's; here only how often
    models["passes"] = True
    odds = dict(players=2, games=10, longest=4000, record=8344, beyond=4344, fits=models)
    from beggarstats.analysis import tail

    monkeypatch.setattr(tail, "record_odds", lambda s: calls.append(s.n_games) or odds)
    monkeypatch.setattr(tail, "tail_prediction", lambda s, **kw: pd.DataFrame())  # its rows: test_tail_prediction's
    first = figures.scale_rows(tmp_path)
    first[0]["estimate"] = -1.0  # the caller's copy
    again = figures.scale_rows(tmp_path)
    assert len(calls) == 1 and again[0]["estimate"] != -1.0 and len(again) == 5 + 5  # scale_findings' and the record's
    later = (tmp_path / "summary-p2.json").stat().st_mtime_ns + 10**9
    os.utime(tmp_path / "summary-p2.json", ns=(later, later))  # written again (the same summary)
    pd.testing.assert_frame_equal(pd.DataFrame(figures.scale_rows(tmp_path)), pd.DataFrame(again))
    assert len(calls) == 2


@pytest.mark.parametrize("name", ["length_summary", "length_distribution", "kaplan_meier", "seat_win_rates",
                                  "seat_fairness_test", "tail_rate"])
def test_the_analysis_functions_accept_a_summary(pair, name):
    """`beggarstats.analysis.<name>(summary)` is the summary twin's answer, with the frame's columns."""
    from beggarstats import analysis

    s, games = pair
    got = getattr(analysis, name)(s)
    pd.testing.assert_frame_equal(got, getattr(sa, name)(s))
    frame = getattr(analysis, name)(games)
    if name == "kaplan_meier":  # the twin lists event lengths only, without the band (see above)
        assert {"length", "at_risk", "survival", "se"} <= set(got.columns) & set(frame.columns)
    else:
        assert set(frame.columns) <= set(got.columns) and len(got) == len(frame)
    if name in ("length_summary", "seat_win_rates"):
        pd.testing.assert_frame_equal(got[frame.columns], frame, check_dtype=False)
    with pytest.raises(TypeError, match="by"):
        getattr(analysis, name)(s, by=("players",))
