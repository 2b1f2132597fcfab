"""One set of argument checks for every batch entry point (issue #21, items 6 and 7).

Before: ``summarize(1, start=2**63)`` was an OverflowError traceback, ``summarize(2**64 - 1)`` and
``summarize(10**19)`` ran towards ids past 2**63 - 1, ``summarize(20, chunk_size=10**49)`` made the
whole run one task, ``--jobs 66210`` tried to start 66,210 threads (two tracebacks, threads left
behind) and ``n_jobs=-10**30`` ran on one worker. Every value here is refused before a game is
played (no kernel is compiled: these tests are fast), by the same sentence on every path.
"""

from __future__ import annotations

import threading
import time

import pytest

import beggarstats as bs
from beggarstats.game.checks import check_n_jobs, cpu_count, max_jobs
from beggarstats.run.arguments import check_run
from _scripts import load_script


def _entry_points(tmp_path):
    """Every batch entry point as ``f(n, **shared)``."""
    return {
        "simulate": lambda n, **kw: bs.simulate(n, **kw),
        "simulate_to_store": lambda n, **kw: bs.simulate_to_store(n, store=tmp_path / "s", **kw),
        "summarize": lambda n, **kw: bs.summarize(n, **kw),
        "summarize_store": lambda n, **kw: bs.summarize(n, store=tmp_path / "sum", **kw),
        "simulate_matches": lambda n, **kw: bs.simulate_matches(n, **{k: v for k, v in kw.items() if k != "start"}),
    }


BAD = [
    ({"n_jobs": 66210}, "`n_jobs`"),
    ({"n_jobs": 10**7}, "`n_jobs`"),
    ({"n_jobs": -10**30}, "`n_jobs`"),
    ({"n_jobs": -(cpu_count() + 1)}, "`n_jobs`"),
    ({"n_jobs": 0}, "`n_jobs`"),
    ({"n_jobs": 2.0}, "`n_jobs`"),
    ({"n_jobs": True}, "`n_jobs`"),
    ({"chunk_size": 10**49}, "`chunk_size`"),
    ({"chunk_size": 2**22 + 1}, "`chunk_size`"),
    ({"chunk_size": 0}, "`chunk_size`"),
    ({"seed": 2**64}, "`seed`"),
    ({"seed": -1}, "`seed`"),
    ({"seed": 1.5}, "`seed`"),
]


@pytest.mark.parametrize("entry", ["simulate", "simulate_to_store", "summarize", "summarize_store",
                                   "simulate_matches"])
@pytest.mark.parametrize("bad, names", BAD, ids=[repr(b) for b, _ in BAD])
def test_every_entry_point_refuses_the_same_values(tmp_path, entry, bad, names):
    before = threading.active_count()
    with pytest.raises(ValueError, match=names):
        _entry_points(tmp_path)[entry](10, **bad)
    assert threading.active_count() == before  # no worker was started
    assert not (tmp_path / "s").exists() and not (tmp_path / "sum").exists()  # refused before any output


@pytest.mark.parametrize("entry", ["simulate", "simulate_to_store", "summarize", "summarize_store"])
@pytest.mark.parametrize("n, start", [(1, 2**63), (2**64 - 1, 0), (10**19, 0), (10, 2**63 - 5), (-1, 0)])
def test_ids_past_the_largest_game_id_are_refused(tmp_path, entry, n, start):
    with pytest.raises(ValueError, match="`n_games`|`start`") as info:
        _entry_points(tmp_path)[entry](n, start=start)
    assert "2**63" in str(info.value)


def test_the_last_game_ids_are_accepted():
    assert check_run(5, start=2**63 - 5)[:2] == (5, 2**63 - 5)
    with pytest.raises(ValueError, match="at most 9223372036854775802"):
        check_run(6, start=2**63 - 5)


def test_the_bounds_of_n_jobs():
    cores = cpu_count()
    assert max_jobs() >= 8 * cores
    for ok in (None, 1, max_jobs(), -1, -cores):
        assert check_n_jobs(ok) == ok
    for bad in (max_jobs() + 1, -cores - 1, 0):
        with pytest.raises(ValueError, match=f"from 1 to {max_jobs()}"):
            check_n_jobs(bad)


def test_replay_shares_the_seed_check():
    with pytest.raises(ValueError, match="`seed` must be a whole number from 0 to 2\\*\\*64 - 1"):
        bs.replay(2**64, 0)
    with pytest.raises(ValueError, match="`seed` must be a whole number from 0 to 2\\*\\*64 - 1, but None"):
        bs.replay(None, 0)


@pytest.mark.parametrize("command, args, option", [
    ("simulate", ["--jobs", "66210"], "--jobs"),
    ("matches", ["--chunk-size", str(2**22 + 1), "--seed", "3"], "--chunk-size")])
def test_the_command_line_names_the_option(command, args, option, capsys):
    from beggarstats.cli import main

    count = "--matches" if command == "matches" else "--games"
    assert main([command, count, "10", *args]) == 2
    err = capsys.readouterr().err
    assert option in err and "Traceback" not in err and err.count("\n") == 1
    assert "`n_jobs`" not in err and "or None" not in err


@pytest.mark.parametrize("entry", ["simulate", "summarize", "simulate_matches"])
def test_a_joblib_context_asking_for_too_many_workers_is_refused(tmp_path, entry):
    import joblib

    before = threading.active_count()
    with joblib.parallel_config(n_jobs=66210):
        with pytest.raises(ValueError, match="parallel_config context asks for n_jobs=66210.*`n_jobs`"):
            _entry_points(tmp_path)[entry](10, n_jobs=None)
    assert threading.active_count() == before
    with joblib.parallel_config(n_jobs=2):  # within the bounds: runs
        assert bs.summarize(10, seed=1, n_jobs=None).n_games == 10


_INTERRUPTED = """
import os, signal, threading, time
signal.signal(signal.SIGINT, signal.default_int_handler)  # as on a terminal: a shell that ran the tests in the background left it ignored
import beggarstats as bs
ref = bs.summarize(200_000, seed=3, n_jobs=2)
equal = 0
for i in range(4):
    threading.Timer(0.2 + 0.15 * i, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    try:
        bs.summarize(5_000_000, seed=9, n_jobs=2, chunk_size=20_000)
    except KeyboardInterrupt:
        pass
    equal += bs.summarize(200_000, seed=3, n_jobs=2) == ref
deadline = time.monotonic() + 20  # a stopped thread ends on its own schedule: on a loaded machine, later
while threading.active_count() > 1 and time.monotonic() < deadline:
    time.sleep(0.05)
print(equal, threading.active_count())
"""


@pytest.mark.slow
def test_kernel_calls_interrupted_by_ctrl_c_leave_the_process_sound():
    """Ctrl-C in the middle of the kernels (worker threads inside numba code), four times in one
    process: every later run is exact and no thread is left behind (issue #21, item 6: the crash
    seen after the fuzzing did not come from an interrupted kernel call)."""
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-c", _INTERRUPTED], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["4", "1"]


@pytest.fixture
def threads_fail_after(monkeypatch):
    """``threads_fail_after(k)``: from now on starting a thread fails after ``k`` more, as CPython
    fails when the system's limit is reached (RuntimeError "can't start new thread")."""
    real = threading.Thread.start

    def arm(k):
        started = []

        def start(self):
            if len(started) >= k:
                raise RuntimeError("can't start new thread")
            started.append(self)
            return real(self)

        monkeypatch.setattr(threading.Thread, "start", start)
        return lambda: monkeypatch.setattr(threading.Thread, "start", real)

    return arm


@pytest.mark.parametrize("k", [0, 2, 4, 5, 6])  # no worker, some, every worker, and one or two pool handlers
def test_a_thread_the_system_refuses_is_a_sentence_and_leaves_no_thread(threads_fail_after, k):
    """Item 6: a thread pool that cannot start its threads was a RuntimeError, or CPython's
    "'DummyProcess' object has no attribute 'terminate'" hiding it, and left the threads it had
    started waiting for ever; now a ThreadLimit (an OSError) naming n_jobs, every thread stopped,
    and the next run exact."""
    from beggarstats.run.parallel import ThreadLimit

    ref = bs.summarize(3000, seed=3, n_jobs=2)
    before = threading.active_count()
    disarm = threads_fail_after(k)
    with pytest.raises(ThreadLimit, match=r"Could not start the 4 workers that `n_jobs` \(4\)"):
        bs.summarize(3000, seed=3, n_jobs=4, chunk_size=500)
    disarm()
    # the stopped threads end on their own schedule: on a loaded machine that can take a moment
    deadline = time.monotonic() + 20
    while threading.active_count() > before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert threading.active_count() <= before, [t.name for t in threading.enumerate()]
    assert bs.summarize(3000, seed=3, n_jobs=4, chunk_size=500) == ref


def test_the_command_line_says_a_thread_was_refused_in_one_line(threads_fail_after, capsys):
    from beggarstats.cli import main

    threads_fail_after(1)
    assert main(["summarize", "--games", "3000", "--jobs", "4", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "the system refused a new thread" in err and "Traceback" not in err and err.count("\n") == 1


@pytest.mark.slow
def test_faults_in_parallel_runs_leave_the_process_sound():
    """Item 6, the segfault after the fuzzing: tools/thread_faults.py, small. Ctrl-C inside the
    kernels, an error on a worker, threads refused (by a stand-in and by the system's own
    address-space limit) and a Ctrl-C under loky, in one process: it does not crash, every later
    run is exact and no thread is left behind (60 rounds and the real limit found nothing else)."""
    faults = load_script("tools/thread_faults.py")
    fuzzed = faults.fuzz(rounds=3, seed=5, timeout=300)
    assert fuzzed["status"] == 0, fuzzed["stderr"]
    report = fuzzed["report"]
    assert report["bad"] == [] and set(report["tried"]) == {"sigint", "worker-error", "no-thread"}
    limit = faults.real_limit(timeout=300)
    assert limit["status"] == 0, limit["stderr"]
    # "threads left" may be negative: a thread that was there before (a finished run's) can end meanwhile
    assert all(r["said"] == "ThreadLimit" and r["threads left"] <= 0 and r["exact"] for r in limit["report"].values()), \
        limit["report"]

