"""Other joblib backends: loky processes and a dask.distributed cluster give the same frames as
n_jobs=1, in memory and streamed into a store (docs/scaling.md)."""

from __future__ import annotations

import joblib
import pandas as pd
import pytest

from beggarstats.game.rules import Rules
from beggarstats.run.simulate import simulate, simulate_to_store
from beggarstats.run.store import load

pytestmark = pytest.mark.usefixtures("warm_kernels")  # plays games through the kernels

RULES = Rules(players=3, max_cards=400, unfinished="most_cards")


@pytest.fixture(scope="module")
def expected():
    return simulate(600, rules=RULES, seed=21, per_seat=True, n_jobs=1)


@pytest.mark.slow  # another joblib backend
def test_loky_processes(expected):
    with joblib.parallel_config(backend="loky", n_jobs=2):
        games, seats = simulate(600, rules=RULES, seed=21, per_seat=True, chunk_size=100)
    pd.testing.assert_frame_equal(games, expected[0])
    pd.testing.assert_frame_equal(seats, expected[1])


@pytest.mark.slow  # another joblib backend
@pytest.mark.parametrize("processes", [False, True], ids=["threads", "processes"])
def test_dask_cluster(expected, tmp_path, processes):
    import dask.distributed as distributed

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=processes,
                                  dashboard_address=None) as cluster, distributed.Client(cluster):
        with joblib.parallel_config(backend="dask"):
            games, seats = simulate(600, rules=RULES, seed=21, per_seat=True, chunk_size=70)
            simulate_to_store(600, rules=RULES, seed=21, per_seat=True, chunk_size=150, store=tmp_path)
    pd.testing.assert_frame_equal(games, expected[0])
    pd.testing.assert_frame_equal(seats, expected[1])
    pd.testing.assert_frame_equal(load(tmp_path), expected[0])
    pd.testing.assert_frame_equal(load(tmp_path, seats=True), expected[1])


def test_engine_releases_the_gil():
    """Threads only scale if `play_games` runs without the GIL: while it plays in a thread, a pure
    Python loop here must keep running (with the GIL held it would stall for the whole call)."""
    import threading
    import time

    import numpy as np

    from beggarstats.run.device import batch_engine

    engine, rules = batch_engine(), Rules()
    engine(rules, 1, np.arange(10))  # compiled
    n = 2000
    while True:  # a call long enough to see a stall clearly
        t = time.perf_counter()
        engine(rules, 1, np.arange(n))
        alone = time.perf_counter() - t
        if alone > 0.3:
            break
        n *= 2
    worker = threading.Thread(target=engine, args=(rules, 1, np.arange(n)))
    last, gap = time.perf_counter(), 0.0
    worker.start()
    while worker.is_alive():
        now = time.perf_counter()
        gap, last = max(gap, now - last), now
    worker.join()
    assert gap < alone / 2, f"the main thread stalled {gap:.2f} s during a {alone:.2f} s engine call"
