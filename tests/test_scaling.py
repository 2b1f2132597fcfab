"""Other joblib backends: loky processes and a dask.distributed cluster give the same frames as
n_jobs=1, in memory and streamed into a store (docs/scaling.md)."""

from __future__ import annotations

import joblib
import pandas as pd
import pytest

from beggarstats.rules import Rules
from beggarstats.simulate import simulate, simulate_to_store
from beggarstats.store import load

RULES = Rules(players=3, max_cards=400, unfinished="most_cards")


@pytest.fixture(scope="module")
def expected():
    return simulate(600, rules=RULES, seed=21, per_seat=True, n_jobs=1)


def test_loky_processes(expected):
    with joblib.parallel_config(backend="loky", n_jobs=2):
        games, seats = simulate(600, rules=RULES, seed=21, per_seat=True, chunk_size=100)
    pd.testing.assert_frame_equal(games, expected[0])
    pd.testing.assert_frame_equal(seats, expected[1])


@pytest.mark.parametrize("processes", [False, True], ids=["threads", "processes"])
def test_dask_cluster(expected, tmp_path, processes):
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=processes,
                                  dashboard_address=None) as cluster, distributed.Client(cluster):
        with joblib.parallel_config(backend="dask"):
            games, seats = simulate(600, rules=RULES, seed=21, per_seat=True, chunk_size=70)
            simulate_to_store(600, rules=RULES, seed=21, per_seat=True, chunk_size=150, store=tmp_path)
    pd.testing.assert_frame_equal(games, expected[0])
    pd.testing.assert_frame_equal(seats, expected[1])
    pd.testing.assert_frame_equal(load(tmp_path), expected[0])
    pd.testing.assert_frame_equal(load(tmp_path, seats=True), expected[1])
