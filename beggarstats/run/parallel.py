"""The one parallel driver of the batch runs (`simulate`, `summarize`, `simulate_matches`).

Ranges of ids (games, or matches) are cut into tasks (`chunks`), the tasks run with
``joblib.Parallel(prefer="threads")`` (the kernels release the GIL; a
``joblib.parallel_config(backend=...)`` context such as loky or dask takes over from outside), and
each finished task is handed to the caller as it finishes, in whatever order, with a progress bar
counting ids. Which ids form a task never changes a result: every game has its own random stream,
so a run is identical whatever ``n_jobs``, backend or ``chunk_size``.

Failed and interrupted runs (issue #21, item 6). A fuzzing process that had asked for 66,210
workers later died with a segfault that did not reproduce. What that request did is reproduced
and fixed: CPython's ThreadPool, refused a thread half-way, hid the error behind
``'DummyProcess' object has no attribute 'terminate'`` and left the threads it had started waiting
for tasks for ever (21,822 of them then, so later runs could not start one). ``n_jobs`` is now
bounded (`beggarstats.game.checks.check_n_jobs`), and a thread the system refuses all the same
(its limit on threads or on memory) is a `ThreadLimit` naming ``n_jobs``, with the threads of the
half-built pool stopped. The segfault itself was not reproduced: ``tools/thread_faults.py`` ran
60 faults in one process (24 Ctrl-Cs at random moments inside the kernels of two-thread
`summarize`, `simulate` and `simulate_matches` runs, 12 errors raised on a worker mid-run, 12
pools refused their 1st to 7th thread, 12 Ctrl-Cs under loky) and then met the real
address-space limit (RLIMIT_AS; RLIMIT_NPROC does not bind root, who ran it): no crash, every
later run exact, no thread left behind but loky's one reusable executor. numba's kernels here run
on joblib's threads and hold no state between calls, so an interrupted call leaves nothing behind;
the slow test ``tests/faults/test_faults_arguments.py::test_faults_in_parallel_runs_leave_the_process_sound``
runs a few of those faults.
"""

from __future__ import annotations

import math
import multiprocessing.pool
import threading
from typing import Callable, Iterable

import joblib

from ..game.checks import check_n_jobs
from .progress import progress_bar

__all__ = ["chunks", "run_chunks", "check_context_jobs", "ThreadLimit", "DEFAULT_CHUNK_SIZE", "MIN_AUTO_CHUNK"]

DEFAULT_CHUNK_SIZE = 2**16  # games per task: ~1-2 MB of rows, long enough to hide dispatch costs
MIN_AUTO_CHUNK = 1024


def chunks(ranges: Iterable[tuple[int, int]], chunk_size: int | None, n_jobs, *,
           largest: int = DEFAULT_CHUNK_SIZE, smallest: int = MIN_AUTO_CHUNK):
    """Split ranges of ids into tasks ``(lo, hi)`` of ``chunk_size`` ids.

    By default (``chunk_size=None``) a task is a quarter of what is left per worker, at most
    ``largest`` and at least ``smallest`` ids: full-size tasks while there is plenty to do, then
    smaller and smaller ones, so that the workers run out of work together instead of one waiting
    for the other's last full-size task.
    """
    ranges = list(ranges)
    workers = max(1, joblib.effective_n_jobs(n_jobs))
    left = sum(hi - lo for lo, hi in ranges)
    for lo, hi in ranges:
        a = lo
        while a < hi:
            size = chunk_size or min(largest, max(smallest, math.ceil(left / (4 * workers))))
            b = min(a + size, hi)
            yield a, b
            left -= b - a
            a = b


def check_context_jobs(n_jobs) -> None:
    """With ``n_jobs=None`` a ``joblib.parallel_config(n_jobs=...)`` context chooses the workers:
    the same bound as an ``n_jobs`` passed (`beggarstats.game.checks.check_n_jobs`) for the
    backends that start threads or processes on this machine (a Dask cluster sizes itself)."""
    if n_jobs is not None:
        return
    from joblib.parallel import get_active_backend

    backend, context_jobs = get_active_backend()
    if context_jobs is None or type(backend).__name__ not in ("LokyBackend", "ThreadingBackend",
                                                               "MultiprocessingBackend", "SequentialBackend"):
        return
    try:
        check_n_jobs(context_jobs)
    except ValueError as exc:
        raise ValueError(f"The joblib.parallel_config context asks for n_jobs={context_jobs!r}: {exc}") from None  # names: check_n_jobs's message names `n_jobs`


class ThreadLimit(OSError):
    """The system refused a worker thread (its limit on threads or processes was reached)."""


def _start_failed(exc: BaseException) -> bool:
    """Whether ``exc`` is the failure of a thread pool that could not start its threads: CPython's
    RuntimeError, or the AttributeError its ThreadPool raises while cleaning up after that
    (``'DummyProcess' object has no attribute 'terminate'``, which hides the first)."""
    text = str(exc)
    return (isinstance(exc, RuntimeError) and "can't start new thread" in text) or \
        (isinstance(exc, AttributeError) and "DummyProcess" in text and "terminate" in text)


def _stop_orphans(before: set) -> int:
    """Stop the threads a half-built thread pool left behind (started after ``before`` was taken):
    CPython's ThreadPool does not stop them itself when starting a later thread fails, so its
    workers would wait for tasks, and its worker handler keep them company, for ever. The handler
    is told to end as `multiprocessing.pool.Pool.terminate` tells it, each worker gets the stop
    sentinel on its task queue; returns how many threads were stopped."""
    pool = multiprocessing.pool
    new = [t for t in threading.enumerate() if t not in before]
    handlers = [t for t in new if getattr(getattr(t, "_target", None), "__func__", None)
                is pool.Pool._handle_workers.__func__]
    workers = [t for t in new if getattr(t, "_target", None) is pool.worker]
    # (CPython's own names, as in the 3.11 this is tested on; tests/faults/test_faults_arguments.py fails when
    # a version changes them, since the threads are then left running)
    try:
        for t in handlers:
            t._state = pool.TERMINATE
            t._args[-1].put(None)  # its change notifier: wakes it to see the state; it then stops the task handler
        for t in workers:
            t._args[0].put(None)  # the stop sentinel, on the worker's own task queue
    except (AttributeError, IndexError, TypeError):
        return 0
    tasks = [t for t in new if getattr(t, "_target", None) is pool.Pool._handle_tasks]
    for t in handlers + tasks + workers:
        t.join(timeout=5)
    return sum(not t.is_alive() for t in handlers + tasks + workers)


def _task(work, lo, hi):
    return lo, hi, work(lo, hi)


def run_chunks(work: Callable, ranges, *, sink: Callable, n_jobs=None, chunk_size: int | None = None,
               progress=False, total: int | None = None, unit: str = "game", desc: str | None = None,
               largest: int = DEFAULT_CHUNK_SIZE, smallest: int = MIN_AUTO_CHUNK) -> None:
    """Run ``work(lo, hi)`` for every task of ``ranges`` on joblib workers and hand each result to
    ``sink(lo, hi, result)`` in the calling thread as soon as its task finishes (in any order:
    joblib never holds the results of the whole run).

    ``work`` must be picklable for the process backends (a module-level function or a
    `functools.partial` of one). The bar (``progress``: False, True or 'notebook') counts ids up to
    ``total`` (default: the ids in ``ranges``), starting at what ``ranges`` leave out of it.
    ``chunk_size``, ``largest`` and ``smallest`` are `chunks`'.
    """
    ranges = list(ranges)
    check_context_jobs(n_jobs)
    todo = sum(hi - lo for lo, hi in ranges)
    total = todo if total is None else total
    bar = progress_bar(progress, total, initial=total - todo, unit=unit, desc=desc)
    before = set(threading.enumerate())
    try:
        if todo:
            tasks = (joblib.delayed(_task)(work, lo, hi)
                     for lo, hi in chunks(ranges, chunk_size, n_jobs, largest=largest, smallest=smallest))
            parallel = joblib.Parallel(n_jobs=n_jobs, prefer="threads", return_as="generator_unordered")
            for lo, hi, result in parallel(tasks):
                sink(lo, hi, result)
                if bar is not None:
                    bar.update(hi - lo)
    except (RuntimeError, AttributeError) as exc:
        if not _start_failed(exc):
            raise
        _stop_orphans(before)
        raise ThreadLimit(f"Could not start the {joblib.effective_n_jobs(n_jobs)} workers that `n_jobs` "
                          f"({n_jobs!r}) asks for: the system refused a new thread (a limit on threads or "
                          f"processes, `ulimit -u`, or on memory, `ulimit -v`, was reached). Ask for fewer "
                          f"workers or raise the limit; "
                          f"the results do not depend on the number of workers.") from None
    finally:
        if bar is not None:
            bar.close()
