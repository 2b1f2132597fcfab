"""`census()`: every deal of a small deck once - equal to the reference engine deal by deal,
independent of n_jobs and chunking, resumable after a kill, refusing what it cannot do; and the
published checks of the Italian half deck (Gentilini 2012)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import beggarstats as bs
from beggarstats.engine.census_kernel import play_ranks
from beggarstats.engine.reference import play_hands
from beggarstats.run.census import census

pytestmark = pytest.mark.usefixtures("warm_census_kernels")  # runs censuses: their kernels compiled once a session
from beggarstats.run.summary import load_summary

ROOT = Path(__file__).resolve().parents[2]
ITALIAN_HALF = bs.Rules(deck=bs.Deck(14, 2, 2, 2, 0))

# tiny decks under several rule options, two to four players (every deal of each is played)
TINY = [
    bs.Rules(deck=bs.Deck(4, 1, 1, 1, 0)),
    bs.Rules(deck=bs.Deck(5, 1, 1, 1, 1), end="empty"),
    bs.Rules(deck=bs.Deck(4, 2, 1, 0, 0), jokers=1, joker_mode="beggar"),
    bs.Rules(deck=bs.Deck(6, 1, 1, 0, 0), max_cards=12, unfinished="most_cards"),
    bs.Rules(players=3, deck=bs.Deck(4, 1, 1, 1, 0), leader="next"),
    bs.Rules(players=3, deck=bs.Deck(3, 1, 1, 1, 1), exhausted_tribute="passes_on", end="unable"),
    bs.Rules(players=4, deck=bs.Deck(4, 1, 1, 1, 1), direction="ccw"),
]


@pytest.mark.parametrize("rules", TINY, ids=lambda r: f"{r.players}p-{r.name}")
def test_census_equals_the_reference_engine_deal_by_deal(rules):
    n = bs.n_deals(rules)
    got = play_ranks(rules, 0, n)
    outcomes, wins, loops = np.zeros(3, np.int64), np.zeros(rules.players, np.int64), []
    for r in range(n):
        g = play_hands(bs.deal_at(r, rules), rules)
        o = ("win", "loop", "cutoff").index(g.outcome)
        want = (o, -1 if g.winner is None else g.winner, g.cards, g.tricks, g.loop_tricks or 0, g.loop_cards or 0)
        assert (int(got["outcome"][r]), int(got["winner"][r]), int(got["cards"][r]), int(got["tricks"][r]),
                int(got["loop_tricks"][r]), int(got["loop_cards"][r])) == want, (r, bs.format_deal(bs.deal_at(r, rules)))
        outcomes[o] += 1
        if g.winner is not None:
            wins[g.winner] += 1
        if g.loop_tricks is not None:
            loops.append(r)
    s = census(rules, n_jobs=1)
    assert s.exact and s.seed == 0 and s.n_games == n and s.ranges == ((0, n),)
    assert s.outcomes.tolist() == outcomes.tolist() and s.wins.tolist() == wins.tolist()
    assert s.loops["game"].tolist() == loops


def test_same_result_for_any_n_jobs_and_chunking():
    rules = bs.Rules(deck=bs.Deck(6, 1, 1, 1, 1), end="empty")  # 5,040 deals
    one = census(rules, n_jobs=1)
    assert census(rules, n_jobs=2, chunk_size=97) == one
    assert census(rules, n_jobs=2) == one
    parts = census(rules, n_jobs=1, stop=1000) + census(rules, n_jobs=2, start=1000, chunk_size=333)
    assert parts == one and parts.exact
    assert one != bs.summarize(10, rules=rules, seed=0, n_jobs=1)  # a sample is not a census


def test_a_range_of_the_italian_half_deck_holds_its_loop():
    """Ranks around one of the 16 loops (the full census is test_published_checks)."""
    s = census(ITALIAN_HALF, start=246_000, stop=247_000, n_jobs=1)
    assert s.n_games == 1000 and s.ranges == ((246_000, 247_000),)
    assert s.outcomes[1] == s.loops["game"].size >= 1
    for r in s.loops["game"]:
        g = bs.play(bs.format_deal(bs.deal_at(int(r), ITALIAN_HALF)), ITALIAN_HALF)
        assert g.outcome == "loop"


def test_store_resumes_without_playing_again(tmp_path, monkeypatch):
    rules = TINY[0]
    first = census(rules, store=tmp_path, checkpoint=0, n_jobs=1)
    assert load_summary(tmp_path / "summary.json") == first and load_summary(tmp_path / "summary.json").exact
    import beggarstats.run.census as mod

    monkeypatch.setattr(mod, "_ranks_engine", lambda *a: pytest.fail("played a deal again"))
    assert census(rules, store=tmp_path) == first
    with pytest.raises(ValueError, match="`store`.*holds another run"):
        census(TINY[1], store=tmp_path)
    bs.summarize(10, rules=rules, seed=0, store=tmp_path / "sample", n_jobs=1)
    with pytest.raises(ValueError, match="holds another run.*exact"):
        census(rules, store=tmp_path / "sample")


def test_refusals_name_the_reason():
    with pytest.raises(ValueError, match="`shuffle_pile`"):
        census(bs.Rules(deck=bs.Deck(4, 1, 1, 1, 0), shuffle_pile=True))
    with pytest.raises(ValueError, match="`shuffle_on_loop`"):
        census(bs.Rules(deck=bs.Deck(4, 1, 1, 1, 0), shuffle_on_loop=True))
    with pytest.raises(ValueError, match="at most 64 cards"):
        census(bs.Rules(jokers=2, deck=bs.Deck(50, 4, 4, 4, 4)))
    with pytest.raises(ValueError, match=r"0 <= start <= stop <= 210"):
        census(TINY[0], start=5, stop=211)
    with pytest.raises(ValueError, match="`start`"):
        census(TINY[0], start=-1)


def test_too_large_is_refused_before_running_with_count_and_time():
    with pytest.raises(ValueError) as err:
        census(bs.Rules())
    message = str(err.value)
    assert f"{bs.n_deals(bs.Rules()):,} deals" in message and "6.54e+20" in message
    assert "years at the" in message and "deals/s measured here" in message
    with pytest.raises(ValueError, match="`max_deals`"):
        census(ITALIAN_HALF, max_deals=10**6)


@pytest.mark.slow
def test_published_checks_italian_half_deck():
    """Gentilini (2012): 3,488,400 deals of which exactly 16 loop; under end='empty' the most
    frequent length is 18 cards, with 323,481 deals."""
    s = census(ITALIAN_HALF)
    assert s.n_games == 3_488_400 and s.outcomes[1] == 16 and s.loops["game"].size == 16
    assert (s.loops["loop_tricks"] > 0).all()
    e = census(ITALIAN_HALF.replace(end="empty"))
    lengths, counts = e.frequencies("cards", ("win", "loop", "cutoff"))
    assert lengths[np.argmax(counts)] == 18 and counts.max() == 323_481


_KILLED_RUN = """
import sys, time
import beggarstats as bs
import beggarstats.run.census as census
real = census._ranks_engine
def slow(*a):
    time.sleep(0.05)
    return real(*a)
census._ranks_engine = slow
census.census(bs.Rules(deck=bs.Deck(14, 2, 2, 2, 0)), stop=400_000, n_jobs=1, chunk_size=2000,
              store=sys.argv[1], checkpoint=0)
"""


@pytest.mark.slow
def test_resumes_after_a_kill(tmp_path):
    """SIGKILL in the middle of a census: the saved part is consistent, and the same call completes
    it to exactly the result of an uninterrupted one."""
    proc = subprocess.Popen([sys.executable, "-c", _KILLED_RUN, str(tmp_path)], cwd=ROOT)
    path = tmp_path / "summary.json"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and not (path.exists() and load_summary(path).n_games >= 6000):
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    partial = load_summary(path)
    assert partial.exact and 6000 <= partial.n_games < 400_000
    resumed = census(ITALIAN_HALF, stop=400_000, store=tmp_path, n_jobs=2)
    assert resumed == census(ITALIAN_HALF, stop=400_000, n_jobs=1)


def test_loops_as_cycles():
    from beggarstats.engine.cycles import canonical_cycle, cycle_states, half_swap
    from beggarstats.engine.cycles import mirror_state
    from beggarstats.run.cycles import loop_cycles

    rules = bs.Rules(deck=bs.Deck(7, 2, 2, 1, 0))  # 23,760 deals, dozens of loops
    s = census(rules, n_jobs=1)
    deals, cycles = loop_cycles(s)
    assert deals["rank"].tolist() == s.loops["game"].tolist() and len(deals) == s.outcomes[1] > 0
    assert cycles["deals"].sum() == len(deals) and cycles["cycle"].tolist() == list(range(len(cycles)))
    assert (deals.groupby("cycle")["rank"].min().to_numpy() == cycles["first_rank"].to_numpy()).all()
    assert cycles["half_swap"].any() and not cycles["half_swap"].all()
    forms = set()
    for row in deals.itertuples():
        deal = bs.deal_at(row.rank, rules)
        states = cycle_states(deal, rules, row.loop_start_tricks, row.loop_tricks)
        later = cycle_states(deal, rules, row.loop_start_tricks + 1, row.loop_tricks)  # entered one trick on
        assert canonical_cycle(later) == canonical_cycle(states) and later == states[1:] + states[:1]
        assert half_swap(states) == bool(cycles["half_swap"][row.cycle])
        if half_swap(states):
            k = len(states) // 2
            assert states[k] == mirror_state(states[0]) and states[k] != states[0]
        forms.add(canonical_cycle(states))
        assert cycles["tricks"][row.cycle] == row.loop_tricks and cycles["cards"][row.cycle] == row.loop_cards
    assert len(forms) == len(cycles)
    with pytest.raises(ValueError, match="`summary` must be a census"):
        loop_cycles(bs.summarize(10, rules=rules, seed=1, n_jobs=1))
    with pytest.raises(ValueError, match="does not repeat"):
        row = deals.iloc[0]
        cycle_states(bs.deal_at(int(row["rank"]), rules), rules, int(row["loop_start_tricks"]),
                     int(row["loop_tricks"]) + 1)


@pytest.mark.slow
def test_same_result_on_the_loky_backend():
    import joblib

    rules = bs.Rules(players=3, deck=bs.Deck(5, 1, 1, 1, 1))
    with joblib.parallel_config(backend="loky", n_jobs=2):
        on_loky = census(rules, chunk_size=500)
    assert on_loky == census(rules, n_jobs=1)


@pytest.mark.slow
def test_same_result_on_a_dask_cluster():
    """`bs.census` under ``joblib.parallel_config(backend="dask")``, a local cluster of one worker with
    two threads (processes=False): the same Summary as on one core, loops and longest deals included."""
    import joblib
    import dask.distributed as distributed

    rules = bs.Rules(deck=bs.Deck(7, 2, 2, 1, 0))  # 23,760 deals, some loop
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster):
        with joblib.parallel_config(backend="dask"):
            on_dask = census(rules, chunk_size=2000)
    alone = census(rules, n_jobs=1)
    assert on_dask == alone and on_dask.exact and int(on_dask.outcomes[1]) > 0


def test_the_summary_analysis_reads_a_census():
    """A census is a Summary: the analysis of summaries reads it, and its point values are exact."""
    from beggarstats.analysis import summaries as sa
    from beggarstats.analysis.exact import exact_row

    rules = bs.Rules(deck=bs.Deck(7, 2, 2, 1, 0))
    s = census(rules, n_jobs=1)
    row = exact_row(s)
    assert sa.length_summary(s)["mean"].iloc[0] == pytest.approx(row["mean_cards"])
    assert sa.seat_win_rates(s)["rate"].iloc[0] == pytest.approx(row["seat0_share"])
    assert sa.loop_share(s)["loops"].iloc[0] == row["loops"] > 0
    assert sa.kaplan_meier(s)["survival"].iloc[-1] >= 0


def test_every_summary_analysis_says_a_census_is_exact():
    """Each function of analysis.summaries that takes a Summary has a ``design`` column: 'census' with
    no sampling interval (NaN) and no test for a census, 'sample' with finite intervals for a sample."""
    import inspect

    from beggarstats.analysis import summaries as sa
    from beggarstats.analysis.exact import exact_row

    rules = bs.Rules(deck=bs.Deck(7, 2, 2, 1, 0))
    exact, sample = census(rules, n_jobs=1), bs.summarize(3000, rules=rules, seed=1, n_jobs=1)
    calls = {"length_summary": {}, "length_distribution": {}, "kaplan_meier": {}, "seat_win_rates": {},
             "seat_fairness_test": {}, "loop_share": {}, "tail_rate": {}, "tail_extrapolation": {"lengths": [60]},
             "record_range": {"record": 60, "thresholds": (None,), "start": 0.9, "width": 5},
             "scale_findings": {"record": 60, "start": 0.9}}
    takes_summary = {n for n in sa.__all__ if callable(f := getattr(sa, n))
                     and next(iter(inspect.signature(f).parameters), None) == "summary"}
    assert takes_summary == set(calls) | {"design", "extrapolation_markdown"}  # the two return no table
    assert sa.design(exact) == "census" and "[-, -]" in sa.extrapolation_markdown(exact, [60], start=0.9)
    intervals = {"length_summary": ["mean_low", "mean_high"], "kaplan_meier": ["se", "low", "high"],
                 "seat_win_rates": ["low", "high", "p_value"], "seat_fairness_test": ["chi2", "p_value"],
                 "loop_share": ["low", "high"], "tail_rate": ["rate_low", "rate_high"],
                 "tail_extrapolation": ["probability_low", "probability_high"], "record_range": ["low", "high"]}
    for name, kwargs in calls.items():
        on_census, on_sample = (getattr(sa, name)(s, **kwargs) for s in (exact, sample))
        assert (on_census["design"] == "census").all() and (on_sample["design"] == "sample").all(), name
        for column in intervals.get(name, []):
            assert on_census[column].isna().all(), (name, column)
            assert on_sample[column].notna().any(), (name, column)
    row = exact_row(exact)
    summary = sa.length_summary(exact).iloc[0]  # the population's values over every deal
    assert summary["mean"] == pytest.approx(row["mean_cards"]) and summary["sd"] == pytest.approx(row["sd_cards"])
    assert sa.scale_findings(exact, record=60, start=0.9)["method"].iloc[0].endswith("census: exact, every deal")


def test_a_census_with_progress_warms_its_kernels_first(monkeypatch, capsys):
    """With a bar, a census compiles its kernels before it starts and says so (they compile for tens
    of seconds on first use); without one, nothing is said."""
    from beggarstats.run import warmup

    compiled = []
    monkeypatch.setattr(warmup, "_ready", lambda kernel: kernel in compiled)
    monkeypatch.setattr(warmup, "_compile", compiled.append)
    monkeypatch.setattr(warmup, "compile_apart", compiled.append)
    rules = bs.Rules(players=3, deck=bs.Deck(3, 1, 1, 0, 0))
    census(rules, n_jobs=1)
    assert compiled == [] and capsys.readouterr().err == ""
    census(rules, n_jobs=1, progress=True)
    assert set(compiled) == {"census_multi", "given"} == set(warmup.census_kernels(rules))
    err = capsys.readouterr().err
    assert err.startswith("compiling the game kernels (one time, about") and "compiled the game kernels in" in err
    assert warmup.census_kernels(bs.Rules())[0] == "census_two"
    assert set(warmup.CENSUS_KERNELS) <= set(warmup.COMPILE_SECONDS)


def test_the_census_kernels_warm_up_for_real():
    """`run.warmup` compiles (or loads) each census kernel by running it once: afterwards it is ready."""
    from beggarstats.run import warmup

    for kernel in warmup.CENSUS_KERNELS:
        warmup._compile(kernel)
        assert warmup._ready(kernel)
