"""The one parallel driver of the batch runs (`beggarstats.run.parallel`): how ranges become tasks,
that every task's result reaches the caller once, and that `simulate`, `summarize` and
`simulate_matches` all run through it (issue #14)."""

from __future__ import annotations

import importlib

import joblib
import numpy as np
import pytest

from beggarstats.run import parallel, tables
from beggarstats.run.matches import simulate_matches
from beggarstats.game.rules import Rules
from beggarstats.run.summarize import summarize

pytestmark = pytest.mark.usefixtures("warm_kernels")  # plays games through the kernels

sim = importlib.import_module("beggarstats.run.simulate")


def test_default_tasks_cover_every_game_once_and_shrink_at_the_end():
    """Full-size tasks first, then smaller ones, so two workers finish together (benchmarks/)."""
    ranges = [(0, 1_000_000), (2_000_000, 2_000_500)]
    tasks = list(parallel.chunks(ranges, None, 2))
    assert [g for lo, hi in tasks for g in (lo, hi)] == sorted(g for lo, hi in tasks for g in (lo, hi))
    assert sum(hi - lo for lo, hi in tasks) == 1_000_500 and tasks[0][0] == 0 and tasks[-1][1] == 2_000_500
    assert all(lo < hi <= 1_000_000 or 2_000_000 <= lo < hi for lo, hi in tasks)
    sizes = [hi - lo for lo, hi in tasks]
    assert sizes[0] == parallel.DEFAULT_CHUNK_SIZE and max(sizes) == parallel.DEFAULT_CHUNK_SIZE
    assert sizes[-3] == 1024 and sizes[-1] <= 1024  # the last tasks of the run are small
    assert sizes[:-2] == sorted(sizes[:-2], reverse=True)
    assert list(parallel.chunks(ranges, 400_000, 2))[:3] == [(0, 400_000), (400_000, 800_000), (800_000, 1_000_000)]
    assert sim.DEFAULT_CHUNK_SIZE == parallel.DEFAULT_CHUNK_SIZE  # still importable where it was


def test_shrinking_tasks_worked_out_by_hand():
    # one worker, 10,000 ids: a quarter of what is left each time, never below 1,000 (the floor given)
    tasks = list(parallel.chunks([(0, 10_000)], None, 1, largest=5000, smallest=1000))
    assert [hi - lo for lo, hi in tasks] == [2500, 1875, 1407, 1055, 1000, 1000, 1000, 163]


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_every_result_reaches_the_sink_once(n_jobs):
    got = {}

    def sink(lo, hi, result):
        assert (lo, hi) not in got
        got[lo, hi] = result

    parallel.run_chunks(lambda lo, hi: sum(range(lo, hi)), [(5, 105), (200, 230)], sink=sink, n_jobs=n_jobs,
                        chunk_size=7)
    assert sorted(got) == list(parallel.chunks([(5, 105), (200, 230)], 7, n_jobs))
    assert sum(got.values()) == sum(range(5, 105)) + sum(range(200, 230))


def test_nothing_to_do_calls_nothing():
    parallel.run_chunks(lambda lo, hi: pytest.fail("no task"), [], sink=lambda *a: pytest.fail("no result"))


def test_an_error_in_a_task_reaches_the_caller():
    def work(lo, hi):
        raise RuntimeError(f"task {lo}")

    with pytest.raises(RuntimeError, match="task 0"):
        parallel.run_chunks(work, [(0, 10)], sink=lambda *a: None, chunk_size=10)


def _tasks_of(monkeypatch, call):
    """The (lo, hi) of every task `call` runs through the driver."""
    seen, task = [], parallel._task

    def spy(work, lo, hi):
        seen.append((lo, hi))
        return task(work, lo, hi)

    monkeypatch.setattr(parallel, "_task", spy)
    call()
    return sorted(seen)


def test_simulate_summarize_and_matches_share_the_driver(monkeypatch):
    expected = list(parallel.chunks([(0, 10_000)], None, 1, largest=parallel.DEFAULT_CHUNK_SIZE))
    assert _tasks_of(monkeypatch, lambda: sim.simulate(10_000, seed=1, n_jobs=1)) == expected
    assert _tasks_of(monkeypatch, lambda: summarize(10_000, seed=1, n_jobs=1)) == expected
    # matches: tasks of at least 1,000 matches, shrinking towards the end like the others
    tasks = _tasks_of(monkeypatch, lambda: simulate_matches(10_000, seed=1, n_jobs=1))
    assert [hi - lo for lo, hi in tasks] == [2500, 1875, 1407, 1055, 1000, 1000, 1000, 163]


@pytest.mark.slow  # worker processes are another backend (seconds to start): the slow tier, as in test_census.py
def test_matches_identical_under_a_process_backend():
    base = simulate_matches(300, rules=Rules(players=3), seed=4, n_jobs=1)
    with joblib.parallel_config(backend="loky", n_jobs=2):
        other = simulate_matches(300, rules=Rules(players=3), seed=4, chunk_size=50)
    assert base.equals(other)


def test_match_tables_have_one_set_of_dtypes():
    """The matches and rounds frames are built in `tables`: an empty one has the dtypes of a full one."""
    df, rounds = simulate_matches(30, rules=Rules(players=3), seed=2, return_rounds=True)
    empty_df, empty_rounds = simulate_matches(0, rules=Rules(players=3), seed=2, return_rounds=True)
    assert df.dtypes.to_dict() == empty_df.dtypes.to_dict()
    assert rounds.dtypes.to_dict() == empty_rounds.dtypes.to_dict() == tables.empty_rounds().dtypes.to_dict()
    builder = tables.MatchesFrameBuilder(9, players=2)
    builder.add(7, wins=[[2, 1], [0, 0]], rounds=[4, 5], unfinished=[1, 5], cards=[900, 10], tricks=[120, 2],
                result=[0, 2], winner=[0, -1])
    frame = builder.frame(rules="x", format="best_of_3")
    assert frame.iloc[7].to_dict() == {"match": 7, "players": 2, "rules": "x", "format": "best_of_3",
                                       "outcome": "win", "winner": 0, "finished": True, "rounds": 4,
                                       "unfinished_rounds": 1, "wins_seat0": 2, "wins_seat1": 1, "cards": 900,
                                       "tricks": 120}
    assert frame["winner"].isna().tolist() == [False] * 8 + [True] and frame["finished"].tolist()[-1] is False
    assert tables.nullable_seats(np.array([1, -1])).isna().tolist() == [False, True]
